//! The checks a `CpModelProto` and its `SatParameters` pass before they cross the bridge.
//!
//! OR-Tools' C API ends the whole process (a failed `CHECK`) on some inputs
//! instead of answering `MODEL_INVALID`, and what it accepts changes between
//! releases. So every model and parameter set is checked here first, with the
//! rules of CP-SAT's own validator that apply to the fields edgematch uses
//! (variable indices in range, non-empty sorted domains, table arity, element
//! sizes, expression lengths, parameter ranges), and an invalid one becomes an
//! [`Error::Bridge`] naming the variable or constraint, never a call. The size
//! policy (how large a model edgematch builds) is `policy.rs`.

use super::proto::constraint_proto::Constraint;
use super::proto::{BoolArgumentProto, ConstraintProto, CpModelProto, LinearExpressionProto, SatParameters};
use crate::error::Error;

/// The largest magnitude of a domain bound or coefficient CP-SAT accepts
/// (its validator refuses values beyond `i64::MAX / 2`, so sums cannot overflow).
pub const MAX_VALUE: i64 = i64::MAX / 2;
/// The most workers a parameter set may ask for.
pub const MAX_WORKERS: i32 = 10_000;
/// The largest serialized model or parameter set the C API's `int` lengths can carry.
pub const MAX_BYTES: usize = i32::MAX as usize;

/// Checks a model; the error names the first variable or constraint at fault.
pub fn model(proto: &CpModelProto) -> Result<(), Error> {
    let n = proto.variables.len();
    if n > i32::MAX as usize {
        return Err(invalid(format!("{n} variables, more than an int32 index can name")));
    }
    for (i, var) in proto.variables.iter().enumerate() {
        domain(&var.domain).map_err(|m| invalid(format!("variable {i} ({}): {m}", var.name)))?;
    }
    let ctx = Ctx { proto };
    for (i, c) in proto.constraints.iter().enumerate() {
        ctx.constraint(c).map_err(|m| invalid(format!("constraint {i}{}: {m}", label(c))))?;
    }
    for (i, s) in proto.search_strategy.iter().enumerate() {
        let check = || -> Result<(), String> {
            // Any integer variable, or its negation `-v-1` (CP-SAT's variable references).
            s.variables
                .iter()
                .try_for_each(|&v| ctx.var(if v < 0 { v.saturating_neg().saturating_sub(1) } else { v }))?;
            s.exprs.iter().try_for_each(|e| ctx.expr(e))
        };
        check().map_err(|m| invalid(format!("search strategy {i}: {m}")))?;
    }
    if let Some(objective) = &proto.objective {
        let check = || -> Result<(), String> {
            if objective.vars.len() != objective.coeffs.len() {
                return Err(format!("{} variables but {} coefficients", objective.vars.len(), objective.coeffs.len()));
            }
            objective.vars.iter().try_for_each(|&v| ctx.var(v))?;
            if let Some(c) = objective.coeffs.iter().find(|c| c.unsigned_abs() > MAX_VALUE as u64) {
                return Err(format!("coefficient {c} beyond ±{MAX_VALUE}"));
            }
            if !objective.offset.is_finite() || !objective.scaling_factor.is_finite() {
                return Err("offset and scaling factor must be finite".to_owned());
            }
            if objective.domain.is_empty() { Ok(()) } else { domain(&objective.domain) }
        };
        check().map_err(|m| invalid(format!("objective: {m}")))?;
    }
    if let Some(hint) = &proto.solution_hint {
        if hint.vars.len() != hint.values.len() {
            return Err(invalid(format!(
                "solution hint: {} variables but {} values",
                hint.vars.len(),
                hint.values.len()
            )));
        }
        hint.vars.iter().try_for_each(|&v| ctx.var(v)).map_err(|m| invalid(format!("solution hint: {m}")))?;
    }
    proto.assumptions.iter().try_for_each(|&v| ctx.literal(v)).map_err(|m| invalid(format!("assumptions: {m}")))
}

