//! `edgematch solve`: one solver on one instance; every board goes through the checker before it is shown.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Result, bail};
use clap::Args;
use edgematch::cpsat::model::Formulation;
use edgematch::formats::load::Loaded;
use edgematch::formats::{board_json, bucas};
use edgematch::output::write_atomic;
use edgematch::puzzle::{Board, Instance};
use edgematch::score as score_walk;
use edgematch::solver::{self, Limits, Objective, Outcome, Solver, SolverKind, Status};
use edgematch::stop::Stop;
use edgematch::{cpsat, dfs, interrupt, mip, portfolio, render, sat, search};
use prost::Message as _;

use super::args::{InstanceSourceArgs, SEED_RANGE, cores, given_flags, seconds};
use super::cubes;
use super::score::{self, ScoreArgs};
use super::show::{describe, log_to_stderr, unless_interrupted};
use super::watch::WatchArgs;

#[derive(Args)]
pub(crate) struct SolveArgs {
    /// The instance: instance JSON, or a piece list (see --columns).
    instance: PathBuf,
    #[command(flatten)]
    source: InstanceSourceArgs,
    /// Which solver: `auto` (a portfolio racing the arms that suit the board on
    /// every core; the first verified board wins), `search` (the native complete
    /// search), `sat` (CaDiCaL), `cpsat`, the `dfs` baseline, or the placement `mip` (HiGHS).
    #[arg(long, value_enum, default_value_t = SolverKind::Auto)]
    solver: SolverKind,
    /// What to look for: `full` (a solution, or a proof that there is none) or
    /// `score` (the best full board by matched joins, for boards no solver completes).
    #[arg(long, value_enum, default_value_t = Objective::Full)]
    objective: Objective,
    /// Wall-clock limit in seconds (default: none).
    #[arg(long, value_parser = seconds)]
    time_limit: Option<f64>,
    /// Threads, for the solvers that run several: the portfolio's arms divide
    /// them, the native search splits one tree over them, the score search runs
    /// one walk on each, CP-SAT one worker each (as --workers). Default: every
    /// core this process may use (its CPU affinity and cgroup quota counted).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=i64::from(MAX_THREADS)))]
    threads: Option<u32>,
    /// Random seed (CP-SAT's `random_seed`, HiGHS' seed, the DFS shuffling stream).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(SEED_RANGE))]
    seed: u64,
    /// Show the solver's own log (CP-SAT and HiGHS write it to standard output).
    #[arg(long)]
    log: bool,
    /// Draw the verified board as SVG here.
    #[arg(long)]
    svg: Option<PathBuf>,
    /// Write the verified board here (board JSON; the best partial board if unsolved).
    #[arg(long)]
    out: Option<PathBuf>,
    /// Cube and conquer on this machine: split the instance into at least K
    /// cubes (as `split` does) and run them over the local cores, each cube's
    /// solve on one core, --time-limit per cube; the first board verified
    /// against the instance wins, infeasible only once every cube is refuted.
    /// (A cube file written by `split` is solved like an instance, with its
    /// result file written beside it.)
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u64).range(1..=edgematch::cubes::MAX_CUBES as u64))]
    cubes: Option<u64>,
    #[command(flatten)]
    cpsat: CpsatArgs,
    #[command(flatten)]
    dfs: DfsArgs,
    #[command(flatten)]
    search: SearchArgs,
    #[command(flatten)]
    sat: SatArgs,
    #[command(flatten)]
    score: ScoreArgs,
    #[command(flatten)]
    watch: WatchArgs,
}

/// Flags that only the SAT backend takes.
#[derive(Args)]
#[command(next_help_heading = "SAT options (--solver sat)")]
struct SatArgs {
    /// CaDiCaL's option set (default: default).
    #[arg(long, value_enum)]
    sat_config: Option<sat::Config>,
    /// The at-most-one encoding of cells and pieces (default: ladder).
    #[arg(long, value_enum)]
    am1: Option<sat::Am1>,
    /// Leave out the redundant support clauses (seam colour -> some placement showing it).
    #[arg(long)]
    no_support: bool,
}

