//! Scan walks on threads, attempt after attempt, each with its lists sorted afresh, their boards merged as they come.

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use super::attempt_trace::AttemptTrace;
use super::completer::{Completers, Worker};
use super::events::{Events, Progress};
use super::keeper::Keeper;
use super::lists::Lists;
use super::options::{Options, SCAN_ATTEMPT_NODES, Stats};
use super::pilot::{Pilots, Work};
use super::plan::Plan;
use super::scan::{self, Attempt, End, STALL, Shared};
use super::split::{DepthCounts, SPLIT_EVERY, Split};
use crate::error::Error;
use crate::outcome::{Limits, Outcome, Status};
use crate::puzzle::{Board, Instance};
use crate::rng::{Rng, attempt_seed, segment_seed};
use crate::stop::{RaiseOnDrop, Stop};

/// How often the run's counters go to [`Events::progress`].
const PROGRESS_EVERY: Duration = Duration::from_secs(1);

/// What every walk thread of a run reads and counts.
pub(crate) struct Walks<'a> {
    pub(crate) lists: &'a Lists,
    /// The first attempt's settings; later attempts keep them.
    pub(crate) attempt: Attempt,
    /// The seed of this segment of the run ([`segment_seed`]).
    pub(crate) seed: u64,
    pub(crate) shared: Shared<'a>,
    /// Attempts started by each walk, counting on from a resumed run's.
    pub(crate) per_walk: &'a [AtomicU64],
    /// Raised when the walks are over (target reached, or the whole tree walked).
    pub(crate) done: &'a AtomicBool,
    /// How many attempts reached each depth as their deepest (index: free cells filled).
    pub(crate) depths: &'a [AtomicUsize],
    /// Where each attempt's seed is written, if anywhere.
    pub(crate) trace: &'a AttemptTrace,
    /// CPU nanoseconds the walk threads used, all walks (what the hand-off costs them shows here).
    pub(crate) cpu_nanos: &'a AtomicU64,
}

impl Walks<'_> {
    /// What the walks counted so far (the other counters left at their defaults).
    fn counted(&self) -> Stats {
        Stats {
            nodes: self.shared.placements(),
            attempts: self.per_walk.iter().map(|a| a.load(Ordering::Relaxed)).sum(),
            walks: self.per_walk.iter().map(|a| a.load(Ordering::Relaxed)).collect(),
            deepest: self.shared.deepest.load(Ordering::Relaxed),
            depths: self.depths.iter().map(|d| d.load(Ordering::Relaxed)).collect(),
            walk_cpu_seconds: self.cpu_nanos.load(Ordering::Relaxed) as f64 * 1e-9,
            ..Stats::default()
        }
    }

    /// Walk `t`'s attempts until the run is over. Its attempt `k` sorts its
    /// lists with a generator seeded from (segment seed, t, k), `k` counting
    /// on from the attempts the walk started in earlier segments, so one walk
    /// with one seed walks the same attempts every time, and a resumed run
    /// none of the earlier segments'.
    pub(crate) fn walk(&self, t: usize) {
        let mut lists = self.lists.clone();
        let over = || {
            self.done.load(Ordering::Relaxed)
                || self.shared.node_limit.is_some_and(|n| self.shared.placements() >= n)
                || self.shared.stop.load(Ordering::Relaxed)
                || self.shared.deadline.is_some_and(|d| Instant::now() >= d)
        };
        while !over() {
            crate::fault::panic_at("walk");
            let k = self.per_walk[t].fetch_add(1, Ordering::Relaxed);
            let seed = attempt_seed(self.seed, t, k);
            self.trace.record(t, k, seed);
            lists.shuffle(&mut Rng::new(seed));
            let cpu = crate::cpu::thread_seconds();
            let ended = scan::attempt(&lists, &self.attempt, &self.shared, t);
            let used = (crate::cpu::thread_seconds() - cpu).max(0.0);
            let _ = self.cpu_nanos.fetch_add((used * 1e9) as u64, Ordering::Relaxed);
            if let Some(slot) = self.depths.get(ended.deepest) {
                let _ = slot.fetch_add(1, Ordering::Relaxed);
            }
            if ended.end == End::Exhausted {
                // The whole tree within the allowance is walked: another order of it finds nothing new.
                self.done.store(true, Ordering::Relaxed);
            }
        }
    }
}

/// The state of one scan run, shared by its threads.
struct Run<'a> {
    instance: &'a Instance,
    options: &'a Options,
    limits: &'a Limits,
    stop: &'a Stop,
    start: Instant,
    deadline: Option<Instant>,
    keeper: Keeper<'a>,
    /// Raised when the run is over; every thread of it polls this flag.
    flag: AtomicBool,
    threads: usize,
}

