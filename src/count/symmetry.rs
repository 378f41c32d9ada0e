//! The turns of a board that map its solutions onto solutions: the quarter turns of a square board without clues, the half turn of a rectangle without clues, none with clues.
//!
//! A solution counts once up to symmetry when it is the least of its images
//! (cell by cell, each placement as its piece and the first of its turns
//! that shows the same colours), so every class of solutions turned into
//! one another counts once however many of them the scan meets.

use crate::puzzle::{Grid, Instance, Placement, Rotation};

/// The quarter turns (clockwise) that map every solution of a board onto another.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Symmetries {
    turns: Vec<u8>,
}

impl Symmetries {
    /// The symmetries of `instance`: clues tie a board to its place, so a clued board has none.
    pub(crate) fn of(instance: &Instance) -> Symmetries {
        let grid = instance.grid;
        let turns = match (instance.clues.is_empty(), grid.width == grid.height) {
            (false, _) => Vec::new(),
            (true, true) => vec![1, 2, 3],
            (true, false) => vec![2],
        };
        Symmetries { turns }
    }

    /// How many boards each class holds at most: the identity and the turns.
    pub(crate) fn order(&self) -> usize {
        1 + self.turns.len()
    }

    /// Every image of `placements` (a full board on `grid`) under the
    /// symmetries, the board itself first.
    pub(crate) fn images(&self, grid: Grid, placements: &[Placement]) -> Vec<Vec<Placement>> {
        let turns = std::iter::once(0).chain(self.turns.iter().copied());
        turns.map(|t| turned(grid, placements, t).1).collect()
    }

    /// True when `placements` (a full board of `instance`, cell by cell) is the least of its images.
    pub(crate) fn is_least(&self, instance: &Instance, placements: &[Placement]) -> bool {
        let own = key(instance, placements);
        self.turns.iter().all(|&t| own <= key(instance, &turned(instance.grid, placements, t).1))
    }
}

/// A board as (piece, first turn showing the same colours) cell by cell: what two equal boards share.
fn key(instance: &Instance, placements: &[Placement]) -> Vec<(usize, u8)> {
    placements
        .iter()
        .map(|p| {
            let piece = instance.pieces[p.piece];
            let shown = piece.rotated(p.rotation);
            let first = Rotation::ALL.iter().find(|&&r| piece.rotated(r) == shown).copied().unwrap_or(p.rotation);
            (p.piece, first.turns())
        })
        .collect()
}

/// The board turned clockwise by `quarter_turns`: its grid and placements cell by cell.
pub(super) fn turned(grid: Grid, placements: &[Placement], quarter_turns: u8) -> (Grid, Vec<Placement>) {
    let (mut grid, mut cells) = (grid, placements.to_vec());
    for _ in 0..quarter_turns {
        (grid, cells) = turned_once(grid, &cells);
    }
    (grid, cells)
}

/// One clockwise quarter turn: cell (row, col) of an h-row board goes to
/// (col, h − 1 − row) of the turned one, w rows high, and every piece turns with it.
fn turned_once(grid: Grid, cells: &[Placement]) -> (Grid, Vec<Placement>) {
    let mut out = cells.to_vec();
    for (cell, &placement) in cells.iter().enumerate() {
        out[turn_cell(grid, cell)] = turn_placement(placement);
    }
    (turned_grid(grid), out)
}

/// The grid of a board of `grid` turned a quarter: its width and height swapped.
pub(super) fn turned_grid(grid: Grid) -> Grid {
    Grid { width: grid.height, height: grid.width }
}

/// Where `cell` of a board of `grid` goes when the board turns a quarter clockwise (see [`turned_once`]).
pub(super) fn turn_cell(grid: Grid, cell: usize) -> usize {
    let (row, col) = grid.row_col(cell);
    turned_grid(grid).cell(col, grid.height - 1 - row)
}

/// A placement turned a quarter clockwise with its board.
pub(super) fn turn_placement(p: Placement) -> Placement {
    Placement { piece: p.piece, rotation: Rotation::ALL[usize::from((p.rotation.turns() + 1) % 4)] }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::{Board, Piece};

    /// A planted 4×4 board and its own solution, without clues.
    fn planted() -> (Instance, Vec<Placement>) {
        let spec = crate::generate::PlantedSpec::square(4, 2, 3, 7);
        let planted = crate::generate::planted(&spec).unwrap();
        let instance = Instance { clues: Vec::new(), ..planted.instance };
        let placements = planted.solution.cells.iter().map(|c| c.unwrap()).collect();
        (instance, placements)
    }

    /// Every image of a solution is a solution, and four quarter turns give
    /// the board back: catches a cell map or a piece turn the wrong way round.
    #[test]
    fn each_turn_of_a_solution_is_a_solution() {
        let (instance, placements) = planted();
        for t in 0..4 {
            let (grid, image) = turned(instance.grid, &placements, t);
            let board = Board { grid, cells: image.iter().copied().map(Some).collect() };
            assert!(crate::check::check(&instance, &board).is_solution(), "turn {t}");
        }
        assert_eq!(turned(instance.grid, &placements, 4).1, placements);
    }

    /// Of a solution's four turns exactly one is the least: catches a class counted twice or not at all.
    #[test]
    fn one_board_of_each_class_is_the_least() {
        let (instance, placements) = planted();
        let symmetries = Symmetries::of(&instance);
        assert_eq!(symmetries.order(), 4);
        let least =
            (0..4).filter(|&t| symmetries.is_least(&instance, &turned(instance.grid, &placements, t).1)).count();
        assert_eq!(least, 1);
    }

    /// A clued board has no symmetry, a clueless rectangle the half turn only.
    #[test]
    fn clues_and_rectangles_have_fewer_symmetries() {
        let (instance, _) = planted();
        let mut clued = instance.clone();
        clued
            .clues
            .push(crate::puzzle::Clue { cell: 0, placement: Placement { piece: 0, rotation: Rotation::ALL[0] } });
        assert_eq!(Symmetries::of(&clued).order(), 1);
        let rectangle =
            Instance { grid: Grid::new(3usize, 2).unwrap(), pieces: vec![Piece([0; 4]); 6], clues: Vec::new() };
        assert_eq!(Symmetries::of(&rectangle).order(), 2);
    }
}
