//! One interface for every solver: an instance, limits and a stop handle in; one [`Outcome`] out.
//!
//! A new solver is a variant of [`SolverKind`] (its name on the command line,
//! in `bench cliff --arms` and in runs files), a variant of [`Solver`] holding
//! its own options, and a variant of [`Stats`]: nothing else in the CLI changes.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::check::{Report, Violation, check};
use crate::error::Error;
use crate::puzzle::{Board, Instance};
use crate::stop::Stop;
use crate::{cpsat, dfs, mip, portfolio, sat, search};

/// How a solve ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// A full board was found (it still has to pass the checker).
    Solved,
    /// The solver proved there is no solution.
    Infeasible,
    /// The limit was reached with neither a solution nor a proof.
    Unknown,
    /// The search was stopped from outside (Ctrl-C, or a portfolio's winner).
    Interrupted,
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Status::Solved => "solved",
            Status::Infeasible => "infeasible",
            Status::Unknown => "unknown",
            Status::Interrupted => "interrupted",
        })
    }
}

/// The solvers, by the names used on the command line, in bench arms and in runs files.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum SolverKind {
    /// OR-Tools CP-SAT through the C++ bridge.
    Cpsat,
    /// The native row-scan depth-first baseline.
    Dfs,
    /// The placement MIP, by HiGHS branch and bound.
    Mip,
    /// CaDiCaL on the seam encoding.
    Sat,
    /// The native complete search over a fill order chosen by tree-size estimates.
    Search,
    /// A portfolio racing other solvers on the cores; the first verified board wins.
    Auto,
}

impl SolverKind {
    /// The name on the command line and in records.
    pub fn name(self) -> &'static str {
        match self {
            SolverKind::Cpsat => "cpsat",
            SolverKind::Dfs => "dfs",
            SolverKind::Mip => "mip",
            SolverKind::Sat => "sat",
            SolverKind::Search => "search",
            SolverKind::Auto => "auto",
        }
    }
}

impl fmt::Display for SolverKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Limits every solver honours.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Limits {
    /// Wall-clock seconds; `None` runs until an answer (or a stop).
    pub time_limit: Option<f64>,
    /// Stop after about this many nodes, where the solver counts nodes (the DFS).
    pub node_limit: Option<u64>,
    /// Random seed (CP-SAT and HiGHS take it as an `i32`).
    pub seed: u64,
    /// Threads the solver may use; 0 lets it choose (CP-SAT: its default workers).
    pub threads: u32,
}

impl Default for Limits {
    fn default() -> Self {
        Limits { time_limit: None, node_limit: None, seed: 1, threads: 0 }
    }
}

impl Limits {
    /// The seed as the `i32` that CP-SAT and HiGHS take.
    pub(crate) fn seed_i32(&self) -> Result<i32, Error> {
        i32::try_from(self.seed).map_err(|_| Error::Options(format!("seed {} is above {}", self.seed, i32::MAX)))
    }
}

/// A solver with its own options.
#[derive(Clone, Debug, PartialEq)]
pub enum Solver {
    /// CP-SAT.
    Cpsat(cpsat::Options),
    /// The DFS baseline.
    Dfs(dfs::Options),
    /// The placement MIP.
    Mip(mip::Options),
    /// CaDiCaL on the seam encoding.
    Sat(sat::Options),
    /// The native search (its time, node limit, seed and threads come from [`Limits`]).
    Search(search::Options),
    /// The portfolio.
    Auto(portfolio::Options),
}

impl Solver {
    /// The solver of this kind with its default options.
    pub fn new(kind: SolverKind) -> Solver {
        match kind {
            SolverKind::Cpsat => Solver::Cpsat(cpsat::Options::default()),
            SolverKind::Dfs => Solver::Dfs(dfs::Options::default()),
            SolverKind::Mip => Solver::Mip(mip::Options::default()),
            SolverKind::Sat => Solver::Sat(sat::Options::default()),
            SolverKind::Search => Solver::Search(search::Options::default()),
            SolverKind::Auto => Solver::Auto(portfolio::Options::default()),
        }
    }

