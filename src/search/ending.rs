//! How one engine run is bounded, and how it ended.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use crate::puzzle::Board;

/// Where a run must end besides a solution or an exhausted tree.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Bounds {
    /// Wall-clock deadline.
    pub(crate) deadline: Option<Instant>,
    /// Stop after about this many placements.
    pub(crate) node_limit: Option<u64>,
}

/// How a run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum End {
    /// Every cell filled.
    Solved,
    /// The whole tree was walked without a solution.
    Exhausted,
    /// The deadline or node limit was reached.
    Limit,
    /// The caller's stop flag was raised.
    Stopped,
    /// Another run finished first.
    Cancelled,
}

/// The result of one run.
#[derive(Clone, Debug)]
pub(crate) struct Run {
    /// How it ended.
    pub(crate) end: End,
    /// Placements made.
    pub(crate) nodes: u64,
    /// Most cells ever filled at once, clues included.
    pub(crate) best_placed: usize,
    /// The solution, or the deepest partial board seen.
    pub(crate) board: Board,
}

impl Bounds {
    /// Why a run that made `nodes` placements must end now, if it must: the
    /// stop, a sibling's cancel, the node limit or the deadline.
    #[inline]
    pub(crate) fn reached(&self, nodes: u64, stop: &AtomicBool, cancel: &AtomicBool) -> Option<End> {
        if stop.load(Ordering::Relaxed) {
            Some(End::Stopped)
        } else if cancel.load(Ordering::Relaxed) {
            Some(End::Cancelled)
        } else if self.node_limit.is_some_and(|l| nodes >= l) || self.deadline.is_some_and(|d| Instant::now() >= d) {
            Some(End::Limit)
        } else {
            None
        }
    }
}
