//! What a score run is asked (its options) and what it tells (each new best board, its counters).

use crate::puzzle::{Board, Instance};
use crate::search::Order;

use super::census::Save;
use super::completion::Completion;
use super::quota::Quota;
use super::schedule::Schedule;

/// Placements per attempt of the scan walk: the published 5 × 10⁸ loop
/// iterations (placements and backtracks, about two per placement).
pub const SCAN_ATTEMPT_NODES: u64 = 250_000_000;

/// How to run the score search; time, seed and threads come from [`crate::outcome::Limits`].
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Options {
    /// The colour quota of the scan walk.
    pub quota: Quota,
    /// CP-SAT's completion of the scan walk's deep partial boards (`None`: the
    /// thresholds the measured table gives the board, see `completion_times`).
    pub completion: Option<Completion>,
    /// The fill order (`None`: [`super::plan::default_order`], from where the clues sit).
    pub order: Option<Order>,
    /// The break schedule.
    pub schedule: Schedule,
    /// Stop once a board scores at least this (default: a full solution).
    pub target: Option<usize>,
    /// Placements per attempt before a restart (`None`: [`SCAN_ATTEMPT_NODES`]).
    pub attempt_nodes: Option<u64>,
    /// A full board to beat from the start (a checkpoint's): the run looks only
    /// for better boards, and returns this one if it finds none. It must be a
    /// full board of the instance with only mismatched joins.
    pub incumbent: Option<Board>,
    /// Where to save every distinct verified board at or above a score (`None`: nowhere).
    pub save: Option<Save>,
    /// Where a resumed run's walks take up their attempts (`None`: a fresh run).
    pub resume: Option<Resume>,
    /// CP-SAT completion workers beside the walks (`None`: one for every two walks).
    pub completers: Option<usize>,
}

/// Where a resumed run's walks take up their sequences of attempts, so that no
/// attempt of an earlier segment of the run is walked again.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Resume {
    /// The segments of the run before this one. Attempt `k` of walk `t` is
    /// seeded from (seed, generation, t, k): a segment killed between two
    /// checkpoints walks attempts the next segment's seeds never meet again.
    pub generation: u64,
    /// Attempts each walk started in the earlier segments (walk `t` numbers
    /// its attempts on from the `t`-th; 0 for a walk they did not have).
    pub attempts: Vec<u64>,
}

impl Options {
    /// Checks the options against `instance`.
    ///
    /// # Errors
    /// A target above the board's joins, a schedule that decreases or exceeds
    /// them, or a quota colour the pieces do not show.
    pub fn check(&self, instance: &Instance) -> Result<(), String> {
        let joins = instance.grid.max_score();
        if let Some(target) = self.target.filter(|&t| t > joins) {
            return Err(format!("--target {target} is above the {joins} inner joins of a {} board", instance.grid));
        }
        self.quota.check(instance).map_err(|e| format!("--quota: {e}"))?;
        self.schedule.check(joins).map_err(|e| format!("--breaks: {e}"))
    }
}

/// What the score search counted.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct Stats {
    /// Placements made, all threads and attempts.
    pub nodes: u64,
    /// Attempts started, all threads.
    pub attempts: u64,
    /// Attempts started by each walk thread (one entry per walk the run started).
    pub walks: Vec<u64>,
    /// Breaks of the best board (mismatched joins); `None` without a full board.
    pub best_breaks: Option<usize>,
    /// Seconds until the best board was found.
    pub best_seconds: Option<f64>,
    /// The most free cells a walk filled at once (a full board fills them all).
    pub deepest: usize,
    /// CPU seconds the walk threads used, all walks: placements per CPU-second
    /// of a walk show what the hand-off to the completers costs it, whatever
    /// else shares the cores.
    pub walk_cpu_seconds: f64,
    /// How many attempts reached each depth (free cells filled) as their deepest.
    pub depths: Vec<usize>,
    /// Partial boards the walks offered for completion (before the bound's filter).
    pub reported: u64,
    /// Partial boards CP-SAT completed.
    pub completions: u64,
    /// Completions CP-SAT failed (an error, not a board; counted apart from `completions`).
    pub completions_failed: u64,
    /// Completions that beat the run's best board.
    pub completions_improved: u64,
    /// Partial boards offered for completion and dropped unread (the pool was behind).
    pub dropped: u64,
    /// CP-SAT completion workers that ran beside the walks.
    pub completers: usize,
    /// Per depth with an offer, deepest first: (free cells filled, boards offered, boards completed).
    pub completions_by_depth: Vec<(usize, u64, u64)>,
    /// `auto`: why CP-SAT's completion of a board failed, when the walk had none and CP-SAT's failed too.
    pub completion_failed: Option<String>,
    /// Distinct verified full boards by score, best first, from the best down
    /// to [`super::census::WITHIN`] below it: the run's rates.
    pub census: Vec<(usize, u64)>,
    /// Boards written to the save folder.
    pub saved: u64,
    /// Why a board could not be saved, the first time one could not.
    pub save_failed: Option<String>,
    /// What the run settled (its fill order, breaks and quota; see [`crate::score::plan::Plan`]).
    pub plan: String,
}

/// A new best board, as the search reports it.
#[derive(Clone, Debug)]
pub struct Best {
    /// The full board.
    pub board: Board,
    /// Its matched inner joins.
    pub score: usize,
    /// Seconds since the start.
    pub seconds: f64,
}
