//! Planted boards: framed, colour-balanced instances built around a known solution.
//!
//! The construction colours every inner join of a W×H grid, cuts the grid into
//! pieces, shuffles and turns them, and keeps the uncut grid as the planted
//! solution:
//! - joins between two rim cells take the frame colours `1..=F`, every other
//!   inner join takes the interior colours `F+1..=F+I`, the rim is grey;
//! - within each class the colour counts differ by at most one;
//! - no two pieces are equal up to rotation and no piece is rotationally
//!   symmetric: offending joins are recoloured by swapping colours between two
//!   joins of the same class (which keeps the balance) until none is left;
//! - clues sit at the Eternity II analogue positions (row, column):
//!   (2,2), (2,W−3), (H−3,2), (H−3,W−3), (H/2, W/2−1), as C3, C14, N3, N14 and
//!   I8 of the 16×16 original; more clues are further interior cells.
//!
//! Everything is drawn from one [`Rng`] stream, so a spec gives the same files
//! on every run.

use std::collections::HashMap;

use crate::error::Error;
use crate::puzzle::{
    Board, Clue, Colour, ColourCounts, GREY, Grid, Instance, MAX_SIDE, Piece, Placement, Rotation, Side,
};
use crate::rng::Rng;

/// Recolouring steps tried before giving up on a duplicate-free board.
const REPAIR_STEPS: usize = 200_000;

/// What to generate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlantedSpec {
    /// Board geometry.
    pub grid: Grid,
    /// Colours on joins between two rim cells.
    pub frame_colours: u32,
    /// Colours on all other inner joins.
    pub interior_colours: u32,
    /// Number of clue cells.
    pub clues: usize,
    /// Seed of the random stream.
    pub seed: u64,
}

impl PlantedSpec {
    /// A `side`×`side` board with five clue cells, as in Eternity II and the benchmarks.
    pub fn square(side: usize, frame_colours: u32, interior_colours: u32, seed: u64) -> Self {
        PlantedSpec { grid: Grid { width: side, height: side }, frame_colours, interior_colours, clues: 5, seed }
    }

    /// The conventional file stem, e.g. `planted-12x12-f5i17-s1`.
    pub fn name(&self) -> String {
        format!(
            "planted-{}x{}-f{}i{}-s{}",
            self.grid.width, self.grid.height, self.frame_colours, self.interior_colours, self.seed
        )
    }
}

/// A generated instance with the solution it was built from.
#[derive(Clone, Debug)]
pub struct Planted {
    /// The puzzle.
    pub instance: Instance,
    /// The planted solution (a full, valid board).
    pub solution: Board,
    /// The colour counts used.
    pub colours: ColourCounts,
}

/// A planted instance with one interior piece (not a clue) given, on its
/// north side, a colour no other piece has: no full solution exists, and the
/// best boards mismatch exactly one join (the planted solution does). For
/// tests of proofs and of the score; `None` when the board has no interior
/// piece outside the clues.
pub fn forced_mismatch(spec: &PlantedSpec) -> Result<Option<Instance>, Error> {
    let mut instance = planted(spec)?.instance;
    let clue_pieces: Vec<usize> = instance.clues.iter().map(|c| c.placement.piece).collect();
    let fresh = instance.max_colour().checked_add(1);
    let inner = (0..instance.pieces.len()).find(|&q| !clue_pieces.contains(&q) && instance.pieces[q].grey_sides() == 0);
    Ok(match (inner, fresh) {
        (Some(q), Some(colour)) => {
            instance.pieces[q].0[0] = colour;
            Some(instance)
        }
        _ => None,
    })
}

/// Builds a planted instance.
pub fn planted(spec: &PlantedSpec) -> Result<Planted, Error> {
    let grid = spec.grid;
    if !(2..=MAX_SIDE).contains(&grid.width) || !(2..=MAX_SIDE).contains(&grid.height) {
        return Err(Error::Generate(format!("board {grid}: width and height must be in 2..={MAX_SIDE}")));
    }
    let (f, i) = (spec.frame_colours, spec.interior_colours);
    if f + i > u32::from(Colour::MAX) {
        return Err(Error::Generate(format!("{f} frame + {i} interior colours exceed 255")));
    }
    let mut rng = Rng::new(spec.seed);
    let mut joins = Joins::coloured(spec, &mut rng)?;
    joins.repair(spec, &mut rng)?;
    let (pieces, solution) = cut(grid, &joins.pieces(), &mut rng);
    let clue_cells = clue_cells(grid, spec.clues, &mut rng)?;
    let clues = clue_cells
        .into_iter()
        .map(|cell| Clue { cell, placement: solution.cells[cell].expect("full board") })
        .collect();
    Ok(Planted {
        instance: Instance { grid, pieces, clues },
        solution,
        colours: ColourCounts { frame: f, interior: i },
    })
}

