//! The native depth-first baseline: exact-match placement in row-major order,
//! randomized with restarts, or complete (exhaustive) for proofs and counts.
//!
//! Scan order: the clue cells are placed first; then the remaining cells are
//! filled row by row from the top-left, left to right. When a cell is reached,
//! its north and west neighbours are already placed (or are rim), so its
//! candidates are looked up in a table keyed by (cell class, colour wanted on
//! N, colour wanted on W): the class says which sides face the rim, and every
//! entry of the table already shows grey exactly there. A clue to the east or
//! south adds one more comparison. A candidate is placed only if it matches
//! everything already placed: the search never makes a mismatch.
//!
//! The randomized mode shuffles each node's candidates from one seeded stream,
//! restarts from the clues every `restart_nodes` placements (continuing the
//! stream), and keeps the deepest board seen. The complete mode has no
//! restarts and no shuffling: it walks the whole tree, counting solutions up
//! to a cap, so an exhausted tree with none proves the instance unsolvable.

use std::time::Instant;

use crate::flux;
use crate::kernel::{Buckets, grey_class, rim_class};
use crate::outcome::{Limits, Outcome, Status};
use crate::puzzle::{Board, Colour, GREY, Instance, Placement, Rotation, Side};
use crate::rng::Rng;
use crate::stop::Stop;

/// The DFS's own options; time, node limit and seed (of the shuffling
/// stream) come from [`Limits`].
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    /// Placements between restarts (randomized mode).
    pub restart_nodes: u64,
    /// Exhaustive search, no restarts, candidates in table order.
    pub complete: bool,
    /// Complete mode: stop after this many solutions.
    pub count_cap: u64,
    /// Complete mode: keep every solution found (see [`enumerate`]).
    pub collect: bool,
    /// Apply the flux endgame certificate (see [`crate::flux::certificate_passes`])
    /// after every placement that brings the board to at least this many cells.
    pub flux_prune: Option<usize>,
}

impl Default for Options {
    fn default() -> Self {
        Options { restart_nodes: 100_000, complete: false, count_cap: 1, collect: false, flux_prune: None }
    }
}

/// Counters of a DFS run.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct Stats {
    /// Placements made.
    pub nodes: u64,
    /// Restarts (randomized mode).
    pub restarts: u64,
    /// Solutions found (complete mode counts them; randomized stops at one).
    pub solutions: u64,
    /// True when the complete search walked the whole tree.
    pub exhausted: bool,
    /// Most cells ever placed at once, clues included.
    pub best_placed: usize,
    /// Placements undone because the flux certificate failed.
    pub flux_pruned: u64,
}

/// A candidate for a cell: a piece in a rotation, and the colours it shows on E and S.
#[derive(Clone, Copy, Debug)]
struct Candidate {
    piece: u16,
    rotation: u8,
    east: Colour,
    south: Colour,
}

/// The precomputed search space: candidate lists by (class, north, west).
struct Tables {
    colours: usize,
    /// List `(class · colours + north) · colours + west`.
    lists: Buckets<Candidate>,
}

impl Tables {
    fn new(instance: &Instance) -> Tables {
        let colours = usize::from(instance.max_colour()) + 1;
        let keyed = instance.turns().map(|(placement, shown)| {
            let class = usize::from(grey_class(shown));
            let key =
                (class * colours + usize::from(shown[Side::N.index()])) * colours + usize::from(shown[Side::W.index()]);
            let candidate = Candidate {
                piece: placement.piece as u16,
                rotation: placement.rotation.turns(),
                east: shown[Side::E.index()],
                south: shown[Side::S.index()],
            };
            (key, candidate)
        });
        Tables { colours, lists: Buckets::new(16 * colours * colours, keyed) }
    }

    #[inline]
    fn list(&self, class: usize, north: Colour, west: Colour) -> &[Candidate] {
        self.lists.list((class * self.colours + usize::from(north)) * self.colours + usize::from(west))
    }
}

/// What the scan needs to know about each free cell, in scan order.
#[derive(Clone, Copy, Debug)]
struct Slot {
    cell: usize,
    class: usize,
    /// Cell to the north, or the grey sentinel past the last cell on the rim.
    north: usize,
    /// Cell to the west, or the grey sentinel on the rim.
    west: usize,
    /// Colour a clue to the east wants, or `u8::MAX`.
    east_wanted: Colour,
    /// Colour a clue to the south wants, or `u8::MAX`.
    south_wanted: Colour,
}

const NONE: Colour = Colour::MAX;
const NO_PIECE: u16 = u16::MAX;

