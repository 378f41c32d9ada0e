//! The plain row scan whose node counts the field publishes: cells from the top-left corner row by row, every piece and distinct turn tried, grey exactly on the rim.
//!
//! No look-ahead and no pruning beyond the joins with the cells above and to
//! the left (and the clues' sides): a node is one piece placed, so the count
//! of nodes is the number of partial boards, filled row by row from the
//! top-left corner, whose placed pieces all agree. That number does not depend
//! on the order in which a cell's candidates are tried, which is what makes
//! it comparable across programs. A clue cell's only candidate is its clue,
//! and its placement counts as a node like any other.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use crate::error::Error;
use crate::kernel::Poll;
use crate::puzzle::{Colour, GREY, Instance, Placement, Rotation, Side};
use crate::rng::Rng;

/// Nodes between two looks at the clock and the stop flag.
const POLL: u64 = 1 << 16;

/// Most list heads the table may hold (cells × colours², 4 bytes each: 256 MiB).
const MAX_HEADS: usize = 1 << 26;

/// One candidate of a cell: the piece, its turn, and the colours it shows east and south.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Cand {
    pub(super) piece: u16,
    pub(super) turns: u8,
    pub(super) east: Colour,
    pub(super) south: Colour,
}

/// Every cell's candidates, keyed by the colours its north and west neighbours show.
#[derive(Debug)]
pub(crate) struct Table {
    cells: usize,
    /// Keys per side: every colour of the pieces.
    keys: usize,
    cands: Vec<Cand>,
    /// Per cell, per key `north · keys + west`, the first candidate; one more entry ends the last list.
    starts: Vec<u32>,
    pieces: usize,
    /// Per cell, the cell whose south side it reads and the one whose east
    /// side it reads: its neighbours north and west, or, on the rim, the
    /// scan's one grey cell past the last (no branch in the loop).
    north: Vec<u32>,
    west: Vec<u32>,
}

impl Table {
    /// The candidates of every cell of `instance`: the placements whose rim
    /// sides are grey and whose other sides are not, that show the clues'
    /// colours on the sides facing a clue, and, in a clue cell, the clue alone.
    ///
    /// # Errors
    /// A board whose cells × colours² heads exceed [`MAX_HEADS`].
    pub(crate) fn new(instance: &Instance) -> Result<Table, Error> {
        let grid = instance.grid;
        let keys = usize::from(instance.max_colour()) + 1;
        let per_cell = keys * keys;
        if grid.cells() * per_cell > MAX_HEADS {
            return Err(Error::Options(format!(
                "a {grid} board with {keys} colours is too large for the count's tables ({} cells x {keys}² list heads)",
                grid.cells()
            )));
        }
        let mut buckets: Vec<Vec<Cand>> = vec![Vec::new(); grid.cells() * per_cell];
        for cell in 0..grid.cells() {
            for placement in cell_placements(instance, cell) {
                let shown = instance.pieces[placement.piece].rotated(placement.rotation);
                let cand = Cand {
                    piece: placement.piece as u16,
                    turns: placement.rotation.turns(),
                    east: shown[Side::E.index()],
                    south: shown[Side::S.index()],
                };
                let key = usize::from(shown[Side::N.index()]) * keys + usize::from(shown[Side::W.index()]);
                buckets[cell * per_cell + key].push(cand);
            }
        }
        let mut starts = Vec::with_capacity(buckets.len() + 1);
        let mut cands = Vec::new();
        for bucket in buckets {
            starts.push(cands.len() as u32);
            cands.extend(bucket);
        }
        starts.push(cands.len() as u32);
        let cells = grid.cells();
        let grey = cells as u32;
        let north = (0..cells).map(|c| if c >= grid.width { (c - grid.width) as u32 } else { grey }).collect();
        let west = (0..cells).map(|c| if c.is_multiple_of(grid.width) { grey } else { (c - 1) as u32 }).collect();
        Ok(Table { cells, keys, cands, starts, pieces: instance.pieces.len(), north, west })
    }

    /// Cells of the board.
    pub(crate) fn cells(&self) -> usize {
        self.cells
    }

    /// Pieces of the board.
    pub(super) fn pieces(&self) -> usize {
        self.pieces
    }

    /// List heads: one per cell and key.
    pub(super) fn heads(&self) -> usize {
        self.starts.len() - 1
    }

