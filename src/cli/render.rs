//! `edgematch render`: a board as an SVG picture.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use clap::Args;
use edgematch::formats::load;
use edgematch::render;

use super::args::{InstanceSourceArgs, write_out};

#[derive(Args)]
pub(crate) struct RenderArgs {
    /// The instance (any supported format).
    instance: PathBuf,
    /// The board (any supported format; a bucas link may be given as it is, in quotes).
    board: PathBuf,
    /// The SVG file to write.
    #[arg(short, long)]
    out: PathBuf,
    /// Write piece numbers in the cells.
    #[arg(long)]
    numbers: bool,
    #[command(flatten)]
    source: InstanceSourceArgs,
}

pub(crate) fn run(args: RenderArgs) -> Result<ExitCode> {
    let loaded = args.source.load(&args.instance)?;
    let board = load::board(&args.board, &loaded.instance)?;
    let title = board
        .name
        .unwrap_or_else(|| args.board.file_stem().map_or_else(String::new, |s| s.to_string_lossy().into_owned()));
    let picture = render::svg(&loaded.instance, &board.board, &title, render::Style { numbers: args.numbers });
    write_out(&args.out, &picture)?;
    Ok(ExitCode::SUCCESS)
}
