//! `edgematch.solve`: one solver on one instance, the GIL released, Ctrl-C honoured; the board only once the checker passed it, each new best of a score search to `on_best`.

use std::sync::Arc;
use std::sync::mpsc;
use std::time::Duration;

use edgematch::formats::load::Loaded;
use edgematch::solver::{self, Limits, Objective, Outcome, Solver, SolverKind, Status};
use edgematch::stop::Stop;
use edgematch::{interrupt, score, score_run};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::board::Board;
use crate::instance::Instance;
use crate::report::Reporter;
use crate::{error, library_error};

static KEEP_FREED_MEMORY: std::sync::Once = std::sync::Once::new();

/// How often the waiting thread looks for Python's signals (Ctrl-C).
const SIGNAL_POLL: Duration = Duration::from_millis(100);

/// What `solve` returns: the status, the verified board (or None), its score,
/// the seconds the solver ran and its counters.
#[pyclass(frozen, module = "edgematch", name = "Result")]
pub(crate) struct SolveResult {
    /// "solved", "infeasible", "unknown" or "interrupted" (`edgematch.Status`).
    status: Status,
    /// The board, after the checker passed it: full when solved; the best
    /// full board for the score objective; possibly partial or None otherwise.
    #[pyo3(get)]
    board: Option<Py<Board>>,
    /// Matched inner joins of the board, as the checker counted them (None without a board).
    #[pyo3(get)]
    score: Option<usize>,
    /// The inner joins of the instance (the score of a full solution).
    #[pyo3(get)]
    max_score: usize,
    /// Wall-clock seconds the solver ran.
    #[pyo3(get)]
    seconds: f64,
    /// The solver that ran ("auto", "cpsat", ...).
    #[pyo3(get)]
    solver: String,
    stats: String,
}

#[pymethods]
impl SolveResult {
    /// `edgematch.Status.SOLVED`, `INFEASIBLE`, `UNKNOWN` or `INTERRUPTED` (equal to "solved", ...).
    #[getter]
    fn status<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        status_object(py, self.status)
    }

    /// The solver's counters, as a dict (the fields of `solve`'s lines, typed per solver).
    #[getter]
    fn stats<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        json_dict(py, &self.stats)
    }

    fn __repr__(&self) -> String {
        let score = self.score.map_or_else(|| "None".to_owned(), |s| s.to_string());
        format!(
            "Result(status={:?}, solver={:?}, score={score}/{}, seconds={:.3})",
            self.status.to_string(),
            self.solver,
            self.max_score,
            self.seconds
        )
    }
}

/// Parses a name the command line takes (`--solver`, `--objective`).
fn named<T: clap::ValueEnum>(what: &str, name: &str) -> PyResult<T> {
    T::from_str(name, false).map_err(|_| {
        let names: Vec<String> =
            T::value_variants().iter().filter_map(|v| v.to_possible_value()).map(|v| v.get_name().to_owned()).collect();
        error(format!("{what}: unknown name {name:?}; expected one of {}", names.join(", ")))
    })
}

/// A JSON object's text as a Python dict (a result's counters, as `stats` gives them).
pub(crate) fn json_dict<'py>(py: Python<'py>, text: &str) -> PyResult<Bound<'py, PyDict>> {
    py.import("json")?.call_method1("loads", (text,))?.cast_into::<PyDict>().map_err(Into::into)
}