    /// Which solver this is.
    pub fn kind(&self) -> SolverKind {
        match self {
            Solver::Cpsat(_) => SolverKind::Cpsat,
            Solver::Dfs(_) => SolverKind::Dfs,
            Solver::Mip(_) => SolverKind::Mip,
            Solver::Sat(_) => SolverKind::Sat,
            Solver::Search(_) => SolverKind::Search,
            Solver::Auto(_) => SolverKind::Auto,
        }
    }

    /// Solves `instance` within `limits` until done or `stop` is raised. The
    /// board in the outcome is the solver's claim: [`verify`] it.
    pub fn solve(&self, instance: &Instance, limits: &Limits, stop: &Stop) -> Result<Outcome, Error> {
        let mut outcome = self.solve_unchecked(instance, limits, stop)?;
        crate::fault::inject(self.kind(), &mut outcome);
        Ok(outcome)
    }

    fn solve_unchecked(&self, instance: &Instance, limits: &Limits, stop: &Stop) -> Result<Outcome, Error> {
        match self {
            Solver::Cpsat(options) => cpsat::solve(instance, options, limits, stop),
            Solver::Dfs(options) => Ok(dfs::solve(instance, options, limits, stop)),
            Solver::Mip(options) => mip::solve(instance, options, limits, stop),
            Solver::Sat(options) => sat::solve(instance, options, limits, stop),
            Solver::Search(options) => Ok(search_outcome(instance, options, limits, stop)),
            Solver::Auto(options) => portfolio::solve(instance, options, limits, stop),
        }
    }

    /// One line saying what runs, for the `solver:` line of `solve`.
    pub fn describe(&self, limits: &Limits) -> String {
        match self {
            Solver::Cpsat(options) => format!(
                "cpsat, {} model (OR-Tools {}, {} workers){}",
                options.formulation.name(),
                cpsat::ORTOOLS_VERSION,
                limits.threads,
                options.variant_suffix()
            ),
            Solver::Dfs(options) => {
                let mode = if options.complete {
                    "complete".to_owned()
                } else {
                    format!("randomized, restart every {} nodes", options.restart_nodes)
                };
                format!("dfs ({mode}, seed {}, 1 thread)", limits.seed)
            }
            Solver::Mip(_) => "mip (placement binaries, HiGHS branch and bound)".to_owned(),
            Solver::Sat(_) => "sat (seam encoding, CaDiCaL, 1 thread)".to_owned(),
            Solver::Search(options) => {
                format!(
                    "search (order {}, {} thread(s), seed {})",
                    options.order,
                    limits.threads.clamp(1, 2),
                    limits.seed
                )
            }
            Solver::Auto(options) if options.arms.is_empty() => {
                format!("auto (a portfolio on {} threads, arms chosen by the instance)", limits.threads)
            }
            Solver::Auto(options) => {
                let arms: Vec<String> =
                    options.arms.iter().map(|a| format!("{} x{}", a.solver.kind(), a.threads)).collect();
                format!("auto (a portfolio racing {})", arms.join(", "))
            }
        }
    }
}

/// What a solver counted, typed per solver.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "solver", rename_all = "lowercase")]
pub enum Stats {
    /// CP-SAT's response counters.
    Cpsat(cpsat::Stats),
    /// The DFS's counters.
    Dfs(dfs::Stats),
    /// HiGHS' result.
    Mip(mip::Stats),
    /// The encoding's size and CaDiCaL's counters.
    Sat(sat::Stats),
    /// The native search's counters and order estimates.
    Search(search::Stats),
    /// The race: which arm won, and how each ended.
    Auto(portfolio::Stats),
}

