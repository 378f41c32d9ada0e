//! The cxx bridge to HiGHS' C API (from the same OR-Tools wheel): a column-wise MIP and a start in, each improving incumbent and the last one out.
//!
//! With the checks a MIP passes before it crosses: HiGHS reads the
//! column-wise arrays through raw pointers and its own lengths, so an index
//! past a row count or a column start past the end would be read out of
//! bounds inside C++. The arrays are checked here (lengths, column starts, row
//! indices, finite coefficients, ordered bounds, integrality flags, the time
//! limit) and a bad problem becomes an [`Error::Bridge`] naming the array and
//! position, never a call. The size policy (how large a MIP edgematch builds)
//! is `policy.rs`.

#[allow(unreachable_pub, missing_docs)]
#[cxx::bridge(namespace = "edgematch")]
mod ffi {
    // Shared types: the problem and the result cross by value.

    /// A MIP in HiGHS' column-wise form; the objective is maximized.
    struct MipProblem {
        col_cost: Vec<f64>,
        col_lower: Vec<f64>,
        col_upper: Vec<f64>,
        /// 1 for an integer column, 0 for a continuous one.
        integrality: Vec<i32>,
        row_lower: Vec<f64>,
        row_upper: Vec<f64>,
        /// Column starts into `a_index`/`a_value`, one more than the columns.
        a_start: Vec<i32>,
        a_index: Vec<i32>,
        a_value: Vec<f64>,
        /// A start (one value per column), HiGHS' first incumbent when it is
        /// feasible; empty for none.
        start: Vec<f64>,
        /// A lower bound on the objective, posed as one more row over the
        /// objective's columns; `-inf` for none.
        objective_floor: f64,
        /// Seconds; 0 for none.
        time_limit: f64,
        seed: i32,
        log: bool,
    }

    /// What HiGHS returned.
    struct MipResult {
        /// HiGHS' model status (7 optimal, 8 infeasible, 13 time limit, 17 interrupt).
        model_status: i32,
        has_solution: bool,
        objective: f64,
        dual_bound: f64,
        col_value: Vec<f64>,
    }

    /// What HiGHS made of a model file.
    struct LpFileResult {
        /// HiGHS' model status (7 optimal, 8 infeasible, 13 time limit).
        model_status: i32,
        has_solution: bool,
        /// Column names and their values, when there is a solution.
        names: Vec<String>,
        values: Vec<f64>,
    }

    extern "Rust" {
        /// Where HiGHS' improving incumbents go while it runs.
        type Incumbents;

        /// Called from HiGHS' improving-solution callback, on its thread,
        /// with the incumbent's objective and column values.
        fn offer(self: &Incumbents, objective: f64, col_value: &[f64]);
    }

    unsafe extern "C++" {
        include!("edgematch/include/highs_bridge.h");

        /// A stop flag for one solve.
        type MipEnv;

        fn new_mip_env() -> UniquePtr<MipEnv>;
        fn solve_mip(env: &MipEnv, problem: &MipProblem, incumbents: &Incumbents) -> Result<MipResult>;
        fn stop_mip(env: &MipEnv);
        fn solve_model_file(path: &str, time_limit: f64) -> Result<LpFileResult>;
    }
}

// SAFETY: MipEnv holds only an atomic flag, written by `stop_mip` and read by
// HiGHS' callbacks; it is safe to share and send across threads.
unsafe impl Send for ffi::MipEnv {}
// SAFETY: as above.
unsafe impl Sync for ffi::MipEnv {}

use std::sync::Arc;

pub use ffi::{LpFileResult, MipProblem, MipResult};

use crate::error::Error;

/// A stop flag shared between the solving thread and whoever may stop it.
#[derive(Clone)]
pub struct MipEnv(Arc<cxx::UniquePtr<ffi::MipEnv>>);

impl MipEnv {
    /// A fresh, not yet stopped flag.
    pub fn new() -> MipEnv {
        MipEnv(Arc::new(ffi::new_mip_env()))
    }

    /// Asks the solve to stop at its next interrupt check.
    pub fn stop(&self) {
        ffi::stop_mip(&self.0);
    }

