//! The element formulation: per cell, index = 4·piece + rotation channelled by four Element constraints into side colours.

use super::builder::{
    Builder, CellVars, Derived, Model, cell_indices, constant, domain_of, piece_and_rotation, var_expr,
};
use crate::cpsat::proto::{ElementConstraintProto, LinearExpressionProto, constraint_proto::Constraint};
use crate::puzzle::{Instance, Rotation, Side};

/// The element formulation: index = 4·piece + rotation, four Element constraints per cell.
pub fn element(instance: &Instance) -> Model {
    let grid = instance.grid;
    let n = instance.pieces.len();
    let max_colour = i64::from(instance.max_colour().max(1));
    let mut b = Builder::named("edgematch-element");

    // side_table[s][4p + r] = colour piece p shows on side s when turned by r.
    let side_table: [Vec<LinearExpressionProto>; 4] = std::array::from_fn(|s| {
        (0..4 * n)
            .map(|k| constant(i64::from(instance.pieces[k / 4].side(Rotation::ALL[k % 4], Side::ALL[s]))))
            .collect()
    });

    let mut cells = Vec::with_capacity(grid.cells());
    let mut derived = Vec::new();
    let mut side_vars = Vec::with_capacity(grid.cells());
    for cell in 0..grid.cells() {
        let (row, col) = grid.row_col(cell);
        let indices = cell_indices(instance, cell);
        let CellVars { piece, rotation } = piece_and_rotation(&mut b, &indices, row, col);
        let index = b.var(format!("index_{row}_{col}"), domain_of(&indices));
        derived.push((index, Derived::Index(cell)));
        b.linear_eq(vec![index, piece, rotation], vec![1, -4, -1], 0);
        let sides = Side::ALL.map(|s| {
            let domain = if grid.is_rim_side(cell, s) { vec![0, 0] } else { vec![1, max_colour] };
            b.var(format!("side_{row}_{col}_{s}"), domain)
        });
        derived.extend(Side::ALL.map(|s| (sides[s.index()], Derived::Colour(cell, s))));
        for s in 0..4 {
            b.add(Constraint::Element(ElementConstraintProto {
                linear_index: Some(var_expr(index)),
                linear_target: Some(var_expr(sides[s])),
                exprs: side_table[s].clone(),
                ..Default::default()
            }));
        }
        cells.push(CellVars { piece, rotation });
        side_vars.push(sides);
    }

    for (cell, side) in grid.joins() {
        let other = grid.neighbour(cell, side).expect("inner join");
        let a = side_vars[cell][side.index()];
        let b_var = side_vars[other][side.opposite().index()];
        b.linear_eq(vec![a, b_var], vec![1, -1], 0);
    }
    b.finish_with_all_different(cells, derived)
}

#[cfg(test)]
mod tests {
    use super::super::builder::tests::two_by_two;
    use super::*;

    #[test]
    fn model_has_the_expected_shape() {
        let instance = two_by_two();
        let model = element(&instance);
        // Per cell: piece, rot, index, four sides.
        assert_eq!(model.proto.variables.len(), 4 * 7);
        // Per cell: one linear + four elements; then four joins and one all_diff.
        assert_eq!(model.proto.constraints.len(), 4 * 5 + 4 + 1);
        // The top-left corner takes each corner piece in exactly one rotation.
        assert_eq!(cell_indices(&instance, 0), vec![0, 7, 9, 14]);
        let index = &model.proto.variables[model.cells[0].piece as usize + 2];
        assert_eq!(index.domain, vec![0, 0, 7, 7, 9, 9, 14, 14]);
        let rim_side = &model.proto.variables[model.cells[0].piece as usize + 3];
        assert_eq!(rim_side.domain, vec![0, 0]);
    }
}
