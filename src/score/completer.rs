//! The completion workers finish what the scan walk leaves: deep partial boards completed exactly, by CP-SAT or natively, maximizing matched joins.
//!
//! The field's walks stop at a depth and leave the last cells empty. Here a
//! walk offers each partial board that reaches a new depth of its attempt
//! within [`Completion::cells`] of the end, and every one within
//! [`Completion::every`] of it, to the hand-off (`handoff.rs`: a few slots
//! per walk, written without waiting or allocating). A pool of workers, each
//! on its own thread, takes the most promising (deepest, then fewest breaks),
//! skips it when a lower bound on the breaks its empty cells must still make
//! ([`Bound`], `bound.rs`) says it cannot beat the best board, and asks its
//! engine for the placement of the pieces left over the empty cells that
//! matches the most joins, every other cell pinned: CP-SAT
//! ([`crate::cpsat::repair`], whose model frees empty cells), or the native
//! branch and bound (`finish.rs`), which looks only below the breaks the
//! keeper still wants and so gives up a board that cannot beat it at once.
//! Each full board it returns goes to the run's keeper like a walk's. The
//! completions run beside the walks and count in the run's time.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use super::bound::Bound;
use super::completion::{Completion, Engine};
use super::finish::{Budget, finish};
use super::handoff::{Handoff, Taken};
use super::keeper::Keeper;
use super::options::Stats;
use super::split::DepthCounts;
use crate::outcome::Limits;
use crate::puzzle::{Board, Instance};
use crate::stop::Stop;

/// Set (to anything), each completion prints a line on stderr: the partial
/// board's depth and breaks, the score CP-SAT reached and its seconds (how
/// `results/score/` measured completions by depth).
pub const TRACE_ENV: &str = "EDGEMATCH_TRACE_COMPLETIONS";

/// The completion workers of a run: the boards the walks offer, taken
/// most promising first by each worker in turn, and what the workers did.
pub(crate) struct Completers {
    pub(crate) handoff: Handoff,
    /// Boards completed, and the completions that beat the run's best.
    pub(crate) completed: AtomicU64,
    pub(crate) improved: AtomicU64,
    /// Completions CP-SAT failed (an error, not a board): counted apart, their time fed to no split.
    pub(crate) failed: AtomicU64,
    /// The first failure's error.
    first_failure: Mutex<Option<String>>,
    /// Raised once [`GIVE_UP_AFTER`] completions failed and none succeeded:
    /// the walks offer no more boards and the workers take none.
    pub(crate) given_up: AtomicBool,
    /// What went on at each depth (free cells filled), for the split (`split.rs`).
    at: Vec<AtDepth>,
    /// Workers holding a board now.
    busy: AtomicUsize,
    /// Workers that take boards: those numbered from this on wait (the split sets it).
    pub(crate) active: AtomicUsize,
    /// The bound, its counts of the pieces' sides made once.
    pub(crate) bound: Bound,
}

/// Failed completions, with none done, after which a run stops completing
/// (a CP-SAT that fails every time, such as one given a seed it refuses,
/// would otherwise take the workers' time for nothing for the whole run).
pub(crate) const GIVE_UP_AFTER: u64 = 8;

/// The counts of one depth.
#[derive(Default)]
struct AtDepth {
    completed: AtomicU64,
    improved: AtomicU64,
    /// CPU time of the completions, in nanoseconds.
    cpu_nanos: AtomicU64,
}

impl Completers {
    /// The completers of a run of `walks` walks over `free` free cells of
    /// `instance`, of which the first `workers` take boards (the split may
    /// change that: [`Completers::active`]).
    pub(crate) fn new(walks: usize, instance: &Instance, free: usize, workers: usize) -> Completers {
        Completers {
            handoff: Handoff::new(walks, instance.grid, free + 1),
            completed: AtomicU64::new(0),
            improved: AtomicU64::new(0),
            failed: AtomicU64::new(0),
            first_failure: Mutex::new(None),
            given_up: AtomicBool::new(false),
            at: (0..=free).map(|_| AtDepth::default()).collect(),
            busy: AtomicUsize::new(0),
            active: AtomicUsize::new(workers),
            bound: Bound::new(instance),
        }
    }

