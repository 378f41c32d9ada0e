//! `bench score`'s report: its runs as a markdown table and a time-to-score chart (SVG, one panel per board and budget).

use std::collections::BTreeMap;
use std::fmt::Write as _;

use super::records::Run;
use super::score::{ScoreArm, ScoreRun};

/// The runs that count: when one job appears more than once (several runs
/// files, or a job run again), the last one read; in the order first seen.
/// A run the checker ended (its `error`) has no score and is left out.
pub fn latest(runs: &[ScoreRun]) -> Vec<&ScoreRun> {
    let mut order: Vec<String> = Vec::new();
    let mut by_key: BTreeMap<String, &ScoreRun> = BTreeMap::new();
    for run in runs.iter().filter(|r| r.error.is_none()) {
        if by_key.insert(run.key(), run).is_none() {
            order.push(run.key());
        }
    }
    order.iter().map(|k| by_key[k]).collect()
}

/// The markdown table: one row per board, budget, seed and arm; then the
/// runs' rates (distinct boards by score) and the plans the walks settled.
pub fn markdown(runs: &[ScoreRun]) -> String {
    let mut out = String::from(
        "| board | budget (s) | seed | arm | best score (verified) | found at (s) | first full board | workers | commit |\n\
         |---|---|---|---|---|---|---|---|---|\n",
    );
    for run in latest(runs) {
        let best = if run.full() {
            format!("**{}** / {}", run.score, run.max_score)
        } else if run.placed == 0 {
            "no board".to_owned()
        } else {
            format!("partial: {} joins, {} of {} cells", run.score, run.placed, run.cells)
        };
        let first = run.trace.first().map_or_else(|| "—".to_owned(), |&(t, s)| format!("{s} at {t:.1} s"));
        let workers = run.provenance.workers.map_or_else(|| "—".to_owned(), |w| w.to_string());
        let commit: String = run.provenance.commit.chars().take(7).collect();
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {best} | {:.1} | {first} | {workers} | {commit}{} |",
            run.board,
            run.budget,
            run.seed,
            run.arm,
            run.best_seconds,
            if run.provenance.dirty { "+" } else { "" }
        );
    }
    out.push_str(&rates(runs));
    out.push_str(&plans(runs));
    out
}

/// The rates table: per run with a census, its distinct verified full boards at
/// the best score and at each of the four below it (as eii's rates were given).
fn rates(runs: &[ScoreRun]) -> String {
    let counted: Vec<&ScoreRun> = latest(runs).into_iter().filter(|r| !r.census.is_empty()).collect();
    if counted.is_empty() {
        return String::new();
    }
    let mut out = String::from(
        "\nDistinct verified full boards by score (best, and the four scores below it):\n\n\
         | board | budget (s) | seed | arm | best | −1 | −2 | −3 | −4 |\n|---|---|---|---|---|---|---|---|---|\n",
    );
    for run in counted {
        let top = run.census.first().map_or(run.score, |c| c.0);
        let cells: Vec<String> = (0..=4)
            .map(|k| {
                let score = top.saturating_sub(k);
                let n = run.census.iter().find(|c| c.0 == score).map_or(0, |c| c.1);
                format!("{score}: {n}")
            })
            .collect();
        let _ =
            writeln!(out, "| {} | {} | {} | {} | {} |", run.board, run.budget, run.seed, run.arm, cells.join(" | "));
    }
    out
}

/// The plan each run settled (its `plan:` line), one line per run that settled one.
fn plans(runs: &[ScoreRun]) -> String {
    let planned: Vec<&ScoreRun> = latest(runs).into_iter().filter(|r| !r.plan.is_empty()).collect();
    if planned.is_empty() {
        return String::new();
    }
    let mut out = String::from("\nPlans (the `plan:` line of each run):\n\n");
    for run in planned {
        let _ = writeln!(out, "- {} {} s seed {} {}: {}", run.board, run.budget, run.seed, run.arm, run.plan);
    }
    out
}

