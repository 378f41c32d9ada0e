//! The walks' deep partial boards on their way to the completers: a few slots per walk, written without waiting or allocating, taken most promising first.
//!
//! A walk offers a partial board many hundred times a second (on Eternity II
//! about 850 a second per walk with CP-SAT completing 16 cells, some 10⁵
//! with the native completer's settings), so the offer must cost the walk
//! next to nothing: each walk owns [`SLOTS`] slots, each holding a board
//! allocated once, when the run starts. The caller judges the offer first
//! (the bound, from the walk's records: a board that cannot beat the best is
//! counted and let go); one worth completing takes a free slot, or the least
//! promising full one when it is more promising (counting the board it
//! replaces as dropped), with `try_lock`: a slot a completer is reading is
//! passed over, never waited for; when none is free the board is dropped and
//! counted. Only then is the board written, in place into the slot's board
//! (the clue board copied over its cells, then the walk's records), so the
//! walk's thread never allocates and never writes a board no slot takes.
//! A completer takes the most promising board of every slot (deepest, then
//! fewest breaks) and leaves a fresh board in its place: the allocation is
//! the completer's. What the offers came to is counted per walk, on the
//! walk's own cache lines, and summed when read: with the native completer a
//! walk offers some 10⁵ boards a second, and one count shared by 64 walks
//! would be a line passed from core to core millions of times a second.

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard, TryLockError};

use crate::puzzle::{Board, Grid};

/// Slots per walk. Fewer starve the completers: with four, one worker beside
/// one walk on Eternity II emptied them, then took the next board whatever
/// its depth and spent seconds on shallow ones (246 completions in 30 s
/// against 611 with the queue of 64 before).
pub(crate) const SLOTS: usize = 16;

/// One slot: a board and, when full, what is known of it.
#[derive(Debug)]
struct Slot {
    board: Board,
    /// `Some((depth, breaks))` when the slot holds a board waiting.
    waiting: Option<(usize, usize)>,
}

/// A partial board taken for completion.
#[derive(Debug)]
pub(crate) struct Taken {
    pub(crate) board: Board,
    /// Free cells filled.
    pub(crate) depth: usize,
    /// Joins the walk broke on the way.
    pub(crate) breaks: usize,
}

/// What one walk's offers came to, written by that walk alone and summed
/// when read. A walk offers up to some 10⁵ boards a second; counts of many
/// walks in one cache line (or one count for all) would pass that line from
/// core to core at every offer, so each walk's sit on lines of their own.
#[derive(Debug)]
#[repr(align(128))]
struct Tally {
    /// Boards offered; those the offer's own test let go (the bound: they
    /// cannot beat the best); and those dropped (no slot, or replaced by a better one).
    offered: AtomicU64,
    let_go: AtomicU64,
    dropped: AtomicU64,
    /// Per depth, from [`PAD`] on: boards offered, and those the offer's test kept.
    by_depth: Box<[[AtomicU64; 2]]>,
}

/// Unused entries before and after a tally's depths: 128 bytes each side, so
/// no other allocation shares a line with them.
const PAD: usize = 8;

impl Tally {
    fn new(depths: usize) -> Tally {
        let zero = || [AtomicU64::new(0), AtomicU64::new(0)];
        Tally {
            offered: AtomicU64::new(0),
            let_go: AtomicU64::new(0),
            dropped: AtomicU64::new(0),
            by_depth: (0..depths + 2 * PAD).map(|_| zero()).collect(),
        }
    }

    /// One more offer of `depth`, kept by its test or not.
    fn offer(&self, depth: usize, kept: bool) {
        bump(&self.offered);
        if let Some([offered, kept_at]) = self.at(depth) {
            bump(offered);
            if kept {
                bump(kept_at);
            }
        }
    }

    /// The counts of `depth`, if it is counted.
    fn at(&self, depth: usize) -> Option<&[AtomicU64; 2]> {
        (depth < self.by_depth.len() - 2 * PAD).then(|| &self.by_depth[PAD + depth])
    }
}

/// Adds one to a count. An atomic add on a line no other core writes costs a
/// few cycles more than a plain one; it keeps the count exact when an outside
/// feed offers into a mailbox from several threads.
#[inline]
fn bump(count: &AtomicU64) {
    let _ = count.fetch_add(1, Ordering::Relaxed);
}

