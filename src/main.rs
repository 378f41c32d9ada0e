//! The `edgematch` command line: parse, validate, call the library, print, map to an exit code.
//!
//! Exit codes:
//! - 0: success (`solve`: a board found and verified as a full solution;
//!   `verify`: the board is a full valid solution);
//! - 1: a readable answer that is not a solution (`solve`: infeasible or no
//!   board within the limit; `verify`: partial, imperfect or invalid board);
//! - 2: an error (bad arguments, unreadable or malformed input, a failing solver);
//! - 3: a solver returned a board that the checker rejected (a bug: please report);
//! - 130: interrupted by Ctrl-C.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context as _, Result, bail};
use clap::{Args, Parser, Subcommand, ValueEnum};
use edgematch::bench::{cliff, report};
use edgematch::check::{self, Report};
use edgematch::cpsat::model::Formulation;
use edgematch::cpsat::{self, SolveEnv};
use edgematch::formats::{board_json, board_text, brendan, bucas, instance_json, load, piece_list};
use edgematch::generate::{self, PlantedSpec};
use edgematch::puzzle::{Board, Grid, MAX_SIDE};
use edgematch::solver::{self, Status};
use edgematch::{bench, dfs, flux, flux_report, interrupt, mip, output, render};
use prost::Message as _;

/// Edge-matching puzzles (Eternity II and its kind): generate, solve with CP-SAT, verify.
#[derive(Parser)]
#[command(version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Generate a planted instance (and its solution beside it).
    Generate(GenerateArgs),
    /// Solve an instance with CP-SAT and verify the board.
    Solve(SolveArgs),
    /// Check a board against an instance.
    Verify(VerifyArgs),
    /// Convert an instance, or a board (with --instance), to another format.
    Convert(ConvertArgs),
    /// Draw a board as SVG: side colours, mismatched joins in red, clues outlined.
    Render(RenderArgs),
    /// The flux law of a piece set: facts, exact ranks, fourth member, certificate sweep.
    Flux(FluxArgs),
    /// Run a benchmark and write its record under results/.
    #[command(subcommand)]
    Bench(BenchCommand),
}

#[derive(Args)]
struct GenerateArgs {
    /// Board side (sets both width and height).
    #[arg(long, required_unless_present_all = ["width", "height"])]
    size: Option<usize>,
    /// Board width (overrides --size).
    #[arg(long)]
    width: Option<usize>,
    /// Board height (overrides --size).
    #[arg(long)]
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

#[derive(Args)]
struct SolveArgs {
    /// The instance: instance JSON, or a piece list (see --columns).
    instance: PathBuf,
    #[command(flatten)]
    source: InstanceSourceArgs,
    /// Wall-clock limit in seconds (default: none).
    #[arg(long)]
    time_limit: Option<f64>,
    /// CP-SAT workers (default: the number of cores).
    #[arg(long)]
    workers: Option<u32>,
    /// Which solver: `cpsat`, the native `dfs` baseline, or the placement `mip` (HiGHS).
    #[arg(long, value_enum, default_value_t = SolverArg::Cpsat)]
    solver: SolverArg,
    /// Random seed (CP-SAT's `random_seed`; the DFS shuffling stream).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Show CP-SAT's search log (CP-SAT writes it to standard output).
    #[arg(long)]
    log: bool,
    /// The CP-SAT formulation: `table` (one Table constraint per cell, the
    /// fastest) or `element` (the structured model: index = 4·piece + rotation
    /// channelled by Element constraints into side colours).
    #[arg(long, value_enum, default_value_t = ModelArg::Table)]
    model: ModelArg,
    /// DFS: placements between restarts.
    #[arg(long, default_value_t = 100_000)]
    restart_nodes: u64,
    /// DFS: stop after about this many placements (for reproducible measurements).
    #[arg(long)]
    node_limit: Option<u64>,
    /// DFS: apply the flux endgame certificate once the board holds at least N cells.
    #[arg(long, value_name = "N")]
    flux_prune: Option<usize>,
    /// DFS: exhaustive search without restarts (proves unsolvable, or finds a solution).
    #[arg(long)]
    complete: bool,
    /// DFS: count solutions exhaustively, stopping at CAP (implies --complete).
    #[arg(long, value_name = "CAP")]
    count: Option<u64>,
    /// Draw the verified board as SVG here.
    #[arg(long)]
    svg: Option<PathBuf>,
    /// Write the verified board here (board JSON; the best partial board if unsolved).
    #[arg(long)]
    out: Option<PathBuf>,
    /// Write the CpModelProto here (binary protobuf), before solving.
    #[arg(long)]
    dump_model: Option<PathBuf>,
}

/// The solvers, as named on the command line.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum SolverArg {
    Cpsat,
    Dfs,
    Mip,
}

/// The formulations, as named on the command line.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum ModelArg {
    Table,
    Element,
}

