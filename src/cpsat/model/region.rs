//! The region repair model: a board with a region freed, its pieces free to move and turn within it, maximizing matched joins.
//!
//! Every cell outside the region keeps its placement. The region's cells
//! are those asked for and every empty cell (a partial board is completed
//! this way); its pieces are those on its cells and those no cell holds.
//! Inside, one Boolean per
//! (cell, piece of the region, rotation) that fits the cell's rim; exactly one
//! per cell and per piece. Each inner join with a freed end gets a Boolean
//! "matched": towards a pinned cell it may be true only if the freed cell shows
//! the pinned colour there; between two freed cells, through one Boolean per
//! colour both may show, each implied by both sides. The objective maximizes
//! the matched joins; the board's own placement is the solution hint, so the
//! answer is never worse than the board given.

use super::builder::Builder;
use crate::cpsat::proto::{CpModelProto, PartialVariableAssignment};
use crate::puzzle::{Board, Colour, GREY, Instance, Placement, Rotation, Side};

/// The model of a region and how to read a board back from a solution.
#[derive(Clone, Debug)]
pub struct RegionModel {
    /// The model, ready to serialize.
    pub proto: CpModelProto,
    /// The placement Booleans: (variable, cell, placement).
    pub placements: Vec<(i32, usize, Placement)>,
    /// Matched joins with no freed end: the part of the score the model does not see.
    pub fixed_score: usize,
    /// The board the region was cut from.
    pub board: Board,
}

impl RegionModel {
    /// The board a solution vector spells: the original outside the region,
    /// the chosen placements inside. `None` when a freed cell has no placement.
    pub fn decode(&self, values: &[i64]) -> Option<Board> {
        let mut board = self.board.clone();
        let mut filled = 0;
        for &(var, cell, placement) in &self.placements {
            if values.get(var as usize) == Some(&1) {
                board.cells[cell] = Some(placement);
                filled += 1;
            }
        }
        let freed = self.placements.iter().map(|p| p.1).collect::<std::collections::BTreeSet<_>>().len();
        (filled == freed).then_some(board)
    }
}

/// Builds the model freeing `region` (cells, clue cells left out) and every
/// empty cell of `board` but the clue cells, which hold their clues.
pub fn region(instance: &Instance, board: &Board, region: &[usize]) -> RegionModel {
    let grid = instance.grid;
    // A clue cell left empty holds its clue: it is pinned like the other placed cells.
    let mut board = board.clone();
    for clue in instance.clues.iter().filter(|c| c.cell < grid.cells()) {
        board.cells[clue.cell].get_or_insert(clue.placement);
    }
    let board = &board;
    let is_clue = |cell: usize| instance.clues.iter().any(|c| c.cell == cell);
    let mut freed = vec![false; grid.cells()];
    for &cell in region.iter().filter(|&&c| c < grid.cells() && !is_clue(c)) {
        freed[cell] = true;
    }
    // Empty cells are freed too, and the pieces no cell holds go to the freed cells.
    for (cell, placed) in board.cells.iter().enumerate() {
        if placed.is_none() && !is_clue(cell) {
            freed[cell] = true;
        }
    }
    let cells: Vec<usize> = (0..grid.cells()).filter(|&c| freed[c]).collect();
    let mut placed_somewhere = vec![false; instance.pieces.len()];
    for p in board.cells.iter().flatten() {
        placed_somewhere[p.piece] = true;
    }
    let pieces: Vec<usize> = cells
        .iter()
        .filter_map(|&c| board.cells[c].map(|p| p.piece))
        .chain((0..instance.pieces.len()).filter(|&p| !placed_somewhere[p]))
        .collect();
    let shows = |p: Placement, side: Side| -> Colour { instance.pieces[p.piece].side(p.rotation, side) };
    let mut b = Builder::named("edgematch-region");
    let mut placements = Vec::new();
    let mut by_cell: Vec<Vec<(i32, Placement)>> = vec![Vec::new(); grid.cells()];
    let mut by_piece: Vec<Vec<i32>> = vec![Vec::new(); instance.pieces.len()];
    for &cell in &cells {
        let rim: [bool; 4] = Side::ALL.map(|s| grid.is_rim_side(cell, s));
        let (row, col) = grid.row_col(cell);
        for &piece in &pieces {
            for rotation in Rotation::ALL {
                let p = Placement { piece, rotation };
                if Side::ALL.iter().all(|&s| (shows(p, s) == GREY) == rim[s.index()]) {
                    let var = b.var(format!("x_{row}_{col}_{}_{}", piece + 1, rotation.turns()), vec![0, 1]);
                    placements.push((var, cell, p));
                    by_cell[cell].push((var, p));
                    by_piece[piece].push(var);
                }
            }
        }
    }
    for &cell in &cells {
        let vars: Vec<i32> = by_cell[cell].iter().map(|v| v.0).collect();
        b.linear(vars.clone(), vec![1; vars.len()], 1, 1);
    }
    for &piece in &pieces {
        let vars = by_piece[piece].clone();
        b.linear(vars.clone(), vec![1; vars.len()], 1, 1);
    }
    let (matched, fixed_score) = joins(instance, board, &freed, &by_cell, &mut b);
    b.maximize_sum(matched);
    let mut proto = b.finish();
    // The board's own placement as the hint: CP-SAT starts from it.
    let (vars, values) =
        placements.iter().map(|&(var, cell, p)| (var, i64::from(board.cells[cell] == Some(p)))).unzip();
    proto.solution_hint = Some(PartialVariableAssignment { vars, values });
    RegionModel { proto, placements, fixed_score, board: board.clone() }
}