/// The cliff table's last section: for each rung (colour setting and size)
/// with boards no cliff arm solved, the best verified full-board score that
/// `bench score` reached on those boards, with the arm and budget.
pub fn unsolved_rungs(cliff: &[Run], scores: &[ScoreRun]) -> String {
    let mut boards: BTreeMap<(String, usize), BTreeMap<String, bool>> = BTreeMap::new();
    for run in cliff {
        let solved =
            boards.entry((run.colours.clone(), run.size)).or_default().entry(run.instance.clone()).or_default();
        *solved |= run.solved;
    }
    let mut out = String::from(
        "\nBest score on the boards no arm above solves (full boards from `bench score`, verified):\n\n\
         | colours | size | unsolved boards | best score per board (arm, budget) |\n|---|---|---|---|\n",
    );
    for ((colours, size), instances) in &boards {
        let unsolved: Vec<&String> = instances.iter().filter(|(_, solved)| !**solved).map(|(name, _)| name).collect();
        if unsolved.is_empty() {
            continue;
        }
        let best: Vec<String> = unsolved
            .iter()
            .map(|name| {
                let runs = latest(scores);
                let top =
                    runs.iter().filter(|r| r.board == **name && r.full()).max_by_key(|r| (r.score, -r.budget as i64));
                match top {
                    Some(r) => format!("{name}: **{}**/{} ({}, {} s)", r.score, r.max_score, r.arm, r.budget),
                    None => format!("{name}: not run"),
                }
            })
            .collect();
        let _ = writeln!(out, "| {colours} | {size}×{size} | {} | {} |", unsolved.len(), best.join("<br>"));
    }
    out
}

/// One colour per arm, the same in every panel.
fn colour(arm: ScoreArm) -> &'static str {
    match arm {
        ScoreArm::Search => "#1f77b4",
        ScoreArm::Auto => "#8c564b",
        ScoreArm::Repair => "#d62728",
        ScoreArm::Cpsat => "#2ca02c",
        ScoreArm::Mip => "#ff7f0e",
        ScoreArm::Dfs => "#7f7f7f",
        ScoreArm::Blackwood => "#9467bd",
    }
}

/// A panel's axes: seconds on a log scale from 0.1 to the budget, scores
/// linear from `lo` to a full board.
struct Panel {
    left: f64,
    top: f64,
    budget: f64,
    lo: usize,
    hi: usize,
}

impl Panel {
    const W: f64 = 300.0;
    const H: f64 = 200.0;
    const PAD: f64 = 40.0;
    const T_MIN: f64 = 0.1;

    fn x(&self, t: f64) -> f64 {
        let (lo, hi) = (Self::T_MIN.log10(), self.budget.max(1.0).log10());
        self.left
            + Self::PAD
            + (t.clamp(Self::T_MIN, self.budget).log10() - lo) / (hi - lo) * (Self::W - 1.5 * Self::PAD)
    }

    /// Scores linear from `lo` (the bottom) to a full board (the top).
    fn y(&self, score: usize) -> f64 {
        let f = (score.clamp(self.lo, self.hi) - self.lo) as f64 / (self.hi - self.lo).max(1) as f64;
        self.top + Self::H - Self::PAD - f * (Self::H - 1.6 * Self::PAD)
    }

    /// Frame, title, and ticks.
    fn axes(&self, title: &str, out: &mut String) {
        let (l, t) = (self.left + Self::PAD, self.top + Self::H - Self::PAD);
        let _ = writeln!(
            out,
            "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" font-weight=\"bold\">{title}</text>",
            self.left + Self::W / 2.0,
            self.top + 16.0
        );
        let _ = writeln!(
            out,
            "<path d=\"M{l} {} V{t} H{}\" stroke=\"black\" fill=\"none\"/>",
            self.top + 0.6 * Self::PAD,
            self.left + Self::W - 0.5 * Self::PAD
        );
        let mut tick = Self::T_MIN;
        while tick <= self.budget * 1.0001 {
            let _ = writeln!(
                out,
                "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{tick}</text>",
                self.x(tick),
                t + 14.0
            );
            tick *= 10.0;
        }
        let _ = writeln!(
            out,
            "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\" fill=\"#555\">s</text>",
            self.left + Self::W - 0.5 * Self::PAD,
            t + 26.0
        );
        let step = ((self.hi - self.lo) / 5).max(1).next_multiple_of(5);
        for s in (0..=self.hi).rev().step_by(step).take_while(|&s| s >= self.lo) {
            let _ =
                writeln!(out, "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{s}</text>", l - 4.0, self.y(s) + 4.0);
            let _ = writeln!(
                out,
                "<path d=\"M{l} {0:.1} H{1:.1}\" stroke=\"#ddd\"/>",
                self.y(s),
                self.left + Self::W - 0.5 * Self::PAD
            );
        }
    }

