//! `bench report`: runs files merged into a markdown table (the chart is in `chart.rs`).

use std::collections::BTreeMap;
use std::fmt::Write as _;

use super::records::{BenchArm, Run};

/// One rung of the table: an arm at a budget, a colour setting and a size.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Rung {
    /// Colour setting, e.g. `5+17`.
    pub colours: String,
    /// Board side.
    pub size: u64,
    /// Arm name.
    pub arm: String,
    /// Budget in milliseconds (an integer, to sort and group by).
    pub budget_ms: u64,
}

/// What the runs of one rung add up to.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Summary {
    /// Runs.
    pub runs: usize,
    /// Verified full solutions.
    pub solved: usize,
    /// Seconds of the solved runs, sorted.
    pub solve_seconds: Vec<f64>,
    /// Seconds of all runs (unsolved ones at their budget), sorted.
    pub all_seconds: Vec<f64>,
    /// Verified scores of the runs that returned a board, sorted.
    pub scores: Vec<u64>,
    /// Target score (full board).
    pub target: u64,
    /// Nodes (DFS), sorted.
    pub nodes: Vec<u64>,
    /// Workers and cores seen.
    pub workers: Vec<u64>,
}

/// A job: arm, instance and budget in milliseconds.
pub type Job = (BenchArm, String, u64);

/// The runs that count, by job: when one job appears more than once (several
/// runs files, or a job run again), the last one read.
pub fn latest(runs: &[Run]) -> BTreeMap<Job, &Run> {
    let mut latest: BTreeMap<Job, &Run> = BTreeMap::new();
    for run in runs {
        let _ = latest.insert((run.arm, run.instance.clone(), budget_ms(run.budget)), run);
    }
    latest
}

/// A budget in seconds as whole milliseconds, to sort and group by.
pub(crate) fn budget_ms(seconds: f64) -> u64 {
    (seconds * 1000.0).round() as u64
}

/// Groups runs by rung. When one job appears more than once (several runs
/// files), the last one read counts (see [`latest`]).
pub fn summarize(runs: &[Run]) -> BTreeMap<Rung, Summary> {
    let mut rungs: BTreeMap<Rung, Summary> = BTreeMap::new();
    for ((arm, _, budget_ms), run) in latest(runs) {
        let rung = Rung { colours: run.colours.clone(), size: run.size as u64, arm: arm.name().to_owned(), budget_ms };
        let s = rungs.entry(rung).or_default();
        s.runs += 1;
        if run.solved {
            s.solved += 1;
            s.solve_seconds.push(run.seconds);
        }
        s.all_seconds.push(run.seconds);
        if run.returned_board() {
            s.scores.push(run.verified_score as u64);
        }
        s.target = run.target as u64;
        s.nodes.extend(run.nodes);
        if let Some(w) = run.provenance.workers.map(u64::from)
            && !s.workers.contains(&w)
        {
            s.workers.push(w);
        }
    }
    for s in rungs.values_mut() {
        s.solve_seconds.sort_by(f64::total_cmp);
        s.all_seconds.sort_by(f64::total_cmp);
        s.scores.sort_unstable();
        s.nodes.sort_unstable();
    }
    rungs
}

fn median<T: Copy>(xs: &[T]) -> Option<T> {
    (!xs.is_empty()).then(|| xs[(xs.len() - 1) / 2])
}

/// Seconds with two decimals below 10 s (fast solvers differ there), one above.
fn secs(s: f64) -> String {
    if s < 10.0 { format!("{s:.2}") } else { format!("{s:.1}") }
}

/// A budget in milliseconds as seconds, without a fraction when whole.
pub(crate) fn budget(ms: u64) -> String {
    let s = ms as f64 / 1000.0;
    if s.fract() == 0.0 { format!("{s:.0}") } else { format!("{s}") }
}

