//! `edgematch count`: every solution of a board, each checked, raw and up to the board's symmetries, with the nodes visited.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Result;
use clap::Args;
use edgematch::count::{self, Count, Ended};
use edgematch::cubes::Cube;
use edgematch::cubes::count_file::{self, CubeCount};
use edgematch::cubes::file as cube_file;
use edgematch::{Error, interrupt};

use super::args::{InstanceSourceArgs, cores, seconds};
use super::show::describe;

#[derive(Args)]
pub(crate) struct CountArgs {
    /// The instance: instance JSON, a piece list (see --columns), or a cube
    /// file written by `split` (its count then goes beside it as
    /// cube-NNNN.count.json, and `collect DIR --counts` sums a folder's).
    instance: PathBuf,
    #[command(flatten)]
    source: InstanceSourceArgs,
    /// Threads counting the tree's subtrees (default: every core).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=4096))]
    threads: Option<u32>,
    /// The progress file: read at the start when it exists (its subtrees are
    /// not counted again), written every 10 s and at the end, so a count
    /// stopped by Ctrl-C, --time-limit or a reboot goes on from it.
    #[arg(long)]
    resume: Option<PathBuf>,
    /// Stop after this many solutions (the counts are then lower bounds).
    #[arg(long)]
    limit: Option<u64>,
    /// Stop after this many seconds, keeping what was counted (lower bounds).
    #[arg(long, value_parser = seconds)]
    time_limit: Option<f64>,
    /// Write each solution to this folder as board JSON (solution-D.json, D a
    /// digest of the board, so a resumed count writes no second copy).
    #[arg(long)]
    save: Option<PathBuf>,
    /// Count nothing: print Knuth's estimate of the tree's nodes from this
    /// many random paths down it (seeded, so the same every run), to judge
    /// how long a count would take at the rate a short count shows.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
    estimate: Option<u32>,
    /// Print the count as one JSON record (solutions, unique, symmetries,
    /// nodes, seconds, tree, engine, subtrees, subtrees_done, ended).
    #[arg(long)]
    json: bool,
    /// Count the field's plain row scan tree (from the top-left corner along
    /// the width, every piece and distinct turn): its node count is the
    /// figure the field publishes. Without it the count walks the variant
    /// of that scan with the fewest nodes by Knuth's estimate (the board
    /// turned a quarter; on a square without clues, one corner piece fixed):
    /// the same solutions, fewer nodes.
    #[arg(long)]
    plain: bool,
    /// Read each cell's candidates from lists, one by one, where the bit
    /// sets apply (boards of at most 128 pieces): the same tree, nodes and
    /// counts, more slowly; a reference.
    #[arg(long)]
    lists: bool,
}

/// Exit codes: 0 when the count is exact or stopped at `--limit`, 1 when the
/// time limit cut it, 3 when the checker rejected a board (a bug), 130 on Ctrl-C.
pub(crate) fn run(args: CountArgs) -> Result<ExitCode> {
    let stop = interrupt::install().map_err(anyhow::Error::msg)?;
    let cube = if cube_file::is_cube(&args.instance) { Some(cube_file::read_cube(&args.instance)?) } else { None };
    if let Some(cube) = &cube
        && already_counted(&args.instance, cube)?
    {
        return Ok(ExitCode::SUCCESS);
    }
    let loaded = match &cube {
        Some(cube) => super::cubes::loaded(cube),
        None => args.source.load(&args.instance)?,
    };
    if let Some(probes) = args.estimate {
        let (nodes, tree) = count::estimate(&loaded.instance, probes, 1, args.plain)?;
        println!("estimate: {nodes:.4e} nodes ({probes} random paths down the tree: {tree})");
        return Ok(ExitCode::SUCCESS);
    }
    let part = match &cube {
        Some(cube) => count::Part { whole: &cube.instance.instance, one_per_class: cube.one_per_class },
        None => count::Part::whole(&loaded.instance),
    };
    let counted = match count::count_in(&loaded.instance, part, &options(&args), &stop) {
        Ok(counted) => counted,
        Err(Error::Rejected(why)) => {
            eprintln!("edgematch: {why}; this is a bug");
            return Ok(ExitCode::from(3));
        }
        Err(e) => return Err(e.into()),
    };
    if let Some(cube) = &cube {
        record(&args.instance, cube, &counted)?;
    }
    if args.json {
        println!("{}", serde_json::to_string(&counted)?);
    } else {
        println!("{}", describe(&args.instance, &loaded));
        print!("{}", text(&counted));
    }
    Ok(match counted.ended {
        Ended::Complete | Ended::Limit => ExitCode::SUCCESS,
        Ended::TimeLimit => ExitCode::from(1),
        Ended::Interrupted => ExitCode::from(130),
    })
}

/// The library's options from the flags.
fn options(args: &CountArgs) -> count::Options {
    count::Options {
        threads: args.threads.unwrap_or_else(cores) as usize,
        limit: args.limit,
        time_limit: args.time_limit,
        save: args.save.clone(),
        resume: args.resume.clone(),
        progress: true,
        plain: args.plain,
        lists: args.lists,
    }
}

/// True (and says so) when the cube at `path` already has a complete count beside it.
fn already_counted(path: &Path, cube: &Cube) -> Result<bool> {
    let done = count_file::count_path(path);
    if !done.is_file() {
        return Ok(false);
    }
    let earlier = count_file::read(&done, &cube.instance.instance)?;
    let complete = earlier.is_for(cube) && earlier.ended == Ended::Complete;
    if complete {
        println!(
            "cube {} of {}: already counted ({} solutions, {}); delete it to count again",
            cube.index,
            cube.count,
            earlier.solutions,
            done.display()
        );
    }
    Ok(complete)
}

/// Writes the cube's count file beside it.
fn record(path: &Path, cube: &Cube, counted: &Count) -> Result<()> {
    let count = CubeCount {
        cube: cube.index,
        cubes: cube.count,
        instance_sha256: cube.instance_sha256.clone(),
        fixed: cube.fixed.clone(),
        solutions: counted.solutions,
        unique: counted.unique,
        nodes: counted.nodes,
        seconds: counted.seconds,
        ended: counted.ended,
        host: edgematch::cubes::result::host_name(),
    };
    let done = count_file::count_path(path);
    count_file::write(&done, &cube.instance.instance, &count)?;
    eprintln!("wrote {}", done.display());
    Ok(())
}

/// The count as lines a person reads.
fn text(c: &Count) -> String {
    let exact = if c.ended == Ended::Complete { "exact" } else { "at least: the count stopped early" };
    let rate = c.nodes as f64 / c.seconds.max(1e-9) / 1e6;
    format!(
        "tree: {}\n\
         engine: {}\n\
         solutions: {} ({exact})\n\
         unique: {} (up to the board's {} symmetr{})\n\
         nodes: {} ({rate:.1} M/s; estimated before the count: {:.3e})\n\
         seconds: {:.3}\n\
         subtrees: {} of {} counted whole\n\
         ended: {}\n",
        c.tree,
        c.engine,
        c.solutions,
        c.unique,
        c.symmetries,
        if c.symmetries == 1 { "y" } else { "ies" },
        c.nodes,
        c.estimated_nodes,
        c.seconds,
        c.subtrees_done,
        c.subtrees,
        c.ended
    )
}
