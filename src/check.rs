//! The independent verifier: reads only the puzzle data, never solver code.
//!
//! It recomputes everything from raw colours with its own rotation arithmetic
//! (`shown[side] = piece[(side - r) mod 4]`), so that a bug in a solver or in
//! the helpers the solvers use cannot hide itself here.

use std::fmt;

use crate::puzzle::{Board, Colour, GREY, Instance, Side};

/// One thing wrong with a board.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Violation {
    /// The board's size differs from the instance's; nothing else is checked.
    Size {
        /// Board width and height.
        board: (usize, usize),
        /// Instance width and height.
        instance: (usize, usize),
    },
    /// A cell names a piece the instance does not have.
    UnknownPiece {
        /// The cell.
        cell: usize,
        /// The 0-based piece index.
        piece: usize,
    },
    /// A piece is placed in more than one cell.
    DuplicatePiece {
        /// The piece.
        piece: usize,
        /// The first cell that holds it.
        first: usize,
        /// A later cell that holds it again.
        again: usize,
    },
    /// A clue cell does not hold its piece in its rotation.
    ClueBroken {
        /// The clue's cell.
        cell: usize,
        /// The clue's piece.
        piece: usize,
        /// The clue's rotation.
        rotation: u8,
        /// What the cell holds, if anything.
        found: Option<(usize, u8)>,
    },
    /// A side on the rim shows a colour other than grey.
    ColourOnRim {
        /// The cell.
        cell: usize,
        /// Its piece.
        piece: usize,
        /// The rim side.
        side: Side,
        /// The colour shown.
        colour: Colour,
    },
    /// An inner side shows grey.
    GreyInside {
        /// The cell.
        cell: usize,
        /// Its piece.
        piece: usize,
        /// The inner side.
        side: Side,
    },
    /// Two occupied neighbours show different colours across their join.
    Mismatch {
        /// The cell west or north of the join.
        cell: usize,
        /// E or S: which of its sides the join is on.
        side: Side,
        /// Its colour there.
        colour: Colour,
        /// The neighbour's colour on the facing side.
        other: Colour,
    },
}

impl Violation {
    /// A short name for the kind of violation.
    pub fn kind(&self) -> &'static str {
        match self {
            Violation::Size { .. } => "size",
            Violation::UnknownPiece { .. } => "unknown-piece",
            Violation::DuplicatePiece { .. } => "duplicate-piece",
            Violation::ClueBroken { .. } => "clue-broken",
            Violation::ColourOnRim { .. } => "colour-on-rim",
            Violation::GreyInside { .. } => "grey-inside",
            Violation::Mismatch { .. } => "mismatch",
        }
    }
}

/// What the checker found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// Board width.
    pub width: usize,
    /// Matched inner joins (both cells occupied, same colour).
    pub score: usize,
    /// Inner joins of the board: the score of a full solution.
    pub max_score: usize,
    /// Occupied cells.
    pub placed: usize,
    /// All cells.
    pub cells: usize,
    /// Everything wrong, in cell order within each kind.
    pub violations: Vec<Violation>,
}

impl Report {
    /// True when every violation is a mismatched join: the pieces, the clues and
    /// the rim are as the rules want (the board may still have empty cells).
    pub fn only_joins_mismatch(&self) -> bool {
        self.violations.iter().all(|v| matches!(v, Violation::Mismatch { .. }))
    }

    /// True for a full board with no violation: a solution.
    pub fn is_solution(&self) -> bool {
        self.violations.is_empty() && self.placed == self.cells && self.score == self.max_score
    }

