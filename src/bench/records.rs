//! The records benches write and `bench report` reads: one typed struct per kind, shared by both.

use serde::{Deserialize, Serialize};

use crate::cpsat;
use crate::solver::{SolverKind, Status};

/// Where and with what a measurement was taken.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Provenance {
    /// The commit the binary was built from (baked in at build time), or
    /// `EDGEMATCH_COMMIT` when set.
    pub commit: String,
    /// True when the working tree had uncommitted changes to tracked files at build time.
    #[serde(default)]
    pub dirty: bool,
    /// The OR-Tools release linked.
    pub ortools: String,
    /// Cores of the machine.
    pub cores: usize,
    /// Workers (threads) the measured solver used, where one number holds for the record.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub workers: Option<u32>,
    /// The machine's load when the measurement started (`/proc/loadavg`), since
    /// timings count only on a quiet machine.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub load: Option<String>,
}

impl Provenance {
    /// The provenance of measurements made now by this binary.
    pub fn current() -> Provenance {
        let (commit, dirty) = match std::env::var("EDGEMATCH_COMMIT") {
            Ok(commit) => (commit, false),
            Err(_) => (
                option_env!("VERGEN_GIT_SHA").filter(|s| !s.starts_with("VERGEN")).unwrap_or("unknown").to_owned(),
                option_env!("VERGEN_GIT_DIRTY") == Some("true"),
            ),
        };
        let load = std::fs::read_to_string("/proc/loadavg")
            .ok()
            .map(|l| format!("load average {} at start", l.split_whitespace().take(3).collect::<Vec<_>>().join(" ")));
        Provenance {
            commit,
            dirty,
            ortools: cpsat::ORTOOLS_VERSION.to_owned(),
            cores: std::thread::available_parallelism().map_or(1, |n| n.get()),
            workers: None,
            load,
        }
    }

    /// The same, for a solver running `workers` threads.
    pub fn with_workers(&self, workers: u32) -> Provenance {
        Provenance { workers: Some(workers), ..self.clone() }
    }
}

/// What a bench runs: one of our solvers, or a reference tool it compares them with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum BenchArm {
    /// One of edgematch's solvers.
    Solver(SolverKind),
    /// OR-Tools' own Python package running the Element model.
    PythonElement,
    /// MiniZinc with Gecode on a plain table model.
    MinizincGecode,
    /// CP-SAT in one of the measured variants.
    Cpsat(super::variants::CpsatVariant),
    /// The native search on two threads racing two orders (the portfolio's
    /// search shares one order's tree instead).
    SearchRace,
}

impl BenchArm {
    /// The name in runs files and tables.
    pub fn name(self) -> &'static str {
        match self {
            BenchArm::Solver(kind) => kind.name(),
            BenchArm::PythonElement => "python-element",
            BenchArm::MinizincGecode => "minizinc-gecode",
            BenchArm::Cpsat(variant) => variant.name(),
            BenchArm::SearchRace => "search-race",
        }
    }
}

impl std::fmt::Display for BenchArm {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for BenchArm {
    type Err = String;
    fn from_str(s: &str) -> Result<BenchArm, String> {
        match s {
            "python-element" => Ok(BenchArm::PythonElement),
            "minizinc-gecode" => Ok(BenchArm::MinizincGecode),
            "search-race" => Ok(BenchArm::SearchRace),
            _ => match super::variants::CpsatVariant::from_name(s) {
                Some(variant) => Ok(BenchArm::Cpsat(variant)),
                None => <SolverKind as clap::ValueEnum>::from_str(s, false).map(BenchArm::Solver).map_err(|_| {
                    let variants: Vec<&str> = super::variants::CpsatVariant::ALL.iter().map(|v| v.name()).collect();
                    format!(
                        "{s:?} is not a solver, a reference (python-element, minizinc-gecode) or a CP-SAT variant ({})",
                        variants.join(", ")
                    )
                }),
            },
        }
    }
}

impl Serialize for BenchArm {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}

impl<'de> Deserialize<'de> for BenchArm {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<BenchArm, D::Error> {
        let name = String::deserialize(deserializer)?;
        name.parse().map_err(serde::de::Error::custom)
    }
}

/// One run of a bench on one board (`bench cliff`, `bench reach`): a line of its runs file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Run {
    /// The solver or reference.
    pub arm: BenchArm,
    /// The planted instance's name.
    pub instance: String,
    /// Board side.
    pub size: usize,
    /// Colour setting, e.g. `5+17`.
    pub colours: String,
    /// Generator seed (0 for a puzzle not generated here).
    pub seed: u64,
    /// Time budget in seconds.
    pub budget: f64,
    /// How the solve ended.
    pub status: Status,
    /// True when the checker verified a full solution.
    pub solved: bool,
    /// Whether a board came back (absent in runs made before it was recorded).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub board: Option<bool>,
    /// Matched inner joins of the board, as the checker counted them.
    pub verified_score: usize,
    /// Matched inner joins of a full solution.
    pub target: usize,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// Search nodes (the DFS).
    pub nodes: Option<u64>,
    /// Restarts (the DFS).
    pub restarts: Option<u64>,
    /// The CP-SAT formulation.
    pub model: Option<String>,
    /// Commit, machine, workers.
    #[serde(flatten)]
    pub provenance: Provenance,
}

