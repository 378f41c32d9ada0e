//! The Boolean placement model: the seam encoding posed to CP-SAT, with linear channelling.
//!
//! - a Boolean `x[cell, piece, rot]` per class-pruned placement (the table
//!   every export shares, [`crate::puzzle::placements::table`]);
//! - exactly one placement per cell and per piece;
//! - a Boolean `s[join, colour]` per inner join and colour both of its cells
//!   can show there, exactly one per join;
//! - for each join, colour and side: `Σ x showing that colour there = s`
//!   (exact, since a cell holds one placement), which ties both sides' colours;
//! - integer `piece[cell]` and `rot[cell]` defined as `Σ id·x`, so boards,
//!   hints and decision strategies read the same variables as in the other
//!   formulations.

use std::collections::BTreeMap;

use super::builder::{Builder, CellVars, Derived, Model, domain_of};
use crate::cpsat::proto::{BoolArgumentProto, constraint_proto::Constraint};
use crate::puzzle::placements;
use crate::puzzle::{Grid, Instance, Placement, Side};

/// Builds the Boolean placement model of `instance`.
pub fn boolean(instance: &Instance) -> Model {
    let grid = instance.grid;
    let mut b = Builder::named("edgematch-boolean");
    let (placements, _) = placements::table(instance);

    let x: Vec<i32> = placements
        .iter()
        .map(|&(cell, p)| {
            let (row, col) = grid.row_col(cell);
            b.var(format!("x_{row}_{col}_{}_{}", p.piece + 1, p.rotation.turns()), vec![0, 1])
        })
        .collect();
    let mut derived: Vec<(i32, Derived)> =
        placements.iter().zip(&x).map(|(&(cell, p), &v)| (v, Derived::Holds(cell, p))).collect();
    let mut by_cell: Vec<Vec<usize>> = vec![Vec::new(); grid.cells()];
    let mut by_piece: Vec<Vec<i32>> = vec![Vec::new(); instance.pieces.len()];
    // (join cell, E or S, colour) -> (placements on the near side, on the far side).
    let mut showing: BTreeMap<(usize, usize, u8), [Vec<i32>; 2]> = BTreeMap::new();
    for (i, &(cell, p)) in placements.iter().enumerate() {
        by_cell[cell].push(i);
        by_piece[p.piece].push(x[i]);
        for side in Side::ALL {
            let Some(other) = grid.neighbour(cell, side) else { continue };
            let colour = instance.pieces[p.piece].side(p.rotation, side);
            let (at, s, far) = match side {
                Side::E | Side::S => (cell, side, 0),
                Side::W | Side::N => (other, side.opposite(), 1),
            };
            showing.entry((at, s.index(), colour)).or_default()[far].push(x[i]);
        }
    }

    let cells: Vec<CellVars> = by_cell
        .iter()
        .enumerate()
        .map(|(cell, members)| cell_vars(&mut b, (grid, cell), members, &placements, &x))
        .collect();
    for literals in by_piece {
        b.add(Constraint::ExactlyOne(BoolArgumentProto { literals }));
    }

    // Seam colours: a colour either side cannot show has no variable (its
    // placements are forced off by the other side's empty sum).
    let mut seams: BTreeMap<(usize, usize), Vec<i32>> = BTreeMap::new();
    for (&(cell, side, colour), [near, far]) in &showing {
        let (row, col) = grid.row_col(cell);
        if near.is_empty() || far.is_empty() {
            for &v in near.iter().chain(far) {
                b.linear_eq(vec![v], vec![1], 0);
            }
            continue;
        }
        let s = b.var(format!("seam_{row}_{col}_{}_{colour}", Side::ALL[side]), vec![0, 1]);
        derived.push((s, Derived::Shows(cell, Side::ALL[side], colour)));
        seams.entry((cell, side)).or_default().push(s);
        for members in [near, far] {
            let mut vars = members.clone();
            let mut coeffs = vec![1; vars.len()];
            vars.push(s);
            coeffs.push(-1);
            b.linear_eq(vars, coeffs, 0);
        }
    }
    for (cell, side) in grid.joins() {
        let literals = seams.remove(&(cell, side.index())).unwrap_or_default();
        // An empty exactly-one is false: a join whose cells share no colour has no solution.
        b.add(Constraint::ExactlyOne(BoolArgumentProto { literals }));
    }
    Model { proto: b.finish(), cells, derived }
}

/// One cell's exactly-one over its placement Booleans (`members`, indices
/// into `placements` and `x`), and its piece and rotation variables channelled from them.
fn cell_vars(
    b: &mut Builder,
    (grid, cell): (Grid, usize),
    members: &[usize],
    placements: &[(usize, Placement)],
    x: &[i32],
) -> CellVars {
    let (row, col) = grid.row_col(cell);
    b.add(Constraint::ExactlyOne(BoolArgumentProto { literals: members.iter().map(|&i| x[i]).collect() }));
    let mut pieces: Vec<i64> = members.iter().map(|&i| placements[i].1.piece as i64).collect();
    pieces.sort_unstable();
    pieces.dedup();
    let mut turns: Vec<i64> = members.iter().map(|&i| i64::from(placements[i].1.rotation.turns())).collect();
    turns.sort_unstable();
    turns.dedup();
    let piece = b.var(format!("piece_{row}_{col}"), domain_of(&pieces));
    let rotation = b.var(format!("rot_{row}_{col}"), domain_of(&turns));
    channel(b, piece, members, x, |i| placements[i].1.piece as i64);
    channel(b, rotation, members, x, |i| i64::from(placements[i].1.rotation.turns()));
    CellVars { piece, rotation }
}

/// `target = Σ value(i)·x[i]` over the placements `members` of one cell.
fn channel(b: &mut Builder, target: i32, members: &[usize], x: &[i32], value: impl Fn(usize) -> i64) {
    let mut vars = vec![target];
    let mut coeffs = vec![-1];
    for &i in members {
        let v = value(i);
        if v != 0 {
            vars.push(x[i]);
            coeffs.push(v);
        }
    }
    b.linear_eq(vars, coeffs, 0);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::{PlantedSpec, planted};

    #[test]
    fn variables_and_constraints_follow_the_placement_table() {
        let planted = planted(&PlantedSpec::square(4, 2, 3, 1)).unwrap();
        let instance = &planted.instance;
        let model = boolean(instance);
        let (placements, _) = placements::table(instance);
        let booleans = model.proto.variables.iter().filter(|v| v.domain == [0, 1]).count();
        assert!(booleans >= placements.len());
        let exactly_one =
            model.proto.constraints.iter().filter(|c| matches!(c.constraint, Some(Constraint::ExactlyOne(_)))).count();
        // Cells, pieces and joins.
        assert_eq!(exactly_one, 16 + 16 + 24);
        assert_eq!(model.cells.len(), 16);
    }
}
