//! The table formulation: one colour variable per inner join and one Table constraint per cell over piece, rotation and its join colours.

use super::builder::{Builder, Derived, Model, cell_indices, piece_and_rotation, var_expr};
use crate::cpsat::proto::{TableConstraintProto, constraint_proto::Constraint};
use crate::puzzle::{Instance, Rotation, Side};

/// The table formulation: a colour per inner join and one Table constraint per cell.
pub fn table(instance: &Instance) -> Model {
    let grid = instance.grid;
    let max_colour = i64::from(instance.max_colour().max(1));
    let mut b = Builder::named("edgematch-table");

    // One colour variable per inner join, indexed like `grid.joins()`.
    let mut join_var = vec![[-1i32; 4]; grid.cells()];
    let mut derived = Vec::new();
    for (cell, side) in grid.joins() {
        let (row, col) = grid.row_col(cell);
        let var = b.var(format!("join_{row}_{col}_{side}"), vec![1, max_colour]);
        derived.push((var, Derived::Colour(cell, side)));
        let other = grid.neighbour(cell, side).expect("inner join");
        join_var[cell][side.index()] = var;
        join_var[other][side.opposite().index()] = var;
    }

    let mut cells = Vec::with_capacity(grid.cells());
    for (cell, joins) in join_var.iter().enumerate() {
        let (row, col) = grid.row_col(cell);
        let indices = cell_indices(instance, cell);
        let vars = piece_and_rotation(&mut b, &indices, row, col);
        let inner: Vec<Side> = Side::ALL.into_iter().filter(|&s| !grid.is_rim_side(cell, s)).collect();
        let mut values = Vec::with_capacity(indices.len() * (2 + inner.len()));
        for &k in &indices {
            let shown = instance.pieces[k as usize / 4].rotated(Rotation::ALL[k as usize % 4]);
            values.extend([k / 4, k % 4]);
            values.extend(inner.iter().map(|s| i64::from(shown[s.index()])));
        }
        let mut exprs = vec![var_expr(vars.piece), var_expr(vars.rotation)];
        exprs.extend(inner.iter().map(|s| var_expr(joins[s.index()])));
        b.add(Constraint::Table(TableConstraintProto { exprs, values, ..Default::default() }));
        cells.push(vars);
    }
    b.finish_with_all_different(cells, derived)
}

#[cfg(test)]
mod tests {
    use super::super::builder::tests::two_by_two;
    use super::*;

    #[test]
    fn table_model_has_one_table_per_cell() {
        let model = table(&two_by_two());
        // Four joins, then piece and rotation per cell.
        assert_eq!(model.proto.variables.len(), 4 + 4 * 2);
        assert_eq!(model.proto.constraints.len(), 4 + 1);
        let Some(Constraint::Table(t)) = &model.proto.constraints[0].constraint else { panic!("a table") };
        // Top-left corner: piece, rotation, E and S colours; four rows.
        assert_eq!(t.exprs.len(), 4);
        assert_eq!(t.values, vec![0, 0, 1, 2, 1, 3, 3, 1, 2, 1, 2, 4, 3, 2, 4, 3]);
    }
}
