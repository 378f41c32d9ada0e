//! How many CP-SAT completion workers a run's walks need, from what the run measured: offers per walk-second, CPU-seconds per completion and the share of completions that beat the best, by depth.
//!
//! A completion is worth its CPU where completions beat the best: the
//! depths whose completions improved the run since the last split (early
//! in a run, when the best is low, that is many depths; later, when none
//! has for a while, the two deepest depths completed stand in: on every
//! board measured those are where the late improvements come from,
//! `results/score/README.md`). At each such depth
//! the walks offer `o` boards per walk-CPU-second that the bound keeps, and
//! a completion there costs `c` CPU-seconds; so each walk asks `Σ o·c`
//! CPU-seconds of completion per second it walks (its *demand*). Workers
//! and walks time-share the cores alike, so `W` walks keep `⌈W·demand⌉`
//! workers busy with exactly the boards that pay: fewer leave them
//! unread, more take cores from the walks for boards that do not pay. The
//! run starts with one worker per two walks and re-derives the count every
//! [`SPLIT_EVERY`] from its counts so far (`--completers K` fixes it).

use std::time::Duration;

/// How often a run re-derives its number of completion workers.
pub(crate) const SPLIT_EVERY: Duration = Duration::from_secs(30);

/// What the run measured at one depth (free cells filled).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct DepthCounts {
    pub(crate) depth: usize,
    /// Boards offered that the bound kept (they may beat the best).
    pub(crate) kept: u64,
    /// Boards completed; those whose completion beat the run's best since the last split.
    pub(crate) completed: u64,
    pub(crate) improved: u64,
    /// CPU-seconds the completions took.
    pub(crate) cpu_seconds: f64,
}

impl DepthCounts {
    /// What `now`'s counts add to `before`'s (both counted since the run
    /// began), depth by depth: the window between two splits, every figure alike.
    pub(crate) fn since(now: &[DepthCounts], before: &[DepthCounts]) -> Vec<DepthCounts> {
        let earlier = |depth| before.iter().find(|b| b.depth == depth).copied().unwrap_or_default();
        now.iter()
            .map(|d| {
                let e = earlier(d.depth);
                DepthCounts {
                    depth: d.depth,
                    kept: d.kept - e.kept,
                    completed: d.completed - e.completed,
                    improved: d.improved - e.improved,
                    cpu_seconds: d.cpu_seconds - e.cpu_seconds,
                }
            })
            .collect()
    }
}

/// The split a run's figures give: its walks, the workers they need, and why.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Split {
    /// Walks (one per thread asked for).
    pub walks: usize,
    /// Completion workers.
    pub completers: usize,
    /// CPU-seconds of completion each walk-CPU-second asks for, at the paying depths.
    pub demand: f64,
    /// The depths that pay, deepest first, with what was measured there.
    pub depths: Vec<PayingDepth>,
}

/// One depth that pays, as measured.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct PayingDepth {
    /// Free cells filled.
    pub depth: usize,
    /// Boards kept per walk-CPU-second.
    pub offers_per_second: f64,
    /// CPU-seconds per completion.
    pub seconds_per_completion: f64,
    /// Completions that beat the run's best since the last split, per completion.
    pub improving: f64,
}

impl Split {
    /// The split for `walks` walks that walked `walk_cpu_seconds` and
    /// counted `counts` (any order), at most `most` workers; `None` until a
    /// paying depth has a completion timed (the run keeps what it has).
    pub(crate) fn derive(walks: usize, walk_cpu_seconds: f64, counts: &[DepthCounts], most: usize) -> Option<Split> {
        if walk_cpu_seconds <= 0.0 {
            return None;
        }
        let depths: Vec<PayingDepth> = paying(counts)
            .into_iter()
            .filter(|d| d.completed > 0)
            .map(|d| PayingDepth {
                depth: d.depth,
                offers_per_second: d.kept as f64 / walk_cpu_seconds,
                seconds_per_completion: d.cpu_seconds / d.completed as f64,
                improving: d.improved as f64 / d.completed as f64,
            })
            .collect();
        if depths.is_empty() {
            return None;
        }
        let demand: f64 = depths.iter().map(|d| d.offers_per_second * d.seconds_per_completion).sum();
        let completers = ((walks as f64 * demand).ceil() as usize).clamp(1, most.max(1));
        Some(Split { walks, completers, demand, depths })
    }
}

