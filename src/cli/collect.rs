//! `edgematch collect`: the verdict of a cube folder, or the best board of a score array, every board verified.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use clap::Args;
use edgematch::cubes::collect::{self, Verdict};
use edgematch::cubes::count_file;
use edgematch::formats::{board_json, bucas};
use edgematch::output::write_atomic;
use edgematch::score::array;

#[derive(Args)]
pub(crate) struct CollectArgs {
    /// A folder written by `split` (its `cubes.json`), with the result files
    /// that `solve` writes beside each cube it runs; or the folder of a score
    /// array (`deploy/slurm/score.sbatch`), one `*.checkpoint.json` per task.
    dir: PathBuf,
    /// Write the verified board here (board JSON), when there is one.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Sum the cubes' counts (the `cube-NNNN.count.json` files `count` writes
    /// on each cube) instead: the board's total, refused while a cube is
    /// missing or its count unfinished.
    #[arg(long, conflicts_with = "out")]
    counts: bool,
}

/// Exit 0 with a verified board; 1 when refuted or still open; 3 when a
/// result's board fails the checker. A score array: exit 0 when its best
/// board is a full solution, 1 otherwise.
pub(crate) fn run(args: CollectArgs) -> Result<ExitCode> {
    if args.counts {
        return counts(&args);
    }
    if !args.dir.join("cubes.json").exists() && args.dir.is_dir() {
        return score_array(&args);
    }
    let collected = collect::collect(&args.dir)?;
    let set = &collected.set;
    println!("cubes: {} of {} ({}), order {}", set.cubes.len(), set.source, set.instance.instance.grid, set.order);
    println!("cube  status        seconds  cpu_seconds  host");
    for (i, result) in collected.results.iter().enumerate() {
        match result {
            Some(r) => println!(
                "{:>4}  {:<12} {:>8.1} {:>12.1}  {}",
                i + 1,
                r.status.to_string(),
                r.seconds,
                r.cpu_seconds,
                r.host
            ),
            None => println!("{:>4}  {:<12}", i + 1, "missing"),
        }
    }
    println!("cpu seconds over the cubes with a result: {:.1}", collected.cpu_seconds());
    match &collected.verdict {
        Verdict::Solved { cube, board, report } => {
            println!("status: solved (cube {cube})");
            print!("checker (original instance): {}", report.summary(20));
            if let Some(path) = &args.out {
                write_atomic(path, board_json::to_string(board).as_bytes())?;
                println!("wrote {}", path.display());
            }
            Ok(ExitCode::SUCCESS)
        }
        Verdict::Refuted => {
            println!("status: infeasible (every one of the {} cubes refuted)", set.cubes.len());
            Ok(ExitCode::from(1))
        }
        Verdict::Open { missing, unknown } => {
            println!(
                "status: unknown ({} cubes without a result: {:?}; {} without an answer: {:?})",
                missing.len(),
                missing,
                unknown.len(),
                unknown
            );
            Ok(ExitCode::from(1))
        }
        Verdict::Rejected { cube, report } => {
            eprintln!("edgematch: cube {cube}'s board fails the checker on the original instance; this is a bug");
            eprint!("{}", report.summary(20));
            Ok(ExitCode::from(3))
        }
    }
}

/// The best board over a score array's tasks, re-verified.
fn score_array(args: &CollectArgs) -> Result<ExitCode> {
    let collected = array::collect(&args.dir)?;
    let instance = &collected.instance;
    let max = instance.grid.max_score();
    println!("score array: {} ({}, {} task checkpoints)", args.dir.display(), instance.grid, collected.tasks.len());
    println!("task  score  seconds  file");
    for (i, task) in collected.tasks.iter().enumerate() {
        let name = task.path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        match &task.state {
            Ok(state) => {
                let score = state.board.as_ref().map_or_else(|| "-".to_owned(), |b| b.score(instance).to_string());
                println!("{:>4}  {:>5}  {:>7.1}  {name}", i + 1, score, state.seconds)
            }
            Err(why) => println!("{:>4}  {:>5}  {:>7}  {name}: {why}", i + 1, "-", "-"),
        }
    }
    let Some((task, board, report)) = &collected.best else {
        println!("status: no verified board");
        return Ok(ExitCode::from(1));
    };
    println!("best: {}/{max} (task {})", report.score, task + 1);
    print!("checker: {}", report.summary(5));
    if let Some(path) = &args.out {
        write_atomic(path, board_json::to_string(board).as_bytes())?;
        println!("wrote {}", path.display());
    }
    if bucas::can_write(instance) {
        println!("view: {}", bucas::to_link(board, instance, "best"));
    }
    Ok(if report.is_solution() { ExitCode::SUCCESS } else { ExitCode::from(1) })
}

/// The cubes' counts summed: exit 0 with the board's total, 1 while a cube is missing or unfinished.
fn counts(args: &CollectArgs) -> Result<ExitCode> {
    let summed = count_file::sum(&args.dir)?;
    let counted = summed.cubes - summed.missing.len() - summed.unfinished.len();
    println!("cubes counted: {counted} of {}", summed.cubes);
    if !summed.is_total() {
        println!(
            "status: unfinished ({} cubes without a count: {:?}; {} stopped early: {:?}); no total while one is",
            summed.missing.len(),
            summed.missing,
            summed.unfinished.len(),
            summed.unfinished
        );
        return Ok(ExitCode::from(1));
    }
    println!("solutions: {} (exact)", summed.solutions);
    println!("unique: {}", summed.unique);
    println!("nodes: {} (the cubes' counts, their fixed cells included)", summed.nodes);
    println!("seconds: {:.3} (the cubes' counts, added)", summed.seconds);
    Ok(ExitCode::SUCCESS)
}
