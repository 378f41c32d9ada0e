//! The direct encoding: placement variables only, and one binary clause for each disagreeing pair across a join.
//!
//! Variables `1..=P` are the placements of [`crate::puzzle::placements::table`] (the same
//! numbering as the seam encoding, so one decoder reads both); auxiliaries
//! of the at-most-one encodings follow. Clauses: exactly one placement per
//! cell and per piece, and for every inner join and every pair of placements
//! (one on each side) showing different colours there, `¬a ∨ ¬b`.
//!
//! The conflict clauses are what makes this encoding huge (about 3·10⁸ on the
//! official 16×16), so they are never stored: [`Direct::conflicts`] streams
//! them and [`Direct::conflict_count`] counts them by colour classes.

use std::io::{self, Write};

use rustsat::instances::BasicVarManager;
use rustsat::types::Var;

use super::encode::{Am1, Cnf, at_most_one, var_number};
use crate::puzzle::placements;
use crate::puzzle::{Grid, Instance, Placement};

/// The direct encoding of an instance.
#[derive(Clone, Debug)]
pub struct Direct {
    /// Board geometry.
    pub grid: Grid,
    /// Variable `i + 1` is `placements[i]`: (cell, placement).
    pub placements: Vec<(usize, Placement)>,
    /// Exactly one per cell and per piece (with their auxiliary variables).
    pub cardinality: Cnf,
    /// For each inner join, the colour each side's placements show on it:
    /// (variable, colour) of the west/north cell, then of the east/south one.
    joins: Vec<[Vec<(i32, u8)>; 2]>,
}

/// Builds the direct encoding of `instance`, cells and pieces in the `am1` encoding.
pub fn encode_direct(instance: &Instance, am1: Am1) -> Direct {
    let grid = instance.grid;
    let (placements, _) = placements::table(instance);
    let mut by_cell: Vec<Vec<i32>> = vec![Vec::new(); grid.cells()];
    let mut by_piece: Vec<Vec<i32>> = vec![Vec::new(); instance.pieces.len()];
    for (i, &(cell, p)) in placements.iter().enumerate() {
        by_cell[cell].push(var_number(i));
        by_piece[p.piece].push(var_number(i));
    }
    let fixed = u32::try_from(placements.len()).expect("fewer than 2^32 variables");
    let mut cardinality = Cnf::new();
    cardinality.variables = fixed;
    let mut vars = BasicVarManager::from_next_free(Var::new(fixed));
    for group in by_cell.iter().chain(&by_piece) {
        cardinality.push(group);
        at_most_one(am1, group, &mut cardinality, &mut vars);
    }
    let joins = grid
        .joins()
        .map(|(cell, side)| {
            let other = grid.neighbour(cell, side).expect("an inner join has two cells");
            let shown = |at: usize, side| {
                by_cell[at]
                    .iter()
                    .map(|&v| {
                        let p = placements[v as usize - 1].1;
                        (v, instance.pieces[p.piece].side(p.rotation, side))
                    })
                    .collect()
            };
            [shown(cell, side), shown(other, side.opposite())]
        })
        .collect();
    Direct { grid, placements, cardinality, joins }
}

impl Direct {
    /// All variables, placements and auxiliaries.
    pub fn variables(&self) -> u32 {
        self.cardinality.variables
    }

    /// The conflict clauses `[¬a, ¬b]`, join by join, without storing them.
    pub fn conflicts(&self) -> impl Iterator<Item = [i32; 2]> + '_ {
        self.joins.iter().flat_map(|[near, far]| {
            near.iter()
                .flat_map(move |&(a, ca)| far.iter().filter(move |&&(_, cb)| cb != ca).map(move |&(b, _)| [-a, -b]))
        })
    }

    /// How many conflict clauses there are: per join, all pairs minus the agreeing ones.
    pub fn conflict_count(&self) -> u64 {
        self.joins
            .iter()
            .map(|[near, far]| {
                let mut counts = [0u64; 256];
                for &(_, c) in far {
                    counts[usize::from(c)] += 1;
                }
                let agreeing: u64 = near.iter().map(|&(_, c)| counts[usize::from(c)]).sum();
                near.len() as u64 * far.len() as u64 - agreeing
            })
            .sum()
    }

    /// All clauses.
    pub fn clause_count(&self) -> u64 {
        self.cardinality.len() as u64 + self.conflict_count()
    }

    /// The whole CNF in memory (small boards: tests and solvers).
    pub fn to_cnf(&self) -> Cnf {
        let mut cnf = self.cardinality.clone();
        for clause in self.conflicts() {
            cnf.push(&clause);
        }
        cnf
    }

    /// Writes the clauses in DIMACS, the header first; the conflicts are streamed.
    pub fn write_clauses(&self, mut out: impl Write) -> io::Result<()> {
        writeln!(out, "p cnf {} {}", self.variables(), self.clause_count())?;
        for clause in self.cardinality.clauses() {
            super::dimacs::write_clause(&mut out, clause)?;
        }
        for clause in self.conflicts() {
            super::dimacs::write_clause(&mut out, &clause)?;
        }
        Ok(())
    }
}
