//! `edgematch bench …`: benchmarks whose records go to `results/`.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context as _, Result};
use clap::{Args, Subcommand};
use edgematch::bench::records::{BenchArm, ExternalRun, Run};
use edgematch::bench::score::{ScoreArm, ScoreBoard, ScoreConfig, ScoreRun};
use edgematch::bench::{self, Provenance, chart, cliff, compare, external, reach, report, runs, score_report};
use edgematch::cpsat::{self, model::Formulation};
use edgematch::generate::PlantedSpec;
use edgematch::interrupt;
use edgematch::puzzle::MAX_SIDE;
use edgematch::solver::{Limits, SolverKind};
use edgematch::stop::Stop;

use super::args::{
    Numbers, cores, numbers, seconds, shard, shard_or_slurm, size_and_seconds, size_and_seeds, write_out,
};
use super::show::unless_interrupted;
use super::watch::WatchArgs;

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
    /// Total placements per second of the score walks and the exact search at several thread counts.
    Threads(ThreadsArgs),
}

#[derive(Args)]
pub(crate) struct ThreadsArgs {
    /// Thread counts to run, each in turn (counts above the cores run too: their threads take turns).
    #[arg(long, value_delimiter = ',', default_value = "1,2,4,8", value_parser = clap::value_parser!(u32).range(1..=4096))]
    threads: Vec<u32>,
    /// Seconds each run walks.
    #[arg(long, default_value_t = 20.0, value_parser = seconds)]
    seconds: f64,
    /// The data folder (the official set, centre clue).
    #[arg(long, default_value = "data")]
    data: PathBuf,
    /// The JSON record to write.
    #[arg(long, default_value = "results/threads/threads.json")]
    out: PathBuf,
}

#[derive(Args)]
pub(crate) struct ScoreSpeedArgs {
    /// Seconds each walk runs (the port prints its rate after 2.5 × 10⁹ turns, about 40 s).
    #[arg(long, default_value_t = 60.0, value_parser = seconds)]
    seconds: f64,
    /// The data folder (the official set).
    #[arg(long, default_value = "data")]
    data: PathBuf,
    /// The JSON record to write.
    #[arg(long, default_value = "results/score/speed.json")]
    out: PathBuf,
}

#[derive(Args)]
pub(crate) struct ScoreArgs {
    /// Arms to run on each board: search (the score search's default: the scan
    /// walk), budget (the break-budget walk, `--walk budget`), search+repair
    /// (the walk, then CP-SAT repairing regions), cpsat (CP-SAT maximizing the
    /// matched joins of the whole board), mip (HiGHS), dfs (its deepest partial
    /// board), blackwood (the field's published method, the Rust port of
    /// Blackwood's solver from the checkout named by EDGEMATCH_BLACKWOOD_DIR,
    /// its boards completed by CP-SAT; official-centre only, skipped without it).
    #[arg(long, value_delimiter = ',', default_value = "search,budget,search+repair,cpsat,mip,dfs,blackwood")]
    arms: Vec<ScoreArm>,
    /// The official set's boards: official-centre (centre clue only),
    /// official-five (all five clues); `none` for neither.
    #[arg(long, value_delimiter = ',', default_value = "official-centre,official-five")]
    official: Vec<String>,
    /// Planted board sides, e.g. 13-16 (`none` for no planted boards).
    #[arg(long, value_parser = numbers_or_none, default_value = "13-16")]
    sizes: Numbers,
    /// Planted frame+interior colour settings.
    #[arg(long, value_delimiter = ',', default_value = "5+17")]
    colours: Vec<cliff::Colours>,
    /// Planted seeds.
    #[arg(long, value_parser = numbers, default_value = "1-5")]
    seeds: Numbers,
    /// Budgets in seconds: every arm runs on every board at each.
    #[arg(long, value_delimiter = ',', default_value = "600", value_parser = seconds)]
    budgets: Vec<f64>,
    /// The data folder (the official set).
    #[arg(long, default_value = "data")]
    data: PathBuf,
    /// Folder of planted instance files; instances not there are generated in memory.
    #[arg(long, default_value = "models")]
    models_dir: PathBuf,
    /// Runs file (JSON lines) to append to; its finished jobs are skipped.
    /// `{shard}` in the path becomes the shard number K (one file per Slurm array task).
    #[arg(long, default_value = "results/score/runs.jsonl")]
    runs: PathBuf,
    /// Run only share K of N of the jobs, as K/N (default: a Slurm array task's share, else 1/1).
    #[arg(long, value_parser = shard)]
    shard: Option<(usize, usize)>,
    /// Run nothing: merge these runs files into the table and the chart.
    #[arg(long, num_args = 1.., value_name = "RUNS")]
    merge: Vec<PathBuf>,
    /// The markdown table to write (`{shard}` becomes K, as in --runs).
    #[arg(long, default_value = "results/score/table.md")]
    out: PathBuf,
    /// The time-to-score chart to write (`{shard}` becomes K).
    #[arg(long, default_value = "results/score/time-to-score.svg")]
    svg: PathBuf,
    #[command(flatten)]
    watch: WatchArgs,
}

