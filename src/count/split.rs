//! The count's tree cut at one depth into subtrees, which threads claim one at a time and count whole, each once.
//!
//! The cut is the shallowest depth with at least [`SUBTREES`] nodes (or the
//! last cell but one): it depends on the tree alone, never on the thread
//! count, so a count's progress file means the same on any machine. Each
//! thread takes the next unclaimed subtree from one shared counter (no lock
//! on the hot path: the scan below a prefix touches nothing shared), so a
//! thread that finishes early takes more.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Instant;

use super::plain::{self, Cand, End, Table};
use crate::formats::count_progress::Subtree;

/// Subtrees a cut aims at: enough that threads finish within one subtree's time of each other.
pub(crate) const SUBTREES: usize = 4096;

/// The tree cut at `level` cells: the prefixes in the scan's order, and the nodes of the cut.
#[derive(Debug)]
pub(crate) struct Cut {
    pub(crate) level: usize,
    pub(crate) prefixes: Vec<Vec<Cand>>,
    pub(crate) above: u64,
}

impl Cut {
    /// The shallowest cut of `table`'s tree with at least [`SUBTREES`]
    /// prefixes, or the one at the last cell but one. `None` when `stop` ended it.
    pub(crate) fn of(table: &Table, stop: &AtomicBool) -> Option<Cut> {
        let last = table.cells().saturating_sub(1).max(1);
        let mut level = 1;
        loop {
            let mut prefixes = Vec::new();
            let (end, above) = plain::scan(table, &[], level, stop, None, &mut |p| {
                prefixes.push(p.to_vec());
                true
            });
            if end != End::Done {
                return None;
            }
            if prefixes.len() >= SUBTREES || level >= last || prefixes.is_empty() {
                return Some(Cut { level, prefixes, above });
            }
            level += 1;
        }
    }
}

/// What each thread reads: the table, the cut, which subtrees are done already, the limits.
pub(crate) struct Work<'a> {
    pub(crate) table: &'a Table,
    pub(crate) cut: &'a Cut,
    /// Subtrees counted by an earlier run (skipped).
    pub(crate) done: &'a [bool],
    pub(crate) stop: &'a AtomicBool,
    pub(crate) deadline: Option<Instant>,
    /// Called with each full board; returns whether it is the least of its
    /// class, or `None` to end the count (the limit reached, or an error kept by the caller).
    pub(crate) solution: &'a (dyn Fn(&[Cand]) -> Option<bool> + Sync),
    /// Called with each subtree counted whole.
    pub(crate) counted: &'a (dyn Fn(Subtree) + Sync),
}

/// What the threads counted in subtrees they did not finish (lower bounds, never saved as done).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Partial {
    pub(crate) solutions: u64,
    pub(crate) unique: u64,
    pub(crate) nodes: u64,
}

/// Counts every subtree of `work` not done yet on `threads` threads, until
/// all are counted or the count stops; returns what the unfinished subtrees held.
pub(crate) fn count(work: &Work, threads: usize) -> Partial {
    let next = AtomicUsize::new(0);
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads.max(1)).map(|_| scope.spawn(|| claim_and_count(work, &next))).collect();
        handles.into_iter().fold(Partial::default(), |sum, h| {
            // A thread that panicked has its panic go on here, ending the count (a bug).
            let p = h.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic));
            Partial {
                solutions: sum.solutions + p.solutions,
                unique: sum.unique + p.unique,
                nodes: sum.nodes + p.nodes,
            }
        })
    })
}

/// One thread: claims subtrees from `next` until none is left or the count
/// stops (looked at before each subtree too: most subtrees are smaller than
/// the scan's poll).
fn claim_and_count(work: &Work, next: &AtomicUsize) -> Partial {
    loop {
        if work.stop.load(Ordering::Relaxed) || work.deadline.is_some_and(|d| Instant::now() >= d) {
            return Partial::default();
        }
        let index = next.fetch_add(1, Ordering::Relaxed);
        let Some(prefix) = work.cut.prefixes.get(index) else { return Partial::default() };
        if work.done[index] {
            continue;
        }
        let (end, subtree) = count_subtree(work, index, prefix);
        match end {
            End::Done => (work.counted)(subtree),
            End::Enough | End::Stopped => {
                return Partial { solutions: subtree.solutions, unique: subtree.unique, nodes: subtree.nodes };
            }
        }
    }
}

/// Counts the subtree below `prefix`, number `index`.
fn count_subtree(work: &Work, index: usize, prefix: &[Cand]) -> (End, Subtree) {
    let (mut solutions, mut unique) = (0, 0);
    let mut visit = |board: &[Cand]| match (work.solution)(board) {
        Some(least) => {
            solutions += 1;
            unique += u64::from(least);
            true
        }
        None => false,
    };
    let cells = work.table.cells();
    let (end, nodes) = plain::scan(work.table, prefix, cells, work.stop, work.deadline, &mut visit);
    (end, Subtree { index, solutions, unique, nodes })
}
