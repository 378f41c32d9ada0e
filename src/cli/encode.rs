//! `edgematch encode`: encoding sizes (table, JSON, chart, HTML explorer) and exports to DIMACS, XCC and LP.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Result, bail};
use clap::{Args, Subcommand, ValueEnum};
use edgematch::encodings::sizes::{self, Estimate};
use edgematch::encodings::{chart, explorer, lp, xcc};
use edgematch::formats::load;
use edgematch::output::write_atomic_with;
use edgematch::pin::pin;
use edgematch::puzzle::Instance;
use edgematch::sat::{self, Am1, EncodeOptions, dimacs};
use serde::Serialize;

use super::args::{InstanceSourceArgs, write_out};

#[derive(Subcommand)]
pub(crate) enum EncodeCommand {
    /// Sizes of the direct and the seam encodings: formulas for n×n boards, exact counts for an instance.
    Sizes(SizesArgs),
    /// The instance as CNF (DIMACS), with a comment block naming every variable.
    Dimacs(DimacsArgs),
    /// The instance as exact cover with colours, the input format of Knuth's dlx2.
    Xcc(ExportArgs),
    /// The instance as a feasibility ILP in CPLEX LP format.
    Lp(ExportArgs),
}

#[derive(Args)]
pub(crate) struct SizesArgs {
    /// An instance to count exactly (its side and interior colours also set the formula row).
    instance: Option<PathBuf>,
    #[command(flatten)]
    source: InstanceSourceArgs,
    /// Board sides for the formulas: `16`, `4-16` or `8,12,16`.
    #[arg(long, value_parser = super::args::numbers, default_value = "4-16")]
    size: super::args::Numbers,
    /// Colours c for the formulas (the interior colours).
    #[arg(long, default_value_t = 17, value_parser = clap::value_parser!(u64).range(1..=255))]
    colours: u64,
    /// Print JSON instead of the table.
    #[arg(long)]
    json: bool,
    /// Also write the formula chart (log scale) as SVG here.
    #[arg(long)]
    svg: Option<PathBuf>,
    /// Also write the self-contained HTML explorer here.
    #[arg(long)]
    html: Option<PathBuf>,
}

/// An instance, optionally with a board's placed cells pinned as clues.
#[derive(Args)]
pub(crate) struct PinnedInstanceArgs {
    /// The instance: instance JSON, or a piece list (see --columns).
    instance: PathBuf,
    #[command(flatten)]
    source: InstanceSourceArgs,
    /// A board (any format `verify` reads) whose placed cells are pinned as clues.
    #[arg(long)]
    pin: Option<PathBuf>,
}

/// Options every export takes.
#[derive(Args)]
pub(crate) struct ExportArgs {
    #[command(flatten)]
    input: PinnedInstanceArgs,
    /// Where to write the file.
    #[arg(short, long)]
    out: PathBuf,
}