impl From<ModelArg> for Formulation {
    fn from(arg: ModelArg) -> Self {
        match arg {
            ModelArg::Table => Formulation::Table,
            ModelArg::Element => Formulation::Element,
        }
    }
}

#[derive(Args)]
struct VerifyArgs {
    /// The instance: instance JSON, or a piece list (see --columns).
    instance: PathBuf,
    /// The board: board JSON, a bucas link (`.url` or text), a decoded board
    /// (`A1 y x piece rot N E S W` lines) or a Brendan solution (`x y rot` lines).
    board: PathBuf,
    #[command(flatten)]
    source: InstanceSourceArgs,
    /// Print the report as JSON.
    #[arg(long)]
    json: bool,
}

#[derive(Args)]
struct FluxArgs {
    /// The piece set (e.g. ../shared/data/e2/official/pieces.txt; see --columns, --clues).
    instance: PathBuf,
    /// The JSON document to write.
    #[arg(long, default_value = "results/flux_invariants.json")]
    out: PathBuf,
    /// Sweep: planted boards in the pool.
    #[arg(long, default_value_t = 30)]
    boards: u64,
    /// Sweep: random placement orders per board and fill.
    #[arg(long, default_value_t = 30)]
    orders: u64,
    #[command(flatten)]
    source: InstanceSourceArgs,
}

