//! The count's tree cut at one depth into subtrees, which threads claim one at a time and count whole, each once.
//!
//! The cut is the shallowest depth with at least [`SUBTREES`] nodes (or the
//! last cell but one): it depends on the tree alone, never on the thread
//! count, so a count's progress file means the same on any machine. Each
//! thread takes the next unclaimed subtree from one shared counter (no lock
//! on the hot path: the scan below a prefix touches nothing shared), so a
//! thread that finishes early takes more.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use super::bits;
use super::plain::{self, Cand, End, Halt, Table};
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
            let (end, above) = plain::scan(table, &[], level, Halt::on(stop), &mut |p| {
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

/// The scan that counts the subtrees: on bit sets where the board's pieces
/// fit in a mask, else on the plain scan's lists; the same tree either way.
pub(crate) enum Engine<'a> {
    Lists(&'a Table),
    Bits64(bits::Table<'a, u64>),
    Bits128(bits::Table<'a, u128>),
}

impl<'a> Engine<'a> {
    /// The fastest scan of `table`'s tree, or the lists when `lists`.
    pub(crate) fn new(table: &'a Table, lists: bool) -> Engine<'a> {
        if lists {
            return Engine::Lists(table);
        }
        if let Some(narrow) = bits::Table::of(table) {
            return Engine::Bits64(narrow);
        }
        bits::Table::of(table).map_or(Engine::Lists(table), Engine::Bits128)
    }

    /// Its name in a count's report.
    pub(crate) fn name(&self) -> &'static str {
        match self {
            Engine::Lists(_) => "lists",
            Engine::Bits64(_) => "bits-64",
            Engine::Bits128(_) => "bits-128",
        }
    }

    /// [`plain::scan`] by this engine.
    fn scan(
        &self,
        prefix: &[Cand],
        until: usize,
        halt: Halt<'_>,
        visit: &mut dyn FnMut(&[Cand]) -> bool,
    ) -> (End, u64) {
        match self {
            Engine::Lists(table) => plain::scan(table, prefix, until, halt, visit),
            Engine::Bits64(table) => bits::scan(table, prefix, until, halt, visit),
            Engine::Bits128(table) => bits::scan(table, prefix, until, halt, visit),
        }
    }
}

/// What each thread reads: the engine, the cut, which subtrees are done already, the limits.
pub(crate) struct Work<'a> {
    pub(crate) engine: &'a Engine<'a>,
    pub(crate) cells: usize,
    pub(crate) cut: &'a Cut,
    /// Subtrees counted by an earlier run (skipped).
    pub(crate) done: &'a [bool],
    /// What ends the count early (the flag, the time limit).
    pub(crate) halt: Halt<'a>,
    /// Called with each full board; returns the boards and classes it
    /// counts for, or `None` to end the count (the limit reached, or an error kept by the caller).
    pub(crate) solution: &'a (dyn Fn(&[Cand]) -> Option<Found> + Sync),
    /// Called with each subtree counted whole.
    pub(crate) counted: &'a (dyn Fn(Subtree) + Sync),
}

/// What one full board of the tree counts for: itself (and whether it is
/// the least of its class), or, with a corner piece fixed, its whole class.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Found {
    pub(crate) boards: u64,
    pub(crate) classes: u64,
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
        if work.halt.due() {
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
        Some(found) => {
            solutions += found.boards;
            unique += found.classes;
            true
        }
        None => false,
    };
    let (end, nodes) = work.engine.scan(prefix, work.cells, work.halt, &mut visit);
    (end, Subtree { index, solutions, unique, nodes })
}
