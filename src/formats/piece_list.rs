//! Piece lists as text: one piece per line, four colours in a declared column order.
//!
//! ```text
//! # comments start with '#', anywhere on a line
//! 4 4          <- optional first line: width height
//! 0 0 1 1      <- piece 1
//! 0 0 1 2      <- piece 2
//! ```
//! Pieces are numbered from 1 in the order given. The column order names the
//! side each column shows in the piece's reference orientation, as four
//! letters: `nesw` (north east south west, also written `urdl`: up right down
//! left) is the default; `bltr` (bottom left top right) is the order of the
//! official Eternity II list, whose reference orientation is N = top, E =
//! right, S = bottom, W = left. Any order of the four sides can be declared;
//! the letters n/u/t, e/r, s/d/b and w/l name the same sides.
//!
//! The board size comes from the optional `W H` line, else from the caller,
//! else a square board is assumed when the piece count is a square.

use std::path::Path;
use std::str::FromStr;

use super::{data_lines, field_error, read_text};
use crate::error::Error;
use crate::puzzle::{Grid, Instance, MAX_SIDE, Piece};

/// Which side of the reference orientation each of the four columns shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Columns([usize; 4]);

impl Columns {
    /// North, east, south, west.
    pub const NESW: Columns = Columns([0, 1, 2, 3]);
    /// Bottom, left, top, right: the official Eternity II list.
    pub const BLTR: Columns = Columns([2, 3, 0, 1]);

    /// Reorders one line's four colours into N, E, S, W.
    pub fn piece(self, colours: [u8; 4]) -> Piece {
        let mut sides = [0; 4];
        for (column, &side) in self.0.iter().enumerate() {
            sides[side] = colours[column];
        }
        Piece(sides)
    }

    /// Guesses the column order from a file's comment header, for the
    /// conventions found in published lists; `None` if the header says nothing
    /// recognizable.
    pub fn from_header(text: &str) -> Option<Columns> {
        let header: String =
            text.lines().take_while(|l| l.trim_start().starts_with('#')).collect::<Vec<_>>().join(" ").to_lowercase();
        let header = header.replace(['(', ')', ',', ':', '='], " ");
        let words: Vec<&str> = header.split_whitespace().collect();
        let phrase = |p: &[&str]| words.windows(p.len()).any(|w| w == p);
        if phrase(&["bottom", "left", "top", "right"]) {
            Some(Columns::BLTR)
        } else if phrase(&["up", "right", "down", "left"]) || phrase(&["n", "e", "s", "w"]) {
            Some(Columns::NESW)
        } else {
            None
        }
    }
}

impl std::fmt::Display for Columns {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.iter().try_for_each(|&side| f.write_str(["n", "e", "s", "w"][side]))
    }
}

impl FromStr for Columns {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        let letters: Vec<char> = s.trim().to_lowercase().chars().collect();
        if letters.len() != 4 {
            return Err(format!("{s:?}: a column order is four letters such as nesw or bltr"));
        }
        let mut order = [0; 4];
        for (column, c) in letters.iter().enumerate() {
            order[column] = match c {
                'n' | 'u' | 't' => 0,
                'e' | 'r' => 1,
                's' | 'd' | 'b' => 2,
                'w' | 'l' => 3,
                _ => return Err(format!("{s:?}: {c:?} is not a side (n/u/t, e/r, s/d/b, w/l)")),
            };
        }
        let mut seen = order;
        seen.sort_unstable();
        if seen != [0, 1, 2, 3] {
            return Err(format!("{s:?}: each of the four sides must appear once"));
        }
        Ok(Columns(order))
    }
}

/// Reads a piece list; `size` is used when the file has no `W H` line.
pub fn read(path: &Path, columns: Columns, size: Option<Grid>) -> Result<Instance, Error> {
    parse(path, &read_text(path)?, columns, size)
}

