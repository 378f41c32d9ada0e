//! Decoded boards as text (the `.txt` boards of the published Eternity II records).
//!
//! One cell per line: `cell y x piece rot N E S W`, where `cell` is a name
//! such as `A1` (informational), `y` the row from the top and `x` the column
//! from the left (0-based), `piece` 1-based (`0` with `rot` `-1` or `0` for an
//! empty cell), `rot` clockwise quarter turns of the piece's reference
//! orientation, and `N E S W` the colours shown, checked against the instance.
//! `#` starts a comment. The board's size is the instance's.

use std::path::Path;

use super::{data_lines, read_text};
use crate::error::Error;
use crate::puzzle::{Board, Instance};

/// True if `text` looks like this format: a first data line of nine fields
/// starting with a cell name.
pub fn sniff(text: &str) -> bool {
    data_lines(Path::new(""), text)
        .next()
        .is_some_and(|l| l.fields.len() == 9 && l.fields[0].starts_with(|c: char| c.is_ascii_alphabetic()))
}

/// Writes a board as decoded lines, one per cell (empty cells as piece 0, rot -1).
///
/// # Panics
/// On a cell naming a piece the instance does not have (see [`Board::unknown_piece`]).
pub fn to_string(board: &Board, instance: &Instance) -> String {
    let grid = board.grid;
    let mut out = String::from("# columns: cell(row letter A=top, col 1=left) y x piece rot N E S W\n");
    for (cell, placement) in board.cells.iter().enumerate() {
        let (y, x) = grid.row_col(cell);
        let name = super::bucas::cell_name(grid, cell).replace(' ', "_");
        match placement {
            Some(p) => {
                let [n, e, s, w] = instance.pieces[p.piece].rotated(p.rotation);
                out.push_str(&format!("{name} {y} {x} {} {} {n} {e} {s} {w}\n", p.piece + 1, p.rotation.turns()));
            }
            None => out.push_str(&format!("{name} {y} {x} 0 -1 0 0 0 0\n")),
        }
    }
    out
}

/// Reads a decoded board for `instance`.
pub fn read(path: &Path, instance: &Instance) -> Result<Board, Error> {
    parse(path, &read_text(path)?, instance)
}

/// Parses a decoded board for `instance`; `path` is only used in messages.
pub fn parse(path: &Path, text: &str, instance: &Instance) -> Result<Board, Error> {
    let grid = instance.grid;
    let mut board = Board::empty(grid);
    let mut seen = vec![false; grid.cells()];
    for line in data_lines(path, text) {
        line.expect_fields(9, "cell y x piece rot N E S W")?;
        let cell = line.cell(1, 2, grid)?;
        if std::mem::replace(&mut seen[cell], true) {
            return Err(line.error(format!("cell {} appears twice", line.fields[0])));
        }
        if line.number(3)? != 0 {
            board.cells[cell] = Some(line.shown_placement(instance, 3, 4, 5)?);
        }
    }
    Ok(board)
}
