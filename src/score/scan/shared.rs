//! What a walk shares with its sibling walks and its caller: the best board's breaks, the stop, the callbacks, the run's deepest depth and each walk's count.

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::time::Instant;

use crate::puzzle::Board;

/// Placements between two looks at the clock and the shared flags.
pub(crate) const POLL: u64 = 1 << 16;

/// What the walk shares with its sibling threads and its caller.
#[derive(Clone, Copy)]
pub(crate) struct Shared<'a> {
    /// Breaks of the best full board any walk found (`usize::MAX`: none yet).
    pub(crate) best: &'a AtomicUsize,
    /// Raised from outside (Ctrl-C, the limit, the target reached).
    pub(crate) stop: &'a AtomicBool,
    /// The wall-clock end of the run.
    pub(crate) deadline: Option<Instant>,
    /// Called with each full board whose breaks are below `best`, and the
    /// walk's count of them; the receiver checks the board and lowers `best`
    /// by the checker's count (the walk never lowers it).
    pub(crate) found: &'a (dyn Fn(Board, usize) + Sync),
    /// Called with a partial board that reaches a new depth of its attempt at
    /// or past [`Attempt::report_from`]: the walk, the records of its first
    /// free cells (one per step of the order: see [`Lists::fill_board`]), and
    /// its breaks. The receiver must copy what it keeps: no board is built.
    pub(crate) deep: &'a (dyn Fn(usize, &[u64], usize) + Sync),
    /// The most free cells any walk has filled at once.
    pub(crate) deepest: &'a AtomicUsize,
    /// Placements each walk made so far (index: the walk), counted at every poll.
    pub(crate) placed: &'a [Counter],
    /// The walks stop once their placements together reach this many.
    pub(crate) node_limit: Option<u64>,
}

impl Shared<'_> {
    /// Placements of all walks so far.
    pub(crate) fn placements(&self) -> u64 {
        self.placed.iter().map(|p| p.0.load(Ordering::Relaxed)).sum()
    }
}

/// One walk's count of placements, alone on its cache lines: walks write
/// their own counts at every poll, and counts side by side in one line
/// would pass that line from core to core (false sharing) on a machine with
/// many walks. 128 bytes: two lines, as processors that fetch lines in
/// pairs need.
#[derive(Debug, Default)]
#[repr(align(128))]
pub(crate) struct Counter(pub(crate) AtomicU64);
