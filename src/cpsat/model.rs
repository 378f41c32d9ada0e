//! CP-SAT models of an instance, as `CpModelProto`s.
//!
//! Two formulations share the piece and rotation variables of every cell
//! (`piece[c]` all different, `rot[c]` in 0..=3) and differ in how colours
//! are tied to them.
//!
//! **Element** (the structured model), per cell `c`:
//! - `piece[c]` over the piece ids, all different across cells;
//! - `rot[c]` in 0..=3;
//! - `index[c] = 4·piece[c] + rot[c]` (a linear equality);
//! - `side[c][s] = table_s[index[c]]` for s in N, E, S, W, four Element
//!   constraints over constant tables (`linear_index`, `linear_target`, `exprs`);
//! - `side[c][s] = side[c'][s']` across each inner join, with domain 1..=max
//!   (non-grey); rim sides have the domain {0};
//! - clues fix `piece` and `rot`.
//!
//! Domains are pre-filtered with facts any solution obeys: a cell's index only
//! ranges over (piece, rotation) pairs that show grey exactly on its rim sides.
//!
//! **Table** (the faster variant): one colour variable per inner join, shared
//! by the two cells it separates (domain 1..=max, so never grey), and per cell
//! one Table constraint over (piece, rot, colours of its inner sides) whose
//! rows are the (piece, rotation) pairs that show grey exactly on the cell's
//! rim sides. The table propagates the four sides together, where four
//! Elements propagate each side alone.
//!
//! A third, the Boolean placement model, is in [`super::boolean`].
//!
//! None has an objective: this is a decision problem.

use super::proto::{
    AllDifferentConstraintProto, ConstraintProto, CpModelProto, ElementConstraintProto, IntegerVariableProto,
    LinearConstraintProto, LinearExpressionProto, TableConstraintProto, constraint_proto::Constraint,
};
use crate::puzzle::{Instance, Rotation, Side};

/// Which formulation to build.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Formulation {
    /// Index = 4·piece + rotation, four Element constraints per cell.
    Element,
    /// One Table constraint per cell over piece, rotation and join colours.
    #[default]
    Table,
    /// Boolean placement and seam-colour literals ([`super::boolean`]).
    Boolean,
}

impl Formulation {
    /// The name used on the command line and in reports.
    pub fn name(self) -> &'static str {
        match self {
            Formulation::Element => "element",
            Formulation::Table => "table",
            Formulation::Boolean => "boolean",
        }
    }
}

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
pub(super) struct Builder {
    proto: CpModelProto,
}

impl Builder {
    /// Starts from `proto` (its name set).
    pub(super) fn new(proto: CpModelProto) -> Builder {
        Builder { proto }
    }

    /// The model built.
    pub(super) fn finish(self) -> CpModelProto {
        self.proto
    }

    pub(super) fn var(&mut self, name: String, domain: Vec<i64>) -> i32 {
        self.proto.variables.push(IntegerVariableProto { name, domain });
        (self.proto.variables.len() - 1) as i32
    }

    pub(super) fn add(&mut self, constraint: Constraint) {
        self.proto.constraints.push(ConstraintProto { constraint: Some(constraint), ..Default::default() });
    }

    /// `sum(coeffs[i] * vars[i]) == rhs`.
    pub(super) fn linear_eq(&mut self, vars: Vec<i32>, coeffs: Vec<i64>, rhs: i64) {
        self.add(Constraint::Linear(LinearConstraintProto { vars, coeffs, domain: vec![rhs, rhs] }));
    }
}

fn var_expr(var: i32) -> LinearExpressionProto {
    LinearExpressionProto { vars: vec![var], coeffs: vec![1], offset: 0 }
}