    /// The candidates of list `head`.
    pub(super) fn list(&self, head: usize) -> &[Cand] {
        &self.cands[self.starts[head] as usize..self.starts[head + 1] as usize]
    }

    /// The list of the cell at `depth`, from the colours its placed north
    /// and west neighbours show in `chosen` (the grey cell past the last
    /// for a rim side).
    #[inline(always)]
    pub(super) fn head(&self, chosen: &[Cand], depth: usize) -> usize {
        let north = chosen[self.north[depth] as usize].south;
        let west = chosen[self.west[depth] as usize].east;
        (depth * self.keys + usize::from(north)) * self.keys + usize::from(west)
    }

    /// [`Table::head`] without bounds checks.
    ///
    /// # Safety
    /// `depth` < the cells, and `chosen` holds one entry more than the cells
    /// (as [`placed`] makes it), each showing colours of this table's pieces.
    /// Then the north and west sources (built below the cells, or the grey
    /// entry past them) lie inside `chosen`, and the colours below `keys`.
    #[inline(always)]
    pub(super) unsafe fn head_unchecked(&self, chosen: &[Cand], depth: usize) -> usize {
        // SAFETY: as the caller promised (see above).
        unsafe {
            let north = chosen.get_unchecked(*self.north.get_unchecked(depth) as usize).south;
            let west = chosen.get_unchecked(*self.west.get_unchecked(depth) as usize).east;
            (depth * self.keys + usize::from(north)) * self.keys + usize::from(west)
        }
    }

    /// The candidate range of the cell at `depth` (see [`Table::head`]).
    #[inline(always)]
    fn open(&self, chosen: &[Cand], depth: usize) -> (u32, u32) {
        let at = self.head(chosen, depth);
        (self.starts[at], self.starts[at + 1])
    }
}

/// The placements `cell` may hold by the rim, the clues and the pieces' distinct turns.
fn cell_placements(instance: &Instance, cell: usize) -> Vec<Placement> {
    if let Some(clue) = instance.clues.iter().find(|c| c.cell == cell) {
        let shown = instance.pieces[clue.placement.piece].rotated(clue.placement.rotation);
        // A clue that breaks the rim or a join with another clue leaves the board no solution.
        return if fits(instance, cell, shown) { vec![clue.placement] } else { Vec::new() };
    }
    let clued: Vec<usize> = instance.clues.iter().map(|c| c.placement.piece).collect();
    let mut out = Vec::new();
    for (piece, p) in instance.pieces.iter().enumerate() {
        if clued.contains(&piece) {
            continue;
        }
        let mut looks: Vec<[Colour; 4]> = Vec::new();
        for rotation in Rotation::ALL {
            let shown = p.rotated(rotation);
            if looks.contains(&shown) {
                // The same look turned: one board, not two.
                continue;
            }
            looks.push(shown);
            if fits(instance, cell, shown) {
                out.push(Placement { piece, rotation });
            }
        }
    }
    out
}

/// True when `shown` is grey exactly on `cell`'s rim sides and shows each neighbouring clue's colour.
fn fits(instance: &Instance, cell: usize, shown: [Colour; 4]) -> bool {
    let grid = instance.grid;
    let (row, col) = grid.row_col(cell);
    let neighbour = [
        (row > 0).then(|| cell - grid.width),
        (col + 1 < grid.width).then(|| cell + 1),
        (row + 1 < grid.height).then(|| cell + grid.width),
        (col > 0).then(|| cell - 1),
    ];
    Side::ALL.iter().zip(neighbour).all(|(&side, next)| {
        let colour = shown[side.index()];
        let Some(next) = next else { return colour == GREY };
        if colour == GREY {
            return false;
        }
        match instance.clues.iter().find(|c| c.cell == next) {
            Some(clue) => {
                instance.pieces[clue.placement.piece].side(clue.placement.rotation, side.opposite()) == colour
            }
            None => true,
        }
    })
}

/// How a scan ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum End {
    /// Every node was visited.
    Done,
    /// The visitor asked to stop (`--limit` reached, or an error).
    Enough,
    /// The stop flag or the deadline ended it.
    Stopped,
}

/// What ends a scan early: the stop flag raised, or the deadline passed.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Halt<'a> {
    pub(crate) stop: &'a AtomicBool,
    pub(crate) deadline: Option<Instant>,
}