    /// Runs HiGHS on the problem, once [`check_problem`] accepted it; each
    /// improving incumbent goes to `incumbents` as HiGHS finds it.
    pub fn solve(&self, problem: &MipProblem, incumbents: &Incumbents) -> Result<MipResult, Error> {
        // Checked first: HiGHS reads the arrays through raw pointers.
        check_problem(problem)?;
        ffi::solve_mip(&self.0, problem, incumbents).map_err(|e| Error::Bridge(e.what().to_owned()))
    }
}

impl Default for MipEnv {
    fn default() -> Self {
        MipEnv::new()
    }
}

/// An improving incumbent HiGHS reported: its objective and column values.
#[derive(Clone, Debug, PartialEq)]
pub struct Incumbent {
    /// HiGHS' objective value of it.
    pub objective: f64,
    /// One value per column.
    pub col_value: Vec<f64>,
}

/// Where each incumbent HiGHS reports goes: a function that must return at
/// once and never panic (it runs inside HiGHS' callback, on its thread), such
/// as a channel's send.
pub struct Incumbents(Box<dyn Fn(Incumbent) + Send + Sync>);

impl Incumbents {
    /// Incumbents handed to `to`.
    pub fn new(to: impl Fn(Incumbent) + Send + Sync + 'static) -> Incumbents {
        Incumbents(Box::new(to))
    }

    fn offer(&self, objective: f64, col_value: &[f64]) {
        (self.0)(Incumbent { objective, col_value: col_value.to_vec() });
    }
}

/// Reads a model file with HiGHS' own readers (`.lp`, `.mps`) and solves it
/// within `time_limit` seconds (0 for none): how the LP export is checked.
pub fn solve_model_file(path: &std::path::Path, time_limit: f64) -> Result<LpFileResult, Error> {
    let text = path.to_str().ok_or_else(|| Error::Options(format!("{}: not a UTF-8 path", path.display())))?;
    ffi::solve_model_file(text, time_limit).map_err(|e| Error::Bridge(e.what().to_owned()))
}

/// Checks a problem; the error names the first array entry at fault.
pub fn check_problem(p: &MipProblem) -> Result<(), Error> {
    check(p).map_err(|m| Error::Bridge(format!("refused before calling HiGHS: {m}")))
}

fn check(p: &MipProblem) -> Result<(), String> {
    let cols = p.col_cost.len();
    let rows = p.row_lower.len();
    let int_max = i32::MAX as usize;
    if cols >= int_max || rows >= int_max || p.a_index.len() >= int_max {
        return Err(format!("{cols} columns, {rows} rows, {} nonzeros exceed HiGHS' 32-bit indices", p.a_index.len()));
    }
    for (name, len) in
        [("col_lower", p.col_lower.len()), ("col_upper", p.col_upper.len()), ("integrality", p.integrality.len())]
    {
        if len != cols {
            return Err(format!("{name} has {len} entries for {cols} columns"));
        }
    }
    if p.row_upper.len() != rows {
        return Err(format!("row_upper has {} entries for {rows} rows", p.row_upper.len()));
    }
    if p.a_start.len() != cols + 1 {
        return Err(format!("a_start has {} entries for {cols} columns (needs one more)", p.a_start.len()));
    }
    if p.a_value.len() != p.a_index.len() {
        return Err(format!("a_value has {} entries, a_index {}", p.a_value.len(), p.a_index.len()));
    }
    if p.a_start[0] != 0 || p.a_start.last().is_some_and(|&end| end as usize != p.a_index.len() || end < 0) {
        return Err(format!("a_start must run from 0 to {} (the nonzeros)", p.a_index.len()));
    }
    if let Some(k) = p.a_start.windows(2).position(|w| w[1] < w[0]) {
        return Err(format!("a_start[{}] = {} is below a_start[{k}] = {}", k + 1, p.a_start[k + 1], p.a_start[k]));
    }
    if let Some(k) = p.a_index.iter().position(|&r| r < 0 || r as usize >= rows) {
        return Err(format!("a_index[{k}] = {} is not a row (0..{rows})", p.a_index[k]));
    }
    if let Some(k) = p.a_value.iter().position(|v| !v.is_finite()) {
        return Err(format!("a_value[{k}] = {} is not finite", p.a_value[k]));
    }
    if let Some(k) = p.col_cost.iter().position(|v| !v.is_finite()) {
        return Err(format!("col_cost[{k}] = {} is not finite", p.col_cost[k]));
    }
    bounds("col", &p.col_lower, &p.col_upper)?;
    bounds("row", &p.row_lower, &p.row_upper)?;
    if let Some(k) = p.integrality.iter().position(|&i| i != 0 && i != 1) {
        return Err(format!("integrality[{k}] = {} is neither 0 nor 1", p.integrality[k]));
    }
    start(p)?;
    if p.objective_floor.is_nan() || p.objective_floor == f64::INFINITY {
        return Err(format!("objective floor {} is not a number below infinity", p.objective_floor));
    }
    if !(p.time_limit.is_finite() && p.time_limit >= 0.0) {
        return Err(format!("time limit {} is not a non-negative number of seconds", p.time_limit));
    }
    Ok(())
}