#[derive(Args)]
pub(crate) struct ReachArgs {
    /// Arms to run on each board: solvers (auto, cpsat, sat, search, dfs, mip),
    /// references (python-element, minizinc-gecode; skipped when not installed)
    /// and the two-thread `search-race` and CP-SAT variants (cpsat-element, cpsat-boolean, cpsat-clues,
    /// cpsat-clues-fixed, cpsat-hint, cpsat-boolean-hint, cpsat-lin0, cpsat-lin2,
    /// cpsat-nosym, cpsat-quick-restart).
    #[arg(long, value_delimiter = ',', default_value = "auto,search,cpsat,sat,python-element,minizinc-gecode")]
    arms: Vec<BenchArm>,
    /// Planted board sides, e.g. 12-16 (`none` for no planted boards).
    #[arg(long, value_parser = numbers_or_none, default_value = "12-16")]
    sizes: Numbers,
    /// Planted frame+interior colour settings.
    #[arg(long, value_delimiter = ',', default_value = "5+17,5+26")]
    colours: Vec<cliff::Colours>,
    /// Planted seeds.
    #[arg(long, value_parser = numbers, default_value = "1-5")]
    seeds: Numbers,
    /// Published puzzle collections under --data to add (heule2008, heule2008-shuffled, brendan, clue-puzzles).
    #[arg(long, value_delimiter = ',', default_value = "heule2008,brendan,clue-puzzles")]
    collections: Vec<String>,
    /// Largest side of a published puzzle to run.
    #[arg(long, default_value_t = 8)]
    max_puzzle_side: usize,
    /// The data folder.
    #[arg(long, default_value = "data")]
    data: PathBuf,
    /// Limit per run in seconds.
    #[arg(long, default_value_t = 60.0, value_parser = seconds)]
    limit: f64,
    /// Limit for one size, as SIZE:SECONDS (e.g. 16:300); repeatable.
    #[arg(long, value_parser = size_and_seconds)]
    limit_at: Vec<(usize, f64)>,
    /// Folder of planted instance files; instances not there are generated in memory.
    #[arg(long, default_value = "models")]
    models_dir: PathBuf,
    /// Runs file (JSON lines) to append to; its finished jobs are skipped.
    /// `{shard}` in the path becomes the shard number K: one file per Slurm
    /// array task, merged by `bench report`.
    #[arg(long, default_value = "results/reach/runs.jsonl")]
    runs: PathBuf,
    /// Run only share K of N of the jobs, as K/N (job i goes to shard i mod N + 1).
    /// Default: a Slurm array task's share, shard SLURM_ARRAY_TASK_ID −
    /// SLURM_ARRAY_TASK_MIN + 1 of SLURM_ARRAY_TASK_COUNT; else 1/1.
    #[arg(long, value_parser = shard)]
    shard: Option<(usize, usize)>,
    #[command(flatten)]
    watch: WatchArgs,
}

