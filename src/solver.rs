//! What every solver returns: a status, an optional board, and how long it took.

use std::fmt;

use crate::puzzle::Board;

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
