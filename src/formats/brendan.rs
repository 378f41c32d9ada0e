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

use super::{field_error, read_text};
use crate::error::Error;
use crate::puzzle::{Board, Grid, Instance, Placement, Rotation};

/// True if `text` looks like a solution file: a `W H` line, then lines of three numbers.
pub fn sniff(text: &str) -> bool {
    let mut lines = text.lines().map(|l| l.split('#').next().unwrap_or("").trim()).filter(|l| !l.is_empty());
    let fields = |l: Option<&str>| l.map_or(0, |l| l.split_whitespace().count());
    fields(lines.next()) == 2 && fields(lines.next()) == 3
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
    let mut grid: Option<Grid> = None;
    let mut board = Board::empty(instance.grid);
    let mut piece = 0;
    for (index, raw) in text.lines().enumerate() {
        let line = index + 1;
        let data = raw.split('#').next().unwrap_or("").trim();
        if data.is_empty() {
            continue;
        }
        let err = |message: String| Error::Syntax { path: path.to_owned(), line, column: 1, message };
        let numbers: Vec<i64> = data
            .split_whitespace()
            .map(|f| f.parse::<i64>().map_err(|_| err(format!("{f:?} is not a number"))))
            .collect::<Result<_, _>>()?;
        let Some(g) = grid else {
            if numbers.len() != 2 {
                return Err(err("expected the board size `W H` first".to_owned()));
            }
            let g = Grid { width: numbers[0].max(0) as usize, height: numbers[1].max(0) as usize };
            if g != instance.grid {
                return Err(Error::Mismatch(format!(
                    "{}: the solution is for a {g} board but the instance is {}",
                    path.display(),
                    instance.grid
                )));
            }
            grid = Some(g);
            continue;
        };
        if numbers.len() != 3 {
            return Err(err(format!("{} fields, expected `x y rot`", numbers.len())));
        }
        if piece == instance.pieces.len() {
            return Err(err(format!("more lines than the {} pieces", instance.pieces.len())));
        }
        let (x, y, rot) = (numbers[0], numbers[1], numbers[2]);
        if !(0..g.width as i64).contains(&x) || !(0..g.height as i64).contains(&y) {
            return Err(err(format!("x={x} y={y} is not on the {g} board")));
        }
        let rotation =
            u8::try_from(rot).ok().and_then(Rotation::new).ok_or_else(|| err(format!("rot {rot} is not in 0..=3")))?;
        let cell = g.cell(g.height - 1 - y as usize, x as usize);
        if board.cells[cell].is_some() {
            return Err(err(format!("x={x} y={y} already holds a piece")));
        }
        board.cells[cell] = Some(Placement { piece, rotation });
        piece += 1;
    }
    if grid.is_none() {
        return Err(field_error(path, "size", "no `W H` line"));
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