/// A walk's slots, what each holds, and its tally.
#[derive(Debug)]
#[repr(align(128))]
struct Mailbox {
    tally: Tally,
    /// Per slot, the [`posted`] promise of the board it holds (0: none),
    /// read without the slot's lock: the walk looks for a slot and the
    /// workers for the best board by loads, and lock only the slot they
    /// chose. Written under the slot's lock; the slot's `waiting` is the
    /// truth, this a hint (a worker may have emptied the slot since).
    posted: Posted,
    slots: [Mutex<Slot>; SLOTS],
}

/// [`Mailbox::posted`], on lines of its own (the walk writes it at each
/// board it posts; the slots' locks beside it are taken by the workers).
#[derive(Debug, Default)]
#[repr(align(128))]
struct Posted([AtomicU64; SLOTS]);

/// How promising a partial board of `depth` free cells and `breaks` breaks
/// is, as one word: deeper, then fewer breaks, is larger; never 0 (the word
/// of an empty slot).
fn posted((depth, breaks): (usize, usize)) -> u64 {
    (depth as u64 + 1) << 32 | u64::from(u32::MAX - breaks.min(u32::MAX as usize) as u32)
}

/// The slot of `mailbox` for a board posted as `new`, locked, with its
/// index: a free one, else the least promising full one below it, chosen
/// by the posted promises; `None` when there is none, or a completer holds
/// the one chosen (never waited for).
fn slot_for(mailbox: &Mailbox, new: u64) -> Option<(usize, MutexGuard<'_, Slot>)> {
    let words = mailbox.posted.0.iter().map(|p| p.load(Ordering::Relaxed));
    let (word, index) = words.enumerate().map(|(i, w)| (w, i)).min()?;
    if word >= new {
        return None;
    }
    lock_free(&mailbox.slots[index]).map(|guard| (index, guard))
}

/// The slot's lock if no one holds it (a poisoned one is taken as it is).
fn lock_free(slot: &Mutex<Slot>) -> Option<MutexGuard<'_, Slot>> {
    match slot.try_lock() {
        Ok(guard) => Some(guard),
        Err(TryLockError::Poisoned(poisoned)) => Some(poisoned.into_inner()),
        Err(TryLockError::WouldBlock) => None,
    }
}

/// The slots of every walk, and what went through them.
#[derive(Debug)]
pub(crate) struct Handoff {
    walks: Vec<Mailbox>,
    /// Boards waiting in a slot now.
    waiting: AtomicUsize,
}

impl Handoff {
    /// Slots for `walks` walks on boards of `grid` whose offers are counted
    /// at depths `0..depths`, every board allocated now.
    pub(crate) fn new(walks: usize, grid: Grid, depths: usize) -> Handoff {
        let slot = || Mutex::new(Slot { board: Board::empty(grid), waiting: None });
        let mailbox =
            || Mailbox { tally: Tally::new(depths), posted: Posted::default(), slots: std::array::from_fn(|_| slot()) };
        Handoff { walks: (0..walks.max(1)).map(|_| mailbox()).collect(), waiting: AtomicUsize::new(0) }
    }

    /// Boards offered by every walk so far.
    pub(crate) fn offered(&self) -> u64 {
        self.sum(|t| &t.offered)
    }

    /// Boards the offers' test let go.
    #[cfg(test)]
    pub(crate) fn let_go(&self) -> u64 {
        self.sum(|t| &t.let_go)
    }

    /// Boards kept by their test but dropped: no slot, or replaced by a better one.
    pub(crate) fn dropped(&self) -> u64 {
        self.sum(|t| &t.dropped)
    }

    /// Boards of `depth` free cells offered, and those their test kept.
    pub(crate) fn at_depth(&self, depth: usize) -> (u64, u64) {
        let load = |t: &Tally, i: usize| t.at(depth).map_or(0, |d| d[i].load(Ordering::Relaxed));
        let of = |i: usize| self.walks.iter().map(|m| load(&m.tally, i)).sum();
        (of(0), of(1))
    }

    fn sum(&self, count: impl Fn(&Tally) -> &AtomicU64) -> u64 {
        self.walks.iter().map(|m| count(&m.tally).load(Ordering::Relaxed)).sum()
    }

