//! The break-budget walk's run: a probe without breaks to learn how deep the exact walk reaches, then walks on threads under the derived ramp.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use super::options::{Best, DEFAULT_ATTEMPT_NODES, Options, Stats};
use super::schedule::{self, Schedule};
use super::walk;
use crate::outcome::{Limits, Outcome, Status};
use crate::puzzle::{Board, Instance};
use crate::search::Order;
use crate::stop::Stop;

/// Share of the time limit (at most [`PROBE_SECONDS`]) spent walking without breaks
/// to learn how deep the exact walk reaches, when the schedule is the automatic ramp.
const PROBE_SHARE: f64 = 0.05;

/// Most seconds of that probe.
const PROBE_SECONDS: f64 = 3.0;

/// After the probe, one break more is allowed for every this many cells below the unlock depth.
const CELLS_PER_BREAK: usize = 4;

/// The automatic schedule for `free` cells when the exact walk reached `deepest`:
/// breaks unlock a little above that depth (at 95% of it, and never later than
/// `latest`, the ramp's own unlock), and one more is allowed every
/// [`CELLS_PER_BREAK`] cells after.
fn derived(free: usize, deepest: usize, latest: f64) -> (Schedule, usize) {
    let unlock = (deepest as f64 * 0.95 / free.max(1) as f64).min(latest);
    let start = (unlock * free as f64).floor() as usize;
    let budget = (free - start).div_ceil(CELLS_PER_BREAK).max(1);
    (Schedule::Ramp { unlock, budget: None }, budget)
}

/// What every thread of a run shares.
struct Run<'a> {
    plan: &'a walk::Plan,
    options: &'a Options,
    limits: &'a Limits,
    shared: walk::Shared<'a>,
    nodes: &'a AtomicUsize,
    attempts: &'a AtomicUsize,
    /// Attempts started by each thread.
    per_walk: &'a [AtomicUsize],
    /// Raised when the run is over (target reached, nothing better possible).
    done: &'a AtomicBool,
}

impl Run<'_> {
    /// Nodes, attempts and each walk's attempts so far (the other counters at their defaults).
    fn counted(&self) -> Stats {
        Stats {
            nodes: self.nodes.load(Ordering::Relaxed) as u64,
            attempts: self.attempts.load(Ordering::Relaxed) as u64,
            walks: self.per_walk.iter().map(|a| a.load(Ordering::Relaxed) as u64).collect(),
            ..Stats::default()
        }
    }

    /// One thread's attempts under `schedule` from `budget` breaks until the run
    /// is over or `until` passes. Without a board, an attempt that finds none
    /// allows one break more the next time when `grow`.
    fn walk(&self, t: usize, schedule: &Schedule, mut budget: usize, grow: bool, until: Option<Instant>) {
        let free = self.plan.free();
        let mut k = 0u64;
        let over = || {
            self.done.load(Ordering::Relaxed)
                || self.shared.stop.load(Ordering::Relaxed)
                || until.is_some_and(|u| Instant::now() >= u)
        };
        while !over() {
            let seed = self.limits.seed.wrapping_mul(0x9E37_79B9_7F4A_7C15).wrapping_add(((t as u64) << 32) | k);
            k += 1;
            self.attempts.fetch_add(1, Ordering::Relaxed);
            self.per_walk[t].fetch_add(1, Ordering::Relaxed);
            let shuffled = self.plan.shuffled(seed);
            let table = |b: usize| schedule.table(free, b);
            let deadline = match (until, self.shared.deadline) {
                (Some(u), Some(d)) => Some(u.min(d)),
                (u, d) => u.or(d),
            };
            let shared = walk::Shared { deadline, ..self.shared };
            let (end, made) = walk::attempt(
                &shuffled,
                &table,
                budget,
                self.options.attempt_nodes.unwrap_or(DEFAULT_ATTEMPT_NODES),
                &shared,
            );
            self.nodes.fetch_add(made as usize, Ordering::Relaxed);
            let have = self.shared.best.load(Ordering::Relaxed) != usize::MAX;
            match end {
                walk::End::Stopped => {}
                walk::End::Exhausted | walk::End::Capped if !have && grow => budget = budget.saturating_add(1),
                // The whole tree below the best board is walked: nothing better under these rules.
                walk::End::Exhausted if have && until.is_none() => self.done.store(true, Ordering::Relaxed),
                walk::End::Exhausted | walk::End::Capped => {}
            }
        }
    }
}