impl SatArgs {
    /// The flags given, by name.
    fn given(&self) -> Vec<&'static str> {
        given_flags(&[
            ("--sat-config", self.sat_config.is_some()),
            ("--am1", self.am1.is_some()),
            ("--no-support", self.no_support),
        ])
    }

    /// The SAT backend's options these flags ask for.
    fn options(&self) -> sat::Options {
        let (config, am1) = (self.sat_config.unwrap_or_default(), self.am1.unwrap_or_default());
        sat::Options { encoding: sat::EncodeOptions { am1, support: !self.no_support }, config }
    }
}

/// Flags that only the native search takes.
#[derive(Args)]
#[command(next_help_heading = "Search options (--solver search)")]
struct SearchArgs {
    /// The fill order: `auto` (the smallest tree by Knuth's estimate; with
    /// `--parallel race`, the two smallest from different corners) or a name such as `row-scan`,
    /// `corner-square-nw`, `fail-first-sw-t` (see --explain for the list).
    #[arg(long)]
    order: Option<search::OrderChoice>,
    /// Print each order's estimated tree size and the choice, on stderr.
    #[arg(long)]
    explain: bool,
    /// How the threads share the work (default: split).
    #[arg(long, value_enum)]
    parallel: Option<search::Parallel>,
    /// Test each strip of the fill order for completion (with pieces'
    /// reuse allowed) when the search enters it, and place only candidates
    /// it admits (default: auto).
    #[arg(long, value_enum)]
    strip_test: Option<search::StripTest>,
}

impl SearchArgs {
    /// The flags given, by name.
    fn given(&self) -> Vec<&'static str> {
        given_flags(&[
            ("--order", self.order.is_some()),
            ("--explain", self.explain),
            ("--parallel", self.parallel.is_some()),
            ("--strip-test", self.strip_test.is_some()),
        ])
    }
}

/// Flags that only CP-SAT takes.
#[derive(Args)]
#[command(next_help_heading = "CP-SAT options (--solver cpsat)")]
struct CpsatArgs {
    /// CP-SAT workers (default: the number of cores).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=10_000))]
    workers: Option<u32>,
    /// The formulation (default: table, the fastest).
    #[arg(long, value_enum)]
    model: Option<Formulation>,
    /// A decision strategy in the model (default: solver); `clues` is followed
    /// by CP-SAT's fixed-search worker, or by every worker with
    /// `--cpsat-param search_branching=fixed`.
    #[arg(long, value_enum)]
    strategy: Option<cpsat::tuning::Strategy>,
    /// Run the native search this many seconds first and give CP-SAT its
    /// deepest board as a solution hint (the seconds count in --time-limit).
    #[arg(long, value_parser = seconds, value_name = "S")]
    hint_seconds: Option<f64>,
    /// A CP-SAT parameter, NAME=VALUE (repeatable): search_branching
    /// (automatic, fixed, portfolio, lp, pseudo_cost, quick_restart, hint,
    /// partial_fixed, randomized), linearization_level (0-2), symmetry_level
    /// (0-4), cp_model_presolve, use_lns (true/false).
    #[arg(long = "cpsat-param", value_name = "NAME=VALUE")]
    cpsat_params: Vec<cpsat::tuning::Param>,
    /// Write the CpModelProto here (binary protobuf), before solving.
    #[arg(long)]
    dump_model: Option<PathBuf>,
}

/// Flags that only the DFS takes.
#[derive(Args)]
#[command(next_help_heading = "DFS options (--solver dfs)")]
struct DfsArgs {
    /// Placements between restarts (default: 100000).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    restart_nodes: Option<u64>,
    /// Stop after about this many placements (for reproducible measurements).
    #[arg(long)]
    node_limit: Option<u64>,
    /// Apply the flux endgame certificate once the board holds at least N cells.
    #[arg(long, value_name = "N")]
    flux_prune: Option<usize>,
    /// Exhaustive search without restarts (proves unsolvable, or finds a solution).
    #[arg(long)]
    complete: bool,
    /// Count solutions exhaustively, stopping at CAP (implies --complete).
    #[arg(long, value_name = "CAP")]
    count: Option<u64>,
}