/// A list of numbers, or `none` for an empty one.
fn numbers_or_none(s: &str) -> Result<Numbers, String> {
    if s == "none" { Ok(Numbers(Vec::new())) } else { numbers(s) }
}

#[derive(Args)]
pub(crate) struct SpineArgs {
    /// Instances to solve.
    #[arg(default_values_t = (1..=5).map(|s| format!("models/planted-12x12-f5i17-s{s}.json")).collect::<Vec<_>>())]
    instances: Vec<String>,
    /// Instance whose model build and serialization is timed.
    #[arg(long, default_value = "models/planted-16x16-f5i17-s1.json")]
    model_instance: PathBuf,
    /// Wall-clock limit per solve, in seconds.
    #[arg(long, default_value_t = 600.0, value_parser = seconds)]
    time_limit: f64,
    /// CP-SAT workers (default: the number of cores).
    #[arg(long)]
    workers: Option<u32>,
    /// Formulations to run, each on every instance.
    #[arg(long, value_enum, value_delimiter = ',', default_values_t = [Formulation::Table, Formulation::Element])]
    models: Vec<Formulation>,
    /// The JSON record to write.
    #[arg(long, default_value = "results/spine-cpsat.json")]
    out: PathBuf,
}

#[derive(Args)]
pub(crate) struct CliffArgs {
    /// Board sides, e.g. 10,11,12 or 10-14.
    #[arg(long, value_parser = numbers, default_value = "10-14")]
    sizes: Numbers,
    /// Frame+interior colour settings.
    #[arg(long, value_delimiter = ',', default_value = "5+17")]
    colours: Vec<cliff::Colours>,
    /// Generator seeds, e.g. 1-5.
    #[arg(long, value_parser = numbers, default_value = "1-5")]
    seeds: Numbers,
    /// Seeds for one size instead of --seeds, as SIZE:SEEDS (e.g. 16:1 or 16:1-2); repeatable.
    #[arg(long, value_parser = size_and_seeds)]
    seeds_at: Vec<(u64, Vec<u64>)>,
    /// Arms to run, in order, on each instance.
    #[arg(long, value_enum, value_delimiter = ',', default_values_t = [SolverKind::Dfs, SolverKind::Cpsat])]
    arms: Vec<SolverKind>,
    /// DFS budgets in seconds; the first runs at every size, the others at --dfs-long-sizes.
    #[arg(long, value_delimiter = ',', default_value = "20", value_parser = seconds)]
    dfs_budgets: Vec<f64>,
    /// Sizes at which the DFS budgets after the first run (default: all).
    #[arg(long, value_delimiter = ',')]
    dfs_long_sizes: Vec<usize>,
    /// DFS placements between restarts.
    #[arg(long, default_value_t = 100_000, value_parser = clap::value_parser!(u64).range(1..))]
    restart_nodes: u64,
    /// CP-SAT limit in seconds.
    #[arg(long, default_value_t = 300.0, value_parser = seconds)]
    cpsat_limit: f64,
    /// CP-SAT limit for one size, as SIZE:SECONDS (e.g. 14:120); repeatable.
    #[arg(long, value_parser = size_and_seconds)]
    cpsat_limit_at: Vec<(usize, f64)>,
    /// MIP (HiGHS) limit in seconds.
    #[arg(long, default_value_t = 300.0, value_parser = seconds)]
    mip_limit: f64,
    /// CP-SAT workers (default: the number of cores).
    #[arg(long)]
    workers: Option<u32>,
    /// CP-SAT formulation.
    #[arg(long, value_enum, default_value_t = Formulation::Table)]
    model: Formulation,
    /// Folder of instance files; instances not there are generated in memory.
    #[arg(long, default_value = "models")]
    models_dir: PathBuf,
    /// Runs file (JSON lines) to append to; its finished jobs are skipped.
    /// `{shard}` in the path becomes the shard number K: one file per Slurm
    /// array task, merged by `bench report`.
    #[arg(long, default_value = "results/cliff/runs.jsonl")]
    runs: PathBuf,
    /// Run only share K of N of the jobs, as K/N (job i goes to shard i mod N + 1).
    /// Default: a Slurm array task's share, shard SLURM_ARRAY_TASK_ID −
    /// SLURM_ARRAY_TASK_MIN + 1 of SLURM_ARRAY_TASK_COUNT; else 1/1.
    #[arg(long, value_parser = shard)]
    shard: Option<(usize, usize)>,
    #[command(flatten)]
    watch: WatchArgs,
}