    /// Offers walk `walk`'s partial board of `depth` free cells and `breaks`
    /// breaks, `worth` completing or not (the caller's bound: a board that
    /// cannot beat the best is counted and let go). A board worth it goes to
    /// a free slot of the walk, else over the least promising full one below
    /// it, and only then does `fill` write it, into that slot's board
    /// (allocated when the run began): a board no slot takes is never
    /// written. Never waits and never allocates.
    pub(crate) fn offer(
        &self,
        walk: usize,
        (depth, breaks): (usize, usize),
        worth: bool,
        fill: impl FnOnce(&mut Board),
    ) {
        let tally = &self.walks[walk % self.walks.len()].tally;
        tally.offer(depth, worth);
        if !worth {
            bump(&tally.let_go);
            return;
        }
        let mailbox = &self.walks[walk % self.walks.len()];
        let word = posted((depth, breaks));
        let Some((index, mut slot)) = slot_for(mailbox, word) else {
            bump(&tally.dropped);
            return;
        };
        if slot.waiting.is_none() {
            let _ = self.waiting.fetch_add(1, Ordering::Relaxed);
        } else {
            bump(&tally.dropped);
        }
        fill(&mut slot.board);
        slot.waiting = Some((depth, breaks));
        mailbox.posted.0[index].store(word, Ordering::Release);
    }

    /// The most promising board waiting in any slot, taken (its slot left
    /// with a fresh board), or `None` when none waits. The slots are read
    /// by their posted promises; only the chosen one is locked, and one a
    /// walk is writing is passed over for the next best.
    pub(crate) fn take(&self) -> Option<Taken> {
        let mut passed = Vec::new();
        loop {
            let best = self.walks.iter().enumerate().flat_map(|(w, m)| {
                m.posted.0.iter().enumerate().map(move |(i, p)| (p.load(Ordering::Acquire), (w, i)))
            });
            let (_, (walk, index)) = best.filter(|&(word, at)| word > 0 && !passed.contains(&at)).max()?;
            let mailbox = &self.walks[walk];
            match lock_free(&mailbox.slots[index]) {
                Some(mut slot) if slot.waiting.is_some() => {
                    mailbox.posted.0[index].store(0, Ordering::Relaxed);
                    let (depth, breaks) = slot.waiting.take().expect("a waiting board");
                    let grid = slot.board.grid;
                    let board = std::mem::replace(&mut slot.board, Board::empty(grid));
                    let _ = self.waiting.fetch_sub(1, Ordering::Relaxed);
                    return Some(Taken { board, depth, breaks });
                }
                _ => passed.push((walk, index)),
            }
        }
    }