impl CpsatArgs {
    /// The flags given, by name.
    fn given(&self) -> Vec<&'static str> {
        given_flags(&[
            ("--workers", self.workers.is_some()),
            ("--model", self.model.is_some()),
            ("--dump-model", self.dump_model.is_some()),
            ("--strategy", self.strategy.is_some()),
            ("--hint-seconds", self.hint_seconds.is_some()),
            ("--cpsat-param", !self.cpsat_params.is_empty()),
        ])
    }
}

impl DfsArgs {
    /// The flags given, by name.
    fn given(&self) -> Vec<&'static str> {
        given_flags(&[
            ("--restart-nodes", self.restart_nodes.is_some()),
            ("--node-limit", self.node_limit.is_some()),
            ("--flux-prune", self.flux_prune.is_some()),
            ("--complete", self.complete),
            ("--count", self.count.is_some()),
        ])
    }
}

impl SolveArgs {
    /// The solver and limits the flags ask for; a flag that belongs to
    /// another solver is refused rather than ignored.
    fn solver(&self) -> Result<(Solver, Limits)> {
        self.refuse_unused()?;
        let threads = self.threads()?;
        let limits = Limits { time_limit: self.time_limit, node_limit: self.dfs.node_limit, seed: self.seed, threads };
        let solver = match self.solver {
            SolverKind::Cpsat => Solver::Cpsat(cpsat::Options {
                log: self.log,
                formulation: self.cpsat.model.unwrap_or_default(),
                strategy: self.cpsat.strategy.unwrap_or_default(),
                hint_seconds: self.cpsat.hint_seconds,
                params: self.cpsat.cpsat_params.clone(),
            }),
            SolverKind::Dfs => Solver::Dfs(dfs::Options {
                restart_nodes: self.dfs.restart_nodes.unwrap_or(dfs::Options::default().restart_nodes),
                complete: self.dfs.complete || self.dfs.count.is_some(),
                count_cap: self.dfs.count.unwrap_or(1),
                collect: false,
                flux_prune: self.dfs.flux_prune,
            }),
            SolverKind::Mip => Solver::Mip(mip::Options { log: self.log }),
            SolverKind::Sat => Solver::Sat(self.sat.options()),
            SolverKind::Search => Solver::Search(search::Options {
                order: self.search.order.unwrap_or_default(),
                explain: self.search.explain,
                parallel: self.search.parallel.unwrap_or_default(),
                strips: self.search.strip_test.unwrap_or_default(),
            }),
            SolverKind::Auto => Solver::Auto(portfolio::Options { arms: Vec::new(), progress: true }),
        };
        Ok((solver, limits))
    }
}

