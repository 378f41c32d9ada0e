//! The portfolio: several solvers raced on threads; the first board the checker accepts wins.
//!
//! Each arm runs on its own thread with its own child [`Stop`], so the winner
//! stops the others and Ctrl-C (raising the parent) stops them all. An arm's
//! answer counts only after [`crate::solver::verify`] accepted it; a proof of
//! infeasibility from a complete arm ends the race too. The race returns when
//! every arm has returned, so no thread outlives it.

use std::io::IsTerminal as _;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde::Serialize;

use crate::error::Error;
use crate::puzzle::Instance;
use crate::solver::{self, Limits, Outcome, Solver, SolverKind, Status, Verified};
use crate::stop::Stop;

/// One arm: a solver and the threads it may use.
#[derive(Clone, Debug, PartialEq)]
pub struct Arm {
    /// The solver.
    pub solver: Solver,
    /// Its threads (CP-SAT workers; 1 for the others).
    pub threads: u32,
}

/// The arms to race; empty means "choose by the instance" ([`default_arms`]).
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Options {
    /// The arms, in the order they are listed in reports.
    pub arms: Vec<Arm>,
    /// Show a live status line on stderr (when it is a terminal; plain lines otherwise).
    pub progress: bool,
}

/// How one arm ended.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ArmReport {
    /// The solver.
    pub solver: SolverKind,
    /// Its threads.
    pub threads: u32,
    /// How it ended (`interrupted` when the race stopped it).
    pub status: Status,
    /// Seconds from the start of the race until it returned.
    pub seconds: f64,
    /// An error it returned, or the checker's rejection of its board.
    pub error: Option<String>,
}

/// What the race counted.
#[derive(Clone, Debug, PartialEq, Default, Serialize)]
pub struct Stats {
    /// The arm whose answer ended the race.
    pub winner: Option<SolverKind>,
    /// Seconds from the start until the winner's answer was verified.
    pub winner_seconds: Option<f64>,
    /// Every arm, in the order of the options.
    pub arms: Vec<ArmReport>,
}

