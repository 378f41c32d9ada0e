//! `bench reach`: every arm (the portfolio, each single solver, and two reference tools)
//! on the planted boards of `models/` and the published puzzles of `data/`, every board verified.
//!
//! Jobs are enumerated board by board (planted boards by colours, size and seed,
//! then the puzzles), all arms of one board one after the other, so the arms of a
//! board meet the same machine load. `--shard k/N` and resuming work as in
//! `bench cliff`: job i belongs to shard i mod N, and jobs already in the runs
//! file are skipped, so a killed bench loses at most the run in flight.

use std::path::PathBuf;

use super::cliff::Colours;
use super::external::{self, Puzzle};
use super::records::round3;
use super::records::{BenchArm, Provenance, Run, job_key};
use super::reference::{self, Reference};
use super::runs::{append_run, pending};
use crate::error::Error;
use crate::formats::instance_json;
use crate::generate::{PlantedSpec, planted};
use crate::puzzle::Instance;
use crate::search;
use crate::solver::{self, Accepted, Limits, Solver, SolverKind, Status};
use crate::stop::Stop;

/// What `bench reach` runs.
#[derive(Clone, Debug)]
pub struct ReachConfig {
    /// Arms to run on each board, in this order.
    pub arms: Vec<BenchArm>,
    /// Planted board sides (none: no planted boards).
    pub sizes: Vec<usize>,
    /// Planted colour settings.
    pub colours: Vec<Colours>,
    /// Planted seeds.
    pub seeds: Vec<u64>,
    /// Published puzzle collections to add (`heule2008`, `heule2008-shuffled`, `brendan`, `clue-puzzles`).
    pub collections: Vec<String>,
    /// Largest side of a published puzzle to run.
    pub max_puzzle_side: usize,
    /// The data folder.
    pub data: PathBuf,
    /// Limit per run in seconds, unless `limit_at` names the size.
    pub limit: f64,
    /// Per-size limits.
    pub limit_at: Vec<(usize, f64)>,
    /// Cores the arms may use (the portfolio's threads, CP-SAT's workers).
    pub cores: u32,
    /// Where planted instances are read from (generated in memory when absent).
    pub models_dir: PathBuf,
    /// The runs file (JSON lines), appended to.
    pub runs: PathBuf,
    /// This shard and the shard count (1-based k of N).
    pub shard: (usize, usize),
}

/// A board of the bench.
#[derive(Clone, Debug)]
enum Board {
    Planted(PlantedSpec, Colours),
    Puzzle(Puzzle),
}

/// One run to make.
#[derive(Clone, Debug)]
struct Job {
    arm: BenchArm,
    board: Board,
    budget: f64,
}

impl Job {
    fn instance_name(&self) -> String {
        match &self.board {
            Board::Planted(spec, _) => spec.name(),
            Board::Puzzle(puzzle) => puzzle.name.clone(),
        }
    }

    fn key(&self) -> String {
        job_key(self.arm, &self.instance_name(), self.budget)
    }
}

/// Every job of the configuration, in the fixed order, before sharding.
fn jobs(config: &ReachConfig) -> Result<Vec<Job>, Error> {
    let budget = |size: usize| config.limit_at.iter().find(|(s, _)| *s == size).map_or(config.limit, |x| x.1);
    let mut boards = Vec::new();
    for &colours in &config.colours {
        for &size in &config.sizes {
            for &seed in &config.seeds {
                let spec = PlantedSpec::square(size, colours.frame, colours.interior, seed);
                boards.push((Board::Planted(spec, colours), budget(size)));
            }
        }
    }
    if !config.collections.is_empty() {
        for puzzle in external::catalogue(&config.data)? {
            // Only the chosen collections' files are read.
            if !config.collections.iter().any(|c| c == puzzle.collection()) {
                continue;
            }
            let (instance, _) = puzzle.read()?;
            let side = instance.grid.width.max(instance.grid.height);
            if side <= config.max_puzzle_side {
                boards.push((Board::Puzzle(puzzle), budget(side)));
            }
        }
    }
    Ok(boards
        .into_iter()
        .flat_map(|(board, budget)| config.arms.iter().map(move |&arm| Job { arm, board: board.clone(), budget }))
        .collect())
}

/// The instance of a job, with its rung: (colour setting or collection, side, seed).
fn load(config: &ReachConfig, job: &Job) -> Result<(Instance, String, usize, u64), Error> {
    match &job.board {
        Board::Planted(spec, colours) => {
            let path = config.models_dir.join(format!("{}.json", spec.name()));
            let instance = if path.is_file() { instance_json::read(&path)?.instance } else { planted(spec)?.instance };
            Ok((instance, colours.to_string(), spec.grid.width, spec.seed))
        }
        Board::Puzzle(puzzle) => {
            let (instance, _) = puzzle.read()?;
            let side = instance.grid.width.max(instance.grid.height);
            Ok((instance, puzzle.collection().to_owned(), side, 0))
        }
    }
}

