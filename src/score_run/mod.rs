//! One score run, as every front end calls it: the solver, the checker before anyone sees a board, and the run's files, trace, heartbeat and sink.
//!
//! The command line (`solve --objective score`), the Python package and the
//! score bench all open a [`Run`] and call [`Run::solve`] with a [`Sink`] of
//! their own; none settles a plan, reads a checkpoint or checks a board
//! itself. The run:
//! - reads its checkpoint, if one is given and exists, and resumes the better
//!   board of it and `--out`; a checkpoint with a run state goes on with its
//!   seed, its settled plan (no pilot walks again), a new generation of
//!   attempt seeds, and the time left (`resume.rs`);
//! - hands the solver an [`score::Events`] of its own (`feed.rs`): each new
//!   best goes through the checker (a rejected board ends the run with
//!   [`Error::Rejected`]), to `--out` and the checkpoint (one owner,
//!   [`BestFiles`], never a worse board), to the trace, then to the sink;
//! - saves the checkpoint on a timer with where the walks stand, and gives
//!   the sink a heartbeat on another.

mod feed;
mod resume;
pub mod sink;

use std::path::PathBuf;
use std::sync::Mutex;
use std::time::Duration;

pub use sink::{Heartbeat, Resumed, Sink, Verified};

use crate::best_file::BestFiles;
use crate::crew::Crew;
use crate::error::Error;
use crate::outcome::Status;
use crate::puzzle::{Board, Instance};
use crate::score;
use crate::solver::{Limits, Outcome, Solver, Stats};
use crate::stop::{RaiseOnDrop, Stop};

/// Seconds between two checkpoints, unless the caller says otherwise.
pub const CHECKPOINT_EVERY: f64 = 60.0;

/// Seconds between two heartbeats of the command line, unless it is told otherwise.
pub const HEARTBEAT_EVERY: f64 = 60.0;

/// What a run keeps beside the solver's options: its files and its clocks.
#[derive(Clone, Debug)]
pub struct Setup {
    /// The best board, written whole at each new best.
    pub out: Option<PathBuf>,
    /// The run's state, written whole at each new best and every `checkpoint_every`;
    /// an existing one is resumed.
    pub checkpoint: Option<PathBuf>,
    /// Time between two checkpoints.
    pub checkpoint_every: Duration,
    /// One JSON line per new best: {"seconds", "score"} (at most one per score, so bounded by the joins).
    pub trace: Option<PathBuf>,
    /// Time between two heartbeats (`None`: none).
    pub heartbeat: Option<Duration>,
}

impl Default for Setup {
    fn default() -> Setup {
        Setup {
            out: None,
            checkpoint: None,
            checkpoint_every: Duration::from_secs_f64(CHECKPOINT_EVERY),
            trace: None,
            heartbeat: None,
        }
    }
}

/// A score run, opened and ready to solve.
pub struct Run<'a> {
    instance: &'a Instance,
    solver: &'a Solver,
    setup: Setup,
    files: BestFiles<'a>,
    /// The options and limits this segment runs with (a resume's applied).
    options: score::Options,
    limits: Limits,
    resumed: Option<Resumed>,
    /// Placements of the earlier segments (from the checkpoint's run state).
    placements_before: u64,
}

