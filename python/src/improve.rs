//! `edgematch.improve`: CP-SAT's exact repair of a board (a partial one finished first), region by region, each better board checked; the GIL released, Ctrl-C honoured.

use std::sync::Arc;
use std::time::Instant;

use edgematch::formats::load::{self, Loaded};
use edgematch::improve::Stats;
use edgematch::puzzle::Board as CoreBoard;
use edgematch::solver::{self, Limits, Status};
use edgematch::stop::Stop;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::board::Board;
use crate::instance::Instance;
use crate::report::Reporter;
use crate::solve::{cores, json_dict, status_object, wait};
use crate::verify::BoardArg;
use crate::{error, library_error};

/// What `improve` returns: the best board (it passed the checker), its score,
/// and what the repair loop did.
#[pyclass(frozen, module = "edgematch")]
pub(crate) struct Improved {
    status: Status,
    /// The best board: the one given if no region could be bettered.
    #[pyo3(get)]
    board: Py<Board>,
    /// Its matched inner joins, as the checker counted them.
    #[pyo3(get)]
    score: usize,
    /// The inner joins of the instance (the score of a full solution).
    #[pyo3(get)]
    max_score: usize,
    /// Wall-clock seconds the repair ran.
    #[pyo3(get)]
    seconds: f64,
    stats: Stats,
}

#[pymethods]
impl Improved {
    /// `Status.SOLVED` when the board is a full solution, `UNKNOWN` otherwise
    /// (the time limit or the target reached).
    #[getter]
    fn status<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        status_object(py, self.status)
    }

    /// The loop's counters: `rounds` (regions re-solved), `improvements`,
    /// `proved` (regions CP-SAT proved optimal), `from` and `to` (scores).
    #[getter]
    fn stats<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let text = serde_json::to_string(&self.stats).map_err(error)?;
        json_dict(py, &text)
    }

    fn __repr__(&self) -> String {
        format!(
            "Improved(status={:?}, score={} -> {}/{}, rounds={}, seconds={:.3})",
            self.status.to_string(),
            self.stats.from,
            self.score,
            self.max_score,
            self.stats.rounds,
            self.seconds
        )
    }
}

/// Repairs `board` (a Board, or a file or link in any board format; a partial
/// board, its clue cells kept, is first finished by CP-SAT in at most half the
/// time) of `instance` with CP-SAT, one region at a time, until `time_limit`
/// seconds, a full solution, or `target` matched joins. Each better board,
/// once the checker passed it, goes to `on_best(board, score, seconds)` (from
/// the repairing thread, the GIL taken for the call only); if it raises, the
/// repair stops and `improve` raises that exception. `workers` is CP-SAT's
/// per region (default: the cores), `seed` draws the regions. The GIL is
/// released while it runs; Ctrl-C stops it and raises KeyboardInterrupt.
#[pyfunction]
#[pyo3(signature = (instance, board, time_limit=None, target=None, on_best=None, seed=1, workers=None))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn improve(
    py: Python<'_>,
    instance: &Instance,
    board: BoardArg<'_>,
    time_limit: Option<f64>,
    target: Option<usize>,
    on_best: Option<Py<PyAny>>,
    seed: u64,
    workers: Option<u32>,
) -> PyResult<Improved> {
    let loaded = Arc::clone(&instance.loaded);
    let board = full_board(&loaded, board)?;
    let limits = limits(&loaded, time_limit, target, seed, workers)?;
    let stop = Stop::new();
    let reporter = Reporter::of(py, on_best, &loaded, &stop)?;
    let run = {
        let (loaded, stop, reporter) = (Arc::clone(&loaded), stop.clone(), reporter.clone());
        move || repair(&loaded, &board, &limits, target, &stop, reporter.as_deref())
    };
    let answer = py.detach(|| {
        let answer = wait(run, &stop);
        if let Some(reporter) = reporter.as_deref() {
            reporter.close();
        }
        answer
    })?;
    if let Some(failure) = reporter.as_deref().and_then(Reporter::take_failure) {
        return Err(failure);
    }
    let (best, stats, seconds) = answer.map_err(library_error)?;
    improved(py, &loaded, best, stats, seconds)
}

/// The board given, read if a file, of the instance's size.
fn full_board(loaded: &Loaded, board: BoardArg<'_>) -> PyResult<CoreBoard> {
    let board = match board {
        BoardArg::Board(b) => b.get().board.clone(),
        BoardArg::Path(p) => load::board(&p, &loaded.instance).map_err(library_error)?.board,
    };
    let grid = loaded.instance.grid;
    if board.grid != grid {
        return Err(error(format!("board: the board is {}, the instance {grid}", board.grid)));
    }
    Ok(board)
}

/// The repair's limits, checked: a positive time limit, a target within the
/// instance's joins, CP-SAT's seed range, workers the cores unless given.
fn limits(
    loaded: &Loaded,
    time_limit: Option<f64>,
    target: Option<usize>,
    seed: u64,
    workers: Option<u32>,
) -> PyResult<Limits> {
    let grid = loaded.instance.grid;
    if let Some(target) = target.filter(|&t| t > grid.max_score()) {
        return Err(error(format!("target: {target} is above the {} inner joins of a {grid} board", grid.max_score())));
    }
    if workers == Some(0) {
        return Err(error("workers: 0; give at least 1"));
    }
    let limits = crate::solve::limits(solver::SolverKind::Cpsat, time_limit, seed, None)?;
    Ok(Limits { threads: workers.unwrap_or_else(cores), ..limits })
}

/// What the repair thread hands back: the best board, the loop's counters and the seconds it ran.
type Repaired = Result<(CoreBoard, Stats, f64), edgematch::Error>;

/// Runs the library's repair loop, each better board to the reporter.
fn repair(
    loaded: &Loaded,
    board: &CoreBoard,
    limits: &Limits,
    target: Option<usize>,
    stop: &Stop,
    reporter: Option<&Reporter>,
) -> Repaired {
    let start = Instant::now();
    let mut on_better = |board: &CoreBoard, _score: usize, seconds: f64| {
        if let Some(reporter) = reporter {
            reporter.report(board, seconds);
        }
    };
    let (best, stats) = edgematch::improve::improve(&loaded.instance, board, limits, target, stop, &mut on_better)?;
    Ok((best, stats, start.elapsed().as_secs_f64()))
}

/// The loop's answer as `Improved`, once the checker passed its board.
fn improved(py: Python<'_>, loaded: &Arc<Loaded>, best: CoreBoard, stats: Stats, seconds: f64) -> PyResult<Improved> {
    let accepted = solver::accept(&loaded.instance, Status::Unknown, Some(&best))
        .map_err(|e| error(format!("{e}; this is a bug")))?;
    let status = if accepted.solved { Status::Solved } else { Status::Unknown };
    Ok(Improved {
        status,
        board: Py::new(py, Board { board: best, instance: Some(Arc::clone(loaded)) })?,
        score: accepted.score,
        max_score: loaded.instance.grid.max_score(),
        seconds,
        stats,
    })
}
