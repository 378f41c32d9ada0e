//! Where the scan of one depth resumes: the next record and the sums of the cells above it, in one word.

/// Where the scan of one depth resumes, in one word: the next record, and
/// the breaks and quota sides of the cells placed above the depth. A
/// give-up reads it back with one load.
#[derive(Clone, Copy, Debug)]
pub(super) struct Resume(u64);

impl Resume {
    /// The scan resumes at record `next`, the cells above having broken `made` joins and shown `have` quota sides.
    #[inline(always)]
    pub(super) fn new(next: usize, made: u8, have: u16) -> Resume {
        Resume(next as u32 as u64 | u64::from(made) << 32 | u64::from(have) << 40)
    }

    /// The next record, the breaks and the quota sides.
    #[inline(always)]
    pub(super) fn get(self) -> (usize, u8, u16) {
        (self.0 as u32 as usize, (self.0 >> 32) as u8, (self.0 >> 40) as u16)
    }

    /// The breaks of the cells above.
    pub(super) fn made(self) -> usize {
        usize::from(self.get().1)
    }
}
