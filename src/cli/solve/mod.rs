//! `edgematch solve`: one solver on one instance; every board goes through the checker before it is shown.

use std::process::ExitCode;

use anyhow::Result;
use edgematch::formats::load::Loaded;
use edgematch::formats::{board_json, bucas};
use edgematch::output::write_atomic;
use edgematch::puzzle::{Board, Instance};
use edgematch::solver::{self, Limits, Objective, Outcome, Solver, Status};
use edgematch::stop::Stop;
use edgematch::{cpsat, interrupt, render};
use prost::Message as _;

use super::args::cores;
use super::cubes;
use super::score;
use super::show::{describe, log_to_stderr, unless_interrupted};

mod args;
#[cfg(test)]
mod tests;

pub(crate) use args::{SolveArgs, flags_help};

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
        Objective::Score => solver.describe_score(&limits),
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
        Objective::Score => match score::solve(&args.score, solver, instance, limits, stop, args.out.as_deref()) {
            Err(error) if matches!(error.downcast_ref(), Some(edgematch::Error::Rejected(_))) => {
                eprintln!("edgematch: {error}; this is a bug");
                Err(Bug)
            }
            scored => Ok(scored?),
        },
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
        match args.objective {
            Objective::Full => {
                write_atomic(path, board_json::to_string(board).as_bytes())?;
                println!("wrote {}", path.display());
            }
            // Written by the run's one owner as each best came: said only if the file holds this board.
            Objective::Score if board_json::read(path).is_ok_and(|on_disk| on_disk == *board) => {
                println!("wrote {}", path.display());
            }
            Objective::Score => eprintln!("edgematch: {} does not hold the best board (see above)", path.display()),
        }
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
