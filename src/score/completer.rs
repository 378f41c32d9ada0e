//! CP-SAT finishes what the scan walk leaves: deep partial boards completed exactly, maximizing matched joins.
//!
//! The field's walks stop at a depth and leave the last cells empty. Here a
//! walk hands to a queue each partial board that reaches a new depth of its
//! attempt within [`Completion::cells`] of the end, and every one within
//! [`Completion::every`] of it, unless a lower bound on the breaks its
//! empty cells must still make ([`bound`]) says it cannot beat the best
//! board. One worker takes the most promising (deepest, then fewest breaks)
//! and asks CP-SAT for the placement of the pieces left over the empty cells
//! that matches the most joins, every other cell pinned
//! ([`crate::cpsat::repair`], whose model frees empty cells). Each full board
//! it returns goes to the run's keeper like a walk's. The completions run
//! beside the walks and count in the run's time.

use std::collections::BinaryHeap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Condvar, Mutex};
use std::time::Duration;

use super::completion::Completion;
use super::keeper::Keeper;
use crate::outcome::Limits;
use crate::puzzle::{Board, Instance};
use crate::stop::Stop;

/// Set (to anything), each completion prints a line on stderr: the partial
/// board's depth and breaks, the score CP-SAT reached and its seconds (how
/// `results/score/` measured completions by depth).
pub const TRACE_ENV: &str = "EDGEMATCH_TRACE_COMPLETIONS";

/// A partial board waiting for its completion.
#[derive(Debug)]
struct Pending {
    depth: usize,
    breaks: usize,
    /// Arrival number: among equals, the newest first.
    seq: u64,
    board: Board,
}

impl Pending {
    fn rank(&self) -> (usize, std::cmp::Reverse<usize>, u64) {
        (self.depth, std::cmp::Reverse(self.breaks), self.seq)
    }
}

impl PartialEq for Pending {
    fn eq(&self, other: &Self) -> bool {
        self.rank() == other.rank()
    }
}
impl Eq for Pending {}
impl PartialOrd for Pending {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Pending {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.rank().cmp(&other.rank())
    }
}

/// Boards kept waiting at most; past it the least promising are dropped.
const QUEUE: usize = 64;

/// The partial boards waiting, best first, and what the worker did.
#[derive(Default)]
pub(crate) struct Queue {
    pending: Mutex<(BinaryHeap<Pending>, u64)>,
    ready: Condvar,
    /// Boards completed, and those dropped unread.
    pub(crate) completed: AtomicU64,
    pub(crate) dropped: AtomicU64,
    /// Completions that gave a better board than the run had.
    pub(crate) improved: AtomicU64,
    /// Raised while the worker completes a board (set as it takes one, under the queue's lock).
    busy: AtomicBool,
}

impl Queue {
    /// Queues a partial board with `breaks` mismatched joins and `depth` free cells filled.
    pub(crate) fn push(&self, board: Board, breaks: usize, depth: usize) {
        let mut guard = self.pending.lock().unwrap_or_else(|e| e.into_inner());
        let (heap, seq) = &mut *guard;
        *seq += 1;
        heap.push(Pending { depth, breaks, seq: *seq, board });
        if heap.len() > QUEUE {
            // Drop the least promising: rebuild without the minimum.
            let mut all = std::mem::take(heap).into_sorted_vec();
            all.remove(0);
            *heap = all.into();
            let _ = self.dropped.fetch_add(1, Ordering::Relaxed);
        }
        self.ready.notify_one();
    }

    /// The most promising board, waiting up to 50 ms for one.
    fn pop(&self) -> Option<Pending> {
        let guard = self.pending.lock().unwrap_or_else(|e| e.into_inner());
        let (mut guard, _) = self
            .ready
            .wait_timeout_while(guard, Duration::from_millis(50), |(heap, _)| heap.is_empty())
            .unwrap_or_else(|e| e.into_inner());
        let next = guard.0.pop();
        if next.is_some() {
            self.busy.store(true, Ordering::Relaxed);
        }
        next
    }

    /// Boards waiting.
    pub(crate) fn len(&self) -> usize {
        self.pending.lock().unwrap_or_else(|e| e.into_inner()).0.len()
    }

