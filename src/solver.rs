//! The dispatcher: every solver behind one interface, an instance, limits and a stop handle in, one [`Outcome`] out.
//!
//! It sits above the backends (`cpsat`, `sat`, `search`, `dfs`, `mip`) and the
//! portfolio, which know nothing of it: each returns its own typed counters,
//! wrapped here in [`Stats`]. It names them ([`SolverKind`]), states each one's
//! thread rule ([`SolverKind::threads`]), chooses the portfolio's arms
//! ([`default_arms`]) and composes them (the native search's board as CP-SAT's
//! hint). Adding a solver: see the checklist in `docs/ARCHITECTURE.md`.

use std::fmt;
use std::time::Instant;

use serde::{Deserialize, Serialize};

use crate::error::Error;
pub use crate::outcome::{Accepted, Limits, Status, accept};
use crate::portfolio::{self, Answer, Arm, Entrant};
use crate::puzzle::{Board, Instance};
use crate::stop::Stop;
use crate::{cpsat, dfs, mip, sat, score, search};

/// A solver's answer with its typed counters, as the dispatcher returns it.
pub type Outcome = crate::outcome::Outcome<Stats>;

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
    /// The threads this solver uses when given `cores` cores: the one place
    /// each solver's thread rule is stated. CP-SAT runs a worker per core (0
    /// lets it choose); the native search a thread per core (sharing one
    /// tree, see [`search::Parallel`]), as does the score walk (independent
    /// walks); the portfolio divides the cores among its arms
    /// ([`default_arms`]); the DFS, HiGHS and CaDiCaL run one thread.
    pub fn threads(self, cores: u32) -> u32 {
        match self {
            SolverKind::Cpsat | SolverKind::Auto => cores,
            SolverKind::Search => search::threads(cores) as u32,
            SolverKind::Dfs | SolverKind::Mip | SolverKind::Sat => 1,
        }
    }

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