/// Checks a parameter set: worker count, time limit and pool size in range.
pub fn parameters(p: &SatParameters) -> Result<(), Error> {
    if let Some(w) = p.num_workers
        && !(0..=MAX_WORKERS).contains(&w)
    {
        return Err(Error::Options(format!("num_workers {w} is not in 0..={MAX_WORKERS}")));
    }
    if let Some(t) = p.max_time_in_seconds
        && (t.is_nan() || t < 0.0)
    {
        return Err(Error::Options(format!("max_time_in_seconds {t} is not a non-negative number of seconds")));
    }
    if let Some(k) = p.solution_pool_size
        && k < 1
    {
        return Err(Error::Options(format!("solution_pool_size {k} is below 1")));
    }
    Ok(())
}

/// Checks the sizes of the serialized messages against the C API's `int` lengths.
pub fn sizes(model: usize, parameters: usize) -> Result<(), Error> {
    if model > MAX_BYTES || parameters > MAX_BYTES {
        return Err(invalid(format!(
            "the model ({model} bytes) or parameters ({parameters} bytes) exceed {MAX_BYTES} bytes"
        )));
    }
    Ok(())
}

fn invalid(message: String) -> Error {
    Error::Bridge(format!("refused before calling OR-Tools: {message}"))
}

/// ` (name)` for a named constraint.
fn label(c: &ConstraintProto) -> String {
    if c.name.is_empty() { String::new() } else { format!(" ({})", c.name) }
}

/// A domain: a non-empty, even-length list of sorted, disjoint, non-adjacent
/// closed intervals within ±[`MAX_VALUE`].
fn domain(bounds: &[i64]) -> Result<(), String> {
    if bounds.is_empty() || !bounds.len().is_multiple_of(2) {
        return Err(format!("a domain needs a non-empty, even number of bounds, found {}", bounds.len()));
    }
    if let Some(v) = bounds.iter().find(|v| v.unsigned_abs() > MAX_VALUE as u64) {
        return Err(format!("domain bound {v} is beyond ±{MAX_VALUE}"));
    }
    for pair in bounds.chunks(2) {
        if pair[0] > pair[1] {
            return Err(format!("interval [{}, {}] is empty", pair[0], pair[1]));
        }
    }
    for k in (2..bounds.len()).step_by(2) {
        if bounds[k] <= bounds[k - 1].saturating_add(1) {
            return Err(format!(
                "intervals ending {} and starting {} are not sorted and apart",
                bounds[k - 1],
                bounds[k]
            ));
        }
    }
    Ok(())
}

/// The model whose references are checked.
struct Ctx<'a> {
    proto: &'a CpModelProto,
}

