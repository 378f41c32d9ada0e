//! The empty cells of a partial board completed exactly by a native branch and bound: the placement of the unused pieces that breaks the fewest joins, found without CP-SAT.
//!
//! The walk's deepest partial boards leave a few dozen cells empty at the end
//! of the fill order. [`finish`] fills them with the pieces no cell holds,
//! each turned to show grey exactly on the rim, cell by cell in an order
//! that keeps the cells with the most known neighbours first. At each cell
//! the candidates are tried fewest new breaks first, and a branch is cut as
//! soon as its breaks, plus a lower bound on the breaks the joins touching
//! the cells still empty must make, reach the best completion found (or the
//! caller's cutoff). The bound is the completer's (`bound.rs`): per colour, the sides
//! that face empty cells against the sides of the unused pieces, kept up to
//! date at each placement instead of counted afresh. A search that ends
//! within its node limit has proved its completion optimal.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use crate::puzzle::{Board, Colour, GREY, Instance, Placement, Side};

/// What a search for a completion found.
#[derive(Clone, Debug, PartialEq)]
pub struct Finished {
    /// The best full board found (`None`: none below the cutoff).
    pub board: Option<Board>,
    /// Joins it breaks that touch a cell that was empty (those between two
    /// cells placed before the search are not counted).
    pub breaks: usize,
    /// The search ran to its end: no completion breaks fewer (than the cutoff, when none was found).
    pub optimal: bool,
    /// Placements tried.
    pub nodes: u64,
}

/// How long a search may go on: at most `nodes` placements, until
/// `deadline`, and until `stop` is raised.
#[derive(Clone, Copy)]
pub struct Budget<'a> {
    /// Placements tried, at most.
    pub nodes: u64,
    /// When to give up (`None`: never).
    pub deadline: Option<Instant>,
    /// Raised from outside to give up.
    pub stop: &'a AtomicBool,
}

impl Budget<'_> {
    /// Whether the search must end after `nodes` placements (the clock and the stop are read every 4096).
    fn spent(&self, nodes: u64) -> bool {
        nodes >= self.nodes
            || (nodes & 0xFFF == 0
                && (self.stop.load(Ordering::Relaxed) || self.deadline.is_some_and(|d| Instant::now() >= d)))
    }
}

/// Completes `board` (a partial board of `instance`, its placed cells kept):
/// the completion breaking the fewest joins among those touching its empty
/// cells, and fewer than `below`, searched for within `budget`.
pub fn finish(instance: &Instance, board: &Board, below: usize, budget: &Budget<'_>) -> Finished {
    let mut search = Search::new(instance, board, below);
    let ended = search.dfs(0, budget);
    Finished { board: search.found, breaks: search.best, optimal: ended, nodes: search.nodes }
}

/// Per colour, the sides facing empty cells less the sides of the unused
/// pieces, and the lower bound on the breaks that follows (see `bound.rs`),
/// each kept as the counts change.
struct Tally {
    excess: [i32; 256],
    /// Σ max(excess, 0) over the colours but grey.
    deficit: i32,
    /// Colours but grey whose excess is odd.
    odd: i32,
}

impl Tally {
    fn add(&mut self, colour: Colour, delta: i32) {
        if colour == GREY {
            return;
        }
        let e = &mut self.excess[usize::from(colour)];
        self.deficit -= (*e).max(0);
        self.odd -= *e & 1;
        *e += delta;
        self.deficit += (*e).max(0);
        self.odd += *e & 1;
    }

    fn bound(&self) -> usize {
        self.deficit.max((self.odd + 1) / 2) as usize
    }
}

/// One cell of the order: where it is, and what may go there.
struct Cell {
    cell: usize,
    /// Each placement the rim allows there, with the colours it shows (N E S W).
    fits: Vec<(Placement, [Colour; 4])>,
    /// Its neighbours (by side), if any.
    neighbours: [Option<usize>; 4],
}

struct Search<'a> {
    instance: &'a Instance,
    order: Vec<Cell>,
    board: Board,
    used: Vec<bool>,
    tally: Tally,
    breaks: usize,
    /// Breaks of the best completion found; only fewer are looked for.
    best: usize,
    found: Option<Board>,
    nodes: u64,
    /// Per depth, the candidates of that cell: (new breaks, index into its fits).
    candidates: Vec<Vec<(u8, u16)>>,
}