/// Parses a piece list; `path` is only used in messages.
pub fn parse(path: &Path, text: &str, columns: Columns, size: Option<Grid>) -> Result<Instance, Error> {
    let mut declared: Option<Grid> = None;
    let mut pieces = Vec::new();
    for line in data_lines(path, text) {
        if line.fields.len() == 2 && pieces.is_empty() && declared.is_none() {
            declared = Some(Grid::new(line.number(0)?, line.number(1)?).map_err(|e| line.error(e.to_string()))?);
            continue;
        }
        line.expect_fields(4, "4 colours")?;
        if pieces.len() == crate::input::MAX_CELLS {
            return Err(line.error(format!(
                "more than {} pieces, the most a board of at most {MAX_SIDE}×{MAX_SIDE} holds",
                crate::input::MAX_CELLS
            )));
        }
        pieces.push(columns.piece([line.colour(0)?, line.colour(1)?, line.colour(2)?, line.colour(3)?]));
    }
    let grid = match declared.or(size) {
        Some(grid) => grid,
        None => {
            let side = (pieces.len() as f64).sqrt().round() as usize;
            if side * side != pieces.len() || side == 0 {
                return Err(field_error(
                    path,
                    "size",
                    format!("{} pieces and no `W H` line: give the board's width and height", pieces.len()),
                ));
            }
            Grid { width: side, height: side }
        }
    };
    if pieces.len() != grid.cells() {
        return Err(field_error(
            path,
            "pieces",
            format!("{} pieces for a {grid} board, which needs {}", pieces.len(), grid.cells()),
        ));
    }
    Ok(Instance { grid, pieces, clues: Vec::new() })
}

/// Writes an instance's pieces as a `nesw` piece list with a `W H` line (clues are not part of this format).
pub fn to_string(instance: &Instance) -> String {
    let mut out = format!(
        "# {} pieces; columns: n e s w (north east south west); 0 = grey rim; piece k = k-th data line\n{} {}\n",
        instance.pieces.len(),
        instance.grid.width,
        instance.grid.height
    );
    for p in &instance.pieces {
        let [n, e, s, w] = p.0;
        out.push_str(&format!("{n} {e} {s} {w}\n"));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn column_orders_map_to_nesw() {
        assert_eq!(Columns::NESW.piece([1, 2, 3, 4]), Piece([1, 2, 3, 4]));
        // bottom left top right: N = top, E = right, S = bottom, W = left.
        assert_eq!(Columns::BLTR.piece([1, 2, 3, 4]), Piece([3, 4, 1, 2]));
        assert_eq!("bltr".parse::<Columns>().unwrap(), Columns::BLTR);
        assert_eq!("URDL".parse::<Columns>().unwrap(), Columns::NESW);
        assert!("nnsw".parse::<Columns>().is_err());
        assert!("nes".parse::<Columns>().is_err());
    }

    #[test]
    fn headers_name_their_order() {
        assert_eq!(
            Columns::from_header("# COLUMN ORDER: c1 c2 c3 c4 = BOTTOM LEFT TOP RIGHT\n1 2 3 4"),
            Some(Columns::BLTR)
        );
        assert_eq!(Columns::from_header("# columns: up right down left (N E S W)\n"), Some(Columns::NESW));
        assert_eq!(Columns::from_header("1 2 3 4\n"), None);
    }

    #[test]
    fn sizes_comments_and_errors() {
        let p = Path::new("p.txt");
        let text = "# two by one\n2 1\n0 5 0 0 # first\n\n0 0 0 5\n";
        let instance = parse(p, text, Columns::NESW, None).unwrap();
        assert_eq!(instance.grid, Grid { width: 2, height: 1 });
        assert_eq!(instance.pieces[1], Piece([0, 0, 0, 5]));
        let square = parse(p, "1 2 3 4\n5 6 7 8\n1 1 1 1\n2 2 2 2\n", Columns::NESW, None).unwrap();
        assert_eq!(square.grid, Grid { width: 2, height: 2 });
        let bad = parse(p, "0 1 2\n", Columns::NESW, None).unwrap_err().to_string();
        assert!(bad.contains("line 1") && bad.contains("3 fields"), "{bad}");
        let bad = parse(p, "2 1\n0 5 0 0\n0 0 x 5\n", Columns::NESW, None).unwrap_err().to_string();
        assert!(bad.contains("line 3"), "{bad}");
        let bad = parse(p, "1 2 3 4\n1 2 3 4\n", Columns::NESW, None).unwrap_err().to_string();
        assert!(bad.contains("width and height"), "{bad}");
    }
}
