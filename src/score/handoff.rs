//! The walks' deep partial boards on their way to the completers: a few slots per walk, written without waiting or allocating, taken most promising first.
//!
//! A walk offers a partial board many hundred times a second (on Eternity II
//! about 850 a second per walk, of which one CP-SAT worker completes about
//! 25), so the offer must cost the walk next to nothing: each walk owns
//! [`SLOTS`] slots, each holding a board allocated once, when the run
//! starts. An offer takes a free slot, or the least promising full one when
//! the new board is more promising (counting the board it replaces as
//! dropped), with `try_lock`: a slot a completer is reading is passed over,
//! never waited for; when none is free the board is dropped and counted.
//! The board is written in place into the walk's own board (the clue board
//! copied over its cells, then the walk's records), judged there (the bound:
//! a board that cannot beat the best is let go), then swapped into the slot,
//! so the walk's thread never allocates.
//! A completer takes the most promising board of every slot (deepest, then
//! fewest breaks) and leaves a fresh board in its place: the allocation is
//! the completer's.

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Mutex, TryLockError};

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

/// How promising a partial board is: deeper first, then fewer breaks.
fn promise((depth, breaks): (usize, usize)) -> (usize, std::cmp::Reverse<usize>) {
    (depth, std::cmp::Reverse(breaks))
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

/// A walk's slots, and the board it writes each offer into first.
#[derive(Debug)]
struct Mailbox {
    /// Only the walk itself locks it: an offer is written and judged here,
    /// then swapped into a slot.
    scratch: Mutex<Board>,
    slots: [Mutex<Slot>; SLOTS],
}

/// The slots of every walk, and what went through them.
#[derive(Debug)]
pub(crate) struct Handoff {
    walks: Vec<Mailbox>,
    /// Boards offered; those the offer's own test let go (the bound: they
    /// cannot beat the best); and those dropped (no slot, or replaced by a better one).
    pub(crate) offered: AtomicU64,
    pub(crate) let_go: AtomicU64,
    pub(crate) dropped: AtomicU64,
    /// Boards waiting in a slot now.
    waiting: AtomicUsize,
}

impl Handoff {
    /// Slots for `walks` walks on boards of `grid`, every board allocated now.
    pub(crate) fn new(walks: usize, grid: Grid) -> Handoff {
        let slot = || Mutex::new(Slot { board: Board::empty(grid), waiting: None });
        let mailbox = || Mailbox { scratch: Mutex::new(Board::empty(grid)), slots: std::array::from_fn(|_| slot()) };
        Handoff {
            walks: (0..walks.max(1)).map(|_| mailbox()).collect(),
            offered: AtomicU64::new(0),
            let_go: AtomicU64::new(0),
            dropped: AtomicU64::new(0),
            waiting: AtomicUsize::new(0),
        }
    }

    /// Offers walk `walk`'s partial board of `depth` free cells and `breaks`
    /// breaks, which `fill` writes into the walk's own board (allocated when
    /// the run began); `keep` then judges it, and a board it keeps is swapped
    /// into a slot. Never waits and never allocates. Whether `keep` kept it
    /// (it may still be dropped for want of a slot).
    pub(crate) fn offer(
        &self,
        walk: usize,
        (depth, breaks): (usize, usize),
        fill: impl FnOnce(&mut Board),
        keep: impl FnOnce(&Board) -> bool,
    ) -> bool {
        let _ = self.offered.fetch_add(1, Ordering::Relaxed);
        let mailbox = &self.walks[walk % self.walks.len()];
        let Ok(mut scratch) = mailbox.scratch.try_lock() else {
            // Another offer of the same mailbox is under way (an outside feed): never wait for it.
            let _ = self.dropped.fetch_add(1, Ordering::Relaxed);
            return false;
        };
        fill(&mut scratch);
        if !keep(&scratch) {
            let _ = self.let_go.fetch_add(1, Ordering::Relaxed);
            return false;
        }
        let new = promise((depth, breaks));
        // A free slot, else the least promising full one below the new board.
        let mut target: Option<(std::sync::MutexGuard<'_, Slot>, bool)> = None;
        for slot in &mailbox.slots {
            let guard = match slot.try_lock() {
                Ok(guard) => guard,
                Err(TryLockError::Poisoned(poisoned)) => poisoned.into_inner(),
                Err(TryLockError::WouldBlock) => continue,
            };
            let Some(old) = guard.waiting.map(promise) else {
                target = Some((guard, true));
                break;
            };
            let lowest = target.as_ref().is_none_or(|(t, _)| t.waiting.map(promise).is_some_and(|t| old < t));
            if old < new && lowest {
                target = Some((guard, false));
            }
        }
        let Some((mut slot, free)) = target else {
            let _ = self.dropped.fetch_add(1, Ordering::Relaxed);
            return true;
        };
        if free {
            let _ = self.waiting.fetch_add(1, Ordering::Relaxed);
        } else {
            let _ = self.dropped.fetch_add(1, Ordering::Relaxed);
        }
        std::mem::swap(&mut *scratch, &mut slot.board);
        slot.waiting = Some((depth, breaks));
        true
    }

    /// The most promising board waiting in any slot, taken (its slot left
    /// with a fresh board), or `None` when none waits. Slots being written
    /// are passed over.
    pub(crate) fn take(&self) -> Option<Taken> {
        let mut best: Option<(std::sync::MutexGuard<'_, Slot>, (usize, usize))> = None;
        for slot in self.walks.iter().flat_map(|m| &m.slots) {
            let guard = match slot.try_lock() {
                Ok(guard) => guard,
                Err(TryLockError::Poisoned(poisoned)) => poisoned.into_inner(),
                Err(TryLockError::WouldBlock) => continue,
            };
            let Some(found) = guard.waiting else { continue };
            if best.as_ref().is_none_or(|(_, b)| promise(found) > promise(*b)) {
                best = Some((guard, found));
            }
        }
        let (mut slot, (depth, breaks)) = best?;
        let grid = slot.board.grid;
        let board = std::mem::replace(&mut slot.board, Board::empty(grid));
        slot.waiting = None;
        let _ = self.waiting.fetch_sub(1, Ordering::Relaxed);
        Some(Taken { board, depth, breaks })
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
        let handoff = Handoff::new(1, grid());
        // SLOTS boards of depth 1, then better ones: each replaces the least promising.
        for _ in 0..SLOTS {
            let _ = handoff.offer(0, (1, 5), fill(1), |_| true);
        }
        for (depth, breaks) in [(5, 0), (9, 2), (7, 1), (9, 1), (3, 0), (8, 0)] {
            let _ = handoff.offer(0, (depth, breaks), fill(depth), |_| true);
        }
        let _ = handoff.offer(0, (1, 6), fill(1), |_| true);
        assert_eq!(handoff.offered.load(Ordering::Relaxed), SLOTS as u64 + 7);
        assert_eq!(handoff.dropped.load(Ordering::Relaxed), 7, "six replaced, one below them all");
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
        let handoff = Handoff::new(1, grid());
        let held: Vec<_> = handoff.walks[0].slots.iter().map(|s| s.lock().unwrap()).collect();
        assert!(handoff.offer(0, (5, 0), fill(5), |_| true), "kept by its test, then dropped for want of a slot");
        assert_eq!(handoff.dropped.load(Ordering::Relaxed), 1);
        drop(held);
        assert!(handoff.offer(0, (5, 0), fill(5), |_| true));
        assert_eq!(handoff.waiting(), 1);
        // A board its test lets go takes no slot and is counted apart.
        assert!(!handoff.offer(0, (9, 0), fill(9), |_| false));
        assert_eq!((handoff.waiting(), handoff.let_go.load(Ordering::Relaxed)), (1, 1));
    }
}