impl<'a> Halt<'a> {
    /// Only `stop`, no deadline.
    pub(crate) fn on(stop: &'a AtomicBool) -> Halt<'a> {
        Halt { stop, deadline: None }
    }

    /// True once the flag is raised or the deadline has passed.
    pub(crate) fn due(&self) -> bool {
        self.stop.load(Ordering::Relaxed) || self.deadline.is_some_and(|d| Instant::now() >= d)
    }
}

/// The scan's state: what is placed at each cell and where each cell's scan resumes.
struct Scan {
    pos: Vec<u32>,
    end: Vec<u32>,
    chosen: Vec<Cand>,
    used: Vec<bool>,
}

/// Walks every node below `prefix` (candidates of the first cells, as an
/// earlier scan handed them over) down to `until` cells, handing each
/// `until`-cell fill to `visit`, which returns false to stop; looks at `halt`
/// every [`POLL`] nodes. Returns how it ended and the nodes
/// visited: the pieces placed on cells `prefix.len()..until`.
///
/// With `until` = every cell, `visit` sees the solutions; with fewer, the
/// prefixes a count splits its tree by.
pub(crate) fn scan(
    table: &Table,
    prefix: &[Cand],
    until: usize,
    halt: Halt<'_>,
    visit: &mut dyn FnMut(&[Cand]) -> bool,
) -> (End, u64) {
    let root = prefix.len();
    debug_assert!(root < until && until <= table.cells);
    let mut s = Scan::at(table, prefix);
    // Plain slices, so that the loop keeps their addresses in registers.
    let (pos, end, chosen, used) = (&mut s.pos[..], &mut s.end[..], &mut s.chosen[..], &mut s.used[..]);
    let cands = &table.cands[..];
    (pos[root], end[root]) = table.open(chosen, root);
    let mut poll = Poll::every(POLL);
    let (mut depth, mut nodes) = (root, 0u64);
    loop {
        if pos[depth] == end[depth] {
            if depth == root {
                return (End::Done, nodes);
            }
            depth -= 1;
            used[usize::from(chosen[depth].piece)] = false;
            continue;
        }
        let cand = cands[pos[depth] as usize];
        pos[depth] += 1;
        if used[usize::from(cand.piece)] {
            continue;
        }
        nodes += 1;
        chosen[depth] = cand;
        if depth + 1 == until {
            if !visit(&chosen[..until]) {
                return (End::Enough, nodes);
            }
        } else {
            used[usize::from(cand.piece)] = true;
            depth += 1;
            (pos[depth], end[depth]) = table.open(chosen, depth);
        }
        if poll.due(nodes) {
            poll.looked(nodes);
            if halt.due() {
                return (End::Stopped, nodes);
            }
        }
    }
}

impl Scan {
    /// A scan with `prefix` placed on the first cells.
    fn at(table: &Table, prefix: &[Cand]) -> Scan {
        let cells = table.cells;
        let mut used = vec![false; table.pieces];
        prefix.iter().for_each(|c| used[usize::from(c.piece)] = true);
        Scan { pos: vec![0; cells], end: vec![0; cells], chosen: placed(prefix, cells), used }
    }
}

/// The placements of a scan of `cells` cells with `prefix` on the first:
/// one more than the cells, the last the grey cell the rim's cells read (see `Table::north`).
pub(super) fn placed(prefix: &[Cand], cells: usize) -> Vec<Cand> {
    let mut chosen = vec![Cand { piece: 0, turns: 0, east: GREY, south: GREY }; cells + 1];
    chosen[..prefix.len()].copy_from_slice(prefix);
    chosen
}

/// Knuth's estimate of the tree's size: `probes` random paths from the root,
/// each taking one of the unused candidates of its cell uniformly; a path's
/// estimate is the sum over its depths of the product of the branchings
/// above, and the mean over the paths is an unbiased estimate of the nodes.
pub(crate) fn estimate(table: &Table, probes: u32, rng: &mut Rng) -> f64 {
    let mut total = 0.0;
    let mut s = Scan::at(table, &[]);
    for _ in 0..probes {
        s.used.iter_mut().for_each(|u| *u = false);
        let (mut weight, mut nodes) = (1.0, 0.0);
        for depth in 0..table.cells {
            let (start, end) = table.open(&s.chosen, depth);
            let free: Vec<Cand> = table.cands[start as usize..end as usize]
                .iter()
                .copied()
                .filter(|c| !s.used[usize::from(c.piece)])
                .collect();
            if free.is_empty() {
                break;
            }
            weight *= free.len() as f64;
            nodes += weight;
            let cand = free[rng.below(free.len())];
            s.chosen[depth] = cand;
            s.used[usize::from(cand.piece)] = true;
        }
        total += nodes;
    }
    total / f64::from(probes.max(1))
}

/// The placements of `cands`, cell by cell from the first.
pub(crate) fn placements(cands: &[Cand]) -> Vec<Placement> {
    cands
        .iter()
        .map(|c| Placement { piece: usize::from(c.piece), rotation: Rotation::ALL[usize::from(c.turns)] })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::{Board, Grid, Piece};

    /// A 2×2 board of four corner pieces, alike but for their inner colours (1 and 2).
    fn two_by_two() -> Instance {
        // N E S W: a top-left corner shows grey north and west.
        let corner = |e: Colour, s: Colour| Piece([GREY, e, s, GREY]);
        let pieces = vec![corner(1, 2), corner(2, 1), corner(1, 1), corner(2, 2)];
        Instance { grid: Grid::new(2usize, 2).unwrap(), pieces, clues: Vec::new() }
    }

    fn count(instance: &Instance) -> (u64, u64, Vec<Vec<Placement>>) {
        let table = Table::new(instance).unwrap();
        let mut found = Vec::new();
        let (end, nodes) = scan(&table, &[], table.cells, Halt::on(&AtomicBool::new(false)), &mut |c| {
            found.push(placements(c));
            true
        });
        assert_eq!(end, End::Done);
        (found.len() as u64, nodes, found)
    }

    /// Every solution the scan hands over passes the checker, and none comes
    /// twice: catches a join the table lets through unchecked, or a piece used twice.
    #[test]
    fn every_board_it_counts_is_a_solution_and_counted_once() {
        let instance = two_by_two();
        let (solutions, _, found) = count(&instance);
        assert!(solutions > 0);
        for placements in &found {
            let board = Board { grid: instance.grid, cells: placements.iter().copied().map(Some).collect() };
            assert!(crate::check::check(&instance, &board).is_solution(), "{placements:?}");
        }
        let mut distinct = found.clone();
        distinct.sort_by_key(|p| p.iter().map(|x| (x.piece, x.rotation.turns())).collect::<Vec<_>>());
        distinct.dedup();
        assert_eq!(distinct.len(), found.len());
    }

    /// The count against a brute force over every assignment of pieces and
    /// turns to the cells of the 2×2 board: catches a candidate the table
    /// drops (a rim rule too strict) or keeps (too loose).
    #[test]
    fn the_count_equals_a_brute_force_on_a_small_board() {
        let instance = two_by_two();
        let (solutions, _, _) = count(&instance);
        let mut brute = 0;
        let n = instance.pieces.len();
        for perm in permutations(n) {
            for turns in 0..4u32.pow(n as u32) {
                let cells = (0..n)
                    .map(|c| {
                        let t = (turns / 4u32.pow(c as u32)) % 4;
                        Some(Placement { piece: perm[c], rotation: Rotation::ALL[t as usize] })
                    })
                    .collect();
                let board = Board { grid: instance.grid, cells };
                brute += u64::from(crate::check::check(&instance, &board).is_solution());
            }
        }
        assert_eq!(solutions, brute);
    }

    /// The estimate of a tree the scan walks whole comes within 10% of its
    /// node count over many probes (on a 5×5 planted board, a tree of
    /// uneven branching): catches a branching counted with used pieces, or
    /// a probe that stops a depth early.
    #[test]
    fn the_estimate_comes_near_the_nodes_walked() {
        let planted = crate::generate::planted(&crate::generate::PlantedSpec::square(5, 2, 3, 5)).unwrap();
        let instance = Instance { clues: Vec::new(), ..planted.instance };
        let (_, nodes, _) = count(&instance);
        let table = Table::new(&instance).unwrap();
        let estimate = estimate(&table, 20_000, &mut Rng::new(1));
        let ratio = estimate / nodes as f64;
        assert!((0.9..1.1).contains(&ratio), "estimate {estimate:.0} against {nodes} nodes");
    }

    fn permutations(n: usize) -> Vec<Vec<usize>> {
        if n == 0 {
            return vec![Vec::new()];
        }
        let mut out = Vec::new();
        for rest in permutations(n - 1) {
            for at in 0..=rest.len() {
                let mut p = rest.clone();
                p.insert(at, n - 1);
                out.push(p);
            }
        }
        out
    }
}
