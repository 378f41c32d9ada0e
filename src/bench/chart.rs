//! The rungs chart of `bench report`: small multiples, one column per colour setting or collection.
//!
//! Each column is one colour setting (`5+17`, `5+26`) or collection
//! (`heule2008`, `brendan`, ...), with its own board sizes across; the top
//! panel of a column shows the solved fraction, the bottom one the median
//! seconds over all runs (log scale, an unsolved run counting at its
//! budget). An arm has one colour in every panel and a budget one mark, so
//! that one legend serves the whole chart and two budgets of one arm are two
//! lines, never a vertical segment. Arms that agree are drawn a pixel or two
//! apart, so that none hides another.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use super::report::{Rung, Summary, budget};

/// One colour per arm, in the arms' sorted order.
const COLOURS: [&str; 10] =
    ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf", "#7f7f7f", "#bcbd22"];

/// Panel geometry: a panel is `W` by `H` inside margins `LEFT`, `TOP`, `BOTTOM`.
const W: f64 = 190.0;
const H: f64 = 150.0;
const LEFT: f64 = 46.0;
const RIGHT: f64 = 14.0;
const TOP: f64 = 44.0;
const BOTTOM: f64 = 34.0;

/// Seconds on the log axis run from 0.01 to 1000.
const T_MIN: f64 = 0.01;
const T_MAX: f64 = 1000.0;

/// A point: board side, solved fraction, median seconds.
type Point = (u64, f64, f64);

/// A line: (setting, arm, budget in ms) and its points by size.
type Lines = BTreeMap<(String, String, u64), Vec<Point>>;

fn lines(rungs: &BTreeMap<Rung, Summary>) -> Lines {
    let mut lines = Lines::new();
    for (rung, s) in rungs {
        let frac = s.solved as f64 / s.runs.max(1) as f64;
        let mut all = s.all_seconds.clone();
        all.sort_by(f64::total_cmp);
        let median = if all.is_empty() { f64::NAN } else { all[(all.len() - 1) / 2] };
        let key = (rung.colours.clone(), rung.arm.clone(), rung.budget_ms);
        lines.entry(key).or_default().push((rung.size, frac, median));
    }
    lines
}

/// The mark of the `rank`-th budget (smallest first), centred on (x, y), in `colour`.
fn mark(out: &mut String, rank: usize, x: f64, y: f64, colour: &str) {
    let r = 3.5;
    let style = format!("fill=\"{colour}\" stroke=\"{colour}\"");
    let hollow = format!("fill=\"white\" stroke=\"{colour}\" stroke-width=\"1.5\"");
    let (shape, fill) = (rank % 5, if (rank / 5).is_multiple_of(2) { &style } else { &hollow });
    let _ = match shape {
        0 => writeln!(out, "<circle cx=\"{x:.1}\" cy=\"{y:.1}\" r=\"{r}\" {fill}/>"),
        1 => writeln!(
            out,
            "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"{}\" height=\"{}\" {fill}/>",
            x - r,
            y - r,
            2.0 * r,
            2.0 * r
        ),
        2 => writeln!(
            out,
            "<path d=\"M{x:.1} {:.1} L{:.1} {:.1} L{:.1} {:.1} Z\" {fill}/>",
            y - r - 1.0,
            x + r + 0.5,
            y + r,
            x - r - 0.5,
            y + r
        ),
        3 => writeln!(
            out,
            "<path d=\"M{x:.1} {:.1} L{:.1} {y:.1} L{x:.1} {:.1} L{:.1} {y:.1} Z\" {fill}/>",
            y - r - 1.0,
            x + r + 1.0,
            y + r + 1.0,
            x - r - 1.0
        ),
        _ => writeln!(
            out,
            "<path d=\"M{x:.1} {:.1} L{:.1} {:.1} L{:.1} {:.1} Z\" {fill}/>",
            y + r + 1.0,
            x + r + 0.5,
            y - r,
            x - r - 0.5,
            y - r
        ),
    };
}

/// One panel's frame: its origin and its sizes across.
struct Panel {
    x0: f64,
    y0: f64,
    sizes: Vec<u64>,
}

impl Panel {
    fn x(&self, size: u64) -> f64 {
        let at = self.sizes.iter().position(|&s| s == size).unwrap_or(0);
        let n = self.sizes.len();
        // Sizes are spread evenly (a collection's sizes may skip some).
        if n == 1 { self.x0 + W / 2.0 } else { self.x0 + 10.0 + at as f64 / (n - 1) as f64 * (W - 20.0) }
    }