fn constant(value: i64) -> LinearExpressionProto {
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

/// Builds the model of `instance` in the given formulation.
pub fn build(instance: &Instance, formulation: Formulation) -> Model {
    match formulation {
        Formulation::Element => structured(instance),
        Formulation::Table => table(instance),
        Formulation::Boolean => super::boolean::boolean(instance),
    }
}

/// The (piece, rotation) indices `4·piece + rotation` a cell may take
/// (see [`Instance::rim_fits`]), ascending.
fn cell_indices(instance: &Instance, cell: usize) -> Vec<i64> {
    instance.rim_fits(cell).iter().map(|p| 4 * p.piece as i64 + i64::from(p.rotation.turns())).collect()
}

/// Declares a cell's piece and rotation variables over the pairs it may take.
fn piece_and_rotation(b: &mut Builder, indices: &[i64], row: usize, col: usize) -> CellVars {
    let mut pieces: Vec<i64> = indices.iter().map(|k| k / 4).collect();
    pieces.dedup();
    let mut rotations: Vec<i64> = indices.iter().map(|k| k % 4).collect();
    rotations.sort_unstable();
    rotations.dedup();
    let piece = b.var(format!("piece_{row}_{col}"), domain_of(&pieces));
    let rotation = b.var(format!("rot_{row}_{col}"), domain_of(&rotations));
    CellVars { piece, rotation }
}

/// The element formulation (the structured model).
pub fn structured(instance: &Instance) -> Model {
    let grid = instance.grid;
    let n = instance.pieces.len();
    let max_colour = i64::from(instance.max_colour().max(1));
    let mut b = Builder { proto: CpModelProto { name: "edgematch-element".to_owned(), ..Default::default() } };

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
    b.add(Constraint::AllDiff(AllDifferentConstraintProto {
        exprs: cells.iter().map(|c| var_expr(c.piece)).collect(),
    }));
    Model { proto: b.proto, cells, derived }
}

/// The table formulation.
pub fn table(instance: &Instance) -> Model {
    let grid = instance.grid;
    let max_colour = i64::from(instance.max_colour().max(1));
    let mut b = Builder { proto: CpModelProto { name: "edgematch-table".to_owned(), ..Default::default() } };

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
    b.add(Constraint::AllDiff(AllDifferentConstraintProto {
        exprs: cells.iter().map(|c| var_expr(c.piece)).collect(),
    }));
    Model { proto: b.proto, cells, derived }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::{Grid, Piece};

    #[test]
    fn intervals_are_merged() {
        assert_eq!(domain_of(&[0, 1, 2, 5, 7, 8]), vec![0, 2, 5, 5, 7, 8]);
        assert_eq!(domain_of(&[]), Vec::<i64>::new());
    }

    #[test]
    fn model_has_the_expected_shape() {
        let grid = Grid { width: 2, height: 2 };
        let pieces = vec![Piece([0, 1, 2, 0]), Piece([0, 0, 3, 1]), Piece([2, 4, 0, 0]), Piece([3, 0, 0, 4])];
        let model = structured(&Instance { grid, pieces, clues: vec![] });
        // Per cell: piece, rot, index, four sides.
        assert_eq!(model.proto.variables.len(), 4 * 7);
        // Per cell: one linear + four elements; then four joins and one all_diff.
        assert_eq!(model.proto.constraints.len(), 4 * 5 + 4 + 1);
        // The top-left corner takes each corner piece in exactly one rotation.
        assert_eq!(cell_indices(&model_instance(), 0), vec![0, 7, 9, 14]);
        let index = &model.proto.variables[model.cells[0].piece as usize + 2];
        assert_eq!(index.domain, vec![0, 0, 7, 7, 9, 9, 14, 14]);
        let rim_side = &model.proto.variables[model.cells[0].piece as usize + 3];
        assert_eq!(rim_side.domain, vec![0, 0]);
    }

    fn model_instance() -> Instance {
        let grid = Grid { width: 2, height: 2 };
        let pieces = vec![Piece([0, 1, 2, 0]), Piece([0, 0, 3, 1]), Piece([2, 4, 0, 0]), Piece([3, 0, 0, 4])];
        Instance { grid, pieces, clues: vec![] }
    }

    #[test]
    fn table_model_has_one_table_per_cell() {
        let model = table(&model_instance());
        // Four joins, then piece and rotation per cell.
        assert_eq!(model.proto.variables.len(), 4 + 4 * 2);
        assert_eq!(model.proto.constraints.len(), 4 + 1);
        let Some(Constraint::Table(t)) = &model.proto.constraints[0].constraint else { panic!("a table") };
        // Top-left corner: piece, rotation, E and S colours; four rows.
        assert_eq!(t.exprs.len(), 4);
        assert_eq!(t.values, vec![0, 0, 1, 2, 1, 3, 3, 1, 2, 1, 2, 4, 3, 2, 4, 3]);
    }
}
