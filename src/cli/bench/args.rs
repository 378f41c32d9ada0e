//! The arguments of `edgematch bench …`, one struct per benchmark.

use std::path::PathBuf;

use clap::{Args, Subcommand};
use edgematch::bench::records::BenchArm;
use edgematch::bench::score::ScoreArm;
use edgematch::bench::{self, cliff};
use edgematch::cpsat::model::Formulation;
use edgematch::solver::SolverKind;

use super::super::args::{Numbers, numbers, seconds, shard, size_and_seconds, size_and_seeds};
use super::super::watch::WatchArgs;

#[derive(Subcommand)]
pub(crate) enum BenchCommand {
    /// CP-SAT on planted instances, and the time to build and serialize a model.
    Spine(SpineArgs),
    /// DFS and CP-SAT, one after the other, on the same planted boards; appends to a runs file.
    Cliff(CliffArgs),
    /// Merge runs files into a markdown table and an SVG chart (and, with --compare, a comparison table).
    Report(ReportArgs),
    /// DFS placements per second on one thread.
    DfsSpeed(DfsSpeedArgs),
    /// The native search with and without its strip test, one thread, on the orders it picks.
    SearchSpeed(SearchSpeedArgs),
    /// Time to build and serialize the CP-SAT model in each formulation.
    ModelBuild(ModelBuildArgs),
    /// CP-SAT on the published puzzles of data/ (clue puzzles, Heule, Brendan).
    External(ExternalArgs),
    /// The DFS with and without the flux certificate on planted 8x8-10x10 boards.
    FluxPrune(FluxPruneArgs),
    /// Every arm (auto, single solvers, reference tools) on planted boards and published puzzles.
    Reach(ReachArgs),
    /// The best verified score and the time to reach each score, per board, budget and score arm.
    Score(ScoreArgs),
    /// The score walk's placements per second beside the field's published solver's, one thread each.
    ScoreSpeed(ScoreSpeedArgs),
    /// CP-SAT's time to complete the scan walk's partial boards, by board and empty cells: the table the completion thresholds are read from.
    Completion(CompletionArgs),
    /// A walk's recorded partial boards offered to one completion worker faster than it takes them: which depths it completes.
    Replay(ReplayArgs),
    /// Total placements per second of the score walks and the exact search at several thread counts.
    Threads(ThreadsArgs),
    /// The count's nodes per second by engine (bit sets, lists) and thread count, on the same boards.
    CountSpeed(CountSpeedArgs),
}

/// Which boards of `bench score` and `bench completion` to run.
#[derive(Args)]
pub(crate) struct ScoreBoardArgs {
    /// The official set's boards: official-centre (centre clue only),
    /// official-five (all five clues); `none` for neither.
    #[arg(long, value_delimiter = ',', default_value = "official-centre,official-five")]
    pub(super) official: Vec<String>,
    /// Planted board sides, e.g. 13-16 (`none` for no planted boards).
    #[arg(long, value_parser = numbers_or_none, default_value = "13-16")]
    pub(super) sizes: Numbers,
    /// Planted frame+interior colour settings.
    #[arg(long, value_delimiter = ',', default_value = "5+17")]
    pub(super) colours: Vec<cliff::Colours>,
    /// Planted seeds.
    #[arg(long, value_parser = numbers, default_value = "1-5")]
    pub(super) seeds: Numbers,
}