    fn y_frac(&self, f: f64) -> f64 {
        self.y0 + H - f * H
    }

    fn y_time(&self, t: f64) -> f64 {
        let (lo, hi) = (T_MIN.log10(), T_MAX.log10());
        self.y0 + H - (t.clamp(T_MIN, T_MAX).log10() - lo) / (hi - lo) * H
    }

    /// The box, the sizes below it, and the y labels (`ticks` as (value, y)).
    fn axes(&self, out: &mut String, ticks: &[(String, f64)], label_y: bool) {
        let _ = writeln!(
            out,
            "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"{W}\" height=\"{H}\" fill=\"none\" stroke=\"#999\"/>",
            self.x0, self.y0
        );
        for (text, y) in ticks {
            let _ = writeln!(
                out,
                "<line x1=\"{:.1}\" y1=\"{y:.1}\" x2=\"{:.1}\" y2=\"{y:.1}\" stroke=\"#eee\"/>",
                self.x0 + 1.0,
                self.x0 + W - 1.0
            );
            if label_y {
                let _ = writeln!(
                    out,
                    "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{text}</text>",
                    self.x0 - 5.0,
                    y + 4.0
                );
            }
        }
        for &size in &self.sizes {
            let _ = writeln!(
                out,
                "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{size}</text>",
                self.x(size),
                self.y0 + H + 15.0
            );
        }
    }
}

/// The chart: for each colour setting or collection, a column of two panels
/// (solved fraction above, median seconds below); one colour per arm, one
/// mark per budget, and one legend for both under the panels.
pub fn svg(rungs: &BTreeMap<Rung, Summary>) -> String {
    let lines = lines(rungs);
    let settings: Vec<String> = lines.keys().map(|k| k.0.clone()).collect::<BTreeSet<_>>().into_iter().collect();
    let arms: Vec<String> = lines.keys().map(|k| k.1.clone()).collect::<BTreeSet<_>>().into_iter().collect();
    let budgets: Vec<u64> = lines.keys().map(|k| k.2).collect::<BTreeSet<_>>().into_iter().collect();
    let colour = |arm: &str| COLOURS[arms.iter().position(|a| a == arm).unwrap_or(0) % COLOURS.len()];
    let rank = |b: u64| budgets.iter().position(|&x| x == b).unwrap_or(0);
    let column = LEFT + W + RIGHT;
    let width = (column * settings.len().max(1) as f64).max(640.0);
    let panels_h = 2.0 * (TOP + H + BOTTOM);
    let legend_rows = arms.len().div_ceil(4) + budgets.len().div_ceil(6);
    let height = panels_h + 24.0 + 18.0 * legend_rows as f64 + 10.0;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width:.0}\" height=\"{height:.0}\" font-family=\"sans-serif\" font-size=\"11\">"
    );
    let _ = writeln!(out, "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>");
    let _ = writeln!(
        out,
        "<text x=\"8\" y=\"16\" font-weight=\"bold\" font-size=\"12\">solved fraction</text>\
         <text x=\"8\" y=\"{:.0}\" font-weight=\"bold\" font-size=\"12\">median seconds (log; an unsolved run counts at its budget)</text>",
        TOP + H + BOTTOM + 16.0
    );
    let frac_ticks: Vec<(String, f64)> = [0.0, 0.5, 1.0].iter().map(|&f| (format!("{f}"), f)).collect();
    let time_ticks: Vec<(String, f64)> =
        [0.01, 0.1, 1.0, 10.0, 100.0, 1000.0].iter().map(|&t| (format!("{t}"), t)).collect();
    for (i, setting) in settings.iter().enumerate() {
        let sizes: Vec<u64> = lines
            .iter()
            .filter(|(k, _)| &k.0 == setting)
            .flat_map(|(_, points)| points.iter().map(|p| p.0))
            .collect::<BTreeSet<_>>()
            .into_iter()
            .collect();
        let x0 = i as f64 * column + LEFT;
        let top = Panel { x0, y0: TOP, sizes: sizes.clone() };
        let bottom = Panel { x0, y0: 2.0 * TOP + H + BOTTOM, sizes };
        let _ = writeln!(
            out,
            "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\" font-weight=\"bold\">{setting}</text>",
            x0 + W / 2.0,
            TOP - 13.0
        );
        let ticks = |panel: &Panel, ticks: &[(String, f64)], time: bool| -> Vec<(String, f64)> {
            ticks.iter().map(|(t, v)| (t.clone(), if time { panel.y_time(*v) } else { panel.y_frac(*v) })).collect()
        };
        top.axes(&mut out, &ticks(&top, &frac_ticks, false), true);
        bottom.axes(&mut out, &ticks(&bottom, &time_ticks, true), true);
        for ((_, arm, budget_ms), points) in lines.iter().filter(|(k, _)| &k.0 == setting) {
            let c = colour(arm);
            // Arms that agree (all solved, none solved) would hide one another:
            // each arm's line is moved up or down a little.
            let arm_rank = arms.iter().position(|a| a == arm).unwrap_or(0) as f64;
            let dodge = (arm_rank - (arms.len() as f64 - 1.0) / 2.0) * 1.6;
            for (panel, time) in [(&top, false), (&bottom, true)] {
                let xy: Vec<(f64, f64)> = points
                    .iter()
                    .filter(|p| !time || p.2.is_finite())
                    .map(|&(s, f, t)| (panel.x(s), dodge + if time { panel.y_time(t) } else { panel.y_frac(f) }))
                    .collect();
                let pts: Vec<String> = xy.iter().map(|(x, y)| format!("{x:.1},{y:.1}")).collect();
                let _ = writeln!(
                    out,
                    "<polyline points=\"{}\" fill=\"none\" stroke=\"{c}\" stroke-width=\"1.5\" stroke-opacity=\"0.8\"/>",
                    pts.join(" ")
                );
                for (x, y) in xy {
                    mark(&mut out, rank(*budget_ms), x, y, c);
                }
            }
        }
    }
    legend(&mut out, &arms, &budgets, panels_h + 18.0);
    out.push_str("</svg>\n");
    out
}

