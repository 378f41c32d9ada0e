//! `edgematch generate`: a planted instance and its solution.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context as _, Result};
use clap::Args;
use edgematch::formats::{board_json, instance_json};
use edgematch::generate::{self, PlantedSpec};
use edgematch::output::write_atomic;
use edgematch::puzzle::Grid;

use super::args::side;

#[derive(Args)]
pub(crate) struct GenerateArgs {
    /// Board side (sets both width and height).
    #[arg(long, required_unless_present_all = ["width", "height"], value_parser = side)]
    size: Option<usize>,
    /// Board width (overrides --size).
    #[arg(long, value_parser = side)]
    width: Option<usize>,
    /// Board height (overrides --size).
    #[arg(long, value_parser = side)]
    height: Option<usize>,
    /// Colours on joins between two rim cells.
    #[arg(long, default_value_t = 5)]
    frame_colours: u32,
    /// Colours on every other inner join.
    #[arg(long, default_value_t = 17)]
    interior_colours: u32,
    /// Clue cells: the Eternity II analogue positions first, then random interior cells.
    #[arg(long, default_value_t = 5)]
    clues: usize,
    /// Seed of the generator.
    #[arg(long)]
    seed: u64,
    /// The instance file to write; the solution goes beside it as NAME.solution.json.
    #[arg(long)]
    out: PathBuf,
    /// Where to write the planted solution instead.
    #[arg(long)]
    solution_out: Option<PathBuf>,
}

pub(crate) fn run(args: GenerateArgs) -> Result<ExitCode> {
    let width = args.width.or(args.size).context("--size or --width is required")?;
    let height = args.height.or(args.size).context("--size or --height is required")?;
    let spec = PlantedSpec {
        grid: Grid::new(width, height)?,
        frame_colours: args.frame_colours,
        interior_colours: args.interior_colours,
        clues: args.clues,
        seed: args.seed,
    };
    let planted = generate::planted(&spec)?;
    let solution_path = args.solution_out.unwrap_or_else(|| solution_path(&args.out));
    let file = instance_json::InstanceFile {
        instance: planted.instance,
        name: Some(spec.name()),
        colours: Some(planted.colours),
    };
    write_atomic(&args.out, instance_json::to_string(&file).as_bytes())?;
    write_atomic(&solution_path, board_json::to_string(&planted.solution).as_bytes())?;
    println!("wrote {} and {}", args.out.display(), solution_path.display());
    Ok(ExitCode::SUCCESS)
}

/// `dir/NAME.json` → `dir/NAME.solution.json`.
fn solution_path(instance: &Path) -> PathBuf {
    let stem = instance.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    instance.with_file_name(format!("{stem}.solution.json"))
}