#[derive(Args)]
pub(crate) struct CompletionArgs {
    #[command(flatten)]
    pub(super) boards: ScoreBoardArgs,
    /// Numbers of empty free cells to complete.
    #[arg(long, value_parser = numbers, default_value = "8,10,12,14,16,18,20,24")]
    pub(super) empty: Numbers,
    /// Partial boards per number of empty cells (the deepest of different attempts).
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..=100))]
    pub(super) per: u32,
    /// Seconds the walk runs on each board to find its partial boards (one thread).
    #[arg(long, default_value_t = 30.0, value_parser = seconds)]
    pub(super) walk_seconds: f64,
    /// Seconds each completion gets (one thread).
    #[arg(long, default_value_t = 20.0, value_parser = seconds)]
    pub(super) limit: f64,
    /// What completes the boards: CP-SAT (the run's completer, whose times the
    /// table the library reads gives) or the native branch and bound.
    #[arg(long, value_enum, default_value_t = edgematch::score::Engine::Cpsat)]
    pub(super) engine: edgematch::score::Engine,
    /// The data folder (the official set).
    #[arg(long, default_value = "data")]
    pub(super) data: PathBuf,
    /// Folder of planted instance files; instances not there are generated in memory.
    #[arg(long, default_value = "models")]
    pub(super) models_dir: PathBuf,
    /// The table to write (JSON), which the library reads its thresholds from.
    #[arg(long, default_value = "results/score/completion-times.json")]
    pub(super) out: PathBuf,
}

#[derive(Args)]
pub(crate) struct ReplayArgs {
    #[command(flatten)]
    pub(super) boards: ScoreBoardArgs,
    /// Seconds the walk runs on each board while its stream is recorded (one thread, after its pilot).
    #[arg(long, default_value_t = 60.0, value_parser = seconds)]
    pub(super) record_seconds: f64,
    /// How many times faster than it came the stream is offered.
    #[arg(long, default_value_t = 10.0, value_parser = seconds)]
    pub(super) speed: f64,
    /// Seconds the worker keeps completing after the last board is offered.
    #[arg(long, default_value_t = 5.0, value_parser = seconds)]
    pub(super) tail: f64,
    /// The data folder (the official set).
    #[arg(long, default_value = "data")]
    pub(super) data: PathBuf,
    /// Folder of planted instance files; instances not there are generated in memory.
    #[arg(long, default_value = "models")]
    pub(super) models_dir: PathBuf,
    /// The markdown table to write.
    #[arg(long, default_value = "results/score/replay/table.md")]
    pub(super) out: PathBuf,
}

#[derive(Args)]
pub(crate) struct ThreadsArgs {
    /// Thread counts to run, each in turn (counts above the cores run too: their threads take turns).
    #[arg(long, value_delimiter = ',', default_value = "1,2,4,8", value_parser = clap::value_parser!(u32).range(1..=4096))]
    pub(super) threads: Vec<u32>,
    /// Seconds each run walks.
    #[arg(long, default_value_t = 20.0, value_parser = seconds)]
    pub(super) seconds: f64,
    /// The data folder (the official set, centre clue).
    #[arg(long, default_value = "data")]
    pub(super) data: PathBuf,
    /// The JSON record to write.
    #[arg(long, default_value = "results/threads/threads.json")]
    pub(super) out: PathBuf,
}

#[derive(Args)]
pub(crate) struct CountSpeedArgs {
    /// Boards to count (default: Brendan's 7×7 and 8×5).
    #[arg(default_values_t = bench::count_speed::default_instances())]
    pub(super) instances: Vec<String>,
    /// Thread counts to run, each in turn.
    #[arg(long, value_delimiter = ',', default_value = "1,2", value_parser = clap::value_parser!(u32).range(1..=4096))]
    pub(super) threads: Vec<u32>,
    /// Seconds each count may run (a count cut short is timed over what it did).
    #[arg(long, default_value_t = 30.0, value_parser = seconds)]
    pub(super) seconds: f64,
    /// The JSON record to write.
    #[arg(long, default_value = "results/counts/speed.json")]
    pub(super) out: PathBuf,
}

#[derive(Args)]
pub(crate) struct ScoreSpeedArgs {
    /// Seconds each walk runs (the port prints its rate after 2.5 × 10⁹ turns, about 40 s).
    #[arg(long, default_value_t = 60.0, value_parser = seconds)]
    pub(super) seconds: f64,
    /// The data folder (the official set).
    #[arg(long, default_value = "data")]
    pub(super) data: PathBuf,
    /// Sides of planted 5+17 boards (seed 1, five clues) walked after the
    /// official set, under the plan a run settles without pilot walks
    /// (`none`: the official set only).
    #[arg(long, value_parser = numbers_or_none, default_value = "none")]
    pub(super) planted: Numbers,
    /// Folder of planted instance files; instances not there are generated in memory.
    #[arg(long, default_value = "models")]
    pub(super) models_dir: PathBuf,
    /// The JSON record to write.
    #[arg(long, default_value = "results/score/speed.json")]
    pub(super) out: PathBuf,
}

