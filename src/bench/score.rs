//! `bench score`: per board and budget, the best verified score and the time each arm took to reach each score.
//!
//! The boards are those where no solver here completes a board: the official
//! Eternity II set (its centre clue only, or all five clues) and planted
//! 5+17 boards. The arms are what a user could run for the score: the
//! scan walk with CP-SAT completing its deep partial boards, the same walk
//! then CP-SAT's exact repair of regions of its best board,
//! CP-SAT maximizing the matched joins of the whole board, the HiGHS MIP, and
//! the DFS's deepest (partial) board, which the field does not score but the
//! seed measured. Every board an arm reports, on the way and at the end, is
//! run through the checker before it counts. Jobs, shards and resuming work as
//! in `bench cliff`.

use std::path::PathBuf;
use std::sync::Mutex;

use serde::{Deserialize, Serialize};

use super::records::{Provenance, round3};
use super::runs::{append_run, pending};
use crate::check::check;
use crate::error::Error;
use crate::formats::{instance_json, load, piece_list::Columns};
use crate::generate::{PlantedSpec, planted};
use crate::outcome::{Ranked, rank};
use crate::puzzle::{Board, Instance};
use crate::solver::{self, Limits, Solver, Status};
use crate::stop::Stop;
use crate::{score, score_run};

use super::score_record::job_key;
pub use super::score_record::{ScoreArm, ScoreRun};

impl Serialize for ScoreArm {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}

impl<'de> Deserialize<'de> for ScoreArm {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<ScoreArm, D::Error> {
        String::deserialize(deserializer)?.parse().map_err(serde::de::Error::custom)
    }
}

/// A board of the bench, by name: `official-centre` (the official set with
/// its centre clue), `official-five` (all five clues), or a planted board's
/// name such as `planted-13x13-f5i17-s1`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ScoreBoard {
    /// The official set, with the clue file of `data/official/` named.
    Official {
        /// `official-centre` or `official-five`.
        name: &'static str,
        /// The clue list under `data/official/`.
        clues: &'static str,
    },
    /// A planted board.
    Planted(PlantedSpec),
}

impl ScoreBoard {
    /// The official set with the centre clue only (as the 467 and 470 records).
    pub const CENTRE: ScoreBoard = ScoreBoard::Official { name: "official-centre", clues: "clue-centre.txt" };
    /// The official set with all five clues.
    pub const FIVE: ScoreBoard = ScoreBoard::Official { name: "official-five", clues: "clues.txt" };

    /// The board's name in runs files and tables.
    pub fn name(&self) -> String {
        match self {
            ScoreBoard::Official { name, .. } => (*name).to_owned(),
            ScoreBoard::Planted(spec) => spec.name(),
        }
    }

    /// Reads the instance: the official set from `data`, a planted board
    /// from `models` when it is there, else generated.
    pub fn instance(&self, data: &std::path::Path, models: &std::path::Path) -> Result<Instance, Error> {
        match self {
            ScoreBoard::Official { clues, .. } => {
                let official = data.join("official");
                let options = load::InstanceOptions {
                    columns: Some("bltr".parse::<Columns>().map_err(Error::Options)?),
                    size: None,
                    clues: Some(&official.join(clues)),
                };
                Ok(load::instance(&official.join("pieces.txt"), &options)?.instance)
            }
            ScoreBoard::Planted(spec) => {
                let path = models.join(format!("{}.json", spec.name()));
                if path.is_file() { Ok(instance_json::read(&path)?.instance) } else { Ok(planted(spec)?.instance) }
            }
        }
    }
}

/// What `bench score` runs.
#[derive(Clone, Debug)]
pub struct ScoreConfig {
    /// Arms to run on each board, in this order.
    pub arms: Vec<ScoreArm>,
    /// Boards, in this order.
    pub boards: Vec<ScoreBoard>,
    /// Budgets in seconds: every arm runs on every board at each.
    pub budgets: Vec<f64>,
    /// The data folder (the official set).
    pub data: PathBuf,
    /// Where planted instances are read from (generated in memory when absent).
    pub models_dir: PathBuf,
    /// Cores: the walk's threads and CP-SAT's workers.
    pub cores: u32,
    /// The runs file (JSON lines), appended to.
    pub runs: PathBuf,
    /// This shard and the shard count (1-based k of N).
    pub shard: (usize, usize),
    /// The run seeds: every arm runs on every board at each budget once per seed.
    pub run_seeds: Vec<u64>,
}