impl Run {
    /// What identifies the job: arm, instance and budget.
    pub fn key(&self) -> String {
        job_key(self.arm, &self.instance, self.budget)
    }

    /// Whether the run returned a board for the checker to score. Runs from
    /// before the `board` field: CP-SAT (a decision problem) returns a board
    /// only when it solves; the DFS and the MIP always return their best board.
    pub fn returned_board(&self) -> bool {
        self.board.unwrap_or(self.solved || self.arm != BenchArm::Solver(SolverKind::Cpsat))
    }
}

/// The key of a cliff job, as [`Run::key`] computes it for a finished run.
pub fn job_key(arm: BenchArm, instance: &str, budget: f64) -> String {
    format!("{arm}|{instance}|{budget}")
}

/// The checker's verdict on a published solution.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ListedSolution {
    /// Matched inner joins.
    pub score: usize,
    /// The checker's one-word verdict.
    pub verdict: String,
}

/// One run of `bench external`: a line of its runs file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ExternalRun {
    /// Collection and file stem, e.g. `brendan/pieces_06x06`.
    pub puzzle: String,
    /// Board width.
    pub width: usize,
    /// Board height.
    pub height: usize,
    /// Colours only on joins between rim cells.
    pub frame_colours: usize,
    /// Colours on interior pieces.
    pub interior_colours: usize,
    /// Column order the piece list was read with.
    pub columns: String,
    /// How the solve ended.
    pub status: Status,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// The limit, in seconds.
    pub time_limit: Option<f64>,
    /// The checker's verdict on the board, or `no board`.
    pub verdict: String,
    /// Matched inner joins of the board, as the checker counted them.
    pub verified_score: usize,
    /// Matched inner joins of a full solution.
    pub max_score: usize,
    /// The checker on the solution published with the puzzle, if any.
    pub listed_solution: Option<ListedSolution>,
    /// The CP-SAT formulation.
    pub model: String,
    /// Commit, machine, workers.
    #[serde(flatten)]
    pub provenance: Provenance,
}

/// A whole-file record (`results/*.json`): what ran, where, and its body.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Record<T> {
    /// The benchmark's name.
    pub benchmark: String,
    /// The command that made it.
    pub command: String,
    /// Threads, where the benchmark fixes them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub threads: Option<u32>,
    /// Commit, machine, load.
    pub provenance: Provenance,
    /// True when Ctrl-C cut the run short (what finished is kept).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub interrupted: Option<bool>,
    /// The benchmark's own fields.
    #[serde(flatten)]
    pub body: T,
}

impl<T> Record<T> {
    /// A record of this machine's run of `benchmark` (made by `command`), with its provenance.
    pub fn new(benchmark: &str, command: String, threads: Option<u32>, interrupted: Option<bool>, body: T) -> Self {
        Record {
            benchmark: benchmark.to_owned(),
            command,
            threads,
            provenance: Provenance::current(),
            interrupted,
            body,
        }
    }
}

impl<T: Serialize> Record<T> {
    /// Pretty JSON with a final newline, as written to `results/`.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("records serialize") + "\n"
    }
}

/// Building and serializing one formulation's model, timed (`bench model-build`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ModelBuild {
    /// Formulation.
    pub model: String,
    /// The instance built.
    pub instance: String,
    /// Repetitions timed.
    pub repetitions: usize,
    /// Median milliseconds.
    pub median_ms: f64,
    /// Fastest.
    pub min_ms: f64,
    /// Slowest.
    pub max_ms: f64,
    /// Size of the serialized model.
    pub serialized_bytes: usize,
    /// The goal, in milliseconds.
    pub target_ms: u32,
}