/// The threads an arm runs on a machine of `cores` cores: the bench gives the
/// portfolio, CP-SAT (its variants and the Python reference's) and the search
/// race every core, and each other arm one; the solver's own rule
/// ([`SolverKind::threads`]) turns its cores into threads.
fn threads(arm: BenchArm, cores: u32) -> u32 {
    match arm {
        BenchArm::Solver(kind @ (SolverKind::Cpsat | SolverKind::Auto)) => kind.threads(cores),
        BenchArm::Solver(kind) => kind.threads(1),
        BenchArm::Cpsat(_) => SolverKind::Cpsat.threads(cores),
        BenchArm::SearchRace => SolverKind::Search.threads(cores),
        BenchArm::PythonElement => cores,
        BenchArm::MinizincGecode => 1,
    }
}

/// What one arm did on one instance.
struct ArmResult {
    status: Status,
    verified: Accepted,
    seconds: f64,
    /// Nodes and restarts, for solvers that count them.
    nodes: Option<(u64, u64)>,
}

/// Runs one arm on one instance; its board is verified.
fn run_arm(arm: BenchArm, instance: &Instance, limits: &Limits, stop: &Stop) -> Result<ArmResult, Error> {
    match arm {
        BenchArm::Solver(kind) => run_solver(&Solver::new(kind), instance, limits, stop),
        BenchArm::Cpsat(variant) => run_solver(&Solver::Cpsat(variant.options()), instance, limits, stop),
        BenchArm::SearchRace => {
            let options = search::Options { parallel: search::Parallel::Race, ..search::Options::default() };
            run_solver(&Solver::Search(options), instance, limits, stop)
        }
        BenchArm::PythonElement | BenchArm::MinizincGecode => {
            let tool =
                if arm == BenchArm::PythonElement { Reference::PythonElement } else { Reference::MinizincGecode };
            let time_limit = limits.time_limit.unwrap_or(f64::INFINITY);
            let answer = reference::solve(tool, instance, time_limit, stop)?;
            let verified = solver::accept(instance, answer.status, answer.board.as_ref())?;
            Ok(ArmResult { status: answer.status, verified, seconds: answer.seconds, nodes: None })
        }
    }
}

/// Runs one of edgematch's solvers; its board is verified.
fn run_solver(solver: &Solver, instance: &Instance, limits: &Limits, stop: &Stop) -> Result<ArmResult, Error> {
    let (outcome, verified) = solver::solve_accepted(solver, instance, limits, stop)?;
    Ok(ArmResult { status: outcome.status, verified, seconds: outcome.seconds, nodes: outcome.stats.nodes() })
}

/// Why an arm cannot run here, if it cannot (a reference tool that is not installed).
pub fn unavailable(arm: BenchArm) -> Option<String> {
    match arm {
        BenchArm::PythonElement => reference::available(Reference::PythonElement).err(),
        BenchArm::MinizincGecode => reference::available(Reference::MinizincGecode).err(),
        BenchArm::Solver(_) | BenchArm::Cpsat(_) | BenchArm::SearchRace => None,
    }
}

/// Runs the jobs of this shard that the runs file does not hold yet; returns
/// how many ran. An arm whose tool is missing is skipped with a message.
/// Stops when `stop` is raised, without recording the run in flight.
pub fn run(config: &ReachConfig, provenance: &Provenance, stop: &Stop) -> Result<usize, Error> {
    let mut arms = config.arms.clone();
    arms.retain(|&arm| match unavailable(arm) {
        Some(why) => {
            eprintln!("reach: skipped {arm}: {why}");
            false
        }
        None => true,
    });
    let all = jobs(&ReachConfig { arms, ..config.clone() })?;
    let todo = pending(&config.runs, "reach", all, config.shard, Run::key, Job::key)?;
    for (i, job) in todo.iter().enumerate() {
        if stop.is_raised() {
            break;
        }
        let (instance, colours, size, seed) = load(config, job)?;
        eprint!("reach: [{}/{}] {} {} s {} ... ", i + 1, todo.len(), job.arm, job.budget, job.instance_name());
        let limits =
            Limits { time_limit: Some(job.budget), node_limit: None, seed: 1, threads: threads(job.arm, config.cores) };
        let ArmResult { status, verified, seconds, nodes } = run_arm(job.arm, &instance, &limits, stop)?;
        if stop.is_raised() {
            eprintln!("interrupted (not recorded)");
            break;
        }
        eprintln!("{status}, {} in {seconds:.2} s", if verified.solved { "verified" } else { "no solution" });
        let (nodes, restarts) = nodes.unzip();
        let run = Run {
            arm: job.arm,
            instance: job.instance_name(),
            size,
            colours,
            seed,
            budget: job.budget,
            status,
            solved: verified.solved,
            board: Some(verified.report.is_some()),
            verified_score: verified.score,
            target: instance.grid.max_score(),
            seconds: round3(seconds),
            nodes,
            restarts,
            model: None,
            provenance: provenance.with_workers(limits.threads),
        };
        append_run(&config.runs, &run)?;
    }
    Ok(todo.len())
}