    /// Boards waiting now.
    pub(crate) fn waiting(&self) -> usize {
        self.waiting.load(Ordering::Relaxed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grid() -> Grid {
        Grid { width: 4, height: 4 }
    }

    /// A board whose first `depth` cells are placed (piece = cell), standing in for a partial board.
    fn fill(depth: usize) -> impl FnOnce(&mut Board) {
        move |board: &mut Board| {
            for (cell, slot) in board.cells.iter_mut().enumerate() {
                *slot = (cell < depth)
                    .then_some(crate::puzzle::Placement { piece: cell, rotation: crate::puzzle::Rotation::ALL[0] });
            }
        }
    }

    /// More offers than slots: the slots keep the most promising (deepest,
    /// then fewest breaks), the others are counted as dropped, and takes come
    /// most promising first, each with the board written for it. Catches a
    /// hand-off that keeps the first boards instead of the best, loses count
    /// of the drops, or hands a board with another's depth.
    #[test]
    fn the_slots_keep_the_most_promising_boards_and_count_the_rest() {
        let handoff = Handoff::new(1, grid(), 17);
        // SLOTS boards of depth 1, then better ones: each replaces the least promising.
        for _ in 0..SLOTS {
            handoff.offer(0, (1, 5), true, fill(1));
        }
        for (depth, breaks) in [(5, 0), (9, 2), (7, 1), (9, 1), (3, 0), (8, 0)] {
            handoff.offer(0, (depth, breaks), true, fill(depth));
        }
        handoff.offer(0, (1, 6), true, fill(1));
        assert_eq!(handoff.offered(), SLOTS as u64 + 7);
        assert_eq!(handoff.dropped(), 7, "six replaced, one below them all");
        let taken: Vec<(usize, usize)> = std::iter::from_fn(|| handoff.take())
            .map(|t| {
                assert_eq!(t.board.placed(), t.depth, "the board written for its offer");
                (t.depth, t.breaks)
            })
            .collect();
        assert_eq!(taken[..6], [(9, 1), (9, 2), (8, 0), (7, 1), (5, 0), (3, 0)]);
        assert_eq!(taken.len(), SLOTS);
        assert_eq!(handoff.waiting(), 0);
    }

    /// A slot held by a reader is passed over, never waited for: the offer
    /// goes to another slot, or is dropped when every slot is held.
    #[test]
    fn an_offer_never_waits_for_a_slot_a_completer_holds() {
        let handoff = Handoff::new(1, grid(), 17);
        let held: Vec<_> = handoff.walks[0].slots.iter().map(|s| s.lock().unwrap()).collect();
        handoff.offer(0, (5, 0), true, |_| panic!("no slot takes it: it is not written"));
        assert_eq!((handoff.dropped(), handoff.at_depth(5)), (1, (1, 1)), "worth it, dropped for want of a slot");
        drop(held);
        handoff.offer(0, (5, 0), true, fill(5));
        assert_eq!(handoff.waiting(), 1);
        // A board not worth completing takes no slot, is never written, and is counted apart.
        handoff.offer(0, (9, 0), false, |_| panic!("let go unwritten"));
        assert_eq!((handoff.waiting(), handoff.let_go()), (1, 1));
    }

    /// Offers of several walks are counted per walk and summed when read,
    /// per depth too, and a depth past the counted ones still counts as
    /// offered. Catches a count lost between walks or depths.
    #[test]
    fn every_walks_offers_are_counted_by_depth() {
        let handoff = Handoff::new(3, grid(), 17);
        handoff.offer(0, (5, 0), true, fill(5));
        handoff.offer(1, (5, 1), false, fill(5));
        handoff.offer(2, (9, 0), true, fill(9));
        handoff.offer(2, (40, 0), false, fill(16));
        assert_eq!(handoff.offered(), 4);
        assert_eq!((handoff.at_depth(5), handoff.at_depth(9), handoff.at_depth(40)), ((2, 1), (1, 1), (0, 0)));
        assert_eq!((handoff.let_go(), handoff.dropped(), handoff.waiting()), (2, 0, 2));
    }

    /// Each walk's counts lie on cache lines no other walk's counts or
    /// slots share (an offer writes them; the workers lock the slots).
    /// Catches the alignment removed: the mailboxes of a Vec would then
    /// sit back to back.
    #[test]
    fn each_walks_counts_sit_on_lines_of_their_own() {
        let handoff = Handoff::new(4, grid(), 17);
        for pair in handoff.walks.windows(2) {
            let (a, b) = (&pair[0].tally as *const Tally as usize, &pair[1].tally as *const Tally as usize);
            assert!(b - a >= 128 && a % 128 == 0, "{a:#x} {b:#x}");
            let (posted, slots) = (&pair[0].posted as *const _ as usize, &pair[0].slots as *const _ as usize);
            assert!(posted >= a + 128 && slots >= posted + 128, "tally, posted promises and slots on lines apart");
        }
        let depths = &handoff.walks[0].tally.by_depth;
        assert!(PAD * std::mem::size_of_val(&depths[0]) >= 128, "128 bytes of padding either side");
    }

    /// A worker passes over a slot a walk is writing (locked) for the next
    /// best board, and takes the first one once it is free. Catches a take
    /// that waits on the lock, gives up at the first locked slot, or trusts
    /// a posted promise over the slot.
    #[test]
    fn a_take_passes_over_a_slot_being_written() {
        let handoff = Handoff::new(2, grid(), 17);
        handoff.offer(0, (9, 0), true, fill(9));
        handoff.offer(1, (7, 0), true, fill(7));
        let held = handoff.walks[0].slots[0].lock().unwrap();
        assert_eq!(handoff.take().map(|t| t.depth), Some(7), "the next best");
        assert!(handoff.take().is_none(), "the best is held, none else waits");
        drop(held);
        assert_eq!(handoff.take().map(|t| (t.depth, t.board.placed())), Some((9, 9)));
        assert_eq!(handoff.waiting(), 0);
    }
}