#[derive(Args)]
struct RenderArgs {
    /// The instance (any supported format).
    instance: PathBuf,
    /// The board (any supported format).
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

#[derive(Args)]
struct ConvertArgs {
    /// The instance to convert, or with --instance the board to convert.
    input: PathBuf,
    /// The instance the board belongs to (makes INPUT a board).
    #[arg(long)]
    instance: Option<PathBuf>,
    /// Output format: for an instance `json` or `pieces`; for a board `json`,
    /// `bucas`, `text` (decoded lines) or `brendan`.
    #[arg(long)]
    to: String,
    /// Output file (default: standard output).
    #[arg(short, long)]
    out: Option<PathBuf>,
    #[command(flatten)]
    source: InstanceSourceArgs,
}

/// How to read an instance given as a piece list.
#[derive(Args)]
struct InstanceSourceArgs {
    /// Column order of a piece list: four of n/e/s/w (u/r/d/l, t/b), e.g. nesw or
    /// bltr (the official list). Default: from the file's header, else nesw.
    #[arg(long)]
    columns: Option<piece_list::Columns>,
    /// Board width of a piece list that has no `W H` line.
    #[arg(long, requires = "height")]
    width: Option<usize>,
    /// Board height of a piece list that has no `W H` line.
    #[arg(long, requires = "width")]
    height: Option<usize>,
    /// A clue list (`name piece cell y x rot rot_nesw N E S W` lines) to use as the clues.
    #[arg(long)]
    clues: Option<PathBuf>,
}

impl InstanceSourceArgs {
    fn load(&self, path: &Path) -> Result<load::Loaded> {
        let size = match (self.width, self.height) {
            (Some(width), Some(height)) if (1..=MAX_SIDE).contains(&width) && (1..=MAX_SIDE).contains(&height) => {
                Some(Grid { width, height })
            }
            (Some(w), Some(h)) => bail!("--width {w} --height {h}: each must be in 1..={MAX_SIDE}"),
            _ => None,
        };
        let options = load::InstanceOptions { columns: self.columns, size, clues: self.clues.as_deref() };
        Ok(load::instance(path, &options)?)
    }
}

#[derive(Subcommand)]
enum BenchCommand {
    /// CP-SAT on planted instances, and the time to build and serialize a model.
    Spine(SpineArgs),
    /// DFS and CP-SAT, one after the other, on the same planted boards; appends to a runs file.
    Cliff(CliffArgs),
    /// Merge runs files into a markdown table and an SVG chart.
    Report(ReportArgs),
    /// DFS placements per second on one thread.
    DfsSpeed(DfsSpeedArgs),
    /// Time to build and serialize the CP-SAT model in each formulation.
    ModelBuild(ModelBuildArgs),
    /// CP-SAT on the published puzzles of ../shared/data/e2 (clue puzzles, Heule, Brendan).
    External(ExternalArgs),
    /// The DFS with and without the flux certificate on planted 8x8-10x10 boards.
    FluxPrune(FluxPruneArgs),
}

#[derive(Args)]
struct FluxPruneArgs {
    /// Apply the certificate once this fraction of the cells is filled.
    #[arg(long, default_value_t = 0.75)]
    fill: f64,
    /// Limit per run, in seconds.
    #[arg(long, default_value_t = 60.0)]
    seconds: f64,
    /// The JSON record to write.
    #[arg(long, default_value = "results/dfs-flux-prune.json")]
    out: PathBuf,
}

#[derive(Args)]
struct ExternalArgs {
    /// The e2 data folder.
    #[arg(long, default_value = "../shared/data/e2")]
    data: PathBuf,
    /// CP-SAT limit per puzzle, in seconds.
    #[arg(long, default_value_t = 60.0)]
    time_limit: f64,
    /// CP-SAT workers (default: the number of cores).
    #[arg(long)]
    workers: Option<u32>,
    /// Runs file (JSON lines) to append to; puzzles in it are skipped.
    #[arg(long, default_value = "results/external-puzzles.jsonl")]
    runs: PathBuf,
    /// The markdown table to write.
    #[arg(long, default_value = "results/external-puzzles.md")]
    out: PathBuf,
}

#[derive(Args)]
struct ModelBuildArgs {
    /// Instance whose model is built.
    #[arg(default_value = "models/planted-16x16-f5i17-s1.json")]
    instance: PathBuf,
    /// The JSON record to write.
    #[arg(long, default_value = "results/model-build.json")]
    out: PathBuf,
}

#[derive(Args)]
struct DfsSpeedArgs {
    /// Instances to run the DFS on.
    #[arg(default_values_t = (1..=5).map(|s| format!("models/planted-12x12-f5i17-s{s}.json")).collect::<Vec<_>>())]
    instances: Vec<String>,
    /// Seconds per instance.
    #[arg(long, default_value_t = 10.0)]
    seconds: f64,
    /// The JSON record to write.
    #[arg(long, default_value = "results/dfs-speed.json")]
    out: PathBuf,
}

#[derive(Args)]
struct CliffArgs {
    /// Board sides, e.g. 10,11,12 or 10-14.
    #[arg(long, value_parser = parse_numbers, default_value = "10-14")]
    sizes: Numbers,
    /// Frame+interior colour settings.
    #[arg(long, value_delimiter = ',', default_value = "5+17")]
    colours: Vec<cliff::Colours>,
    /// Generator seeds, e.g. 1-5.
    #[arg(long, value_parser = parse_numbers, default_value = "1-5")]
    seeds: Numbers,
    /// Seeds for one size instead of --seeds, as SIZE:SEEDS (e.g. 16:1 or 16:1-2); repeatable.
    #[arg(long, value_parser = parse_at_list)]
    seeds_at: Vec<(u64, Vec<u64>)>,
    /// Arms to run, in order, on each instance.
    #[arg(long, value_enum, value_delimiter = ',', default_values_t = [ArmArg::Dfs, ArmArg::Cpsat])]
    arms: Vec<ArmArg>,
    /// DFS budgets in seconds; the first runs at every size, the others at --dfs-long-sizes.
    #[arg(long, value_delimiter = ',', default_value = "20")]
    dfs_budgets: Vec<f64>,
    /// Sizes at which the DFS budgets after the first run (default: all).
    #[arg(long, value_delimiter = ',')]
    dfs_long_sizes: Vec<usize>,
    /// DFS placements between restarts.
    #[arg(long, default_value_t = 100_000)]
    restart_nodes: u64,
    /// CP-SAT limit in seconds.
    #[arg(long, default_value_t = 300.0)]
    cpsat_limit: f64,
    /// CP-SAT limit for one size, as SIZE:SECONDS (e.g. 14:120); repeatable.
    #[arg(long, value_parser = parse_size_seconds)]
    cpsat_limit_at: Vec<(usize, f64)>,
    /// MIP (HiGHS) limit in seconds.
    #[arg(long, default_value_t = 300.0)]
    mip_limit: f64,
    /// CP-SAT workers (default: the number of cores).
    #[arg(long)]
    workers: Option<u32>,
    /// CP-SAT formulation.
    #[arg(long, value_enum, default_value_t = ModelArg::Table)]
    model: ModelArg,
    /// Folder of instance files; instances not there are generated in memory.
    #[arg(long, default_value = "models")]
    models_dir: PathBuf,
    /// Runs file (JSON lines) to append to; its finished jobs are skipped.
    #[arg(long, default_value = "results/cliff/runs.jsonl")]
    runs: PathBuf,
    /// Run only share K of N of the jobs, as K/N.
    #[arg(long, value_parser = parse_shard, default_value = "1/1")]
    shard: (usize, usize),
}

#[derive(Args)]
struct ReportArgs {
    /// Runs files to merge.
    #[arg(required = true)]
    runs: Vec<PathBuf>,
    /// Markdown table to write.
    #[arg(long, default_value = "results/cliff/table.md")]
    out: PathBuf,
    /// SVG chart to write.
    #[arg(long, default_value = "results/cliff/cliff.svg")]
    svg: PathBuf,
}

/// The arms, as named on the command line.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum ArmArg {
    Dfs,
    Cpsat,
    Mip,
}

/// A list of numbers given as one argument.
#[derive(Clone, Debug)]
struct Numbers(Vec<u64>);

fn parse_numbers(s: &str) -> Result<Numbers, String> {
    parse_list(s).map(Numbers)
}

