//! Knuth's exact cover with colours (XCC), in the input format of his `dlx2`.
//!
//! Primary items: one per cell (`r3c7`) and one per piece (`p12`), each to be
//! covered exactly once. Secondary items: one per inner join, `h3_7` between
//! cells (3,7) and (3,8), `v3_7` between (3,7) and (4,7) (rows and columns
//! from 0, pieces from 1, as everywhere). An option is a
//! placement: its cell, its piece, and each inner join it touches coloured by
//! the colour it shows there (`h3_7:12`); options that share a join must agree
//! on its colour, which is exactly the edge-matching rule. Rim sides are not
//! items: only placements that show grey on the rim (and the clue at a clue
//! cell) are listed, the same class-pruned placements as the CNF exports.
//! Names stay within `dlx2`'s eight characters up to 64×64 boards.

use std::io::{self, Write};

use crate::puzzle::placements;
use crate::puzzle::{Grid, Instance, Side};

/// An XCC problem: items and options, by name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Xcc {
    /// Items covered exactly once: cells, then pieces.
    pub primary: Vec<String>,
    /// Items coloured consistently: the inner joins.
    pub secondary: Vec<String>,
    /// One option per placement: its items, secondary ones as `item:colour`.
    pub options: Vec<Vec<String>>,
}

/// The name of a cell's item.
pub fn cell_item(grid: Grid, cell: usize) -> String {
    let (row, col) = grid.row_col(cell);
    format!("r{row}c{col}")
}

/// The name of the join on `side` of `cell`, or `None` on the rim.
pub fn join_item(grid: Grid, cell: usize, side: Side) -> Option<String> {
    let other = grid.neighbour(cell, side)?;
    let (west_or_north, side) = match side {
        Side::E | Side::S => (cell, side),
        Side::W | Side::N => (other, side.opposite()),
    };
    let (row, col) = grid.row_col(west_or_north);
    Some(format!("{}{row}_{col}", if side == Side::E { 'h' } else { 'v' }))
}

/// Builds the XCC problem of `instance`.
pub fn xcc(instance: &Instance) -> Xcc {
    let grid = instance.grid;
    let primary = (0..grid.cells())
        .map(|cell| cell_item(grid, cell))
        .chain((1..=instance.pieces.len()).map(|p| format!("p{p}")))
        .collect();
    let secondary = grid.joins().filter_map(|(cell, side)| join_item(grid, cell, side)).collect();
    let (placements, _) = placements::table(instance);
    let options = placements
        .iter()
        .map(|&(cell, p)| {
            let mut items = vec![cell_item(grid, cell), format!("p{}", p.piece + 1)];
            for side in Side::ALL {
                if let Some(join) = join_item(grid, cell, side) {
                    items.push(format!("{join}:{}", instance.pieces[p.piece].side(p.rotation, side)));
                }
            }
            items
        })
        .collect();
    Xcc { primary, secondary, options }
}

impl Xcc {
    /// Writes the problem as `dlx2` reads it: `|` comment lines, the item
    /// line (primary, `|`, secondary), then one option a line.
    pub fn write(&self, mut out: impl Write, title: &[String]) -> io::Result<()> {
        for line in title {
            writeln!(out, "| {line}")?;
        }
        writeln!(out, "{} | {}", self.primary.join(" "), self.secondary.join(" "))?;
        for option in &self.options {
            writeln!(out, "{}", option.join(" "))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::{PlantedSpec, planted};

    #[test]
    fn a_3x3_has_9_plus_9_primary_and_12_secondary_items() {
        let planted = planted(&PlantedSpec::square(3, 2, 2, 1)).unwrap();
        let x = xcc(&planted.instance);
        assert_eq!(x.primary.len(), 18);
        assert_eq!(x.primary.iter().filter(|i| i.starts_with('r')).count(), 9);
        assert_eq!(x.secondary.len(), 12);
        assert!(x.secondary.contains(&"h0_0".to_owned()) && x.secondary.contains(&"v1_2".to_owned()));
        // The planted solution's placements are options, and they agree on every join.
        let board = &planted.solution;
        for cell in 0..9 {
            let p = board.cells[cell].unwrap();
            let want = cell_item(board.grid, cell);
            let found = x.options.iter().any(|o| o[0] == want && o[1] == format!("p{}", p.piece + 1));
            assert!(found, "cell {cell}");
        }
        let mut text = Vec::new();
        x.write(&mut text, &["a title".to_owned()]).unwrap();
        let text = String::from_utf8(text).unwrap();
        assert!(text.starts_with("| a title\nr0c0 "));
        assert!(text.lines().all(|l| l.split_whitespace().all(|w| w.split(':').next().unwrap().len() <= 8)));
    }
}