impl<'a> Run<'a> {
    /// Opens a run of `solver` on `instance`: checks the options, creates the
    /// trace file, reads the checkpoint and the board in `--out`, and settles
    /// where the run starts. `limits.time_limit` is the whole run's: a resumed
    /// run gets what its earlier segments left.
    ///
    /// # Errors
    /// Bad options, a trace file that cannot be created, or a checkpoint that
    /// cannot be read or belongs to another instance.
    pub fn open(
        instance: &'a Instance,
        solver: &'a Solver,
        options: score::Options,
        limits: &Limits,
        setup: Setup,
    ) -> Result<Run<'a>, Error> {
        options.check(instance).map_err(Error::Options)?;
        if let Some(trace) = &setup.trace {
            // Created (or kept) up front, so a bad path fails before the run.
            let _ = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(trace)
                .map_err(|source| Error::Io { path: trace.clone(), source })?;
        }
        let saved = resume::read(setup.checkpoint.as_deref(), instance)?;
        let before = saved.as_ref().map_or(0.0, |c| c.seconds);
        let files = BestFiles::open(instance, setup.out.as_deref(), setup.checkpoint.as_deref(), before);
        let start = resume::start(solver, options, limits, &files, setup.checkpoint.as_deref(), saved)?;
        if setup.checkpoint.is_some() {
            files.set_run(start.state.clone());
            // The new generation is on disk before any attempt of it is walked.
            files.save()?;
        }
        Ok(Run {
            instance,
            solver,
            setup,
            files,
            placements_before: start.state.placements,
            options: start.options,
            limits: start.limits,
            resumed: start.resumed,
        })
    }

    /// Runs the solver for the best board until its limits or `stop`, each
    /// new best checked, written, traced and handed to `sink`. Returns the
    /// best board of the run (a resumed board included), the checkpoint saved
    /// (however the run ends).
    ///
    /// # Errors
    /// [`Error::Rejected`] when the checker rejected a board the solver
    /// offered (a bug: the run ended on it), [`Error::Panicked`] when a
    /// thread of the run died (a bug too: every other thread ended on it),
    /// or the solver's own error. The best verified board is on disk in
    /// every case.
    pub fn solve(&self, stop: &Stop, sink: &dyn Sink) -> Result<Outcome, Error> {
        if let Some(resumed) = &self.resumed {
            sink.resumed(resumed);
        }
        if self.limits.time_limit.is_some_and(|t| t <= 0.0) {
            // The whole time limit was spent by the earlier segments.
            self.save(sink);
            return Ok(self.left_over());
        }
        let run = stop.child();
        let raise = || run.raise();
        let crew = Crew::new(&raise);
        let feed = feed::Feed {
            files: &self.files,
            options: &self.options,
            trace: self.setup.trace.as_deref(),
            sink,
            stop: &run,
            rejected: Mutex::new(None),
            last: Mutex::new(None),
            placements_before: self.placements_before,
        };
        let every = self.setup.checkpoint.as_ref().map(|_| self.setup.checkpoint_every);
        let finished = Stop::new();
        let solved = std::thread::scope(|scope| {
            // Raised however the solver returns (a panic too), so the timer thread ends.
            let _finished = RaiseOnDrop(&finished);
            let keep = || feed.keep(every, self.setup.heartbeat, &finished);
            let _ = crew.spawn(scope, "checkpoint timer".to_owned(), keep);
            crew.guard("solver", || self.solver.solve_score(self.instance, &self.options, &self.limits, &run, &feed))
        });
        let outcome = self.conclude(solved, &crew, &feed);
        self.save(sink);
        outcome
    }

    /// How the run ended: the checker's rejection first (the feed's), then a
    /// thread that died, then the solver's own error, else its outcome with the run's best board.
    ///
    /// # Errors
    /// As [`Run::solve`].
    fn conclude(
        &self,
        solved: Option<Result<Outcome, Error>>,
        crew: &Crew<'_>,
        feed: &feed::Feed<'_>,
    ) -> Result<Outcome, Error> {
        if let Some(why) = feed.rejected() {
            return Err(Error::Rejected(why));
        }
        crew.check()?;
        match solved {
            Some(outcome) => self.ended(outcome?, feed),
            None => Err(Error::Options("the solver ended without an answer".to_owned())),
        }
    }

    /// The solver's outcome with the run's best board: the solver's last
    /// board is offered once more (through the checker), and the best board
    /// the files hold (a resumed one, or one the solver reported but did not
    /// return) replaces a worse one.
    ///
    /// # Errors
    /// [`Error::Rejected`] when the checker rejects the solver's last board.
    fn ended(&self, mut outcome: Outcome, feed: &feed::Feed<'_>) -> Result<Outcome, Error> {
        if let Some(board) = &outcome.board
            && board.placed() == board.cells.len()
        {
            score::Events::best(feed, &score::Best { board: board.clone(), score: 0, seconds: outcome.seconds });
        }
        if let Some(why) = feed.rejected() {
            return Err(Error::Rejected(why));
        }
        let score = |b: &Board| b.score(self.instance);
        if let Some((best, best_score)) = self.files.best()
            && outcome.board.as_ref().is_none_or(|b| b.placed() < b.cells.len() || score(b) < best_score)
        {
            outcome.board = Some(best);
        }
        Ok(outcome)
    }

    /// Saves the checkpoint with the run's last state (a failure said to `sink`).
    fn save(&self, sink: &dyn Sink) {
        if let Err(error) = self.files.save() {
            sink.warning(&error.to_string());
        }
    }

    /// The outcome of a run with no time left: the resumed board, unproven.
    fn left_over(&self) -> Outcome {
        Outcome {
            status: Status::Unknown,
            board: self.options.incumbent.clone(),
            seconds: 0.0,
            stats: Stats::Score(score::Stats::default()),
        }
    }
}

#[cfg(test)]
mod tests;
