//! The CP-SAT solver: parameters, the solve through the bridge, and decoding the response into a board.

pub mod bridge;
pub mod model;
pub mod proto;

use std::time::Instant;

use prost::Message as _;

pub use self::bridge::{SolveEnv, Stopper};
use self::proto::{CpSolverResponse, CpSolverStatus, SatParameters};
use crate::error::Error;
use crate::puzzle::{Board, Instance, Placement, Rotation};
use crate::solver::{Outcome, Status};

/// The OR-Tools release the bridge is built and linked against.
pub const ORTOOLS_VERSION: &str = env!("EDGEMATCH_ORTOOLS_VERSION");

/// How to run CP-SAT.
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    /// Wall-clock limit in seconds; `None` runs until an answer.
    pub time_limit: Option<f64>,
    /// Parallel workers (CP-SAT's `num_workers`); 0 lets CP-SAT choose.
    pub workers: u32,
    /// CP-SAT's `random_seed`.
    pub seed: i32,
    /// Print CP-SAT's search log (to standard output, where CP-SAT writes it).
    pub log: bool,
    /// Which model to build.
    pub formulation: model::Formulation,
}

impl Default for Options {
    fn default() -> Self {
        Options { time_limit: None, workers: 0, seed: 1, log: false, formulation: model::Formulation::default() }
    }
}

impl Options {
    /// The `SatParameters` these options stand for.
    pub fn parameters(&self) -> SatParameters {
        SatParameters {
            max_time_in_seconds: self.time_limit,
            num_workers: (self.workers > 0).then_some(self.workers as i32),
            random_seed: Some(self.seed),
            log_search_progress: Some(self.log),
            // Ctrl-C is ours: the process handler stops the solve through the bridge.
            catch_sigint_signal: Some(false),
            ..Default::default()
        }
    }
}

/// Builds the model of `instance` in the chosen formulation, solves it on `env`, and decodes
/// the board. The board is the solver's claim: check it before trusting it.
pub fn solve(instance: &Instance, options: &Options, env: &SolveEnv) -> Result<Outcome, Error> {
    let start = Instant::now();
    let model = model::build(instance, options.formulation);
    let response = solve_proto(&model.proto, &options.parameters(), env)?;
    let seconds = start.elapsed().as_secs_f64();
    let status = CpSolverStatus::try_from(response.status)
        .map_err(|_| Error::Response(format!("unknown status {}", response.status)))?;
    let board = match status {
        CpSolverStatus::Feasible | CpSolverStatus::Optimal => Some(decode(instance, &model, &response.solution)?),
        _ => None,
    };
    let status = match status {
        CpSolverStatus::Feasible | CpSolverStatus::Optimal => Status::Solved,
        CpSolverStatus::Infeasible => Status::Infeasible,
        CpSolverStatus::Unknown => Status::Unknown,
        CpSolverStatus::ModelInvalid => {
            return Err(Error::Response(format!("CP-SAT rejected the model: {}", response.solution_info)));
        }
    };
    let statistics = vec![
        ("cpsat_wall_time", format!("{:.3}", response.wall_time)),
        ("conflicts", response.num_conflicts.to_string()),
        ("branches", response.num_branches.to_string()),
        ("variables", model.proto.variables.len().to_string()),
        ("constraints", model.proto.constraints.len().to_string()),
    ];
    Ok(Outcome { status, board, seconds, statistics })
}

/// Every solution of `instance`, up to `cap`, by CP-SAT's enumeration (one
/// worker, presolve keeping all solutions). Returns the boards and whether the
/// enumeration was complete (CP-SAT proved there are no others).
pub fn enumerate(
    instance: &Instance,
    options: &Options,
    cap: u32,
    env: &SolveEnv,
) -> Result<(Vec<Board>, bool), Error> {
    let model = model::build(instance, options.formulation);
    let parameters = SatParameters {
        num_workers: Some(1),
        enumerate_all_solutions: Some(true),
        fill_additional_solutions_in_response: Some(true),
        solution_pool_size: Some(cap.min(i32::MAX as u32) as i32),
        ..options.parameters()
    };
    let response = solve_proto(&model.proto, &parameters, env)?;
    let complete =
        matches!(CpSolverStatus::try_from(response.status), Ok(CpSolverStatus::Optimal | CpSolverStatus::Infeasible))
            && response.additional_solutions.len() < cap as usize;
    let boards = response
        .additional_solutions
        .iter()
        .map(|s| decode(instance, &model, &s.values))
        .collect::<Result<Vec<_>, _>>()?;
    Ok((boards, complete))
}

/// Serializes a model and parameters, solves, and decodes the response.
pub fn solve_proto(
    model: &proto::CpModelProto,
    parameters: &SatParameters,
    env: &SolveEnv,
) -> Result<CpSolverResponse, Error> {
    // Only prost-encoded bytes cross the bridge: the C API aborts on bytes it cannot parse.
    let bytes = env.solve_bytes(&model.encode_to_vec(), &parameters.encode_to_vec())?;
    CpSolverResponse::decode(bytes.as_slice()).map_err(|e| Error::Response(e.to_string()))
}

/// Reads each cell's piece and rotation out of a solution vector.
fn decode(instance: &Instance, model: &model::Model, values: &[i64]) -> Result<Board, Error> {
    if values.len() != model.proto.variables.len() {
        return Err(Error::Response(format!("{} values for {} variables", values.len(), model.proto.variables.len())));
    }
    let mut board = Board::empty(instance.grid);
    for (cell, vars) in model.cells.iter().enumerate() {
        let piece = values[vars.piece as usize];
        let turns = values[vars.rotation as usize];
        let rotation = u8::try_from(turns).ok().and_then(Rotation::new);
        match (usize::try_from(piece), rotation) {
            (Ok(piece), Some(rotation)) => board.cells[cell] = Some(Placement { piece, rotation }),
            _ => return Err(Error::Response(format!("cell {cell}: piece {piece}, rotation {turns} out of range"))),
        }
    }
    Ok(board)
}
