//! Scan walks on threads, attempt after attempt, each with its lists sorted afresh, their boards merged as they come.
//!
//! Every thread of a run is one of its [`Crew`]: the walks, the completion
//! workers, the split, the progress reports and the dispatch of new bests.
//! One that dies raises the run's stop, every other ends at its next look
//! at it, and the run returns [`Error::Panicked`] naming it.

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use super::attempt_trace::AttemptTrace;
use super::attempts::{Done, Walk};
use super::completer::{Completers, Worker};
use super::dispatch::CloseOnDrop;
use super::events::{Events, Progress};
use super::keeper::Keeper;
use super::lists::Lists;
use super::options::{Options, SCAN_ATTEMPT_NODES, Stats};
use super::pilot::{Pilots, Work, pilot_deadline};
use super::plan::Plan;
use super::record_bound::RecordBound;
use super::scan::{Attempt, Counter, End, Freeze, STALL, Shared};
use super::split::{DepthCounts, SPLIT_EVERY, Split};
use crate::crew::Crew;
use crate::error::Error;
use crate::outcome::{Limits, Outcome, Status};
use crate::puzzle::{Board, Instance};
use crate::rng::{attempt_seed, segment_seed};
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
    /// Raised when the walks are over (the whole tree walked).
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

    /// Whether the walks are over: the tree walked, the node limit reached,
    /// the run stopped or its deadline passed.
    fn over(&self) -> bool {
        self.done.load(Ordering::Relaxed)
            || self.shared.node_limit.is_some_and(|n| self.shared.placements() >= n)
            || self.shared.stop.load(Ordering::Relaxed)
            || self.shared.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// Walk `t`'s attempts until the run is over. Its attempt `k` sorts its
    /// lists with a generator seeded from (segment seed, t, k), `k` counting
    /// on from the attempts the walk started in earlier segments, so one walk
    /// with one seed walks the same attempts every time, and a resumed run
    /// none of the earlier segments'.
    pub(crate) fn walk(&self, t: usize) {
        let walk = Walk { lists: self.lists, shared: self.shared, index: t };
        let next = || {
            if self.over() {
                return None;
            }
            let k = self.per_walk[t].fetch_add(1, Ordering::Relaxed);
            crate::fault::panic_at(format_args!("walk {t} attempt {k}"));
            let seed = attempt_seed(self.seed, t, k);
            self.trace.record(t, k, seed);
            Some((seed, self.attempt))
        };
        let done = |done: &Done| {
            let _ = self.cpu_nanos.fetch_add((done.cpu_seconds * 1e9) as u64, Ordering::Relaxed);
            if let Some(slot) = self.depths.get(done.ended.deepest) {
                let _ = slot.fetch_add(1, Ordering::Relaxed);
            }
        };
        if walk.attempts(next, done) == Some(End::Exhausted) {
            // The whole tree within the allowance is walked: another order of it finds nothing new.
            self.done.store(true, Ordering::Relaxed);
        }
    }
}

/// The state of one scan run, shared by its threads.
struct Run<'a> {
    instance: &'a Instance,
    options: &'a Options,
    limits: &'a Limits,
    start: Instant,
    deadline: Option<Instant>,
    keeper: &'a Keeper<'a>,
    /// Raised when the run is over (by the caller's stop, the keeper, the
    /// deadline's end of the walks, or a thread that died); every thread of it polls it.
    stop: &'a Stop,
    crew: &'a Crew<'a>,
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
    let run_stop = stop.child();
    let raise = || run_stop.raise();
    let crew = Crew::new(&raise);
    let keeper = Keeper::new(instance, options, (start, &run_stop), events);
    let run = Run {
        instance,
        options,
        limits,
        start,
        deadline: limits.deadline(start),
        keeper: &keeper,
        stop: &run_stop,
        crew: &crew,
        threads: limits.threads.max(1) as usize,
    };
    let walked = std::thread::scope(|scope| {
        // Closed however the run ends, so that the dispatch hands on every best and returns.
        let _closed = CloseOnDrop(&keeper.dispatch);
        let _ = crew.spawn(scope, "dispatch".to_owned(), || keeper.dispatch.serve());
        crew.guard("run", || run.settle_and_walk()).flatten()
    });
    crew.check()?;
    let infeasible = walked.is_none();
    keeper.finish(stop, walked.unwrap_or_default(), |status, board, stats| {
        let status = if infeasible { Status::Infeasible } else { status };
        Outcome { status, board, seconds: start.elapsed().as_secs_f64(), stats }
    })
}