/// The library's status as `edgematch.Status` (a `str` enum defined in Python).
pub(crate) fn status_object(py: Python<'_>, status: Status) -> PyResult<Bound<'_, PyAny>> {
    py.import("edgematch._status")?.getattr("Status")?.call1((status.to_string(),))
}

/// Solves `instance` with `solver` ("auto", "search", "sat", "cpsat", "dfs",
/// "mip") for `objective` ("full": a solution or a proof there is none;
/// "score": the best full board by matched joins) within `time_limit` seconds.
/// For the score objective, `target` stops the run once a board scores at
/// least that, and `on_best(board, score, seconds)` is called with each new
/// best board once the checker passed it (from the solving thread, the GIL
/// taken for the call only); if it raises, the run stops and `solve` raises
/// that exception. The GIL is released while it runs; Ctrl-C stops the solver
/// and raises KeyboardInterrupt.
#[pyfunction]
#[pyo3(signature = (instance, solver="auto", time_limit=None, objective="full", seed=1, threads=None, target=None, on_best=None))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn solve(
    py: Python<'_>,
    instance: &Instance,
    solver: &str,
    time_limit: Option<f64>,
    objective: &str,
    seed: u64,
    threads: Option<u32>,
    target: Option<usize>,
    on_best: Option<Py<PyAny>>,
) -> PyResult<SolveResult> {
    let kind: SolverKind = named("solver", solver)?;
    let objective: Objective = named("objective", objective)?;
    let loaded = Arc::clone(&instance.loaded);
    let options = score_options(objective, &loaded, target, on_best.is_some())?;
    let limits = limits(kind, time_limit, seed, threads)?;
    let stop = Stop::new();
    let reporter = Reporter::of(py, on_best, &loaded, &stop)?;
    let run = {
        let (loaded, stop, reporter) = (Arc::clone(&loaded), stop.clone(), reporter.clone());
        move || run(&Solver::new(kind), &options, &loaded, &limits, &stop, reporter.as_deref())
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
    result(py, kind, &loaded, &stop, answer.map_err(library_error)?)
}

/// The score search's options (`None` for the full objective), with `target`
/// checked; `target` and `on_best` are refused for the full objective.
fn score_options(
    objective: Objective,
    loaded: &Loaded,
    target: Option<usize>,
    on_best: bool,
) -> PyResult<Option<score::Options>> {
    let instance = &loaded.instance;
    if objective == Objective::Full {
        return match (target, on_best) {
            (Some(_), _) => Err(error("target: only for objective=\"score\"")),
            (_, true) => Err(error("on_best: only for objective=\"score\"")),
            _ => Ok(None),
        };
    }
    let max = instance.grid.max_score();
    if let Some(target) = target.filter(|&t| t > max) {
        return Err(error(format!("target: {target} is above the {max} inner joins of a {} board", instance.grid)));
    }
    let options = score::Options { target, ..score::Options::default() };
    options.check(instance).map_err(|e| error(format!("objective score: {e}")))?;
    Ok(Some(options))
}

/// The run's limits, checked: the time limit positive, the seed CP-SAT's, the
/// threads the solver's default for this machine unless given.
pub(crate) fn limits(kind: SolverKind, time_limit: Option<f64>, seed: u64, threads: Option<u32>) -> PyResult<Limits> {
    if let Some(t) = time_limit.filter(|t| !(t.is_finite() && *t > 0.0)) {
        return Err(error(format!("time_limit: {t} is not a positive number of seconds")));
    }
    if !edgematch::outcome::SEED_RANGE.contains(&seed) {
        return Err(error(format!("seed: {seed} is above {}", edgematch::outcome::SEED_RANGE.end())));
    }
    // As the command line does at its start (the first solve here): without it
    // the solver threads' heaps are trimmed and regrown (1.17x the CLI's time).
    KEEP_FREED_MEMORY.call_once(edgematch::memory::keep_freed_memory);
    let threads = threads.unwrap_or_else(|| kind.threads(cores()));
    Ok(Limits { time_limit, node_limit: None, seed, threads })
}

/// The machine's cores.
pub(crate) fn cores() -> u32 {
    std::thread::available_parallelism().map_or(1, |n| n.get() as u32)
}

/// The solver's outcome as a `Result`, once the checker passed its board.
fn result(
    py: Python<'_>,
    kind: SolverKind,
    loaded: &Arc<Loaded>,
    stop: &Stop,
    outcome: Outcome,
) -> PyResult<SolveResult> {
    // The checker, as in the command line: a board is returned only once it passed.
    let accepted = solver::accept(&loaded.instance, outcome.status, outcome.board.as_ref())
        .map_err(|e| error(format!("{e}; this is a bug")))?;
    let status =
        if stop.is_raised() && outcome.status != Status::Solved { Status::Interrupted } else { outcome.status };
    let board =
        outcome.board.map(|board| Py::new(py, Board { board, instance: Some(Arc::clone(loaded)) })).transpose()?;
    Ok(SolveResult {
        status,
        score: accepted.report.as_ref().map(|r| r.score),
        max_score: loaded.instance.grid.max_score(),
        board,
        seconds: outcome.seconds,
        solver: kind.name().to_owned(),
        stats: serde_json::to_string(&outcome.stats).map_err(error)?,
    })
}

/// What the solver's thread hands back.
type Answer = Result<Outcome, edgematch::Error>;

/// Runs the solver; with score options (the score objective) its outcome's
/// board is its best one, and each new best goes to the reporter.
fn run(
    solver: &Solver,
    options: &Option<score::Options>,
    loaded: &Loaded,
    limits: &Limits,
    stop: &Stop,
    reporter: Option<&Reporter>,
) -> Answer {
    let instance = &loaded.instance;
    match options {
        None => solver.solve(instance, limits, stop),
        Some(options) => {
            // The library's score run, as the command line calls it: each best checked before the callback sees it.
            let run = score_run::Run::open(instance, solver, options.clone(), limits, score_run::Setup::default())?;
            run.solve(stop, &Bests { reporter })
        }
    }
}

/// What the score run hands Python: each verified new best, to the reporter.
struct Bests<'a> {
    reporter: Option<&'a Reporter>,
}

impl score_run::Sink for Bests<'_> {
    fn best(&self, best: &score_run::Verified<'_>) {
        if let Some(reporter) = self.reporter {
            reporter.report(best.board, best.seconds);
        }
    }
}

/// Runs `work` on its own thread and waits for it, looking for Python's
/// signals every [`SIGNAL_POLL`]. On Ctrl-C (a signal handler raising) the
/// stop is raised and the solver gets [`interrupt::GRACE`] to return; the
/// signal's exception is raised in any case, the thread left to finish alone
/// if it did not return (HiGHS may not look at its callback for a while).
pub(crate) fn wait<T: Send + 'static>(work: impl FnOnce() -> T + Send + 'static, stop: &Stop) -> PyResult<T> {
    let (tx, rx) = mpsc::channel();
    let _ = std::thread::Builder::new()
        .name("edgematch-solve".to_owned())
        .spawn(move || {
            let _ = tx.send(work());
        })
        .map_err(|e| error(format!("cannot start the solver's thread: {e}")))?;
    loop {
        match rx.recv_timeout(SIGNAL_POLL) {
            Ok(answer) => return Ok(answer),
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                return Err(error("the solver's thread panicked; this is a bug"));
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {
                if let Err(signal) = Python::attach(|py| py.check_signals()) {
                    stop.raise();
                    let _ = rx.recv_timeout(interrupt::GRACE.min(Duration::from_millis(1500)));
                    return Err(signal);
                }
            }
        }
    }
}
