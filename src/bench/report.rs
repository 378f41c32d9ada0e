//! `bench report`: runs files merged into a markdown table and an SVG chart.

use std::collections::{BTreeMap, BTreeSet};
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

/// A point of a series: board side, solved fraction, median seconds.
type Point = (u64, f64, f64);

/// The chart's series, keyed by (arm and budget, colour setting).
fn series(rungs: &BTreeMap<Rung, Summary>) -> BTreeMap<(String, String), Vec<Point>> {
    let mut series: BTreeMap<(String, String), Vec<Point>> = BTreeMap::new();
    for (rung, s) in rungs {
        // The DFS budgets are rungs of their own; the other arms' limits may vary by size.
        let arm = if rung.arm == "dfs" { format!("dfs {} s", budget(rung.budget_ms)) } else { rung.arm.clone() };
        let frac = s.solved as f64 / s.runs.max(1) as f64;
        let med = median(&s.all_seconds).unwrap_or(f64::NAN);
        series.entry((arm, rung.colours.clone())).or_default().push((rung.size, frac, med));
    }
    series
}

/// The two panels' geometry: sizes `lo..=hi` across, each panel `w` by `h` with margin `pad`.
struct Frame {
    lo: u64,
    hi: u64,
    w: f64,
    h: f64,
    pad: f64,
}

impl Frame {
    /// Seconds on the log axis run from 0.01 to 1000.
    const T_MIN: f64 = 0.01;
    const T_MAX: f64 = 1000.0;

    fn x(&self, size: u64, left: f64) -> f64 {
        left + self.pad + (size - self.lo) as f64 / ((self.hi - self.lo).max(1)) as f64 * (self.w - 2.0 * self.pad)
    }

    fn y_frac(&self, f: f64) -> f64 {
        self.h - self.pad - f * (self.h - 2.0 * self.pad)
    }

    fn y_time(&self, t: f64) -> f64 {
        let (lo, hi) = (Self::T_MIN.log10(), Self::T_MAX.log10());
        self.h - self.pad - (t.clamp(Self::T_MIN, Self::T_MAX).log10() - lo) / (hi - lo) * (self.h - 2.0 * self.pad)
    }

    /// Titles, axes and tick labels of both panels.
    fn axes(&self, out: &mut String) {
        let (w, h, pad) = (self.w, self.h, self.pad);
        for (left, title) in [(0.0, "solved fraction"), (w, "median seconds (log; unsolved at budget)")] {
            let _ = writeln!(
                out,
                "<text x=\"{}\" y=\"20\" text-anchor=\"middle\" font-weight=\"bold\">{title}</text>",
                left + w / 2.0
            );
            let _ = writeln!(
                out,
                "<path d=\"M{0} {1} V{2} H{3}\" stroke=\"black\" fill=\"none\"/>",
                left + pad,
                pad,
                h - pad,
                left + w - pad
            );
            for size in self.lo..=self.hi {
                let _ = writeln!(
                    out,
                    "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{size}</text>",
                    self.x(size, left),
                    h - pad + 16.0
                );
            }
        }
        for f in [0.0, 0.5, 1.0] {
            let _ = writeln!(
                out,
                "<text x=\"{}\" y=\"{}\" text-anchor=\"end\">{f}</text>",
                pad - 6.0,
                self.y_frac(f) + 4.0
            );
        }
        for t in [0.01, 0.1, 1.0, 10.0, 100.0, 1000.0] {
            let _ = writeln!(
                out,
                "<text x=\"{}\" y=\"{}\" text-anchor=\"end\">{t}</text>",
                w + pad - 6.0,
                self.y_time(t) + 4.0
            );
        }
    }
}

/// One colour per arm and budget.
const COLOURS: [&str; 10] =
    ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf", "#7f7f7f", "#bcbd22"];
/// One dash pattern per colour setting (the first solid).
const DASHES: [&str; 4] =
    ["", " stroke-dasharray=\"7 4\"", " stroke-dasharray=\"2 3\"", " stroke-dasharray=\"9 3 2 3\""];

/// An SVG chart: solved fraction (left) and median seconds over all runs
/// (right, log scale; unsolved runs count at their budget) against board size,
/// one line per arm, budget and colour setting: the colour tells the arm and
/// budget, the dash pattern the colour setting.
pub fn svg(rungs: &BTreeMap<Rung, Summary>) -> String {
    let series = series(rungs);
    let arms: BTreeSet<&String> = series.keys().map(|k| &k.0).collect();
    let settings: BTreeSet<&String> = series.keys().map(|k| &k.1).collect();
    let rank = |set: &BTreeSet<&String>, name: &String| set.iter().position(|n| *n == name).unwrap_or(0);
    let sizes: Vec<u64> = rungs.keys().map(|r| r.size).collect();
    let frame = Frame {
        lo: sizes.iter().copied().min().unwrap_or(0),
        hi: sizes.iter().copied().max().unwrap_or(1).max(1),
        w: 420.0,
        h: 300.0,
        pad: 50.0,
    };
    let (w, h, pad) = (frame.w, frame.h, frame.pad);
    let legend_h = 18.0 * series.len() as f64 + 10.0;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" font-family=\"sans-serif\" font-size=\"12\">",
        2.0 * w,
        h + legend_h
    );
    let _ = writeln!(out, "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>");
    frame.axes(&mut out);
    let (x, y_frac, y_time) = (|s, left| frame.x(s, left), |f| frame.y_frac(f), |t| frame.y_time(t));
    for (i, ((arm, colours), points)) in series.iter().enumerate() {
        let colour = COLOURS[rank(&arms, arm) % COLOURS.len()];
        let dash = DASHES[rank(&settings, colours) % DASHES.len()];
        let name = format!("{arm}, {colours}");
        let frac: Vec<String> = points.iter().map(|&(s, f, _)| format!("{:.1},{:.1}", x(s, 0.0), y_frac(f))).collect();
        let time: Vec<String> = points
            .iter()
            .filter(|p| p.2.is_finite())
            .map(|&(s, _, t)| format!("{:.1},{:.1}", x(s, w), y_time(t)))
            .collect();
        for pts in [frac, time] {
            let _ = writeln!(
                out,
                "<polyline points=\"{}\" fill=\"none\" stroke=\"{colour}\" stroke-width=\"2\"{dash}/>",
                pts.join(" ")
            );
            // Markers, so that a series of one size still shows.
            for p in &pts {
                let (cx, cy) = p.split_once(',').expect("x,y");
                let _ = writeln!(out, "<circle cx=\"{cx}\" cy=\"{cy}\" r=\"3\" fill=\"{colour}\"/>");
            }
        }
        let ly = h + 14.0 + 18.0 * i as f64;
        let _ = writeln!(
            out,
            "<line x1=\"{pad}\" y1=\"{ly}\" x2=\"{}\" y2=\"{ly}\" stroke=\"{colour}\" stroke-width=\"2\"{dash}/>\
             <text x=\"{}\" y=\"{}\">{name}</text>",
            pad + 30.0,
            pad + 36.0,
            ly + 4.0
        );
    }
    out.push_str("</svg>\n");
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
        let chart = svg(&rungs);
        assert!(chart.starts_with("<svg") && chart.contains("polyline"));
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
