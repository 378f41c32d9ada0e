//! e2.bucas.name board links, read and written.
//!
//! A link carries `board_w`, `board_h` and `board_edges`: four letters per
//! cell, top row first, in the order up, right, down, left (N E S W), each the
//! colour shown (`a` = 0 grey … `w` = 22), `aaaa` for an empty cell. Optional:
//! `board_pieces` (three digits per cell, the 1-based piece number, `000` for
//! none), `motifs_order` (the letter-to-colour table: default, `jef`, or
//! `jblackwood`/`marie`) and `puzzle` (a name). Parameters may follow `?` or
//! `#`. Without `board_pieces`, each cell's piece is found by matching its
//! four colours, in any rotation, against the unused pieces of the instance.
//!
//! A file may hold comment lines (`#` first) and several links: the first
//! line that has `board_edges=` is read.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::Path;

use super::{field_error, read_text, same_size};
use crate::error::Error;
use crate::puzzle::{Board, Colour, GREY, Grid, Instance, Piece, Placement, Rotation};

/// The viewer's address; links written here open our boards there.
pub const VIEWER: &str = "https://e2.bucas.name/";

/// Letter → default colour number for `motifs_order=jef` (a, b, …, w).
const JEF: [Colour; 23] = [0, 19, 14, 9, 4, 16, 11, 6, 1, 20, 15, 10, 5, 17, 12, 7, 2, 22, 21, 18, 13, 8, 3];
/// Letter → default colour number for `motifs_order=jblackwood` (or `marie`).
const JBLACKWOOD: [Colour; 23] = [0, 1, 6, 11, 16, 4, 9, 14, 19, 2, 7, 12, 17, 5, 10, 15, 20, 3, 8, 13, 18, 21, 22];

/// A parsed link, colours already in the default numbering.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Link {
    /// The `puzzle` parameter.
    pub name: Option<String>,
    /// Board geometry.
    pub grid: Grid,
    /// Colours shown on N, E, S, W per cell, row-major.
    pub edges: Vec<[Colour; 4]>,
    /// 1-based piece numbers per cell (0 = none), when the link has them.
    pub pieces: Option<Vec<usize>>,
}

/// True if `text` holds a bucas link.
pub fn sniff(text: &str) -> bool {
    text.contains("board_edges=")
}

/// Reads the first link of a file.
pub fn read(path: &Path) -> Result<Link, Error> {
    first_link(path, &read_text(path)?)
}

/// The first link of a text (a file's content, or a link itself); `path` is only used in messages.
pub fn first_link(path: &Path, text: &str) -> Result<Link, Error> {
    let line = text
        .lines()
        .find(|l| !l.trim_start().starts_with('#') && l.contains("board_edges="))
        .ok_or_else(|| field_error(path, "board_edges", "no line with a board_edges parameter"))?;
    parse(path, line.trim())
}

