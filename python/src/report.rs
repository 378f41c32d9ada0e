//! `on_best`: each new best board, once the checker passed it, handed to a Python callable from the solving thread.

use std::sync::{Arc, Mutex, MutexGuard};

use edgematch::formats::load::Loaded;
use edgematch::outcome::{Ranked, rank};
use edgematch::puzzle::Board as CoreBoard;
use edgematch::stop::Stop;
use pyo3::prelude::*;

use crate::board::Board;
use crate::error;

/// Calls a Python callable with `(board, score, seconds)` for each new best
/// board a solver reports. The score is the checker's count; a board that
/// does not beat the last board passed on is dropped, so the scores passed on
/// strictly increase; a board the checker rejects stops the run, and the
/// call raises `edgematch.Error` with the checker's word. Calls are one at a
/// time, in order, the GIL taken only for the call. If the callable raises,
/// the run is stopped and the exception kept for [`Reporter::take_failure`];
/// once [`Reporter::close`] has returned, nothing is called any more.
pub(crate) struct Reporter {
    callback: Py<PyAny>,
    loaded: Arc<Loaded>,
    stop: Stop,
    state: Mutex<State>,
}

/// What the reporter has done so far.
#[derive(Default)]
struct State {
    /// The checker's score of the last board passed on.
    last: Option<usize>,
    /// The callable's exception, or the checker's rejection, if either came.
    failure: Option<PyErr>,
    /// Set when the call to `solve` or `improve` is over.
    closed: bool,
}

impl Reporter {
    /// A reporter calling `callback` with boards of `loaded`, raising `stop` if the callback raises.
    fn new(callback: Py<PyAny>, loaded: Arc<Loaded>, stop: Stop) -> Reporter {
        Reporter { callback, loaded, stop, state: Mutex::new(State::default()) }
    }

    /// The reporter of an `on_best` argument: None without one; a value that
    /// is not callable is refused before the run starts.
    pub(crate) fn of(
        py: Python<'_>,
        on_best: Option<Py<PyAny>>,
        loaded: &Arc<Loaded>,
        stop: &Stop,
    ) -> PyResult<Option<Arc<Reporter>>> {
        let Some(callback) = on_best else { return Ok(None) };
        if !callback.bind(py).is_callable() {
            let kind = callback.bind(py).get_type().name()?;
            return Err(error(format!("on_best: expected a callable (board, score, seconds), got {kind}")));
        }
        Ok(Some(Arc::new(Reporter::new(callback, Arc::clone(loaded), stop.clone()))))
    }

    fn state(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Checks `board` and, if it beats the last board passed on, calls the
    /// callable with it. Holds the lock for the whole call: calls never overlap
    /// and a later, better board waits for an earlier one's call to return.
    /// The caller must not hold the GIL (the call takes it).
    pub(crate) fn report(&self, board: &CoreBoard, seconds: f64) {
        let mut state = self.state();
        if state.closed || state.failure.is_some() {
            return;
        }
        let score = match rank(&self.loaded.instance, board, state.last) {
            Ok(Ranked::Better(score)) => score,
            Ok(Ranked::NotBetter(_)) => return,
            Err(rejected) => {
                // The solver's bug: the run ends, and the call raises the checker's word.
                state.failure = Some(error(format!("{rejected}; this is a bug")));
                self.stop.raise();
                return;
            }
        };
        state.last = Some(score);
        if let Err(e) = self.call(board, score, seconds) {
            state.failure = Some(e);
            self.stop.raise();
        }
    }

    /// The call itself, with the GIL.
    fn call(&self, board: &CoreBoard, score: usize, seconds: f64) -> PyResult<()> {
        Python::attach(|py| {
            let board = Board { board: board.clone(), instance: Some(Arc::clone(&self.loaded)) };
            self.callback.call1(py, (Py::new(py, board)?, score, seconds)).map(drop)
        })
    }

    /// Ends the reporting: waits for a call under way to return; no call
    /// starts after this. The caller must not hold the GIL.
    pub(crate) fn close(&self) {
        self.state().closed = true;
    }

    /// The callable's exception, or the checker's rejection, if either came.
    pub(crate) fn take_failure(&self) -> Option<PyErr> {
        self.state().failure.take()
    }
}