/// One run to make.
#[derive(Clone, Debug)]
struct Job {
    arm: ScoreArm,
    board: ScoreBoard,
    budget: f64,
    seed: u64,
}

impl Job {
    fn key(&self) -> String {
        job_key(self.arm, &self.board.name(), self.budget, self.seed)
    }
}

/// Every job, board by board and budget by budget, the arms of one board together.
fn jobs(config: &ScoreConfig) -> Vec<Job> {
    let mut jobs = Vec::new();
    for board in &config.boards {
        for &budget in &config.budgets {
            for &seed in &config.run_seeds {
                for &arm in &config.arms {
                    jobs.push(Job { arm, board: board.clone(), budget, seed });
                }
            }
        }
    }
    jobs
}

/// The threads an arm runs: the walk and CP-SAT take every core, the MIP and the DFS one.
fn threads(arm: ScoreArm, cores: u32) -> u32 {
    match arm {
        ScoreArm::Search | ScoreArm::Auto | ScoreArm::Repair | ScoreArm::Cpsat | ScoreArm::Blackwood => {
            arm.kind().threads(cores)
        }
        ScoreArm::Mip | ScoreArm::Dfs => arm.kind().threads(1),
    }
}

/// The best board an arm found, its verified trace, the run's seconds, and what a score search adds.
#[derive(Default)]
struct Found {
    board: Option<Board>,
    trace: Vec<(f64, usize)>,
    seconds: f64,
    census: Vec<(usize, u64)>,
    plan: String,
    /// The checker's word on a board it rejected (the run ended there).
    error: Option<String>,
}

/// The verified new bests of a run, as (seconds, score).
#[derive(Default)]
struct Traced {
    trace: Mutex<Vec<(f64, usize)>>,
}

impl score_run::Sink for Traced {
    fn best(&self, best: &score_run::Verified<'_>) {
        self.trace.lock().unwrap_or_else(|e| e.into_inner()).push((round3(best.seconds), best.score));
    }
}

/// Runs one arm, through the library's score run as `solve` runs it: each
/// new best passes the checker before it joins the trace, and a board the
/// checker rejects ends the run with its word in [`Found::error`].
fn run_arm(arm: ScoreArm, instance: &Instance, limits: &Limits, stop: &Stop) -> Result<Found, Error> {
    match arm {
        ScoreArm::Blackwood => return run_blackwood(instance, limits, stop),
        ScoreArm::Repair => return Err(Error::Options(format!("the {arm} arm was retired in issue 52"))),
        _ => {}
    }
    let solver = Solver::new(arm.kind());
    if arm == ScoreArm::Dfs {
        let (outcome, _) = solver::solve_accepted(&solver, instance, limits, stop)?;
        return Ok(Found { board: outcome.board, seconds: outcome.seconds, ..Found::default() });
    }
    let traced = Traced::default();
    let running = crate::live::begin(&format!("{arm} for the score on a {} board", instance.grid), instance);
    let run = score_run::Run::open(instance, &solver, score::Options::default(), limits, score_run::Setup::default())?;
    let outcome = match run.solve(stop, &traced) {
        // The run's bugs (a rejected board, a thread that died) become the job's error record.
        Err(Error::Rejected(why)) => return Ok(Found { error: Some(why), ..Found::default() }),
        Err(died @ Error::Panicked { .. }) => return Ok(Found { error: Some(died.to_string()), ..Found::default() }),
        outcome => outcome?,
    };
    running.end(&outcome.status.to_string());
    let mut trace = traced.trace.into_inner().unwrap_or_else(|e| e.into_inner());
    trace.sort_by(|a, b| a.0.total_cmp(&b.0));
    let (census, plan) = match outcome.stats {
        solver::Stats::Score(stats) => (stats.census, stats.plan),
        _ => (Vec::new(), String::new()),
    };
    Ok(Found { board: outcome.board, trace, seconds: outcome.seconds, census, plan, error: None })
}

/// The record of `job` ended by the checker's rejection `why`: score 0, the error named.
fn rejected_run(job: &Job, instance: &Instance, why: &str, provenance: Provenance) -> ScoreRun {
    ScoreRun {
        arm: job.arm,
        board: job.board.name(),
        budget: job.budget,
        max_score: instance.grid.max_score(),
        score: 0,
        placed: 0,
        cells: instance.grid.cells(),
        best_seconds: 0.0,
        seconds: 0.0,
        trace: Vec::new(),
        seed: job.seed,
        census: Vec::new(),
        plan: String::new(),
        error: Some(why.to_owned()),
        provenance,
    }
}