/// The depths whose completions pay, deepest first: those with a completion
/// that beat the best since the last split, else the two deepest with a completion.
fn paying(counts: &[DepthCounts]) -> Vec<DepthCounts> {
    let mut rows: Vec<DepthCounts> = counts.to_vec();
    rows.sort_by_key(|d| std::cmp::Reverse(d.depth));
    if rows.iter().any(|d| d.improved > 0) {
        rows.retain(|d| d.improved > 0);
    } else {
        rows.retain(|d| d.completed > 0);
        rows.truncate(2);
    }
    rows
}

impl std::fmt::Display for Split {
    /// `2 walks, 1 completion worker: demand 0.31 CPU-s per walk-s at depths 246 (4.1 offers/s × 0.07 s, 3% improve), ...`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} walk(s), {} completion worker(s): demand {:.3} CPU-s of completion per walk-s at depth(s) ",
            self.walks, self.completers, self.demand
        )?;
        for (i, d) in self.depths.iter().enumerate() {
            let sep = if i == 0 { "" } else { ", " };
            write!(
                f,
                "{sep}{} ({:.2} offers/s x {:.3} s, {:.1}% improve)",
                d.depth,
                d.offers_per_second,
                d.seconds_per_completion,
                100.0 * d.improving
            )?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(depth: usize, kept: u64, completed: u64, improved: u64, cpu_seconds: f64) -> DepthCounts {
        DepthCounts { depth, kept, completed, improved, cpu_seconds }
    }

    /// Depths that improved decide the demand, the others are left out; the
    /// workers are ⌈walks × demand⌉. Catches a split that counts depths that
    /// never pay, or rounds the workers down.
    #[test]
    fn the_paying_depths_decide_the_workers() {
        // 100 walk-CPU-s. Depth 246: 50 kept (0.5/s), 0.4 s each, 1 of 10 improved: 0.2.
        // Depth 245: 900 kept (9/s), 0.1 s each, 1 of 100 improved: 0.9. Depth 240: never improved.
        let counts = [at(240, 5000, 200, 0, 2.0), at(246, 50, 10, 1, 4.0), at(245, 900, 100, 1, 10.0)];
        let split = Split::derive(8, 100.0, &counts, 64).unwrap();
        assert_eq!(split.depths.iter().map(|d| d.depth).collect::<Vec<_>>(), [246, 245]);
        assert!((split.demand - 1.1).abs() < 1e-9, "{split}");
        assert_eq!(split.completers, 9, "⌈8 × 1.1⌉");
        // The cap: at most `most` workers.
        assert_eq!(Split::derive(8, 100.0, &counts, 4).unwrap().completers, 4);
    }

    /// The split reads one window, every figure alike: a depth whose
    /// completions became cheap since the last split counts at its recent
    /// cost, not its cost since the run began. Catches a window that takes
    /// the offers or the CPU time since the start and the improvements since
    /// the last split (a mix that kept asking for the early, dear completions).
    #[test]
    fn the_window_takes_every_figure_since_the_last_split() {
        let before = [at(246, 100, 10, 1, 50.0), at(245, 10, 10, 0, 1.0)];
        let now = [at(246, 160, 70, 3, 56.0), at(245, 10, 10, 0, 1.0), at(247, 5, 1, 1, 0.5)];
        let window = DepthCounts::since(&now, &before);
        assert_eq!(window, [at(246, 60, 60, 2, 6.0), at(245, 0, 0, 0, 0.0), at(247, 5, 1, 1, 0.5)]);
        // 60 offers and 6 CPU-s over 60 completions in the window: 0.1 s each, not 56/70.
        let split = Split::derive(2, 10.0, &window, 8).unwrap();
        let at_246 = split.depths.iter().find(|d| d.depth == 246).unwrap();
        assert!((at_246.seconds_per_completion - 0.1).abs() < 1e-9, "{split}");
        assert!((at_246.offers_per_second - 6.0).abs() < 1e-9, "{split}");
    }

    /// Before any completion improved, the two deepest completed depths
    /// stand in; before any completion at all, there is no split. A cheap
    /// demand still gets one worker.
    #[test]
    fn without_an_improvement_the_two_deepest_depths_stand_in() {
        let counts = [at(230, 900, 90, 0, 9.0), at(232, 100, 10, 0, 1.0), at(231, 100, 10, 0, 1.0)];
        let split = Split::derive(2, 1000.0, &counts, 2).unwrap();
        assert_eq!(split.depths.iter().map(|d| d.depth).collect::<Vec<_>>(), [232, 231]);
        assert_eq!(split.completers, 1, "demand 0.02: one worker");
        assert_eq!(Split::derive(2, 1000.0, &[at(232, 100, 0, 0, 0.0)], 2), None);
        assert_eq!(Split::derive(2, 0.0, &counts, 2), None);
    }
}