    /// A run's best score over time: a step line from its first full board to
    /// its end; a run whose best is below the panel, a mark on its floor with the score.
    fn trace(&self, run: &ScoreRun, out: &mut String) {
        let Some(&(t0, s0)) = run.trace.first() else { return };
        if run.score < self.lo {
            let (x, y) = (self.x(run.best_seconds), self.y(self.lo));
            // The MIP's label one line above the others', so two marks at the budget stay readable.
            let label_y = y - 2.0 - if run.arm == ScoreArm::Mip { 11.0 } else { 0.0 };
            let (colour, score, label_x) = (colour(run.arm), run.score, x - 6.0);
            let _ = writeln!(
                out,
                "<path d=\"M{x:.1} {y:.1} l-4 -7 h8 z\" fill=\"{colour}\"/>\
                 <text x=\"{label_x:.1}\" y=\"{label_y:.1}\" text-anchor=\"end\" fill=\"{colour}\">{score}</text>"
            );
            return;
        }
        let mut d = format!("M{:.1} {:.1}", self.x(t0), self.y(s0));
        for &(t, s) in &run.trace[1..] {
            let _ = write!(d, " H{:.1} V{:.1}", self.x(t), self.y(s));
        }
        let _ = write!(d, " H{:.1}", self.x(run.seconds.max(t0)));
        let _ = writeln!(out, "<path d=\"{d}\" stroke=\"{}\" stroke-width=\"2\" fill=\"none\"/>", colour(run.arm));
        let &(t, s) = run.trace.last().expect("a first point");
        let _ = writeln!(
            out,
            "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"3\" fill=\"{}\"/>",
            self.x(t),
            self.y(s),
            colour(run.arm)
        );
    }
}

