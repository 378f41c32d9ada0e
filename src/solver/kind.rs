//! The solvers' names and thread rules ([`SolverKind`]) and what each counted ([`Stats`]): the vocabulary the dispatcher, its compositions and its descriptions share.

use serde::{Deserialize, Serialize};

use crate::{cpsat, dfs, mip, portfolio, sat, score, search};

/// A solver's answer with its typed counters, as the dispatcher returns it.
pub type Outcome = crate::outcome::Outcome<Stats>;

/// The solvers, by the names used on the command line, in bench arms and in runs files.
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    Serialize,
    Deserialize,
    clap::ValueEnum,
    strum::IntoStaticStr,
    strum::Display,
    strum::VariantArray,
)]
#[serde(rename_all = "lowercase")]
#[strum(serialize_all = "lowercase")]
pub enum SolverKind {
    /// OR-Tools CP-SAT through the C++ bridge.
    Cpsat,
    /// The native row-scan depth-first baseline.
    Dfs,
    /// The placement MIP, by HiGHS branch and bound.
    Mip,
    /// CaDiCaL on the seam encoding.
    Sat,
    /// The native complete search over a fill order chosen by tree-size estimates.
    Search,
    /// A portfolio racing other solvers on the cores; the first verified board wins.
    Auto,
}

impl SolverKind {
    /// The threads this solver uses when given `cores` cores: the one place
    /// each solver's thread rule is stated. CP-SAT runs a worker per core (0
    /// lets it choose); the native search a thread per core (sharing one
    /// tree, see [`search::Parallel`]), as does the score walk (independent
    /// walks); the portfolio divides the cores among its arms
    /// ([`default_arms`](crate::solver::default_arms)); the DFS, HiGHS and CaDiCaL run one thread.
    pub fn threads(self, cores: u32) -> u32 {
        match self {
            SolverKind::Cpsat | SolverKind::Auto => cores,
            SolverKind::Search => search::threads(cores) as u32,
            SolverKind::Dfs | SolverKind::Mip | SolverKind::Sat => 1,
        }
    }

    /// The name on the command line and in records.
    pub fn name(self) -> &'static str {
        self.into()
    }

    /// The solvers with a score mode (`--objective score`): the one list the
    /// command line's flag table, the score bench and the Python package read.
    pub const SCORING: &'static [SolverKind] =
        &[SolverKind::Auto, SolverKind::Search, SolverKind::Cpsat, SolverKind::Mip];

    /// Whether this solver has a score mode ([`SolverKind::SCORING`]).
    pub fn scores(self) -> bool {
        SolverKind::SCORING.contains(&self)
    }
}

/// What a solver counted, typed per solver.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "solver", rename_all = "lowercase")]
pub enum Stats {
    /// CP-SAT's response counters.
    Cpsat(cpsat::Stats),
    /// The DFS's counters.
    Dfs(dfs::Stats),
    /// HiGHS' result.
    Mip(mip::Stats),
    /// The encoding's size and CaDiCaL's counters.
    Sat(sat::Stats),
    /// The native search's counters and order estimates.
    Search(search::Stats),
    /// The race: which arm won, and how each ended.
    Auto(portfolio::Stats),
    /// The score search's counters.
    Score(score::Stats),
}

impl Stats {
    /// Search nodes and restarts, for solvers that count them.
    pub fn nodes(&self) -> Option<(u64, u64)> {
        match self {
            Stats::Dfs(s) => Some((s.nodes, s.restarts)),
            Stats::Search(s) => Some((s.nodes, 0)),
            Stats::Score(s) => Some((s.nodes, s.attempts)),
            _ => None,
        }
    }
}