/// Flags that only some objectives and solvers take: (flag, objectives, solvers).
/// Every other flag of `solve` (the instance's reading, --time-limit, --seed,
/// --out, --svg, --watch) is taken by all. `solve --help` lists this table.
const TAKEN_BY: &[(&str, &[Objective], &[SolverKind])] = {
    use Objective::{Full, Score};
    use SolverKind::{Auto, Cpsat, Dfs, Mip, Sat, Search};
    &[
        ("--log", &[Full], &[Cpsat, Mip]),
        ("--threads", &[Full, Score], &[Auto, Search, Cpsat]),
        ("--cubes", &[Full], &[Auto, Search, Cpsat, Dfs, Mip, Sat]),
        ("--workers", &[Full, Score], &[Cpsat]),
        ("--model", &[Full], &[Cpsat]),
        ("--strategy", &[Full], &[Cpsat]),
        ("--hint-seconds", &[Full], &[Cpsat]),
        ("--cpsat-param", &[Full], &[Cpsat]),
        ("--dump-model", &[Full], &[Cpsat]),
        ("--restart-nodes", &[Full], &[Dfs]),
        ("--node-limit", &[Full], &[Dfs]),
        ("--flux-prune", &[Full], &[Dfs]),
        ("--complete", &[Full], &[Dfs]),
        ("--count", &[Full], &[Dfs]),
        ("--order", &[Full], &[Search]),
        ("--explain", &[Full], &[Search]),
        ("--parallel", &[Full], &[Search]),
        ("--strip-test", &[Full], &[Search]),
        ("--sat-config", &[Full], &[Sat]),
        ("--am1", &[Full], &[Sat]),
        ("--no-support", &[Full], &[Sat]),
        ("--target", &[Score], &[Auto, Search]),
        ("--breaks", &[Score], &[Auto, Search]),
        ("--attempt-nodes", &[Score], &[Auto, Search]),
        ("--fill-order", &[Score], &[Auto, Search]),
        ("--no-tileable", &[Score], &[Auto, Search]),
        ("--walk", &[Score], &[Auto, Search]),
        ("--quota", &[Score], &[Auto, Search]),
        ("--completion", &[Score], &[Auto, Search]),
        ("--trace", &[Score], SolverKind::SCORING),
        ("--checkpoint", &[Score], SolverKind::SCORING),
        ("--checkpoint-every", &[Score], SolverKind::SCORING),
    ]
};

/// Flags that only one walk of the score search takes.
const WALK_ONLY: &[(&str, score_walk::Walk)] = &[
    ("--no-tileable", score_walk::Walk::Budget),
    ("--quota", score_walk::Walk::Scan),
    ("--completion", score_walk::Walk::Scan),
];

/// The table of [`TAKEN_BY`] for `solve --help`: which flags each objective and solver take.
pub(crate) fn flags_help() -> String {
    let mut text = String::from("Flags taken only by some objectives and solvers (any other is refused, exit 2):\n");
    for (flag, objectives, solvers) in TAKEN_BY {
        let objectives: Vec<&str> = objectives.iter().map(|&o| objective_name(o)).collect();
        let solvers: Vec<String> = solvers.iter().map(ToString::to_string).collect();
        text += &format!("  {flag:<20} --objective {:<11} --solver {}\n", objectives.join(","), solvers.join(","));
    }
    text + "  (--no-tileable: --walk budget only; --quota, --completion: --walk scan only)"
}

/// Whether `flag` is used by `objective` with `solver` (by [`TAKEN_BY`]; a flag not listed is used by all).
pub(crate) fn taken(flag: &str, objective: Objective, solver: SolverKind) -> bool {
    TAKEN_BY
        .iter()
        .find(|(name, _, _)| *name == flag)
        .is_none_or(|(_, o, k)| o.contains(&objective) && k.contains(&solver))
}

impl SolveArgs {
    /// Every flag given, by name, that [`TAKEN_BY`] lists.
    fn given(&self) -> Vec<&'static str> {
        let mut given = given_flags(&[
            ("--log", self.log),
            ("--threads", self.threads.is_some()),
            ("--cubes", self.cubes.is_some()),
        ]);
        given.extend(self.cpsat.given());
        given.extend(self.dfs.given());
        given.extend(self.search.given());
        given.extend(self.sat.given());
        given.extend(self.score.given());
        given
    }

    /// Refuses, naming it, a flag that the objective and solver would not use
    /// (rather than run as if it were not given).
    fn refuse_unused(&self) -> Result<()> {
        let (objective, solver) = (self.objective, self.solver);
        for flag in self.given() {
            if !taken(flag, objective, solver) {
                let (_, objectives, solvers) = TAKEN_BY.iter().find(|(name, _, _)| *name == flag).expect("listed");
                let names = |list: Vec<String>| list.join(", ");
                bail!(
                    "{flag} is not used by --objective {} --solver {solver}: it is taken by --objective {} with --solver {}",
                    objective_name(objective),
                    names(objectives.iter().map(|&o| objective_name(o).to_owned()).collect()),
                    names(solvers.iter().map(ToString::to_string).collect())
                );
            }
        }
        let walk = self.score.walk();
        for &(flag, only) in WALK_ONLY {
            if self.given().contains(&flag) && walk != only {
                bail!("{flag} is an option of --walk {}, not of --walk {}", walk_name(only), walk_name(walk));
            }
        }
        Ok(())
    }

    /// The threads to run: the count given (--threads, or CP-SAT's --workers),
    /// else the solver's own rule on every core. Refuses --threads for a
    /// solver that runs one thread, and two counts for CP-SAT.
    fn threads(&self) -> Result<u32> {
        let single = matches!(self.solver, SolverKind::Dfs | SolverKind::Mip | SolverKind::Sat);
        if self.threads.is_some() && single {
            bail!("--threads: --solver {} runs one thread", self.solver);
        }
        if self.threads.is_some() && self.cpsat.workers.is_some() {
            bail!("--threads and --workers both count CP-SAT's workers: give one");
        }
        let given = self.threads.or(self.cpsat.workers);
        Ok(given.unwrap_or_else(|| self.solver.threads(cores())))
    }
}

