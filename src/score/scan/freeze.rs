//! Frozen pieces: the lists of the walk's deep steps copied without the pieces placed far above it, so that the loop stops stepping over them.
//!
//! Deep in an attempt the walk often works within a few dozen cells of its
//! depth, and the pieces placed above them stay placed for many placements;
//! yet every scan reads their records and skips them (on Eternity II 1.6
//! skipped records a placement, by cachegrind's model the branch behind a
//! third of the loop's mispredictions). Not always: there the walk's depth
//! wanders over 120–240 cells, and it thaws some 350 times a second. Every [`Freeze::every`] placements the walk freezes the
//! pieces placed above depth `D` = its depth less [`Freeze::margin`]: the
//! lists of the steps from `D` on are copied without the records of those
//! pieces (nor the clues'), into a region of the walk's record array of
//! their own, and those steps' heads point there. Filtering keeps each
//! list's order, so the scan places the same records in the same order; it
//! only no longer reads the ones it would have skipped.
//!
//! The walk stays below `D` while frozen: to place anything above it, it
//! must first give up the cell at `D − 1`, freeing a frozen piece, and the
//! loop then hands back ([`super::Event::Thaw`]) and the heads point at the
//! full lists again. Positions in lists the walk is in the middle of (each
//! depth on its stack resumes after the record placed there) are moved to
//! the same place in the lists it reads next: the first record at or after
//! the position that the new list holds (the ones in between are placed
//! pieces, skipped either way). Two regions take turns, so a freeze copies
//! into one while the stack still points into the other.

use super::super::lists::{Lists, Rec, head_at};
use super::resume::Resume;
use super::shared::POLL;

/// When and how far above its depth a walk freezes the pieces placed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Freeze {
    /// Placements between two looks at whether to freeze (0: never freeze).
    pub(crate) every: u64,
    /// Cells above the walk's depth that stay unfrozen.
    pub(crate) margin: usize,
    /// A frozen walk freezes again, deeper, once its depth less the margin
    /// is this many cells past where it froze.
    pub(crate) step: usize,
}

impl Freeze {
    /// The walk's settings: a look at every poll, a margin of two rows of
    /// Eternity II.
    pub(crate) const DEFAULT: Freeze = Freeze { every: POLL, margin: 32, step: 8 };

    /// No freezing: the walk reads the full lists throughout.
    #[cfg(test)]
    pub(crate) const NEVER: Freeze = Freeze { every: 0, margin: 0, step: 0 };
}

/// The records and list heads a walk reads, and which of its pieces are frozen.
#[derive(Clone, Debug)]
pub(super) struct Heads {
    /// The lists' records, then two regions of the same size for copies.
    pub(super) recs: Vec<Rec>,
    /// The head of each list each step reads: the lists' own, or a copy's.
    pub(super) starts: Vec<u32>,
    /// The first depth whose steps read copies (0: none is frozen).
    from: usize,
    /// The region the copies are in (1 or 2; 0: none).
    region: usize,
    /// Placements at which the walk looks again.
    next_look: u64,
}

/// The walk's stack, as a freeze reads and moves it.
pub(super) struct Stack<'a> {
    /// Per depth the record placed there, then the missing-side and clue slots.
    pub(super) slots: &'a [u64],
    /// Per depth, where its scan resumes.
    pub(super) resume: &'a mut [Resume],
    /// Free cells placed.
    pub(super) depth: usize,
    /// Placements so far.
    pub(super) nodes: u64,
}

impl Heads {
    /// The full lists of `lists`, nothing frozen.
    pub(super) fn new(lists: &Lists) -> Heads {
        let mut recs = lists.recs.clone();
        recs.resize(3 * lists.recs.len(), Rec::SENTINEL);
        Heads { recs, starts: lists.starts.clone(), from: 0, region: 0, next_look: 0 }
    }

    /// The first depth whose steps read copies (0: none is frozen): giving
    /// up a cell above it frees a frozen piece.
    #[inline(always)]
    pub(super) fn frozen_from(&self) -> usize {
        self.from
    }