impl Run<'_> {
    /// Every thread's walk under `schedule` from `budget` breaks (see [`Run::walk`]), until they end.
    fn phase(&self, threads: usize, (schedule, budget): (&Schedule, usize), grow: bool, until: Option<Instant>) {
        std::thread::scope(|scope| {
            for t in 0..threads {
                let _ = scope.spawn(move || self.walk(t, schedule, budget, grow, until));
            }
        });
    }

    /// The run's phases on `threads` threads: with an automatic ramp, a probe
    /// without breaks, then the ramp derived from how deep it reached (its
    /// unlock no later than a `ramp:U`'s U); else the schedule as given.
    fn phases(&self, threads: usize, joins: usize) {
        let (options, limits) = (self.options, self.limits);
        match (&options.schedule, options.schedule.budget()) {
            (Schedule::Ramp { .. } | Schedule::Band { .. }, None) => {
                let seconds = limits.time_limit.map_or(PROBE_SECONDS, |t| (t * PROBE_SHARE).min(PROBE_SECONDS));
                let until = Some(Instant::now() + Duration::from_secs_f64(seconds));
                self.phase(threads, (&Schedule::Steps(vec![(0, 0)]), 0), false, until);
                let latest = match options.schedule {
                    Schedule::Ramp { unlock, .. } => unlock,
                    _ => schedule::DEFAULT_UNLOCK,
                };
                let (schedule, budget) = derived(self.plan.free(), self.shared.deepest.load(Ordering::Relaxed), latest);
                self.phase(threads, (&schedule, budget), true, None);
            }
            (schedule, budget) => self.phase(threads, (schedule, budget.unwrap_or(joins).min(joins)), false, None),
        }
    }
}

/// The break-budget walk (`walk.rs`).
pub(crate) fn solve(
    instance: &Instance,
    options: &Options,
    limits: &Limits,
    stop: &Stop,
    on_best: &(dyn Fn(&Best) + Sync),
) -> Outcome<Stats> {
    let start = Instant::now();
    let finish = |status, board, stats| Outcome { status, board, seconds: start.elapsed().as_secs_f64(), stats };
    let order = options.order.unwrap_or(Order::RowScan).cells(instance);
    let Ok(plan) = walk::Plan::new(instance, &order) else {
        return finish(Status::Infeasible, None, Stats::default());
    };
    let joins = instance.grid.max_score();
    let deadline =
        limits.time_limit.and_then(|t| Duration::try_from_secs_f64(t.max(0.0)).ok()).and_then(|d| start.checked_add(d));
    let kept = Kept::new(instance, options, on_best, start);
    let found = |board: Board, breaks: usize| kept.offer(board, breaks);
    let (flag, deepest, nodes, attempts) =
        (AtomicBool::new(false), AtomicUsize::new(0), AtomicUsize::new(0), AtomicUsize::new(0));
    let shared = walk::Shared {
        best: &kept.breaks,
        stop: &flag,
        found: &found,
        deadline,
        bound: options.tileable,
        deepest: &deepest,
    };
    let threads = limits.threads.max(1) as usize;
    let per_walk: Vec<AtomicUsize> = (0..threads).map(|_| AtomicUsize::new(0)).collect();
    let run = Run {
        plan: &plan,
        options,
        limits,
        shared,
        nodes: &nodes,
        attempts: &attempts,
        per_walk: &per_walk,
        done: &kept.done,
    };
    std::thread::scope(|scope| {
        let _ = scope.spawn(|| follow(&flag, stop, &kept.done, deadline));
        run.phases(threads, joins);
        flag.store(true, Ordering::Relaxed);
    });
    let counted = run.counted();
    let best = kept.best.into_inner().unwrap_or_else(|e| e.into_inner());
    let stats = Stats {
        best_breaks: best.as_ref().map(|b| joins - b.score),
        best_seconds: best.as_ref().map(|b| b.seconds),
        deepest: deepest.load(Ordering::Relaxed),
        ..counted
    };
    let status = match &best {
        Some(b) if b.score == joins => Status::Solved,
        _ if stop.is_raised() => Status::Interrupted,
        _ => Status::Unknown,
    };
    finish(status, best.map(|b| b.board), stats)
}

