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

use super::{data_lines, read_text};
use crate::error::Error;
use crate::puzzle::{Clue, Instance};

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
    let mut clues: Vec<NamedClue> = Vec::new();
    for line in data_lines(path, text) {
        if clues.len() == instance.grid.cells() {
            return Err(line.error(format!("more clues than the {} cells of the board", instance.grid.cells())));
        }
        line.expect_fields(11, "name piece cell y x rot rot_nesw N E S W")?;
        let cell = line.cell(3, 4, instance.grid)?;
        let placement = line.shown_placement(instance, 1, 5, 7)?;
        if clues.iter().any(|c| c.clue.cell == cell) {
            return Err(line.error("a second clue on the same cell"));
        }
        clues.push(NamedClue { name: line.fields[0].to_owned(), clue: Clue { cell, placement } });
    }
    Ok(clues)
}