    /// Offers walk `walk`'s partial board of `depth` free cells with
    /// `breaks`, `worth` completing or not (the caller's [`Bound`]: whether
    /// a completion may beat the best), written by `fill` once a slot takes
    /// it. Never waits and never allocates.
    pub(crate) fn offer(
        &self,
        walk: usize,
        (depth, breaks): (usize, usize),
        worth: bool,
        fill: impl FnOnce(&mut Board),
    ) {
        if self.given_up.load(Ordering::Relaxed) {
            return;
        }
        self.handoff.offer(walk, (depth, breaks), worth, fill);
    }

    /// Per depth with an offer: (depth, boards offered, boards completed), deepest first.
    pub(crate) fn by_depth(&self) -> Vec<(usize, u64, u64)> {
        let load = |c: &AtomicU64| c.load(Ordering::Relaxed);
        let rows = self.at.iter().enumerate().rev().map(|(d, at)| (d, self.handoff.at_depth(d).0, load(&at.completed)));
        rows.filter(|&(_, offered, _)| offered > 0).collect()
    }

    /// `stats` with what the completers counted.
    pub(crate) fn counted(&self, stats: Stats) -> Stats {
        Stats {
            completions: self.completed.load(Ordering::Relaxed),
            completions_failed: self.failed.load(Ordering::Relaxed),
            reported: self.handoff.offered(),
            completions_improved: self.improved.load(Ordering::Relaxed),
            dropped: self.handoff.dropped(),
            completers: self.active.load(Ordering::Relaxed),
            completions_by_depth: self.by_depth(),
            ..stats
        }
    }

    /// Per depth with a kept offer: what the split is derived from.
    pub(crate) fn counts(&self) -> Vec<DepthCounts> {
        let load = |c: &AtomicU64| c.load(Ordering::Relaxed);
        let rows = self.at.iter().enumerate().map(|(depth, at)| (depth, self.handoff.at_depth(depth).1, at));
        rows.filter(|&(_, kept, _)| kept > 0)
            .map(|(depth, kept, at)| DepthCounts {
                depth,
                kept,
                completed: load(&at.completed),
                improved: load(&at.improved),
                cpu_seconds: load(&at.cpu_nanos) as f64 * 1e-9,
            })
            .collect()
    }