/// Raises the walks' one flag when the stop handle is raised, the run is
/// done or the deadline passes; returns once the flag is up.
fn follow(flag: &AtomicBool, stop: &Stop, done: &AtomicBool, deadline: Option<Instant>) {
    while !flag.load(Ordering::Relaxed) {
        if stop.is_raised() || done.load(Ordering::Relaxed) || deadline.is_some_and(|d| Instant::now() >= d) {
            flag.store(true, Ordering::Relaxed);
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The run's best board, shared by the walks: the incumbent (a resumed
/// run's board) first, then each better board, handed to `on_best`.
struct Kept<'a> {
    instance: &'a Instance,
    on_best: &'a (dyn Fn(&Best) + Sync),
    start: Instant,
    /// The breaks at which the run is done (`--target`).
    target_breaks: usize,
    best: Mutex<Option<Best>>,
    /// The best board's breaks, read by the walks as their bound.
    breaks: AtomicUsize,
    done: AtomicBool,
}

impl<'a> Kept<'a> {
    fn new(instance: &'a Instance, options: &Options, on_best: &'a (dyn Fn(&Best) + Sync), start: Instant) -> Self {
        let joins = instance.grid.max_score();
        let target_breaks = joins - options.target.unwrap_or(joins).min(joins);
        let incumbent = options.incumbent.as_ref().map(|board| Best {
            board: board.clone(),
            score: board.score(instance),
            seconds: 0.0,
        });
        Kept {
            instance,
            on_best,
            start,
            target_breaks,
            breaks: AtomicUsize::new(incumbent.as_ref().map_or(usize::MAX, |b| joins - b.score)),
            done: AtomicBool::new(incumbent.as_ref().is_some_and(|b| joins - b.score <= target_breaks)),
            best: Mutex::new(incumbent),
        }
    }

    /// A full board a walk found with `breaks` by its count: kept and handed
    /// on when it beats the best so far.
    fn offer(&self, board: Board, breaks: usize) {
        // The score from the board itself, not the walk's count (see `Keeper::offer`).
        let score = board.score(self.instance);
        let breaks = breaks.max(self.instance.grid.max_score() - score);
        let mut slot = self.best.lock().unwrap_or_else(|e| e.into_inner());
        if slot.as_ref().is_some_and(|b| b.score >= score) {
            return;
        }
        let new = Best { board, score, seconds: self.start.elapsed().as_secs_f64() };
        (self.on_best)(&new);
        *slot = Some(new);
        if breaks <= self.target_breaks {
            self.done.store(true, Ordering::Relaxed);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `ramp:U` caps the derived unlock at U: with the exact walk reaching 90%
    /// of 100 cells, `ramp:0.3` unlocks at 0.3 and the default ramp at its
    /// default. Catches the derived ramp ignoring the U the user gave.
    #[test]
    fn the_derived_ramp_unlocks_no_later_than_the_ramp_given() {
        let unlock_of = |(schedule, _): (Schedule, usize)| match schedule {
            Schedule::Ramp { unlock, .. } => unlock,
            other => panic!("a ramp, not {other:?}"),
        };
        assert_eq!(unlock_of(derived(100, 90, 0.3)), 0.3);
        assert_eq!(unlock_of(derived(100, 90, schedule::DEFAULT_UNLOCK)), schedule::DEFAULT_UNLOCK);
        assert!((unlock_of(derived(100, 40, 0.78)) - 0.38).abs() < 1e-9, "below the cap: 95% of the exact depth");
    }
}