    /// The verdict in one word: `solution` (full, no violation), `partial`
    /// (no violation, some cells empty), `imperfect` (pieces legal, some joins
    /// mismatched) or `invalid` (any other violation).
    pub fn verdict(&self) -> &'static str {
        if self.violations.iter().any(|v| !matches!(v, Violation::Mismatch { .. })) {
            "invalid"
        } else if !self.violations.is_empty() {
            "imperfect"
        } else if self.placed < self.cells {
            "partial"
        } else {
            "solution"
        }
    }

    fn at(&self, cell: usize) -> String {
        format!("cell ({}, {})", cell / self.width, cell % self.width)
    }

    /// One line per violation, in words; pieces are 1-based as in the files.
    pub fn describe(&self, v: &Violation) -> String {
        match *v {
            Violation::Size { board, instance } => {
                format!("board is {}x{} but the instance is {}x{}", board.0, board.1, instance.0, instance.1)
            }
            Violation::UnknownPiece { cell, piece } => {
                format!("{}: piece {} is not in the instance", self.at(cell), piece + 1)
            }
            Violation::DuplicatePiece { piece, first, again } => {
                format!("{}: piece {} is already used at {}", self.at(again), piece + 1, self.at(first))
            }
            Violation::ClueBroken { cell, piece, rotation, found } => {
                let found = match found {
                    Some((p, r)) => format!("piece {} rotation {r}", p + 1),
                    None => "nothing".to_owned(),
                };
                format!("{}: clue wants piece {} rotation {rotation}, found {found}", self.at(cell), piece + 1)
            }
            Violation::ColourOnRim { cell, piece, side, colour } => {
                format!("{}: piece {} shows colour {colour} on rim side {side}", self.at(cell), piece + 1)
            }
            Violation::GreyInside { cell, piece, side } => {
                format!("{}: piece {} shows grey on inner side {side}", self.at(cell), piece + 1)
            }
            Violation::Mismatch { cell, side, colour, other } => {
                format!("{}: side {side} shows {colour}, its neighbour shows {other}", self.at(cell))
            }
        }
    }
}

impl Report {
    /// The verdict line and at most `limit` violations, then how many were left out.
    pub fn summary(&self, limit: usize) -> String {
        let full = self.to_string();
        let mut lines = full.lines();
        let mut out: Vec<&str> = lines.by_ref().take(limit + 1).collect();
        let rest = lines.count();
        let more = format!("  ... and {rest} more");
        if rest > 0 {
            out.push(&more);
        }
        out.join("\n") + "\n"
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "verdict: {} (score {}/{}, {} of {} cells placed, {} violations)",
            self.verdict(),
            self.score,
            self.max_score,
            self.placed,
            self.cells,
            self.violations.len()
        )?;
        for v in &self.violations {
            writeln!(f, "  {}: {}", v.kind(), self.describe(v))?;
        }
        Ok(())
    }
}

