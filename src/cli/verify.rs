//! `edgematch verify`: the checker's verdict on a board, with its clues and the flux law.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use clap::Args;
use edgematch::formats::load;
use edgematch::verdict::Verdict;

use super::args::InstanceSourceArgs;
use super::show::describe;

#[derive(Args)]
pub(crate) struct VerifyArgs {
    /// The instance: instance JSON, or a piece list (see --columns).
    instance: PathBuf,
    /// The board: board JSON, a bucas link (a `.url` file, a text file, or the
    /// link itself in quotes), a decoded board (`A1 y x piece rot N E S W`
    /// lines) or a Brendan solution (`x y rot` lines).
    board: PathBuf,
    #[command(flatten)]
    source: InstanceSourceArgs,
    /// Print the report as JSON.
    #[arg(long)]
    json: bool,
}

pub(crate) fn run(args: VerifyArgs) -> Result<ExitCode> {
    let loaded = args.source.load(&args.instance)?;
    let board = load::board(&args.board, &loaded.instance)?.board;
    let report = Verdict::new(
        &loaded.instance,
        &loaded.clue_names,
        &board,
        args.instance.display().to_string(),
        args.board.display().to_string(),
    );
    if args.json {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        println!("{}", describe(&args.instance, &loaded));
        print!("{}", report.text());
    }
    Ok(if report.solution { ExitCode::SUCCESS } else { ExitCode::from(1) })
}
