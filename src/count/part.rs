//! A count of one part of a board (a cube: the board with cells fixed): which of its boards it counts, and for how many, so that the parts' counts add up to the whole board's.
//!
//! Two rules make the sum exact:
//! - **A repeated look counts nothing.** The count places a piece that shows
//!   the same colours in two turns once, in the first (`plain.rs`). A cube
//!   that fixes such a piece in a later turn of the same look holds boards
//!   the cube with the earlier turn counts, so it counts none.
//! - **A fixed corner stands for its classes.** On a square board without
//!   clues, `split --fix-corner` fixes in the top-left cell the corner piece
//!   the count itself would fix (`tree.rs`): each board of such a cube is the
//!   one of its four turns with that piece there, so it counts its class (the
//!   four boards, each checked against the whole board) and the cubes walk a
//!   quarter of the tree.

use super::symmetry::Symmetries;
use super::tree::Tree;
use crate::error::Error;
use crate::puzzle::{Clue, Instance, Rotation};

/// How a part's boards stand to the whole board's.
#[derive(Clone, Copy, Debug)]
pub struct Part<'a> {
    /// The board the part was cut from.
    pub whole: &'a Instance,
    /// The part fixes a corner piece in the top-left cell of `whole` (a
    /// square board without clues) and each board found stands for its class
    /// of turned boards (`split --fix-corner`).
    pub one_per_class: bool,
}