#[derive(Args)]
pub(crate) struct ScoreArgs {
    /// Arms to run on each board: search (the score search: the scan walk and
    /// CP-SAT's completions), auto (what `solve --objective score` runs: the
    /// search, CP-SAT completing a board when the walk has none; not in the
    /// default, where it would repeat search), cpsat (CP-SAT maximizing the
    /// matched joins of the whole board), mip (HiGHS), dfs (its deepest partial
    /// board), blackwood (the field's published method, the Rust port of
    /// Blackwood's solver from the checkout named by EDGEMATCH_BLACKWOOD_DIR,
    /// its boards completed by CP-SAT; official-centre only, skipped without
    /// it). search+repair, `auto` until issue 52, is read from older runs files
    /// and not run.
    #[arg(long, value_delimiter = ',', value_parser = ScoreArm::runnable, default_value = "search,cpsat,mip,dfs,blackwood")]
    pub(super) arms: Vec<ScoreArm>,
    #[command(flatten)]
    pub(super) boards: ScoreBoardArgs,
    /// Budgets in seconds: every arm runs on every board at each.
    #[arg(long, value_delimiter = ',', default_value = "600", value_parser = seconds)]
    pub(super) budgets: Vec<f64>,
    /// Run seeds (the walks' shuffles, CP-SAT's seed): every arm runs once per seed, e.g. 1-3.
    #[arg(long, value_parser = numbers, default_value = "1")]
    pub(super) run_seeds: Numbers,
    /// The data folder (the official set).
    #[arg(long, default_value = "data")]
    pub(super) data: PathBuf,
    /// Folder of planted instance files; instances not there are generated in memory.
    #[arg(long, default_value = "models")]
    pub(super) models_dir: PathBuf,
    /// Runs file (JSON lines) to append to; its finished jobs are skipped.
    /// `{shard}` in the path becomes the shard number K (one file per Slurm array task).
    #[arg(long, default_value = "results/score/runs.jsonl")]
    pub(super) runs: PathBuf,
    /// Run only share K of N of the jobs, as K/N (default: a Slurm array task's share, else 1/1).
    #[arg(long, value_parser = shard)]
    pub(super) shard: Option<(usize, usize)>,
    /// Run nothing: merge these runs files into the table and the chart.
    #[arg(long, num_args = 1.., value_name = "RUNS")]
    pub(super) merge: Vec<PathBuf>,
    /// The markdown table to write (`{shard}` becomes K, as in --runs).
    #[arg(long, default_value = "results/score/table.md")]
    pub(super) out: PathBuf,
    /// The time-to-score chart to write (`{shard}` becomes K).
    #[arg(long, default_value = "results/score/time-to-score.svg")]
    pub(super) svg: PathBuf,
    #[command(flatten)]
    pub(super) watch: WatchArgs,
}

