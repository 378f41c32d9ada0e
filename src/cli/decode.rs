//! `edgematch decode dimacs`: a SAT solver's answer to an exported CNF, turned back into a board for the checker.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context as _, Result, bail};
use clap::{Args, Subcommand};
use edgematch::check::check;
use edgematch::formats::board_json;
use edgematch::puzzle::Board;
use edgematch::puzzle::placements;
use edgematch::sat::dimacs::{Answer, read_answer};

use super::args::write_out;
use super::encode::PinnedInstanceArgs;

#[derive(Subcommand)]
pub(crate) enum DecodeCommand {
    /// Read a SAT solver's output (`s`/`v` lines, or MiniSat's result file) for a CNF
    /// written by `encode dimacs` (either encoding), and check the board it describes.
    Dimacs(DimacsArgs),
}

#[derive(Args)]
pub(crate) struct DimacsArgs {
    /// The instance the CNF was exported from (give the same --pin, --clues and --columns).
    #[command(flatten)]
    input: PinnedInstanceArgs,
    /// The solver's output.
    model: PathBuf,
    /// Write the decoded board (board JSON) here.
    #[arg(short, long)]
    out: Option<PathBuf>,
}

pub(crate) fn run(command: DecodeCommand) -> Result<ExitCode> {
    let DecodeCommand::Dimacs(args) = command;
    let (instance, _) = args.input.load("decode")?;
    let text = std::fs::read_to_string(&args.model).with_context(|| format!("{}", args.model.display()))?;
    let answer = read_answer(&text, i32::MAX as u32).map_err(|e| anyhow::anyhow!("{}: {e}", args.model.display()))?;
    let true_vars = match answer {
        Answer::Satisfiable(vars) => vars,
        Answer::Unsatisfiable => {
            println!("answer: unsatisfiable (no board: the instance has no solution, if the solver is right)");
            return Ok(ExitCode::from(1));
        }
        Answer::Unknown => {
            println!("answer: unknown (the solver gave up)");
            return Ok(ExitCode::from(1));
        }
    };
    let (placements, _) = placements::table(&instance);
    let mut board = Board::empty(instance.grid);
    let mut by_cell = vec![0u32; instance.grid.cells()];
    for &v in true_vars.iter().take_while(|&&v| v as usize <= placements.len()) {
        let (cell, placement) = placements[v as usize - 1];
        if by_cell[cell] != 0 {
            let (row, col) = instance.grid.row_col(cell);
            bail!(
                "{}: variables {} and {v} both place a piece at cell ({row}, {col}): not a model of this instance's CNF",
                args.model.display(),
                by_cell[cell]
            );
        }
        by_cell[cell] = v;
        board.cells[cell] = Some(placement);
    }
    println!("answer: satisfiable; the model places {} of {} cells", board.placed(), instance.grid.cells());
    let report = check(&instance, &board);
    print!("checker: {}", report.summary(20));
    if let Some(path) = &args.out {
        write_out(path, &board_json::to_string(&board))?;
    }
    Ok(if report.is_solution() {
        ExitCode::SUCCESS
    } else {
        eprintln!("edgematch: the solver's model describes a board the checker rejects");
        ExitCode::from(3)
    })
}