    /// Worker `index` takes boards one after the other until the run's
    /// stop is raised (waiting while its number is not among the
    /// [`Completers::active`], or once completions were given up): each
    /// worth completing (the bound lets it beat the best) is completed.
    pub(crate) fn work(&self, worker: &Worker<'_>, index: usize) {
        while !worker.run.is_raised() {
            crate::fault::panic_at(format_args!("completion worker {index}"));
            if index >= self.active.load(Ordering::Relaxed) || self.given_up.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(20));
                continue;
            }
            // Busy from before the board leaves the hand-off until its completion is offered, never while idle.
            let _ = self.busy.fetch_add(1, Ordering::Relaxed);
            let taken = self.handoff.take();
            let idle = taken.is_none();
            if let Some(taken) = taken
                && worker.keeper.worth(taken.breaks + self.bound.of(worker.instance, &taken.board))
            {
                self.complete(worker, taken);
            }
            let _ = self.busy.fetch_sub(1, Ordering::Relaxed);
            if idle {
                std::thread::sleep(Duration::from_millis(5));
            }
        }
    }

    /// Waits until every board offered is completed (or skipped), or the
    /// run's stop is raised, or `deadline` passes: the walks are over, and
    /// what they offered may still beat the best. Returns at once when no
    /// worker takes boards (none would ever empty the hand-off).
    pub(crate) fn drain(&self, run: &Stop, deadline: Option<Instant>) {
        let taking = || self.active.load(Ordering::Relaxed) > 0 && !self.given_up.load(Ordering::Relaxed);
        let pending = || self.busy.load(Ordering::Relaxed) > 0 || (taking() && self.handoff.waiting() > 0);
        while !run.is_raised() && deadline.is_none_or(|d| Instant::now() < d) && pending() {
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Completes `taken` by the completion's engine and offers its full
    /// board to the keeper; a completion that fails is counted as failed (see [`GIVE_UP_AFTER`]).
    fn complete(&self, worker: &Worker<'_>, taken: Taken) {
        let limits =
            Limits { time_limit: Some(worker.completion.seconds), node_limit: None, seed: worker.seed, threads: 1 };
        // A child of the run's stop, so a completion never outlives the run.
        let stop = worker.run.child();
        // Only what beats the keeper's best (or reaches the save score) is looked for, by the engines that can.
        let below = worker.keeper.wanted_below().saturating_sub(taken.breaks);
        let cpu_before = crate::cpu::thread_seconds();
        let done = complete_by(worker.completion.engine, worker.instance, &taken.board, below, &limits, &stop);
        let cpu = crate::cpu::thread_seconds() - cpu_before;
        let done = match done {
            Ok(done) => done,
            Err(error) => return self.failed(worker.keeper, &error.to_string()),
        };
        let at = &self.at[taken.depth.min(self.at.len() - 1)];
        let _ = at.cpu_nanos.fetch_add((cpu.max(0.0) * 1e9) as u64, Ordering::Relaxed);
        let _ = self.completed.fetch_add(1, Ordering::Relaxed);
        let _ = at.completed.fetch_add(1, Ordering::Relaxed);
        let instance = worker.instance;
        if std::env::var_os(TRACE_ENV).is_some() {
            eprintln!(
                "completion: depth {} breaks {} -> {:?} in {:.3} s (optimal {})",
                taken.depth,
                taken.breaks,
                done.board.as_ref().map(|b| b.score(instance)),
                done.seconds,
                done.optimal
            );
        }
        if let Some(board) = done.board.filter(|b| b.placed() == b.cells.len()) {
            let breaks = instance.grid.max_score() - board.score(instance);
            if breaks < worker.keeper.breaks.load(Ordering::Relaxed) {
                let _ = self.improved.fetch_add(1, Ordering::Relaxed);
                let _ = at.improved.fetch_add(1, Ordering::Relaxed);
            }
            worker.keeper.offer(board);
        }
    }

    /// Counts a completion CP-SAT failed with `error`; after
    /// [`GIVE_UP_AFTER`] of them with none done, gives completions up and
    /// says so once, through the run's events.
    fn failed(&self, keeper: &Keeper<'_>, error: &str) {
        let failed = self.failed.fetch_add(1, Ordering::Relaxed) + 1;
        let first = self
            .first_failure
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get_or_insert_with(|| error.to_owned())
            .clone();
        let none_done = self.completed.load(Ordering::Relaxed) == 0;
        if failed >= GIVE_UP_AFTER && none_done && !self.given_up.swap(true, Ordering::Relaxed) {
            keeper.events().warning(&format!(
                "CP-SAT failed all {failed} completions it was given ({first}); the run goes on without completions"
            ));
        }
    }
}

/// What a completion gave: the board (a claim the keeper checks), whether
/// it was proved best, and its seconds.
pub(crate) struct Done {
    pub(crate) board: Option<Board>,
    pub(crate) optimal: bool,
    pub(crate) seconds: f64,
}

/// The completion of the partial `board` by `engine`, on one thread within
/// `limits`, given up when `stop` is raised: CP-SAT's placement of the
/// pieces left that matches the most joins, or the native branch and
/// bound's (`finish.rs`), which looks only for completions breaking fewer
/// than `below` of the joins that touch an empty cell (CP-SAT ignores it).
///
/// # Errors
/// CP-SAT's: parameters the bridge refuses, or a response it cannot read.
pub(crate) fn complete_by(
    engine: Engine,
    instance: &Instance,
    board: &Board,
    below: usize,
    limits: &Limits,
    stop: &Stop,
) -> Result<Done, crate::error::Error> {
    let start = Instant::now();
    let (board, optimal) = match engine {
        Engine::Cpsat => {
            let done = crate::cpsat::repair(instance, board, &[], limits, stop)?;
            (done.board, done.optimal)
        }
        Engine::Native => {
            let budget = Budget { nodes: u64::MAX, deadline: limits.deadline(start), stop: stop.flag() };
            let done = finish(instance, board, below, &budget);
            (done.board, done.optimal)
        }
    };
    Ok(Done { board, optimal, seconds: start.elapsed().as_secs_f64() })
}

/// What a completion worker works with.
#[derive(Clone, Copy)]
pub(crate) struct Worker<'a> {
    pub(crate) instance: &'a Instance,
    /// The seconds each completion gets.
    pub(crate) completion: &'a Completion,
    /// Where full boards go (and whose best decides which boards are worth completing).
    pub(crate) keeper: &'a Keeper<'a>,
    /// Raised when the run is over.
    pub(crate) run: &'a Stop,
    /// CP-SAT's seed.
    pub(crate) seed: u64,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::{PlantedSpec, planted};

    /// Runs `worker`'s `work` as worker `index` for each index of `workers`
    /// while `body` runs, with `keeper`'s dispatch served (so that its
    /// events are called); then stops them.
    fn serving(keeper: &Keeper<'_>, queue: &Completers, worker: &Worker<'_>, workers: &[usize], body: impl FnOnce()) {
        std::thread::scope(|scope| {
            let _ = scope.spawn(|| keeper.dispatch.serve());
            for &index in workers {
                let _ = scope.spawn(move || queue.work(worker, index));
            }
            body();
            worker.run.raise();
            keeper.dispatch.close();
        });
    }

    /// A partial board of a planted instance goes through the hand-off to
    /// each engine (CP-SAT, the native branch and bound) and comes back full, verified and scored: the planted board's own
    /// score, since its pieces complete it without a break.
    #[test]
    fn the_worker_completes_an_offered_partial_board() {
        for engine in [Engine::Cpsat, Engine::Native] {
            completes_an_offered_partial_board(engine);
        }
    }

    fn completes_an_offered_partial_board(engine: Engine) {
        let p = planted(&PlantedSpec::square(6, 3, 5, 3)).unwrap();
        let mut partial = p.solution.clone();
        for cell in [28, 29, 33, 34, 35] {
            partial.cells[cell] = None;
        }
        let seen = std::sync::Mutex::new(Vec::new());
        let on_best = |best: &crate::score::Best| seen.lock().unwrap().push(best.clone());
        let run = Stop::new();
        let keeper = Keeper::new(&p.instance, &crate::score::Options::default(), (Instant::now(), &run), &on_best);
        // Worker 1 of a pool of one waits: the board stays for worker 0.
        let queue = Completers::new(1, &p.instance, 31, 1);
        queue.offer(0, (31, 0), true, |board| board.clone_from(&partial));
        let completion = Completion { engine, ..Completion::default() };
        let worker = Worker { instance: &p.instance, completion: &completion, keeper: &keeper, run: &run, seed: 1 };
        serving(&keeper, &queue, &worker, &[1, 0], || {
            while queue.completed.load(Ordering::Relaxed) == 0 {
                std::thread::sleep(Duration::from_millis(10));
            }
        });
        let seen = seen.into_inner().unwrap();
        assert_eq!(seen.len(), 1, "{engine}");
        let report = crate::check::check(&p.instance, &seen[0].board);
        assert!(report.is_solution(), "{report}");
        assert_eq!(seen[0].score, p.instance.grid.max_score());
        assert!(
            seen[0].board.cells.iter().zip(&partial.cells).all(|(a, b)| b.is_none() || a == b),
            "placed cells kept"
        );
        // The figures the split reads: one kept offer and one timed completion, at depth 31.
        let counts = queue.counts();
        assert_eq!((counts.len(), counts[0].depth, counts[0].kept, counts[0].completed), (1, 31, 1, 1));
        assert!(counts[0].cpu_seconds > 0.0, "the completion's CPU time is counted");
    }

    /// A worker whose number is not among the active ones takes nothing:
    /// the split lowering the pool leaves the boards to the others. Catches
    /// a pool that ignores the split.
    #[test]
    fn a_worker_outside_the_active_ones_takes_no_board() {
        let p = planted(&PlantedSpec::square(6, 3, 5, 3)).unwrap();
        let run = Stop::new();
        let keeper = Keeper::new(&p.instance, &crate::score::Options::default(), (Instant::now(), &run), &|_: &_| {});
        let queue = Completers::new(1, &p.instance, 31, 0);
        queue.offer(0, (31, 0), true, |board| board.clone_from(&p.solution));
        let completion = Completion::default();
        let worker = Worker { instance: &p.instance, completion: &completion, keeper: &keeper, run: &run, seed: 1 };
        serving(&keeper, &queue, &worker, &[0], || {
            // The worker polls its number many times over while the board waits.
            std::thread::sleep(Duration::from_millis(200));
            assert_eq!(queue.handoff.waiting(), 1, "the board waits for an active worker");
        });
        assert_eq!(queue.completed.load(Ordering::Relaxed), 0);
        // The walks are over: with no worker taking boards, the drain returns (before, it waited for ever).
        queue.drain(&Stop::new(), None);
    }

    /// Completions CP-SAT fails (here every one: a seed above what CP-SAT
    /// takes) are counted as failed, not as completed, and feed no CPU time
    /// to the split; after [`GIVE_UP_AFTER`] of them the run gives
    /// completions up, says so once, and takes no more offers. Catches a
    /// failed completion counted as done (the split would read its time),
    /// and a run that fails silently for ever.
    #[test]
    fn completions_that_all_fail_are_counted_apart_and_given_up() {
        struct Warned(std::sync::Mutex<Vec<String>>);
        impl crate::score::Events for Warned {
            fn best(&self, _: &crate::score::Best) {}
            fn warning(&self, message: &str) {
                self.0.lock().unwrap().push(message.to_owned());
            }
        }
        let p = planted(&PlantedSpec::square(6, 3, 5, 3)).unwrap();
        let mut partial = p.solution.clone();
        for cell in [28, 29, 33] {
            partial.cells[cell] = None;
        }
        let warned = Warned(std::sync::Mutex::new(Vec::new()));
        let run = Stop::new();
        let keeper = Keeper::new(&p.instance, &crate::score::Options::default(), (Instant::now(), &run), &warned);
        let queue = Completers::new(1, &p.instance, 31, 1);
        let completion = Completion::default();
        let worker =
            Worker { instance: &p.instance, completion: &completion, keeper: &keeper, run: &run, seed: u64::MAX };
        serving(&keeper, &queue, &worker, &[0], || {
            while !queue.given_up.load(Ordering::Relaxed) {
                queue.offer(0, (31, 0), true, |board| board.clone_from(&partial));
                std::thread::sleep(Duration::from_millis(5));
            }
        });
        assert_eq!(queue.failed.load(Ordering::Relaxed), GIVE_UP_AFTER);
        assert_eq!(queue.completed.load(Ordering::Relaxed), 0);
        assert!(queue.counts().iter().all(|d| d.completed == 0 && d.cpu_seconds == 0.0), "no time fed to the split");
        let offered = queue.handoff.offered();
        queue.offer(0, (31, 0), true, |board| board.clone_from(&partial));
        assert_eq!(queue.handoff.offered(), offered, "no offer taken once given up");
        let warned = warned.0.into_inner().unwrap();
        assert_eq!(warned.len(), 1, "{warned:?}");
        assert!(warned[0].contains("seed") && warned[0].contains("without completions"), "{warned:?}");
    }
}