#[derive(Args)]
pub(crate) struct ReachArgs {
    /// Arms to run on each board: solvers (auto, cpsat, sat, search, dfs, mip),
    /// references (python-element, minizinc-gecode; skipped when not installed)
    /// and the two-thread `search-race` and CP-SAT variants (cpsat-element, cpsat-boolean, cpsat-clues,
    /// cpsat-clues-fixed, cpsat-hint, cpsat-boolean-hint, cpsat-lin0, cpsat-lin2,
    /// cpsat-nosym, cpsat-quick-restart).
    #[arg(long, value_delimiter = ',', default_value = "auto,search,cpsat,sat,python-element,minizinc-gecode")]
    pub(super) arms: Vec<BenchArm>,
    /// Planted board sides, e.g. 12-16 (`none` for no planted boards).
    #[arg(long, value_parser = numbers_or_none, default_value = "12-16")]
    pub(super) sizes: Numbers,
    /// Planted frame+interior colour settings.
    #[arg(long, value_delimiter = ',', default_value = "5+17,5+26")]
    pub(super) colours: Vec<cliff::Colours>,
    /// Planted seeds.
    #[arg(long, value_parser = numbers, default_value = "1-5")]
    pub(super) seeds: Numbers,
    /// Published puzzle collections under --data to add (heule2008, heule2008-shuffled, brendan, clue-puzzles).
    #[arg(long, value_delimiter = ',', default_value = "heule2008,brendan,clue-puzzles")]
    pub(super) collections: Vec<String>,
    /// Largest side of a published puzzle to run.
    #[arg(long, default_value_t = 8)]
    pub(super) max_puzzle_side: usize,
    /// The data folder.
    #[arg(long, default_value = "data")]
    pub(super) data: PathBuf,
    /// Limit per run in seconds.
    #[arg(long, default_value_t = 60.0, value_parser = seconds)]
    pub(super) limit: f64,
    /// Limit for one size, as SIZE:SECONDS (e.g. 16:300); repeatable.
    #[arg(long, value_parser = size_and_seconds)]
    pub(super) limit_at: Vec<(usize, f64)>,
    /// Folder of planted instance files; instances not there are generated in memory.
    #[arg(long, default_value = "models")]
    pub(super) models_dir: PathBuf,
    /// Runs file (JSON lines) to append to; its finished jobs are skipped.
    /// `{shard}` in the path becomes the shard number K: one file per Slurm
    /// array task, merged by `bench report`.
    #[arg(long, default_value = "results/reach/runs.jsonl")]
    pub(super) runs: PathBuf,
    /// Run only share K of N of the jobs, as K/N (job i goes to shard i mod N + 1).
    /// Default: a Slurm array task's share, shard SLURM_ARRAY_TASK_ID −
    /// SLURM_ARRAY_TASK_MIN + 1 of SLURM_ARRAY_TASK_COUNT; else 1/1.
    #[arg(long, value_parser = shard)]
    pub(super) shard: Option<(usize, usize)>,
    #[command(flatten)]
    pub(super) watch: WatchArgs,
}

/// A list of numbers, or `none` for an empty one.
fn numbers_or_none(s: &str) -> Result<Numbers, String> {
    if s == "none" { Ok(Numbers(Vec::new())) } else { numbers(s) }
}

#[derive(Args)]
pub(crate) struct SpineArgs {
    /// Instances to solve.
    #[arg(default_values_t = (1..=5).map(|s| format!("models/planted-12x12-f5i17-s{s}.json")).collect::<Vec<_>>())]
    pub(super) instances: Vec<String>,
    /// Instance whose model build and serialization is timed.
    #[arg(long, default_value = "models/planted-16x16-f5i17-s1.json")]
    pub(super) model_instance: PathBuf,
    /// Wall-clock limit per solve, in seconds.
    #[arg(long, default_value_t = 600.0, value_parser = seconds)]
    pub(super) time_limit: f64,
    /// CP-SAT workers (default: the number of cores).
    #[arg(long)]
    pub(super) workers: Option<u32>,
    /// Formulations to run, each on every instance.
    #[arg(long, value_enum, value_delimiter = ',', default_values_t = [Formulation::Table, Formulation::Element])]
    pub(super) models: Vec<Formulation>,
    /// The JSON record to write.
    #[arg(long, default_value = "results/spine-cpsat.json")]
    pub(super) out: PathBuf,
}

