//! The CP-SAT solver: parameters, the solve through the bridge, and decoding the response into a board.

pub mod bridge;
pub mod maximize;
pub mod model;
pub mod policy;
pub mod proto;
pub mod tuning;
pub mod validate;

use std::time::Instant;

use prost::Message as _;

pub use self::bridge::{SolveEnv, Stopper};
use self::proto::{CpSolverResponse, CpSolverStatus, SatParameters};
use crate::error::Error;
use crate::outcome::{Limits, Outcome, Status};
use crate::puzzle::{Board, Instance, Placement, Rotation};
use crate::stop::Stop;

/// The OR-Tools release the bridge is built and linked against.
pub const ORTOOLS_VERSION: &str = env!("EDGEMATCH_ORTOOLS_VERSION");

/// CP-SAT's own options; time, seed and workers come from [`Limits`].
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Options {
    /// Print CP-SAT's search log (to standard output, where CP-SAT writes it).
    pub log: bool,
    /// Which model to build.
    pub formulation: model::Formulation,
    /// The decision strategy the model carries.
    pub strategy: tuning::Strategy,
    /// Run the native search (one thread) this many seconds first and hint
    /// CP-SAT with its deepest board; the seconds count in the time limit.
    /// The dispatcher composes the two ([`crate::solver`]); [`solve`] takes the board.
    pub hint_seconds: Option<f64>,
    /// Named parameters set on top of the defaults.
    pub params: Vec<tuning::Param>,
}

impl Options {
    /// What differs from the plain model, for messages and records: `, strategy
    /// clues, hint 2 s, search_branching=fixed`; empty when nothing does.
    pub fn variant_suffix(&self) -> String {
        let mut parts = Vec::new();
        if self.strategy != tuning::Strategy::Solver {
            parts.push(format!("strategy {}", self.strategy.name()));
        }
        if let Some(s) = self.hint_seconds {
            parts.push(format!("hint {s} s"));
        }
        parts.extend(self.params.iter().map(ToString::to_string));
        parts.iter().map(|p| format!(", {p}")).collect()
    }
}

/// What CP-SAT's response counted.
#[derive(Clone, Debug, PartialEq, Default, serde::Serialize)]
pub struct Stats {
    /// CP-SAT's own wall time, in seconds.
    pub wall_time: f64,
    /// Conflicts.
    pub conflicts: i64,
    /// Branches.
    pub branches: i64,
    /// Variables of the model.
    pub variables: usize,
    /// Constraints of the model.
    pub constraints: usize,
    /// Workers it ran (`num_workers`; 0 when CP-SAT chose).
    pub workers: u32,
    /// Cells the solution hint gave (0: no hint).
    pub hint_cells: usize,
    /// Seconds the native search ran to make the hint.
    pub hint_seconds: f64,
    /// Solves run one after another (the score's time slices, see [`maximize::maximize_from`]); 0 for one solve.
    pub slices: u32,
    /// True when a slice proved that no board beats the last one found.
    pub proved_optimal: bool,
}

impl Stats {
    /// The counters of `response` to `model`, solved on `workers` with `hint_cells` cells hinted.
    fn of(response: &CpSolverResponse, model: &proto::CpModelProto, workers: u32, hint_cells: usize) -> Stats {
        Stats {
            wall_time: response.wall_time,
            conflicts: response.num_conflicts,
            branches: response.num_branches,
            variables: model.variables.len(),
            constraints: model.constraints.len(),
            workers,
            hint_cells,
            ..Stats::default()
        }
    }
}

/// The `SatParameters` for these options and limits.
pub fn parameters(options: &Options, limits: &Limits) -> Result<SatParameters, Error> {
    Ok(SatParameters {
        max_time_in_seconds: limits.time_limit,
        num_workers: (limits.threads > 0).then_some(limits.threads as i32),
        random_seed: Some(limits.seed_i32()?),
        log_search_progress: Some(options.log),
        // Ctrl-C is ours: the stop handle stops the solve through the bridge.
        catch_sigint_signal: Some(false),
        ..Default::default()
    })
}

/// Builds the model of `instance` in the chosen formulation, solves it until
/// done or `stop` is raised, and decodes the board. A `hint` board (complete or
/// partial) becomes CP-SAT's solution hint. The board returned is the solver's
/// claim: check it before trusting it.
///
/// # Errors
/// A model over the size policy, parameters the bridge refuses, or a response it cannot read.
pub fn solve(
    instance: &Instance,
    options: &Options,
    limits: &Limits,
    hint: Option<&Board>,
    stop: &Stop,
) -> Result<Outcome<Stats>, Error> {
    let start = Instant::now();
    policy::model_size(instance, options.formulation)?;
    let mut model = model::build(instance, options.formulation);
    if options.strategy == tuning::Strategy::Clues {
        model.proto.search_strategy.push(tuning::clue_strategy(instance, &model));
    }
    let mut parameters = parameters(options, limits)?;
    let hint_cells = hint.map_or(0, Board::placed);
    if let Some(board) = hint {
        model.proto.solution_hint = Some(tuning::hint(instance, &model, board));
    }
    for param in &options.params {
        param.apply(&mut parameters);
    }
    let response = solve_proto(&model.proto, &parameters, stop)?;
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
        CpSolverStatus::Unknown if stop.is_raised() => Status::Interrupted,
        CpSolverStatus::Unknown => Status::Unknown,
        CpSolverStatus::ModelInvalid => {
            return Err(Error::Response(format!("CP-SAT rejected the model: {}", response.solution_info)));
        }
    };
    let stats = Stats::of(&response, &model.proto, limits.threads, hint_cells);
    Ok(Outcome { status, board, seconds, stats })
}