/// The inner joins of a board and the colour of each.
struct Joins {
    grid: Grid,
    /// Colour of each join.
    colour: Vec<Colour>,
    /// The joins of each class: frame (between two rim cells) and interior.
    classes: [Vec<usize>; 2],
    /// The class of each join: 0 frame, 1 interior.
    class_of: Vec<usize>,
    /// The join on each side of each cell, `usize::MAX` on the rim.
    join_of: Vec<[usize; 4]>,
}

impl Joins {
    /// Colours the joins class by class, each colour of a class used equally often (±1).
    fn coloured(spec: &PlantedSpec, rng: &mut Rng) -> Result<Joins, Error> {
        let grid = spec.grid;
        let joins: Vec<(usize, Side)> = grid.joins().collect();
        let is_frame = |&(cell, side): &(usize, Side)| {
            grid.is_rim_cell(cell) && grid.is_rim_cell(grid.neighbour(cell, side).expect("inner join"))
        };
        let frame: Vec<usize> = (0..joins.len()).filter(|&j| is_frame(&joins[j])).collect();
        let interior: Vec<usize> = (0..joins.len()).filter(|&j| !is_frame(&joins[j])).collect();
        let (f, i) = (spec.frame_colours, spec.interior_colours);
        let mut colour = vec![GREY; joins.len()];
        for (class, count, first, what) in [(&frame, f, 1, "frame"), (&interior, i, f + 1, "interior")] {
            if class.is_empty() {
                continue;
            }
            if count == 0 {
                return Err(Error::Generate(format!(
                    "a {grid} board has {} {what} joins but 0 {what} colours",
                    class.len()
                )));
            }
            let mut palette: Vec<Colour> = (0..class.len()).map(|k| (first + k as u32 % count) as Colour).collect();
            rng.shuffle(&mut palette);
            for (&j, c) in class.iter().zip(palette) {
                colour[j] = c;
            }
        }
        let mut join_of = vec![[usize::MAX; 4]; grid.cells()];
        for (j, &(cell, side)) in joins.iter().enumerate() {
            join_of[cell][side.index()] = j;
            join_of[grid.neighbour(cell, side).expect("inner join")][side.opposite().index()] = j;
        }
        let class_of = joins.iter().map(|j| usize::from(!is_frame(j))).collect();
        Ok(Joins { grid, colour, classes: [frame, interior], class_of, join_of })
    }

    /// The pieces the colouring cuts, cell by cell, in solved orientation.
    fn pieces(&self) -> Vec<Piece> {
        self.join_of.iter().map(|js| Piece(js.map(|j| if j == usize::MAX { GREY } else { self.colour[j] }))).collect()
    }

    /// Swaps colours within a class until no piece is a duplicate or symmetric:
    /// each step swaps a join of a bad cell with a random join of its class and
    /// keeps the swap unless it makes more bad cells.
    fn repair(&mut self, spec: &PlantedSpec, rng: &mut Rng) -> Result<(), Error> {
        let mut bad = bad_cells(&self.pieces());
        let mut steps = 0;
        while !bad.is_empty() {
            if steps == REPAIR_STEPS {
                return Err(Error::Generate(format!(
                    "no {} board with {} frame + {} interior colours free of duplicate and symmetric \
                     pieces was found in {REPAIR_STEPS} recolouring steps (seed {}); use more colours",
                    self.grid, spec.frame_colours, spec.interior_colours, spec.seed
                )));
            }
            steps += 1;
            let cell = bad[rng.below(bad.len())];
            let inner: Vec<usize> = self.join_of[cell].iter().copied().filter(|&j| j != usize::MAX).collect();
            let a = inner[rng.below(inner.len())];
            let class = &self.classes[self.class_of[a]];
            let b = class[rng.below(class.len())];
            self.colour.swap(a, b);
            let next = bad_cells(&self.pieces());
            if next.len() <= bad.len() {
                bad = next;
            } else {
                self.colour.swap(a, b);
            }
        }
        Ok(())
    }
}

/// Cuts the solved pieces apart, shuffles their numbers and turns each at
/// random; returns the pieces and the planted solution that puts them back.
fn cut(grid: Grid, solved: &[Piece], rng: &mut Rng) -> (Vec<Piece>, Board) {
    let mut order: Vec<usize> = (0..grid.cells()).collect();
    rng.shuffle(&mut order);
    let mut pieces = Vec::with_capacity(grid.cells());
    let mut solution = Board::empty(grid);
    for (id, &cell) in order.iter().enumerate() {
        let rotation = Rotation::ALL[rng.below(4)];
        let s = solved[cell].0;
        let t = rotation.turns() as usize;
        // Stored so that turning it by `rotation` shows the solved sides again.
        pieces.push(Piece(std::array::from_fn(|k| s[(k + t) % 4])));
        solution.cells[cell] = Some(Placement { piece: id, rotation });
    }
    (pieces, solution)
}

