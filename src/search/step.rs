//! One depth of a fill order's plan: the cell it fills, where its key colours come from, and its table key.
//!
//! The leaf the plan, the strip test (`chain.rs`), the engine and the
//! estimator share; the key arithmetic is written once, in [`Step::key`].

/// One candidate of a table: a piece in a rotation and the colours it shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C)]
pub(crate) struct Entry {
    /// Colours shown on N, E, S, W, one byte each from the low end.
    pub(crate) colours: u32,
    /// Piece index.
    pub(crate) piece: u16,
    /// Quarter turns.
    pub(crate) rotation: u8,
}

/// What the search needs at one depth: the cell, where to read the two key
/// colours and the further known sides, and which table to look in.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Step {
    /// The cell filled at this depth.
    pub(crate) cell: u16,
    /// Cells whose packed colours give key colours A and B (the sentinel when absent).
    pub(crate) a_src: u16,
    pub(crate) b_src: u16,
    /// Cells whose packed colours give the further known sides C and D.
    pub(crate) c_src: u16,
    pub(crate) d_src: u16,
    /// Right shifts that bring the wanted colour of each source to the low byte.
    pub(crate) a_shift: u8,
    pub(crate) b_shift: u8,
    pub(crate) c_shift: u8,
    pub(crate) d_shift: u8,
    /// Left shifts that put colours C and D where the candidate shows them.
    pub(crate) c_put: u8,
    pub(crate) d_put: u8,
    /// Bytes of the candidate's colours compared with C and D.
    pub(crate) mask: u32,
    /// Start of this step's table in `Plan::starts` (see [`Step::key`]).
    pub(crate) base: u32,
    /// Right shift giving the colour a candidate shows to the next step, when
    /// the next step is in this step's chain (see `chain.rs`); else 0, and
    /// the next step admits every colour.
    pub(crate) filter_shift: u8,
    /// A chain begins at this step.
    pub(crate) begins_chain: bool,
}

impl Step {
    /// The index in `Plan::starts` of the candidates that show key colours `a`
    /// and `b` (each below `colours`): the step's table holds `colours²` keys.
    #[inline(always)]
    pub(crate) fn key(&self, a: usize, b: usize, colours: usize) -> usize {
        self.base as usize + a * colours + b
    }

    /// True if a candidate of this step's table shows the colours of every
    /// known side (read through `colour`, a cell's packed colours) and its
    /// piece is not `used`: the look-ahead's test of a later cell.
    #[inline(always)]
    pub(crate) fn has_fit(
        &self,
        entries: &[Entry],
        starts: &[u32],
        colours: usize,
        colour: impl Fn(u16) -> u32,
        used: impl Fn(u16) -> bool,
    ) -> bool {
        let read = |src: u16, shift: u8| (colour(src) >> shift) & 0xFF;
        let key = self.key(read(self.a_src, self.a_shift) as usize, read(self.b_src, self.b_shift) as usize, colours);
        let want = (read(self.c_src, self.c_shift) << self.c_put) | (read(self.d_src, self.d_shift) << self.d_put);
        let candidates = &entries[starts[key] as usize..starts[key + 1] as usize];
        candidates.iter().any(|e| e.colours & self.mask == want && !used(e.piece))
    }
}
