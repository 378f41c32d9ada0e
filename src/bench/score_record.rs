//! One line of `bench score`'s runs file: a run of one arm on one board at one budget and seed, with its verified trace.

use serde::{Deserialize, Serialize};

use super::records::Provenance;
use crate::solver::SolverKind;

/// An arm of the score bench.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, strum::IntoStaticStr, strum::Display, strum::VariantArray,
)]
#[strum(serialize_all = "lowercase")]
pub enum ScoreArm {
    /// The score search ([`crate::score`]: the scan walk and CP-SAT's completions) on every core, for the whole budget.
    Search,
    /// `auto` for the score (what `solve --objective score` runs): the walk
    /// for the whole budget, CP-SAT completing a board when the walk has none.
    Auto,
    /// `auto` as it was until issue 52: the walk for 70% of the budget, then
    /// CP-SAT repairing regions of its board. Retired (it tied the walk alone
    /// and cost it 30% of its time): read from the runs files that hold it,
    /// never run again ([`ScoreArm::runnable`] refuses it).
    #[strum(serialize = "search+repair")]
    Repair,
    /// CP-SAT maximizing the matched joins of the whole board.
    Cpsat,
    /// The HiGHS MIP (placement binaries, join variables), its incumbent.
    Mip,
    /// The DFS's deepest partial board.
    Dfs,
    /// The field's published method (the Rust port of Blackwood's solver,
    /// from the user's checkout), its saved boards completed by CP-SAT.
    Blackwood,
}

impl ScoreArm {
    /// Every arm, in the table's order.
    pub const ALL: &'static [ScoreArm] = <ScoreArm as strum::VariantArray>::VARIANTS;

    /// The name in runs files, tables and charts.
    pub fn name(self) -> &'static str {
        self.into()
    }

    pub(super) fn kind(self) -> SolverKind {
        match self {
            ScoreArm::Blackwood => SolverKind::Search,
            ScoreArm::Search => SolverKind::Search,
            ScoreArm::Auto | ScoreArm::Repair => SolverKind::Auto,
            ScoreArm::Cpsat => SolverKind::Cpsat,
            ScoreArm::Mip => SolverKind::Mip,
            ScoreArm::Dfs => SolverKind::Dfs,
        }
    }
}

impl ScoreArm {
    /// The arm named `s`, for `--arms`: any arm but the retired one.
    ///
    /// # Errors
    /// A name no arm has, or the retired `search+repair`.
    pub fn runnable(s: &str) -> Result<ScoreArm, String> {
        match s.parse()? {
            ScoreArm::Repair => Err(format!(
                "{s:?} was retired in issue 52: `auto` no longer repairs regions (run `auto`, or `edgematch improve` on a board)"
            )),
            arm => Ok(arm),
        }
    }
}

impl std::str::FromStr for ScoreArm {
    type Err = String;
    fn from_str(s: &str) -> Result<ScoreArm, String> {
        ScoreArm::ALL.iter().copied().find(|a| a.name() == s).ok_or_else(|| {
            let names: Vec<&str> = ScoreArm::ALL.iter().map(|a| a.name()).collect();
            format!("{s:?} is not a score arm ({})", names.join(", "))
        })
    }
}

/// One run of `bench score`: a line of its runs file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ScoreRun {
    /// The arm.
    pub arm: ScoreArm,
    /// The board's name.
    pub board: String,
    /// Time budget in seconds.
    pub budget: f64,
    /// Matched inner joins of a full solution.
    pub max_score: usize,
    /// Matched inner joins of the best board, as the checker counted them.
    pub score: usize,
    /// Cells the best board fills (all of them, except for the DFS's partial boards).
    pub placed: usize,
    /// Cells of the board.
    pub cells: usize,
    /// Seconds at which the best board was found.
    pub best_seconds: f64,
    /// Wall-clock seconds of the run.
    pub seconds: f64,
    /// Each verified new best full board: (seconds, score).
    pub trace: Vec<(f64, usize)>,
    /// The run's seed (the walks' shuffles, CP-SAT's `random_seed`).
    #[serde(default = "first_seed")]
    pub seed: u64,
    /// Score arms: distinct verified full boards by score, best first, down to four below the best.
    #[serde(default)]
    pub census: Vec<(usize, u64)>,
    /// Score arms: the plan the run settled (its `plan:` line), if it settles one.
    #[serde(default)]
    pub plan: String,
    /// The checker's word when it rejected a board of the run (a bug): the
    /// run ended there, its score is 0, and the tables leave it out.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// Commit, machine, workers, load.
    #[serde(flatten)]
    pub provenance: Provenance,
}

/// The seed of runs recorded before runs had seeds of their own.
fn first_seed() -> u64 {
    1
}

/// What identifies a job: arm, board and budget, and the seed when it is not the first.
pub(super) fn job_key(arm: ScoreArm, board: &str, budget: f64, seed: u64) -> String {
    if seed == first_seed() { format!("{arm}|{board}|{budget}") } else { format!("{arm}|{board}|{budget}|seed {seed}") }
}

impl ScoreRun {
    /// What identifies the job: arm, board, budget and seed.
    pub fn key(&self) -> String {
        job_key(self.arm, &self.board, self.budget, self.seed)
    }

    /// True when the best board fills every cell: a score the field counts.
    pub fn full(&self) -> bool {
        self.placed == self.cells
    }

    /// Seconds at which the run first held a full board scoring at least `score`.
    pub fn time_to(&self, score: usize) -> Option<f64> {
        self.trace.iter().find(|&&(_, s)| s >= score).map(|&(t, _)| t)
    }
}