/// What the reference arm settles, for the plans table: the port's own method, completed as ours.
const REFERENCE_PLAN: &str = "the port's published plan (band order, breaks at 201-239, quota colours 13, 16, 10 \
     in its numbering: 5, 7, 20 in ours); each saved board completed during its run by the completer of ours";

/// The reference arm: the port runs for the budget on the arm's threads, and
/// each board it saves goes, as it is saved, to the completer our walks'
/// boards go to ([`score::outside`]): the same queue, bound, CP-SAT
/// completion and keeper, on a thread of its own beside the port's walks
/// until the budget, as ours runs beside our walks. The two arms still
/// differ beyond their walks: every board the port saves is offered (it
/// saves at each new depth of an attempt past its save threshold), to one
/// fixed CP-SAT worker; our walks offer by the run's `CELLS:EVERY` rule
/// ([`score::Completion`]) to a pool of workers the run sizes from its own
/// figures. A saved board that breaks a rule other than a mismatched join
/// ends the arm with an error.
fn run_blackwood(instance: &Instance, limits: &Limits, stop: &Stop) -> Result<Found, Error> {
    let budget = limits.time_limit.unwrap_or(f64::INFINITY);
    let handed: Mutex<Vec<Board>> = Mutex::new(Vec::new());
    let broken: Mutex<Option<String>> = Mutex::new(None);
    let on_saved = |saved: &crate::bench::reference::blackwood::Saved| {
        let report = check(instance, &saved.board);
        if report.only_joins_mismatch() {
            handed.lock().unwrap_or_else(|e| e.into_inner()).push(saved.board.clone());
        } else {
            let _ = broken.lock().unwrap_or_else(|e| e.into_inner()).get_or_insert(report.summary(3));
        }
    };
    let feed = || std::mem::take(&mut *handed.lock().unwrap_or_else(|e| e.into_inner()));
    let trace: Mutex<Vec<(f64, usize)>> = Mutex::new(Vec::new());
    let on_best = |best: &score::Best| {
        let mut trace = trace.lock().unwrap_or_else(|e| e.into_inner());
        if let Ok(Ranked::Better(score)) = rank(instance, &best.board, trace.last().map(|&(_, s)| s)) {
            trace.push((round3(best.seconds), score));
        }
    };
    let completion = score::completion_times::thresholds(instance);
    let arm = stop.child();
    let (ran, outcome) = std::thread::scope(|scope| {
        let completing = scope.spawn(|| score::outside::complete(instance, &completion, limits, &arm, &feed, &on_best));
        let ran = crate::bench::reference::blackwood::solve(instance, limits.threads, budget, stop, &on_saved);
        if ran.is_err() {
            arm.raise();
        }
        (ran, completing.join().map_err(|_| Error::Options("blackwood: the completer panicked".to_owned())))
    });
    let (ran, outcome) = (ran?, outcome??);
    if let Some(rule) = broken.into_inner().unwrap_or_else(|e| e.into_inner()) {
        return Err(Error::Options(format!("blackwood: a saved board breaks a rule: {rule}")));
    }
    let trace = trace.into_inner().unwrap_or_else(|e| e.into_inner());
    Ok(Found {
        board: outcome.board,
        trace,
        seconds: ran.seconds.max(outcome.seconds),
        census: outcome.stats.census,
        plan: REFERENCE_PLAN.to_owned(),
        error: None,
    })
}

/// Why a job cannot run here: the reference without its checkout, or on a
/// board other than the official set with its centre clue (the only one it has).
fn skipped(job: &Job) -> Option<String> {
    if job.arm != ScoreArm::Blackwood {
        return None;
    }
    if job.board != ScoreBoard::CENTRE {
        return Some("it knows only the official set with its centre clue".to_owned());
    }
    crate::bench::reference::blackwood::binary().err()
}