/// Checks a board against an instance.
pub fn check(instance: &Instance, board: &Board) -> Report {
    let (w, h) = (instance.grid.width, instance.grid.height);
    let cells = w * h;
    let mut report =
        Report { width: w, score: 0, max_score: (w - 1) * h + w * (h - 1), placed: 0, cells, violations: Vec::new() };
    if (board.grid.width, board.grid.height) != (w, h) || board.cells.len() != cells {
        report.violations.push(Violation::Size { board: (board.grid.width, board.grid.height), instance: (w, h) });
        return report;
    }

    // Pieces: known, and each used at most once.
    let mut first_use = vec![usize::MAX; instance.pieces.len()];
    let mut shown: Vec<Option<(usize, [Colour; 4])>> = vec![None; cells];
    for (cell, placement) in board.cells.iter().enumerate() {
        let Some(p) = placement else { continue };
        report.placed += 1;
        if p.piece >= instance.pieces.len() {
            report.violations.push(Violation::UnknownPiece { cell, piece: p.piece });
            continue;
        }
        if first_use[p.piece] != usize::MAX {
            report.violations.push(Violation::DuplicatePiece {
                piece: p.piece,
                first: first_use[p.piece],
                again: cell,
            });
        } else {
            first_use[p.piece] = cell;
        }
        let raw = instance.pieces[p.piece].0;
        let r = usize::from(p.rotation.turns());
        shown[cell] = Some((p.piece, [raw[(4 - r) % 4], raw[(5 - r) % 4], raw[(6 - r) % 4], raw[(7 - r) % 4]]));
    }

    for clue in &instance.clues {
        let want = (clue.placement.piece, clue.placement.rotation.turns());
        let found = board.cells[clue.cell].map(|p| (p.piece, p.rotation.turns()));
        if found != Some(want) {
            report.violations.push(Violation::ClueBroken { cell: clue.cell, piece: want.0, rotation: want.1, found });
        }
    }

    // Rim and inner sides, then joins, from raw coordinates.
    for (cell, entry) in shown.iter().enumerate() {
        let Some((piece, colours)) = *entry else { continue };
        let (row, col) = (cell / w, cell % w);
        let on_rim = [row == 0, col + 1 == w, row + 1 == h, col == 0];
        for (s, side) in Side::ALL.into_iter().enumerate() {
            if on_rim[s] && colours[s] != GREY {
                report.violations.push(Violation::ColourOnRim { cell, piece, side, colour: colours[s] });
            } else if !on_rim[s] && colours[s] == GREY {
                report.violations.push(Violation::GreyInside { cell, piece, side });
            }
        }
    }
    for cell in 0..cells {
        let Some((_, here)) = shown[cell] else { continue };
        let (row, col) = (cell / w, cell % w);
        let east = (col + 1 < w).then(|| (Side::E, cell + 1, 1, 3));
        let south = (row + 1 < h).then(|| (Side::S, cell + w, 2, 0));
        for (side, other_cell, mine, theirs) in east.into_iter().chain(south) {
            let Some((_, there)) = shown[other_cell] else { continue };
            if here[mine] == there[theirs] {
                report.score += 1;
            } else {
                report.violations.push(Violation::Mismatch { cell, side, colour: here[mine], other: there[theirs] });
            }
        }
    }
    report
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::{Clue, Grid, Piece, Placement, Rotation};

    /// A 2x2 board of corners, solved with every piece at rotation 0.
    fn two_by_two() -> (Instance, Board) {
        let grid = Grid { width: 2, height: 2 };
        let pieces = vec![Piece([0, 1, 2, 0]), Piece([0, 0, 3, 1]), Piece([2, 4, 0, 0]), Piece([3, 0, 0, 4])];
        let clue = Clue { cell: 0, placement: Placement { piece: 0, rotation: Rotation::ALL[0] } };
        let board =
            Board { grid, cells: (0..4).map(|p| Some(Placement { piece: p, rotation: Rotation::ALL[0] })).collect() };
        (Instance { grid, pieces, clues: vec![clue] }, board)
    }

    #[test]
    fn a_solution_passes() {
        let (instance, board) = two_by_two();
        let report = check(&instance, &board);
        assert!(report.is_solution(), "{report}");
        assert_eq!(report.score, 4);
        assert_eq!(report.verdict(), "solution");
    }

    #[test]
    fn each_fault_is_named() {
        let (instance, board) = two_by_two();
        let mut dup = board.clone();
        dup.cells[3] = dup.cells[2];
        let kinds: Vec<_> = check(&instance, &dup).violations.iter().map(Violation::kind).collect();
        assert!(kinds.contains(&"duplicate-piece"), "{kinds:?}");

        let mut turned = board.clone();
        turned.cells[0] = Some(Placement { piece: 0, rotation: Rotation::ALL[1] });
        let kinds: Vec<_> = check(&instance, &turned).violations.iter().map(Violation::kind).collect();
        for k in ["clue-broken", "colour-on-rim", "grey-inside", "mismatch"] {
            assert!(kinds.contains(&k), "{k} missing from {kinds:?}");
        }

        let mut unknown = board.clone();
        unknown.cells[1] = Some(Placement { piece: 9, rotation: Rotation::ALL[0] });
        assert_eq!(check(&instance, &unknown).violations[0].kind(), "unknown-piece");

        let mut partial = board.clone();
        partial.cells[3] = None;
        let report = check(&instance, &partial);
        assert_eq!(report.verdict(), "partial");
        assert_eq!(report.score, 2);

        let wrong_size = Board::empty(Grid { width: 3, height: 2 });
        assert_eq!(check(&instance, &wrong_size).violations[0].kind(), "size");
    }
}
