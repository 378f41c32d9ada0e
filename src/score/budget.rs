//! The break-budget walk's run: a probe without breaks to learn how deep the exact walk reaches, then walks on threads under the derived ramp.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use super::keeper::{Keeper, RaiseOnDrop};
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

/// Where the automatic ramp over `free` cells unlocks breaks when the exact
/// walk reached `deepest`: a little above that depth (at 95% of it), and never
/// later than `latest`, the ramp's own unlock. See [`ramp`] for the rest.
fn derived_unlock(free: usize, deepest: usize, latest: f64) -> f64 {
    (deepest as f64 * 0.95 / free.max(1) as f64).min(latest)
}

/// The ramp over `free` cells unlocking at `unlock` (a share of them), and its budget:
/// one break for every [`CELLS_PER_BREAK`] cells after the unlock.
fn ramp(free: usize, unlock: f64) -> (Schedule, usize) {
    let start = (unlock * free as f64).floor() as usize;
    let budget = (free - start).div_ceil(CELLS_PER_BREAK).max(1);
    (Schedule::Ramp { unlock, budget: None }, budget)
}

/// The unlock tried after a derived ramp's whole tree below the best board
/// was walked: breaks from half as deep, and from the first cell once that is
/// under a tenth of the cells.
fn earlier(unlock: f64) -> f64 {
    if unlock < 0.1 { 0.0 } else { unlock / 2.0 }
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

/// One phase of a run: every thread walks `schedule` from `budget` breaks.
struct Phase<'a> {
    schedule: &'a Schedule,
    budget: usize,
    /// Without a board, an attempt that finds none allows one break more the next time.
    grow: bool,
    /// When the phase ends (the probe's share of the time); `None`: with the run.
    until: Option<Instant>,
    /// Raised when a walk has walked the whole tree below the best board
    /// under this phase's rules: nothing better is left under them.
    exhausted: AtomicBool,
}

impl<'a> Phase<'a> {
    fn new(schedule: &'a Schedule, budget: usize, grow: bool, until: Option<Instant>) -> Self {
        Phase { schedule, budget, grow, until, exhausted: AtomicBool::new(false) }
    }

    fn exhausted(&self) -> bool {
        self.exhausted.load(Ordering::Relaxed)
    }
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

    /// One thread's attempts in `phase` until the run or the phase is over.
    fn walk(&self, t: usize, phase: &Phase) {
        let free = self.plan.free();
        let mut budget = phase.budget;
        let mut k = 0u64;
        // Placements left under the run's node limit, shared by the threads.
        let left =
            || self.limits.node_limit.map_or(u64::MAX, |n| n.saturating_sub(self.nodes.load(Ordering::Relaxed) as u64));
        let over = || {
            self.done.load(Ordering::Relaxed)
                || phase.exhausted()
                || self.shared.stop.load(Ordering::Relaxed)
                || phase.until.is_some_and(|u| Instant::now() >= u)
                || left() == 0
        };
        while !over() {
            let seed = crate::rng::attempt_seed(self.limits.seed, t, k);
            k += 1;
            self.attempts.fetch_add(1, Ordering::Relaxed);
            self.per_walk[t].fetch_add(1, Ordering::Relaxed);
            let shuffled = self.plan.shuffled(seed);
            let table = |b: usize| phase.schedule.table(free, b);
            let deadline = match (phase.until, self.shared.deadline) {
                (Some(u), Some(d)) => Some(u.min(d)),
                (u, d) => u.or(d),
            };
            let shared = walk::Shared { deadline, ..self.shared };
            let (end, made) = walk::attempt(
                &shuffled,
                &table,
                budget,
                self.options.attempt_nodes.unwrap_or(DEFAULT_ATTEMPT_NODES).min(left()),
                &shared,
            );
            self.nodes.fetch_add(made as usize, Ordering::Relaxed);
            let have = self.shared.best.load(Ordering::Relaxed) != usize::MAX;
            match end {
                walk::End::Stopped => {}
                walk::End::Exhausted | walk::End::Capped if !have && phase.grow => budget = budget.saturating_add(1),
                walk::End::Exhausted if have && phase.until.is_none() => phase.exhausted.store(true, Ordering::Relaxed),
                walk::End::Exhausted | walk::End::Capped => {}
            }
        }
    }