/// Runs the DFS. The board in the outcome is the solver's claim (a full board
/// when solved, else the deepest partial board): check it before trusting it.
pub fn solve(instance: &Instance, options: &Options, limits: &Limits, stop: &Stop) -> Outcome<Stats> {
    let start = Instant::now();
    let mut search = Search::new(instance, options, limits, stop);
    let status = search.run(start);
    let seconds = start.elapsed().as_secs_f64();
    Outcome { status, board: search.best, seconds, stats: search.stats }
}

/// Every solution of `instance`, up to `cap`, by the complete DFS. Returns the
/// boards and whether the tree was walked to the end (then there are no others).
pub fn enumerate(instance: &Instance, cap: u64, time_limit: Option<f64>) -> (Vec<Board>, bool) {
    let options = Options { complete: true, count_cap: cap, collect: true, ..Options::default() };
    let limits = Limits { time_limit, ..Limits::default() };
    let stop = Stop::new();
    let mut search = Search::new(instance, &options, &limits, &stop);
    let _ = search.run(Instant::now());
    (search.solutions, search.stats.exhausted)
}

struct Search<'a> {
    instance: &'a Instance,
    options: &'a Options,
    limits: &'a Limits,
    stop: &'a Stop,
    tables: Tables,
    slots: Vec<Slot>,
    /// East and south colours shown by each placed cell; one more entry, the
    /// sentinel, shows grey for the rim.
    east: Vec<Colour>,
    south: Vec<Colour>,
    used: Vec<bool>,
    /// Piece and rotation of each cell, `NO_PIECE` when empty.
    piece: Vec<u16>,
    rotation: Vec<u8>,
    /// Per depth, at `depth * stride`: the (shuffled) candidates of that slot,
    /// how many there are and how far they were tried.
    order: Vec<Candidate>,
    stride: usize,
    len: Vec<usize>,
    next: Vec<usize>,
    rng: Rng,
    stats: Stats,
    best: Option<Board>,
    clue_count: usize,
    solutions: Vec<Board>,
}

