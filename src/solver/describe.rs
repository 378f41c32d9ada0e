//! What `solve` prints of a solver: the `solver:` line saying what runs, and the counters it ends with.

use super::compose::SEARCH_SHARE;
use super::{Limits, Solver, SolverKind, Stats};
use crate::{cpsat, search};

impl Solver {
    /// One line saying what runs for the score objective, for the `solver:` line of `solve`.
    pub fn describe_score(&self, limits: &Limits) -> String {
        let walks = SolverKind::Search.threads(limits.threads);
        let walk = "scan";
        match self {
            Solver::Search(_) => {
                format!("search for the score ({walk} walk on {walks} thread(s), seed {})", limits.seed)
            }
            Solver::Auto(_) if limits.time_limit.is_some() => format!(
                "auto for the score ({walk} walk on {walks} thread(s); CP-SAT completes a board if the walk has none at {:.0}% of the time)",
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
            Stats::Score(s) => score_lines(s, seconds),
        }
    }
}

/// The score search's counters, as `solve` prints them.
fn score_lines(s: &crate::score::Stats, seconds: f64) -> Vec<(&'static str, String)> {
    vec![
        ("nodes", s.nodes.to_string()),
        ("nodes_per_second", format!("{:.0}", s.nodes as f64 / seconds.max(1e-9))),
        ("attempts", s.attempts.to_string()),
        ("walks", score_walks(&s.walks)),
        (
            "placements_per_walk_cpu_second",
            if s.walk_cpu_seconds > 0.0 {
                format!("{:.0}", s.nodes as f64 / s.walk_cpu_seconds)
            } else {
                "-".to_owned()
            },
        ),
        ("best_breaks", s.best_breaks.map_or_else(|| "none".to_owned(), |b| b.to_string())),
        ("best_seconds", s.best_seconds.map_or_else(|| "-".to_owned(), |t| format!("{t:.3}"))),
        ("deepest", s.deepest.to_string()),
        ("attempts_by_depth", score_depths(&s.depths)),
        (
            "completions",
            format!(
                "{} of {} offered ({} better, {} failed, {} dropped unread) by {} completion worker(s)",
                s.completions, s.reported, s.completions_improved, s.completions_failed, s.dropped, s.completers
            ),
        ),
        ("completions_by_depth", score_completions(&s.completions_by_depth)),
        ("boards_by_score", crate::score::census::describe(&s.census)),
        (
            "saved",
            match &s.save_failed {
                Some(why) => format!("{} (a save failed: {why})", s.saved),
                None => s.saved.to_string(),
            },
        ),
        (
            "cpsat_completion",
            s.completion_failed.as_ref().map_or_else(|| "-".to_owned(), |why| format!("failed: {why}")),
        ),
    ]
}

/// How many walks ran, and the fewest and most attempts one started: `8 (attempts each 1-3)`.
fn score_walks(walks: &[u64]) -> String {
    match (walks.iter().min(), walks.iter().max()) {
        (Some(lo), Some(hi)) => format!("{} (attempts each {lo}-{hi})", walks.len()),
        _ => "0".to_owned(),
    }
}

/// The boards offered and completed at the deepest depths, as `DEPTH:COMPLETED/OFFERED` (at most six).
fn score_completions(by_depth: &[(usize, u64, u64)]) -> String {
    let parts: Vec<String> = by_depth.iter().take(6).map(|(d, o, c)| format!("{d}:{c}/{o}")).collect();
    if parts.is_empty() { "-".to_owned() } else { parts.join(" ") }
}

/// The deepest depths the scan walk's attempts reached, deepest first, as `DEPTH:ATTEMPTS` (at most eight).
fn score_depths(depths: &[usize]) -> String {
    let parts: Vec<String> =
        depths.iter().enumerate().rev().filter(|&(_, &n)| n > 0).take(8).map(|(d, n)| format!("{d}:{n}")).collect();
    if parts.is_empty() { "-".to_owned() } else { parts.join(" ") }
}