impl Stats {
    /// Name and value of each counter, as `solve` prints them.
    pub fn lines(&self, seconds: f64) -> Vec<(&'static str, String)> {
        match self {
            Stats::Cpsat(s) => vec![
                ("cpsat_wall_time", format!("{:.3}", s.wall_time)),
                ("conflicts", s.conflicts.to_string()),
                ("branches", s.branches.to_string()),
                ("variables", s.variables.to_string()),
                ("constraints", s.constraints.to_string()),
                ("hint_cells", s.hint_cells.to_string()),
            ],
            Stats::Dfs(s) => vec![
                ("nodes", s.nodes.to_string()),
                ("nodes_per_second", format!("{:.0}", s.nodes as f64 / seconds.max(1e-9))),
                ("restarts", s.restarts.to_string()),
                ("solutions", s.solutions.to_string()),
                ("exhausted", s.exhausted.to_string()),
                ("best_placed", s.best_placed.to_string()),
                ("flux_pruned", s.flux_pruned.to_string()),
            ],
            Stats::Mip(s) => vec![
                ("columns", s.columns.to_string()),
                ("rows", s.rows.to_string()),
                ("nonzeros", s.nonzeros.to_string()),
                ("highs_model_status", s.model_status.to_string()),
                ("objective", s.objective.map_or_else(|| "none".to_owned(), |o| format!("{o}"))),
                ("dual_bound", format!("{:.2}", s.dual_bound)),
            ],
            Stats::Sat(s) => s.lines(),
            Stats::Search(s) => vec![
                ("nodes", s.nodes.to_string()),
                ("nodes_per_second", format!("{:.0}", s.nodes as f64 / seconds.max(1e-9))),
                ("best_placed", s.best_placed.to_string()),
                ("order", s.order.clone()),
            ],
            Stats::Auto(s) => s.lines(),
        }
    }

    /// Search nodes and restarts, for solvers that count them.
    pub fn nodes(&self) -> Option<(u64, u64)> {
        match self {
            Stats::Dfs(s) => Some((s.nodes, s.restarts)),
            Stats::Search(s) => Some((s.nodes, 0)),
            _ => None,
        }
    }
}

/// Runs the native search within `limits`, as an [`Outcome`].
fn search_outcome(instance: &Instance, options: &search::Options, limits: &Limits, stop: &Stop) -> Outcome {
    let options = search::Options {
        time_limit: limits.time_limit,
        node_limit: limits.node_limit,
        seed: limits.seed,
        threads: limits.threads.clamp(1, 2) as usize,
        ..options.clone()
    };
    let answer = search::solve(instance, &options, stop.flag());
    Outcome {
        status: answer.status,
        board: answer.board,
        seconds: answer.stats.seconds,
        stats: Stats::Search(answer.stats),
    }
}

/// A solver's answer, before the checker has seen it.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// How the solve ended.
    pub status: Status,
    /// The best board found: full when solved, possibly partial otherwise.
    pub board: Option<Board>,
    /// Wall-clock seconds spent.
    pub seconds: f64,
    /// What the solver counted.
    pub stats: Stats,
}

/// A solver's answer after the checker has seen it.
#[derive(Clone, Debug)]
pub struct Verified {
    /// The checker's report on the board, if there was one.
    pub report: Option<Report>,
    /// True when the board is a full valid solution.
    pub solved: bool,
    /// Matched inner joins of the board, as the checker counted them (0 without a board).
    pub score: usize,
}

/// Runs the checker on a solver's board. A board claimed as a solution must be
/// one; any other answer may leave cells empty (the DFS) or joins mismatched
/// (the MIP's incumbent) but must break no other rule. Anything else is the
/// solver's bug and an error.
pub fn verify(instance: &Instance, outcome: &Outcome) -> Result<Verified, Error> {
    verify_claim(instance, outcome.status, outcome.board.as_ref())
}

/// [`verify`] for any tool's answer: a status and an optional board.
pub fn verify_claim(instance: &Instance, status: Status, board: Option<&Board>) -> Result<Verified, Error> {
    let Some(board) = board else {
        return Ok(Verified { report: None, solved: false, score: 0 });
    };
    let report = check(instance, board);
    let claimed = status == Status::Solved;
    let hard = report.violations.iter().any(|v| !matches!(v, Violation::Mismatch { .. }));
    if (claimed && !report.is_solution()) || hard {
        return Err(Error::Rejected(format!("the solver's board failed the checker: {report}")));
    }
    Ok(Verified { solved: report.is_solution(), score: report.score, report: Some(report) })
}

/// Solves and verifies in one call: what every bench does for each run.
pub fn solve_verified(
    solver: &Solver,
    instance: &Instance,
    limits: &Limits,
    stop: &Stop,
) -> Result<(Outcome, Verified), Error> {
    let outcome = solver.solve(instance, limits, stop)?;
    let verified = verify(instance, &outcome)?;
    Ok((outcome, verified))
}