#[derive(Args)]
pub(crate) struct CliffArgs {
    /// Board sides, e.g. 10,11,12 or 10-14.
    #[arg(long, value_parser = numbers, default_value = "10-14")]
    pub(super) sizes: Numbers,
    /// Frame+interior colour settings.
    #[arg(long, value_delimiter = ',', default_value = "5+17")]
    pub(super) colours: Vec<cliff::Colours>,
    /// Generator seeds, e.g. 1-5.
    #[arg(long, value_parser = numbers, default_value = "1-5")]
    pub(super) seeds: Numbers,
    /// Seeds for one size instead of --seeds, as SIZE:SEEDS (e.g. 16:1 or 16:1-2); repeatable.
    #[arg(long, value_parser = size_and_seeds)]
    pub(super) seeds_at: Vec<(u64, Vec<u64>)>,
    /// Arms to run, in order, on each instance.
    #[arg(long, value_enum, value_delimiter = ',', default_values_t = [SolverKind::Dfs, SolverKind::Cpsat])]
    pub(super) arms: Vec<SolverKind>,
    /// DFS budgets in seconds; the first runs at every size, the others at --dfs-long-sizes.
    #[arg(long, value_delimiter = ',', default_value = "20", value_parser = seconds)]
    pub(super) dfs_budgets: Vec<f64>,
    /// Sizes at which the DFS budgets after the first run (default: all).
    #[arg(long, value_delimiter = ',')]
    pub(super) dfs_long_sizes: Vec<usize>,
    /// DFS placements between restarts.
    #[arg(long, default_value_t = 100_000, value_parser = clap::value_parser!(u64).range(1..))]
    pub(super) restart_nodes: u64,
    /// CP-SAT limit in seconds.
    #[arg(long, default_value_t = 300.0, value_parser = seconds)]
    pub(super) cpsat_limit: f64,
    /// CP-SAT limit for one size, as SIZE:SECONDS (e.g. 14:120); repeatable.
    #[arg(long, value_parser = size_and_seconds)]
    pub(super) cpsat_limit_at: Vec<(usize, f64)>,
    /// MIP (HiGHS) limit in seconds.
    #[arg(long, default_value_t = 300.0, value_parser = seconds)]
    pub(super) mip_limit: f64,
    /// CP-SAT workers (default: the number of cores).
    #[arg(long)]
    pub(super) workers: Option<u32>,
    /// CP-SAT formulation.
    #[arg(long, value_enum, default_value_t = Formulation::Table)]
    pub(super) model: Formulation,
    /// Folder of instance files; instances not there are generated in memory.
    #[arg(long, default_value = "models")]
    pub(super) models_dir: PathBuf,
    /// Runs file (JSON lines) to append to; its finished jobs are skipped.
    /// `{shard}` in the path becomes the shard number K: one file per Slurm
    /// array task, merged by `bench report`.
    #[arg(long, default_value = "results/cliff/runs.jsonl")]
    pub(super) runs: PathBuf,
    /// Run only share K of N of the jobs, as K/N (job i goes to shard i mod N + 1).
    /// Default: a Slurm array task's share, shard SLURM_ARRAY_TASK_ID −
    /// SLURM_ARRAY_TASK_MIN + 1 of SLURM_ARRAY_TASK_COUNT; else 1/1.
    #[arg(long, value_parser = shard)]
    pub(super) shard: Option<(usize, usize)>,
    #[command(flatten)]
    pub(super) watch: WatchArgs,
}

#[derive(Args)]
pub(crate) struct ReportArgs {
    /// Runs files to merge.
    #[arg(required = true)]
    pub(super) runs: Vec<PathBuf>,
    /// Markdown table to write.
    #[arg(long, default_value = "results/cliff/table.md")]
    pub(super) out: PathBuf,
    /// SVG chart to write.
    #[arg(long, default_value = "results/cliff/cliff.svg")]
    pub(super) svg: PathBuf,
    /// Keep only the runs on these colour settings or collections (e.g. 5+17,5+26 or heule2008).
    #[arg(long, value_delimiter = ',')]
    pub(super) only: Vec<String>,
    /// Also compare this arm (e.g. auto) with --references, rung by rung and
    /// budget by budget on the boards they all ran, as a markdown table at --compare-out.
    #[arg(long, requires = "compare_out")]
    pub(super) compare: Option<BenchArm>,
    /// The reference arms that --compare compares with.
    #[arg(long, value_delimiter = ',', default_value = "python-element,minizinc-gecode", requires = "compare")]
    pub(super) references: Vec<BenchArm>,
    /// The markdown table of --compare to write.
    #[arg(long, requires = "compare")]
    pub(super) compare_out: Option<PathBuf>,
    /// Runs files of `bench score`: the table gains the best score on the boards no arm solves.
    #[arg(long, num_args = 1.., value_name = "RUNS")]
    pub(super) scores: Vec<PathBuf>,
}

