//! Scan walks on threads, attempt after attempt, each with its lists sorted afresh, their boards merged as they come.

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::time::Instant;

use super::completer::{Queue, bound};
use super::keeper::{Keeper, RaiseOnDrop};
use super::lists::Lists;
use super::options::{Best, Options, SCAN_ATTEMPT_NODES, Stats};
use super::pilot::Work;
use super::plan::Plan;
use super::scan::{self, Attempt, End, STALL, Shared};
use crate::outcome::{Limits, Outcome, Status};
use crate::puzzle::{Board, Instance};
use crate::rng::{Rng, attempt_seed};
use crate::stop::Stop;

/// What every walk thread of a run reads and counts.
pub(crate) struct Walks<'a> {
    pub(crate) lists: &'a Lists,
    /// The first attempt's settings; later attempts keep them.
    pub(crate) attempt: Attempt,
    pub(crate) seed: u64,
    pub(crate) shared: Shared<'a>,
    /// Placements and attempts, all threads.
    pub(crate) nodes: &'a AtomicU64,
    pub(crate) attempts: &'a AtomicU64,
    /// Attempts started by each thread.
    pub(crate) per_walk: &'a [AtomicU64],
    /// Raised when the run is over (target reached, or nothing better can be found).
    pub(crate) done: &'a AtomicBool,
    /// How many attempts reached each depth as their deepest (index: free cells filled).
    pub(crate) depths: &'a [AtomicUsize],
    /// No attempt starts once the walks have made this many placements.
    pub(crate) node_limit: Option<u64>,
}

impl Walks<'_> {
    /// What the walks counted so far (the other counters left at their defaults).
    fn counted(&self) -> Stats {
        Stats {
            nodes: self.nodes.load(Ordering::Relaxed),
            attempts: self.attempts.load(Ordering::Relaxed),
            walks: self.per_walk.iter().map(|a| a.load(Ordering::Relaxed)).collect(),
            deepest: self.shared.deepest.load(Ordering::Relaxed),
            depths: self.depths.iter().map(|d| d.load(Ordering::Relaxed)).collect(),
            ..Stats::default()
        }
    }

    /// Thread `t`'s attempts until the run is over. Attempt `k` of thread `t`
    /// sorts its lists with a generator seeded from (seed, t, k), so one
    /// thread with one seed walks the same attempts every time.
    pub(crate) fn walk(&self, t: usize) {
        let mut lists = self.lists.clone();
        let over = || {
            self.done.load(Ordering::Relaxed)
                || self.node_limit.is_some_and(|n| self.nodes.load(Ordering::Relaxed) >= n)
                || self.shared.stop.load(Ordering::Relaxed)
                || self.shared.deadline.is_some_and(|d| Instant::now() >= d)
        };
        let mut k = 0u64;
        while !over() {
            let mut rng = Rng::new(attempt_seed(self.seed, t, k));
            k += 1;
            lists.shuffle(&mut rng);
            let _ = self.attempts.fetch_add(1, Ordering::Relaxed);
            let _ = self.per_walk[t].fetch_add(1, Ordering::Relaxed);
            let scan::Ended { end, nodes: made, deepest, .. } = scan::attempt(&lists, &self.attempt, &self.shared);
            let _ = self.nodes.fetch_add(made, Ordering::Relaxed);
            if let Some(slot) = self.depths.get(deepest) {
                let _ = slot.fetch_add(1, Ordering::Relaxed);
            }
            if end == End::Exhausted {
                // The whole tree within the allowance is walked: another order of it finds nothing new.
                self.done.store(true, Ordering::Relaxed);
            }
        }
    }
}