fn objective_name(objective: Objective) -> &'static str {
    match objective {
        Objective::Full => "full",
        Objective::Score => "score",
    }
}

fn walk_name(walk: score_walk::Walk) -> &'static str {
    match walk {
        score_walk::Walk::Scan => "scan",
        score_walk::Walk::Budget => "budget",
    }
}

/// Most threads `--threads` takes (far above any machine's cores: a count
/// above the cores still runs, the threads taking turns).
const MAX_THREADS: u32 = 4096;

pub(crate) fn run(args: SolveArgs) -> Result<ExitCode> {
    let (solver, limits) = args.solver()?;
    if args.search.explain {
        log_to_stderr(log::LevelFilter::Info);
    }
    if let Some(k) = args.cubes {
        let loaded = args.source.load(&args.instance)?;
        println!("{}", describe(&args.instance, &loaded));
        let stop = interrupt::install().map_err(anyhow::Error::msg)?;
        return cubes::run_local(&loaded, k, solver, limits, cores(), args.out.as_ref(), &stop);
    }
    let (cube, loaded) = match open_input(&args)? {
        Input::Done(code) => return Ok(code),
        Input::Ready(cube, loaded) => (cube, loaded),
    };
    let instance = &loaded.instance;
    println!("{}", describe(&args.instance, &loaded));
    dump_model(&args, &solver, instance)?;
    let watching = args.watch.start("edgematch solve")?;
    let stop = interrupt::install().map_err(anyhow::Error::msg)?;
    // This line is also the sign, for whoever waits on it, that Ctrl-C is handled from here on.
    let described = match args.objective {
        Objective::Full => solver.describe(&limits),
        Objective::Score => solver.describe_score(&limits, args.score.walk()),
    };
    println!("solver: {described}");
    let running = edgematch::live::begin(&format!("{} on {}", args.solver, loaded.name), instance);
    let Ok(outcome) = solve_objective(&args, &solver, (instance, &limits), &stop)? else { return Ok(Bug::code()) };
    let Ok(code) = report(&args, (&solver, &limits), (&loaded, cube.as_deref()), (&outcome, running), &stop)? else {
        return Ok(Bug::code());
    };
    watching.linger(&stop);
    Ok(code)
}

/// A solver's bug the run ended on: a board the checker rejected (exit 3, the page not kept up).
struct Bug;

impl Bug {
    fn code() -> ExitCode {
        ExitCode::from(3)
    }
}

/// What `solve` reads: an instance (or a cube of one), or a cube already done.
enum Input {
    Done(ExitCode),
    Ready(Option<Box<edgematch::cubes::Cube>>, Loaded),
}

/// Opens the instance argument: a cube file written by `split`, or an instance.
fn open_input(args: &SolveArgs) -> Result<Input> {
    let cube = match cubes::open(&args.instance)? {
        cubes::CubeInput::Done(code) => return Ok(Input::Done(code)),
        cubes::CubeInput::Cube(cube) => Some(cube),
        cubes::CubeInput::Instance => None,
    };
    let loaded = match &cube {
        Some(cube) => cubes::loaded(cube),
        None => args.source.load(&args.instance)?,
    };
    Ok(Input::Ready(cube, loaded))
}

