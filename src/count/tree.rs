//! The tree a count walks: the field's plain row scan, or the smallest of its variants that count the same boards (the board turned a quarter; one corner piece fixed in the first cell of a square board without clues).
//!
//! Two variants, both exact:
//! - **Turned a quarter.** The row scan of a board turned clockwise runs
//!   along its other side; every solution of the turned board, turned back, is
//!   one of the board's, and the other way round. On a rectangle the scan
//!   along the short side is often far smaller (Brendan's 9×6: about 40
//!   times). A square board without clues turned is the same board, so it is
//!   not tried.
//! - **A corner piece fixed** (a square board without clues). The four quarter
//!   turns of a solution are four different boards (each piece has one cell),
//!   and exactly one of them holds corner piece `k` in the top-left corner.
//!   So the boards with `k` fixed there, each counted with its three other
//!   turns, are every solution once, and each is one class up to symmetry.
//!   The scan's first cell then has one candidate instead of four.
//!
//! Knuth's estimate picks the variant with the fewest nodes. Nodes are then
//! those of the chosen tree, not the field's figure: `--plain` counts the
//! plain row scan's tree, whose nodes the field publishes.

use super::plain;
use super::symmetry::{Symmetries, turn_cell, turn_placement, turned, turned_grid};
use crate::error::Error;
use crate::puzzle::{Clue, GREY, Instance, Placement, Rotation, Side};
use crate::rng::Rng;

/// Random paths per variant when the count picks its tree (a few per cent of
/// a second each on an 8×8; fewer let the estimate's heavy tail pick wrongly).
const PROBES: u32 = 4000;

/// One tree a count may walk: the instance its scan counts, and how its boards map to the board's.
#[derive(Clone, Debug)]
pub(crate) struct Tree {
    /// What the scan counts: the board, turned or with a corner fixed.
    pub(crate) instance: Instance,
    /// The board was turned a quarter clockwise.
    turned: bool,
    /// The corner piece fixed in the top-left cell; each board found stands for its class.
    corner: Option<usize>,
}

impl Tree {
    /// The plain row scan of `instance`, from its top-left corner along its width.
    pub(crate) fn plain(instance: &Instance) -> Tree {
        Tree { instance: instance.clone(), turned: false, corner: None }
    }

    /// The variant of `instance`'s row scan with the fewest nodes by Knuth's estimate (seeded: the same every run).
    ///
    /// # Errors
    /// A board too large for the count's tables.
    pub(crate) fn smallest(instance: &Instance) -> Result<Tree, Error> {
        let mut best: Option<(f64, Tree)> = None;
        for tree in variants(instance) {
            let table = plain::Table::new(&tree.instance)?;
            let nodes = plain::estimate(&table, PROBES, &mut Rng::new(1));
            if best.as_ref().is_none_or(|(least, _)| nodes < *least) {
                best = Some((nodes, tree));
            }
        }
        Ok(best.map_or_else(|| Tree::plain(instance), |(_, tree)| tree))
    }

    /// The tree a part (a cube) walks: the plain row scan when `plain`, else
    /// the smallest variant; each of its boards stands for its class when the
    /// part fixes `corner` top-left (`part.rs`).
    ///
    /// # Errors
    /// A board too large for the count's tables.
    pub(crate) fn for_part(part: &Instance, plain: bool, corner: Option<usize>) -> Result<Tree, Error> {
        let tree = if plain { Tree::plain(part) } else { Tree::smallest(part)? };
        Ok(Tree { corner: corner.or(tree.corner), ..tree })
    }

    /// The corner piece the tree fixes, as the clue in the top-left cell.
    pub(crate) fn corner_clue(&self) -> Option<Clue> {
        let piece = self.corner?;
        self.instance.clues.iter().find(|c| c.cell == 0 && c.placement.piece == piece).copied()
    }

    /// A full board of the tree's instance (cell by cell) as a board of the original.
    pub(crate) fn back(&self, placements: &[Placement]) -> Vec<Placement> {
        if self.turned { turned(self.instance.grid, placements, 3).1 } else { placements.to_vec() }
    }

    /// Whether each board found stands for its whole class (a corner piece is fixed).
    pub(crate) fn one_per_class(&self) -> bool {
        self.corner.is_some()
    }