/// Cells whose piece is a duplicate (up to rotation) of another or is symmetric.
fn bad_cells(pieces: &[Piece]) -> Vec<usize> {
    let mut count: HashMap<[Colour; 4], usize> = HashMap::with_capacity(pieces.len());
    for p in pieces {
        *count.entry(p.canonical()).or_default() += 1;
    }
    (0..pieces.len()).filter(|&c| pieces[c].is_rotationally_symmetric() || count[&pieces[c].canonical()] > 1).collect()
}

/// The Eternity II analogue clue cells, then random interior cells.
fn clue_cells(grid: Grid, wanted: usize, rng: &mut Rng) -> Result<Vec<usize>, Error> {
    let (w, h) = (grid.width, grid.height);
    let analogue = [
        (2, 2),
        (2, w.wrapping_sub(3)),
        (h.wrapping_sub(3), 2),
        (h.wrapping_sub(3), w.wrapping_sub(3)),
        (h / 2, (w / 2).wrapping_sub(1)),
    ];
    let mut cells: Vec<usize> = Vec::with_capacity(wanted);
    for (r, c) in analogue {
        if cells.len() == wanted {
            break;
        }
        if r < h && c < w && !cells.contains(&grid.cell(r, c)) {
            cells.push(grid.cell(r, c));
        }
    }
    if cells.len() < wanted {
        let mut rest: Vec<usize> = (0..grid.cells()).filter(|&c| !grid.is_rim_cell(c) && !cells.contains(&c)).collect();
        if rest.len() < wanted - cells.len() {
            rest.extend((0..grid.cells()).filter(|&c| grid.is_rim_cell(c) && !cells.contains(&c)));
        }
        if rest.len() < wanted - cells.len() {
            return Err(Error::Generate(format!("{wanted} clues do not fit on a {grid} board")));
        }
        rng.shuffle(&mut rest);
        cells.extend(rest.into_iter().take(wanted - cells.len()));
    }
    Ok(cells)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn planted_solution_matches_everywhere() {
        let p = planted(&PlantedSpec::square(8, 3, 6, 1)).unwrap();
        assert_eq!(p.solution.score(&p.instance), p.instance.grid.max_score());
        assert_eq!(p.instance.clues.len(), 5);
        let g = p.instance.grid;
        assert_eq!(p.instance.clues[0].cell, g.cell(2, 2));
        assert_eq!(p.instance.clues[4].cell, g.cell(4, 3));
    }

    #[test]
    fn colours_are_balanced_per_class() {
        let p = planted(&PlantedSpec::square(10, 5, 17, 4)).unwrap();
        let g = p.instance.grid;
        let mut counts = [0usize; 23];
        for (cell, side) in g.joins() {
            counts[p.solution.colour(&p.instance, cell, side).unwrap() as usize] += 1;
        }
        let frame = &counts[1..=5];
        let interior = &counts[6..=22];
        assert_eq!(frame.iter().sum::<usize>(), 4 * (10 - 1));
        assert!(frame.iter().max().unwrap() - frame.iter().min().unwrap() <= 1, "{frame:?}");
        assert!(interior.iter().max().unwrap() - interior.iter().min().unwrap() <= 1, "{interior:?}");
    }

    #[test]
    fn no_duplicates_or_symmetric_pieces() {
        let p = planted(&PlantedSpec::square(12, 5, 17, 2)).unwrap();
        assert!(bad_cells(&p.instance.pieces).is_empty());
    }

    #[test]
    fn same_seed_same_instance() {
        let a = planted(&PlantedSpec::square(7, 2, 5, 9)).unwrap();
        let b = planted(&PlantedSpec::square(7, 2, 5, 9)).unwrap();
        let c = planted(&PlantedSpec::square(7, 2, 5, 10)).unwrap();
        assert_eq!(a.instance, b.instance);
        assert_ne!(a.instance, c.instance);
    }

    #[test]
    fn impossible_requests_fail_cleanly() {
        let few = planted(&PlantedSpec::square(6, 1, 1, 1)).unwrap_err().to_string();
        assert!(few.contains("duplicate"), "{few}");
        assert!(planted(&PlantedSpec::square(1, 1, 1, 1)).is_err());
        assert!(planted(&PlantedSpec::square(5, 0, 4, 1)).is_err());
        let mut many = PlantedSpec::square(4, 2, 6, 1);
        many.clues = 17;
        assert!(planted(&many).is_err());
    }
}
