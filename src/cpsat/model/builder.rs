//! What every CP-SAT formulation builds with: the model and its cell variables, and a builder appending to a `CpModelProto`.

use crate::cpsat::proto::{
    AllDifferentConstraintProto, ConstraintProto, CpModelProto, CpObjectiveProto, IntegerVariableProto,
    LinearConstraintProto, LinearExpressionProto, constraint_proto::Constraint,
};
use crate::puzzle::{Instance, Side};

/// The variable indices of one cell that a board is read from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CellVars {
    /// Piece id (0-based).
    pub piece: i32,
    /// Rotation 0..=3.
    pub rotation: i32,
}

/// A model and where each cell's variables are.
#[derive(Clone, Debug)]
pub struct Model {
    /// The model, ready to serialize.
    pub proto: CpModelProto,
    /// Variables by cell, row-major.
    pub cells: Vec<CellVars>,
    /// The other variables, with how a board determines each (for solution hints).
    pub derived: Vec<(i32, Derived)>,
}

/// How a (partial) board determines a variable other than a cell's piece and rotation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Derived {
    /// The colour the cell's piece shows on this side.
    Colour(usize, Side),
    /// `4·piece + rotation` of the cell.
    Index(usize),
    /// 1 if the cell holds this placement, else 0.
    Holds(usize, crate::puzzle::Placement),
    /// 1 if the cell shows this colour on this side, else 0.
    Shows(usize, Side, u8),
}

impl Derived {
    /// The value `board` gives the variable, if the cell it reads is placed.
    pub fn value(self, instance: &Instance, board: &crate::puzzle::Board) -> Option<i64> {
        let shown = |cell: usize, side: Side| board.colour(instance, cell, side);
        match self {
            Derived::Colour(cell, side) => shown(cell, side).map(i64::from),
            Derived::Index(cell) => board.cells[cell].map(|p| 4 * p.piece as i64 + i64::from(p.rotation.turns())),
            Derived::Holds(cell, placement) => board.cells[cell].map(|p| i64::from(p == placement)),
            Derived::Shows(cell, side, colour) => shown(cell, side).map(|c| i64::from(c == colour)),
        }
    }
}

/// Appends variables and constraints to a `CpModelProto`.
pub(crate) struct Builder {
    proto: CpModelProto,
}

impl Builder {
    /// Starts an empty model named `name`.
    pub(crate) fn named(name: &str) -> Builder {
        Builder { proto: CpModelProto { name: name.to_owned(), ..Default::default() } }
    }

    /// The model built.
    pub(crate) fn finish(self) -> CpModelProto {
        self.proto
    }

    /// The model built, once the cells' pieces are made all different.
    pub(crate) fn finish_with_all_different(mut self, cells: Vec<CellVars>, derived: Vec<(i32, Derived)>) -> Model {
        self.add(Constraint::AllDiff(AllDifferentConstraintProto {
            exprs: cells.iter().map(|c| var_expr(c.piece)).collect(),
        }));
        Model { proto: self.finish(), cells, derived }
    }

    pub(crate) fn var(&mut self, name: String, domain: Vec<i64>) -> i32 {
        self.proto.variables.push(IntegerVariableProto { name, domain });
        (self.proto.variables.len() - 1) as i32
    }

    pub(crate) fn add(&mut self, constraint: Constraint) {
        self.proto.constraints.push(ConstraintProto { constraint: Some(constraint), ..Default::default() });
    }

    /// `lo <= sum(coeffs[i] * vars[i]) <= hi`.
    pub(crate) fn linear(&mut self, vars: Vec<i32>, coeffs: Vec<i64>, lo: i64, hi: i64) {
        self.add(Constraint::Linear(LinearConstraintProto { vars, coeffs, domain: vec![lo, hi] }));
    }

    /// Sets the objective to maximize `sum(vars)`, as CP-SAT's minimization of its negation.
    pub(crate) fn maximize_sum(&mut self, vars: Vec<i32>) {
        let coeffs = vec![-1; vars.len()];
        self.proto.objective =
            Some(CpObjectiveProto { vars, coeffs, offset: 0.0, scaling_factor: -1.0, domain: Vec::new() });
    }

    /// `sum(coeffs[i] * vars[i]) == rhs`.
    pub(crate) fn linear_eq(&mut self, vars: Vec<i32>, coeffs: Vec<i64>, rhs: i64) {
        self.add(Constraint::Linear(LinearConstraintProto { vars, coeffs, domain: vec![rhs, rhs] }));
    }
}

/// The expression `var`.
pub(crate) fn var_expr(var: i32) -> LinearExpressionProto {
    LinearExpressionProto { vars: vec![var], coeffs: vec![1], offset: 0 }
}

/// The constant expression `value`.
pub(crate) fn constant(value: i64) -> LinearExpressionProto {
    LinearExpressionProto { vars: Vec::new(), coeffs: Vec::new(), offset: value }
}

/// Turns a sorted list of distinct values into CP-SAT's interval form.
pub fn domain_of(values: &[i64]) -> Vec<i64> {
    let mut domain = Vec::new();
    for &v in values {
        match domain.last_mut() {
            Some(hi) if *hi + 1 == v => *hi = v,
            _ => domain.extend([v, v]),
        }
    }
    domain
}

/// The (piece, rotation) indices `4·piece + rotation` a cell may take
/// (see [`Instance::rim_fits`]), ascending.
pub(crate) fn cell_indices(instance: &Instance, cell: usize) -> Vec<i64> {
    instance.rim_fits(cell).iter().map(|p| 4 * p.piece as i64 + i64::from(p.rotation.turns())).collect()
}

/// Declares a cell's piece and rotation variables over the pairs it may take.
pub(crate) fn piece_and_rotation(b: &mut Builder, indices: &[i64], row: usize, col: usize) -> CellVars {
    let mut pieces: Vec<i64> = indices.iter().map(|k| k / 4).collect();
    pieces.dedup();
    let mut rotations: Vec<i64> = indices.iter().map(|k| k % 4).collect();
    rotations.sort_unstable();
    rotations.dedup();
    let piece = b.var(format!("piece_{row}_{col}"), domain_of(&pieces));
    let rotation = b.var(format!("rot_{row}_{col}"), domain_of(&rotations));
    CellVars { piece, rotation }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::puzzle::{Grid, Piece};

    /// A 2×2 board of four corner pieces, for the formulations' shape tests.
    pub(crate) fn two_by_two() -> Instance {
        let grid = Grid { width: 2, height: 2 };
        let pieces = vec![Piece([0, 1, 2, 0]), Piece([0, 0, 3, 1]), Piece([2, 4, 0, 0]), Piece([3, 0, 0, 4])];
        Instance { grid, pieces, clues: vec![] }
    }

    #[test]
    fn intervals_are_merged() {
        assert_eq!(domain_of(&[0, 1, 2, 5, 7, 8]), vec![0, 2, 5, 5, 7, 8]);
        assert_eq!(domain_of(&[]), Vec::<i64>::new());
    }
}