/// What a solve looks for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum Objective {
    /// A full solution, or a proof that there is none.
    #[default]
    Full,
    /// The best full board by matched inner joins, where no solution is in reach.
    Score,
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
    Auto(portfolio::Options<Solver>),
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
    /// board in the outcome is the solver's claim: [`accept`] it.
    ///
    /// # Errors
    /// A model too large for its solver, options it refuses, or a bridge's failure.
    pub fn solve(&self, instance: &Instance, limits: &Limits, stop: &Stop) -> Result<Outcome, Error> {
        let mut outcome = self.solve_unchecked(instance, limits, stop)?;
        crate::fault::inject(self.kind().name(), outcome.board.as_mut());
        Ok(outcome)
    }

    fn solve_unchecked(&self, instance: &Instance, limits: &Limits, stop: &Stop) -> Result<Outcome, Error> {
        match self {
            Solver::Cpsat(options) => cpsat_after_search(instance, options, limits, stop),
            Solver::Dfs(options) => Ok(dfs::solve(instance, options, limits, stop).map_stats(Stats::Dfs)),
            Solver::Mip(options) => Ok(mip::solve(instance, options, limits, stop)?.map_stats(Stats::Mip)),
            Solver::Sat(options) => Ok(sat::solve(instance, options, limits, stop)?.map_stats(Stats::Sat)),
            Solver::Search(options) => Ok(search::solve(instance, options, limits, stop).map_stats(Stats::Search)),
            Solver::Auto(options) => {
                let arms = if options.arms.is_empty() {
                    default_arms(instance, limits.threads.max(2))
                } else {
                    options.arms.clone()
                };
                Ok(portfolio::race(instance, &arms, options.progress, limits, stop)?.map_stats(Stats::Auto))
            }
        }
    }

    /// Looks for the best full board by matched joins within `limits`, calling
    /// `on_best` with each board that beats the earlier ones (its board still to
    /// be checked). The native search (`search`, and `auto`) walks with a break
    /// budget ([`score`]); CP-SAT ([`cpsat::maximize::maximize_from`], in time slices) and
    /// the MIP ([`mip::solve_from`], through HiGHS' incumbent callback) maximize
    /// the matched joins of the whole board. All three start from
    /// `options.incumbent` (a resumed run's board) and return nothing worse.
    ///
    /// # Errors
    /// A solver with no score mode (`dfs`, `sat`), or the solver's own error.
    pub fn solve_score(
        &self,
        instance: &Instance,
        options: &score::Options,
        limits: &Limits,
        stop: &Stop,
        on_best: &(dyn Fn(&score::Best) + Sync),
    ) -> Result<Outcome, Error> {
        let mut outcome = match self {
            Solver::Search(_) => score_search(instance, options, limits, stop, &injected("search", on_best)),
            Solver::Auto(_) => score_then_repair(instance, options, limits, stop, on_best)?,
            Solver::Cpsat(_) => {
                let report = injected("cpsat", on_best);
                let mut found = |board: &Board, score: usize, seconds: f64| {
                    report(&score::Best { board: board.clone(), score, seconds });
                };
                let incumbent = options.incumbent.as_ref();
                cpsat::maximize::maximize_from(instance, incumbent, limits, stop, &mut found)?.map_stats(Stats::Cpsat)
            }
            Solver::Mip(mip_options) => {
                let report = injected("mip", on_best);
                let mut found = |board: &Board, score: usize, seconds: f64| {
                    report(&score::Best { board: board.clone(), score, seconds });
                };
                let incumbent = options.incumbent.as_ref();
                mip::solve_from(instance, mip_options, (limits, stop), incumbent, &mut found)?.map_stats(Stats::Mip)
            }
            Solver::Dfs(_) | Solver::Sat(_) => {
                return Err(Error::Options(format!(
                    "--objective score: --solver {} has no score mode; use auto, search, cpsat or mip",
                    self.kind()
                )));
            }
        };
        crate::fault::inject(self.kind().name(), outcome.board.as_mut());
        Ok(outcome)
    }

    /// One line saying what runs for the score objective with `walk`, for the `solver:` line of `solve`.
    pub fn describe_score(&self, limits: &Limits, walk: score::Walk) -> String {
        let walks = SolverKind::Search.threads(limits.threads);
        let walk = match walk {
            score::Walk::Scan => "scan",
            score::Walk::Budget => "break-budget",
        };
        match self {
            Solver::Search(_) => {
                format!("search for the score ({walk} walk on {walks} thread(s), seed {})", limits.seed)
            }
            Solver::Auto(_) if limits.time_limit.is_some() => format!(
                "auto for the score ({walk} walk on {walks} thread(s) for {:.0}% of the time, then CP-SAT repairing regions)",
                SEARCH_SHARE * 100.0
            ),
            Solver::Auto(_) => format!("auto for the score ({walk} walk on {walks} thread(s))"),
            Solver::Cpsat(_) => format!(
                "cpsat for the score (every cell freed, maximizing matched joins; OR-Tools {}, {} workers)",
                cpsat::ORTOOLS_VERSION,
                limits.threads
            ),
            other => other.describe(limits),
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
                    search::threads(limits.threads),
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
    /// The score search's counters.
    Score(score::Stats),
}

impl Stats {
    /// Name and value of each counter, as `solve` prints them.
    pub fn lines(&self, seconds: f64) -> Vec<(&'static str, String)> {
        match self {
            Stats::Cpsat(s) => {
                let mut lines = vec![
                    ("cpsat_wall_time", format!("{:.3}", s.wall_time)),
                    ("conflicts", s.conflicts.to_string()),
                    ("branches", s.branches.to_string()),
                    ("variables", s.variables.to_string()),
                    ("constraints", s.constraints.to_string()),
                    ("hint_cells", s.hint_cells.to_string()),
                ];
                if s.slices > 0 {
                    let last = if s.proved_optimal { "the last proved no better board exists" } else { "open" };
                    lines.push(("slices", format!("{} ({last})", s.slices)));
                }
                lines
            }
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
            Stats::Score(s) => vec![
                ("nodes", s.nodes.to_string()),
                ("nodes_per_second", format!("{:.0}", s.nodes as f64 / seconds.max(1e-9))),
                ("attempts", s.attempts.to_string()),
                ("walks", score_walks(&s.walks)),
                ("best_breaks", s.best_breaks.map_or_else(|| "none".to_owned(), |b| b.to_string())),
                ("best_seconds", s.best_seconds.map_or_else(|| "-".to_owned(), |t| format!("{t:.3}"))),
                ("deepest", s.deepest.to_string()),
                ("attempts_by_depth", score_depths(&s.depths)),
                (
                    "completions",
                    format!("{} of {} reported ({} better)", s.completions, s.reported, s.completions_improved),
                ),
                ("repair", s.repair_failed.as_ref().map_or_else(|| "-".to_owned(), |why| format!("failed: {why}"))),
            ],
        }
    }

    /// Search nodes and restarts, for solvers that count them.
    pub fn nodes(&self) -> Option<(u64, u64)> {
        match self {
            Stats::Dfs(s) => Some((s.nodes, s.restarts)),
            Stats::Search(s) => Some((s.nodes, 0)),
            Stats::Score(s) => Some((s.nodes, s.attempts)),
            _ => None,
        }
    }
}

/// How many walks ran, and the fewest and most attempts one started: `8 (attempts each 1-3)`.
fn score_walks(walks: &[u64]) -> String {
    match (walks.iter().min(), walks.iter().max()) {
        (Some(lo), Some(hi)) => format!("{} (attempts each {lo}-{hi})", walks.len()),
        _ => "0".to_owned(),
    }
}

/// The deepest depths the scan walk's attempts reached, deepest first, as `DEPTH:ATTEMPTS` (at most eight).
fn score_depths(depths: &[usize]) -> String {
    let parts: Vec<String> =
        depths.iter().enumerate().rev().filter(|&(_, &n)| n > 0).take(8).map(|(d, n)| format!("{d}:{n}")).collect();
    if parts.is_empty() { "-".to_owned() } else { parts.join(" ") }
}

/// CP-SAT, after the native search when its options ask for a hint: the
/// search runs `hint_seconds` (within the time limit) on one thread and its
/// deepest board becomes CP-SAT's solution hint; the seconds count in the limit.
fn cpsat_after_search(
    instance: &Instance,
    options: &cpsat::Options,
    limits: &Limits,
    stop: &Stop,
) -> Result<Outcome, Error> {
    let Some(seconds) = options.hint_seconds else {
        return Ok(cpsat::solve(instance, options, limits, None, stop)?.map_stats(Stats::Cpsat));
    };
    let start = Instant::now();
    let budget = limits.time_limit.map_or(seconds, |t| seconds.min(t));
    let search_limits = Limits { time_limit: Some(budget), node_limit: None, threads: 1, ..*limits };
    let hint = search::solve(instance, &search::Options::default(), &search_limits, stop).board;
    let spent = start.elapsed().as_secs_f64();
    let rest = Limits { time_limit: limits.time_limit.map(|t| (t - spent).max(0.01)), ..*limits };
    let mut outcome = cpsat::solve(instance, options, &rest, hint.as_ref(), stop)?;
    outcome.seconds = start.elapsed().as_secs_f64();
    outcome.stats.hint_seconds = spent;
    Ok(outcome.map_stats(Stats::Cpsat))
}

/// Share of a scan run's time limit (at most [`EXACT_SECONDS`]) the exact search gets first.
pub const EXACT_SHARE: f64 = 0.05;

/// Most seconds of that exact search.
pub const EXACT_SECONDS: f64 = 3.0;

/// The score search. The scan walk (`score::Walk::Scan`) is preceded by the
/// exact search for [`EXACT_SHARE`] of the time limit (at most
/// [`EXACT_SECONDS`]): boards it completes (the planted 12×12 5+17 in about a
/// second) need no score at all. The budget walk runs on the order whose
/// exact tree the estimator finds smallest (it reaches deepest before breaks
/// unlock), unless the options name one. Either first step's seconds count
/// in the time limit and in every best board's time.
fn score_search(
    instance: &Instance,
    options: &score::Options,
    limits: &Limits,
    stop: &Stop,
    on_best: &(dyn Fn(&score::Best) + Sync),
) -> Outcome {
    let start = Instant::now();
    let limits = Limits { threads: SolverKind::Search.threads(limits.threads), ..*limits };
    if options.walk == score::Walk::Scan && options.incumbent.is_none() {
        let seconds = limits.time_limit.map_or(EXACT_SECONDS, |t| (t * EXACT_SHARE).min(EXACT_SECONDS));
        let exact = Limits { time_limit: Some(seconds), node_limit: None, ..limits };
        let outcome = search::solve(instance, &search::Options::default(), &exact, stop);
        if let (Status::Solved, Some(board)) = (outcome.status, &outcome.board) {
            let best = score::Best { board: board.clone(), score: instance.grid.max_score(), seconds: outcome.seconds };
            on_best(&best);
            let stats = score::Stats {
                nodes: outcome.stats.nodes,
                best_breaks: Some(0),
                best_seconds: Some(outcome.seconds),
                ..score::Stats::default()
            };
            return crate::outcome::Outcome {
                status: Status::Solved,
                board: outcome.board,
                seconds: outcome.seconds,
                stats,
            }
            .map_stats(Stats::Score);
        }
    }
    // The budget walk's order is the estimator's pick; the scan walk's is the band order.
    let order = match options.walk {
        score::Walk::Budget => options.order.or_else(|| search::best_order(instance, &limits, stop)),
        score::Walk::Scan => options.order,
    };
    let options = score::Options { order, ..options.clone() };
    // The estimates' seconds count: in the time limit, and in each best's time.
    let spent = start.elapsed().as_secs_f64();
    let rest = Limits { time_limit: limits.time_limit.map(|t| (t - spent).max(0.01)), ..limits };
    let mut outcome = score::solve(instance, &options, &rest, stop, &later(on_best, spent));
    outcome.seconds += spent;
    outcome.stats.best_seconds = outcome.stats.best_seconds.map(|t| t + spent);
    outcome.map_stats(Stats::Score)
}

/// `on_best` with each board first handed to fault injection under `name`
/// (which corrupts nothing outside the test build; see [`crate::fault`]).
fn injected<'a>(name: &'static str, on_best: &'a (dyn Fn(&score::Best) + Sync)) -> impl Fn(&score::Best) + Sync + 'a {
    move |best: &score::Best| {
        let mut best = best.clone();
        crate::fault::inject(name, Some(&mut best.board));
        on_best(&best);
    }
}

/// `on_best` for a search that starts `offset` seconds into the run: each best's seconds count from the run's start.
fn later<'a>(on_best: &'a (dyn Fn(&score::Best) + Sync), offset: f64) -> impl Fn(&score::Best) + Sync + 'a {
    move |best: &score::Best| on_best(&score::Best { seconds: offset + best.seconds, ..best.clone() })
}