impl<'a> Search<'a> {
    fn new(instance: &'a Instance, board: &Board, below: usize) -> Search<'a> {
        let grid = instance.grid;
        let mut used = vec![false; instance.pieces.len()];
        for p in board.cells.iter().flatten() {
            used[p.piece] = true;
        }
        let order: Vec<Cell> = fill_order(board)
            .into_iter()
            .map(|cell| {
                let fits = instance.rim_fits(cell).into_iter().filter(|p| !used[p.piece]);
                Cell {
                    cell,
                    fits: fits.map(|p| (p, instance.pieces[p.piece].rotated(p.rotation))).collect(),
                    neighbours: Side::ALL.map(|s| grid.neighbour(cell, s)),
                }
            })
            .collect();
        let candidates = order.iter().map(|c| Vec::with_capacity(c.fits.len())).collect();
        let tally = initial_tally(instance, board, &used);
        Search {
            instance,
            order,
            board: board.clone(),
            used,
            tally,
            breaks: 0,
            best: below,
            found: None,
            nodes: 0,
            candidates,
        }
    }

    /// Fills the cells from `depth` on; false when the budget ran out (the best so far kept).
    fn dfs(&mut self, depth: usize, budget: &Budget<'_>) -> bool {
        if depth == self.order.len() {
            self.best = self.breaks;
            self.found = Some(self.board.clone());
            return true;
        }
        if self.breaks + self.tally.bound() >= self.best {
            // The cells still empty must break enough joins that no completion here does better.
            return true;
        }
        let mut candidates = std::mem::take(&mut self.candidates[depth]);
        self.rank(depth, &mut candidates);
        let mut complete = true;
        for &(new, index) in &candidates {
            if self.breaks + usize::from(new) >= self.best {
                // The candidates come fewest new breaks first: none after this one does better.
                break;
            }
            self.nodes += 1;
            if budget.spent(self.nodes) {
                complete = false;
                break;
            }
            let (placement, shown) = self.order[depth].fits[usize::from(index)];
            if self.used[placement.piece] {
                continue;
            }
            self.place(depth, placement, shown, 1);
            if self.breaks + usize::from(new) + self.tally.bound() < self.best {
                self.breaks += usize::from(new);
                complete = self.dfs(depth + 1, budget);
                self.breaks -= usize::from(new);
            }
            self.place(depth, placement, shown, -1);
            if !complete {
                break;
            }
        }
        self.candidates[depth] = candidates;
        complete
    }

    /// The fits of cell `depth` whose piece is unused, with the joins each
    /// breaks against the placed neighbours, fewest first.
    fn rank(&self, depth: usize, candidates: &mut Vec<(u8, u16)>) {
        let cell = &self.order[depth];
        let known: [Option<Colour>; 4] = Side::ALL.map(|s| {
            let n = cell.neighbours[s.index()]?;
            let placed = self.board.cells[n]?;
            Some(self.instance.pieces[placed.piece].side(placed.rotation, s.opposite()))
        });
        candidates.clear();
        for (index, (placement, shown)) in cell.fits.iter().enumerate() {
            if self.used[placement.piece] {
                continue;
            }
            let new = (0..4).filter(|&s| known[s].is_some_and(|k| k != shown[s])).count();
            candidates.push((new as u8, index as u16));
        }
        candidates.sort_unstable_by_key(|&(new, _)| new);
    }

    /// Places (`sign` 1) or takes back (−1) `placement`, showing `shown`, on
    /// cell `depth` of the order, keeping the used pieces and the tally.
    fn place(&mut self, depth: usize, placement: Placement, shown: [Colour; 4], sign: i32) {
        let cell = &self.order[depth];
        let (at, neighbours) = (cell.cell, cell.neighbours);
        if sign > 0 {
            self.board.cells[at] = Some(placement);
            self.used[placement.piece] = true;
        } else {
            self.board.cells[at] = None;
            self.used[placement.piece] = false;
        }
        // The piece's sides leave the unused pieces' (the tally counts them negatively).
        for &c in &self.instance.pieces[placement.piece].0 {
            self.tally.add(c, sign);
        }
        for side in Side::ALL {
            let Some(n) = neighbours[side.index()] else { continue };
            match self.board.cells[n] {
                // The neighbour is empty: this side now faces an empty cell.
                None => self.tally.add(shown[side.index()], sign),
                // The neighbour's side faced this cell while it was empty.
                Some(p) => {
                    let facing = self.instance.pieces[p.piece].side(p.rotation, side.opposite());
                    self.tally.add(facing, -sign);
                }
            }
        }
    }
}

/// The empty cells of `board` in the order they are filled: each next the
/// empty cell with the most neighbours placed or already ordered (the first
/// in row-major order on a tie).
fn fill_order(board: &Board) -> Vec<usize> {
    let grid = board.grid;
    let mut known: Vec<bool> = board.cells.iter().map(Option::is_some).collect();
    let mut order = Vec::new();
    loop {
        let next = (0..grid.cells()).filter(|&c| !known[c]).max_by_key(|&c| {
            let placed = Side::ALL.iter().filter(|&&s| grid.neighbour(c, s).is_some_and(|n| known[n])).count();
            (placed, std::cmp::Reverse(c))
        });
        let Some(cell) = next else { return order };
        known[cell] = true;
        order.push(cell);
    }
}

/// The tally of `board`: per colour, the sides of placed cells that face an
/// empty cell, less the sides of the pieces `used` says no cell holds.
fn initial_tally(instance: &Instance, board: &Board, used: &[bool]) -> Tally {
    let mut tally = Tally { excess: [0; 256], deficit: 0, odd: 0 };
    for (piece, p) in instance.pieces.iter().enumerate() {
        if !used[piece] {
            for &c in &p.0 {
                tally.add(c, -1);
            }
        }
    }
    let grid = instance.grid;
    for (cell, placed) in board.cells.iter().enumerate() {
        let Some(p) = placed else { continue };
        for side in Side::ALL {
            if grid.neighbour(cell, side).is_some_and(|n| board.cells[n].is_none()) {
                tally.add(instance.pieces[p.piece].side(p.rotation, side), 1);
            }
        }
    }
    tally
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::generate::{PlantedSpec, planted};
    use crate::rng::Rng;

    /// Joins touching a cell of `cells` that `board` breaks (both ends placed).
    fn breaks_touching(instance: &Instance, board: &Board, cells: &[usize]) -> usize {
        let grid = instance.grid;
        grid.joins()
            .filter(|&(c, s)| cells.contains(&c) || cells.contains(&grid.neighbour(c, s).unwrap()))
            .filter(|&(c, s)| {
                let n = grid.neighbour(c, s).unwrap();
                board.colour(instance, c, s) != board.colour(instance, n, s.opposite())
            })
            .count()
    }

    /// The fewest breaks among joins touching `empty` over every completion of
    /// `board`: each order of the unused pieces over the empty cells, each turn the rim allows.
    fn exhaustive(instance: &Instance, board: &Board, empty: &[usize]) -> usize {
        let used: Vec<usize> = board.cells.iter().flatten().map(|p| p.piece).collect();
        let pieces: Vec<usize> = (0..instance.pieces.len()).filter(|p| !used.contains(p)).collect();
        let mut best = usize::MAX;
        let mut board = board.clone();
        let mut taken = vec![false; pieces.len()];
        fn fill(
            k: usize,
            (instance, empty, pieces): (&Instance, &[usize], &[usize]),
            board: &mut Board,
            taken: &mut [bool],
            best: &mut usize,
        ) {
            if k == empty.len() {
                *best = (*best).min(breaks_touching(instance, board, empty));
                return;
            }
            for (i, &piece) in pieces.iter().enumerate() {
                if taken[i] {
                    continue;
                }
                taken[i] = true;
                for fit in instance.rim_fits(empty[k]).into_iter().filter(|f| f.piece == piece) {
                    board.cells[empty[k]] = Some(fit);
                    fill(k + 1, (instance, empty, pieces), board, taken, best);
                }
                board.cells[empty[k]] = None;
                taken[i] = false;
            }
        }
        fill(0, (instance, empty, &pieces), &mut board, &mut taken, &mut best);
        best
    }

    /// A planted board with some interior pieces swapped (so it breaks
    /// joins), then `k` of its free cells emptied at random: a partial board
    /// whose best completion may need breaks.
    fn broken_partial(seed: u64, k: usize) -> (Instance, Board, Vec<usize>) {
        let p = planted(&PlantedSpec::square(5, 2, 3, seed)).unwrap();
        let mut rng = Rng::new(seed);
        let mut board = p.solution.clone();
        let grid = p.instance.grid;
        let inner: Vec<usize> = (0..grid.cells())
            .filter(|&c| Side::ALL.iter().all(|&s| !grid.is_rim_side(c, s)))
            .filter(|&c| p.instance.clues.iter().all(|q| q.cell != c))
            .collect();
        for _ in 0..2 {
            board.cells.swap(inner[rng.below(inner.len())], inner[rng.below(inner.len())]);
        }
        let free: Vec<usize> = (0..grid.cells()).filter(|&c| p.instance.clues.iter().all(|q| q.cell != c)).collect();
        let mut cells = free;
        rng.shuffle(&mut cells);
        cells.truncate(k);
        for &c in &cells {
            board.cells[c] = None;
        }
        (p.instance, board, cells)
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

        /// The finisher's completion breaks exactly as few joins as the best
        /// of every completion (an exhaustive search over orders and turns),
        /// on partial boards of a 5×5 with up to 5 cells empty, some needing
        /// breaks; its board keeps the placed cells and passes the checker.
        /// Catches a bound that cuts the best completion (it would report
        /// more breaks) and a count of breaks that misses a join.
        #[test]
        fn the_completion_is_the_best_an_exhaustive_search_finds(seed in 1u64..5_000, k in 1usize..6) {
            let (instance, board, empty) = broken_partial(seed, k);
            let stop = AtomicBool::new(false);
            let done = finish(&instance, &board, usize::MAX, &Budget { nodes: u64::MAX, deadline: None, stop: &stop });
            prop_assert!(done.optimal);
            let full = done.board.expect("a completion");
            prop_assert_eq!(done.breaks, exhaustive(&instance, &board, &empty));
            prop_assert_eq!(done.breaks, breaks_touching(&instance, &full, &empty));
            let report = crate::check::check(&instance, &full);
            prop_assert!(report.placed == report.cells && report.only_joins_mismatch(), "{}", report);
            prop_assert!(board.cells.iter().zip(&full.cells).all(|(a, b)| a.is_none() || a == b));
        }
    }

    /// The two completers agree: on partial boards of a 5×5 with 4 to 8
    /// cells empty (more than the exhaustive search above can take), CP-SAT's
    /// proved completion scores exactly as the native one, and both boards
    /// pass the checker. Catches a bound that cuts the best completion on
    /// boards beyond the exhaustive search's reach, and either side
    /// counting a join the other does not.
    #[test]
    fn the_native_completion_scores_as_cpsat_proves_best() {
        for seed in 1..=12u64 {
            let (instance, board, _) = broken_partial(seed, 4 + (seed as usize % 5));
            let stop = AtomicBool::new(false);
            let native =
                finish(&instance, &board, usize::MAX, &Budget { nodes: u64::MAX, deadline: None, stop: &stop });
            let limits = crate::outcome::Limits { time_limit: Some(60.0), node_limit: None, seed: 1, threads: 1 };
            let cpsat = crate::cpsat::repair(&instance, &board, &[], &limits, &crate::stop::Stop::new()).unwrap();
            assert!(native.optimal && cpsat.optimal, "seed {seed}");
            let (ours, theirs) = (native.board.unwrap(), cpsat.board.unwrap());
            assert_eq!(ours.score(&instance), theirs.score(&instance), "seed {seed}");
            for full in [&ours, &theirs] {
                let report = crate::check::check(&instance, full);
                assert!(report.placed == report.cells && report.only_joins_mismatch(), "seed {seed}: {report}");
            }
        }
    }

    /// The planted solution with its last 30 free cells emptied comes back
    /// whole, without a break, and proved best; a cutoff at 0 breaks finds
    /// nothing (no completion breaks fewer than none), and says so. Catches a
    /// search that cannot reach the end of a region of 30 cells, and a
    /// cutoff not honoured.
    #[test]
    fn a_planted_region_of_30_cells_is_finished_without_a_break() {
        let p = planted(&PlantedSpec::square(10, 5, 17, 3)).unwrap();
        let mut board = p.solution.clone();
        let free: Vec<usize> = (0..100).filter(|&c| p.instance.clues.iter().all(|q| q.cell != c)).collect();
        for &c in &free[free.len() - 30..] {
            board.cells[c] = None;
        }
        let stop = AtomicBool::new(false);
        let budget = Budget { nodes: u64::MAX, deadline: None, stop: &stop };
        let done = finish(&p.instance, &board, usize::MAX, &budget);
        assert!(done.optimal && done.breaks == 0, "{} breaks, optimal {}", done.breaks, done.optimal);
        assert!(crate::check::check(&p.instance, &done.board.unwrap()).is_solution());
        let none = finish(&p.instance, &board, 0, &budget);
        assert_eq!((none.board, none.optimal), (None, true));
    }
}
