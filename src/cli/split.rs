//! `edgematch split`: one instance cut into cube files whose solutions cover it exactly.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use clap::Args;
use edgematch::cubes::{self, CubeSet, file};
use edgematch::formats::instance_json::InstanceFile;
use edgematch::search::Order;

use super::args::InstanceSourceArgs;
use super::show::describe;

/// The fill order whose first cells the cubes fix, unless `--order` says otherwise.
pub(crate) const DEFAULT_ORDER: &str = "corner-square-nw";

#[derive(Args)]
pub(crate) struct SplitArgs {
    /// The instance: instance JSON, or a piece list (see --columns).
    instance: PathBuf,
    #[command(flatten)]
    source: InstanceSourceArgs,
    /// At least this many cubes (1..=9999): prefixes of the fill order are
    /// expanded oldest first, one cell at a time, until there are K or more;
    /// every consistent prefix becomes one cube, so the count may exceed K.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=cubes::MAX_CUBES as u64))]
    cubes: u64,
    /// The folder to write `cubes.json` and `cube-0001.json`, … into.
    #[arg(long)]
    out: PathBuf,
    /// The fill order whose first cells the cubes fix (a name as in `solve --order`).
    #[arg(long, default_value = DEFAULT_ORDER)]
    order: Order,
}

pub(crate) fn run(args: SplitArgs) -> Result<ExitCode> {
    let loaded = args.source.load(&args.instance)?;
    println!("{}", describe(&args.instance, &loaded));
    let split = cubes::split(&loaded.instance, args.order, args.cubes as usize)?;
    let set = CubeSet {
        source: args.instance.display().to_string(),
        instance: InstanceFile { instance: loaded.instance.clone(), name: Some(loaded.name.clone()), colours: None },
        order: args.order.name(),
        cubes: split.cubes.clone(),
        dead_ends: split.dead_ends,
    };
    file::write_dir(&args.out, &set)?;
    let (low, high) = split.depths();
    if split.clues_conflict {
        println!("the clues conflict: the instance has no solution, so there is no cube");
    }
    println!(
        "cubes: {} (asked for at least {}), {low}..={high} fixed cells each along {}, {} dead-end prefixes dropped",
        split.cubes.len(),
        args.cubes,
        args.order,
        split.dead_ends
    );
    println!("wrote {} and cube-0001.json … in {}", file::MANIFEST, args.out.display());
    if !split.cubes.is_empty() {
        println!("run one: edgematch solve {}", file::cube_path(&args.out, 1).display());
        println!("on Slurm: sbatch --array=1-{} deploy/slurm/cubes.sbatch {}", split.cubes.len(), args.out.display());
    }
    println!("then: edgematch collect {}", args.out.display());
    Ok(ExitCode::SUCCESS)
}
