//! `edgematch bench …`: benchmarks whose records go to `results/`.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context as _, Result};
use edgematch::bench::records::{ExternalRun, Run};
use edgematch::bench::score::{ScoreBoard, ScoreConfig, ScoreRun};
use edgematch::bench::{self, Provenance, chart, cliff, compare, external, reach, report, runs, score_report};
use edgematch::cpsat;
use edgematch::generate::PlantedSpec;
use edgematch::interrupt;
use edgematch::puzzle::MAX_SIDE;
use edgematch::solver::Limits;
use edgematch::stop::Stop;

use super::args::{cores, shard_or_slurm, write_out};
use super::show::unless_interrupted;

mod args;

pub(crate) use args::BenchCommand;
use args::{
    CliffArgs, CompletionArgs, ExternalArgs, ReachArgs, ReplayArgs, ReportArgs, ScoreArgs, ScoreBoardArgs,
    ScoreSpeedArgs, SpineArgs,
};

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
        BenchCommand::Completion(args) => completion(args),
        BenchCommand::Replay(args) => replay(args),
        BenchCommand::ScoreSpeed(args) => score_speed(args),
        BenchCommand::Threads(args) => {
            let instance = bench::score::ScoreBoard::CENTRE.instance(&args.data, Path::new("models"))?;
            let counts: Vec<usize> = args.threads.iter().map(|&t| t as usize).collect();
            write_out(&args.out, &bench::threads::run(&instance, &counts, args.seconds, &stop()?)?.to_json())?;
            Ok(ExitCode::SUCCESS)
        }
        BenchCommand::CountSpeed(args) => {
            let instances: Vec<PathBuf> = args.instances.iter().map(PathBuf::from).collect();
            let threads: Vec<usize> = args.threads.iter().map(|&t| t as usize).collect();
            let record = bench::count_speed::run(&instances, &threads, args.seconds, &stop()?)?;
            write_out(&args.out, &record.to_json())?;
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
    let config = cliff::CliffConfig {
        sizes: args.sizes.0.iter().map(|&s| board_side("--sizes", s)).collect::<Result<_>>()?,
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

/// The boards `--official`, `--colours`, `--sizes` and `--seeds` name.
fn score_boards(args: &ScoreBoardArgs) -> Result<Vec<ScoreBoard>> {
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
            let size = board_side("--sizes", size)?;
            for &seed in &args.seeds.0 {
                boards.push(ScoreBoard::Planted(PlantedSpec::square(size, colours.frame, colours.interior, seed)));
            }
        }
    }
    Ok(boards)
}

/// `bench completion`: the table of completion times, written whole at the end (or at Ctrl-C, with the boards done).
fn completion(args: CompletionArgs) -> Result<ExitCode> {
    let boards = score_boards(&args.boards)?;
    let how = edgematch::score::completion_measure::Measure {
        empty: args.empty.0.iter().map(|&k| k as usize).collect(),
        boards: args.per as usize,
        walk_seconds: args.walk_seconds,
        limit_seconds: args.limit,
        engine: args.engine,
        seed: 1,
    };
    let stop = stop()?;
    let table = bench::completion::run(&boards, (&args.data, &args.models_dir), &how, &command_line(), &stop)?;
    write_out(&args.out, &format!("{}\n", serde_json::to_string_pretty(&table)?))?;
    eprintln!("completion: {} rows; wrote {}", table.rows.len(), args.out.display());
    Ok(unless_interrupted(ExitCode::SUCCESS))
}

/// `bench replay`: the table of what one worker completed of a stream offered too fast, written whole at the end.
fn replay(args: ReplayArgs) -> Result<ExitCode> {
    let boards = score_boards(&args.boards)?;
    let how = bench::replay::Replay { record_seconds: args.record_seconds, speed: args.speed, tail: args.tail };
    let stop = stop()?;
    let text = bench::replay::run(&boards, (&args.data, &args.models_dir), &how, &command_line(), &stop)?;
    if let Some(dir) = args.out.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).with_context(|| format!("{}: cannot create the folder", dir.display()))?;
    }
    write_out(&args.out, &text)?;
    Ok(unless_interrupted(ExitCode::SUCCESS))
}

/// The command as typed, for a table's provenance.
/// A board side given to `flag`, checked to lie in 2..=MAX_SIDE.
fn board_side(flag: &str, side: u64) -> Result<usize> {
    usize::try_from(side)
        .ok()
        .filter(|s| (2..=MAX_SIDE).contains(s))
        .with_context(|| format!("{flag}: {side} is not in 2..={MAX_SIDE}"))
}

fn score_speed(args: ScoreSpeedArgs) -> Result<ExitCode> {
    let official = bench::score::ScoreBoard::CENTRE.instance(&args.data, &args.models_dir)?;
    let mut planted = Vec::new();
    for &side in &args.planted.0 {
        let side = board_side("--planted", side)?;
        let board = ScoreBoard::Planted(PlantedSpec::square(side, 5, 17, 1));
        planted.push((board.name(), board.instance(&args.data, &args.models_dir)?));
    }
    let record = bench::score_speed::run(&official, &planted, args.seconds, &command_line(), &stop()?)?;
    write_out(&args.out, &record.to_json())?;
    Ok(ExitCode::SUCCESS)
}

fn command_line() -> String {
    let command = std::env::args().map(|a| if a.contains(' ') { format!("'{a}'") } else { a }).collect::<Vec<_>>();
    format!("edgematch {}", command[1..].join(" "))
}

fn score(args: ScoreArgs) -> Result<ExitCode> {
    let mut files = args.merge.clone();
    let (mut out, mut svg) = (args.out.clone(), args.svg.clone());
    let watching = args.watch.start("edgematch bench score")?;
    let stop = stop()?;
    if files.is_empty() {
        let shard = shard_or_slurm(args.shard)?;
        let boards = score_boards(&args.boards)?;
        let config = ScoreConfig {
            arms: args.arms,
            boards,
            budgets: args.budgets,
            data: args.data,
            models_dir: args.models_dir,
            cores: cores(),
            runs: runs::shard_path(&args.runs, shard.0),
            shard,
            run_seeds: args.run_seeds.0.clone(),
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