/// The scan method on `limits.threads` threads (0: one): see `score::solve`.
pub(crate) fn solve(
    instance: &Instance,
    options: &Options,
    limits: &Limits,
    stop: &Stop,
    on_best: &(dyn Fn(&Best) + Sync),
) -> Outcome<Stats> {
    let start = Instant::now();
    let keeper = Keeper::new(instance, options, start, on_best);
    let finish = |status, board, stats| Outcome { status, board, seconds: start.elapsed().as_secs_f64(), stats };
    let deadline = limits.deadline(start);
    let (flag, deepest, nodes, attempts) =
        (AtomicBool::new(false), AtomicUsize::new(0), AtomicU64::new(0), AtomicU64::new(0));
    let found = |board: Board, breaks: usize| keeper.offer(board, breaks);
    let threads = limits.threads.max(1) as usize;
    let Some((plan, lists)) = settle(instance, (options, limits), (&keeper, &flag, stop, start), &found) else {
        return finish(Status::Infeasible, None, Stats::default());
    };
    let depths: Vec<AtomicUsize> = (0..=lists.free()).map(|_| AtomicUsize::new(0)).collect();
    let per_walk: Vec<AtomicU64> = (0..threads).map(|_| AtomicU64::new(0)).collect();
    let queue = Queue::default();
    let reported = AtomicU64::new(0);
    let deep = |board: Board, breaks: usize, depth: usize| {
        let _ = reported.fetch_add(1, Ordering::Relaxed);
        if keeper.worth(breaks + bound(instance, &board)) {
            queue.push(board, breaks, depth);
        }
    };
    let shared = Shared { best: &keeper.breaks, stop: &flag, deadline, found: &found, deep: &deep, deepest: &deepest };
    let walks = Walks {
        lists: &lists,
        attempt: first_attempt(options, &lists, &plan),
        seed: limits.seed,
        shared,
        nodes: &nodes,
        attempts: &attempts,
        per_walk: &per_walk,
        done: &keeper.done,
        depths: &depths,
        node_limit: limits.node_limit,
    };
    std::thread::scope(|scope| {
        let _over = RaiseOnDrop(&flag);
        let _ = scope.spawn(|| keeper.watch(&flag, stop, deadline));
        if plan.completion.cells > 0 {
            let _ = scope.spawn(|| queue.work(instance, &plan.completion, &keeper, &flag, limits.seed));
        }
        std::thread::scope(|walkers| {
            for t in 0..threads {
                let walks = &walks;
                let _ = walkers.spawn(move || walks.walk(t));
            }
        });
    });
    let stats = Stats {
        completions: queue.completed.load(Ordering::Relaxed),
        reported: reported.load(Ordering::Relaxed),
        completions_improved: queue.improved.load(Ordering::Relaxed),
        plan: plan.to_string(),
        ..walks.counted()
    };
    keeper.finish(stop, stats, finish)
}

/// Settles the plan by the pilot walks (the keeper watching the stop and the
/// pilots' share of the time limit) and builds its candidate lists; `None`
/// when the board leaves no plan.
fn settle(
    instance: &Instance,
    (options, limits): (&Options, &Limits),
    (keeper, flag, stop, start): (&Keeper<'_>, &AtomicBool, &Stop, Instant),
    found: &(dyn Fn(Board, usize) + Sync),
) -> Option<(Plan, Lists)> {
    let threads = limits.threads.max(1) as usize;
    let plan = std::thread::scope(|scope| {
        let _over = RaiseOnDrop(flag);
        let pilot_ends = super::pilot::pilot_deadline(start, limits.time_limit);
        let _ = scope.spawn(move || keeper.watch(flag, stop, pilot_ends));
        let work = Work::for_limit(limits.time_limit);
        Plan::settle(instance, options, work, (limits.seed, threads), (&keeper.breaks, flag), found)
    });
    flag.store(false, Ordering::Relaxed);
    plan.and_then(|plan| plan.lists(instance).map(|lists| (plan, lists))).ok()
}

/// The first attempt's settings for `plan` on `lists`.
fn first_attempt(options: &Options, lists: &Lists, plan: &Plan) -> Attempt {
    Attempt {
        budget: usize::MAX,
        cap: options.attempt_nodes.unwrap_or(SCAN_ATTEMPT_NODES),
        extend: 0,
        report_from: within(lists.free(), plan.completion.cells),
        report_all: within(lists.free(), plan.completion.every),
        stall: STALL,
        expect: plan.first_break(),
    }
}

/// The depth at which `cells` of `free` cells are left (`usize::MAX` for 0: never).
fn within(free: usize, cells: usize) -> usize {
    if cells == 0 { usize::MAX } else { free.saturating_sub(cells).max(1) }
}