    /// What the tree is, for a count's report.
    pub(crate) fn describe(&self) -> String {
        let mut name = "row scan".to_owned();
        if self.turned {
            name.push_str(", the board turned a quarter");
        }
        if let Some(piece) = self.corner {
            // Numbered from 1, as the piece lists and the boards printed number them.
            let number = piece + 1;
            name.push_str(&format!(", corner piece {number} fixed top-left (each board found counts its class)"));
        }
        if !self.turned && self.corner.is_none() {
            name.push_str(" (the field's plain tree)");
        }
        name
    }
}

/// The variants the count may walk: the plain scan; the board turned (unless
/// it is a square without clues); on a square without clues, each corner piece fixed.
fn variants(instance: &Instance) -> Vec<Tree> {
    let free_square = Symmetries::of(instance).order() == 4;
    let mut trees = vec![Tree::plain(instance)];
    if !free_square {
        trees.push(Tree { instance: turned_instance(instance), turned: true, corner: None });
    }
    if free_square {
        trees = corner_pieces(instance)
            .map(|clue| Tree {
                instance: Instance { clues: vec![clue], ..instance.clone() },
                turned: false,
                corner: Some(clue.placement.piece),
            })
            .collect();
        if trees.is_empty() {
            trees.push(Tree::plain(instance));
        }
    }
    trees
}

/// `instance` turned a quarter clockwise: the grid's sides swapped, each clue moved and turned with the board.
fn turned_instance(instance: &Instance) -> Instance {
    let clues = instance
        .clues
        .iter()
        .map(|c| Clue { cell: turn_cell(instance.grid, c.cell), placement: turn_placement(c.placement) })
        .collect();
    Instance { grid: turned_grid(instance.grid), pieces: instance.pieces.clone(), clues }
}

/// Each piece that fits the top-left corner (grey exactly north and west), as a clue there.
fn corner_pieces(instance: &Instance) -> impl Iterator<Item = Clue> + '_ {
    instance.pieces.iter().enumerate().filter_map(|(piece, p)| {
        let fits = |r: &Rotation| {
            let shown = p.rotated(*r);
            let grey = |side: Side| shown[side.index()] == GREY;
            grey(Side::N) && grey(Side::W) && !grey(Side::E) && !grey(Side::S)
        };
        let rotation = Rotation::ALL.iter().find(|r| fits(r))?;
        Some(Clue { cell: 0, placement: Placement { piece, rotation: *rotation } })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::{PlantedSpec, planted};
    use crate::puzzle::Board;

    /// The planted solution of a rectangle turned a quarter is a solution of
    /// the turned instance, and turned back it is the planted board: catches
    /// a clue moved or turned the wrong way, or a board mapped back wrongly.
    #[test]
    fn a_turned_board_turns_back_to_the_planted_solution() {
        let mut spec = PlantedSpec::square(5, 2, 3, 4);
        spec.grid = crate::puzzle::Grid::new(5usize, 4).unwrap();
        let planted = planted(&spec).unwrap();
        let solution: Vec<Placement> = planted.solution.cells.iter().map(|c| c.unwrap()).collect();
        let tree = Tree { instance: turned_instance(&planted.instance), turned: true, corner: None };
        let (grid, image) = turned(planted.instance.grid, &solution, 1);
        let board = Board { grid, cells: image.iter().copied().map(Some).collect() };
        assert!(crate::check::check(&tree.instance, &board).is_solution());
        assert_eq!(tree.back(&image), solution);
    }

    /// A clueless square's variants fix each of its four corner pieces, in
    /// the turn that puts grey north and west; a clued board's are the plain
    /// scan and the turned one.
    #[test]
    fn the_variants_fix_corners_only_on_a_clueless_square() {
        let planted = planted(&PlantedSpec::square(5, 2, 3, 4)).unwrap().instance;
        let clueless = Instance { clues: Vec::new(), ..planted.clone() };
        let corners = variants(&clueless);
        assert_eq!(corners.len(), 4);
        for tree in &corners {
            let clue = tree.instance.clues[0];
            let shown = tree.instance.pieces[clue.placement.piece].rotated(clue.placement.rotation);
            assert_eq!((clue.cell, shown[Side::N.index()], shown[Side::W.index()]), (0, GREY, GREY));
        }
        let clued = variants(&planted);
        assert_eq!(clued.iter().map(|t| (t.turned, t.corner)).collect::<Vec<_>>(), [(false, None), (true, None)]);
    }
}
