//! `edgematch oracle`: can a freed region of a board, or the interior inside its border, ever be completed?

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Result, bail};
use clap::{Args, Subcommand};
use edgematch::formats::{board_json, load};
use edgematch::interrupt;
use edgematch::oracle::{self, Region};
use edgematch::puzzle::{Board, Grid};
use edgematch::solver::{Limits, SolverKind, Status};

use super::args::{InstanceSourceArgs, cores, seconds, write_out};
use super::show::{describe, unless_interrupted};

#[derive(Subcommand)]
pub(crate) enum OracleCommand {
    /// Free a region of a board, pin the rest, and decide whether the region can be
    /// completed with every join matched (using only the pieces the region held).
    Region(RegionArgs),
    /// Pin a board's border (and the clues), free every interior cell, and decide
    /// whether any fully matched interior exists.
    Border(CommonArgs),
}

/// What every oracle takes.
#[derive(Args)]
pub(crate) struct CommonArgs {
    /// The instance: instance JSON, or a piece list (see --columns).
    instance: PathBuf,
    /// The board (any format `verify` reads).
    board: PathBuf,
    #[command(flatten)]
    source: InstanceSourceArgs,
    /// Which complete solver decides: cpsat, sat, or both raced (auto).
    #[arg(long, value_enum, default_value_t = SolverKind::Auto)]
    solver: SolverKind,
    /// Wall-clock seconds before the answer is `unknown`.
    #[arg(long, value_parser = seconds, default_value = "60")]
    time_limit: f64,
    /// Write a completion, if one is found, here (board JSON).
    #[arg(short, long)]
    out: Option<PathBuf>,
    /// Print the answer as JSON.
    #[arg(long)]
    json: bool,
}

#[derive(Args)]
pub(crate) struct RegionArgs {
    #[command(flatten)]
    common: CommonArgs,
    /// Free these cells, as ROW,COL (from 0), e.g. `--free 3,4 3,5 4,4`.
    #[arg(long, num_args = 1.., value_parser = row_col, group = "region")]
    free: Vec<(usize, usize)>,
    /// Free the square of cells within --radius of this ROW,COL.
    #[arg(long, value_parser = row_col, requires = "radius", group = "region")]
    around: Option<(usize, usize)>,
    /// The radius of --around (Chebyshev distance: 1 frees a 3×3 square).
    #[arg(long, requires = "around")]
    radius: Option<usize>,
    /// Free every cell within R of either cell of a mismatched join (0: just those cells).
    #[arg(long, value_name = "R", group = "region")]
    mismatches: Option<usize>,
}

/// `ROW,COL`.
fn row_col(s: &str) -> Result<(usize, usize), String> {
    let (r, c) = s.split_once(',').ok_or_else(|| format!("{s}: expected ROW,COL"))?;
    let parse = |x: &str| x.trim().parse::<usize>().map_err(|e| format!("{s}: {e}"));
    Ok((parse(r)?, parse(c)?))
}

/// The row-major cell at `(row, col)`, or an error naming the flag.
fn cell(grid: Grid, (row, col): (usize, usize), flag: &str) -> Result<usize> {
    if row >= grid.height || col >= grid.width {
        bail!("{flag} {row},{col}: outside the {grid} board");
    }
    Ok(grid.cell(row, col))
}

pub(crate) fn run(command: OracleCommand) -> Result<ExitCode> {
    match command {
        OracleCommand::Region(RegionArgs { common, free, around, radius, mismatches }) => {
            answer(&common, "region", |grid, instance, board| {
                let region = if !free.is_empty() {
                    Region::Cells(free.iter().map(|&rc| cell(grid, rc, "--free")).collect::<Result<_>>()?)
                } else if let (Some(at), Some(radius)) = (around, radius) {
                    Region::Around { cell: cell(grid, at, "--around")?, radius }
                } else if let Some(radius) = mismatches {
                    Region::Mismatches { radius }
                } else {
                    bail!("say which cells to free: --free, --around with --radius, or --mismatches");
                };
                Ok(oracle::free_cells(instance, board, &region)?)
            })
        }
        OracleCommand::Border(args) => {
            answer(&args, "border", |grid, _, _| Ok((0..grid.cells()).filter(|&c| !grid.is_rim_cell(c)).collect()))
        }
    }
}

/// Loads the instance and board, frees what `free` says, asks, and reports.
fn answer(
    args: &CommonArgs,
    what: &str,
    free: impl FnOnce(Grid, &edgematch::puzzle::Instance, &Board) -> Result<BTreeSet<usize>>,
) -> Result<ExitCode> {
    let loaded = args.source.load(&args.instance)?;
    let instance = &loaded.instance;
    let board = load::board(&args.board, instance)?.board;
    let free = free(instance.grid, instance, &board)?;
    let query = oracle::query(instance, &board, free)?;
    let solver = oracle::solver_for(args.solver, cores())?;
    let limits = Limits { time_limit: Some(args.time_limit), threads: cores(), ..Limits::default() };
    if !args.json {
        println!("{}", describe(&args.instance, &loaded));
        println!("board: {}", args.board.display());
        println!(
            "query: {what}: {} free cells ({} pieces to place), {} pinned",
            query.free.len(),
            query.instance.pieces.len() - query.instance.clues.len(),
            query.instance.clues.len()
        );
    }
    let stop = interrupt::install().map_err(anyhow::Error::msg)?;
    let answer = oracle::ask(&query, &solver, &limits, &stop)?;
    if args.json {
        println!("{}", serde_json::to_string_pretty(&answer)?);
    } else {
        let verdict = match answer.status {
            Status::Infeasible if answer.pinned_mismatches > 0 => format!(
                "infeasible: the pinned cells already disagree on {} joins or rim sides",
                answer.pinned_mismatches
            ),
            Status::Infeasible => "infeasible: no completion of the freed cells matches every join".to_owned(),
            Status::Solved => "completed: a fully matched board (verified)".to_owned(),
            other => format!("{other}: no answer within {} s", args.time_limit),
        };
        println!("verdict: {verdict}");
        println!("solver: {}", answer.solver);
        println!("wall time: {:.3} s", answer.seconds);
    }
    if let (Some(path), Some(board)) = (&args.out, &answer.board) {
        write_out(path, &board_json::to_string(board))?;
    }
    let code = match answer.status {
        Status::Infeasible | Status::Solved => ExitCode::SUCCESS,
        _ => ExitCode::from(1),
    };
    Ok(unless_interrupted(code))
}