/// `1,2,5` or `1-5` (or a mix: `1-3,7`).
fn parse_list(s: &str) -> Result<Vec<u64>, String> {
    let mut out = std::vec::Vec::new();
    for part in s.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        match part.split_once('-') {
            Some((a, b)) => {
                let (a, b): (u64, u64) =
                    (a.parse().map_err(|e| format!("{part}: {e}"))?, b.parse().map_err(|e| format!("{part}: {e}"))?);
                if a > b {
                    return Err(format!("{part}: empty range"));
                }
                out.extend(a..=b);
            }
            None => out.push(part.parse().map_err(|e| format!("{part}: {e}"))?),
        }
    }
    if out.is_empty() { Err("empty list".to_owned()) } else { Ok(out) }
}

fn parse_at_list(s: &str) -> Result<(u64, Vec<u64>), String> {
    let (size, list) = s.split_once(':').ok_or_else(|| format!("{s}: expected SIZE:SEEDS"))?;
    Ok((size.parse().map_err(|e| format!("{s}: {e}"))?, parse_list(list)?))
}

fn parse_size_seconds(s: &str) -> Result<(usize, f64), String> {
    let (size, secs) = s.split_once(':').ok_or_else(|| format!("{s}: expected SIZE:SECONDS"))?;
    Ok((size.parse().map_err(|e| format!("{s}: {e}"))?, secs.parse().map_err(|e| format!("{s}: {e}"))?))
}

fn parse_shard(s: &str) -> Result<(usize, usize), String> {
    let (k, n) = s.split_once('/').ok_or_else(|| format!("{s}: expected K/N"))?;
    let (k, n): (usize, usize) =
        (k.parse().map_err(|e| format!("{s}: {e}"))?, n.parse().map_err(|e| format!("{s}: {e}"))?);
    if k == 0 || k > n {
        return Err(format!("{s}: K must be in 1..=N"));
    }
    Ok((k, n))
}

#[derive(Args)]
struct SpineArgs {
    /// Instances to solve.
    #[arg(default_values_t = (1..=5).map(|s| format!("models/planted-12x12-f5i17-s{s}.json")).collect::<Vec<_>>())]
    instances: Vec<String>,
    /// Instance whose model build and serialization is timed.
    #[arg(long, default_value = "models/planted-16x16-f5i17-s1.json")]
    model_instance: PathBuf,
    /// Wall-clock limit per solve, in seconds.
    #[arg(long, default_value_t = 600.0)]
    time_limit: f64,
    /// CP-SAT workers (default: the number of cores).
    #[arg(long)]
    workers: Option<u32>,
    /// Formulations to run, each on every instance.
    #[arg(long, value_enum, value_delimiter = ',', default_values_t = [ModelArg::Table, ModelArg::Element])]
    models: Vec<ModelArg>,
    /// The JSON record to write.
    #[arg(long, default_value = "results/spine-cpsat.json")]
    out: PathBuf,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(code) => code,
        Err(error) => {
            eprintln!("edgematch: {error:#}");
            ExitCode::from(2)
        }
    }
}

fn run(cli: Cli) -> Result<ExitCode> {
    match cli.command {
        Command::Generate(args) => generate(args),
        Command::Solve(args) => solve(args),
        Command::Verify(args) => verify(args),
        Command::Convert(args) => convert(args),
        Command::Render(args) => render_board(args),
        Command::Flux(args) => flux_command(args),
        Command::Bench(BenchCommand::Spine(args)) => bench_spine(args),
        Command::Bench(BenchCommand::Cliff(args)) => bench_cliff(args),
        Command::Bench(BenchCommand::Report(args)) => bench_report(args),
        Command::Bench(BenchCommand::DfsSpeed(args)) => bench_dfs_speed(args),
        Command::Bench(BenchCommand::ModelBuild(args)) => bench_model_build(args),
        Command::Bench(BenchCommand::External(args)) => bench_external(args),
        Command::Bench(BenchCommand::FluxPrune(args)) => {
            if !((0.0..=1.0).contains(&args.fill) && args.seconds.is_finite() && args.seconds > 0.0) {
                bail!("--fill must be in 0..=1 and --seconds positive");
            }
            interrupt::install().map_err(anyhow::Error::msg)?;
            let record =
                bench::dfs_speed::flux_prune(&[8, 9, 10], &[1, 2, 3], args.fill, args.seconds, bench::provenance())?;
            output::write_atomic(&args.out, record.as_bytes())?;
            eprintln!("wrote {}", args.out.display());
            Ok(ExitCode::SUCCESS)
        }
    }
}

fn cores() -> u32 {
    std::thread::available_parallelism().map_or(1, |n| n.get() as u32)
}

