//! The instance JSON format (`edgematch-instance/1`).
//!
//! ```json
//! {
//!   "format": "edgematch-instance/1",
//!   "name": "planted-6x6-f2i3-s1",
//!   "width": 6,
//!   "height": 6,
//!   "colours": { "frame": 2, "interior": 3 },
//!   "pieces": [
//!     [0, 0, 2, 1],
//!     ...
//!   ],
//!   "clues": [
//!     { "row": 2, "col": 2, "piece": 17, "rotation": 1 }
//!   ]
//! }
//! ```
//! - `pieces`: exactly `width * height` entries, each the colours on N, E, S, W
//!   in the piece's reference orientation (0 = grey rim, at most 255); piece
//!   numbers are 1-based positions in this list.
//! - `clues`: `row` and `col` 0-based from the top-left, `piece` 1-based,
//!   `rotation` 0..=3 clockwise quarter turns.
//! - `name` and `colours` (frame and interior colour counts) are optional and
//!   informational.

use std::fmt::Write as _;
use std::path::Path;

use serde::Deserialize;

use super::{expect_format, field_error, grid_field, parse_json, read_text};
use crate::error::Error;
pub use crate::puzzle::ColourCounts;
use crate::puzzle::{Clue, Instance, Piece, Placement, Rotation};

/// The format tag written in, and expected from, every instance file.
pub const FORMAT: &str = "edgematch-instance/1";

