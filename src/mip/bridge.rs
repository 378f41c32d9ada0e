//! The cxx bridge to HiGHS' C API (from the same OR-Tools wheel): a column-wise MIP in, the incumbent out.

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

    // extern "Rust": nothing is called back from C++.

    unsafe extern "C++" {
        include!("edgematch/include/highs_bridge.h");

        /// A stop flag for one solve.
        type MipEnv;

        fn new_mip_env() -> UniquePtr<MipEnv>;
        fn solve_mip(env: &MipEnv, problem: &MipProblem) -> Result<MipResult>;
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

    /// Runs HiGHS on the problem, once [`super::validate::problem`] accepted it.
    pub fn solve(&self, problem: &MipProblem) -> Result<MipResult, Error> {
        // Checked first: HiGHS reads the arrays through raw pointers.
        super::validate::problem(problem)?;
        ffi::solve_mip(&self.0, problem).map_err(|e| Error::Bridge(e.what().to_owned()))
    }
}

impl Default for MipEnv {
    fn default() -> Self {
        MipEnv::new()
    }
}

/// Reads a model file with HiGHS' own readers (`.lp`, `.mps`) and solves it
/// within `time_limit` seconds (0 for none): how the LP export is checked.
pub fn solve_model_file(path: &std::path::Path, time_limit: f64) -> Result<LpFileResult, Error> {
    let text = path.to_str().ok_or_else(|| Error::Options(format!("{}: not a UTF-8 path", path.display())))?;
    ffi::solve_model_file(text, time_limit).map_err(|e| Error::Bridge(e.what().to_owned()))
}
