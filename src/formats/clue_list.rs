//! Clue lists as text (the format of the official `clues.txt`).
//!
//! One clue per line: `name piece cell y x rot rot_nesw N E S W`, where
//! `piece` is 1-based, `y` the row from the top and `x` the column from the
//! left (0-based), `rot` the clockwise quarter turns of the piece's reference
//! orientation (as read with its list's column order), and `N E S W` the
//! colours the placed piece shows: every clue is checked against them, so a
//! piece list read with the wrong column order is caught here. `#` starts a
//! comment; `cell` and `rot_nesw` are informational.

use std::path::Path;

use super::read_text;
use crate::error::Error;
use crate::puzzle::{Clue, Instance, Placement, Rotation};

/// A clue and the name the file gives it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NamedClue {
    /// The name in the file (e.g. `starter`).
    pub name: String,
    /// The clue.
    pub clue: Clue,
}

/// Reads a clue list for `instance`.
pub fn read(path: &Path, instance: &Instance) -> Result<Vec<NamedClue>, Error> {
    parse(path, &read_text(path)?, instance)
}

/// Parses a clue list for `instance`; `path` is only used in messages.
pub fn parse(path: &Path, text: &str, instance: &Instance) -> Result<Vec<NamedClue>, Error> {
    let grid = instance.grid;
    let mut clues = Vec::new();
    for (index, raw) in text.lines().enumerate() {
        let line = index + 1;
        let data = raw.split('#').next().unwrap_or("").trim();
        if data.is_empty() {
            continue;
        }
        let err = |message: String| Error::Syntax { path: path.to_owned(), line, column: 1, message };
        let fields: Vec<&str> = data.split_whitespace().collect();
        if fields.len() != 11 {
            return Err(err(format!("{} fields, expected: name piece cell y x rot rot_nesw N E S W", fields.len())));
        }
        let num = |k: usize| fields[k].parse::<i64>().map_err(|_| err(format!("{:?} is not a number", fields[k])));
        let (piece, y, x, rot) = (num(1)?, num(3)?, num(4)?, num(5)?);
        if !(1..=instance.pieces.len() as i64).contains(&piece) {
            return Err(err(format!("no piece {piece} (pieces are 1..={})", instance.pieces.len())));
        }
        if !(0..grid.height as i64).contains(&y) || !(0..grid.width as i64).contains(&x) {
            return Err(err(format!("cell y={y} x={x} is not on the {grid} board")));
        }
        let rotation =
            u8::try_from(rot).ok().and_then(Rotation::new).ok_or_else(|| err(format!("rot {rot} is not in 0..=3")))?;
        let placement = Placement { piece: piece as usize - 1, rotation };
        let mut shown = [0u8; 4];
        for (k, s) in shown.iter_mut().enumerate() {
            *s = u8::try_from(num(7 + k)?).map_err(|_| err(format!("colour {:?} is not in 0..=255", fields[7 + k])))?;
        }
        let actual = instance.pieces[placement.piece].rotated(rotation);
        if actual != shown {
            return Err(err(format!(
                "piece {piece} at rot {rot} shows N E S W = {actual:?}, but the clue says {shown:?}: \
                 is the piece list read with the right column order?"
            )));
        }
        let cell = grid.cell(y as usize, x as usize);
        if clues.iter().any(|c: &NamedClue| c.clue.cell == cell) {
            return Err(err(format!("a second clue on cell y={y} x={x}")));
        }
        clues.push(NamedClue { name: fields[0].to_owned(), clue: Clue { cell, placement } });
    }
    Ok(clues)
}