fn generate(args: GenerateArgs) -> Result<ExitCode> {
    let width = args.width.or(args.size).context("--size or --width is required")?;
    let height = args.height.or(args.size).context("--size or --height is required")?;
    for (name, value) in [("--width", width), ("--height", height)] {
        if !(2..=MAX_SIDE).contains(&value) {
            bail!("{name} {value} is not in 2..={MAX_SIDE}");
        }
    }
    let spec = PlantedSpec {
        grid: Grid { width, height },
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
    output::write_atomic(&args.out, instance_json::to_string(&file).as_bytes())?;
    output::write_atomic(&solution_path, board_json::to_string(&planted.solution).as_bytes())?;
    println!("wrote {} and {}", args.out.display(), solution_path.display());
    Ok(ExitCode::SUCCESS)
}

/// `dir/NAME.json` → `dir/NAME.solution.json`.
fn solution_path(instance: &Path) -> PathBuf {
    let stem = instance.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    instance.with_file_name(format!("{stem}.solution.json"))
}

fn solve(args: SolveArgs) -> Result<ExitCode> {
    if let Some(limit) = args.time_limit
        && !(limit.is_finite() && limit > 0.0)
    {
        bail!("--time-limit {limit} must be a positive number of seconds");
    }
    if args.restart_nodes == 0 {
        bail!("--restart-nodes must be positive");
    }
    let loaded = args.source.load(&args.instance)?;
    let instance = &loaded.instance;
    println!("{}", describe(&args.instance, &loaded));
    interrupt::install().map_err(anyhow::Error::msg)?;
    let outcome = match args.solver {
        SolverArg::Cpsat => {
            let options = cpsat::Options {
                time_limit: args.time_limit,
                workers: args.workers.unwrap_or_else(cores),
                seed: i32::try_from(args.seed).context("--seed must be at most 2147483647 for CP-SAT")?,
                log: args.log,
                formulation: args.model.into(),
            };
            if let Some(path) = &args.dump_model {
                let model = cpsat::model::build(instance, options.formulation);
                output::write_atomic(path, &model.proto.encode_to_vec())?;
                eprintln!("wrote the model to {}", path.display());
            }
            println!(
                "solver: cpsat, {} model (OR-Tools {}, {} workers)",
                options.formulation.name(),
                cpsat::ORTOOLS_VERSION,
                options.workers
            );
            let env = SolveEnv::new()?;
            let _guard = interrupt::watch({
                let stopper = env.stopper();
                move || stopper.stop()
            });
            cpsat::solve(instance, &options, &env)?
        }
        SolverArg::Dfs => {
            let options = dfs::Options {
                time_limit: args.time_limit,
                restart_nodes: args.restart_nodes,
                seed: args.seed,
                complete: args.complete || args.count.is_some(),
                count_cap: args.count.unwrap_or(1),
                collect: false,
                node_limit: args.node_limit,
                flux_prune: args.flux_prune,
            };
            let mode = if options.complete {
                "complete".to_owned()
            } else {
                format!("randomized, restart every {} nodes", options.restart_nodes)
            };
            println!("solver: dfs ({mode}, seed {}, 1 thread)", options.seed);
            dfs::solve(instance, &options).0
        }
        SolverArg::Mip => {
            let options = mip::Options {
                time_limit: args.time_limit,
                seed: i32::try_from(args.seed).context("--seed must be at most 2147483647 for HiGHS")?,
                log: args.log,
            };
            println!("solver: mip (placement binaries, HiGHS branch and bound)");
            let env = mip::MipEnv::new();
            let _guard = interrupt::watch({
                let env = env.clone();
                move || env.stop()
            });
            mip::solve(instance, &options, &env)?
        }
    };
    let status =
        if interrupt::raised() && outcome.status != Status::Solved { Status::Interrupted } else { outcome.status };

    println!("status: {status}");
    println!("wall time: {:.3} s", outcome.seconds);
    for (name, value) in &outcome.statistics {
        println!("{name}: {value}");
    }
    let verified = match solver::verify(instance, &outcome) {
        Ok(verified) => verified,
        Err(error) => {
            eprintln!("edgematch: {error}; this is a bug");
            return Ok(ExitCode::from(3));
        }
    };
    if let (Some(report), Some(board)) = (&verified.report, &outcome.board) {
        print!("checker: {}", report.summary(20));
        if !verified.solved {
            println!("best board found: score {}/{} (verified)", report.score, report.max_score);
        }
        print_board(board);
        if let Some(path) = &args.out {
            output::write_atomic(path, board_json::to_string(board).as_bytes())?;
            println!("wrote {}", path.display());
        }
        if let Some(path) = &args.svg {
            let title = loaded.name.clone();
            output::write_atomic(path, render::svg(instance, board, &title, render::Style::default()).as_bytes())?;
            println!("wrote {}", path.display());
        }
    }
    if interrupt::raised() {
        eprintln!("interrupted");
        return Ok(ExitCode::from(130));
    }
    Ok(if verified.solved { ExitCode::SUCCESS } else { ExitCode::from(1) })
}

/// The `instance:` line: path, size, pieces, clues, and how a piece list was read.
fn describe(path: &Path, loaded: &load::Loaded) -> String {
    let instance = &loaded.instance;
    let columns = loaded.columns.map_or(String::new(), |c| format!(", columns {c}"));
    format!(
        "instance: {} ({}, {} pieces, {} clues{columns})",
        path.display(),
        instance.grid,
        instance.pieces.len(),
        instance.clues.len()
    )
}

fn print_board(board: &Board) {
    println!("board (piece/rotation, row by row):");
    for row in board.cells.chunks(board.grid.width) {
        let cells: Vec<String> = row
            .iter()
            .map(|c| match c {
                Some(p) => format!("{:>4}/{}", p.piece + 1, p.rotation.turns()),
                None => "    ./.".to_owned(),
            })
            .collect();
        println!("  {}", cells.join(" "));
    }
}

fn verify(args: VerifyArgs) -> Result<ExitCode> {
    let loaded = args.source.load(&args.instance)?;
    let instance = &loaded.instance;
    let board = load::board(&args.board, instance)?;
    let report: Report = check::check(instance, &board);
    // The flux law needs every named piece to exist; the checker has named any that do not.
    let pieces_known = !report.violations.iter().any(|v| matches!(v, check::Violation::UnknownPiece { .. }));
    let nonzero: Vec<(u8, flux::Gauss)> = if pieces_known {
        flux::board_flux(instance, &board).into_iter().filter(|(_, z)| !z.is_zero()).collect()
    } else {
        Vec::new()
    };
    let certificate =
        (pieces_known && report.placed < report.cells).then(|| flux::certificate_passes(instance, &board));
    let broken: Vec<usize> = report
        .violations
        .iter()
        .filter_map(|v| match v {
            check::Violation::ClueBroken { cell, .. } => Some(*cell),
            _ => None,
        })
        .collect();
    let clues: Vec<(String, usize, bool)> = instance
        .clues
        .iter()
        .zip(&loaded.clue_names)
        .map(|(c, name)| (name.clone(), c.cell, !broken.contains(&c.cell)))
        .collect();
    if args.json {
        let json = serde_json::json!({
            "instance": args.instance.display().to_string(),
            "board": args.board.display().to_string(),
            "width": instance.grid.width,
            "height": instance.grid.height,
            "verdict": report.verdict(),
            "solution": report.is_solution(),
            "score": report.score,
            "max_score": report.max_score,
            "placed": report.placed,
            "cells": report.cells,
            "empty_cells": report.cells - report.placed,
            "clues": clues.iter().map(|(name, cell, ok)| {
                let (row, col) = instance.grid.row_col(*cell);
                serde_json::json!({"name": name, "row": row, "col": col, "honoured": ok})
            }).collect::<Vec<_>>(),
            "flux": {
                "checked": pieces_known,
                "law_holds": pieces_known && nonzero.is_empty(),
                "nonzero_colours": nonzero.iter().map(|(k, z)| serde_json::json!({"colour": k, "re": z.re, "im": z.im})).collect::<Vec<_>>(),
                "certificate_passes": certificate,
            },
            "violations": report.violations.iter().map(|v| serde_json::json!({
                "kind": v.kind(),
                "message": report.describe(v),
            })).collect::<Vec<_>>(),
        });
        println!("{}", serde_json::to_string_pretty(&json).expect("JSON values serialize"));
    } else {
        println!("{}", describe(&args.instance, &loaded));
        println!("board: {}", args.board.display());
        println!("score: {}/{}", report.score, report.max_score);
        if report.placed < report.cells {
            println!("partial board: {} of {} cells empty", report.cells - report.placed, report.cells);
        }
        if !clues.is_empty() {
            let honoured: Vec<&str> = clues.iter().filter(|c| c.2).map(|c| c.0.as_str()).collect();
            let broken: Vec<&str> = clues.iter().filter(|c| !c.2).map(|c| c.0.as_str()).collect();
            println!(
                "clues honoured: {} of {}{}{}",
                honoured.len(),
                clues.len(),
                if honoured.is_empty() { String::new() } else { format!(" ({})", honoured.join(", ")) },
                if broken.is_empty() { String::new() } else { format!("; not honoured: {}", broken.join(", ")) }
            );
        }
        if pieces_known {
            let what = if report.placed < report.cells { "over the placed pieces" } else { "over the board" };
            if nonzero.is_empty() {
                println!("flux law: every colour sums to 0 {what}");
            } else {
                let list: Vec<String> = nonzero.iter().map(|(k, z)| format!("{k}: {}{:+}i", z.re, z.im)).collect();
                println!("flux law: {} colours do not sum to 0 {what} ({})", nonzero.len(), list.join(", "));
            }
        }
        if let Some(passes) = certificate {
            println!(
                "flux certificate (mod 2, over the unplaced pieces): {}",
                if passes { "passes" } else { "fails: no completion exists" }
            );
        }
        print!("{report}");
    }
    Ok(if report.is_solution() { ExitCode::SUCCESS } else { ExitCode::from(1) })
}

fn flux_command(args: FluxArgs) -> Result<ExitCode> {
    let loaded = args.source.load(&args.instance)?;
    // The sweep's pool: 8x8 planted boards with 13 colours (4 frame + 9 interior).
    let spec = flux_report::SweepSpec { boards: args.boards, size: 8, frame: 4, interior: 9, orders: args.orders };
    let mut document = flux_report::report(&loaded.instance, spec, &[0.5, 0.75, 0.9, 0.95]);
    document["command"] = serde_json::json!(format!(
        "edgematch flux {} {}--out {}",
        args.instance.display(),
        args.source.clues.as_ref().map_or(String::new(), |c| format!("--clues {} ", c.display())),
        args.out.display()
    ));
    let text = serde_json::to_string_pretty(&document).expect("JSON values serialize") + "\n";
    output::write_atomic(&args.out, text.as_bytes())?;
    eprintln!("wrote {}", args.out.display());
    Ok(ExitCode::SUCCESS)
}

fn render_board(args: RenderArgs) -> Result<ExitCode> {
    let loaded = args.source.load(&args.instance)?;
    let board = load::board(&args.board, &loaded.instance)?;
    let title = load::board_name(&args.board)
        .unwrap_or_else(|| args.board.file_stem().map_or_else(String::new, |s| s.to_string_lossy().into_owned()));
    let picture = render::svg(&loaded.instance, &board, &title, render::Style { numbers: args.numbers });
    output::write_atomic(&args.out, picture.as_bytes())?;
    eprintln!("wrote {}", args.out.display());
    Ok(ExitCode::SUCCESS)
}

fn convert(args: ConvertArgs) -> Result<ExitCode> {
    let text = match &args.instance {
        None => {
            let loaded = args.source.load(&args.input)?;
            match args.to.as_str() {
                "json" => instance_json::to_string(&instance_json::InstanceFile {
                    instance: loaded.instance,
                    name: Some(loaded.name),
                    colours: None,
                }),
                "pieces" => piece_list::to_string(&loaded.instance),
                other => bail!("--to {other}: an instance converts to json or pieces"),
            }
        }
        Some(instance_path) => {
            let loaded = args.source.load(instance_path)?;
            let board = load::board(&args.input, &loaded.instance)?;
            match args.to.as_str() {
                "json" => board_json::to_string(&board),
                "bucas" => {
                    if !bucas::can_write(&loaded.instance) {
                        bail!("--to bucas: the instance uses colours above 22, which bucas links cannot show");
                    }
                    let name = load::board_name(&args.input).unwrap_or_else(|| {
                        args.input.file_stem().map_or_else(|| "board".into(), |s| s.to_string_lossy().into_owned())
                    });
                    bucas::to_link(&board, &loaded.instance, &name) + "\n"
                }
                "text" => board_text::to_string(&board, &loaded.instance),
                "brendan" => brendan::to_string(&board)
                    .context("--to brendan: the format needs a full board with every piece placed once")?,
                other => bail!("--to {other}: a board converts to json, bucas, text or brendan"),
            }
        }
    };
    match &args.out {
        Some(path) => output::write_atomic(path, text.as_bytes())?,
        None => print!("{text}"),
    }
    Ok(ExitCode::SUCCESS)
}

fn bench_spine(args: SpineArgs) -> Result<ExitCode> {
    let config = bench::SpineConfig {
        instances: args.instances.iter().map(PathBuf::from).collect(),
        model_instance: args.model_instance,
        formulations: args.models.iter().map(|&m| m.into()).collect(),
        options: cpsat::Options {
            time_limit: Some(args.time_limit),
            workers: args.workers.unwrap_or_else(cores),
            ..cpsat::Options::default()
        },
    };
    interrupt::install().map_err(anyhow::Error::msg)?;
    let record = bench::spine(&config)?;
    output::write_atomic(&args.out, record.as_bytes())?;
    eprintln!("wrote {}", args.out.display());
    Ok(ExitCode::SUCCESS)
}

fn bench_cliff(args: CliffArgs) -> Result<ExitCode> {
    let limits = [&args.cpsat_limit, &args.mip_limit];
    for &b in args.dfs_budgets.iter().chain(limits).chain(args.cpsat_limit_at.iter().map(|x| &x.1)) {
        if !(b.is_finite() && b > 0.0) {
            bail!("budgets and limits must be positive seconds, found {b}");
        }
    }
    let to_size = |s: u64| usize::try_from(s).ok().filter(|s| (2..=MAX_SIDE).contains(s));
    let sizes =
        args.sizes.0.iter().map(|&s| to_size(s).with_context(|| format!("--sizes: {s} is not in 2..={MAX_SIDE}")));
    let config = cliff::CliffConfig {
        sizes: sizes.collect::<Result<_>>()?,
        colours: args.colours,
        seeds: args.seeds.0,
        seeds_at: args.seeds_at.into_iter().map(|(size, seeds)| (size as usize, seeds)).collect(),
        arms: args
            .arms
            .iter()
            .map(|a| match a {
                ArmArg::Dfs => cliff::Arm::Dfs,
                ArmArg::Cpsat => cliff::Arm::Cpsat,
                ArmArg::Mip => cliff::Arm::Mip,
            })
            .collect(),
        dfs_budgets: args.dfs_budgets,
        dfs_long_sizes: args.dfs_long_sizes,
        restart_nodes: args.restart_nodes.max(1),
        cpsat_limit: args.cpsat_limit,
        cpsat_limit_at: args.cpsat_limit_at,
        mip_limit: args.mip_limit,
        workers: args.workers.unwrap_or_else(cores),
        formulation: args.model.into(),
        models_dir: args.models_dir,
        runs: args.runs,
        shard: args.shard,
    };
    if let Some(dir) = config.runs.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    interrupt::install().map_err(anyhow::Error::msg)?;
    let provenance = bench::provenance();
    let _ = cliff::run(&config, &provenance)?;
    if interrupt::raised() {
        eprintln!("interrupted");
        return Ok(ExitCode::from(130));
    }
    Ok(ExitCode::SUCCESS)
}

fn bench_report(args: ReportArgs) -> Result<ExitCode> {
    let mut runs = Vec::new();
    for path in &args.runs {
        let (mut more, broken) = bench::runs::read_runs(path, &cliff::KEY_FIELDS)?;
        if broken > 0 {
            eprintln!("report: {} has {broken} unreadable line(s), ignored", path.display());
        }
        runs.append(&mut more);
    }
    let rungs = report::summarize(&runs);
    output::write_atomic(&args.out, report::markdown(&rungs).as_bytes())?;
    output::write_atomic(&args.svg, report::svg(&rungs).as_bytes())?;
    eprintln!("wrote {} and {} ({} runs)", args.out.display(), args.svg.display(), runs.len());
    Ok(ExitCode::SUCCESS)
}

fn bench_dfs_speed(args: DfsSpeedArgs) -> Result<ExitCode> {
    if !(args.seconds.is_finite() && args.seconds > 0.0) {
        bail!("--seconds {} must be positive", args.seconds);
    }
    interrupt::install().map_err(anyhow::Error::msg)?;
    let instances: Vec<PathBuf> = args.instances.iter().map(PathBuf::from).collect();
    let record = bench::dfs_speed(&instances, args.seconds, bench::provenance())?;
    output::write_atomic(&args.out, record.as_bytes())?;
    eprintln!("wrote {}", args.out.display());
    Ok(ExitCode::SUCCESS)
}

fn bench_model_build(args: ModelBuildArgs) -> Result<ExitCode> {
    let builds = bench::spine::model_build(&args.instance, &[Formulation::Element, Formulation::Table])?;
    let record = serde_json::json!({
        "benchmark": "model-build",
        "command": format!("edgematch bench model-build {}", args.instance.display()),
        "provenance": bench::provenance(),
        "builds": builds,
    });
    let text = serde_json::to_string_pretty(&record).expect("JSON values serialize") + "\n";
    output::write_atomic(&args.out, text.as_bytes())?;
    eprintln!("wrote {}", args.out.display());
    Ok(ExitCode::SUCCESS)
}

fn bench_external(args: ExternalArgs) -> Result<ExitCode> {
    if !(args.time_limit.is_finite() && args.time_limit > 0.0) {
        bail!("--time-limit {} must be positive", args.time_limit);
    }
    let puzzles = bench::external::catalogue(&args.data)?;
    let options = cpsat::Options {
        time_limit: Some(args.time_limit),
        workers: args.workers.unwrap_or_else(cores),
        ..cpsat::Options::default()
    };
    interrupt::install().map_err(anyhow::Error::msg)?;
    let provenance = bench::provenance();
    let _ = bench::external::run(&puzzles, &options, &args.runs, &provenance)?;
    let (runs, _) = bench::runs::read_runs(&args.runs, &["puzzle"])?;
    let commits: std::collections::BTreeSet<&str> = runs.iter().filter_map(|r| r["commit"].as_str()).collect();
    let table = format!(
        "# CP-SAT on published puzzles\n\n\
         Command: `edgematch bench external --time-limit {}` ({} model, {} workers, {} cores, OR-Tools {}, \
         commits {}). Every board returned was re-verified by the checker; `score` is the checker's count \
         of matched inner joins. For Brendan's puzzles, `listed solution` is the checker's score of the \
         solution published with the puzzle (both full solutions when both say `solution`; the boards may \
         differ). Raw runs: `external-puzzles.jsonl`.\n\n{}",
        args.time_limit,
        options.formulation.name(),
        options.workers,
        provenance["cores"],
        cpsat::ORTOOLS_VERSION,
        commits.into_iter().collect::<Vec<_>>().join(", "),
        bench::external::markdown(&puzzles, &runs)
    );
    output::write_atomic(&args.out, table.as_bytes())?;
    eprintln!("wrote {}", args.out.display());
    if interrupt::raised() {
        eprintln!("interrupted");
        return Ok(ExitCode::from(130));
    }
    Ok(ExitCode::SUCCESS)
}
