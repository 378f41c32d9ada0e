//! The command line: one file per subcommand, each parsing its arguments and calling the library.

mod args;
mod bench;
mod collect;
mod convert;
mod count;
mod cubes;
mod decode;
mod encode;
mod flux;
mod generate;
mod improve;
mod oracle;
mod render;
mod score;
mod show;
mod solve;
mod split;
mod verify;
mod watch;

use std::process::ExitCode;

use anyhow::Result;
use clap::{Parser, Subcommand};

/// Edge-matching puzzles (Eternity II and its kind): generate, solve with CP-SAT, verify.
#[derive(Parser)]
#[command(version = concat!(env!("CARGO_PKG_VERSION"), " (OR-Tools ", env!("EDGEMATCH_ORTOOLS_VERSION"), ")"), about)]
pub(crate) struct Cli {
    #[command(subcommand)]
    pub(crate) command: Command,
}

#[derive(Subcommand)]
pub(crate) enum Command {
    /// Generate a planted instance (and its solution beside it).
    Generate(generate::GenerateArgs),
    /// Solve an instance and verify the board.
    #[command(after_long_help = solve::flags_help())]
    Solve(Box<solve::SolveArgs>),
    /// Check a board against an instance.
    Verify(verify::VerifyArgs),
    /// Count every solution of an instance exactly (each checked), with the nodes visited.
    Count(count::CountArgs),
    /// Repair regions of a full board exactly with CP-SAT, keeping each better board.
    Improve(improve::ImproveArgs),
    /// Convert an instance, or a board (with --instance), to another format.
    Convert(convert::ConvertArgs),
    /// Draw a board as SVG: side colours, mismatched joins in red, clues outlined.
    Render(render::RenderArgs),
    /// The flux law of a piece set: facts, exact ranks, fourth member, certificate sweep.
    Flux(flux::FluxArgs),
    /// Encoding sizes, and the instance as DIMACS, XCC (dlx2) or LP for other solvers.
    #[command(subcommand)]
    Encode(encode::EncodeCommand),
    /// Turn another solver's answer to an exported encoding back into a checked board.
    #[command(subcommand)]
    Decode(decode::DecodeCommand),
    /// Decide whether a freed region, or the interior inside a border, can be completed.
    #[command(subcommand)]
    Oracle(oracle::OracleCommand),
    /// Cut one instance into cube files that together hold every solution (cube and conquer).
    Split(split::SplitArgs),
    /// The verdict of a cube folder: the first verified board, or infeasible once every cube is refuted.
    Collect(collect::CollectArgs),
    /// Run a benchmark and write its record under results/.
    #[command(subcommand)]
    Bench(bench::BenchCommand),
}

/// Runs the parsed command; the exit code is the command's verdict.
pub(crate) fn run(cli: Cli) -> Result<ExitCode> {
    match cli.command {
        Command::Generate(args) => generate::run(args),
        Command::Solve(args) => solve::run(*args),
        Command::Verify(args) => verify::run(args),
        Command::Count(args) => count::run(args),
        Command::Improve(args) => improve::run(args),
        Command::Convert(args) => convert::run(args),
        Command::Render(args) => render::run(args),
        Command::Flux(args) => flux::run(args),
        Command::Encode(command) => encode::run(command),
        Command::Decode(command) => decode::run(command),
        Command::Oracle(command) => oracle::run(command),
        Command::Bench(command) => bench::run(command),
        Command::Split(args) => split::run(args),
        Command::Collect(args) => collect::run(args),
    }
}