#[derive(Args)]
pub(crate) struct ReportArgs {
    /// Runs files to merge.
    #[arg(required = true)]
    runs: Vec<PathBuf>,
    /// Markdown table to write.
    #[arg(long, default_value = "results/cliff/table.md")]
    out: PathBuf,
    /// SVG chart to write.
    #[arg(long, default_value = "results/cliff/cliff.svg")]
    svg: PathBuf,
    /// Keep only the runs on these colour settings or collections (e.g. 5+17,5+26 or heule2008).
    #[arg(long, value_delimiter = ',')]
    only: Vec<String>,
    /// Also compare this arm (e.g. auto) with --references, rung by rung and
    /// budget by budget on the boards they all ran, as a markdown table at --compare-out.
    #[arg(long, requires = "compare_out")]
    compare: Option<BenchArm>,
    /// The reference arms that --compare compares with.
    #[arg(long, value_delimiter = ',', default_value = "python-element,minizinc-gecode", requires = "compare")]
    references: Vec<BenchArm>,
    /// The markdown table of --compare to write.
    #[arg(long, requires = "compare")]
    compare_out: Option<PathBuf>,
    /// Runs files of `bench score`: the table gains the best score on the boards no arm solves.
    #[arg(long, num_args = 1.., value_name = "RUNS")]
    scores: Vec<PathBuf>,
}

#[derive(Args)]
pub(crate) struct DfsSpeedArgs {
    /// Instances to run the DFS on.
    #[arg(default_values_t = (1..=5).map(|s| format!("models/planted-12x12-f5i17-s{s}.json")).collect::<Vec<_>>())]
    instances: Vec<String>,
    /// Seconds per instance.
    #[arg(long, default_value_t = 10.0, value_parser = seconds)]
    seconds: f64,
    /// The JSON record to write.
    #[arg(long, default_value = "results/dfs-speed.json")]
    out: PathBuf,
}

#[derive(Args)]
pub(crate) struct SearchSpeedArgs {
    /// Instances to solve (default: the planted 15×15 5+26 and 12×12 5+17 boards).
    #[arg(default_values_t = bench::search_speed::default_instances())]
    instances: Vec<String>,
    /// Limit per run, in seconds.
    #[arg(long, default_value_t = 60.0, value_parser = seconds)]
    seconds: f64,
    /// The JSON record to write.
    #[arg(long, default_value = "results/search-speed.json")]
    out: PathBuf,
}

#[derive(Args)]
pub(crate) struct ModelBuildArgs {
    /// Instance whose model is built.
    #[arg(default_value = "models/planted-16x16-f5i17-s1.json")]
    instance: PathBuf,
    /// The JSON record to write.
    #[arg(long, default_value = "results/model-build.json")]
    out: PathBuf,
}

