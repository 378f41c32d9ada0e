//! The portfolio: several solvers raced on threads; the first board the checker accepts wins.
//!
//! Each arm runs on its own thread with its own child [`Stop`], so the winner
//! stops the others and Ctrl-C (raising the parent) stops them all. An arm's
//! answer counts only after [`accept`] passed it; a proof of infeasibility from
//! a complete arm ends the race too. The race returns when every arm has
//! returned, so no thread outlives it.
//!
//! The race knows no solver: an arm is anything that implements [`Entrant`]
//! (the dispatcher's [`crate::solver::Solver`] does), and the dispatcher chooses
//! the default arms.

use std::io::IsTerminal as _;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde::Serialize;

use crate::error::Error;
use crate::outcome::{Accepted, Limits, Outcome, Status, accept};
use crate::puzzle::{Board, Instance};
use crate::stop::Stop;

/// A solver the race can run.
pub trait Entrant: Sync {
    /// Its name in reports (`search`, `cpsat`, ...).
    fn name(&self) -> &'static str;

    /// Solves `instance` within `limits` until done or `stop` is raised: the
    /// status, the board it claims (the race checks it) and when it had them.
    ///
    /// # Errors
    /// Whatever the solver reports as an error; the race records it and goes on.
    fn enter(&self, instance: &Instance, limits: &Limits, stop: &Stop) -> Result<Answer, Error>;
}

/// What an arm claims.
#[derive(Clone, Debug, PartialEq)]
pub struct Answer {
    /// How it ended.
    pub status: Status,
    /// Its board, if any.
    pub board: Option<Board>,
    /// Seconds from its start until it had this answer, by its own clock: the
    /// time it then spends freeing its solver (0.1 s for CaDiCaL on 850,000
    /// clauses) is not the race's, as it is not the arm's when it runs alone.
    pub seconds: f64,
}

/// One arm: a solver and the threads it may use.
#[derive(Clone, Debug, PartialEq)]
pub struct Arm<S> {
    /// The solver.
    pub solver: S,
    /// Its threads: CP-SAT's workers, the native search's threads; CaDiCaL and the others run one.
    pub threads: u32,
}

/// The arms to race; empty means "choose by the instance" (the dispatcher's
/// [`crate::solver::default_arms`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Options<S> {
    /// The arms, in the order they are listed in reports.
    pub arms: Vec<Arm<S>>,
    /// Show a live status line on stderr (when it is a terminal; plain lines otherwise).
    pub progress: bool,
}

impl<S> Default for Options<S> {
    fn default() -> Self {
        Options { arms: Vec::new(), progress: false }
    }
}

/// How one arm ended.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ArmReport {
    /// The solver's name.
    pub solver: String,
    /// Its threads.
    pub threads: u32,
    /// How it ended (`interrupted` when the race stopped it).
    pub status: Status,
    /// Seconds from the start of the race until it had its answer (see [`Answer::seconds`]).
    pub seconds: f64,
    /// An error it returned, or the checker's rejection of its board.
    pub error: Option<String>,
}

/// What the race counted.
#[derive(Clone, Debug, PartialEq, Default, Serialize)]
pub struct Stats {
    /// The arm whose answer ended the race.
    pub winner: Option<String>,
    /// Seconds from the race's start until the winner returned its answer, by
    /// the arm's own clock (the checker's time after it is not counted).
    pub winner_seconds: Option<f64>,
    /// Every arm, in the order of the options.
    pub arms: Vec<ArmReport>,
}

impl Stats {
    /// Name and value of each counter, as `solve` prints them.
    pub fn lines(&self) -> Vec<(&'static str, String)> {
        let mut lines = vec![
            ("winner", self.winner.clone().unwrap_or_else(|| "none".to_owned())),
            ("winner_seconds", self.winner_seconds.map_or_else(|| "-".to_owned(), |s| format!("{s:.3}"))),
        ];
        for arm in &self.arms {
            let error = arm.error.as_ref().map_or(String::new(), |e| format!(" ({e})"));
            lines.push((
                "arm",
                format!("{} x{}: {} after {:.3} s{error}", arm.solver, arm.threads, arm.status, arm.seconds),
            ));
        }
        lines
    }
}

/// What an arm's thread sends back.
struct Finished {
    index: usize,
    outcome: Result<((Status, Option<Board>), Accepted), Error>,
    seconds: f64,
}