/// The start: none, or one value per column within the column's bounds.
fn start(p: &MipProblem) -> Result<(), String> {
    if p.start.is_empty() {
        return Ok(());
    }
    if p.start.len() != p.col_cost.len() {
        return Err(format!("start has {} values for {} columns", p.start.len(), p.col_cost.len()));
    }
    let outside = |k: usize| !(p.col_lower[k] <= p.start[k] && p.start[k] <= p.col_upper[k]);
    match (0..p.start.len()).find(|&k| outside(k)) {
        Some(k) => Err(format!("start[{k}] = {} is outside column {k}'s bounds", p.start[k])),
        None => Ok(()),
    }
}

/// Lower and upper bounds: not NaN, lower ≤ upper (infinite bounds allowed).
fn bounds(what: &str, lower: &[f64], upper: &[f64]) -> Result<(), String> {
    match lower.iter().zip(upper).position(|(l, u)| l.is_nan() || u.is_nan() || l > u) {
        Some(k) => Err(format!("{what} {k}: bounds [{}, {}] are not an interval", lower[k], upper[k])),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// max x0 + x1 with x0 + x1 ≤ 1, both binary.
    fn tiny() -> MipProblem {
        MipProblem {
            col_cost: vec![1.0, 1.0],
            col_lower: vec![0.0, 0.0],
            col_upper: vec![1.0, 1.0],
            integrality: vec![1, 1],
            row_lower: vec![f64::NEG_INFINITY],
            row_upper: vec![1.0],
            a_start: vec![0, 1, 2],
            a_index: vec![0, 0],
            a_value: vec![1.0, 1.0],
            start: Vec::new(),
            objective_floor: f64::NEG_INFINITY,
            time_limit: 0.0,
            seed: 1,
            log: false,
        }
    }

    /// An edit that breaks the problem, and what the message must name.
    type Case = (fn(&mut MipProblem), &'static str);

    #[test]
    fn broken_problems_are_refused() {
        check_problem(&tiny()).unwrap();
        let cases: [Case; 12] = [
            (|p| p.a_index[1] = 1, "a_index[1]"),
            (|p| p.a_index[0] = -1, "a_index[0]"),
            (|p| p.a_start = vec![0, 3, 2], "a_start[2]"),
            (|p| p.a_start = vec![0, 1, 5], "a_start must run"),
            (|p| p.a_start.pop().map_or((), drop), "a_start has"),
            (|p| p.a_value[0] = f64::NAN, "a_value[0]"),
            (|p| p.col_lower[1] = 2.0, "col 1"),
            (|p| p.integrality[0] = 2, "integrality[0]"),
            (|p| p.time_limit = f64::NAN, "time limit"),
            (|p| p.start = vec![0.0], "start has 1"),
            (|p| p.start = vec![0.0, 2.0], "start[1]"),
            (|p| p.objective_floor = f64::NAN, "objective floor"),
        ];
        for (breaks, words) in cases {
            let mut p = tiny();
            breaks(&mut p);
            let message = check_problem(&p).unwrap_err().to_string();
            assert!(message.contains(words), "{message} should name {words}");
        }
    }
}