    /// Waits until every queued board is completed (or skipped), or `flag` is
    /// raised: the walks are over, and what they queued may still beat the best.
    pub(crate) fn drain(&self, flag: &AtomicBool) {
        while !flag.load(Ordering::Relaxed) && (self.busy.load(Ordering::Relaxed) || self.len() > 0) {
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Completes queued boards one after the other until the worker's flag
    /// is raised. A board whose breaks already leave it no better than the best is skipped.
    pub(crate) fn work(&self, worker: &Worker<'_>) {
        while !worker.flag.load(Ordering::Relaxed) {
            let Some(pending) = self.pop() else { continue };
            if worker.keeper.worth(pending.breaks) {
                self.complete(worker, pending);
            }
            self.busy.store(false, Ordering::Relaxed);
        }
    }

    /// Completes `pending` with CP-SAT and offers its full board to the keeper.
    fn complete(&self, worker: &Worker<'_>, pending: Pending) {
        let Worker { instance, completion, keeper, flag, seed } = *worker;
        let limits = Limits { time_limit: Some(completion.seconds), node_limit: None, seed, threads: 1 };
        let stop = Stop::new();
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
            let done = crate::cpsat::repair(instance, &pending.board, &[], &limits, &stop);
            finished.store(true, Ordering::Relaxed);
            done
        });
        let _ = self.completed.fetch_add(1, Ordering::Relaxed);
        let Ok(done) = done else { return };
        if std::env::var_os(TRACE_ENV).is_some() {
            eprintln!(
                "completion: depth {} breaks {} -> {:?} in {:.3} s (optimal {})",
                pending.depth,
                pending.breaks,
                done.board.as_ref().map(|b| b.score(instance)),
                done.seconds,
                done.optimal
            );
        }
        if let Some(board) = done.board.filter(|b| b.placed() == b.cells.len()) {
            let breaks = instance.grid.max_score() - board.score(instance);
            if breaks < keeper.breaks.load(Ordering::Relaxed) {
                let _ = self.improved.fetch_add(1, Ordering::Relaxed);
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
pub(crate) fn bound(instance: &Instance, board: &Board) -> usize {
    let grid = instance.grid;
    let colours = usize::from(instance.max_colour()) + 1;
    let mut excess = vec![0i64; colours];
    let mut held = vec![false; instance.pieces.len()];
    for (cell, placed) in board.cells.iter().enumerate() {
        let Some(p) = placed else { continue };
        held[p.piece] = true;
        for side in crate::puzzle::Side::ALL {
            if grid.neighbour(cell, side).is_some_and(|n| board.cells[n].is_none()) {
                excess[usize::from(instance.pieces[p.piece].side(p.rotation, side))] += 1;
            }
        }
    }
    for (piece, p) in instance.pieces.iter().enumerate().filter(|&(q, _)| !held[q]) {
        let _ = piece;
        for &c in &p.0 {
            excess[usize::from(c)] -= 1;
        }
    }
    let (deficit, odd) = excess.iter().skip(1).fold((0i64, 0i64), |(d, o), &e| (d + e.max(0), o + (e & 1)));
    deficit.max((odd + 1) / 2) as usize
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

    /// A partial board of a planted instance goes through the queue to CP-SAT
    /// and comes back full, verified and scored: the planted board's own
    /// score, since its pieces complete it without a break.
    #[test]
    fn the_worker_completes_a_queued_partial_board() {
        let p = planted(&PlantedSpec::square(6, 3, 5, 3)).unwrap();
        let mut partial = p.solution.clone();
        for cell in [28, 29, 33, 34, 35] {
            partial.cells[cell] = None;
        }
        let seen = std::sync::Mutex::new(Vec::new());
        let on_best = |best: &crate::score::Best| seen.lock().unwrap().push(best.clone());
        let keeper = Keeper::new(&p.instance, &crate::score::Options::default(), std::time::Instant::now(), &on_best);
        let queue = Queue::default();
        queue.push(partial.clone(), 0, 31);
        let flag = AtomicBool::new(false);
        let completion = Completion::default();
        let worker = Worker { instance: &p.instance, completion: &completion, keeper: &keeper, flag: &flag, seed: 1 };
        std::thread::scope(|scope| {
            let _ = scope.spawn(|| queue.work(&worker));
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
    }
}