/// The scan method on `limits.threads` threads (0: one): see `score::solve`.
pub(crate) fn solve(
    instance: &Instance,
    options: &Options,
    limits: &Limits,
    stop: &Stop,
    events: &dyn Events,
) -> Result<Outcome<Stats>, Error> {
    let start = Instant::now();
    let run = Run {
        instance,
        options,
        limits,
        stop,
        start,
        deadline: limits.deadline(start),
        keeper: Keeper::new(instance, options, start, events),
        flag: AtomicBool::new(false),
        threads: limits.threads.max(1) as usize,
    };
    let finish = |status, board, stats| Outcome { status, board, seconds: start.elapsed().as_secs_f64(), stats };
    let Some((plan, lists)) = run.settle() else {
        return run.keeper.finish(stop, Stats::default(), |_, board, stats| finish(Status::Infeasible, board, stats));
    };
    events.plan(&plan);
    let stats = run.walk(&plan, &lists);
    run.keeper.finish(stop, stats, finish)
}

impl Run<'_> {
    /// Settles the plan: given outright by a resumed run, else by the pilot
    /// walks (the keeper watching the stop and the pilots' share of the time
    /// limit, their full boards offered as the run's). Builds its candidate
    /// lists; `None` when the board leaves no plan.
    fn settle(&self) -> Option<(Plan, Lists)> {
        let plan = std::thread::scope(|scope| {
            let _over = RaiseOnDrop(&self.flag);
            let pilot_ends = super::pilot::pilot_deadline(self.start, self.limits.time_limit);
            let _ = scope.spawn(move || self.keeper.watch(&self.flag, self.stop, pilot_ends));
            let pilots = Pilots {
                work: Work::for_limit(self.limits.time_limit),
                seed: self.limits.seed,
                threads: self.threads,
                best: &self.keeper.breaks,
                stop: &self.flag,
                found: &|board, _| self.keeper.offer(board),
            };
            Plan::settle(self.instance, self.options, &pilots)
        });
        self.flag.store(false, Ordering::Relaxed);
        plan.and_then(|plan| plan.lists(self.instance).map(|lists| (plan, lists))).ok()
    }

    /// The walks of `plan` over `lists`, and CP-SAT completing their deep
    /// partial boards, until the run is over; what they counted.
    fn walk(&self, plan: &Plan, lists: &Lists) -> Stats {
        let resume = self.options.resume.clone().unwrap_or_default();
        let per_walk: Vec<AtomicU64> =
            (0..self.threads).map(|t| AtomicU64::new(resume.attempts.get(t).copied().unwrap_or(0))).collect();
        let placed: Vec<AtomicU64> = (0..self.threads).map(|_| AtomicU64::new(0)).collect();
        let depths: Vec<AtomicUsize> = (0..=lists.free()).map(|_| AtomicUsize::new(0)).collect();
        let (deepest, walks_over) = (AtomicUsize::new(0), AtomicBool::new(false));
        let pool = self.pool(plan);
        let queue = Completers::new(self.threads, self.instance, lists.free(), pool.start);
        let found = |board: Board, _: usize| self.keeper.offer(board);
        let deep = |walk: usize, recs: &[u64], breaks: usize| {
            let fill = |board: &mut Board| lists.fill_board(board, recs);
            let worth = |board: &Board| self.keeper.worth(breaks + queue.bound.of(self.instance, board));
            queue.offer(walk, (recs.len(), breaks), fill, worth);
        };
        let trace = AttemptTrace::from_env(resume.generation);
        let cpu_nanos = AtomicU64::new(0);
        let walks = Walks {
            lists,
            attempt: first_attempt(self.options, lists, plan),
            seed: segment_seed(self.limits.seed, resume.generation),
            shared: Shared {
                best: &self.keeper.breaks,
                stop: &self.flag,
                deadline: self.deadline,
                found: &found,
                deep: &deep,
                deepest: &deepest,
                placed: &placed,
                node_limit: self.limits.node_limit,
            },
            per_walk: &per_walk,
            done: &walks_over,
            depths: &depths,
            trace: &trace,
            cpu_nanos: &cpu_nanos,
        };
        let progress = || self.progress(&walks, &queue);
        std::thread::scope(|scope| {
            let _over = RaiseOnDrop(&self.flag);
            let _ = scope.spawn(|| self.keeper.watch(&self.flag, self.stop, self.deadline));
            let _ = scope.spawn(|| report_progress(&self.flag, self.keeper.events(), &progress));
            let worker = Worker {
                instance: self.instance,
                completion: &plan.completion,
                keeper: &self.keeper,
                flag: &self.flag,
                seed: self.limits.seed,
            };
            for index in 0..pool.threads {
                let (queue, worker) = (&queue, worker);
                let _ = scope.spawn(move || queue.work(&worker, index));
            }
            if !pool.fixed {
                let _ = scope.spawn(|| self.resplit(&queue, &cpu_nanos, pool.threads));
            }
            std::thread::scope(|walkers| {
                for t in 0..self.threads {
                    let walks = &walks;
                    let _ = walkers.spawn(move || walks.walk(t));
                }
            });
            // The walks are over; the completions queued may still beat the best.
            if walks_over.load(Ordering::Relaxed) {
                queue.drain(&self.flag);
            }
            self.flag.store(true, Ordering::Relaxed);
        });
        self.keeper.events().progress(&progress());
        queue.counted(Stats { plan: plan.to_string(), ..walks.counted() })
    }

    /// CP-SAT completion workers beside the walks: as the options say, else
    /// one for every two walks to start with (the split measured as the
    /// default on two cores: two walks and one worker), then as the run's
    /// figures say (`split.rs`), up to one per walk; none without completions.
    fn pool(&self, plan: &Plan) -> Pool {
        if plan.completion.cells == 0 {
            return Pool { threads: 0, start: 0, fixed: true };
        }
        match self.options.completers {
            Some(k) => Pool { threads: k, start: k, fixed: true },
            None => Pool { threads: self.threads, start: default_completers(self.threads), fixed: false },
        }
    }

    /// Every [`SPLIT_EVERY`] until the run is over, derives the split from
    /// the run's counts so far (its improvements since the last split) and
    /// sets the workers that take boards (at most `most`); tells the events
    /// when it changes.
    fn resplit(&self, queue: &Completers, walk_cpu_nanos: &AtomicU64, most: usize) {
        let mut next = Instant::now() + SPLIT_EVERY;
        let mut before: Vec<DepthCounts> = Vec::new();
        while !self.flag.load(Ordering::Relaxed) {
            std::thread::sleep(Duration::from_millis(20));
            if Instant::now() < next {
                continue;
            }
            next += SPLIT_EVERY;
            let walk_cpu = walk_cpu_nanos.load(Ordering::Relaxed) as f64 * 1e-9;
            let now = queue.counts();
            let recent = improved_since(&now, &before);
            before = now;
            let Some(split) = Split::derive(self.threads, walk_cpu, &recent, most) else { continue };
            if queue.active.swap(split.completers, Ordering::Relaxed) != split.completers {
                self.keeper.events().split(&split);
            }
        }
    }

    fn progress(&self, walks: &Walks<'_>, queue: &Completers) -> Progress {
        Progress {
            seconds: self.start.elapsed().as_secs_f64(),
            placements: walks.shared.placed.iter().map(|p| p.load(Ordering::Relaxed)).collect(),
            attempts: walks.per_walk.iter().map(|a| a.load(Ordering::Relaxed)).collect(),
            deepest: walks.shared.deepest.load(Ordering::Relaxed),
            completed: queue.completed.load(Ordering::Relaxed),
            queued: queue.handoff.waiting() as u64,
            dropped: queue.handoff.dropped.load(Ordering::Relaxed),
            completers: queue.active.load(Ordering::Relaxed),
            best: self.keeper.best_score(),
        }
    }
}