#[derive(Args)]
pub(crate) struct DfsSpeedArgs {
    /// Instances to run the DFS on.
    #[arg(default_values_t = (1..=5).map(|s| format!("models/planted-12x12-f5i17-s{s}.json")).collect::<Vec<_>>())]
    pub(super) instances: Vec<String>,
    /// Seconds per instance.
    #[arg(long, default_value_t = 10.0, value_parser = seconds)]
    pub(super) seconds: f64,
    /// The JSON record to write.
    #[arg(long, default_value = "results/dfs-speed.json")]
    pub(super) out: PathBuf,
}

#[derive(Args)]
pub(crate) struct SearchSpeedArgs {
    /// Instances to solve (default: the planted 15×15 5+26 and 12×12 5+17 boards).
    #[arg(default_values_t = bench::search_speed::default_instances())]
    pub(super) instances: Vec<String>,
    /// Limit per run, in seconds.
    #[arg(long, default_value_t = 60.0, value_parser = seconds)]
    pub(super) seconds: f64,
    /// The JSON record to write.
    #[arg(long, default_value = "results/search-speed.json")]
    pub(super) out: PathBuf,
}

#[derive(Args)]
pub(crate) struct ModelBuildArgs {
    /// Instance whose model is built.
    #[arg(default_value = "models/planted-16x16-f5i17-s1.json")]
    pub(super) instance: PathBuf,
    /// The JSON record to write.
    #[arg(long, default_value = "results/model-build.json")]
    pub(super) out: PathBuf,
}

#[derive(Args)]
pub(crate) struct ExternalArgs {
    /// The data folder (clue-puzzles/, heule2008/, brendan/ under it).
    #[arg(long, default_value = "data")]
    pub(super) data: PathBuf,
    /// CP-SAT limit per puzzle, in seconds.
    #[arg(long, default_value_t = 60.0, value_parser = seconds)]
    pub(super) time_limit: f64,
    /// CP-SAT workers (default: the number of cores).
    #[arg(long)]
    pub(super) workers: Option<u32>,
    /// Runs file (JSON lines) to append to; puzzles in it are skipped. `{shard}`
    /// in the path becomes the shard number K (one file per Slurm array task).
    #[arg(long, default_value = "results/external-puzzles.jsonl")]
    pub(super) runs: PathBuf,
    /// Run only share K of N of the jobs, as K/N (job i goes to shard i mod N + 1).
    /// Default: a Slurm array task's share, shard SLURM_ARRAY_TASK_ID −
    /// SLURM_ARRAY_TASK_MIN + 1 of SLURM_ARRAY_TASK_COUNT; else 1/1.
    #[arg(long, value_parser = shard)]
    pub(super) shard: Option<(usize, usize)>,
    /// Run nothing: write the table (--out) from these runs files, e.g. the
    /// shards' files of an array job.
    #[arg(long, num_args = 1.., value_name = "RUNS")]
    pub(super) merge: Vec<PathBuf>,
    /// The markdown table to write (`{shard}` becomes K, as in --runs).
    #[arg(long, default_value = "results/external-puzzles.md")]
    pub(super) out: PathBuf,
}

#[derive(Args)]
pub(crate) struct FluxPruneArgs {
    /// Apply the certificate once this fraction of the cells is filled.
    #[arg(long, default_value_t = 0.75, value_parser = fraction)]
    pub(super) fill: f64,
    /// Limit per run, in seconds.
    #[arg(long, default_value_t = 60.0, value_parser = seconds)]
    pub(super) seconds: f64,
    /// The JSON record to write.
    #[arg(long, default_value = "results/dfs-flux-prune.json")]
    pub(super) out: PathBuf,
}

/// A fraction in 0..=1.
fn fraction(s: &str) -> Result<f64, String> {
    let value: f64 = s.parse().map_err(|e| format!("{e}"))?;
    if (0.0..=1.0).contains(&value) { Ok(value) } else { Err(format!("{s} is not in 0..=1")) }
}