impl<'a> Part<'a> {
    /// `whole` itself, every board counted once.
    pub fn whole(whole: &'a Instance) -> Part<'a> {
        Part { whole, one_per_class: false }
    }

    /// The corner piece `part` (`whole` with cells fixed) holds top-left, when
    /// its boards stand for their classes.
    ///
    /// # Errors
    /// A part that stands for its classes without a top-left cell of its own
    /// on a square board without clues.
    pub(crate) fn corner(&self, part: &Instance) -> Result<Option<usize>, Error> {
        if !self.one_per_class {
            return Ok(None);
        }
        let own: Vec<Clue> = part.clues.iter().filter(|c| !self.whole.clues.contains(c)).copied().collect();
        match own.iter().find(|c| c.cell == 0) {
            Some(clue) if may_stand_for_classes(self.whole, &own) => Ok(Some(clue.placement.piece)),
            _ => Err(Error::Options(
                "a part that stands for its classes of turned boards must fix the top-left cell of a square board \
                 without clues"
                    .to_owned(),
            )),
        }
    }

    /// True when a cell `part` fixes beyond the whole board's clues holds its
    /// piece in a turn that shows what an earlier turn of the piece shows:
    /// the part then counts none (the module's first rule).
    pub(crate) fn repeats_a_look(&self, part: &Instance) -> bool {
        let fixed = part.clues.iter().filter(|c| !self.whole.clues.contains(c));
        fixed.into_iter().any(|c| {
            let piece = &part.pieces[c.placement.piece];
            let shown = piece.rotated(c.placement.rotation);
            let earlier = &Rotation::ALL[..usize::from(c.placement.rotation.turns())];
            earlier.iter().any(|&turn| piece.rotated(turn) == shown)
        })
    }
}

/// Whether a part of `whole` that fixes `fixed` beyond its clues may stand
/// for its classes of turned boards: `whole`'s four quarter turns map its
/// solutions onto one another (a square without clues) and `fixed` holds the
/// top-left cell. What a cube file's `one_per_class` must meet.
pub fn may_stand_for_classes(whole: &Instance, fixed: &[Clue]) -> bool {
    Symmetries::of(whole).order() == 4 && fixed.iter().any(|c| c.cell == 0)
}

/// The corner piece, in the top-left cell, that a count of `instance` fixes
/// (a square board without clues whose picked tree fixes one), as a clue:
/// what `split --fix-corner` fixes in every cube.
///
/// # Errors
/// A board too large for the count's tables, or one on which the count fixes
/// no corner (a rectangle, a board with clues, a square without corner pieces).
pub fn fixed_corner(instance: &Instance) -> Result<Clue, Error> {
    let corner = Tree::smallest(instance)?.corner_clue();
    corner.ok_or_else(|| {
        Error::Options(
            "only a square board without clues, with corner pieces, has a corner piece the count fixes".to_owned(),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::count::{Ended, Options, count, count_in};
    use crate::cubes::split::{split, with_fixed};
    use crate::puzzle::{Grid, Piece};
    use crate::search::Order;
    use crate::stop::Stop;

    /// A 3×3 board whose centre piece shows one colour all round (24 × 24
    /// solutions, the centre placed once): its four corner pieces are alike,
    /// its edges too, so the cubes fix repeated looks and symmetric pieces.
    fn symmetric_3x3() -> Instance {
        let (corner, edge, centre) = (Piece([0, 1, 1, 0]), Piece([0, 1, 5, 1]), Piece([5, 5, 5, 5]));
        let pieces = [vec![corner; 4], vec![edge; 4], vec![centre]].concat();
        Instance { grid: Grid::new(3usize, 3).unwrap(), pieces, clues: Vec::new() }
    }

    /// Sums the counts of `cubes` of `whole`, each counted as a part.
    fn summed(whole: &Instance, cubes: &[Vec<Clue>], one_per_class: bool) -> (u64, u64) {
        let options = Options { threads: 1, ..Options::default() };
        let part = Part { whole, one_per_class };
        cubes.iter().fold((0, 0), |(solutions, unique), cube| {
            let counted = count_in(&with_fixed(whole, cube), part, &options, &Stop::new()).unwrap();
            assert_eq!(counted.ended, Ended::Complete);
            (solutions + counted.solutions, unique + counted.unique)
        })
    }

    /// The symmetric 3×3 cut into cubes some of which fix the centre in each
    /// of its four turns: the cubes' counts add up to the whole board's.
    /// Catches a cube that counts again the boards of a turn that looks like
    /// an earlier one.
    #[test]
    fn cubes_fixing_a_symmetric_piece_add_up_to_the_whole_count() {
        let whole = symmetric_3x3();
        let alone = count(&whole, &Options { threads: 1, ..Options::default() }, &Stop::new()).unwrap();
        assert_eq!(alone.solutions, 24 * 24);
        let cubes = split(&whole, Order::RowScan, 200).unwrap().cubes;
        assert!(cubes.iter().any(|c| c.iter().any(|f| f.cell == 4 && f.placement.rotation.turns() == 3)));
        assert_eq!(summed(&whole, &cubes, false), (alone.solutions, alone.unique));
    }

    /// The same board's cubes with the count's corner piece fixed top-left,
    /// each board counted for its class: the sums are the whole board's, from
    /// a quarter of the boards; counted as plain parts they come out a
    /// quarter. Catches a class counted short, or images checked against the
    /// cube (whose corner they move) instead of the board.
    #[test]
    fn cubes_with_the_corner_fixed_add_up_to_the_whole_count() {
        let whole = symmetric_3x3();
        let alone = count(&whole, &Options { threads: 1, ..Options::default() }, &Stop::new()).unwrap();
        let corner = fixed_corner(&whole).unwrap();
        let mut cubes = split(&with_fixed(&whole, &[corner]), Order::RowScan, 50).unwrap().cubes;
        cubes.iter_mut().for_each(|cube| cube.insert(0, corner));
        assert!(cubes.len() >= 50);
        assert_eq!(summed(&whole, &cubes, true), (alone.solutions, alone.unique));
        assert_eq!(summed(&whole, &cubes, false).0 * 4, alone.solutions);
    }

    /// A part said to stand for its classes without its own top-left cell,
    /// or of a board with clues, is refused rather than counted four times.
    #[test]
    fn a_class_part_without_its_own_corner_is_refused() {
        let whole = symmetric_3x3();
        let options = Options { threads: 1, ..Options::default() };
        let part = Part { whole: &whole, one_per_class: true };
        assert!(matches!(count_in(&whole, part, &options, &Stop::new()), Err(Error::Options(_))));
        assert!(fixed_corner(&with_fixed(&whole, &[fixed_corner(&whole).unwrap()])).is_err());
    }
}