    /// Freezes, or freezes deeper, if `freeze` says it is time.
    pub(super) fn look(&mut self, lists: &Lists, freeze: &Freeze, stack: Stack<'_>) {
        if freeze.every == 0 || stack.nodes < self.next_look {
            return;
        }
        self.next_look = stack.nodes + freeze.every;
        let from = stack.depth.saturating_sub(freeze.margin);
        let deeper = if self.from == 0 { from > 0 } else { from >= self.from + freeze.step };
        if deeper {
            self.freeze(lists, from, stack);
        }
    }

    /// The lists of every step read in full again: the walk gave up a cell above the frozen ones.
    pub(super) fn thaw(&mut self, lists: &Lists) {
        self.starts.copy_from_slice(&lists.starts);
        self.from = 0;
        self.region = 0;
    }

    /// Copies the lists of the steps from `from` on without the pieces
    /// placed above `from`, into the region not in use, and moves the
    /// stack's positions to the lists each depth reads next: the full ones
    /// above `from`, the copies from it on.
    fn freeze(&mut self, lists: &Lists, from: usize, stack: Stack<'_>) {
        self.starts.copy_from_slice(&lists.starts);
        if self.from > 0 {
            self.rebase(lists, self.from..from.min(stack.depth + 1), stack.slots, stack.resume);
        }
        let region = if self.region == 1 { 2 } else { 1 };
        self.copy_lists(lists, from, region, stack.slots);
        self.rebase(lists, from..stack.depth + 1, stack.slots, stack.resume);
        self.from = from;
        self.region = region;
    }

    /// Writes into `region` the lists of the steps from `from` on, without
    /// the pieces placed above it, and points those steps' heads at them.
    /// Every list of a table has a head of its own (clue pieces are in none).
    fn copy_lists(&mut self, lists: &Lists, from: usize, region: usize, slots: &[u64]) {
        let mut frozen = vec![false; lists.clue_pieces.len()];
        for &slot in &slots[..from] {
            frozen[usize::from(Rec(slot).piece())] = true;
        }
        let mut tables: Vec<u32> = lists.steps[from..].iter().map(|s| s.table).collect();
        tables.sort_unstable();
        tables.dedup();
        let heads = lists.keys * lists.keys;
        let mut next = region * lists.recs.len();
        for entry in tables.into_iter().flat_map(|t| t as usize..t as usize + heads) {
            self.starts[entry] = next as u32;
            let list = lists.recs[lists.starts[entry] as usize..].iter().take_while(|&&r| r != Rec::SENTINEL);
            for &rec in list.filter(|r| !frozen[usize::from(r.piece())]) {
                self.recs[next] = rec;
                next += 1;
            }
            self.recs[next] = Rec::SENTINEL;
            next += 1;
        }
        debug_assert!(next <= (region + 1) * lists.recs.len(), "a region holds every list once");
    }

    /// Moves the positions of the stack's `depths` to the same place in the
    /// lists the heads point at now.
    fn rebase(&self, lists: &Lists, depths: std::ops::Range<usize>, slots: &[u64], resume: &mut [Resume]) {
        for depth in depths {
            let (next, made, have) = resume[depth].get();
            let s = &lists.steps[depth];
            let key = |slot: u16, shift: u8| usize::from((slots[usize::from(slot)] >> shift) as u8);
            let head = self.starts[head_at(s.table, lists.keys, key(s.a, s.a_shift), key(s.b, s.b_shift))];
            resume[depth] = Resume::new(same_place(&self.recs, next, head as usize), made, have);
        }
    }
}

/// The position in the list starting at `target` of the first record, from
/// position `at` of another list with the same records in the same order
/// (more or fewer of them), that the target list holds; its end if none.
fn same_place(recs: &[Rec], at: usize, target: usize) -> usize {
    for &rec in &recs[at..] {
        let list = recs[target..].iter().position(|&r| r == rec || r == Rec::SENTINEL);
        let found = list.map(|i| target + i).expect("every list ends");
        if recs[found] == rec {
            return found;
        }
    }
    unreachable!("the search stops at its list's end at the latest")
}