impl<'a> Search<'a> {
    fn new(instance: &'a Instance, options: &'a Options, limits: &'a Limits, stop: &'a Stop) -> Search<'a> {
        let grid = instance.grid;
        let cells = grid.cells();
        let clue_at = |cell: usize| instance.clues.iter().find(|c| c.cell == cell);
        let shown = |cell: usize, side: Side| {
            clue_at(cell).map_or(NONE, |c| instance.pieces[c.placement.piece].side(c.placement.rotation, side))
        };
        let slots: Vec<Slot> = (0..cells)
            .filter(|&c| clue_at(c).is_none())
            .map(|cell| {
                let class = usize::from(rim_class(grid, cell));
                Slot {
                    cell,
                    class,
                    north: grid.neighbour(cell, Side::N).unwrap_or(cells),
                    west: grid.neighbour(cell, Side::W).unwrap_or(cells),
                    east_wanted: grid.neighbour(cell, Side::E).map_or(NONE, |e| shown(e, Side::W)),
                    south_wanted: grid.neighbour(cell, Side::S).map_or(NONE, |s| shown(s, Side::N)),
                }
            })
            .collect();
        let tables = Tables::new(instance);
        let longest = tables.lists.starts.windows(2).map(|w| w[1] - w[0]).max().unwrap_or(0);
        let depth = slots.len();
        let mut search = Search {
            instance,
            options,
            limits,
            stop,
            tables,
            slots,
            east: vec![GREY; cells + 1],
            south: vec![GREY; cells + 1],
            used: vec![false; instance.pieces.len()],
            piece: vec![NO_PIECE; cells],
            rotation: vec![0; cells],
            order: vec![Candidate { piece: 0, rotation: 0, east: 0, south: 0 }; depth * longest as usize],
            stride: longest as usize,
            len: vec![0; depth],
            next: vec![0; depth],
            rng: Rng::new(limits.seed),
            stats: Stats::default(),
            best: None,
            clue_count: instance.clues.len(),
            solutions: Vec::new(),
        };
        for clue in &instance.clues {
            let p = clue.placement;
            search.used[p.piece] = true;
            search.piece[clue.cell] = p.piece as u16;
            search.rotation[clue.cell] = p.rotation.turns();
            search.east[clue.cell] = instance.pieces[p.piece].side(p.rotation, Side::E);
            search.south[clue.cell] = instance.pieces[p.piece].side(p.rotation, Side::S);
        }
        search
    }

    /// Fills the order buffer of slot `depth` with the candidates that fit now
    /// (shuffled unless complete). What fits cannot change while the slot is
    /// open: shallower slots stay put and deeper ones are undone before the
    /// next candidate is tried.
    #[inline]
    fn open(&mut self, depth: usize) {
        let slot = &self.slots[depth];
        let list = self.tables.list(slot.class, self.south[slot.north], self.east[slot.west]);
        let (east_wanted, south_wanted) = (slot.east_wanted, slot.south_wanted);
        let base = depth * self.stride;
        let mut n = 0;
        for &c in list {
            if !self.used[usize::from(c.piece)]
                && (east_wanted == NONE || c.east == east_wanted)
                && (south_wanted == NONE || c.south == south_wanted)
            {
                self.order[base + n] = c;
                n += 1;
            }
        }
        if !self.options.complete {
            self.rng.shuffle_small(&mut self.order[base..base + n]);
        }
        self.len[depth] = n;
        self.next[depth] = 0;
    }

    /// Places the next candidate of slot `depth`, if any is left.
    #[inline]
    fn advance(&mut self, depth: usize) -> bool {
        let i = self.next[depth];
        if i == self.len[depth] {
            return false;
        }
        self.next[depth] = i + 1;
        let c = self.order[depth * self.stride + i];
        let cell = self.slots[depth].cell;
        self.used[usize::from(c.piece)] = true;
        self.east[cell] = c.east;
        self.south[cell] = c.south;
        self.piece[cell] = c.piece;
        self.rotation[cell] = c.rotation;
        self.stats.nodes += 1;
        true
    }

    fn remove(&mut self, depth: usize) {
        let cell = self.slots[depth].cell;
        self.used[usize::from(self.piece[cell])] = false;
        self.piece[cell] = NO_PIECE;
    }

    fn board(&self) -> Board {
        let cells = (self.piece.iter().zip(&self.rotation))
            .map(|(&piece, &turns)| {
                (piece != NO_PIECE)
                    .then(|| Placement { piece: usize::from(piece), rotation: Rotation::wrapping(usize::from(turns)) })
            })
            .collect();
        Board { grid: self.instance.grid, cells }
    }

    fn record_best(&mut self, depth: usize) {
        let placed = self.clue_count + depth;
        if self.best.is_none() || placed > self.stats.best_placed {
            self.stats.best_placed = placed;
            self.best = Some(self.board());
        }
    }

    fn out_of_time(&self, start: Instant) -> bool {
        self.stop.is_raised()
            || self.limits.time_limit.is_some_and(|limit| start.elapsed().as_secs_f64() >= limit)
            || self.limits.node_limit.is_some_and(|limit| self.stats.nodes >= limit)
    }

    /// True if the clues alone break a rule: a clue showing a wrong colour on
    /// the rim or grey inside, or two neighbouring clues that disagree. The
    /// scan never compares two clues with each other, so this is checked once.
    fn clues_conflict(&self) -> bool {
        let grid = self.instance.grid;
        self.instance.clues.iter().any(|clue| {
            let p = clue.placement;
            let shown = self.instance.pieces[p.piece].rotated(p.rotation);
            Side::ALL.iter().any(|&side| match grid.neighbour(clue.cell, side) {
                None => shown[side.index()] != GREY,
                Some(other) => {
                    shown[side.index()] == GREY
                        || self.instance.clues.iter().any(|c| {
                            c.cell == other
                                && self.instance.pieces[c.placement.piece].side(c.placement.rotation, side.opposite())
                                    != shown[side.index()]
                        })
                }
            })
        })
    }

    fn run(&mut self, start: Instant) -> Status {
        let total = self.slots.len();
        if self.clues_conflict() {
            self.stats.exhausted = true;
            return Status::Infeasible;
        }
        self.record_best(0);
        if total == 0 {
            // Every cell is a clue (a cube can fix them all): that board is the one solution.
            if self.options.collect {
                self.solutions.push(self.board());
            }
            self.stats.solutions = 1;
            self.stats.exhausted = true;
            return Status::Solved;
        }
        let mut depth = 0;
        let mut since_restart = 0u64;
        let mut next_check = 0u64;
        self.open(0);
        loop {
            if self.stats.nodes >= next_check {
                next_check = self.stats.nodes + 4096;
                if self.out_of_time(start) {
                    return if self.stop.is_raised() { Status::Interrupted } else { Status::Unknown };
                }
            }
            if self.advance(depth) {
                since_restart += 1;
                if self.options.flux_prune.is_some_and(|at| self.clue_count + depth + 1 >= at)
                    && depth + 1 < total
                    && !flux::certificate_passes(self.instance, &self.board())
                {
                    // The unplaced pieces cannot pay the flux owed: no completion below.
                    self.stats.flux_pruned += 1;
                    self.remove(depth);
                    continue;
                }
                depth += 1;
                if depth == total {
                    self.stats.solutions += 1;
                    self.record_best(depth);
                    if self.options.collect {
                        self.solutions.push(self.board());
                    }
                    if !self.options.complete || self.stats.solutions >= self.options.count_cap {
                        return Status::Solved;
                    }
                    depth -= 1;
                    self.remove(depth);
                    continue;
                }
                self.open(depth);
                continue;
            }
            // Slot `depth` is exhausted: the deepest point of this branch is depth.
            if depth > 0 && self.clue_count + depth > self.stats.best_placed {
                self.record_best(depth);
            }
            if depth == 0 {
                // Depth 0 ran out since the last restart: the whole tree was walked.
                self.stats.exhausted = true;
                return if self.stats.solutions > 0 { Status::Solved } else { Status::Infeasible };
            }
            if !self.options.complete && since_restart >= self.options.restart_nodes {
                since_restart = 0;
                self.stats.restarts += 1;
                while depth > 0 {
                    depth -= 1;
                    self.remove(depth);
                }
                self.open(0);
                continue;
            }
            depth -= 1;
            self.remove(depth);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::check;
    use crate::generate::{PlantedSpec, planted};

    /// Runs the DFS with no stop, returning the outcome and its counters.
    fn run(instance: &Instance, options: &Options, limits: &Limits) -> (Outcome<Stats>, Stats) {
        let outcome = solve(instance, options, limits, &Stop::new());
        let stats = outcome.stats.clone();
        (outcome, stats)
    }

    #[test]
    fn randomized_dfs_solves_small_planted_boards() {
        for seed in 1..=4 {
            let p = planted(&PlantedSpec::square(6, 3, 6, seed)).unwrap();
            let (outcome, stats) = run(&p.instance, &Options::default(), &Limits { seed, ..Limits::default() });
            assert_eq!(outcome.status, Status::Solved);
            let report = check(&p.instance, outcome.board.as_ref().unwrap());
            assert!(report.is_solution(), "{report}");
            assert!(stats.nodes >= 31);
        }
    }

    #[test]
    fn complete_dfs_finds_the_planted_solution() {
        let p = planted(&PlantedSpec::square(5, 2, 4, 3)).unwrap();
        let options = Options { complete: true, count_cap: u64::MAX, ..Options::default() };
        let (outcome, stats) = run(&p.instance, &options, &Limits::default());
        assert_eq!(outcome.status, Status::Solved);
        assert!(stats.exhausted);
        assert!(stats.solutions >= 1);
    }

    #[test]
    fn flux_pruning_keeps_every_solution() {
        // The certificate is sound: with it, the complete search finds the same solutions.
        for seed in 1..=3 {
            let p = planted(&PlantedSpec::square(5, 2, 4, seed)).unwrap();
            let all = Options { complete: true, count_cap: u64::MAX, collect: true, ..Options::default() };
            let pruned = Options { flux_prune: Some(10), ..all.clone() };
            let (a, a_stats) = run(&p.instance, &all, &Limits::default());
            let (b, stats) = run(&p.instance, &pruned, &Limits::default());
            assert_eq!(a.status, b.status);
            assert_eq!(a_stats.solutions, stats.solutions, "solution counts");
            assert!(stats.exhausted);
        }
    }

    #[test]
    fn partial_answers_are_exact_matches() {
        // A limit of a few nodes leaves a partial board with no mismatch.
        let p = planted(&PlantedSpec::square(10, 5, 17, 1)).unwrap();
        let options = Options { restart_nodes: 50, ..Options::default() };
        let (outcome, _) = run(&p.instance, &options, &Limits { time_limit: Some(0.05), ..Limits::default() });
        let board = outcome.board.unwrap();
        let report = check(&p.instance, &board);
        assert!(report.violations.is_empty(), "{report}");
    }

    #[test]
    fn a_raised_stop_ends_the_search() {
        let p = planted(&PlantedSpec::square(16, 5, 17, 1)).unwrap();
        let stop = Stop::new();
        stop.raise();
        let outcome = solve(&p.instance, &Options::default(), &Limits::default(), &stop);
        assert_eq!(outcome.status, Status::Interrupted);
    }
}