/// The one legend under the panels, from `y` down: the arms by colour, then
/// the budgets by mark.
fn legend(out: &mut String, arms: &[String], budgets: &[u64], mut y: f64) {
    for (k, arm) in arms.iter().enumerate() {
        let x = 12.0 + (k % 4) as f64 * 150.0;
        if k > 0 && k % 4 == 0 {
            y += 18.0;
        }
        let _ = writeln!(
            out,
            "<line x1=\"{x:.1}\" y1=\"{y:.1}\" x2=\"{:.1}\" y2=\"{y:.1}\" stroke=\"{}\" stroke-width=\"3\"/>\
             <text x=\"{:.1}\" y=\"{:.1}\">{arm}</text>",
            x + 24.0,
            COLOURS[k % COLOURS.len()],
            x + 30.0,
            y + 4.0
        );
    }
    y += 22.0;
    for (k, &b) in budgets.iter().enumerate() {
        let x = 12.0 + (k % 6) as f64 * 100.0;
        if k > 0 && k % 6 == 0 {
            y += 18.0;
        }
        mark(out, k, x + 6.0, y, "#333");
        let _ = writeln!(out, "<text x=\"{:.1}\" y=\"{:.1}\">{} s budget</text>", x + 16.0, y + 4.0, budget(b));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rung(colours: &str, size: u64, arm: &str, budget_ms: u64) -> Rung {
        Rung { colours: colours.to_owned(), size, arm: arm.to_owned(), budget_ms }
    }

    #[test]
    fn one_column_per_setting_one_colour_per_arm_one_mark_per_budget() {
        let summary = |solved: usize| Summary { runs: 2, solved, all_seconds: vec![1.0, 30.0], ..Summary::default() };
        let rungs: BTreeMap<Rung, Summary> = [
            (rung("5+17", 12, "auto", 30_000), summary(2)),
            (rung("5+17", 13, "auto", 30_000), summary(0)),
            (rung("5+17", 13, "auto", 600_000), summary(1)),
            (rung("heule2008", 7, "sat", 30_000), summary(1)),
        ]
        .into_iter()
        .collect();
        let chart = svg(&rungs);
        assert!(chart.starts_with("<svg") && chart.ends_with("</svg>\n"));
        // A column title per setting, a legend entry per arm and per budget.
        for text in [">5+17<", ">heule2008<", ">auto<", ">sat<", ">30 s budget<", ">600 s budget<"] {
            assert_eq!(chart.matches(text).count(), 1, "{text} in {chart}");
        }
        // Two budgets of one arm are two lines in each of its panels, plus one per sat panel.
        assert_eq!(chart.matches("<polyline").count(), 2 * 2 + 2);
        // The two arms have two colours.
        assert!(chart.contains(COLOURS[0]) && chart.contains(COLOURS[1]));
    }
}
