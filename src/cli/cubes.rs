//! `solve` on cubes: a cube file (its result file written beside it), or
//! `--cubes K` (the instance split in memory, the cubes run over the local cores).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Result;
use edgematch::check::check;
use edgematch::cpu;
use edgematch::cubes::result::{self, CubeResult, result_path};
use edgematch::cubes::{self, Cube, file, local};
use edgematch::error::Error;
use edgematch::formats::{board_json, load};
use edgematch::output::write_atomic;
use edgematch::portfolio;
use edgematch::solver::{self, Limits, Outcome, Solver, Status};
use edgematch::stop::Stop;

use super::split::DEFAULT_ORDER;

/// What `solve` was given, as far as cubes go.
pub(crate) enum CubeInput {
    /// Not a cube file: solve it as an instance.
    Instance,
    /// A cube whose result file already holds a final answer: nothing to run.
    Done(ExitCode),
    /// A cube to solve.
    Cube(Box<Cube>),
}

/// Reads `path` as a cube file if it is one. A cube whose result file says
/// solved or infeasible (for this very cube) is not run again: rerunning an
/// array after a preemption only runs the cubes that did not finish.
pub(crate) fn open(path: &Path) -> Result<CubeInput> {
    if !file::is_cube(path) {
        return Ok(CubeInput::Instance);
    }
    let cube = file::read_cube(path)?;
    let done = result_path(path);
    if done.is_file() {
        let previous = result::read(&done, &cube.instance.instance)?;
        if previous.is_for(&cube) && previous.is_final() {
            println!(
                "cube {} of {}: already {} ({}); delete it to run the cube again",
                cube.index,
                cube.count,
                previous.status,
                done.display()
            );
            return Ok(CubeInput::Done(if previous.status == Status::Solved {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            }));
        }
    }
    Ok(CubeInput::Cube(Box::new(cube)))
}

/// The cube's sub-instance as `solve` loads instances.
pub(crate) fn loaded(cube: &Cube) -> load::Loaded {
    let name = cube.instance.name.clone().unwrap_or_else(|| "instance".to_owned());
    let instance = cube.sub_instance();
    let clue_names = (1..=instance.clues.len()).map(|k| format!("clue {k}")).collect();
    load::Loaded { instance, name: format!("{name} cube {} of {}", cube.index, cube.count), clue_names, columns: None }
}

/// After a cube's solve: checks a board against the ORIGINAL instance, then
/// writes the cube's result file. Returns false if the board fails there.
pub(crate) fn record(path: &Path, cube: &Cube, status: Status, outcome: &Outcome, solver: &str) -> Result<bool> {
    let original = &cube.instance.instance;
    let board = outcome.board.clone().filter(|_| status == Status::Solved);
    if let Some(board) = &board {
        let report = check(original, board);
        if !report.is_solution() {
            eprint!("edgematch: the board fails the original instance: {}", report.summary(20));
            return Ok(false);
        }
        println!("checker (original instance): {}", report.verdict());
    }
    let result = CubeResult {
        cube: cube.index,
        cubes: cube.count,
        instance_sha256: cube.instance_sha256.clone(),
        fixed: cube.fixed.clone(),
        status,
        seconds: outcome.seconds,
        cpu_seconds: cpu::process_seconds(),
        nodes: outcome.stats.nodes().map(|(nodes, _)| nodes),
        solver: solver.to_owned(),
        host: result::host_name(),
        board,
    };
    let out = result_path(path);
    result::write(&out, original, &result)?;
    println!("wrote {}", out.display());
    Ok(true)
}

/// `solve --cubes K`: splits in memory and runs the cubes on `workers` threads,
/// each cube's solve on one thread (`auto` runs the arm it would pick for one core).
pub(crate) fn run_local(
    loaded: &load::Loaded,
    k: u64,
    solver: Solver,
    limits: Limits,
    workers: u32,
    out: Option<&PathBuf>,
    stop: &Stop,
) -> Result<ExitCode> {
    let instance = &loaded.instance;
    let order = DEFAULT_ORDER.parse().map_err(anyhow::Error::msg)?;
    let split = cubes::split(instance, order, k as usize)?;
    let (low, high) = split.depths();
    println!(
        "cubes: {} (at least {k}), {low}..={high} fixed cells each along {DEFAULT_ORDER}, {} dead ends",
        split.cubes.len(),
        split.dead_ends
    );
    let solver = match solver {
        Solver::Auto(_) => {
            Solver::Auto(portfolio::Options { arms: solver::default_arms(instance, 1), progress: false })
        }
        other => other,
    };
    let limits = Limits { threads: 1, ..limits };
    println!("solver: {} per cube, {workers} cubes at a time", solver.describe(&limits));
    let answer = match local::solve(instance, &split, &solver, &limits, workers as usize, true, stop) {
        Ok(answer) => answer,
        Err(Error::Rejected(why)) => {
            eprintln!("edgematch: {why}; this is a bug");
            return Ok(ExitCode::from(3));
        }
        Err(e) => return Err(e.into()),
    };
    println!("cube  status        seconds  cpu_seconds");
    for (i, run) in answer.runs.iter().enumerate() {
        match run {
            Some(r) => {
                println!("{:>4}  {:<12} {:>8.2} {:>12.2}", i + 1, r.status.to_string(), r.seconds, r.cpu_seconds)
            }
            None => println!("{:>4}  {:<12}", i + 1, "not run"),
        }
    }
    println!("status: {}", answer.status);
    println!("wall time: {:.3} s", answer.seconds);
    println!("cpu time: {:.3} s", answer.cpu_seconds);
    if let (Some(board), Some(cube)) = (&answer.board, answer.cube) {
        print!("checker (original instance, board of cube {}): {}", cube + 1, check(instance, board).summary(20));
        if let Some(path) = out {
            write_atomic(path, board_json::to_string(board).as_bytes())?;
            println!("wrote {}", path.display());
        }
    }
    Ok(super::show::unless_interrupted(match answer.status {
        Status::Solved => ExitCode::SUCCESS,
        _ => ExitCode::from(1),
    }))
}