/// Share of a score run's time limit the search gets before CP-SAT repairs its board.
pub const SEARCH_SHARE: f64 = 0.7;

/// `auto` for the score: the score search for [`SEARCH_SHARE`] of the time
/// limit, then CP-SAT's exact repair of regions of its best board
/// ([`improve`](crate::improve)) for the rest; when the search has no full
/// board by then, CP-SAT completes one (clues kept) in the rest of the time.
/// Without a time limit, the search alone. A repair that fails keeps the search's board, its error in
/// the counters ([`score::Stats::repair_failed`]).
fn score_then_repair(
    instance: &Instance,
    options: &score::Options,
    limits: &Limits,
    stop: &Stop,
    on_best: &(dyn Fn(&score::Best) + Sync),
) -> Result<Outcome, Error> {
    let walk_best = injected("search", on_best);
    let Some(total) = limits.time_limit else {
        return Ok(score_search(instance, options, limits, stop, &walk_best));
    };
    let start = Instant::now();
    let first = Limits { time_limit: Some(total * SEARCH_SHARE), ..*limits };
    let mut outcome = score_search(instance, options, &first, stop, &walk_best);
    if outcome.board.is_none() && !stop.is_raised() {
        // No full board from the walk, which never breaks a frame join (some
        // clue sets force one): CP-SAT completes the board in the rest of the time.
        complete(instance, (limits, start), stop, &injected("cpsat", on_best), &mut outcome);
    }
    let target = options.target.unwrap_or(instance.grid.max_score());
    let reached = outcome.board.as_ref().is_some_and(|b| b.score(instance) >= target);
    if let (Some(board), false, false) = (outcome.board.clone(), reached, stop.is_raised()) {
        let offset = start.elapsed().as_secs_f64();
        let rest = Limits { time_limit: Some((total - offset).max(0.0)), ..*limits };
        repair(instance, &board, (&rest, offset), (options.target, stop), &injected("repair", on_best), &mut outcome);
    }
    outcome.seconds = start.elapsed().as_secs_f64();
    Ok(outcome)
}