/// The body of `results/model-build.json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ModelBuilds {
    /// One entry per formulation.
    pub builds: Vec<ModelBuild>,
}

/// One CP-SAT solve of `bench spine`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SpineRun {
    /// The instance file.
    pub instance: String,
    /// Formulation.
    pub model: String,
    /// How the solve ended.
    pub status: Status,
    /// True when the checker verified a full solution.
    pub verified: bool,
    /// Matched inner joins of the board, as the checker counted them.
    pub verified_score: usize,
    /// Matched inner joins of a full solution.
    pub max_score: usize,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// CP-SAT workers.
    pub workers: u32,
    /// The limit, in seconds.
    pub time_limit: Option<f64>,
}

/// The body of `results/spine-cpsat.json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Spine {
    /// The solves.
    pub cpsat_runs: Vec<SpineRun>,
    /// The model builds.
    pub model_build: Vec<ModelBuild>,
}

/// One run of `bench dfs-speed`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DfsSpeedRun {
    /// The instance file.
    pub instance: String,
    /// How the run ended.
    pub status: Status,
    /// Placements made.
    pub nodes: u64,
    /// Restarts.
    pub restarts: u64,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// Placements per second.
    pub nodes_per_second: f64,
    /// Matched inner joins of the best board, as the checker counted them.
    pub verified_score: usize,
    /// Matched inner joins of a full solution.
    pub max_score: usize,
}

/// The body of `results/dfs-speed.json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DfsSpeed {
    /// Median of the runs' rates.
    pub median_nodes_per_second: Option<f64>,
    /// The goal.
    pub target_nodes_per_second: u64,
    /// The runs.
    pub runs: Vec<DfsSpeedRun>,
}

/// One run of `bench search-speed`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SearchSpeedRun {
    /// The instance file.
    pub instance: String,
    /// The fill order (the estimator's choice).
    pub order: String,
    /// Whether the strip test was on.
    pub strip_test: bool,
    /// How the run ended.
    pub status: Status,
    /// True when the checker verified a full solution.
    pub solved: bool,
    /// Placements made.
    pub nodes: u64,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// Placements per second.
    pub nodes_per_second: f64,
}

/// The strip test's effect on one instance solved with it and without.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SearchSpeedPair {
    /// The instance file.
    pub instance: String,
    /// The fill order.
    pub order: String,
    /// Placements without the test over placements with it.
    pub fewer_nodes: f64,
    /// Seconds without the test over seconds with it.
    pub faster: f64,
}

/// The body of `results/search-speed.json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SearchSpeed {
    /// The instances solved both ways.
    pub pairs: Vec<SearchSpeedPair>,
    /// The runs, with the test then without, per instance.
    pub runs: Vec<SearchSpeedRun>,
}

/// One run of `bench flux-prune`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FluxPruneRun {
    /// The planted instance's name.
    pub instance: String,
    /// Cells from which the certificate was applied, or none.
    pub flux_prune_from_cells: Option<usize>,
    /// How the run ended.
    pub status: Status,
    /// True when the checker verified a full solution.
    pub solved: bool,
    /// Matched inner joins of the best board, as the checker counted them.
    pub verified_score: usize,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// Placements made.
    pub nodes: u64,
    /// Placements undone by the certificate.
    pub flux_pruned: u64,
    /// Restarts.
    pub restarts: u64,
}

/// The body of `results/dfs-flux-prune.json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FluxPrune {
    /// The runs.
    pub runs: Vec<FluxPruneRun>,
}

/// Rounds to milliseconds, for records people read.
pub(crate) fn round3(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn committed_runs_files_read_as_typed_records() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("results");
        let (cliff, broken) = super::super::runs::read_runs::<Run>(&root.join("cliff/runs.jsonl")).unwrap();
        assert_eq!(broken, 0);
        assert!(cliff.len() >= 167);
        let (external, broken) =
            super::super::runs::read_runs::<ExternalRun>(&root.join("external-puzzles.jsonl")).unwrap();
        assert_eq!(broken, 0);
        assert!(!external.is_empty());
        // Writing a record back gives the same fields.
        let line = std::fs::read_to_string(root.join("cliff/runs.jsonl")).unwrap();
        let first: serde_json::Value = serde_json::from_str(line.lines().next().unwrap()).unwrap();
        let again = serde_json::to_value(&cliff[0]).unwrap();
        assert_eq!(first, again);
    }
}