impl Ctx<'_> {
    /// A variable index (a positive reference).
    fn var(&self, v: i32) -> Result<(), String> {
        if v < 0 || v as usize >= self.proto.variables.len() {
            return Err(format!("variable {v} is not in 0..{}", self.proto.variables.len()));
        }
        Ok(())
    }

    /// A literal: `v` or its negation `-v-1`, of a variable whose domain is within [0, 1].
    fn literal(&self, lit: i32) -> Result<(), String> {
        let v = if lit < 0 { -(lit as i64) - 1 } else { lit as i64 };
        let v = i32::try_from(v).map_err(|_| format!("literal {lit} is out of range"))?;
        self.var(v)?;
        let d = &self.proto.variables[v as usize].domain;
        if d.first().is_some_and(|&lo| lo < 0) || d.last().is_some_and(|&hi| hi > 1) {
            return Err(format!("literal {lit} names variable {v}, which is not Boolean"));
        }
        Ok(())
    }

    /// A linear expression: as many coefficients as variables, all in range.
    fn expr(&self, e: &LinearExpressionProto) -> Result<(), String> {
        if e.vars.len() != e.coeffs.len() {
            return Err(format!("an expression with {} variables and {} coefficients", e.vars.len(), e.coeffs.len()));
        }
        e.vars.iter().try_for_each(|&v| self.var(v))?;
        if let Some(c) = e.coeffs.iter().chain([&e.offset]).find(|c| c.unsigned_abs() > MAX_VALUE as u64) {
            return Err(format!("coefficient or offset {c} is beyond ±{MAX_VALUE}"));
        }
        Ok(())
    }

    fn literals(&self, b: &BoolArgumentProto) -> Result<(), String> {
        b.literals.iter().try_for_each(|&l| self.literal(l))
    }

    fn constraint(&self, c: &ConstraintProto) -> Result<(), String> {
        c.enforcement_literal.iter().try_for_each(|&l| self.literal(l))?;
        match c.constraint.as_ref().ok_or("no constraint type is set")? {
            Constraint::BoolOr(b) | Constraint::BoolAnd(b) | Constraint::AtMostOne(b) | Constraint::ExactlyOne(b) => {
                self.literals(b)
            }
            Constraint::Linear(l) => {
                if l.vars.len() != l.coeffs.len() {
                    return Err(format!("linear: {} variables and {} coefficients", l.vars.len(), l.coeffs.len()));
                }
                l.vars.iter().try_for_each(|&v| self.var(v))?;
                if let Some(c) = l.coeffs.iter().find(|c| c.unsigned_abs() > MAX_VALUE as u64) {
                    return Err(format!("linear: coefficient {c} is beyond ±{MAX_VALUE}"));
                }
                domain(&l.domain).map_err(|m| format!("linear: {m}"))
            }
            Constraint::AllDiff(a) => a.exprs.iter().try_for_each(|e| self.expr(e)),
            Constraint::Element(e) => {
                let linear = e.linear_index.is_some() || e.linear_target.is_some() || !e.exprs.is_empty();
                if linear {
                    let index = e.linear_index.as_ref().ok_or("element: linear_index is missing")?;
                    let target = e.linear_target.as_ref().ok_or("element: linear_target is missing")?;
                    if e.exprs.is_empty() {
                        return Err("element: no expressions to index".to_owned());
                    }
                    if !e.vars.is_empty() {
                        return Err("element: both the legacy vars and exprs are set".to_owned());
                    }
                    self.expr(index)?;
                    self.expr(target)?;
                    e.exprs.iter().try_for_each(|x| self.expr(x))
                } else {
                    if e.vars.is_empty() {
                        return Err("element: no variables to index".to_owned());
                    }
                    self.var(e.index)?;
                    self.var(e.target)?;
                    e.vars.iter().try_for_each(|&v| self.var(v))
                }
            }
            Constraint::Table(t) => {
                if !t.vars.is_empty() && !t.exprs.is_empty() {
                    return Err("table: both the legacy vars and exprs are set".to_owned());
                }
                t.vars.iter().try_for_each(|&v| self.var(v))?;
                t.exprs.iter().try_for_each(|e| self.expr(e))?;
                let arity = t.vars.len() + t.exprs.len();
                if arity == 0 && !t.values.is_empty() {
                    return Err(format!("table: {} values for no columns", t.values.len()));
                }
                if arity > 0 && !t.values.len().is_multiple_of(arity) {
                    return Err(format!("table: {} values is not a whole number of rows of {arity}", t.values.len()));
                }
                Ok(())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::proto::{
        AllDifferentConstraintProto, ElementConstraintProto, IntegerVariableProto, LinearConstraintProto,
        PartialVariableAssignment, TableConstraintProto,
    };
    use super::*;
    use crate::cpsat::model::{Formulation, build};
    use crate::generate::{PlantedSpec, planted};

    fn var(lo: i64, hi: i64) -> IntegerVariableProto {
        IntegerVariableProto { name: String::new(), domain: vec![lo, hi] }
    }

    fn x(v: i32) -> LinearExpressionProto {
        LinearExpressionProto { vars: vec![v], coeffs: vec![1], offset: 0 }
    }

    fn with(constraint: Constraint) -> CpModelProto {
        CpModelProto {
            variables: vec![var(0, 3), var(0, 1), var(1, 5)],
            constraints: vec![ConstraintProto { constraint: Some(constraint), ..Default::default() }],
            ..Default::default()
        }
    }

    fn refused(model: &CpModelProto, words: &str) {
        let message = super::model(model).expect_err(words).to_string();
        assert!(message.contains(words), "{message} should say {words}");
    }

    #[test]
    fn both_formulations_pass() {
        let instance = planted(&PlantedSpec::square(5, 2, 3, 1)).unwrap().instance;
        for formulation in [Formulation::Table, Formulation::Element] {
            model(&build(&instance, formulation).proto).unwrap();
        }
    }

    #[test]
    fn broken_models_are_refused() {
        let mut m = with(Constraint::AllDiff(AllDifferentConstraintProto { exprs: vec![x(0), x(2)] }));
        model(&m).unwrap();
        m.variables[1].domain = vec![];
        refused(&m, "variable 1");
        m.variables[1].domain = vec![3, 1];
        refused(&m, "is empty");
        m.variables[1].domain = vec![0, 5, 4, 9];
        refused(&m, "sorted");
        m.variables[1].domain = vec![0, 1, 2];
        refused(&m, "even number");
        m.variables[1].domain = vec![0, i64::MAX];
        refused(&m, "beyond");

        refused(&with(Constraint::AllDiff(AllDifferentConstraintProto { exprs: vec![x(0), x(7)] })), "variable 7");
        refused(&with(Constraint::AllDiff(AllDifferentConstraintProto { exprs: vec![x(-1)] })), "variable -1");
        let uneven = LinearExpressionProto { vars: vec![0, 1], coeffs: vec![1], offset: 0 };
        refused(&with(Constraint::AllDiff(AllDifferentConstraintProto { exprs: vec![uneven] })), "coefficients");

        let table = |values: Vec<i64>, exprs| TableConstraintProto { exprs, values, ..Default::default() };
        model(&with(Constraint::Table(table(vec![0, 1, 1, 0], vec![x(0), x(1)])))).unwrap();
        refused(&with(Constraint::Table(table(vec![0, 1, 1], vec![x(0), x(1)]))), "whole number of rows");
        refused(&with(Constraint::Table(table(vec![0], vec![]))), "no columns");

        let element = |exprs| ElementConstraintProto {
            linear_index: Some(x(0)),
            linear_target: Some(x(2)),
            exprs,
            ..Default::default()
        };
        model(&with(Constraint::Element(element(vec![x(2), x(2)])))).unwrap();
        refused(&with(Constraint::Element(element(vec![]))), "no expressions");
        refused(
            &with(Constraint::Element(ElementConstraintProto { exprs: vec![x(2)], ..Default::default() })),
            "linear_index",
        );
        refused(
            &with(Constraint::Element(ElementConstraintProto { vars: vec![], ..Default::default() })),
            "no variables",
        );

        let linear = LinearConstraintProto { vars: vec![0, 2], coeffs: vec![1, -1], domain: vec![] };
        refused(&with(Constraint::Linear(linear)), "linear");

        let mut none = with(Constraint::BoolOr(BoolArgumentProto { literals: vec![1, -2] }));
        model(&none).unwrap();
        none.constraints[0].constraint = Some(Constraint::BoolOr(BoolArgumentProto { literals: vec![0] }));
        refused(&none, "not Boolean");
        none.constraints[0].constraint = None;
        refused(&none, "no constraint type");

        let mut hint = with(Constraint::AllDiff(AllDifferentConstraintProto { exprs: vec![] }));
        hint.solution_hint = Some(PartialVariableAssignment { vars: vec![0, 1], values: vec![1] });
        refused(&hint, "solution hint");
        hint.solution_hint = None;
        hint.assumptions = vec![5];
        refused(&hint, "assumptions");
    }

    #[test]
    fn parameters_out_of_range_are_refused() {
        parameters(&SatParameters { num_workers: Some(8), ..Default::default() }).unwrap();
        for p in [
            SatParameters { num_workers: Some(10_001), ..Default::default() },
            SatParameters { num_workers: Some(-1), ..Default::default() },
            SatParameters { max_time_in_seconds: Some(f64::NAN), ..Default::default() },
            SatParameters { max_time_in_seconds: Some(-1.0), ..Default::default() },
            SatParameters { solution_pool_size: Some(0), ..Default::default() },
        ] {
            assert!(parameters(&p).is_err(), "{p:?}");
        }
        assert!(sizes(MAX_BYTES + 1, 0).is_err());
    }
}