/// Parses one link; `path` is only used in messages.
pub fn parse(path: &Path, link: &str) -> Result<Link, Error> {
    let query = link.split_once(['?', '#']).map_or(link, |(_, q)| q);
    let mut params: HashMap<&str, &str> = HashMap::new();
    for pair in query.split(['&', '#', '?']).filter(|p| !p.is_empty()) {
        let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
        let _ = params.insert(key, value);
    }
    let get = |key: &str| params.get(key).copied().ok_or_else(|| field_error(path, key, "missing"));
    let number = |key: &str| -> Result<i64, Error> {
        let value = get(key)?;
        value.parse().map_err(|_| field_error(path, key, format!("{value:?} is not a number")))
    };
    let grid = Grid::new(number("board_w")?, number("board_h")?)
        .map_err(|e| field_error(path, if e.axis == "width" { "board_w" } else { "board_h" }, e.to_string()))?;
    let table: Option<&[Colour; 23]> = match params.get("motifs_order").copied().unwrap_or("") {
        "" | "default" => None,
        "jef" => Some(&JEF),
        "jblackwood" | "marie" => Some(&JBLACKWOOD),
        other => {
            return Err(field_error(
                path,
                "motifs_order",
                format!("{other:?} is not default, jef, jblackwood or marie"),
            ));
        }
    };
    let letters = get("board_edges")?.as_bytes();
    if letters.len() != 4 * grid.cells() {
        return Err(field_error(
            path,
            "board_edges",
            format!("{} letters, expected {} (4 per cell of a {grid} board)", letters.len(), 4 * grid.cells()),
        ));
    }
    let mut edges = Vec::with_capacity(grid.cells());
    for (cell, quad) in letters.chunks(4).enumerate() {
        let mut colours = [0; 4];
        for (k, &letter) in quad.iter().enumerate() {
            if !(b'a'..=b'w').contains(&letter) {
                return Err(field_error(
                    path,
                    "board_edges",
                    format!("cell {}: {:?} is not a colour letter (a..w)", cell_name(grid, cell), letter as char),
                ));
            }
            let index = letter - b'a';
            colours[k] = table.map_or(index, |t| t[usize::from(index)]);
        }
        edges.push(colours);
    }
    let pieces = match params.get("board_pieces") {
        None => None,
        Some(digits) => {
            if digits.len() != 3 * grid.cells() || !digits.bytes().all(|b| b.is_ascii_digit()) {
                return Err(field_error(
                    path,
                    "board_pieces",
                    format!(
                        "expected {} digits (3 per cell), found {:?}…",
                        3 * grid.cells(),
                        digits.chars().take(12).collect::<String>()
                    ),
                ));
            }
            Some(
                digits.as_bytes().chunks(3).map(|d| d.iter().fold(0, |n, &b| n * 10 + usize::from(b - b'0'))).collect(),
            )
        }
    };
    Ok(Link { name: params.get("puzzle").map(|s| (*s).to_owned()), grid, edges, pieces })
}

/// A cell's name as the viewer draws it: row letter from the top, column from 1.
pub fn cell_name(grid: Grid, cell: usize) -> String {
    let (row, col) = grid.row_col(cell);
    if row < 26 { format!("{}{}", (b'A' + row as u8) as char, col + 1) } else { format!("row {row} col {col}") }
}

/// Turns a link into a board of `instance`, naming the pieces: by
/// `board_pieces` when given, else by matching colours against unused pieces.
/// Cells that show colours no (unused) piece has are an error naming them.
pub fn to_board(path: &Path, link: &Link, instance: &Instance) -> Result<Board, Error> {
    same_size(path, link.grid, instance)?;
    let grid = link.grid;
    let mut board = Board::empty(grid);
    let turn = |piece: usize, shown: [Colour; 4]| {
        Rotation::ALL.into_iter().find(|&r| instance.pieces[piece].rotated(r) == shown)
    };
    let mut unmatched = Vec::new();
    match &link.pieces {
        Some(numbers) => {
            for (cell, (&number, &shown)) in numbers.iter().zip(&link.edges).enumerate() {
                if number == 0 {
                    if shown != [0; 4] {
                        unmatched.push(format!("{} names no piece but shows {shown:?}", cell_name(grid, cell)));
                    }
                    continue;
                }
                if number > instance.pieces.len() {
                    unmatched.push(format!("{}: no piece {number}", cell_name(grid, cell)));
                    continue;
                }
                match turn(number - 1, shown) {
                    Some(rotation) => board.cells[cell] = Some(Placement { piece: number - 1, rotation }),
                    None => unmatched.push(format!(
                        "{}: piece {number} does not show {shown:?} in any rotation",
                        cell_name(grid, cell)
                    )),
                }
            }
        }
        None => {
            let mut by_shape: HashMap<[Colour; 4], Vec<usize>> = HashMap::new();
            for (id, piece) in instance.pieces.iter().enumerate() {
                by_shape.entry(piece.canonical()).or_default().push(id);
            }
            let mut used = vec![false; instance.pieces.len()];
            for (cell, &shown) in link.edges.iter().enumerate() {
                if shown == [0; 4] {
                    continue;
                }
                let shape = crate::puzzle::Piece(shown).canonical();
                let free = by_shape.get(&shape).and_then(|ids| ids.iter().copied().find(|&id| !used[id]));
                match free.and_then(|id| turn(id, shown).map(|r| (id, r))) {
                    Some((piece, rotation)) => {
                        used[piece] = true;
                        board.cells[cell] = Some(Placement { piece, rotation });
                    }
                    None => unmatched.push(format!(
                        "{} shows {shown:?}, which matches no {}piece",
                        cell_name(grid, cell),
                        if by_shape.contains_key(&shape) { "unused " } else { "" }
                    )),
                }
            }
        }
    }
    if !unmatched.is_empty() {
        let more = if unmatched.len() > 5 { format!(" (and {} more)", unmatched.len() - 5) } else { String::new() };
        return Err(field_error(
            path,
            "board_edges",
            format!("{}{more}", unmatched[..unmatched.len().min(5)].join("; ")),
        ));
    }
    Ok(board)
}

