//! CP-SAT finishes what the scan walk leaves: deep partial boards completed exactly, maximizing matched joins.
//!
//! The field's walks stop at a depth and leave the last cells empty. Here a
//! walk offers each partial board that reaches a new depth of its attempt
//! within [`Completion::cells`] of the end, and every one within
//! [`Completion::every`] of it, to the hand-off (`handoff.rs`: a few slots
//! per walk, written without waiting or allocating). A pool of workers, each
//! on its own thread, takes the most promising (deepest, then fewest breaks),
//! skips it when a lower bound on the breaks its empty cells must still make
//! ([`bound`]) says it cannot beat the best board, and asks CP-SAT for the
//! placement of the pieces left over the empty cells that matches the most
//! joins, every other cell pinned ([`crate::cpsat::repair`], whose model
//! frees empty cells). Each full board it returns goes to the run's keeper
//! like a walk's. The completions run beside the walks and count in the run's time.

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::time::Duration;

use super::completion::Completion;
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
    /// What went on at each depth (free cells filled), for the split (`split.rs`).
    at: Vec<AtDepth>,
    /// Workers holding a board now.
    busy: AtomicUsize,
    /// Workers that take boards: those numbered from this on wait (the split sets it).
    pub(crate) active: AtomicUsize,
    /// The bound, its counts of the pieces' sides made once.
    pub(crate) bound: Bound,
}

/// The counts of one depth.
#[derive(Default)]
struct AtDepth {
    offered: AtomicU64,
    /// Offers the bound kept.
    kept: AtomicU64,
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
            handoff: Handoff::new(walks, instance.grid),
            completed: AtomicU64::new(0),
            improved: AtomicU64::new(0),
            at: (0..=free).map(|_| AtDepth::default()).collect(),
            busy: AtomicUsize::new(0),
            active: AtomicUsize::new(workers),
            bound: Bound::new(instance),
        }
    }

    /// Offers walk `walk`'s partial board of `depth` free cells with
    /// `breaks`, written by `fill`: kept when `worth` says a completion of
    /// it may beat the best (see [`Bound`]), else counted and let go. Never
    /// waits and never allocates.
    pub(crate) fn offer(
        &self,
        walk: usize,
        (depth, breaks): (usize, usize),
        fill: impl FnOnce(&mut Board),
        worth: impl FnOnce(&Board) -> bool,
    ) {
        let kept = self.handoff.offer(walk, (depth, breaks), fill, worth);
        if let Some(at) = self.at.get(depth) {
            let _ = at.offered.fetch_add(1, Ordering::Relaxed);
            let _ = at.kept.fetch_add(u64::from(kept), Ordering::Relaxed);
        }
    }

    /// Per depth with an offer: (depth, boards offered, boards completed), deepest first.
    pub(crate) fn by_depth(&self) -> Vec<(usize, u64, u64)> {
        let load = |c: &AtomicU64| c.load(Ordering::Relaxed);
        let rows = self.at.iter().enumerate().rev();
        rows.filter(|(_, at)| load(&at.offered) > 0)
            .map(|(d, at)| (d, load(&at.offered), load(&at.completed)))
            .collect()
    }

    /// `stats` with what the completers counted.
    pub(crate) fn counted(&self, stats: Stats) -> Stats {
        Stats {
            completions: self.completed.load(Ordering::Relaxed),
            reported: self.handoff.offered.load(Ordering::Relaxed),
            completions_improved: self.improved.load(Ordering::Relaxed),
            dropped: self.handoff.dropped.load(Ordering::Relaxed),
            completers: self.active.load(Ordering::Relaxed),
            completions_by_depth: self.by_depth(),
            ..stats
        }
    }

    /// Per depth with a kept offer: what the split is derived from.
    pub(crate) fn counts(&self) -> Vec<DepthCounts> {
        let load = |c: &AtomicU64| c.load(Ordering::Relaxed);
        let rows = self.at.iter().enumerate().filter(|(_, at)| load(&at.kept) > 0);
        rows.map(|(depth, at)| DepthCounts {
            depth,
            kept: load(&at.kept),
            completed: load(&at.completed),
            improved: load(&at.improved),
            cpu_seconds: load(&at.cpu_nanos) as f64 * 1e-9,
        })
        .collect()
    }

    /// Worker `index` takes boards one after the other until the worker's
    /// flag is raised (waiting while its number is not among the
    /// [`Completers::active`]): each worth completing (the bound lets it
    /// beat the best) is completed.
    pub(crate) fn work(&self, worker: &Worker<'_>, index: usize) {
        while !worker.flag.load(Ordering::Relaxed) {
            if index >= self.active.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(20));
                continue;
            }
            let _ = self.busy.fetch_add(1, Ordering::Relaxed);
            match self.handoff.take() {
                Some(taken) if worker.keeper.worth(taken.breaks + self.bound.of(worker.instance, &taken.board)) => {
                    self.complete(worker, taken);
                }
                Some(_) => {}
                None => std::thread::sleep(Duration::from_millis(5)),
            }
            let _ = self.busy.fetch_sub(1, Ordering::Relaxed);
        }
    }

    /// Waits until every board offered is completed (or skipped), or `flag`
    /// is raised: the walks are over, and what they offered may still beat the best.
    pub(crate) fn drain(&self, flag: &AtomicBool) {
        while !flag.load(Ordering::Relaxed) && (self.busy.load(Ordering::Relaxed) > 0 || self.handoff.waiting() > 0) {
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Completes `taken` with CP-SAT and offers its full board to the keeper.
    fn complete(&self, worker: &Worker<'_>, taken: Taken) {
        let Worker { instance, completion, keeper, flag, seed } = *worker;
        let limits = Limits { time_limit: Some(completion.seconds), node_limit: None, seed, threads: 1 };
        let stop = Stop::new();
        let cpu_before = crate::cpu::thread_seconds();
        // Raised with the run's flag, so a completion never outlives the run.
        let finished = AtomicBool::new(false);
        let done = std::thread::scope(|scope| {
            let _ = scope.spawn(|| {
                while !finished.load(Ordering::Relaxed) {
                    if flag.load(Ordering::Relaxed) {
                        stop.raise();
                        return;
                    }
                    std::thread::sleep(Duration::from_millis(20));
                }
            });
            let done = crate::cpsat::repair(instance, &taken.board, &[], &limits, &stop);
            finished.store(true, Ordering::Relaxed);
            done
        });
        let at = &self.at[taken.depth.min(self.at.len() - 1)];
        let cpu = crate::cpu::thread_seconds() - cpu_before;
        let _ = at.cpu_nanos.fetch_add((cpu.max(0.0) * 1e9) as u64, Ordering::Relaxed);
        let _ = self.completed.fetch_add(1, Ordering::Relaxed);
        let _ = at.completed.fetch_add(1, Ordering::Relaxed);
        let Ok(done) = done else { return };
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
            if breaks < keeper.breaks.load(Ordering::Relaxed) {
                let _ = self.improved.fetch_add(1, Ordering::Relaxed);
                let _ = at.improved.fetch_add(1, Ordering::Relaxed);
            }
            keeper.offer(board);
        }
    }
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
    pub(crate) flag: &'a AtomicBool,
    /// CP-SAT's seed.
    pub(crate) seed: u64,
}