/// Races `arms` on `instance` within `limits` (its threads are ignored: each
/// arm has its own). Returns the winner's status and board (already accepted)
/// or, if no arm won, the best accepted board any arm returned.
///
/// # Errors
/// Only when every arm failed; the errors are listed.
pub fn race<S: Entrant>(
    instance: &Instance,
    arms: &[Arm<S>],
    progress: bool,
    limits: &Limits,
    stop: &Stop,
) -> Result<Outcome<Stats>, Error> {
    let start = Instant::now();
    let stops: Vec<Stop> = arms.iter().map(|_| stop.child()).collect();
    let mut standings = Standings::new(arms.len());
    let mut status = Progress::new(progress, arms);
    crate::live::arms(&arms.iter().map(|a| (a.solver.name().to_owned(), a.threads)).collect::<Vec<_>>());
    std::thread::scope(|scope| {
        let (tx, rx) = mpsc::channel::<Finished>();
        for (index, (arm, arm_stop)) in arms.iter().zip(&stops).enumerate() {
            let tx = tx.clone();
            let arm_limits = Limits { threads: arm.threads, ..*limits };
            let _ = scope.spawn(move || {
                let _ = tx.send(run_arm(index, arm, (instance, &arm_limits, arm_stop), start));
            });
        }
        drop(tx);
        let mut running = arms.len();
        while running > 0 {
            let finished = match rx.recv_timeout(Duration::from_millis(250)) {
                Ok(finished) => finished,
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    status.tick(start, &standings.reports);
                    continue;
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => break,
            };
            running -= 1;
            let report = standings.record(finished, arms, &stops);
            status.finished(report);
        }
    });
    status.clear();
    standings.conclude(arms, stop, start)
}

/// Runs one arm on its thread (started `start`): its answer, checked, and
/// its seconds from the race's start by its own clock.
fn run_arm<S: Entrant>(
    index: usize,
    arm: &Arm<S>,
    (instance, limits, stop): (&Instance, &Limits, &Stop),
    start: Instant,
) -> Finished {
    let began = start.elapsed().as_secs_f64();
    let mut seconds = None;
    let outcome = arm.solver.enter(instance, limits, stop).and_then(|answer| {
        seconds = Some(began + answer.seconds);
        let accepted = accept(instance, answer.status, answer.board.as_ref())?;
        Ok(((answer.status, answer.board), accepted))
    });
    let seconds = seconds.unwrap_or_else(|| start.elapsed().as_secs_f64());
    Finished { index, outcome, seconds }
}

/// The race so far: each finished arm's report, the winner, the best board of the others.
struct Standings {
    reports: Vec<Option<ArmReport>>,
    best: Option<(Option<Board>, usize)>,
    winner: Option<(usize, (Status, Option<Board>), f64)>,
}

impl Standings {
    fn new(arms: usize) -> Standings {
        Standings { reports: vec![None; arms], best: None, winner: None }
    }

    /// Takes a finished arm's answer: the first decisive one wins and stops
    /// the others; a better board than the best so far is kept. Returns its report.
    fn record<S: Entrant>(&mut self, finished: Finished, arms: &[Arm<S>], stops: &[Stop]) -> &ArmReport {
        let arm = &arms[finished.index];
        let mut report = ArmReport {
            solver: arm.solver.name().to_owned(),
            threads: arm.threads,
            status: Status::Unknown,
            seconds: finished.seconds,
            error: None,
        };
        match finished.outcome {
            Ok((answer, accepted)) => {
                report.status = answer.0;
                let decisive = accepted.solved || answer.0 == Status::Infeasible;
                if decisive && self.winner.is_none() {
                    self.winner = Some((finished.index, answer, finished.seconds));
                    stops.iter().for_each(Stop::raise);
                } else if accepted.report.is_some() && self.best.as_ref().is_none_or(|(_, s)| accepted.score > *s) {
                    self.best = Some((answer.1, accepted.score));
                }
            }
            Err(error) => report.error = Some(error.to_string()),
        }
        let state = if report.error.is_some() { "error".to_owned() } else { report.status.to_string() };
        crate::live::arm_done(finished.index, &state, report.seconds);
        self.reports[finished.index].insert(report)
    }