/// An instance with the optional descriptive fields of its file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InstanceFile {
    /// The puzzle.
    pub instance: Instance,
    /// A name for reports.
    pub name: Option<String>,
    /// Colour counts, if known.
    pub colours: Option<ColourCounts>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawInstance {
    format: String,
    #[serde(default)]
    name: Option<String>,
    width: i64,
    height: i64,
    #[serde(default)]
    colours: Option<ColourCounts>,
    pieces: Vec<Vec<i64>>,
    #[serde(default)]
    clues: Vec<RawClue>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawClue {
    row: i64,
    col: i64,
    piece: i64,
    rotation: i64,
}

/// Reads and validates an instance file.
pub fn read(path: &Path) -> Result<InstanceFile, Error> {
    parse(path, &read_text(path)?)
}

/// Parses and validates instance JSON; `path` is only used in messages.
pub fn parse(path: &Path, text: &str) -> Result<InstanceFile, Error> {
    let raw: RawInstance = parse_json(path, text)?;
    expect_format(path, &raw.format, FORMAT)?;
    let grid = grid_field(path, raw.width, raw.height)?;
    if raw.pieces.len() != grid.cells() {
        return Err(field_error(
            path,
            "pieces",
            format!("{} pieces for a {grid} board, which needs {}", raw.pieces.len(), grid.cells()),
        ));
    }
    let mut pieces = Vec::with_capacity(raw.pieces.len());
    for (i, sides) in raw.pieces.iter().enumerate() {
        if sides.len() != 4 {
            return Err(field_error(
                path,
                format!("pieces[{i}]"),
                format!("{} colours, expected 4 (N E S W)", sides.len()),
            ));
        }
        let mut colours = [0u8; 4];
        for (s, &c) in sides.iter().enumerate() {
            colours[s] = u8::try_from(c)
                .map_err(|_| field_error(path, format!("pieces[{i}][{s}]"), format!("colour {c} is not in 0..=255")))?;
        }
        pieces.push(Piece(colours));
    }

    if raw.clues.len() > grid.cells() {
        return Err(field_error(
            path,
            "clues",
            format!("{} clues for a {grid} board, which has {} cells", raw.clues.len(), grid.cells()),
        ));
    }
    let mut clues: Vec<Clue> = Vec::with_capacity(raw.clues.len());
    for (i, c) in raw.clues.iter().enumerate() {
        let field = |name: &str| format!("clues[{i}].{name}");
        if !(0..grid.height as i64).contains(&c.row) {
            return Err(field_error(path, field("row"), format!("{} is not a row of a {grid} board", c.row)));
        }
        if !(0..grid.width as i64).contains(&c.col) {
            return Err(field_error(path, field("col"), format!("{} is not a column of a {grid} board", c.col)));
        }
        if !(1..=pieces.len() as i64).contains(&c.piece) {
            return Err(field_error(
                path,
                field("piece"),
                format!("no piece {} (pieces are 1..={})", c.piece, pieces.len()),
            ));
        }
        let rotation =
            Rotation::try_from(c.rotation).map_err(|e| field_error(path, field("rotation"), e.to_string()))?;
        let cell = grid.cell(c.row as usize, c.col as usize);
        let piece = c.piece as usize - 1;
        if let Some(j) = clues.iter().position(|k| k.cell == cell) {
            return Err(field_error(
                path,
                format!("clues[{i}]"),
                format!("cell ({}, {}) already has clues[{j}]", c.row, c.col),
            ));
        }
        if let Some(j) = clues.iter().position(|k| k.placement.piece == piece) {
            return Err(field_error(
                path,
                format!("clues[{i}]"),
                format!("piece {} is already placed by clues[{j}]", c.piece),
            ));
        }
        clues.push(Clue { cell, placement: Placement { piece, rotation } });
    }
    Ok(InstanceFile { instance: Instance { grid, pieces, clues }, name: raw.name, colours: raw.colours })
}

/// SHA-256 of the instance as [`to_string`] writes it, as 64 lowercase hex
/// digits (what `sha256sum` prints of `convert --to json`): the identity cube
/// files and score checkpoints carry.
pub fn sha256(file: &InstanceFile) -> String {
    use sha2::{Digest as _, Sha256};
    Sha256::digest(to_string(file).as_bytes()).iter().map(|b| format!("{b:02x}")).collect()
}

/// Writes an instance as JSON, one piece per line; the same input always gives
/// the same bytes.
pub fn to_string(file: &InstanceFile) -> String {
    let Instance { grid, pieces, clues } = &file.instance;
    let mut out = String::new();
    let _ = writeln!(out, "{{\n  \"format\": \"{FORMAT}\",");
    if let Some(name) = &file.name {
        let _ = writeln!(out, "  \"name\": {},", serde_json::Value::from(name.as_str()));
    }
    let _ = writeln!(out, "  \"width\": {},\n  \"height\": {},", grid.width, grid.height);
    if let Some(c) = file.colours {
        let _ = writeln!(out, "  \"colours\": {{ \"frame\": {}, \"interior\": {} }},", c.frame, c.interior);
    }
    out.push_str("  \"pieces\": [\n");
    for (i, p) in pieces.iter().enumerate() {
        let [n, e, s, w] = p.0;
        let comma = if i + 1 < pieces.len() { "," } else { "" };
        let _ = writeln!(out, "    [{n}, {e}, {s}, {w}]{comma}");
    }
    out.push_str("  ],\n  \"clues\": [");
    for (i, c) in clues.iter().enumerate() {
        let (row, col) = grid.row_col(c.cell);
        let comma = if i + 1 < clues.len() { "," } else { "" };
        let _ = write!(
            out,
            "\n    {{ \"row\": {row}, \"col\": {col}, \"piece\": {}, \"rotation\": {} }}{comma}",
            c.placement.piece + 1,
            c.placement.rotation.turns()
        );
    }
    out.push_str(if clues.is_empty() { "]\n}\n" } else { "\n  ]\n}\n" });
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_str(text: &str) -> Result<InstanceFile, Error> {
        parse(Path::new("t.json"), text)
    }

    const TWO_BY_ONE: &str = r#"{"format":"edgematch-instance/1","width":2,"height":1,
        "pieces":[[0,5,0,0],[0,0,0,5]],"clues":[{"row":0,"col":1,"piece":2,"rotation":0}]}"#;

    #[test]
    fn round_trip_is_identical() {
        let file = parse_str(TWO_BY_ONE).unwrap();
        assert_eq!(file.instance.clues[0].cell, 1);
        assert_eq!(file.instance.clues[0].placement.piece, 1);
        let text = to_string(&file);
        assert_eq!(parse_str(&text).unwrap(), file);
        assert_eq!(to_string(&parse_str(&text).unwrap()), text);
    }

    #[test]
    fn bad_fields_are_named() {
        let cases = [
            (TWO_BY_ONE.replace("\"width\":2", "\"width\":0"), "`width`"),
            (TWO_BY_ONE.replace("\"width\":2", "\"width\":65"), "`width`"),
            (TWO_BY_ONE.replace("[0,0,0,5]]", "[0,0,0,5],[0,0,0,0]]"), "`pieces`"),
            (TWO_BY_ONE.replace("[0,0,0,5]", "[0,0,0,300]"), "`pieces[1][3]`"),
            (TWO_BY_ONE.replace("[0,0,0,5]", "[0,0,5]"), "`pieces[1]`"),
            (TWO_BY_ONE.replace("\"piece\":2", "\"piece\":3"), "`clues[0].piece`"),
            (TWO_BY_ONE.replace("\"col\":1", "\"col\":2"), "`clues[0].col`"),
            (TWO_BY_ONE.replace("\"rotation\":0", "\"rotation\":4"), "`clues[0].rotation`"),
            (TWO_BY_ONE.replace("}]}", "},{\"row\":0,\"col\":1,\"piece\":1,\"rotation\":0}]}"), "`clues[1]`"),
            (TWO_BY_ONE.replace("instance/1", "board/1"), "`format`"),
        ];
        for (text, field) in cases {
            let message = parse_str(&text).unwrap_err().to_string();
            assert!(message.contains(field), "{message} should name {field}");
            assert!(message.starts_with("t.json: "), "{message}");
        }
        let syntax = parse_str("{\"format\": ").unwrap_err().to_string();
        assert!(syntax.contains("line 1"), "{syntax}");
    }
}