impl Stats {
    /// Name and value of each counter, as `solve` prints them.
    pub fn lines(&self) -> Vec<(&'static str, String)> {
        let mut lines = vec![
            ("winner", self.winner.map_or_else(|| "none".to_owned(), |w| w.to_string())),
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

/// Boards with at most this many interior colours go to CDCL SAT.
pub const FEW_COLOURS: usize = 10;

/// The arms for `instance` on `cores` cores, chosen by its interior colours
/// (measured: see the README's "Reach" section and `results/reach/`):
/// - few colours (at most [`FEW_COLOURS`], Heule's and Brendan's boards):
///   CaDiCaL on the seam encoding beside the native search, one core each;
///   SAT solves Heule's eight in under 0.3 s where the search or CP-SAT may
///   need seconds or fail;
/// - many colours (the planted 5+17 and 5+26 boards): the native search on
///   every core, its threads sharing the tree of the order with the smallest
///   estimate; it solves 12×12 5+17 and 15×15 5+26 boards in
///   about a second where CP-SAT and SAT need minutes or fail.
pub fn default_arms(instance: &Instance, cores: u32) -> Vec<Arm> {
    let (_, interior) = instance.colour_classes();
    let search = |threads| Arm { solver: Solver::new(SolverKind::Search), threads };
    if interior <= FEW_COLOURS && cores >= 2 {
        vec![Arm { solver: Solver::new(SolverKind::Sat), threads: 1 }, search(cores - 1)]
    } else if interior <= FEW_COLOURS {
        vec![Arm { solver: Solver::new(SolverKind::Sat), threads: 1 }]
    } else {
        vec![search(cores.clamp(1, 2))]
    }
}

/// What an arm's thread sends back.
struct Finished {
    index: usize,
    outcome: Result<(Outcome, Verified), Error>,
    seconds: f64,
}

/// Races the arms on `instance` within `limits` (its threads are ignored: each
/// arm has its own). Returns the winner's outcome (its board already verified)
/// or, if no arm won, the best verified board any arm returned.
pub fn solve(instance: &Instance, options: &Options, limits: &Limits, stop: &Stop) -> Result<Outcome, Error> {
    let start = Instant::now();
    let arms =
        if options.arms.is_empty() { default_arms(instance, limits.threads.max(2)) } else { options.arms.clone() };
    let stops: Vec<Stop> = arms.iter().map(|_| stop.child()).collect();
    let mut reports: Vec<Option<ArmReport>> = vec![None; arms.len()];
    let mut best: Option<(Outcome, usize)> = None;
    let mut winner: Option<(usize, Outcome, f64)> = None;
    let mut status = Progress::new(options.progress, &arms);
    std::thread::scope(|scope| {
        let (tx, rx) = mpsc::channel::<Finished>();
        for (index, (arm, arm_stop)) in arms.iter().zip(&stops).enumerate() {
            let tx = tx.clone();
            let arm_limits = Limits { threads: arm.threads, ..*limits };
            let _ = scope.spawn(move || {
                let outcome = solver::solve_verified(&arm.solver, instance, &arm_limits, arm_stop);
                let _ = tx.send(Finished { index, outcome, seconds: start.elapsed().as_secs_f64() });
            });
        }
        drop(tx);
        let mut running = arms.len();
        while running > 0 {
            let finished = match rx.recv_timeout(Duration::from_millis(250)) {
                Ok(finished) => finished,
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    status.tick(start, &reports);
                    continue;
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => break,
            };
            running -= 1;
            let arm = &arms[finished.index];
            let mut report = ArmReport {
                solver: arm.solver.kind(),
                threads: arm.threads,
                status: Status::Unknown,
                seconds: finished.seconds,
                error: None,
            };
            match finished.outcome {
                Ok((outcome, verified)) => {
                    report.status = outcome.status;
                    let decisive = verified.solved || outcome.status == Status::Infeasible;
                    if decisive && winner.is_none() {
                        winner = Some((finished.index, outcome, finished.seconds));
                        stops.iter().for_each(Stop::raise);
                    } else if verified.report.is_some() && best.as_ref().is_none_or(|(_, s)| verified.score > *s) {
                        best = Some((outcome, verified.score));
                    }
                }
                Err(error) => report.error = Some(error.to_string()),
            }
            status.finished(&report);
            reports[finished.index] = Some(report);
        }
    });
    status.clear();
    let arms_done: Vec<ArmReport> = reports.into_iter().flatten().collect();
    let (status, board, winner_kind, winner_seconds) = match winner {
        Some((index, outcome, seconds)) => {
            (outcome.status, outcome.board, Some(arms[index].solver.kind()), Some(seconds))
        }
        None => {
            let status = if stop.is_raised() { Status::Interrupted } else { Status::Unknown };
            (status, best.and_then(|(outcome, _)| outcome.board), None, None)
        }
    };
    if winner_kind.is_none() && arms_done.iter().all(|a| a.error.is_some()) {
        let errors: Vec<String> = arms_done.iter().filter_map(|a| a.error.clone()).collect();
        return Err(Error::Options(format!("every arm failed: {}", errors.join("; "))));
    }
    let stats = Stats { winner: winner_kind, winner_seconds, arms: arms_done };
    Ok(Outcome { status, board, seconds: start.elapsed().as_secs_f64(), stats: solver::Stats::Auto(stats) })
}

/// The race's status on stderr: a live line on a terminal, plain lines otherwise.
struct Progress {
    bar: Option<indicatif::ProgressBar>,
    plain: bool,
}

impl Progress {
    fn new(enabled: bool, arms: &[Arm]) -> Progress {
        if !enabled {
            return Progress { bar: None, plain: false };
        }
        let names: Vec<String> = arms.iter().map(|a| format!("{} x{}", a.solver.kind(), a.threads)).collect();
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