#[derive(Args)]
pub(crate) struct ExternalArgs {
    /// The data folder (clue-puzzles/, heule2008/, brendan/ under it).
    #[arg(long, default_value = "data")]
    data: PathBuf,
    /// CP-SAT limit per puzzle, in seconds.
    #[arg(long, default_value_t = 60.0, value_parser = seconds)]
    time_limit: f64,
    /// CP-SAT workers (default: the number of cores).
    #[arg(long)]
    workers: Option<u32>,
    /// Runs file (JSON lines) to append to; puzzles in it are skipped. `{shard}`
    /// in the path becomes the shard number K (one file per Slurm array task).
    #[arg(long, default_value = "results/external-puzzles.jsonl")]
    runs: PathBuf,
    /// Run only share K of N of the jobs, as K/N (job i goes to shard i mod N + 1).
    /// Default: a Slurm array task's share, shard SLURM_ARRAY_TASK_ID −
    /// SLURM_ARRAY_TASK_MIN + 1 of SLURM_ARRAY_TASK_COUNT; else 1/1.
    #[arg(long, value_parser = shard)]
    shard: Option<(usize, usize)>,
    /// Run nothing: write the table (--out) from these runs files, e.g. the
    /// shards' files of an array job.
    #[arg(long, num_args = 1.., value_name = "RUNS")]
    merge: Vec<PathBuf>,
    /// The markdown table to write (`{shard}` becomes K, as in --runs).
    #[arg(long, default_value = "results/external-puzzles.md")]
    out: PathBuf,
}

#[derive(Args)]
pub(crate) struct FluxPruneArgs {
    /// Apply the certificate once this fraction of the cells is filled.
    #[arg(long, default_value_t = 0.75, value_parser = fraction)]
    fill: f64,
    /// Limit per run, in seconds.
    #[arg(long, default_value_t = 60.0, value_parser = seconds)]
    seconds: f64,
    /// The JSON record to write.
    #[arg(long, default_value = "results/dfs-flux-prune.json")]
    out: PathBuf,
}

/// A fraction in 0..=1.
fn fraction(s: &str) -> Result<f64, String> {
    let value: f64 = s.parse().map_err(|e| format!("{e}"))?;
    if (0.0..=1.0).contains(&value) { Ok(value) } else { Err(format!("{s} is not in 0..=1")) }
}

/// The handle Ctrl-C raises, installed once for the bench.
fn stop() -> Result<Stop> {
    interrupt::install().map_err(anyhow::Error::msg)
}

pub(crate) fn run(command: BenchCommand) -> Result<ExitCode> {
    match command {
        BenchCommand::Spine(args) => spine(args),
        BenchCommand::Cliff(args) => cliff(args),
        BenchCommand::Report(args) => report(args),
        BenchCommand::DfsSpeed(args) => {
            let instances: Vec<PathBuf> = args.instances.iter().map(PathBuf::from).collect();
            write_out(&args.out, &bench::dfs_speed(&instances, args.seconds, &stop()?)?.to_json())?;
            Ok(ExitCode::SUCCESS)
        }
        BenchCommand::SearchSpeed(args) => {
            let instances: Vec<PathBuf> = args.instances.iter().map(PathBuf::from).collect();
            write_out(&args.out, &bench::search_speed::search_speed(&instances, args.seconds, &stop()?)?.to_json())?;
            Ok(ExitCode::SUCCESS)
        }
        BenchCommand::ModelBuild(args) => {
            write_out(&args.out, &bench::spine::model_build_record(&args.instance)?.to_json())?;
            Ok(ExitCode::SUCCESS)
        }
        BenchCommand::External(args) => external(args),
        BenchCommand::Reach(args) => reach(args),
        BenchCommand::Score(args) => score(args),
        BenchCommand::ScoreSpeed(args) => {
            let instance = bench::score::ScoreBoard::CENTRE.instance(&args.data, Path::new("models"))?;
            write_out(&args.out, &bench::score_speed::run(&instance, args.seconds, &stop()?)?.to_json())?;
            Ok(ExitCode::SUCCESS)
        }
        BenchCommand::Threads(args) => {
            let instance = bench::score::ScoreBoard::CENTRE.instance(&args.data, Path::new("models"))?;
            let counts: Vec<usize> = args.threads.iter().map(|&t| t as usize).collect();
            write_out(&args.out, &bench::threads::run(&instance, &counts, args.seconds, &stop()?)?.to_json())?;
            Ok(ExitCode::SUCCESS)
        }
        BenchCommand::FluxPrune(args) => {
            let record = bench::dfs_speed::flux_prune(&[8, 9, 10], &[1, 2, 3], args.fill, args.seconds, &stop()?)?;
            write_out(&args.out, &record.to_json())?;
            Ok(ExitCode::SUCCESS)
        }
    }
}

