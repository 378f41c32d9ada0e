//! Decoded boards as text (the `.txt` boards of the published Eternity II records).
//!
//! One cell per line: `cell y x piece rot N E S W`, where `cell` is a name
//! such as `A1` (informational), `y` the row from the top and `x` the column
//! from the left (0-based), `piece` 1-based (`0` with `rot` `-1` or `0` for an
//! empty cell), `rot` clockwise quarter turns of the piece's reference
//! orientation, and `N E S W` the colours shown, checked against the instance.
//! `#` starts a comment. The board's size is the instance's.

use std::path::Path;

use super::read_text;
use crate::error::Error;
use crate::puzzle::{Board, Instance, Placement, Rotation};

/// True if `text` looks like this format: a first data line of nine fields
/// starting with a cell name.
pub fn sniff(text: &str) -> bool {
    first_data_line(text).is_some_and(|l| {
        let f: Vec<&str> = l.split_whitespace().collect();
        f.len() == 9 && f[0].chars().next().is_some_and(|c| c.is_ascii_alphabetic())
    })
}

fn first_data_line(text: &str) -> Option<&str> {
    text.lines().map(|l| l.split('#').next().unwrap_or("").trim()).find(|l| !l.is_empty())
}

/// Writes a board as decoded lines, one per cell (empty cells as piece 0, rot -1).
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
    for (index, raw) in text.lines().enumerate() {
        let line = index + 1;
        let data = raw.split('#').next().unwrap_or("").trim();
        if data.is_empty() {
            continue;
        }
        let err = |message: String| Error::Syntax { path: path.to_owned(), line, column: 1, message };
        let fields: Vec<&str> = data.split_whitespace().collect();
        if fields.len() != 9 {
            return Err(err(format!("{} fields, expected: cell y x piece rot N E S W", fields.len())));
        }
        let num = |k: usize| fields[k].parse::<i64>().map_err(|_| err(format!("{:?} is not a number", fields[k])));
        let (y, x, piece, rot) = (num(1)?, num(2)?, num(3)?, num(4)?);
        if !(0..grid.height as i64).contains(&y) || !(0..grid.width as i64).contains(&x) {
            return Err(err(format!("cell y={y} x={x} is not on the {grid} board")));
        }
        let cell = grid.cell(y as usize, x as usize);
        if std::mem::replace(&mut seen[cell], true) {
            return Err(err(format!("cell {} (y={y} x={x}) appears twice", fields[0])));
        }
        if piece == 0 {
            continue;
        }
        if !(1..=instance.pieces.len() as i64).contains(&piece) {
            return Err(err(format!("no piece {piece} (pieces are 1..={})", instance.pieces.len())));
        }
        let rotation =
            u8::try_from(rot).ok().and_then(Rotation::new).ok_or_else(|| err(format!("rot {rot} is not in 0..=3")))?;
        let placement = Placement { piece: piece as usize - 1, rotation };
        let mut shown = [0u8; 4];
        for (k, s) in shown.iter_mut().enumerate() {
            *s = u8::try_from(num(5 + k)?).map_err(|_| err(format!("colour {:?} is not in 0..=255", fields[5 + k])))?;
        }
        let actual = instance.pieces[placement.piece].rotated(rotation);
        if actual != shown {
            return Err(err(format!(
                "cell {}: piece {piece} at rot {rot} shows N E S W = {actual:?}, the line says {shown:?}",
                fields[0]
            )));
        }
        board.cells[cell] = Some(placement);
    }
    Ok(board)
}