/// Runs the jobs of this shard that the runs file does not hold yet; returns
/// how many ran. Stops when `stop` is raised, without recording the run in flight.
pub fn run(config: &ScoreConfig, provenance: &Provenance, stop: &Stop) -> Result<usize, Error> {
    let todo = pending(&config.runs, "score", jobs(config), config.shard, ScoreRun::key, Job::key)?;
    // The jobs of one board come together: its instance is read once for them.
    let mut loaded: Option<(String, Instance)> = None;
    for (i, job) in todo.iter().enumerate() {
        if stop.is_raised() {
            break;
        }
        let name = job.board.name();
        let instance = match loaded.take() {
            Some((n, instance)) if n == name => instance,
            _ => job.board.instance(&config.data, &config.models_dir)?,
        };
        let instance = &loaded.insert((name, instance)).1;
        if let Some(why) = skipped(job) {
            eprintln!("score: [{}/{}] {} on {}: skipped ({why})", i + 1, todo.len(), job.arm, job.board.name());
            continue;
        }
        let (arm, budget, board, seed) = (job.arm, job.budget, job.board.name(), job.seed);
        eprint!("score: [{}/{}] {arm} {budget} s {board} seed {seed} ... ", i + 1, todo.len());
        let limits = Limits {
            time_limit: Some(job.budget),
            node_limit: None,
            seed: job.seed,
            threads: threads(job.arm, config.cores),
        };
        let found = run_arm(job.arm, instance, &limits, stop)?;
        if let Some(why) = found.error {
            append_run(&config.runs, &rejected_run(job, instance, &why, provenance.with_workers(limits.threads)))?;
            return Err(Error::Rejected(why));
        }
        if stop.is_raised() {
            eprintln!("interrupted (not recorded)");
            break;
        }
        let accepted = solver::accept(instance, Status::Unknown, found.board.as_ref())?;
        let placed = found.board.as_ref().map_or(0, Board::placed);
        let best_seconds = found.trace.last().map_or(found.seconds, |p| p.0);
        eprintln!("{}/{} ({placed} cells) in {:.1} s", accepted.score, instance.grid.max_score(), found.seconds);
        let run = ScoreRun {
            arm: job.arm,
            board: job.board.name(),
            budget: job.budget,
            max_score: instance.grid.max_score(),
            score: accepted.score,
            placed,
            cells: instance.grid.cells(),
            best_seconds,
            seconds: round3(found.seconds),
            trace: found.trace,
            seed: job.seed,
            census: found.census,
            plan: found.plan,
            error: None,
            provenance: provenance.with_workers(limits.threads),
        };
        append_run(&config.runs, &run)?;
    }
    Ok(todo.len())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::SolverKind;

    /// Catches a renamed arm (or a changed `strum` rule): the committed runs files under `results/score/` name these.
    #[test]
    fn arm_names_are_those_of_the_runs_files() {
        let names: Vec<&str> = ScoreArm::ALL.iter().map(|a| a.name()).collect();
        assert_eq!(names, ["search", "auto", "search+repair", "cpsat", "mip", "dfs", "blackwood"]);
        for &arm in ScoreArm::ALL {
            assert_eq!(arm.name().parse::<ScoreArm>(), Ok(arm));
        }
    }

    /// `--arms` takes every arm but the retired one, whose rows runs files
    /// still hold: catches the old `auto` (walk, then repair) run again under
    /// its name, or a runs file with it that no longer reads.
    #[test]
    fn the_retired_arm_is_read_but_not_run() {
        assert!(ScoreArm::runnable("search+repair").unwrap_err().contains("retired"));
        assert_eq!(ScoreArm::runnable("auto"), Ok(ScoreArm::Auto));
        let line = r#""search+repair""#;
        assert_eq!(serde_json::from_str::<ScoreArm>(line).unwrap(), ScoreArm::Repair);
    }

    /// The bench's solver arms are the score-capable solvers, every one of
    /// them: catches a solver given a score mode (or losing one) without the
    /// bench following. The DFS (its deepest partial board) and Blackwood's
    /// solver are the references beside them; search+repair is retired.
    #[test]
    fn the_solver_arms_are_the_scoring_solvers() {
        let references = [ScoreArm::Dfs, ScoreArm::Blackwood, ScoreArm::Repair];
        let mut kinds: Vec<SolverKind> =
            ScoreArm::ALL.iter().filter(|a| !references.contains(a)).map(|a| a.kind()).collect();
        assert!(kinds.iter().all(|k| k.scores()), "{kinds:?}");
        kinds.sort();
        kinds.dedup();
        let mut scoring = SolverKind::SCORING.to_vec();
        scoring.sort();
        assert_eq!(kinds, scoring);
    }
}
