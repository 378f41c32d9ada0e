//! File formats: readers that return typed errors naming the field, and
//! writers whose output is byte-for-byte deterministic.

pub mod board_json;
pub mod board_text;
pub mod brendan;
pub mod bucas;
pub mod checkpoint;
pub mod clue_list;
pub mod count_progress;
pub mod instance_json;
pub mod load;
pub mod piece_list;

use std::path::Path;

use crate::error::Error;
use crate::puzzle::{Colour, Grid, Instance, Placement, Rotation};

/// Refuses a document whose `format` field is not `expected`.
pub(crate) fn expect_format(path: &Path, found: &str, expected: &str) -> Result<(), Error> {
    if found == expected {
        Ok(())
    } else {
        Err(field_error(path, "format", format!("expected \"{expected}\", found {found:?}")))
    }
}

/// Reads a whole file of at most [`crate::input::MAX_FILE_BYTES`], naming it in the error.
pub fn read_text(path: &Path) -> Result<String, Error> {
    crate::input::read_text(path)
}

/// Parses JSON into `T`, turning serde's position into a [`Error::Syntax`].
pub(crate) fn parse_json<T: serde::de::DeserializeOwned>(path: &Path, text: &str) -> Result<T, Error> {
    serde_json::from_str(text).map_err(|e| Error::Syntax {
        path: path.to_owned(),
        line: e.line(),
        column: e.column(),
        message: e.to_string().split(" at line ").next().unwrap_or_default().to_owned(),
    })
}

/// Shorthand for a field error.
pub(crate) fn field_error(path: &Path, field: impl Into<String>, message: impl Into<String>) -> Error {
    Error::Field { path: path.to_owned(), field: field.into(), message: message.into() }
}

/// One data line of a text format: comments (`#` to the end) removed, split on whitespace.
pub(crate) struct DataLine<'a> {
    path: &'a Path,
    /// 1-based line number.
    pub(crate) line: usize,
    /// The whitespace-separated fields.
    pub(crate) fields: Vec<&'a str>,
}

/// The data lines of a text file, skipping blank and comment-only lines.
pub(crate) fn data_lines<'a>(path: &'a Path, text: &'a str) -> impl Iterator<Item = DataLine<'a>> {
    text.lines().enumerate().filter_map(move |(index, raw)| {
        let fields: Vec<&str> = raw.split('#').next().unwrap_or("").split_whitespace().collect();
        (!fields.is_empty()).then_some(DataLine { path, line: index + 1, fields })
    })
}

impl DataLine<'_> {
    /// An error naming the file and this line.
    pub(crate) fn error(&self, message: impl Into<String>) -> Error {
        Error::Syntax { path: self.path.to_owned(), line: self.line, column: 1, message: message.into() }
    }

    /// Requires exactly `n` fields, described by `what` in the message.
    pub(crate) fn expect_fields(&self, n: usize, what: &str) -> Result<(), Error> {
        if self.fields.len() == n {
            Ok(())
        } else {
            Err(self.error(format!("{} fields, expected {what}", self.fields.len())))
        }
    }

    /// Field `k` as an integer.
    pub(crate) fn number(&self, k: usize) -> Result<i64, Error> {
        self.fields[k].parse().map_err(|_| self.error(format!("{:?} is not a number", self.fields[k])))
    }

    /// Field `k` as a colour.
    pub(crate) fn colour(&self, k: usize) -> Result<Colour, Error> {
        let v = self.number(k)?;
        Colour::try_from(v).map_err(|_| self.error(format!("colour {v} is not in 0..=255")))
    }

    /// Field `k` as a rotation.
    pub(crate) fn rotation(&self, k: usize) -> Result<Rotation, Error> {
        Rotation::try_from(self.number(k)?).map_err(|e| self.error(e.to_string()))
    }

    /// Fields `y` and `x` as a cell of `grid` (row from the top, column from the left).
    pub(crate) fn cell(&self, y: usize, x: usize, grid: Grid) -> Result<usize, Error> {
        let (y, x) = (self.number(y)?, self.number(x)?);
        if (0..grid.height as i64).contains(&y) && (0..grid.width as i64).contains(&x) {
            Ok(grid.cell(y as usize, x as usize))
        } else {
            Err(self.error(format!("cell y={y} x={x} is not on the {grid} board")))
        }
    }

    /// Fields `piece` (1-based) and `rot` as a placement, checked against the
    /// four colours from field `nesw` on that it claims to show.
    pub(crate) fn shown_placement(
        &self,
        instance: &Instance,
        piece: usize,
        rot: usize,
        nesw: usize,
    ) -> Result<Placement, Error> {
        let number = self.number(piece)?;
        if !(1..=instance.pieces.len() as i64).contains(&number) {
            return Err(self.error(format!("no piece {number} (pieces are 1..={})", instance.pieces.len())));
        }
        let placement = Placement { piece: number as usize - 1, rotation: self.rotation(rot)? };
        let claimed = [self.colour(nesw)?, self.colour(nesw + 1)?, self.colour(nesw + 2)?, self.colour(nesw + 3)?];
        let actual = instance.pieces[placement.piece].rotated(placement.rotation);
        if actual != claimed {
            return Err(self.error(format!(
                "piece {number} at rot {} shows N E S W = {actual:?}, the line says {claimed:?}: \
                 is the piece list read with the right column order?",
                placement.rotation.turns()
            )));
        }
        Ok(placement)
    }
}

/// A board read from `path` must have the instance's size.
pub(crate) fn same_size(path: &Path, board: Grid, instance: &Instance) -> Result<(), Error> {
    if board == instance.grid {
        Ok(())
    } else {
        Err(Error::Mismatch(format!("{}: the board is {board} but the instance is {}", path.display(), instance.grid)))
    }
}

/// The board size of a file's `width` and `height` fields (see [`Grid::new`]).
pub(crate) fn grid_field(path: &Path, width: i64, height: i64) -> Result<Grid, Error> {
    Grid::new(width, height).map_err(|e| field_error(path, e.axis, e.to_string()))
}
