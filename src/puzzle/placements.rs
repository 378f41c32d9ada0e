//! The placement table: which (piece, rotation) each cell may hold, by the rim rule and by class pruning.
//!
//! Beside the rim rule ([`Instance::rim_fits`]): the counts per cell that the
//! size policies read before a model is built, the class pruning that removes
//! placements whose colours no neighbour can meet, and the table every
//! encoding shares.

use std::collections::HashMap;

use super::{Colour, GREY, Instance, Piece, Placement, Rotation, Side};

/// A set of colours, one bit each.
#[derive(Clone, Copy, PartialEq, Eq, Default)]
pub struct Colours([u64; 4]);

impl Colours {
    /// Adds `c`.
    pub fn insert(&mut self, c: Colour) {
        self.0[usize::from(c) / 64] |= 1 << (c % 64);
    }

    /// True when `c` is in the set.
    pub fn contains(self, c: Colour) -> bool {
        self.0[usize::from(c) / 64] & (1 << (c % 64)) != 0
    }

    /// The colours in both sets.
    pub fn and(self, other: Colours) -> Colours {
        Colours(std::array::from_fn(|i| self.0[i] & other.0[i]))
    }

    /// The colours in the set, ascending.
    pub fn iter(self) -> impl Iterator<Item = Colour> {
        (0..=Colour::MAX).filter(move |&c| self.contains(c))
    }
}

/// The placements each cell may hold after class pruning, with the colours each seam may show.
pub fn prune(instance: &Instance) -> (Vec<Vec<Placement>>, Vec<[Colours; 4]>, usize) {
    let grid = instance.grid;
    let mut fits: Vec<Vec<Placement>> = (0..grid.cells()).map(|cell| instance.rim_fits(cell)).collect();
    let before: usize = fits.iter().map(Vec::len).sum();
    let inner: Vec<Vec<Side>> =
        (0..grid.cells()).map(|cell| Side::ALL.into_iter().filter(|&s| !grid.is_rim_side(cell, s)).collect()).collect();
    let shows = |p: Placement, side: Side| instance.pieces[p.piece].side(p.rotation, side);
    loop {
        // What each cell can show on each side.
        let shown: Vec<[Colours; 4]> = fits
            .iter()
            .map(|ps| {
                let mut sets = [Colours::default(); 4];
                for &p in ps {
                    for side in Side::ALL {
                        sets[side.index()].insert(shows(p, side));
                    }
                }
                sets
            })
            .collect();
        // What each side of each cell may show: what both cells of its join can.
        let allowed: Vec<[Colours; 4]> = (0..grid.cells())
            .map(|cell| {
                std::array::from_fn(|s| {
                    let side = Side::ALL[s];
                    match grid.neighbour(cell, side) {
                        Some(other) => shown[cell][s].and(shown[other][side.opposite().index()]),
                        None => Colours::default(),
                    }
                })
            })
            .collect();
        let mut changed = false;
        for (cell, ps) in fits.iter_mut().enumerate() {
            let len = ps.len();
            ps.retain(|&p| inner[cell].iter().all(|&side| allowed[cell][side.index()].contains(shows(p, side))));
            changed |= ps.len() != len;
        }
        if !changed {
            let after: usize = fits.iter().map(Vec::len).sum();
            return (fits, allowed, before - after);
        }
    }
}

/// The placement table every encoding and export of `instance` shares (the
/// SAT, XCC and LP exports, CP-SAT's Boolean model), in variable order
/// (variable `i + 1` is entry `i`): class-pruned placements, cell by cell,
/// then piece and rotation; with the count pruning removed.
pub fn table(instance: &Instance) -> (Vec<(usize, Placement)>, usize) {
    let (fits, _, pruned) = prune(instance);
    let table = fits.iter().enumerate().flat_map(|(cell, ps)| ps.iter().map(move |&p| (cell, p))).collect();
    (table, pruned)
}

/// The placements (piece, rotation) that fit each cell's rim (one for a clue
/// cell), counted from the pieces once per rim pattern: what the CP-SAT table
/// model and the MIP allocate per cell, known before either is built.
pub fn per_cell(instance: &Instance) -> Vec<u64> {
    let grid = instance.grid;
    let mut by_pattern: HashMap<[bool; 4], u64> = HashMap::new();
    let fitting = |rim: [bool; 4]| -> u64 {
        let fits = |p: &Piece| {
            Rotation::ALL.into_iter().filter(|&r| (0..4).all(|s| (p.rotated(r)[s] == GREY) == rim[s])).count() as u64
        };
        instance.pieces.iter().map(fits).sum()
    };
    (0..grid.cells())
        .map(|cell| {
            if instance.clues.iter().any(|c| c.cell == cell) {
                1
            } else {
                *by_pattern.entry(Side::ALL.map(|s| grid.is_rim_side(cell, s))).or_insert_with_key(|&rim| fitting(rim))
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placements_are_counted_as_rim_fits_lists_them() {
        let instance = crate::generate::planted(&crate::generate::PlantedSpec::square(6, 3, 6, 1)).unwrap().instance;
        let counted = per_cell(&instance);
        for (cell, &count) in counted.iter().enumerate() {
            assert_eq!(count, instance.rim_fits(cell).len() as u64, "cell {cell}");
        }
    }
}
