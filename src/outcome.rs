//! What every solver shares: the limits it honours, how it ended, and the acceptance of its board.
//!
//! A leaf of the solver layer: each backend (`cpsat`, `sat`, `search`, `dfs`,
//! `mip`) and the portfolio depend on this file and the puzzle core only; the
//! dispatcher in [`crate::solver`] sits above them all.

use serde::{Deserialize, Serialize};

use crate::check::{Report, check};
use crate::error::Error;
use crate::puzzle::{Board, Instance};

/// How a solve ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[derive(strum::IntoStaticStr, strum::Display, strum::EnumString)]
#[strum(serialize_all = "lowercase")]
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

/// The seeds every solver takes: CP-SAT and HiGHS read the seed as an `i32`.
pub const SEED_RANGE: std::ops::RangeInclusive<u64> = 0..=i32::MAX as u64;

/// Limits every solver honours.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Limits {
    /// Wall-clock seconds; `None` runs until an answer (or a stop).
    pub time_limit: Option<f64>,
    /// Stop after about this many nodes, where the solver counts nodes (the DFS, the native search).
    pub node_limit: Option<u64>,
    /// Random seed, within [`SEED_RANGE`] (CP-SAT and HiGHS take it as an `i32`).
    pub seed: u64,
    /// Threads the solver may use; 0 lets it choose (CP-SAT: its default
    /// workers). Each solver's rule is [`crate::solver::SolverKind::threads`].
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

    /// When a run started at `start` must end, if it has a time limit.
    pub fn deadline(&self, start: std::time::Instant) -> Option<std::time::Instant> {
        let limit = std::time::Duration::try_from_secs_f64(self.time_limit?.max(0.0)).ok()?;
        start.checked_add(limit)
    }
}

/// A solver's answer, before the checker has seen it, with the solver's own counters `S`.
#[derive(Clone, Debug)]
pub struct Outcome<S> {
    /// How the solve ended.
    pub status: Status,
    /// The best board found: full when solved, possibly partial otherwise.
    pub board: Option<Board>,
    /// Wall-clock seconds spent.
    pub seconds: f64,
    /// What the solver counted.
    pub stats: S,
}

impl<S> Outcome<S> {
    /// The same answer with its counters wrapped (the dispatcher's typed [`crate::solver::Stats`]).
    pub fn map_stats<T>(self, f: impl FnOnce(S) -> T) -> Outcome<T> {
        Outcome { status: self.status, board: self.board, seconds: self.seconds, stats: f(self.stats) }
    }
}

/// A solver's answer after the checker has accepted it.
#[derive(Clone, Debug)]
pub struct Accepted {
    /// The checker's report on the board, if there was one.
    pub report: Option<Report>,
    /// True when the board is a full valid solution.
    pub solved: bool,
    /// Matched inner joins of the board, as the checker counted them (0 without a board).
    pub score: usize,
}

/// Runs the checker on a claim: a status and an optional board, from any solver or
/// outside tool. A board claimed as a solution must be one; any other answer may
/// leave cells empty (the DFS) or joins mismatched (the MIP's incumbent) but must
/// break no other rule. Anything else is the solver's bug and an error. An
/// accepted board goes to the live page ([`crate::live::verified`]): this is
/// the one place the page is fed boards, so it shows only what the checker accepted.
pub fn accept(instance: &Instance, status: Status, board: Option<&Board>) -> Result<Accepted, Error> {
    let Some(board) = board else {
        return Ok(Accepted { report: None, solved: false, score: 0 });
    };
    let report = check(instance, board);
    let claimed = status == Status::Solved;
    let hard = !report.only_joins_mismatch();
    if (claimed && !report.is_solution()) || hard {
        return Err(Error::Rejected(format!("the solver's board failed the checker: {report}")));
    }
    crate::live::verified(board, report.score);
    Ok(Accepted { solved: report.is_solution(), score: report.score, report: Some(report) })
}

/// What the checker made of a board offered as a run's new best ([`rank`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ranked {
    /// Accepted and scored above the best before it: the run's new best.
    Better(usize),
    /// Accepted, and scored no higher than the best before it.
    NotBetter(usize),
}

/// The one test every new best board of a run passes before anyone sees it
/// (the command line's files and stdout, a bench's trace, Python's
/// callback): the checker's score, never the solver's count, compared with
/// `best`, the score of the board last passed on. The caller holds `best`
/// under its own lock across the call and what it does with the board, so
/// boards are passed on in order.
///
/// # Errors
/// [`Error::Rejected`] when the board breaks a rule other than a mismatched join.
pub fn rank(instance: &Instance, board: &Board, best: Option<usize>) -> Result<Ranked, Error> {
    let score = accept(instance, Status::Unknown, Some(board))?.score;
    if best.is_some_and(|b| score <= b) {
        return Ok(Ranked::NotBetter(score));
    }
    Ok(Ranked::Better(score))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::{PlantedSpec, planted};

    /// A board is ranked by the checker's score against the best passed on
    /// before: better once, then not better; a board with a piece twice is
    /// rejected whatever the best. Catches a rank that trusts a count other
    /// than the checker's, passes on equal boards, or lets a broken board by.
    #[test]
    fn boards_are_ranked_by_the_checkers_score_and_broken_ones_refused() {
        // No clues: swapping two inner pieces then mismatches joins and moves no clue.
        let p = planted(&PlantedSpec { clues: 0, ..PlantedSpec::square(4, 2, 3, 1) }).unwrap();
        let max = p.instance.grid.max_score();
        let mut mismatched = p.solution.clone();
        mismatched.cells.swap(5, 6);
        let lower = check(&p.instance, &mismatched).score;
        assert!(lower < max);
        assert_eq!(rank(&p.instance, &mismatched, None).unwrap(), Ranked::Better(lower));
        assert_eq!(rank(&p.instance, &p.solution, Some(lower)).unwrap(), Ranked::Better(max));
        assert_eq!(rank(&p.instance, &p.solution, Some(max)).unwrap(), Ranked::NotBetter(max));
        assert_eq!(rank(&p.instance, &mismatched, Some(max)).unwrap(), Ranked::NotBetter(lower));
        let mut twice = p.solution.clone();
        twice.cells[6] = twice.cells[5];
        assert!(matches!(rank(&p.instance, &twice, None), Err(Error::Rejected(_))));
    }
}