/// The instance a full link shows: each cell's four colours, as shown, become
/// a piece in reference orientation (numbered by `board_pieces` when the link
/// has them and they are 1..=cells once each, else in cell order); no clues.
/// The link's board is then a solution of it when its joins all match.
pub fn to_instance(path: &Path, link: &Link) -> Result<Instance, Error> {
    if let Some(cell) = link.edges.iter().position(|e| *e == [GREY; 4]) {
        return Err(field_error(
            path,
            "board_edges",
            format!("cell {} is empty: an instance needs a piece on every cell", cell_name(link.grid, cell)),
        ));
    }
    let cells = link.grid.cells();
    let numbered = link.pieces.as_ref().filter(|numbers| {
        let mut seen = vec![false; cells + 1];
        numbers.iter().all(|&n| (1..=cells).contains(&n) && !std::mem::replace(&mut seen[n], true))
    });
    let mut pieces = vec![Piece([GREY; 4]); cells];
    for (cell, edges) in link.edges.iter().enumerate() {
        let index = numbered.map_or(cell, |numbers| numbers[cell] - 1);
        pieces[index] = Piece(*edges);
    }
    Ok(Instance { grid: link.grid, pieces, clues: Vec::new() })
}

/// Writes a board as a link in the default colour numbering, with `board_pieces`.
///
/// # Panics
/// On a cell naming a piece the instance does not have (see [`Board::unknown_piece`]).
pub fn to_link(board: &Board, instance: &Instance, name: &str) -> String {
    let mut edges = String::with_capacity(4 * board.cells.len());
    let mut pieces = String::with_capacity(3 * board.cells.len());
    for cell in &board.cells {
        match cell {
            Some(p) => {
                for colour in instance.pieces[p.piece].rotated(p.rotation) {
                    edges.push(letter(colour));
                }
                let _ = write!(pieces, "{:03}", p.piece + 1);
            }
            None => {
                edges.push_str("aaaa");
                pieces.push_str("000");
            }
        }
    }
    // Characters that would end the parameter are replaced; the rest is kept as written.
    let name: String = name.chars().map(|c| if "&#=?".contains(c) || c.is_whitespace() { '_' } else { c }).collect();
    format!(
        "{VIEWER}#puzzle={name}&board_w={}&board_h={}&board_edges={edges}&board_pieces={pieces}",
        board.grid.width, board.grid.height
    )
}

/// The letter of a colour; colours past `w` (22) have no letter in this format.
fn letter(colour: Colour) -> char {
    if colour <= 22 { (b'a' + colour) as char } else { '?' }
}