    /// Every thread's walk in `phase` (see [`Run::walk`]), until they end.
    fn phase(&self, threads: usize, phase: &Phase) {
        std::thread::scope(|scope| {
            for t in 0..threads {
                let _ = scope.spawn(move || self.walk(t, phase));
            }
        });
    }

    /// The run's phases on `threads` threads: with an automatic ramp, a probe
    /// without breaks, then ramps derived from how deep it reached (see
    /// [`Run::ramps`]); else the schedule as given, the run over once its
    /// tree below the best board is walked.
    fn phases(&self, threads: usize, joins: usize) {
        let (options, limits) = (self.options, self.limits);
        match (&options.schedule, options.schedule.budget()) {
            (Schedule::Ramp { .. } | Schedule::Band { .. }, None) => {
                let seconds = limits.time_limit.map_or(PROBE_SECONDS, |t| (t * PROBE_SHARE).min(PROBE_SECONDS));
                let until = Some(Instant::now() + Duration::from_secs_f64(seconds));
                let exact = Schedule::Steps(vec![(0, 0)]);
                self.phase(threads, &Phase::new(&exact, 0, false, until));
                let latest = match options.schedule {
                    Schedule::Ramp { unlock, .. } => unlock,
                    _ => schedule::DEFAULT_UNLOCK,
                };
                let deepest = self.shared.deepest.load(Ordering::Relaxed);
                self.ramps(threads, derived_unlock(self.plan.free(), deepest, latest));
            }
            (schedule, budget) => {
                let phase = Phase::new(schedule, budget.unwrap_or(joins).min(joins), false, None);
                self.phase(threads, &phase);
                if phase.exhausted() {
                    self.done.store(true, Ordering::Relaxed);
                }
            }
        }
    }

    /// The derived ramp's phases: when a walk has walked the ramp's whole
    /// tree below the best board, better boards may still break joins the
    /// ramp keeps exact, so the next phase unlocks breaks [`earlier`]; the
    /// run is over once a ramp from the first cell is walked.
    fn ramps(&self, threads: usize, mut unlock: f64) {
        loop {
            let (schedule, budget) = ramp(self.plan.free(), unlock);
            let phase = Phase::new(&schedule, budget, true, None);
            self.phase(threads, &phase);
            if !phase.exhausted() {
                return;
            }
            if unlock == 0.0 {
                self.done.store(true, Ordering::Relaxed);
                return;
            }
            unlock = earlier(unlock);
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
    let deadline = limits.deadline(start);
    let keeper = Keeper::new(instance, options, start, on_best);
    let found = |board: Board, breaks: usize| keeper.offer(board, breaks);
    let (flag, deepest, nodes, attempts) =
        (AtomicBool::new(false), AtomicUsize::new(0), AtomicUsize::new(0), AtomicUsize::new(0));
    let shared = walk::Shared {
        best: &keeper.breaks,
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
        done: &keeper.done,
    };
    std::thread::scope(|scope| {
        let _over = RaiseOnDrop(&flag);
        let _ = scope.spawn(|| keeper.watch(&flag, stop, deadline));
        run.phases(threads, joins);
    });
    let stats = Stats { deepest: deepest.load(Ordering::Relaxed), ..run.counted() };
    keeper.finish(stop, stats, finish)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `ramp:U` caps the derived unlock at U: with the exact walk reaching 90%
    /// of 100 cells, `ramp:0.3` unlocks at 0.3 and the default ramp at its
    /// default. Catches the derived ramp ignoring the U the user gave.
    #[test]
    fn the_derived_ramp_unlocks_no_later_than_the_ramp_given() {
        assert_eq!(derived_unlock(100, 90, 0.3), 0.3);
        assert_eq!(derived_unlock(100, 90, schedule::DEFAULT_UNLOCK), schedule::DEFAULT_UNLOCK);
        assert!((derived_unlock(100, 40, 0.78) - 0.38).abs() < 1e-9, "below the cap: 95% of the exact depth");
    }
}
