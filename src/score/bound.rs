//! A lower bound on the joins a completion of a partial board must still break, counted per colour: which offered boards are worth CP-SAT's time.

use crate::puzzle::{Board, Instance};

/// A lower bound on the joins a completion of `board` must still break:
/// for each colour, the sides of placed cells facing empty cells (open
/// sides) against the sides of the pieces no cell holds. Open sides beyond
/// the pieces' sides of their colour cannot all match, and a colour whose
/// two counts differ by an odd number leaves a side unpaired (two such
/// colours can share one break).
#[cfg(test)]
pub(crate) fn bound(instance: &Instance, board: &Board) -> usize {
    Bound::new(instance).of(instance, board)
}

/// [`bound`] with the pieces' sides by colour counted once, so that each
/// board's bound is counted without allocating (on the walk's thread).
#[derive(Clone, Debug)]
pub(crate) struct Bound {
    /// Sides of each colour over all pieces.
    sides: [i32; 256],
}

impl Bound {
    pub(crate) fn new(instance: &Instance) -> Bound {
        let mut sides = [0i32; 256];
        for piece in &instance.pieces {
            for &c in &piece.0 {
                sides[usize::from(c)] += 1;
            }
        }
        Bound { sides }
    }

    /// The bound of `board` (see [`bound`]).
    pub(crate) fn of(&self, instance: &Instance, board: &Board) -> usize {
        let grid = instance.grid;
        // Open sides less the sides of the pieces no cell holds, per colour.
        let mut excess = self.sides.map(|n| -n);
        for (cell, placed) in board.cells.iter().enumerate() {
            let Some(p) = placed else { continue };
            let piece = instance.pieces[p.piece];
            for &c in &piece.0 {
                excess[usize::from(c)] += 1;
            }
            for side in crate::puzzle::Side::ALL {
                if grid.neighbour(cell, side).is_some_and(|n| board.cells[n].is_none()) {
                    excess[usize::from(piece.side(p.rotation, side))] += 1;
                }
            }
        }
        from_excess(excess.into_iter())
    }
}

/// The bound from each colour's open sides less the sides of the pieces no
/// cell holds, grey (colour 0) first and left out: the open sides a colour
/// cannot cover, or half the colours left with an odd side out.
pub(crate) fn from_excess(excess: impl Iterator<Item = i32>) -> usize {
    let (deficit, odd) = excess.skip(1).fold((0i32, 0i32), |(d, o), e| (d + e.max(0), o + (e & 1)));
    deficit.max((odd + 1) / 2) as usize
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::generate::{PlantedSpec, planted};
    use crate::puzzle::{Placement, Rotation};
    use crate::rng::Rng;

    /// The planted board with the cells `empty` emptied and then refilled
    /// with their pieces shuffled and turned at random, wherever a piece's
    /// grey sides allow it: any completion of the partial board.
    fn a_completion(board: &Board, instance: &Instance, empty: &[usize], rng: &mut Rng) -> Option<Board> {
        let mut pieces: Vec<usize> = empty.iter().map(|&c| board.cells[c].unwrap().piece).collect();
        rng.shuffle(&mut pieces);
        let mut full = board.clone();
        for (&cell, &piece) in empty.iter().zip(&pieces) {
            let fits = instance.rim_fits(cell);
            let turns: Vec<Rotation> = fits.iter().filter(|p| p.piece == piece).map(|p| p.rotation).collect();
            let rotation = *turns.get(rng.below(turns.len().max(1)))?;
            full.cells[cell] = Some(Placement { piece, rotation });
        }
        Some(full)
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

        /// The bound never exceeds the breaks of any completion: here the
        /// planted one (the bound is 0 for any of its partial boards) and
        /// random refills of the emptied cells. A bound that counted a
        /// matched join, or the same open side twice, would exceed them.
        #[test]
        fn the_bound_is_a_lower_bound_on_every_completion(seed in 1u64..10_000, empty in 1usize..12) {
            let p = planted(&PlantedSpec::square(6, 3, 5, seed)).unwrap();
            let mut rng = Rng::new(seed);
            let free: Vec<usize> =
                (0..36).filter(|&c| p.instance.clues.iter().all(|k| k.cell != c)).collect();
            let mut cells = free.clone();
            rng.shuffle(&mut cells);
            let cells = &cells[..empty.min(cells.len())];
            let mut partial = p.solution.clone();
            for &c in cells {
                partial.cells[c] = None;
            }
            let before = bound(&p.instance, &partial);
            prop_assert_eq!(before, 0, "the planted board completes it without a break");
            let joins = p.instance.grid.max_score();
            for _ in 0..4 {
                if let Some(full) = a_completion(&p.solution, &p.instance, cells, &mut rng) {
                    prop_assert!(before <= joins - full.score(&p.instance));
                }
            }
            // A board with breaks of its own: the bound covers the empty cells' joins only.
            if let Some(full) = a_completion(&p.solution, &p.instance, cells, &mut rng) {
                let mut broken = full.clone();
                for &c in &cells[..cells.len() / 2] {
                    broken.cells[c] = None;
                }
                let rest: Vec<usize> = cells[..cells.len() / 2].to_vec();
                let made = joins - broken.score(&p.instance) - joins_touching(&p.instance, &broken, &rest);
                if let Some(refill) = a_completion(&full, &p.instance, &rest, &mut rng) {
                    let total = joins - refill.score(&p.instance);
                    prop_assert!(made + bound(&p.instance, &broken) <= total, "{made} + bound > {total}");
                }
            }
        }
    }

    /// Joins with an end in `cells` (empty on `board`): those a partial board's score leaves out.
    fn joins_touching(instance: &Instance, board: &Board, cells: &[usize]) -> usize {
        let grid = instance.grid;
        grid.joins()
            .filter(|&(c, s)| {
                let n = grid.neighbour(c, s).unwrap();
                (cells.contains(&c) || cells.contains(&n)) && (board.cells[c].is_none() || board.cells[n].is_none())
            })
            .count()
    }
}
