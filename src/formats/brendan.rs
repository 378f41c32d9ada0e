//! Brendan Owen's benchmark solutions: one line per piece, `x y rot`, y counted from the bottom.
//!
//! ```text
//! # comments start with '#'
//! 3 3        <- width height
//! 0 2 1      <- piece 1: column 0 from the left, row 2 from the BOTTOM, turned once clockwise
//! ```
//! Line i after the size holds piece i (1-based, in the order of the puzzle's
//! piece list); `rot` turns the piece's listed N E S W clockwise. The puzzles
//! themselves are piece lists (see [`super::piece_list`]) with columns `nesw`.

use std::path::Path;

use super::{data_lines, field_error, read_text, same_size};
use crate::error::Error;
use crate::puzzle::{Board, Grid, Instance, Placement};

/// True if `text` looks like a solution file: a `W H` line, then lines of three numbers.
pub fn sniff(text: &str) -> bool {
    let mut lines = data_lines(Path::new(""), text);
    let mut fields = || lines.next().map_or(0, |l| l.fields.len());
    fields() == 2 && fields() == 3
}

/// Writes a full board as a solution file (`None` if a cell is empty or a
/// piece is missing: the format has one line per piece).
pub fn to_string(board: &Board) -> Option<String> {
    let grid = board.grid;
    let mut at = vec![None; board.cells.len()];
    for (cell, p) in board.cells.iter().enumerate() {
        let p = (*p)?;
        let (row, col) = grid.row_col(cell);
        *at.get_mut(p.piece)? = Some((col, grid.height - 1 - row, p.rotation.turns()));
    }
    let mut out =
        format!("# line i = piece i: x (from the left) y (from the BOTTOM) rot\n{} {}\n", grid.width, grid.height);
    for entry in at {
        let (x, y, r) = entry?;
        out.push_str(&format!("{x} {y} {r}\n"));
    }
    Some(out)
}

/// Reads a solution for `instance`.
pub fn read(path: &Path, instance: &Instance) -> Result<Board, Error> {
    parse(path, &read_text(path)?, instance)
}

/// Parses a solution for `instance`; `path` is only used in messages.
pub fn parse(path: &Path, text: &str, instance: &Instance) -> Result<Board, Error> {
    let mut lines = data_lines(path, text);
    let size = lines.next().ok_or_else(|| field_error(path, "size", "no `W H` line"))?;
    size.expect_fields(2, "the board size `W H` first")?;
    let grid = Grid::new(size.number(0)?, size.number(1)?).map_err(|e| size.error(e.to_string()))?;
    same_size(path, grid, instance)?;
    let mut board = Board::empty(grid);
    for (piece, line) in lines.enumerate() {
        line.expect_fields(3, "`x y rot`")?;
        if piece == instance.pieces.len() {
            return Err(line.error(format!("more lines than the {} pieces", instance.pieces.len())));
        }
        let (x, y) = (line.number(0)?, line.number(1)?);
        if !(0..grid.width as i64).contains(&x) || !(0..grid.height as i64).contains(&y) {
            return Err(line.error(format!("x={x} y={y} is not on the {grid} board")));
        }
        let cell = grid.cell(grid.height - 1 - y as usize, x as usize);
        if board.cells[cell].is_some() {
            return Err(line.error(format!("x={x} y={y} already holds a piece")));
        }
        board.cells[cell] = Some(Placement { piece, rotation: line.rotation(2)? });
    }
    Ok(board)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::Piece;

    #[test]
    fn y_counts_from_the_bottom() {
        let instance = Instance {
            grid: Grid { width: 1, height: 2 },
            pieces: vec![Piece([0, 0, 5, 0]), Piece([5, 0, 0, 0])],
            clues: vec![],
        };
        let board = parse(Path::new("s"), "1 2\n0 1 0\n0 0 0\n", &instance).unwrap();
        assert_eq!(board.cells[0].unwrap().piece, 0);
        assert_eq!(board.cells[1].unwrap().piece, 1);
        assert_eq!(board.score(&instance), 1);
        assert!(sniff("# c\n1 2\n0 1 0\n"));
        assert!(parse(Path::new("s"), "2 2\n0 1 0\n", &instance).is_err());
        let e = parse(Path::new("s"), "1 2\n0 1 0\n0 1 0\n", &instance).unwrap_err().to_string();
        assert!(e.contains("line 3"), "{e}");
    }
}
