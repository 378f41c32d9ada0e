//! Short walks that settle what the board decides: which colour quota helps the scan walk, and how deep it gets before any break.
//!
//! Each candidate plan walks a fixed number of placements (in attempts that
//! end as the run's do when they stall, each with its lists sorted from the
//! seed), so a seed settles the same plan on any machine and under any load. What counts is what the run will complete:
//! the placements made within [`DEEP`] cells of the end (each a partial
//! board for CP-SAT), then the deepest depth reached. On Eternity II with
//! its centre clue, attempts with the three most concentrated quotas reach
//! 245–247 cells and those without a quota 225–239; on the planted 5 + 17
//! boards and on Eternity II with all five clues a quota holds most attempts
//! near the first rows. Candidates are dealt to the threads in turn.

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};

use super::attempts::{Done, Walk};
use super::lists::Lists;
use super::scan::{Attempt, Counter, Freeze, Shared};
use crate::crew::Crew;
use crate::puzzle::Board;

/// Placements within this many free cells of the end count as deep ones.
pub(crate) const DEEP: usize = 10;

/// The work of one candidate's pilot: placements, in attempts that stall out as the run's do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Work {
    /// Placements.
    pub(crate) nodes: u64,
}

/// Placements a candidate walks when the run has at least [`FULL_WORK_SECONDS`].
const FULL_WORK: u64 = 100_000_000;

/// Attempts the work is dealt into; an attempt stalls out after half its share without a new depth.
const ATTEMPTS: u64 = 4;

/// Runs shorter than this many seconds scale the pilot's work down with their limit (to a quarter at most).
const FULL_WORK_SECONDS: f64 = 300.0;

/// Most share of a run's time limit the pilot walks take: past it they stop
/// with what they have (candidates not yet walked count as reaching nothing).
pub(crate) const PILOT_SHARE: f64 = 0.2;

/// When the pilot of a run of `time_limit` seconds started at `start` must end (`None`: unlimited).
pub(crate) fn pilot_deadline(start: std::time::Instant, time_limit: Option<f64>) -> Option<std::time::Instant> {
    let seconds = time_limit? * PILOT_SHARE;
    std::time::Duration::try_from_secs_f64(seconds.max(0.0)).ok().and_then(|d| start.checked_add(d))
}

impl Work {
    /// The pilot's work for a run of `time_limit` seconds (`None`: unlimited).
    pub(crate) fn for_limit(time_limit: Option<f64>) -> Work {
        let share = time_limit.map_or(1.0, |t| (t / FULL_WORK_SECONDS).clamp(0.25, 1.0));
        Work { nodes: (FULL_WORK as f64 * share) as u64 }
    }
}

/// What a candidate's pilot walk did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Reach {
    /// Placements within [`DEEP`] cells of the end.
    pub(crate) deep: u64,
    /// The most free cells filled at once.
    pub(crate) deepest: usize,
}

/// What the pilot walks share with the run: its seed and threads, the best
/// board's breaks (boards above them are not looked for), the flag that
/// stops them early, their deadline, where their full boards go, and the
/// run's crew (their threads are of it).
#[derive(Clone, Copy)]
pub(crate) struct Pilots<'a> {
    pub(crate) work: Work,
    pub(crate) seed: u64,
    pub(crate) threads: usize,
    pub(crate) best: &'a AtomicUsize,
    pub(crate) stop: &'a AtomicBool,
    /// When the pilots end, with what they have (`None`: when their work is done).
    pub(crate) deadline: Option<std::time::Instant>,
    /// Called with each full board a pilot walk finds, and the walk's count of its breaks.
    pub(crate) found: &'a (dyn Fn(Board, usize) + Sync),
    pub(crate) crew: &'a Crew<'a>,
}

/// The seed of a pilot's attempt `a`.
fn pilot_seed(seed: u64, a: u64) -> u64 {
    seed.wrapping_mul(0x2545_F491_4F6C_DD1D).wrapping_add(a)
}

/// Each candidate's [`Reach`] (a candidate: its lists and the depth of its
/// first break, which attempts are expected to reach), in the candidates'
/// order, on the pilots' threads. Stops early, with what it has, when their
/// flag is raised or their deadline passes.
pub(crate) fn reach(candidates: &[(Lists, usize)], pilots: &Pilots<'_>) -> Vec<Reach> {
    let one = |k: usize| walk_one(&candidates[k], pilots);
    let threads = pilots.threads.clamp(1, candidates.len().max(1));
    let mut reached = vec![Reach::default(); candidates.len()];
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .filter_map(|t| {
                let one = &one;
                let mine = move || (t..candidates.len()).step_by(threads).map(|k| (k, one(k))).collect::<Vec<_>>();
                pilots.crew.spawn(scope, format!("pilot {t}"), mine)
            })
            .collect();
        // A pilot thread that died left its candidates at nothing reached; the crew names it.
        for (k, r) in handles.into_iter().filter_map(|h| h.join().ok().flatten()).flatten() {
            reached[k] = r;
        }
    });
    reached
}

/// One candidate's pilot: its work in [`ATTEMPTS`] attempts, one that
/// stalls leaving the rest of its share to the next.
fn walk_one((lists, expect): &(Lists, usize), pilots: &Pilots<'_>) -> Reach {
    let deep = AtomicU64::new(0);
    let count = |_: usize, _: &[u64], _: usize| {
        let _ = deep.fetch_add(1, Ordering::Relaxed);
    };
    let deepest = AtomicUsize::new(0);
    let placed = [Counter::default()];
    let shared = Shared {
        best: pilots.best,
        stop: pilots.stop,
        deadline: pilots.deadline,
        found: pilots.found,
        deep: &count,
        deepest: &deepest,
        placed: &placed,
        node_limit: None,
    };
    let report_all = lists.free().saturating_sub(DEEP).max(1);
    let work = pilots.work.nodes;
    // Placements made so far, read by `next` and counted by `done`.
    let made = std::cell::Cell::new(0u64);
    let mut a = 0u64;
    // Past the deadline (or stopped), a candidate not yet walked counts as reaching nothing.
    let over =
        || pilots.stop.load(Ordering::Relaxed) || pilots.deadline.is_some_and(|d| std::time::Instant::now() >= d);
    let next = || {
        if made.get() >= work || over() {
            return None;
        }
        let cap = (work / ATTEMPTS).max(1).min(work - made.get());
        let attempt = Attempt {
            budget: usize::MAX,
            cap,
            extend: 0,
            report_from: usize::MAX,
            report_all,
            stall: cap / 2,
            expect: *expect,
            freeze: Freeze::DEFAULT,
        };
        a += 1;
        Some((pilot_seed(pilots.seed, a - 1), attempt))
    };
    let done = |done: &Done| made.set(made.get() + done.ended.nodes.max(1));
    let _ = Walk { lists, shared, index: 0 }.attempts(next, done);
    Reach { deep: deep.load(Ordering::Relaxed), deepest: deepest.load(Ordering::Relaxed) }
}