/// True if every colour of the instance fits the format's letters (0..=22).
pub fn can_write(instance: &Instance) -> bool {
    instance.max_colour() <= 22
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Found by `cargo fuzz` (target bucas): the message quoted the first 12
    /// bytes of `board_pieces`, which cut a two-byte character in half and panicked.
    #[test]
    fn a_multibyte_character_in_board_pieces_is_an_error_not_a_panic() {
        let link = "https://ee=ial&board_w=2&board_h=1&board_edges=ab\u{a0}&board_pieces=0130160040r\u{b3}dges";
        let message = parse(Path::new("l"), link).unwrap_err().to_string();
        assert!(message.contains("board_edges") || message.contains("board_pieces"), "{message}");
        let link = "https://x#board_w=1&board_h=1&board_edges=aaaa&board_pieces=0013016004r\u{b3}d";
        let message = parse(Path::new("l"), link).unwrap_err().to_string();
        assert!(message.contains("board_pieces") && message.contains("0013016004r\u{b3}"), "{message}");
    }

    fn two_by_one() -> Instance {
        Instance {
            grid: Grid { width: 2, height: 1 },
            pieces: vec![Piece([0, 5, 0, 0]), Piece([0, 0, 0, 5])],
            clues: vec![],
        }
    }

    #[test]
    fn link_round_trip() {
        let instance = Instance {
            grid: Grid { width: 3, height: 1 },
            pieces: vec![Piece([0, 5, 0, 0]), Piece([0, 0, 0, 6]), Piece([0, 6, 0, 5])],
            clues: vec![],
        };
        let place = |piece, r: usize| Some(Placement { piece, rotation: Rotation::ALL[r] });
        let board = Board { grid: instance.grid, cells: vec![place(0, 0), place(2, 0), place(1, 0)] };
        let link = to_link(&board, &instance, "t");
        assert!(link.ends_with("board_edges=afaaagafaaag&board_pieces=001003002"), "{link}");
        let parsed = parse(Path::new("x"), &link).unwrap();
        assert_eq!(to_board(Path::new("x"), &parsed, &instance).unwrap(), board);
        // Without piece numbers, colours identify the pieces.
        let bare = parse(Path::new("x"), "https://host/?board_w=3&board_h=1&board_edges=afaaagafaaag").unwrap();
        assert_eq!(to_board(Path::new("x"), &bare, &instance).unwrap(), board);
    }

    #[test]
    fn a_full_link_is_an_instance_its_board_solves() {
        let planted = crate::generate::planted(&crate::generate::PlantedSpec::square(5, 2, 3, 7)).unwrap();
        let p = Path::new("l");
        let link = parse(p, &to_link(&planted.solution, &planted.instance, "x")).unwrap();
        let instance = to_instance(p, &link).unwrap();
        // Numbered by board_pieces: the planted instance's pieces, each as its cell shows it.
        for placement in planted.solution.cells.iter().flatten() {
            let shown = planted.instance.pieces[placement.piece].rotated(placement.rotation);
            assert_eq!(instance.pieces[placement.piece].0, shown);
        }
        let board = to_board(p, &link, &instance).unwrap();
        assert!(crate::check::check(&instance, &board).is_solution());
        let empty = parse(p, "#board_w=2&board_h=1&board_edges=abaaaaaa").unwrap();
        let e = to_instance(p, &empty).unwrap_err().to_string();
        assert!(e.contains("board_edges") && e.contains("A2 is empty"), "{e}");
    }

    #[test]
    fn bad_links_name_the_field() {
        let p = Path::new("x");
        let e = parse(p, "#board_w=2&board_h=1&board_edges=afaaaaa").unwrap_err().to_string();
        assert!(e.contains("board_edges") && e.contains("7 letters"), "{e}");
        let e = parse(p, "#board_w=2&board_h=1&board_edges=afaaaaaz").unwrap_err().to_string();
        assert!(e.contains("cell A2"), "{e}");
        let link = parse(p, "#board_w=2&board_h=1&board_edges=agaaaaaf").unwrap();
        let e = to_board(p, &link, &two_by_one()).unwrap_err().to_string();
        assert!(e.contains("A1"), "{e}");
        let link = parse(p, "#board_w=1&board_h=2&board_edges=afaaaaaf").unwrap();
        assert!(to_board(p, &link, &two_by_one()).is_err());
    }

    #[test]
    fn motif_tables_are_permutations() {
        for table in [JEF, JBLACKWOOD] {
            let mut sorted = table;
            sorted.sort_unstable();
            assert_eq!(sorted.to_vec(), (0..23).collect::<Vec<u8>>());
        }
    }
}