/// Every solution of `instance`, up to `cap`, by CP-SAT's enumeration (one
/// worker, presolve keeping all solutions). Returns the boards and whether the
/// enumeration was complete (CP-SAT proved there are no others).
pub fn enumerate(
    instance: &Instance,
    options: &Options,
    limits: &Limits,
    cap: u32,
    stop: &Stop,
) -> Result<(Vec<Board>, bool), Error> {
    policy::model_size(instance, options.formulation)?;
    let model = model::build(instance, options.formulation);
    let parameters = SatParameters {
        num_workers: Some(1),
        enumerate_all_solutions: Some(true),
        fill_additional_solutions_in_response: Some(true),
        solution_pool_size: Some(cap.min(i32::MAX as u32) as i32),
        ..parameters(options, limits)?
    };
    let response = solve_proto(&model.proto, &parameters, stop)?;
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

/// What one region repair found.
#[derive(Clone, Debug)]
pub struct Repair {
    /// The board with the region re-solved (its score at least the input's), when CP-SAT found one.
    pub board: Option<Board>,
    /// Its matched joins, by CP-SAT's objective plus the joins outside the region.
    pub score: usize,
    /// True when CP-SAT proved no placement of the region's pieces does better.
    pub optimal: bool,
    /// True when CP-SAT proved no placement reaches the score asked for.
    pub infeasible: bool,
    /// Seconds CP-SAT ran.
    pub seconds: f64,
    /// CP-SAT's counters and the model's size.
    pub stats: Stats,
}

/// Re-solves `region` of the full `board` exactly: the region's pieces may
/// move and turn within it, every other cell is pinned, and CP-SAT maximizes
/// the matched joins within `limits`. The board returned is a claim: check it.
///
/// # Errors
/// Parameters the bridge refuses, or a response it cannot read.
pub fn repair(
    instance: &Instance,
    board: &Board,
    region: &[usize],
    limits: &Limits,
    stop: &Stop,
) -> Result<Repair, Error> {
    repair_at_least(instance, board, (region, None), limits, stop)
}

/// [`repair`], with the board's score bounded below by `at_least` when given:
/// CP-SAT then reports no board scoring less (and none at all when it cannot reach it).
pub(crate) fn repair_at_least(
    instance: &Instance,
    board: &Board,
    (region, at_least): (&[usize], Option<usize>),
    limits: &Limits,
    stop: &Stop,
) -> Result<Repair, Error> {
    let start = Instant::now();
    let mut model = model::region(instance, board, region);
    if let (Some(at_least), Some(objective)) = (at_least, model.proto.objective.as_mut()) {
        // The objective is the negated sum of the matched-join Booleans (minimized).
        let want = at_least.saturating_sub(model.fixed_score) as i64;
        objective.domain = vec![-(objective.vars.len() as i64), -want.min(objective.vars.len() as i64)];
    }
    let limits = Limits { threads: limits.threads.max(1), ..*limits };
    let response = solve_proto(&model.proto, &parameters(&Options::default(), &limits)?, stop)?;
    let status = CpSolverStatus::try_from(response.status)
        .map_err(|_| Error::Response(format!("unknown status {}", response.status)))?;
    let found = matches!(status, CpSolverStatus::Feasible | CpSolverStatus::Optimal);
    let board = if found { model.decode(&response.solution) } else { None };
    let stats = Stats::of(&response, &model.proto, limits.threads, region.len());
    Ok(Repair {
        score: model.fixed_score + response.objective_value.round().max(0.0) as usize,
        board,
        optimal: status == CpSolverStatus::Optimal,
        infeasible: status == CpSolverStatus::Infeasible,
        seconds: start.elapsed().as_secs_f64(),
        stats,
    })
}

/// Checks a model and parameters ([`validate`]), serializes them, solves on a
/// fresh environment that `stop` stops, and decodes the response. An invalid
/// model or parameter set is an error, and OR-Tools is not called.
pub fn solve_proto(
    model: &proto::CpModelProto,
    parameters: &SatParameters,
    stop: &Stop,
) -> Result<CpSolverResponse, Error> {
    // Checked first: the C API aborts the process on some invalid input.
    validate::model(model)?;
    validate::parameters(parameters)?;
    let (model_bytes, parameter_bytes) = (model.encode_to_vec(), parameters.encode_to_vec());
    validate::sizes(model_bytes.len(), parameter_bytes.len())?;
    let env = SolveEnv::new()?;
    let _hook = stop.on_raise({
        let stopper = env.stopper();
        move || stopper.stop()
    });
    // Only prost-encoded bytes cross the bridge: the C API aborts on bytes it cannot parse.
    let bytes = env.solve_bytes(&model_bytes, &parameter_bytes)?;
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
        match (usize::try_from(piece), Rotation::try_from(turns)) {
            (Ok(piece), Ok(rotation)) => board.cells[cell] = Some(Placement { piece, rotation }),
            _ => return Err(Error::Response(format!("cell {cell}: piece {piece}, rotation {turns} out of range"))),
        }
    }
    Ok(board)
}