fn spine(args: SpineArgs) -> Result<ExitCode> {
    let config = bench::SpineConfig {
        instances: args.instances.iter().map(PathBuf::from).collect(),
        model_instance: args.model_instance,
        formulations: args.models.clone(),
        limits: Limits {
            time_limit: Some(args.time_limit),
            threads: args.workers.unwrap_or_else(cores),
            ..Limits::default()
        },
    };
    write_out(&args.out, &bench::spine(&config, &stop()?)?.to_json())?;
    Ok(ExitCode::SUCCESS)
}

fn cliff(args: CliffArgs) -> Result<ExitCode> {
    let shard = shard_or_slurm(args.shard)?;
    let to_size = |s: u64| usize::try_from(s).ok().filter(|s| (2..=MAX_SIDE).contains(s));
    let sizes =
        args.sizes.0.iter().map(|&s| to_size(s).with_context(|| format!("--sizes: {s} is not in 2..={MAX_SIDE}")));
    let config = cliff::CliffConfig {
        sizes: sizes.collect::<Result<_>>()?,
        colours: args.colours,
        seeds: args.seeds.0,
        seeds_at: args.seeds_at.into_iter().map(|(size, seeds)| (size as usize, seeds)).collect(),
        arms: args.arms,
        dfs_budgets: args.dfs_budgets,
        dfs_long_sizes: args.dfs_long_sizes,
        restart_nodes: args.restart_nodes,
        cpsat_limit: args.cpsat_limit,
        cpsat_limit_at: args.cpsat_limit_at,
        mip_limit: args.mip_limit,
        workers: args.workers.unwrap_or_else(cores),
        formulation: args.model,
        models_dir: args.models_dir,
        runs: runs::shard_path(&args.runs, shard.0),
        shard,
    };
    args.watch.around("edgematch bench cliff", |stop| Ok(cliff::run(&config, &Provenance::current(), stop).map(drop)?))
}

fn report(args: ReportArgs) -> Result<ExitCode> {
    let mut all = Vec::new();
    for path in &args.runs {
        let (mut more, broken) = runs::read_runs::<Run>(path)?;
        more.retain(|run| args.only.is_empty() || args.only.contains(&run.colours));
        if broken > 0 {
            eprintln!("report: {} has {broken} unreadable line(s), ignored", path.display());
        }
        all.append(&mut more);
    }
    let comparison = args.compare.map(|arm| compare::compare(&all, arm, &args.references)).transpose()?;
    let rungs = report::summarize(&all);
    let mut table = report::markdown(&rungs);
    if !args.scores.is_empty() {
        let mut scores: Vec<ScoreRun> = Vec::new();
        for path in &args.scores {
            scores.append(&mut runs::read_runs::<ScoreRun>(path)?.0);
        }
        table.push_str(&score_report::unsolved_rungs(&all, &scores));
    }
    edgematch::output::write_atomic(&args.out, table.as_bytes())?;
    edgematch::output::write_atomic(&args.svg, chart::svg(&rungs).as_bytes())?;
    eprintln!("wrote {} and {} ({} runs)", args.out.display(), args.svg.display(), all.len());
    if let (Some(comparison), Some(path)) = (comparison, &args.compare_out) {
        edgematch::output::write_atomic(path, compare::markdown(&comparison).as_bytes())?;
        eprintln!(
            "wrote {} ({} rows, {} rungs left out)",
            path.display(),
            comparison.rows.len(),
            comparison.left_out.len()
        );
    }
    Ok(ExitCode::SUCCESS)
}

