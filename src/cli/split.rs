//! `edgematch split`: one instance cut into cube files whose solutions cover it exactly.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use clap::Args;
use edgematch::cubes::{self, Balanced, CubeSet, Split, Target, file};
use edgematch::formats::instance_json::InstanceFile;
use edgematch::puzzle::{Clue, Instance};
use edgematch::search::Order;

use super::args::{InstanceSourceArgs, cores};
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
    /// Balanced array tasks: weigh every cube by the estimator (its tree along
    /// --order, strip test and look-ahead off; on --threads), cut the heaviest again until none holds more
    /// than half of one of TASKS equal shares (or a cut would make more than
    /// 16 K cubes, at most 9999), and deal the cubes to TASKS tasks, heaviest
    /// first, each to the lightest task (`tasks.txt`; the estimates go into
    /// the manifest). Solve them with `--solver search --order ORDER
    /// --strip-test off --look-ahead off` for the trees that were weighed
    /// (with the look-ahead on, the same trees cut 1.3-1.4x).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=cubes::MAX_CUBES as u64))]
    tasks: Option<u64>,
    /// Seed of the estimates (with --tasks).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Threads that weigh cubes side by side (with --tasks; default: every
    /// core). The cubes, estimates and tasks are the same for any count.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
    threads: Option<u32>,
    /// For counting a square board without clues: fix in every cube's
    /// top-left cell the corner piece `count` fixes. Each board of the cubes
    /// is then the one of its four turns with that piece there, so the cubes
    /// hold a quarter of the tree, and `count` counts each board found with
    /// its three turns (the cube files say `one_per_class`). Solving the
    /// cubes gives the same verdict: a board with a solution has one with
    /// that corner.
    #[arg(long)]
    fix_corner: bool,
}

/// The corner piece `count` fixes on `instance`, for `--fix-corner`.
fn fixed_corner(instance: &Instance) -> Result<Clue> {
    edgematch::count::fixed_corner(instance).map_err(|e| anyhow::anyhow!("--fix-corner: {e}"))
}

/// How many times `--cubes` a balanced split may grow to.
const BALANCE_GROWTH: usize = 16;

pub(crate) fn run(args: SplitArgs) -> Result<ExitCode> {
    let loaded = args.source.load(&args.instance)?;
    println!("{}", describe(&args.instance, &loaded));
    let corner = if args.fix_corner { Some(fixed_corner(&loaded.instance)?) } else { None };
    let base = corner.map_or_else(|| loaded.instance.clone(), |c| cubes::split::with_fixed(&loaded.instance, &[c]));
    let mut split = cubes::split(&base, args.order, args.cubes as usize)?;
    let (mut estimates, mut tasks) = (Vec::new(), Vec::new());
    if let Some(count) = args.tasks {
        let target = Target {
            tasks: count as usize,
            most: (args.cubes as usize).saturating_mul(BALANCE_GROWTH),
            seed: args.seed,
            threads: args.threads.unwrap_or_else(cores) as usize,
        };
        let balanced = balance(&base, split, target);
        (split, estimates, tasks) = (balanced.split, balanced.estimates, balanced.tasks);
    }
    if let Some(corner) = corner {
        split = split.with_first(corner);
    }
    let set = CubeSet {
        source: args.instance.display().to_string(),
        instance: InstanceFile { instance: loaded.instance.clone(), name: Some(loaded.name.clone()), colours: None },
        order: args.order.name(),
        cubes: split.cubes.clone(),
        dead_ends: split.dead_ends,
        estimates,
        tasks,
        one_per_class: corner.is_some(),
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
        print_next_steps(&args, &set);
    }
    Ok(ExitCode::SUCCESS)
}

/// What to run next: one cube, the Slurm array, the collect (of counts for a split made for counting).
fn print_next_steps(args: &SplitArgs, set: &CubeSet) {
    let dir = args.out.display();
    let tasks = if set.tasks.is_empty() { set.cubes.len() } else { set.tasks.len() };
    let first = file::cube_path(&args.out, 1);
    if set.one_per_class {
        println!("count one: edgematch count {}", first.display());
        println!("on Slurm: sbatch --array=1-{tasks} deploy/slurm/count.sbatch {dir}");
        println!("then: edgematch collect {dir} --counts");
        return;
    }
    println!("run one: edgematch solve {}", first.display());
    match args.tasks {
        Some(_) => println!(
            "on Slurm: sbatch --array=1-{tasks} deploy/slurm/cubes.sbatch {dir} --solver search --threads 1 --order {} --strip-test off --look-ahead off",
            args.order
        ),
        None => println!("on Slurm: sbatch --array=1-{tasks} deploy/slurm/cubes.sbatch {dir}"),
    }
    println!("then: edgematch collect {dir}");
}

/// Balances the split into `tasks` tasks, with progress on stderr, and
/// prints the outcome: the spread of the tasks, and the cubes' estimated trees
/// against the whole board's.
fn balance(instance: &Instance, split: Split, target: Target) -> Balanced {
    let order = split.order;
    eprintln!(
        "balancing {} cubes into {} tasks: each weighed by the estimator along {order}, on {} threads ...",
        split.cubes.len(),
        target.tasks,
        target.threads
    );
    let balanced = cubes::balance(instance, split, target, &mut |count, heaviest| {
        eprintln!("  {count} cubes, the heaviest {heaviest:.2} of a task's share");
    });
    let weighing = balanced.weighing;
    eprintln!("weighed: {} estimates in {} waves on {} threads", weighing.made, weighing.waves, target.threads);
    let whole = edgematch::search::estimate_tree(instance, order, target.seed);
    let heaviest = balanced.estimates.iter().copied().fold(0.0, f64::max);
    println!(
        "balanced: {} cubes after {} cuts in {} tasks, the heaviest task {:.2}x the mean; estimated trees: {:.3e} nodes in all, {heaviest:.3e} the heaviest cube (the whole board: {whole:.3e})",
        balanced.split.cubes.len(),
        balanced.cuts,
        balanced.tasks.len(),
        balanced.spread(),
        balanced.total(),
    );
    balanced
}
