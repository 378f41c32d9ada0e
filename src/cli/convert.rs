//! `edgematch convert`: an instance or a board, written in another format.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context as _, Result, bail};
use clap::{Args, ValueEnum};
use edgematch::formats::{board_json, board_text, brendan, bucas, instance_json, load, piece_list};
use edgematch::output::write_atomic;

use super::args::InstanceSourceArgs;

#[derive(Args)]
pub(crate) struct ConvertArgs {
    /// The instance to convert, or with --instance the board to convert.
    input: PathBuf,
    /// The instance the board belongs to (makes INPUT a board).
    #[arg(long)]
    instance: Option<PathBuf>,
    /// Output format: an instance converts to `json` or `pieces`; a board to
    /// `json`, `bucas`, `text` (decoded lines) or `brendan`.
    #[arg(long, value_enum)]
    to: Format,
    /// Output file (default: standard output).
    #[arg(short, long)]
    out: Option<PathBuf>,
    #[command(flatten)]
    source: InstanceSourceArgs,
}

/// The formats edgematch writes.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Format {
    /// Instance JSON or board JSON.
    Json,
    /// A piece list (instances).
    Pieces,
    /// An e2.bucas.name link (boards).
    Bucas,
    /// Decoded board lines, `A1 y x piece rot N E S W` (boards).
    Text,
    /// Brendan Owen's solution format (full boards).
    Brendan,
}

pub(crate) fn run(args: ConvertArgs) -> Result<ExitCode> {
    let text = match &args.instance {
        None => {
            let loaded = args.source.load(&args.input)?;
            match args.to {
                Format::Json => instance_json::to_string(&instance_json::InstanceFile {
                    instance: loaded.instance,
                    name: Some(loaded.name),
                    colours: None,
                }),
                Format::Pieces => piece_list::to_string(&loaded.instance),
                _ => bail!("--to: an instance converts to json or pieces (give --instance to convert a board)"),
            }
        }
        Some(instance_path) => {
            let loaded = args.source.load(instance_path)?;
            let read = load::board(&args.input, &loaded.instance)?;
            let board = &read.board;
            if let (Format::Bucas | Format::Text, Some((cell, piece))) =
                (args.to, board.unknown_piece(&loaded.instance))
            {
                let (row, col) = board.grid.row_col(cell);
                bail!(
                    "{}: cell ({row}, {col}) names piece {}, which the instance does not have \
                     (`verify` reports such a board)",
                    args.input.display(),
                    piece + 1
                );
            }
            match args.to {
                Format::Json => board_json::to_string(board),
                Format::Bucas => {
                    if !bucas::can_write(&loaded.instance) {
                        bail!("--to bucas: the instance uses colours above 22, which bucas links cannot show");
                    }
                    let name = read.name.unwrap_or_else(|| {
                        args.input.file_stem().map_or_else(|| "board".into(), |s| s.to_string_lossy().into_owned())
                    });
                    bucas::to_link(board, &loaded.instance, &name) + "\n"
                }
                Format::Text => board_text::to_string(board, &loaded.instance),
                Format::Brendan => brendan::to_string(board)
                    .context("--to brendan: the format needs a full board with every piece placed once")?,
                Format::Pieces => bail!("--to pieces: a board converts to json, bucas, text or brendan"),
            }
        }
    };
    match &args.out {
        Some(path) => write_atomic(path, text.as_bytes())?,
        None => print!("{text}"),
    }
    Ok(ExitCode::SUCCESS)
}
