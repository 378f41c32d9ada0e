//! What every solver returns: a status, an optional board, and how long it took.

use std::fmt;

use crate::check::{Report, Violation, check};
use crate::puzzle::{Board, Instance};

/// How a solve ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    /// A full board was found (it still has to pass the checker).
    Solved,
    /// The solver proved there is no solution.
    Infeasible,
    /// The limit was reached with neither a solution nor a proof.
    Unknown,
    /// The search was stopped from outside (Ctrl-C).
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

/// A solver's answer, before the checker has seen it.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// How the solve ended.
    pub status: Status,
    /// The best board found: full when solved, possibly partial otherwise.
    pub board: Option<Board>,
    /// Wall-clock seconds spent.
    pub seconds: f64,
    /// Solver-specific counters, for reports (name, value).
    pub statistics: Vec<(&'static str, String)>,
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
pub fn verify(instance: &Instance, outcome: &Outcome) -> Result<Verified, crate::Error> {
    let Some(board) = &outcome.board else {
        return Ok(Verified { report: None, solved: false, score: 0 });
    };
    let report = check(instance, board);
    let claimed = outcome.status == Status::Solved;
    let hard = report.violations.iter().any(|v| !matches!(v, Violation::Mismatch { .. }));
    if (claimed && !report.is_solution()) || hard {
        return Err(crate::Error::Rejected(format!("the solver's board failed the checker: {report}")));
    }
    Ok(Verified { solved: report.is_solution(), score: report.score, report: Some(report) })
}