/// The "matched" Boolean of every inner join with a freed end, constrained to
/// hold only when both sides show one colour, and the matched joins with no
/// freed end (which the model does not see).
fn joins(
    instance: &Instance,
    board: &Board,
    freed: &[bool],
    by_cell: &[Vec<(i32, Placement)>],
    b: &mut Builder,
) -> (Vec<i32>, usize) {
    let grid = instance.grid;
    let shows = |p: Placement, side: Side| -> Colour { instance.pieces[p.piece].side(p.rotation, side) };
    let pinned_colour = |cell: usize, side: Side| shows(board.cells[cell].expect("a full board"), side);
    // The variables of `cell` showing `colour` on `side`.
    let showing = |cell: usize, side: Side, colour: Colour| -> Vec<i32> {
        by_cell[cell].iter().filter(|(_, p)| shows(*p, side) == colour).map(|v| v.0).collect()
    };
    let mut matched = Vec::new();
    let mut fixed_score = 0;
    for (cell, side) in grid.joins() {
        let other = grid.neighbour(cell, side).expect("an inner join");
        let (row, col) = grid.row_col(cell);
        let name = format!("m_{row}_{col}_{side}");
        match (freed[cell], freed[other]) {
            (false, false) => {
                fixed_score += usize::from(pinned_colour(cell, side) == pinned_colour(other, side.opposite()))
            }
            (true, false) | (false, true) => {
                let (free, pinned, free_side) =
                    if freed[cell] { (cell, other, side) } else { (other, cell, side.opposite()) };
                let want = pinned_colour(pinned, free_side.opposite());
                let m = b.var(name, vec![0, 1]);
                // m <= sum of the freed cell's placements showing the pinned colour.
                let mut vars = vec![m];
                vars.extend(showing(free, free_side, want));
                let mut coeffs = vec![1];
                coeffs.extend(std::iter::repeat_n(-1, vars.len() - 1));
                b.linear(vars, coeffs, i64::MIN / 4, 0);
                matched.push(m);
            }
            (true, true) => {
                let m = b.var(name, vec![0, 1]);
                let mut per_colour = vec![m];
                let colours: std::collections::BTreeSet<Colour> =
                    by_cell[cell].iter().map(|(_, p)| shows(*p, side)).filter(|&c| c != GREY).collect();
                for colour in colours {
                    let (mine, theirs) = (showing(cell, side, colour), showing(other, side.opposite(), colour));
                    if theirs.is_empty() {
                        continue;
                    }
                    let y = b.var(format!("y_{row}_{col}_{side}_{colour}"), vec![0, 1]);
                    for list in [mine, theirs] {
                        let mut vars = vec![y];
                        vars.extend(&list);
                        let mut coeffs = vec![1];
                        coeffs.extend(std::iter::repeat_n(-1, list.len()));
                        b.linear(vars, coeffs, i64::MIN / 4, 0);
                    }
                    per_colour.push(y);
                }
                // m = sum of the colours' Booleans (at most one can hold).
                let mut coeffs = vec![1];
                coeffs.extend(std::iter::repeat_n(-1, per_colour.len() - 1));
                b.linear(per_colour, coeffs, 0, 0);
                matched.push(m);
            }
        }
    }
    (matched, fixed_score)
}
