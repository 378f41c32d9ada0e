//! The feasibility ILP in CPLEX LP format, and the board a solution's values describe.
//!
//! Binaries `x<cell>_<piece>_<rot>` (cells from 0, pieces from 1) for the class-pruned placements (the same
//! ones as the CNF and XCC exports). Rows: `cell<k>` and `piece<k>` sum to 1;
//! for each inner join and each colour either side can show there, `j<cell><E|S>_<colour>`
//! says the placements showing that colour on one side and on the other are
//! as many (0 or 1 each, so the two sides agree). There is nothing to
//! optimise: the objective is the constant 0.

use std::collections::BTreeMap;
use std::io::{self, Write};

use crate::puzzle::placements;
use crate::puzzle::{Board, Instance, Placement, Rotation, Side};

/// The column name of a placement.
pub fn column(cell: usize, p: Placement) -> String {
    format!("x{cell}_{}_{}", p.piece + 1, p.rotation.turns())
}

/// Writes a sum of `(coefficient sign, column)` terms, a few per line.
fn write_sum(out: &mut impl Write, terms: &[(bool, String)]) -> io::Result<()> {
    for (i, (plus, name)) in terms.iter().enumerate() {
        if i > 0 && i % 8 == 0 {
            write!(out, "\n   ")?;
        }
        let sign = if *plus { if i == 0 { "" } else { " + " } } else { " - " };
        write!(out, "{sign}{name}")?;
    }
    Ok(())
}

/// Writes the feasibility ILP of `instance`; `title` lines go first as `\` comments.
pub fn write_lp(mut out: impl Write, instance: &Instance, title: &[String]) -> io::Result<()> {
    let grid = instance.grid;
    let (placements, _) = placements::table(instance);
    for line in title {
        writeln!(out, "\\ {line}")?;
    }
    writeln!(out, "Minimize\n obj: 0 {}", placements.first().map_or("x".to_owned(), |&(c, p)| column(c, p)))?;
    writeln!(out, "Subject To")?;
    let mut by_cell: BTreeMap<usize, Vec<(bool, String)>> = BTreeMap::new();
    let mut by_piece: BTreeMap<usize, Vec<(bool, String)>> = BTreeMap::new();
    // (join cell, E or S index, colour) -> terms: + on the west/north side, − on the other.
    let mut by_join: BTreeMap<(usize, usize, u8), Vec<(bool, String)>> = BTreeMap::new();
    for &(cell, p) in &placements {
        let name = column(cell, p);
        by_cell.entry(cell).or_default().push((true, name.clone()));
        by_piece.entry(p.piece).or_default().push((true, name.clone()));
        for side in Side::ALL {
            let Some(other) = grid.neighbour(cell, side) else { continue };
            let colour = instance.pieces[p.piece].side(p.rotation, side);
            let (at, s, plus) = match side {
                Side::E | Side::S => (cell, side, true),
                Side::W | Side::N => (other, side.opposite(), false),
            };
            by_join.entry((at, s.index(), colour)).or_default().push((plus, name.clone()));
        }
    }
    for cell in 0..grid.cells() {
        write!(out, " cell{cell}: ")?;
        write_sum(&mut out, by_cell.get(&cell).map_or(&[][..], Vec::as_slice))?;
        writeln!(out, "{} = 1", if by_cell.contains_key(&cell) { "" } else { "0 x" })?;
    }
    for piece in 0..instance.pieces.len() {
        write!(out, " piece{piece}: ")?;
        write_sum(&mut out, by_piece.get(&piece).map_or(&[][..], Vec::as_slice))?;
        writeln!(out, "{} = 1", if by_piece.contains_key(&piece) { "" } else { "0 x" })?;
    }
    for ((cell, side, colour), mut terms) in by_join {
        // Lead with a plus term so the row reads naturally.
        terms.sort_by_key(|(plus, _)| !plus);
        if !terms[0].0 {
            terms.insert(0, (true, format!("0 {}", terms[0].1)));
        }
        let side = if side == Side::E.index() { 'E' } else { 'S' };
        write!(out, " j{cell}{side}_{colour}: ")?;
        write_sum(&mut out, &terms)?;
        writeln!(out, " = 0")?;
    }
    writeln!(out, "Binary")?;
    for chunk in placements.chunks(8) {
        let names: Vec<String> = chunk.iter().map(|&(c, p)| column(c, p)).collect();
        writeln!(out, " {}", names.join(" "))?;
    }
    writeln!(out, "End")
}

/// The board described by column values given by name: each `x<cell>_<piece>_<rot>`
/// above 0.5 places its piece. Names that are not placement columns of this
/// instance are an error.
pub fn board_from_values<'a>(
    instance: &Instance,
    values: impl IntoIterator<Item = (&'a str, f64)>,
) -> Result<Board, String> {
    let grid = instance.grid;
    let mut board = Board::empty(grid);
    for (name, value) in values {
        if value <= 0.5 {
            continue;
        }
        let parsed = name.strip_prefix('x').and_then(|rest| {
            let mut parts = rest.split('_').map(|s| s.parse::<usize>().ok());
            Some((parts.next()??, parts.next()??, parts.next()??, parts.next().is_none()))
        });
        let Some((cell, piece, turns, true)) = parsed else {
            return Err(format!("`{name}` is not a placement column"));
        };
        let rotation = u8::try_from(turns).ok().and_then(Rotation::new);
        let piece = piece.wrapping_sub(1);
        let (Some(rotation), true, true) = (rotation, cell < grid.cells(), piece < instance.pieces.len()) else {
            return Err(format!("`{name}` names a cell, piece or rotation outside the instance"));
        };
        if board.cells[cell].is_some() {
            return Err(format!("two placements at cell {cell}"));
        }
        board.cells[cell] = Some(Placement { piece, rotation });
    }
    Ok(board)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::{PlantedSpec, planted};

    #[test]
    fn rows_for_cells_pieces_and_join_colours() {
        let planted = planted(&PlantedSpec::square(3, 2, 2, 1)).unwrap();
        let mut text = Vec::new();
        write_lp(&mut text, &planted.instance, &["t".to_owned()]).unwrap();
        let text = String::from_utf8(text).unwrap();
        assert!(text.starts_with("\\ t\nMinimize\n"));
        assert_eq!(text.matches(" cell").count(), 9);
        assert_eq!(text.matches(" piece").count(), 9);
        assert!(text.contains(" j0E_") && text.ends_with("End\n"));
        // The planted solution's columns decode back to it.
        let names: Vec<String> =
            planted.solution.cells.iter().enumerate().map(|(c, p)| column(c, p.unwrap())).collect();
        for name in &names {
            assert!(text.contains(name.as_str()), "{name}");
        }
        let board = board_from_values(&planted.instance, names.iter().map(|n| (n.as_str(), 1.0))).unwrap();
        assert_eq!(board, planted.solution);
        assert!(board_from_values(&planted.instance, [("y1", 1.0)]).is_err());
        assert!(board_from_values(&planted.instance, [("x99_0_0", 1.0)]).is_err());
    }
}