/// `now`'s counts with their improvements since `before`'s.
fn improved_since(now: &[DepthCounts], before: &[DepthCounts]) -> Vec<DepthCounts> {
    let earlier = |depth| before.iter().find(|b| b.depth == depth).map_or(0, |b| b.improved);
    now.iter().map(|d| DepthCounts { improved: d.improved - earlier(d.depth), ..*d }).collect()
}

/// The completion workers of a run: threads started, how many take boards
/// at the start, and whether the split may change that.
struct Pool {
    threads: usize,
    start: usize,
    fixed: bool,
}

/// The completion workers of a run of `walks` walks to start with: one for every two.
pub(crate) fn default_completers(walks: usize) -> usize {
    walks.div_ceil(2).max(1)
}

/// Hands `progress()` to `events` every [`PROGRESS_EVERY`] until `flag` is raised.
fn report_progress(flag: &AtomicBool, events: &dyn Events, progress: &(dyn Fn() -> Progress + Sync)) {
    let mut next = Instant::now() + PROGRESS_EVERY;
    while !flag.load(Ordering::Relaxed) {
        std::thread::sleep(Duration::from_millis(20));
        if Instant::now() >= next {
            next += PROGRESS_EVERY;
            events.progress(&progress());
        }
    }
}

/// The first attempt's settings for `plan` on `lists`.
pub(crate) fn first_attempt(options: &Options, lists: &Lists, plan: &Plan) -> Attempt {
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
