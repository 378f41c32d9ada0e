//! `edgematch improve`: CP-SAT's exact repair of regions of any board (a partial one finished first), each better board checked and written.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use clap::Args;
use edgematch::best_file::{BestFiles, Offered};
use edgematch::formats::{bucas, load};
use edgematch::improve::improve;
use edgematch::interrupt;
use edgematch::solver::Limits;

use super::args::{InstanceSourceArgs, SEED_RANGE, cores, seconds};
use super::show::{describe, unless_interrupted};

#[derive(Args)]
pub(crate) struct ImproveArgs {
    /// The instance: instance JSON, or a piece list (see --columns).
    instance: PathBuf,
    /// A board (any format `verify` reads: board JSON, a bucas link, ...); a
    /// partial one (empty cells) is first finished by CP-SAT, its placed cells kept.
    board: PathBuf,
    #[command(flatten)]
    source: InstanceSourceArgs,
    /// Wall-clock limit in seconds (default: until Ctrl-C, a full solution or the target).
    #[arg(long, value_parser = seconds)]
    time_limit: Option<f64>,
    /// Stop once the board scores at least this many matched joins.
    #[arg(long, value_name = "SCORE")]
    target: Option<usize>,
    /// Write each better board here, whole (board JSON).
    #[arg(long)]
    out: Option<PathBuf>,
    /// CP-SAT workers per region (default: the number of cores).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=10_000))]
    workers: Option<u32>,
    /// Random seed (the regions drawn, CP-SAT's `random_seed`).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(SEED_RANGE))]
    seed: u64,
}

pub(crate) fn run(args: ImproveArgs) -> Result<ExitCode> {
    let loaded = args.source.load(&args.instance)?;
    let instance = &loaded.instance;
    let board = load::board(&args.board, instance)?.board;
    let max = instance.grid.max_score();
    if let Some(target) = args.target.filter(|&t| t > max) {
        anyhow::bail!("--target {target} is above the {max} inner joins of a {} board", instance.grid);
    }
    println!("{}", describe(&args.instance, &loaded));
    println!("board: {} scores {}/{max}", args.board.display(), board.score(instance));
    let stop = interrupt::install().map_err(anyhow::Error::msg)?;
    let limits = Limits {
        time_limit: args.time_limit,
        threads: args.workers.unwrap_or_else(cores),
        seed: args.seed,
        node_limit: None,
    };
    // --out has one owner that never writes a worse board than the file holds (a better
    // board from another run stays), checking each board as it comes.
    let files = BestFiles::open(instance, args.out.as_deref(), None, 0.0);
    let mut write_error = None;
    let mut on_better = |board: &edgematch::puzzle::Board, score: usize, seconds: f64| {
        match files.offer(board) {
            Ok(Offered::Better { unwritten: Some(e), .. }) | Err(e) => write_error = write_error.take().or(Some(e)),
            Ok(_) => {}
        }
        println!("best: {score}/{max} after {seconds:.3} s");
    };
    let (best, stats) = improve(instance, &board, &limits, args.target, &stop, &mut on_better)?;
    if let Some(e) = write_error {
        return Err(e.into());
    }
    if let (Some(path), Some(kept)) = (&args.out, files.floor().filter(|&kept| kept > stats.to)) {
        println!("{} holds a better board ({kept}/{max}), kept", path.display());
    }
    println!(
        "rounds: {} ({} better, {} proved optimal for their region)",
        stats.rounds, stats.improvements, stats.proved
    );
    println!("score: {} -> {}/{max} (verified)", stats.from, stats.to);
    if bucas::can_write(instance) {
        println!("view: {}", bucas::to_link(&best, instance, &loaded.name));
    }
    Ok(unless_interrupted(if stats.to == max { ExitCode::SUCCESS } else { ExitCode::from(1) }))
}