/// A lower bound on the joins a completion of `board` must still break:
/// for each colour, the sides of placed cells facing empty cells (open
/// sides) against the sides of the pieces no cell holds. Open sides beyond
/// the pieces' sides of their colour cannot all match, and a colour whose
/// two counts differ by an odd number leaves a side unpaired (two such
/// colours can share one break).
#[cfg(test)]
pub(crate) fn bound(instance: &Instance, board: &Board) -> usize {
    Bound::new(instance).of(instance, board)
}

/// [`bound`] with the pieces' sides by colour counted once, so that each
/// board's bound is counted without allocating (on the walk's thread).
#[derive(Clone, Debug)]
pub(crate) struct Bound {
    /// Sides of each colour over all pieces.
    sides: [i64; 256],
}

impl Bound {
    pub(crate) fn new(instance: &Instance) -> Bound {
        let mut sides = [0i64; 256];
        for piece in &instance.pieces {
            for &c in &piece.0 {
                sides[usize::from(c)] += 1;
            }
        }
        Bound { sides }
    }

    /// The bound of `board` (see [`bound`]).
    pub(crate) fn of(&self, instance: &Instance, board: &Board) -> usize {
        let grid = instance.grid;
        // Open sides less the sides of the pieces no cell holds, per colour.
        let mut excess = self.sides.map(|n| -n);
        for (cell, placed) in board.cells.iter().enumerate() {
            let Some(p) = placed else { continue };
            let piece = instance.pieces[p.piece];
            for &c in &piece.0 {
                excess[usize::from(c)] += 1;
            }
            for side in crate::puzzle::Side::ALL {
                if grid.neighbour(cell, side).is_some_and(|n| board.cells[n].is_none()) {
                    excess[usize::from(piece.side(p.rotation, side))] += 1;
                }
            }
        }
        let (deficit, odd) = excess.iter().skip(1).fold((0i64, 0i64), |(d, o), &e| (d + e.max(0), o + (e & 1)));
        deficit.max((odd + 1) / 2) as usize
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::generate::{PlantedSpec, planted};
    use crate::puzzle::{Placement, Rotation};
    use crate::rng::Rng;

    /// The planted board with the cells `empty` emptied and then refilled
    /// with their pieces shuffled and turned at random, wherever a piece's
    /// grey sides allow it: any completion of the partial board.
    fn a_completion(board: &Board, instance: &Instance, empty: &[usize], rng: &mut Rng) -> Option<Board> {
        let mut pieces: Vec<usize> = empty.iter().map(|&c| board.cells[c].unwrap().piece).collect();
        rng.shuffle(&mut pieces);
        let mut full = board.clone();
        for (&cell, &piece) in empty.iter().zip(&pieces) {
            let fits = instance.rim_fits(cell);
            let turns: Vec<Rotation> = fits.iter().filter(|p| p.piece == piece).map(|p| p.rotation).collect();
            let rotation = *turns.get(rng.below(turns.len().max(1)))?;
            full.cells[cell] = Some(Placement { piece, rotation });
        }
        Some(full)
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

        /// The bound never exceeds the breaks of any completion: here the
        /// planted one (the bound is 0 for any of its partial boards) and
        /// random refills of the emptied cells. A bound that counted a
        /// matched join, or the same open side twice, would exceed them.
        #[test]
        fn the_bound_is_a_lower_bound_on_every_completion(seed in 1u64..10_000, empty in 1usize..12) {
            let p = planted(&PlantedSpec::square(6, 3, 5, seed)).unwrap();
            let mut rng = Rng::new(seed);
            let free: Vec<usize> =
                (0..36).filter(|&c| p.instance.clues.iter().all(|k| k.cell != c)).collect();
            let mut cells = free.clone();
            rng.shuffle(&mut cells);
            let cells = &cells[..empty.min(cells.len())];
            let mut partial = p.solution.clone();
            for &c in cells {
                partial.cells[c] = None;
            }
            let before = bound(&p.instance, &partial);
            prop_assert_eq!(before, 0, "the planted board completes it without a break");
            let joins = p.instance.grid.max_score();
            for _ in 0..4 {
                if let Some(full) = a_completion(&p.solution, &p.instance, cells, &mut rng) {
                    prop_assert!(before <= joins - full.score(&p.instance));
                }
            }
            // A board with breaks of its own: the bound covers the empty cells' joins only.
            if let Some(full) = a_completion(&p.solution, &p.instance, cells, &mut rng) {
                let mut broken = full.clone();
                for &c in &cells[..cells.len() / 2] {
                    broken.cells[c] = None;
                }
                let rest: Vec<usize> = cells[..cells.len() / 2].to_vec();
                let made = joins - broken.score(&p.instance) - joins_touching(&p.instance, &broken, &rest);
                if let Some(refill) = a_completion(&full, &p.instance, &rest, &mut rng) {
                    let total = joins - refill.score(&p.instance);
                    prop_assert!(made + bound(&p.instance, &broken) <= total, "{made} + bound > {total}");
                }
            }
        }
    }

    /// Joins with an end in `cells` (empty on `board`): those a partial board's score leaves out.
    fn joins_touching(instance: &Instance, board: &Board, cells: &[usize]) -> usize {
        let grid = instance.grid;
        grid.joins()
            .filter(|&(c, s)| {
                let n = grid.neighbour(c, s).unwrap();
                (cells.contains(&c) || cells.contains(&n)) && (board.cells[c].is_none() || board.cells[n].is_none())
            })
            .count()
    }

    /// A partial board of a planted instance goes through the hand-off to CP-SAT
    /// and comes back full, verified and scored: the planted board's own
    /// score, since its pieces complete it without a break.
    #[test]
    fn the_worker_completes_an_offered_partial_board() {
        let p = planted(&PlantedSpec::square(6, 3, 5, 3)).unwrap();
        let mut partial = p.solution.clone();
        for cell in [28, 29, 33, 34, 35] {
            partial.cells[cell] = None;
        }
        let seen = std::sync::Mutex::new(Vec::new());
        let on_best = |best: &crate::score::Best| seen.lock().unwrap().push(best.clone());
        let keeper = Keeper::new(&p.instance, &crate::score::Options::default(), std::time::Instant::now(), &on_best);
        // Worker 1 of a pool of one waits: the board stays for worker 0.
        let queue = Completers::new(1, &p.instance, 31, 1);
        queue.offer(0, (31, 0), |board| board.clone_from(&partial), |_| true);
        let flag = AtomicBool::new(false);
        let completion = Completion::default();
        let worker = Worker { instance: &p.instance, completion: &completion, keeper: &keeper, flag: &flag, seed: 1 };
        std::thread::scope(|scope| {
            let _ = scope.spawn(|| queue.work(&worker, 1));
            let _ = scope.spawn(|| queue.work(&worker, 0));
            while queue.completed.load(Ordering::Relaxed) == 0 {
                std::thread::sleep(Duration::from_millis(10));
            }
            flag.store(true, Ordering::Relaxed);
        });
        let seen = seen.into_inner().unwrap();
        assert_eq!(seen.len(), 1);
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
        let keeper =
            Keeper::new(&p.instance, &crate::score::Options::default(), std::time::Instant::now(), &|_: &_| {});
        let queue = Completers::new(1, &p.instance, 31, 0);
        queue.offer(0, (31, 0), |board| board.clone_from(&p.solution), |_| true);
        let flag = AtomicBool::new(false);
        let completion = Completion::default();
        let worker = Worker { instance: &p.instance, completion: &completion, keeper: &keeper, flag: &flag, seed: 1 };
        std::thread::scope(|scope| {
            let _ = scope.spawn(|| queue.work(&worker, 0));
            // The worker polls its number many times over while the board waits.
            std::thread::sleep(Duration::from_millis(200));
            assert_eq!(queue.handoff.waiting(), 1, "the board waits for an active worker");
            flag.store(true, Ordering::Relaxed);
        });
        assert_eq!(queue.completed.load(Ordering::Relaxed), 0);
    }
}