/// The time-to-score chart: one panel per board and budget (seconds on a log
/// scale against the best full board's score so far, from the contenders'
/// first board to a full one; weaker runs marked on the floor), one colour per arm in every
/// panel, one legend. Partial boards (the DFS) are not scores and are left
/// out; the table has them.
pub fn svg(runs: &[ScoreRun]) -> String {
    let runs = latest(runs);
    let mut panels: Vec<(String, f64)> = Vec::new();
    for run in &runs {
        if !panels.iter().any(|(b, budget)| *b == run.board && *budget == run.budget) {
            panels.push((run.board.clone(), run.budget));
        }
    }
    let columns = panels.len().clamp(1, 3);
    let rows = panels.len().div_ceil(columns).max(1);
    let legend_h = 58.0;
    let (width, height) = (Panel::W * columns as f64 + 20.0, Panel::H * rows as f64 + legend_h + 10.0);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" font-family=\"sans-serif\" font-size=\"11\">"
    );
    let _ = writeln!(out, "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>");
    for (i, (board, budget)) in panels.iter().enumerate() {
        let here: Vec<&&ScoreRun> = runs.iter().filter(|r| r.board == *board && r.budget == *budget).collect();
        let hi = here.iter().map(|r| r.max_score).max().unwrap_or(1);
        // The floor: the first full board of the runs within a fifth of the
        // full score (the contenders), rounded down to ten.
        let contenders = here.iter().filter(|r| r.full() && r.score * 5 >= hi * 4);
        let first = contenders.filter_map(|r| r.trace.first().map(|p| p.1)).min().unwrap_or(0);
        let lo = (first / 10 * 10).min(hi.saturating_sub(10));
        let panel = Panel {
            left: 10.0 + Panel::W * (i % columns) as f64,
            top: legend_h + Panel::H * (i / columns) as f64,
            budget: *budget,
            lo,
            hi,
        };
        panel.axes(&format!("{board}, {budget} s (max {hi})"), &mut out);
        for run in here {
            panel.trace(run, &mut out);
        }
    }
    let mut x = 20.0;
    for arm in ScoreArm::ALL.iter().copied().filter(|&a| a != ScoreArm::Dfs) {
        if runs.iter().any(|r| r.arm == arm) {
            let _ = writeln!(
                out,
                "<path d=\"M{x} 15 H{}\" stroke=\"{}\" stroke-width=\"3\"/><text x=\"{}\" y=\"19\">{arm}</text>",
                x + 20.0,
                colour(arm),
                x + 25.0
            );
            x += 40.0 + 7.0 * arm.name().len() as f64;
        }
    }
    let _ = writeln!(
        out,
        "<text x=\"20\" y=\"36\" fill=\"#555\">best full-board score so far vs seconds (log); dot: the run's best;</text>\
         <text x=\"20\" y=\"50\" fill=\"#555\">a triangle on the floor: a run whose best is below the panel, with its score</text>"
    );
    out.push_str("</svg>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::records::Provenance;

    fn run(arm: ScoreArm, board: &str, score: usize, placed: usize, trace: Vec<(f64, usize)>) -> ScoreRun {
        ScoreRun {
            arm,
            board: board.to_owned(),
            budget: 60.0,
            max_score: 480,
            score,
            placed,
            cells: 256,
            best_seconds: trace.last().map_or(60.0, |p| p.0),
            seconds: 60.0,
            trace,
            seed: 1,
            census: Vec::new(),
            plan: String::new(),
            error: None,
            provenance: Provenance {
                commit: "abcdef0123".into(),
                dirty: false,
                ortools: "9.15".into(),
                cores: 2,
                workers: Some(2),
                load: None,
            },
        }
    }

    #[test]
    fn unsolved_rungs_show_the_best_full_board_of_each_unsolved_board() {
        let cliff_run = |instance: &str, solved: bool| -> Run {
            serde_json::from_value(serde_json::json!({"arm": "search", "instance": instance, "size": 16,
                "colours": "5+17", "seed": 1, "budget": 30.0, "status": if solved { "solved" } else { "unknown" },
                "solved": solved, "verified_score": 0, "target": 480, "seconds": 30.0, "nodes": null,
                "restarts": null, "model": null, "commit": "c", "ortools": "9.15", "cores": 2}))
            .unwrap()
        };
        let cliff = vec![cliff_run("a", true), cliff_run("b", false), cliff_run("c", false)];
        let scores = vec![
            run(ScoreArm::Search, "b", 451, 256, vec![(5.0, 451)]),
            run(ScoreArm::Cpsat, "b", 200, 256, vec![(60.0, 200)]),
            run(ScoreArm::Dfs, "b", 470, 200, vec![]),
        ];
        let table = unsolved_rungs(&cliff, &scores);
        assert!(table.contains("| 5+17 | 16×16 | 2 | b: **451**/480 (search, 60 s)<br>c: not run |"), "{table}");
        assert!(!table.contains("a:"));
    }

    #[test]
    fn the_table_and_chart_show_the_latest_run_of_each_job() {
        let runs = vec![
            run(ScoreArm::Search, "official-centre", 440, 256, vec![(1.0, 400), (20.0, 440)]),
            run(ScoreArm::Search, "official-centre", 445, 256, vec![(1.0, 400), (30.0, 445)]),
            run(ScoreArm::Dfs, "official-centre", 380, 205, vec![]),
            run(ScoreArm::Cpsat, "official-five", 0, 0, vec![]),
        ];
        assert_eq!(latest(&runs).len(), 3);
        let table = markdown(&runs);
        assert!(
            table.contains("| official-centre | 60 | 1 | search | **445** / 480 | 30.0 | 400 at 1.0 s | 2 | abcdef0 |")
        );
        assert!(table.contains("partial: 380 joins, 205 of 256 cells"));
        assert!(table.contains("no board"));
        assert!(!table.contains("**440**"));
        assert!(!table.contains("Distinct verified"), "no census, no rates table");
        let chart = svg(&runs);
        assert_eq!(chart.matches("stroke-width=\"2\"").count(), 1, "one step line: the latest search run");
        assert!(chart.contains("official-five, 60 s"));
        assert!(chart.ends_with("</svg>\n"));
    }

    /// A run's census becomes its rates row, a score missing from the census
    /// shown as 0, and its plan line is listed; a second seed is a job of its
    /// own. Fails if the rates are read from the wrong end or a seed's run
    /// replaces another's.
    #[test]
    fn rates_show_the_best_and_the_four_scores_below_it_per_seed() {
        let mut first = run(ScoreArm::Search, "official-centre", 466, 256, vec![(9.0, 466)]);
        first.census = vec![(466, 1), (465, 3), (463, 40), (462, 90)];
        first.plan = "order band-sw, breaks band".to_owned();
        let mut second = first.clone();
        second.seed = 2;
        second.census = vec![(465, 2)];
        let table = markdown(&[first, second]);
        assert!(
            table.contains("| official-centre | 60 | 1 | search | 466: 1 | 465: 3 | 464: 0 | 463: 40 | 462: 90 |"),
            "{table}"
        );
        assert!(table.contains("| official-centre | 60 | 2 | search | 465: 2 | 464: 0 |"), "{table}");
        assert!(table.contains("- official-centre 60 s seed 1 search: order band-sw, breaks band"), "{table}");
    }
}