/// CP-SAT maximizing the matched joins of the whole board (clues kept) for
/// the rest of a run within `limits` begun at `start`, when the walk left no
/// full board: its board goes to `on_best` and into the outcome; its failure
/// is kept in the counters.
fn complete(
    instance: &Instance,
    (limits, start): (&Limits, Instant),
    stop: &Stop,
    on_best: &(dyn Fn(&score::Best) + Sync),
    outcome: &mut Outcome,
) {
    let offset = start.elapsed().as_secs_f64();
    let rest = Limits { time_limit: limits.time_limit.map(|t| (t - offset).max(0.01)), ..*limits };
    let mut last = None;
    let mut found = |board: &Board, score: usize, seconds: f64| {
        last = Some((score, offset + seconds));
        on_best(&score::Best { board: board.clone(), score, seconds: offset + seconds });
    };
    let completed = cpsat::maximize::maximize_from(instance, None, &rest, stop, &mut found);
    let Stats::Score(stats) = &mut outcome.stats else { unreachable!("the score search returns score stats") };
    match completed {
        Ok(found) => {
            if let (Some(board), Some((score, seconds))) = (found.board, last) {
                stats.best_breaks = Some(instance.grid.max_score() - score);
                stats.best_seconds = Some(seconds);
                outcome.status = found.status;
                outcome.board = Some(board);
            }
        }
        Err(error) => stats.repair_failed = Some(error.to_string()),
    }
}