/// The markdown table, one row per rung.
pub fn markdown(rungs: &BTreeMap<Rung, Summary>) -> String {
    let mut out = String::from(
        "| colours | size | arm | budget (s) | full solves | seconds to solve (min / median / max) | verified score of the boards returned (min / median / max) / target | median nodes |\n\
         |---|---|---|---|---|---|---|---|\n",
    );
    for (rung, s) in rungs {
        let secs = match (s.solve_seconds.first(), median(&s.solve_seconds), s.solve_seconds.last()) {
            (Some(a), Some(m), Some(b)) => format!("{} / {} / {}", secs(*a), secs(m), secs(*b)),
            _ => "—".to_owned(),
        };
        let scores = match (s.scores.first(), median(&s.scores), s.scores.last()) {
            (Some(a), Some(m), Some(b)) if s.scores.len() == s.runs => format!("{a} / {m} / {b} of {}", s.target),
            (Some(a), Some(m), Some(b)) => {
                format!("{a} / {m} / {b} of {} ({} of {} runs returned a board)", s.target, s.scores.len(), s.runs)
            }
            _ => "no board".to_owned(),
        };
        let nodes = median(&s.nodes).map_or("—".to_owned(), |n| format!("{:.1} M", n as f64 / 1e6));
        let _ = writeln!(
            out,
            "| {} | {}×{} | {} | {} | {}/{} | {secs} | {scores} | {nodes} |",
            rung.colours,
            rung.size,
            rung.size,
            rung.arm,
            budget(rung.budget_ms),
            s.solved,
            s.runs
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Value, json};

    /// A typed run from the fields a test cares about, the rest filled in.
    fn typed(mut v: Value) -> Run {
        let defaults = json!({"seed": 1, "status": "unknown", "nodes": null, "restarts": null, "model": null,
                              "commit": "test", "dirty": false, "ortools": "9.15.6755", "cores": 2});
        for (k, d) in defaults.as_object().unwrap() {
            if v.get(k).is_none() {
                v[k] = d.clone();
            }
        }
        serde_json::from_value(v).unwrap()
    }

    #[test]
    fn rungs_count_solves_and_scores() {
        let runs = vec![
            json!({"arm": "dfs", "instance": "a", "budget": 20.0, "colours": "5+17", "size": 10, "solved": true,
                   "seconds": 3.0, "verified_score": 180, "target": 180, "nodes": 100, "workers": 1}),
            json!({"arm": "dfs", "instance": "b", "budget": 20.0, "colours": "5+17", "size": 10, "solved": false,
                   "seconds": 20.0, "verified_score": 120, "target": 180, "nodes": 300, "workers": 1}),
            json!({"arm": "cpsat", "instance": "a", "budget": 300.0, "colours": "5+17", "size": 10, "solved": true,
                   "seconds": 1.5, "verified_score": 180, "target": 180, "workers": 2}),
        ];
        let rungs = summarize(&runs.into_iter().map(typed).collect::<Vec<_>>());
        assert_eq!(rungs.len(), 2);
        let table = markdown(&rungs);
        assert!(
            table.contains("| 5+17 | 10×10 | dfs | 20 | 1/2 | 3.00 / 3.00 / 3.00 | 120 / 120 / 180 of 180 |"),
            "{table}"
        );
        assert!(table.contains("| 5+17 | 10×10 | cpsat | 300 | 1/1 |"), "{table}");
    }

    #[test]
    fn runs_without_a_board_have_no_score() {
        let cpsat = |instance: &str, solved: bool, board: Option<bool>| {
            let mut run = json!({"arm": "cpsat", "instance": instance, "budget": 120.0, "colours": "5+26",
                                 "size": 15, "solved": solved, "seconds": if solved { 9.0 } else { 120.0 },
                                 "verified_score": if solved { 420 } else { 0 }, "target": 420, "workers": 2});
            if let Some(board) = board {
                run["board"] = json!(board);
            }
            typed(run)
        };
        // Old lines (no `board` field) and new ones read alike.
        let table = markdown(&summarize(&[cpsat("a", false, None), cpsat("b", false, Some(false))]));
        assert!(table.contains("| 0/2 | — | no board |"), "{table}");
        let table = markdown(&summarize(&[cpsat("a", true, None), cpsat("b", false, Some(false))]));
        assert!(table.contains("| 420 / 420 / 420 of 420 (1 of 2 runs returned a board) |"), "{table}");
    }
}