/// Writes CP-SAT's model where `--dump-model` asks, before solving.
fn dump_model(args: &SolveArgs, solver: &Solver, instance: &Instance) -> Result<()> {
    if let (Solver::Cpsat(options), Some(path)) = (solver, &args.cpsat.dump_model) {
        cpsat::policy::model_size(instance, options.formulation)?;
        let model = cpsat::model::build(instance, options.formulation);
        write_atomic(path, &model.proto.encode_to_vec())?;
        eprintln!("wrote the model to {}", path.display());
    }
    Ok(())
}

/// Runs the objective asked for; `Err(Bug)` when a score run's board was rejected.
fn solve_objective(
    args: &SolveArgs,
    solver: &Solver,
    (instance, limits): (&Instance, &Limits),
    stop: &Stop,
) -> Result<Result<Outcome, Bug>> {
    Ok(match args.objective {
        Objective::Full => Ok(solver.solve(instance, limits, stop)?),
        Objective::Score => {
            let scored = score::solve(&args.score, solver, instance, limits, stop, args.out.as_deref())?;
            match scored.rejected {
                Some(why) => {
                    eprintln!("edgematch: {why}; this is a bug");
                    Err(Bug)
                }
                None => Ok(scored.outcome),
            }
        }
    })
}

/// Prints the outcome, checks its board (`Err(Bug)` when the checker rejects
/// it), records a cube's result, writes the board, and gives the exit code.
fn report(
    args: &SolveArgs,
    (solver, limits): (&Solver, &Limits),
    (loaded, cube): (&Loaded, Option<&edgematch::cubes::Cube>),
    (outcome, running): (&Outcome, edgematch::live::Running<'_>),
    stop: &Stop,
) -> Result<Result<ExitCode, Bug>> {
    let instance = &loaded.instance;
    let status =
        if stop.is_raised() && outcome.status != Status::Solved { Status::Interrupted } else { outcome.status };
    println!("status: {status}");
    println!("wall time: {:.3} s", outcome.seconds);
    for (name, value) in outcome.stats.lines(outcome.seconds) {
        println!("{name}: {value}");
    }
    let verified = match solver::accept(instance, outcome.status, outcome.board.as_ref()) {
        Ok(verified) => verified,
        Err(error) => {
            eprintln!("edgematch: {error}; this is a bug");
            return Ok(Err(Bug));
        }
    };
    running.end(&status.to_string());
    if let Some(cube) = cube
        && !cubes::record(&args.instance, cube, status, outcome, &solver.describe(limits))?
    {
        return Ok(Err(Bug));
    }
    if let (Some(report), Some(board)) = (&verified.report, &outcome.board) {
        print!("checker: {}", report.summary(20));
        if !verified.solved {
            println!("best board found: score {}/{} (verified)", report.score, report.max_score);
        }
        print_board(board);
        write_board(args, instance, board, &loaded.name)?;
        if args.objective == Objective::Score && board.placed() == board.cells.len() && bucas::can_write(instance) {
            println!("view: {}", bucas::to_link(board, instance, &loaded.name));
        }
    }
    Ok(Ok(unless_interrupted(if verified.solved { ExitCode::SUCCESS } else { ExitCode::from(1) })))
}

/// Writes the verified board where `--out` and `--svg` ask (a score run's
/// `--out` is its best-board file, already written by its one owner).
fn write_board(args: &SolveArgs, instance: &Instance, board: &Board, title: &str) -> Result<()> {
    if let Some(path) = &args.out {
        if args.objective == Objective::Full {
            write_atomic(path, board_json::to_string(board).as_bytes())?;
        }
        println!("wrote {}", path.display());
    }
    if let Some(path) = &args.svg {
        write_atomic(path, render::svg(instance, board, title, render::Style::default()).as_bytes())?;
        println!("wrote {}", path.display());
    }
    Ok(())
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