#[derive(Args)]
pub(crate) struct DimacsArgs {
    #[command(flatten)]
    export: ExportArgs,
    /// Which CNF: Heule's seam encoding, or the direct one (binary conflict clauses; huge).
    #[arg(long, value_enum, default_value = "seam")]
    encoding: CnfKind,
    /// At-most-one encoding for cells and pieces.
    #[arg(long, value_enum, default_value = "ladder")]
    am1: Am1Arg,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum CnfKind {
    /// Placement and seam-colour variables (what `solve --solver sat` solves).
    Seam,
    /// Placement variables only, a clause per disagreeing pair across a join.
    Direct,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum Am1Arg {
    Pairwise,
    Ladder,
    Bitwise,
    Commander,
}

impl From<Am1Arg> for Am1 {
    fn from(a: Am1Arg) -> Am1 {
        match a {
            Am1Arg::Pairwise => Am1::Pairwise,
            Am1Arg::Ladder => Am1::Ladder,
            Am1Arg::Bitwise => Am1::Bitwise,
            Am1Arg::Commander => Am1::Commander,
        }
    }
}

pub(crate) fn run(command: EncodeCommand) -> Result<ExitCode> {
    match command {
        EncodeCommand::Sizes(args) => run_sizes(args),
        EncodeCommand::Dimacs(args) => run_dimacs(args),
        EncodeCommand::Xcc(args) => {
            let (instance, title) = args.input.load("exact cover with colours (dlx2 input)")?;
            let problem = xcc::xcc(&instance);
            write_streamed(&args.out, |out| problem.write(out, &title))?;
            eprintln!(
                "{} primary items, {} secondary items, {} options",
                problem.primary.len(),
                problem.secondary.len(),
                problem.options.len()
            );
            Ok(ExitCode::SUCCESS)
        }
        EncodeCommand::Lp(args) => {
            let (instance, title) = args.input.load("feasibility ILP (CPLEX LP format)")?;
            write_streamed(&args.out, |out| lp::write_lp(out, &instance, &title))?;
            Ok(ExitCode::SUCCESS)
        }
    }
}

impl PinnedInstanceArgs {
    /// The instance to export (with the pinned board's cells as clues) and the file's title lines.
    pub(crate) fn load(&self, what: &str) -> Result<(Instance, Vec<String>)> {
        let loaded = self.source.load(&self.instance)?;
        let mut instance = loaded.instance;
        let mut title = vec![
            format!("edgematch {}: {what}", env!("CARGO_PKG_VERSION")),
            format!(
                "instance {} ({}, {} pieces, {} clues)",
                self.instance.display(),
                instance.grid,
                instance.pieces.len(),
                instance.clues.len()
            ),
        ];
        if let Some(path) = &self.pin {
            let board = load::board(path, &instance)?.board;
            instance = pin(&instance, &board, |_| true)?;
            title.push(format!("pinned: the {} placed cells of {}", board.placed(), path.display()));
        }
        title.push(
            "cells are numbered row-major from 0; pieces from 1; rotations are quarter turns clockwise".to_owned(),
        );
        Ok((instance, title))
    }
}

/// Streams a large file through a temporary name, then says so.
fn write_streamed(
    path: &Path,
    write: impl FnOnce(&mut std::io::BufWriter<std::fs::File>) -> std::io::Result<()>,
) -> Result<()> {
    write_atomic_with(path, write)?;
    eprintln!("wrote {}", path.display());
    Ok(())
}

fn run_dimacs(args: DimacsArgs) -> Result<ExitCode> {
    let am1 = Am1::from(args.am1);
    match args.encoding {
        CnfKind::Seam => {
            let (instance, title) = args.export.input.load(&format!("seam encoding, {} at-most-one", am1.name()))?;
            let encoding = sat::encode(&instance, &EncodeOptions { am1, support: true });
            write_streamed(&args.export.out, |out| dimacs::write_seam(out, &encoding, &title))?;
            let s = encoding.sizes();
            eprintln!("{} variables, {} clauses", s.variables, s.clauses);
        }
        CnfKind::Direct => {
            let (instance, title) = args.export.input.load(&format!("direct encoding, {} at-most-one", am1.name()))?;
            let direct = sat::direct::encode_direct(&instance, am1);
            write_streamed(&args.export.out, |out| {
                for line in &title {
                    writeln!(out, "c {line}")?;
                }
                dimacs::write_placement_comments(out, direct.grid, &direct.placements)?;
                dimacs::write_aux(out, direct.placements.len() as u32 + 1, direct.variables())?;
                direct.write_clauses(out)
            })?;
            eprintln!("{} variables, {} clauses", direct.variables(), direct.clause_count());
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// The JSON document of `encode sizes`.
#[derive(Serialize)]
struct SizesDocument {
    format: &'static str,
    colours: u64,
    formulas: Vec<Estimate>,
    #[serde(skip_serializing_if = "Option::is_none")]
    instance: Option<ExactDocument>,
}

#[derive(Serialize)]
struct ExactDocument {
    path: String,
    estimate: Estimate,
    exact: sizes::Exact,
}

fn run_sizes(args: SizesArgs) -> Result<ExitCode> {
    let mut sides = args.size.0.clone();
    sides.sort_unstable();
    sides.dedup();
    if let Some(&bad) = sides.iter().find(|&&n| !(1..=64).contains(&n)) {
        bail!("--size {bad}: board sides are 1..=64");
    }
    let formulas: Vec<Estimate> = sides.iter().map(|&n| Estimate::new(n, args.colours)).collect();
    let instance = match &args.instance {
        Some(path) => {
            let loaded = args.source.load(path)?;
            let exact = sizes::exact(&loaded.instance);
            let n = exact.width.max(exact.height) as u64;
            let estimate = Estimate::new(n, exact.interior_colours.max(1) as u64);
            Some(ExactDocument { path: path.display().to_string(), estimate, exact })
        }
        None => None,
    };
    if args.json {
        let document = SizesDocument {
            format: "edgematch-encoding-sizes/1",
            colours: args.colours,
            formulas: formulas.clone(),
            instance,
        };
        println!("{}", serde_json::to_string_pretty(&document)?);
    } else {
        println!("Formulas for n×n boards with c = {} colours:\n", args.colours);
        print!("{}", sizes::table(&formulas));
        if let Some(doc) = &instance {
            println!("\n{}: the formulas at its side and interior colours:\n", doc.path);
            print!("{}", sizes::table(std::slice::from_ref(&doc.estimate)));
            println!("\n{}: exact counts\n", doc.path);
            print!("{}", sizes::exact_table(&doc.exact));
        }
    }
    if let Some(path) = &args.svg {
        write_out(path, &chart::svg(&formulas))?;
    }
    if let Some(path) = &args.html {
        write_out(path, &explorer::html(args.colours))?;
    }
    Ok(ExitCode::SUCCESS)
}