fn external(args: ExternalArgs) -> Result<ExitCode> {
    let puzzles = external::catalogue(&args.data)?;
    let options = cpsat::Options::default();
    let limits =
        Limits { time_limit: Some(args.time_limit), threads: args.workers.unwrap_or_else(cores), ..Limits::default() };
    let provenance = Provenance::current();
    let mut files = args.merge.clone();
    let mut out = args.out.clone();
    if files.is_empty() {
        let shard = shard_or_slurm(args.shard)?;
        let path = runs::shard_path(&args.runs, shard.0);
        let _ = external::run(&puzzles, &options, &limits, &path, shard, &provenance, &stop()?)?;
        files.push(path);
        out = runs::shard_path(&args.out, shard.0);
    }
    let mut runs = Vec::new();
    for path in &files {
        runs.append(&mut runs::read_runs::<ExternalRun>(path)?.0);
    }
    write_out(&out, &external::document(&puzzles, &runs, &options, &limits, &provenance))?;
    Ok(unless_interrupted(ExitCode::SUCCESS))
}

fn reach(args: ReachArgs) -> Result<ExitCode> {
    let shard = shard_or_slurm(args.shard)?;
    let config = reach::ReachConfig {
        arms: args.arms,
        sizes: args.sizes.0.iter().map(|&s| s as usize).collect(),
        colours: args.colours,
        seeds: args.seeds.0,
        collections: args.collections,
        max_puzzle_side: args.max_puzzle_side,
        data: args.data,
        limit: args.limit,
        limit_at: args.limit_at,
        cores: cores(),
        models_dir: args.models_dir,
        runs: runs::shard_path(&args.runs, shard.0),
        shard,
    };
    args.watch.around("edgematch bench reach", |stop| Ok(reach::run(&config, &Provenance::current(), stop).map(drop)?))
}

fn score(args: ScoreArgs) -> Result<ExitCode> {
    let mut files = args.merge.clone();
    let (mut out, mut svg) = (args.out.clone(), args.svg.clone());
    let watching = args.watch.start("edgematch bench score")?;
    let stop = stop()?;
    if files.is_empty() {
        let shard = shard_or_slurm(args.shard)?;
        let mut boards = Vec::new();
        for name in args.official.iter().filter(|n| *n != "none") {
            boards.push(match name.as_str() {
                "official-centre" => ScoreBoard::CENTRE,
                "official-five" => ScoreBoard::FIVE,
                other => anyhow::bail!("--official: {other:?} is not official-centre, official-five or none"),
            });
        }
        for colours in &args.colours {
            for &size in &args.sizes.0 {
                let size = usize::try_from(size)
                    .ok()
                    .filter(|s| (2..=MAX_SIDE).contains(s))
                    .with_context(|| format!("--sizes: {size} is not in 2..={MAX_SIDE}"))?;
                for &seed in &args.seeds.0 {
                    boards.push(ScoreBoard::Planted(PlantedSpec::square(size, colours.frame, colours.interior, seed)));
                }
            }
        }
        let config = ScoreConfig {
            arms: args.arms,
            boards,
            budgets: args.budgets,
            data: args.data,
            models_dir: args.models_dir,
            cores: cores(),
            runs: runs::shard_path(&args.runs, shard.0),
            shard,
        };
        let _ = bench::score::run(&config, &Provenance::current(), &stop)?;
        files.push(config.runs);
        out = runs::shard_path(&args.out, shard.0);
        svg = runs::shard_path(&args.svg, shard.0);
    }
    let mut all: Vec<ScoreRun> = Vec::new();
    for path in &files {
        all.append(&mut runs::read_runs::<ScoreRun>(path)?.0);
    }
    write_out(&out, &score_report::markdown(&all))?;
    write_out(&svg, &score_report::svg(&all))?;
    eprintln!("score: {} runs; wrote {} and {}", score_report::latest(&all).len(), out.display(), svg.display());
    let code = unless_interrupted(ExitCode::SUCCESS);
    watching.linger(&stop);
    Ok(code)
}
