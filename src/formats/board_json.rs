//! The board JSON format (`edgematch-board/1`).
//!
//! ```json
//! {
//!   "format": "edgematch-board/1",
//!   "width": 3,
//!   "height": 2,
//!   "cells": [
//!     [[4, 1], [2, 0], null],
//!     [[1, 3], [6, 2], [5, 0]]
//!   ]
//! }
//! ```
//! `cells` holds one list per row, top row first; each cell is
//! `[piece, rotation]` (piece 1-based, rotation 0..=3 clockwise quarter turns)
//! or `null` for an empty cell. An optional `"link"` holds the board's
//! e2.bucas.name link (written beside the boards a score run saves); readers
//! keep only the cells.

use std::fmt::Write as _;
use std::path::Path;

use serde::Deserialize;

use super::{expect_format, field_error, grid_field, parse_json, read_text};
use crate::error::Error;
use crate::puzzle::{Board, Placement, Rotation};

/// The format tag written in, and expected from, every board file.
pub const FORMAT: &str = "edgematch-board/1";

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawBoard {
    format: String,
    width: i64,
    height: i64,
    cells: Vec<Vec<Option<Vec<i64>>>>,
    /// The board's viewer link, for people and other tools; not read back.
    #[serde(default, rename = "link")]
    _link: Option<String>,
}

/// Reads a board file. Piece numbers are checked against the instance by the
/// checker, not here: a board names pieces, it does not own them.
pub fn read(path: &Path) -> Result<Board, Error> {
    parse(path, &read_text(path)?)
}

/// Parses board JSON; `path` is only used in messages.
pub fn parse(path: &Path, text: &str) -> Result<Board, Error> {
    let raw: RawBoard = parse_json(path, text)?;
    expect_format(path, &raw.format, FORMAT)?;
    let grid = grid_field(path, raw.width, raw.height)?;
    if raw.cells.len() != grid.height {
        return Err(field_error(path, "cells", format!("{} rows, expected {}", raw.cells.len(), grid.height)));
    }
    let mut cells = Vec::with_capacity(grid.cells());
    for (r, row) in raw.cells.iter().enumerate() {
        if row.len() != grid.width {
            return Err(field_error(
                path,
                format!("cells[{r}]"),
                format!("{} cells, expected {}", row.len(), grid.width),
            ));
        }
        for (c, cell) in row.iter().enumerate() {
            let field = format!("cells[{r}][{c}]");
            cells.push(match cell {
                None => None,
                Some(pair) => {
                    let [piece, rotation] = pair[..] else {
                        return Err(field_error(path, field, "expected [piece, rotation] or null"));
                    };
                    if piece < 1 || piece > i64::from(u32::MAX) {
                        return Err(field_error(path, field, format!("piece {piece} is not a piece number (1-based)")));
                    }
                    let rotation =
                        Rotation::try_from(rotation).map_err(|e| field_error(path, &field, e.to_string()))?;
                    Some(Placement { piece: piece as usize - 1, rotation })
                }
            });
        }
    }
    Ok(Board { grid, cells })
}

/// Writes a board as JSON, one row per line.
pub fn to_string(board: &Board) -> String {
    to_string_with_link(board, None)
}

/// Writes a board as JSON, one row per line, with its viewer `link` if given.
pub fn to_string_with_link(board: &Board, link: Option<&str>) -> String {
    let grid = board.grid;
    let mut out = String::new();
    let _ = writeln!(out, "{{\n  \"format\": \"{FORMAT}\",");
    let _ = writeln!(out, "  \"width\": {},\n  \"height\": {},", grid.width, grid.height);
    if let Some(link) = link {
        let _ = writeln!(out, "  \"link\": {},", serde_json::Value::from(link));
    }
    out.push_str("  \"cells\": [\n");
    for (r, row) in board.cells.chunks(grid.width).enumerate() {
        let cells: Vec<String> = row
            .iter()
            .map(|c| match c {
                Some(p) => format!("[{}, {}]", p.piece + 1, p.rotation.turns()),
                None => "null".to_owned(),
            })
            .collect();
        let comma = if r + 1 < grid.height { "," } else { "" };
        let _ = writeln!(out, "    [{}]{comma}", cells.join(", "));
    }
    out.push_str("  ]\n}\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const BOARD: &str = r#"{"format":"edgematch-board/1","width":3,"height":2,
        "cells":[[[4,1],[2,0],null],[[1,3],[6,2],[5,0]]]}"#;

    #[test]
    fn round_trip_is_identical() {
        let board = parse(Path::new("b.json"), BOARD).unwrap();
        assert_eq!(board.placed(), 5);
        assert_eq!(board.cells[0], Some(Placement { piece: 3, rotation: Rotation::ALL[1] }));
        let text = to_string(&board);
        assert_eq!(parse(Path::new("b.json"), &text).unwrap(), board);
        let linked = to_string_with_link(&board, Some("https://example.org/#a&b=\"c\""));
        assert_eq!(parse(Path::new("b.json"), &linked).unwrap(), board, "the link is not read back");
    }

    #[test]
    fn bad_cells_are_named() {
        let cases = [
            (BOARD.replace("[4,1]", "[4,7]"), "`cells[0][0]`"),
            (BOARD.replace("[4,1]", "[0,1]"), "`cells[0][0]`"),
            (BOARD.replace("[4,1]", "[4]"), "`cells[0][0]`"),
            (BOARD.replace(",null]", "]"), "`cells[0]`"),
            (BOARD.replace("\"height\":2", "\"height\":3"), "`cells`"),
        ];
        for (text, field) in cases {
            let message = parse(Path::new("b.json"), &text).unwrap_err().to_string();
            assert!(message.contains(field), "{message} should name {field}");
        }
    }
}