    /// The race's outcome once every arm returned.
    fn conclude<S: Entrant>(self, arms: &[Arm<S>], stop: &Stop, start: Instant) -> Result<Outcome<Stats>, Error> {
        let arms_done: Vec<ArmReport> = self.reports.into_iter().flatten().collect();
        let (status, board, winner_kind, winner_seconds) = match self.winner {
            Some((index, (status, board), seconds)) => {
                (status, board, Some(arms[index].solver.name().to_owned()), Some(seconds))
            }
            None => {
                let status = if stop.is_raised() { Status::Interrupted } else { Status::Unknown };
                (status, self.best.and_then(|(board, _)| board), None, None)
            }
        };
        if winner_kind.is_none() && arms_done.iter().all(|a| a.error.is_some()) {
            let errors: Vec<String> = arms_done.iter().filter_map(|a| a.error.clone()).collect();
            return Err(Error::Options(format!("every arm failed: {}", errors.join("; "))));
        }
        let seconds = winner_seconds.unwrap_or_else(|| start.elapsed().as_secs_f64());
        let stats = Stats { winner: winner_kind, winner_seconds, arms: arms_done };
        Ok(Outcome { status, board, seconds, stats })
    }
}

/// The race's status on stderr: a live line on a terminal, plain lines otherwise.
struct Progress {
    bar: Option<indicatif::ProgressBar>,
    plain: bool,
}

impl Progress {
    fn new<S: Entrant>(enabled: bool, arms: &[Arm<S>]) -> Progress {
        if !enabled {
            return Progress { bar: None, plain: false };
        }
        let names: Vec<String> = arms.iter().map(|a| format!("{} x{}", a.solver.name(), a.threads)).collect();
        if std::io::stderr().is_terminal() {
            let bar = indicatif::ProgressBar::new_spinner();
            bar.set_message(format!("racing {}", names.join(", ")));
            Progress { bar: Some(bar), plain: false }
        } else {
            eprintln!("auto: racing {}", names.join(", "));
            Progress { bar: None, plain: true }
        }
    }

    fn tick(&mut self, start: Instant, reports: &[Option<ArmReport>]) {
        if let Some(bar) = &self.bar {
            let running = reports.iter().filter(|r| r.is_none()).count();
            bar.set_message(format!("{:.1} s, {running} arm(s) running", start.elapsed().as_secs_f64()));
            bar.tick();
        }
    }

    fn finished(&mut self, report: &ArmReport) {
        let line = format!("auto: {} returned {} after {:.2} s", report.solver, report.status, report.seconds);
        match &self.bar {
            Some(bar) => bar.println(line),
            None if self.plain => eprintln!("{line}"),
            None => {}
        }
    }

    fn clear(&mut self) {
        if let Some(bar) = self.bar.take() {
            bar.finish_and_clear();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::{PlantedSpec, planted};

    /// An arm that has its answer at once, then spends `teardown` before it
    /// returns (as CaDiCaL freeing its clauses), or waits for its stop.
    struct Slow {
        board: Option<Board>,
        teardown: Duration,
    }

    impl Entrant for Slow {
        fn name(&self) -> &'static str {
            if self.board.is_some() { "quick" } else { "waiting" }
        }

        fn enter(&self, _: &Instance, _: &Limits, stop: &Stop) -> Result<Answer, Error> {
            let start = Instant::now();
            let Some(board) = &self.board else {
                while !stop.is_raised() {
                    std::thread::sleep(Duration::from_millis(5));
                }
                return Ok(Answer { status: Status::Interrupted, board: None, seconds: start.elapsed().as_secs_f64() });
            };
            let seconds = start.elapsed().as_secs_f64();
            std::thread::sleep(self.teardown);
            Ok(Answer { status: Status::Solved, board: Some(board.clone()), seconds })
        }
    }

    #[test]
    fn the_winner_counts_from_its_answer_not_from_its_teardown() {
        let p = planted(&PlantedSpec::square(4, 2, 3, 1)).unwrap();
        // Longer than any scheduling delay of a loaded machine, so the check below is not a race.
        let teardown = Duration::from_secs(5);
        let arms = [
            Arm { solver: Slow { board: Some(p.solution.clone()), teardown }, threads: 1 },
            Arm { solver: Slow { board: None, teardown }, threads: 1 },
        ];
        let outcome = race(&p.instance, &arms, false, &Limits::default(), &Stop::new()).unwrap();
        assert_eq!(outcome.status, Status::Solved);
        assert_eq!(outcome.stats.winner.as_deref(), Some("quick"));
        // The race waited for the teardown, but its time (and the winner's)
        // is when the answer was had: before the teardown began.
        let winner = outcome.stats.winner_seconds.unwrap();
        assert!(winner < teardown.as_secs_f64() && outcome.seconds == winner, "{winner} s, race {} s", outcome.seconds);
    }
}