impl Run<'_> {
    /// The plan settled and its walks run: what they counted, or `None`
    /// when the board leaves no plan (its clues rule every board out).
    fn settle_and_walk(&self) -> Option<Stats> {
        let (plan, lists) = self.settle()?;
        self.keeper.events().plan(&plan);
        Some(self.walk(&plan, &lists))
    }

    /// Settles the plan: given outright by a resumed run, else by the pilot
    /// walks (within the pilots' share of the time limit, their full boards
    /// offered as the run's). Builds its candidate lists; `None` when the
    /// board leaves no plan.
    fn settle(&self) -> Option<(Plan, Lists)> {
        let pilots = Pilots {
            work: Work::for_limit(self.limits.time_limit),
            seed: self.limits.seed,
            threads: self.threads,
            best: &self.keeper.breaks,
            stop: self.stop.flag(),
            deadline: pilot_deadline(self.start, self.limits.time_limit),
            found: &|board, _| self.keeper.offer(board),
            crew: self.crew,
        };
        let plan = Plan::settle(self.instance, self.options, &pilots);
        plan.and_then(|plan| plan.lists(self.instance).map(|lists| (plan, lists))).ok()
    }

    /// The walks of `plan` over `lists`, and CP-SAT completing their deep
    /// partial boards, until the run is over; what they counted.
    fn walk(&self, plan: &Plan, lists: &Lists) -> Stats {
        let resume = self.options.resume.clone().unwrap_or_default();
        let per_walk: Vec<AtomicU64> =
            (0..self.threads).map(|t| AtomicU64::new(resume.attempts.get(t).copied().unwrap_or(0))).collect();
        let placed: Vec<Counter> = (0..self.threads).map(|_| Counter::default()).collect();
        let depths: Vec<AtomicUsize> = (0..=lists.free()).map(|_| AtomicUsize::new(0)).collect();
        let (deepest, walks_over) = (AtomicUsize::new(0), AtomicBool::new(false));
        let pool = self.pool(plan);
        let queue = Completers::new(self.threads, self.instance, lists.free(), pool.start);
        let found = |board: Board, _: usize| self.keeper.offer(board);
        let bound = RecordBound::new(lists);
        let deep = |walk: usize, recs: &[u64], breaks: usize| {
            let worth = self.keeper.worth(breaks + bound.of(recs));
            queue.offer(walk, (recs.len(), breaks), worth, |board| lists.fill_board(board, recs));
        };
        let trace = AttemptTrace::from_env(resume.generation);
        let cpu_nanos = AtomicU64::new(0);
        let walks = Walks {
            lists,
            attempt: first_attempt(self.options, lists, plan, pool.threads),
            seed: segment_seed(self.limits.seed, resume.generation),
            shared: Shared {
                best: &self.keeper.breaks,
                stop: self.stop.flag(),
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
        self.run_threads(&walks, &queue, (plan, &pool));
        self.keeper.events().progress(&self.progress(&walks, &queue));
        queue.counted(Stats { plan: plan.to_string(), ..walks.counted() })
    }

    /// The walks on their threads, with the completion workers, the split
    /// and the progress reports beside them, until the walks are over (and
    /// what they queued for completion is done, when they walked their whole
    /// tree); then the run's stop ends the others.
    fn run_threads(&self, walks: &Walks<'_>, queue: &Completers, (plan, pool): (&Plan, &Pool)) {
        let crew = self.crew;
        let progress = || self.progress(walks, queue);
        std::thread::scope(|scope| {
            let _over = RaiseOnDrop(self.stop);
            let report = || report_progress(self.stop, self.keeper.events(), &progress);
            let _ = crew.spawn(scope, "progress".to_owned(), report);
            let worker = Worker {
                instance: self.instance,
                completion: &plan.completion,
                keeper: self.keeper,
                run: self.stop,
                seed: self.limits.seed,
            };
            for index in 0..pool.threads {
                let _ = crew.spawn(scope, format!("completion worker {index}"), move || queue.work(&worker, index));
            }
            if !pool.fixed {
                let _ = crew.spawn(scope, "split".to_owned(), || self.resplit(queue, walks.cpu_nanos, pool.threads));
            }
            std::thread::scope(|walkers| {
                for t in 0..self.threads {
                    let _ = crew.spawn(walkers, format!("walk {t}"), move || walks.walk(t));
                }
            });
            // The walks are over; the completions queued may still beat the best.
            if walks.done.load(Ordering::Relaxed) {
                queue.drain(self.stop, self.deadline);
            }
            self.stop.raise();
        });
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
    /// what the run counted since the last split (one window: offers,
    /// completions, their CPU time, improvements and the walks' CPU time)
    /// and sets the workers that take boards (at most `most`); tells the
    /// events when it changes.
    fn resplit(&self, queue: &Completers, walk_cpu_nanos: &AtomicU64, most: usize) {
        let mut next = Instant::now() + SPLIT_EVERY;
        let (mut before, mut walk_cpu_before) = (Vec::new(), 0.0);
        while !self.stop.is_raised() {
            std::thread::sleep(Duration::from_millis(20));
            if Instant::now() < next {
                continue;
            }
            next += SPLIT_EVERY;
            let walk_cpu = walk_cpu_nanos.load(Ordering::Relaxed) as f64 * 1e-9;
            let now = queue.counts();
            let window = DepthCounts::since(&now, &before);
            let split = Split::derive(self.threads, walk_cpu - walk_cpu_before, &window, most);
            (before, walk_cpu_before) = (now, walk_cpu);
            let Some(split) = split else { continue };
            if queue.active.swap(split.completers, Ordering::Relaxed) != split.completers {
                self.keeper.events().split(&split);
            }
        }
    }

    fn progress(&self, walks: &Walks<'_>, queue: &Completers) -> Progress {
        Progress {
            seconds: self.start.elapsed().as_secs_f64(),
            placements: walks.shared.placed.iter().map(|p| p.0.load(Ordering::Relaxed)).collect(),
            attempts: walks.per_walk.iter().map(|a| a.load(Ordering::Relaxed)).collect(),
            deepest: walks.shared.deepest.load(Ordering::Relaxed),
            completed: queue.completed.load(Ordering::Relaxed),
            failed: queue.failed.load(Ordering::Relaxed),
            queued: queue.handoff.waiting() as u64,
            dropped: queue.handoff.dropped(),
            completers: queue.active.load(Ordering::Relaxed),
            best: self.keeper.best_score(),
        }
    }
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

/// Hands `progress()` to `events` every [`PROGRESS_EVERY`] until `stop` is raised.
fn report_progress(stop: &Stop, events: &dyn Events, progress: &(dyn Fn() -> Progress + Sync)) {
    let mut next = Instant::now() + PROGRESS_EVERY;
    while !stop.is_raised() {
        std::thread::sleep(Duration::from_millis(20));
        if Instant::now() >= next {
            next += PROGRESS_EVERY;
            events.progress(&progress());
        }
    }
}

/// The first attempt's settings for `plan` on `lists`, with `workers`
/// completion workers (none: no partial board is offered for completion).
pub(crate) fn first_attempt(options: &Options, lists: &Lists, plan: &Plan, workers: usize) -> Attempt {
    let cells = |cells: usize| if workers == 0 { 0 } else { cells };
    Attempt {
        budget: usize::MAX,
        cap: options.attempt_nodes.unwrap_or(SCAN_ATTEMPT_NODES),
        extend: 0,
        report_from: within(lists.free(), cells(plan.completion.cells)),
        report_all: within(lists.free(), cells(plan.completion.every)),
        stall: STALL,
        expect: plan.first_break(),
        freeze: Freeze::DEFAULT,
    }
}

/// The depth at which `cells` of `free` cells are left (`usize::MAX` for 0: never).
fn within(free: usize, cells: usize) -> usize {
    if cells == 0 { usize::MAX } else { free.saturating_sub(cells).max(1) }
}