/// CP-SAT's repair of `board`, started `offset` seconds into the run,
/// within `limits`: each better board goes to `on_best`, and the outcome
/// takes the repaired board (its counters speak of it when better). A
/// repair that fails leaves the outcome's board, and says why in its counters.
fn repair(
    instance: &Instance,
    board: &Board,
    (limits, offset): (&Limits, f64),
    (target, stop): (Option<usize>, &Stop),
    on_best: &(dyn Fn(&score::Best) + Sync),
    outcome: &mut Outcome,
) {
    let mut last = None;
    let mut report = |board: &Board, score: usize, seconds: f64| {
        last = Some((score, offset + seconds));
        on_best(&score::Best { board: board.clone(), score, seconds: offset + seconds });
    };
    let repaired = crate::improve::improve(instance, board, limits, target, stop, &mut report);
    let Stats::Score(stats) = &mut outcome.stats else { unreachable!("the score search returns score stats") };
    let mut best = match repaired {
        Ok((best, _)) => best,
        Err(error) => {
            stats.repair_failed = Some(error.to_string());
            return;
        }
    };
    crate::fault::inject("repair", Some(&mut best));
    if best.score(instance) == instance.grid.max_score() {
        outcome.status = Status::Solved;
    }
    // The counters speak of the run's best board, the repair's when it found one.
    if let Some((score, seconds)) = last {
        stats.best_breaks = Some(instance.grid.max_score() - score);
        stats.best_seconds = Some(seconds);
    }
    outcome.board = Some(best);
}

/// Boards with at most this many interior colours go to CDCL SAT.
pub const FEW_COLOURS: usize = 10;

/// The portfolio's arms for `instance` on `cores` cores, chosen by its interior colours
/// (measured: see the README's "Reach" section and `results/reach/`):
/// - few colours (at most [`FEW_COLOURS`], Heule's and Brendan's boards):
///   CaDiCaL on the seam encoding beside the native search, one core each;
///   SAT solves Heule's eight in under 0.3 s where the search or CP-SAT may
///   need seconds or fail;
/// - many colours (the planted 5+17 and 5+26 boards): the native search on
///   every core, its threads sharing the tree of the order with the smallest
///   estimate; it solves 12×12 5+17 and 15×15 5+26 boards in
///   about a second where CP-SAT and SAT need minutes or fail.
pub fn default_arms(instance: &Instance, cores: u32) -> Vec<Arm<Solver>> {
    let (_, interior) = instance.colour_classes();
    let arm = |kind: SolverKind, cores: u32| Arm { solver: Solver::new(kind), threads: kind.threads(cores) };
    if interior <= FEW_COLOURS && cores >= 2 {
        vec![arm(SolverKind::Sat, 1), arm(SolverKind::Search, cores - 1)]
    } else if interior <= FEW_COLOURS {
        vec![arm(SolverKind::Sat, 1)]
    } else {
        vec![arm(SolverKind::Search, cores)]
    }
}

impl Entrant for Solver {
    fn name(&self) -> &'static str {
        self.kind().name()
    }

    fn enter(&self, instance: &Instance, limits: &Limits, stop: &Stop) -> Result<Answer, Error> {
        let outcome = self.solve(instance, limits, stop)?;
        Ok(Answer { status: outcome.status, board: outcome.board, seconds: outcome.seconds })
    }
}

/// Solves and accepts in one call: what every bench does for each run.
///
/// # Errors
/// The solver's error, or the checker's rejection of its board.
pub fn solve_accepted(
    solver: &Solver,
    instance: &Instance,
    limits: &Limits,
    stop: &Stop,
) -> Result<(Outcome, Accepted), Error> {
    crate::live::begin(&format!("{} on a {} board", solver.kind(), instance.grid), instance);
    let outcome = solver.solve(instance, limits, stop)?;
    let accepted = accept(instance, outcome.status, outcome.board.as_ref())?;
    if let Some(board) = &outcome.board {
        crate::live::verified(board, accepted.score);
    }
    crate::live::end(&outcome.status.to_string());
    Ok((outcome, accepted))
}
