//! The budget walk's plan: for each free cell in fill order, where its known colours come from, and the candidate tables keyed by them; built once per run, shuffled per attempt.

use crate::kernel::{Buckets, Clues, NO_SIDE, fitting, rim_class};
use crate::puzzle::{Board, Colour, Instance, Side};
use crate::rng::Rng;

/// One candidate: a piece in a rotation and the colours it shows, N E S W.
#[derive(Clone, Copy, Debug)]
pub(super) struct Cand {
    pub(super) shown: [Colour; 4],
    pub(super) piece: u16,
    pub(super) rotation: u8,
}

/// The candidates of one (rim class, side A, side B): exact by (A, B) colours, and by A or by B alone.
/// A missing side reads as the colour index `colours` (its own key).
#[derive(Clone, Debug)]
pub(super) struct Tables {
    pub(super) exact: Buckets<Cand>,
    pub(super) by_a: Buckets<Cand>,
    pub(super) by_b: Buckets<Cand>,
}

/// One known side of a cell: the neighbour that shows its colour, and whether it may break.
#[derive(Clone, Copy, Debug)]
pub(super) struct Known {
    /// The side of this cell (0..4, N E S W).
    pub(super) side: u8,
    /// The bit offset, in the neighbour's packed colours, of its side facing this cell.
    pub(super) facing: u8,
    /// The neighbour filled before (or a clue).
    pub(super) src: u16,
    /// A frame join: never broken.
    pub(super) fixed: bool,
}

/// One free cell in fill order, with where its known colours come from.
#[derive(Clone, Copy, Debug)]
pub(super) struct Step {
    pub(super) cell: u16,
    /// Index of this step's tables.
    pub(super) tables: usize,
    /// Known sides: A and B key the tables, C and D are compared; `count` of them are set.
    pub(super) known: [Known; 4],
    pub(super) count: u8,
    /// Sides whose neighbour is still empty when this cell is filled (bit per side).
    pub(super) open: u8,
}

/// Everything a walk over one instance reads.
#[derive(Clone, Debug)]
pub(crate) struct Plan {
    pub(super) colours: usize,
    pub(super) steps: Vec<Step>,
    pub(super) tables: Vec<Tables>,
    /// The board with the clues only.
    pub(super) clue_board: Board,
    /// The clues laid out: a walk starts from their packed colours and the pieces they take.
    pub(super) clues: Clues,
    /// Open sides per colour with only the clues placed.
    pub(super) initial_open: Vec<i32>,
    /// Sides per colour of the pieces no clue takes.
    pub(super) initial_left: Vec<i32>,
}

/// The candidate tables of one (rim class, side A, side B) key: every
/// placement of a piece no clue takes that fits the class, bucketed by the
/// colours on A and B (a missing side reads as the colour `colours`).
fn tables_of(
    instance: &Instance,
    (class, a_side, b_side): (u8, u8, u8),
    clue_pieces: &[bool],
    colours: usize,
) -> Tables {
    let cands: Vec<Cand> = fitting(instance, class)
        .filter(|(placement, _)| !clue_pieces[placement.piece])
        .map(|(placement, shown)| Cand { shown, piece: placement.piece as u16, rotation: placement.rotation.turns() })
        .collect();
    let keyed = |side: u8, c: &Cand| {
        if side == NO_SIDE { colours } else { usize::from(c.shown[usize::from(side)]) }
    };
    let width = colours + 1;
    let by = |keys: usize, key: &dyn Fn(&Cand) -> usize| Buckets::new(keys, cands.iter().map(|c| (key(c), *c)));
    Tables {
        exact: by(width * width, &|c| keyed(a_side, c) * width + keyed(b_side, c)),
        by_a: by(width, &|c| keyed(a_side, c)),
        by_b: by(width, &|c| keyed(b_side, c)),
    }
}

/// Per colour: the open sides with only the clues placed (a clue's side
/// facing a free cell), and the sides of the pieces no clue takes.
fn colour_counts(instance: &Instance, clues: &Clues, colours: usize) -> (Vec<i32>, Vec<i32>) {
    let grid = instance.grid;
    let mut open = vec![0i32; colours];
    for (cell, shown) in clues.shown.iter().enumerate() {
        let Some(shown) = shown else { continue };
        for side in Side::ALL {
            if grid.neighbour(cell, side).is_some_and(|o| clues.shown[o].is_none()) {
                open[usize::from(shown[side.index()])] += 1;
            }
        }
    }
    let mut left = vec![0i32; colours];
    for (_, p) in instance.pieces.iter().enumerate().filter(|&(q, _)| !clues.pieces[q]) {
        for &c in &p.0 {
            left[usize::from(c)] += 1;
        }
    }
    (open, left)
}

impl Plan {
    /// The plan of `instance` filled in `order` (every cell once; clue cells are
    /// skipped), or why the clues alone rule every board out.
    pub(crate) fn new(instance: &Instance, order: &[usize]) -> Result<Plan, String> {
        let grid = instance.grid;
        let colours = usize::from(instance.max_colour()) + 1;
        let clues = Clues::of(instance)?;
        let (free, rank) = clues.fill(order);
        let frame = |a: usize, b: usize| grid.is_rim_cell(a) && grid.is_rim_cell(b);
        let mut keys: Vec<(u8, u8, u8)> = Vec::new();
        let mut steps = Vec::with_capacity(free.len());
        for &cell in &free {
            let mut known = [Known { side: NO_SIDE, facing: 0, src: grid.cells() as u16, fixed: false }; 4];
            let mut count = 0;
            // Sides facing a cell still empty: inner sides (not rim) that are not known.
            let mut open = !rim_class(grid, cell) & 0b1111;
            for (side, other) in clues.known(grid, &rank, cell) {
                known[count] = Known {
                    side: side.index() as u8,
                    facing: 8 * side.opposite().index() as u8,
                    src: other as u16,
                    fixed: frame(cell, other),
                };
                count += 1;
                open &= !(1 << side.index());
            }
            let key = (rim_class(grid, cell), known[0].side, known[1].side);
            let tables = keys.iter().position(|&k| k == key).unwrap_or_else(|| {
                keys.push(key);
                keys.len() - 1
            });
            steps.push(Step { cell: cell as u16, tables, known, count: count as u8, open });
        }
        let tables = keys.iter().map(|&key| tables_of(instance, key, &clues.pieces, colours)).collect();
        let (initial_open, initial_left) = colour_counts(instance, &clues, colours);
        Ok(Plan { colours, steps, tables, clue_board: instance.clue_board(), clues, initial_open, initial_left })
    }

    /// Free cells.
    pub(crate) fn free(&self) -> usize {
        self.steps.len()
    }

    /// The same plan with every candidate list in an order drawn from `seed`.
    pub(crate) fn shuffled(&self, seed: u64) -> Plan {
        let mut plan = self.clone();
        let mut rng = Rng::new(seed);
        for tables in &mut plan.tables {
            for buckets in [&mut tables.exact, &mut tables.by_a, &mut tables.by_b] {
                buckets.lists_mut().for_each(|list| rng.shuffle(list));
            }
        }
        plan
    }
}
