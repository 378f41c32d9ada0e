//! `solve --objective score`: its flags, and what each new best board does (printed, checked, written, traced).

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use anyhow::{Result, bail};
use clap::Args;
use edgematch::formats::board_json;
use edgematch::formats::checkpoint::{self, Checkpoint};
use edgematch::output::write_atomic;
use edgematch::puzzle::{Board, Instance};
use edgematch::score::{self, Schedule};
use edgematch::solver::{self, Limits, Outcome, Solver, Status};
use edgematch::stop::Stop;

/// Flags of the score objective.
#[derive(Args)]
#[command(next_help_heading = "Score options (--objective score)")]
pub(crate) struct ScoreArgs {
    /// Stop once a board scores at least this many matched joins (default: a full solution).
    #[arg(long, value_name = "SCORE")]
    target: Option<usize>,
    /// The break schedule: `ramp:UNLOCK[:BUDGET]` (no break before UNLOCK of the
    /// free cells are placed, then linear up to BUDGET breaks by the last cell;
    /// without BUDGET, one below the best board's) or `DEPTH:BREAKS,...` (the
    /// breaks allowed from each depth on). Default: ramp:0.78.
    #[arg(long, value_name = "SCHEDULE")]
    breaks: Option<Schedule>,
    /// Placements per attempt before a restart with reshuffled candidates.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    attempt_nodes: Option<u64>,
    /// The fill order (a name such as `row-scan` or `fail-first-sw`; default: the one whose
    /// exact tree the estimator finds smallest).
    #[arg(long, value_name = "ORDER")]
    fill_order: Option<edgematch::search::Order>,
    /// Do not prune with the colour counts (the bound that keeps the endgame tileable; --walk budget).
    #[arg(long)]
    no_tileable: bool,
    /// The walk: `scan` (the field's method: sorted lists, a colour quota, the band's
    /// breaks, long attempts) or `budget` (the break-budget walk with a tileability bound).
    #[arg(long, value_enum, value_name = "WALK")]
    walk: Option<score::Walk>,
    /// The colour quota of the scan walk: `none`, `rarest[:F+I]` or `commonest[:F+I]`
    /// (F frame and I interior colours by side count; default rarest:1+2), or colour
    /// numbers `C,C,...`; optionally `@X:Y,...`, the curve's points (fraction of the
    /// order, fraction of the colours' sides; default the published curve).
    #[arg(long, value_name = "QUOTA")]
    quota: Option<score::Quota>,
    /// CP-SAT completes the scan walk's partial boards that come within CELLS
    /// free cells of the end, SECONDS each at most, freeing the last REOPEN
    /// placed cells too: `CELLS[:SECONDS[:REOPEN]]`, or `none`.
    #[arg(long, value_name = "COMPLETION")]
    completion: Option<score::Completion>,
    /// Append one JSON line per new best board here: {"seconds", "score"}.
    #[arg(long, value_name = "FILE")]
    trace: Option<PathBuf>,
    /// Keep the run's state (its best board and seconds) in this file, written
    /// whole at each new best and every --checkpoint-every seconds; a run given
    /// an existing checkpoint resumes from its best board.
    #[arg(long, value_name = "FILE")]
    checkpoint: Option<PathBuf>,
    /// Seconds between two checkpoints (default 60).
    #[arg(long, value_name = "S", requires = "checkpoint", value_parser = super::args::seconds)]
    checkpoint_every: Option<f64>,
}

impl ScoreArgs {
    /// The flags given, by name.
    pub(crate) fn given(&self) -> Vec<&'static str> {
        super::args::given_flags(&[
            ("--target", self.target.is_some()),
            ("--breaks", self.breaks.is_some()),
            ("--attempt-nodes", self.attempt_nodes.is_some()),
            ("--fill-order", self.fill_order.is_some()),
            ("--no-tileable", self.no_tileable),
            ("--walk", self.walk.is_some()),
            ("--quota", self.quota.is_some()),
            ("--completion", self.completion.is_some()),
            ("--trace", self.trace.is_some()),
            ("--checkpoint", self.checkpoint.is_some()),
        ])
    }

    /// The walk these flags choose.
    pub(crate) fn walk(&self) -> score::Walk {
        self.walk.unwrap_or_default()
    }

    /// The score search's options, checked against `instance`.
    fn options(&self, instance: &Instance) -> Result<score::Options> {
        let options = score::Options {
            walk: self.walk.unwrap_or_default(),
            quota: self.quota.clone().unwrap_or_default(),
            completion: self.completion.unwrap_or_default(),
            order: self.fill_order,
            schedule: self.breaks.clone().unwrap_or_default(),
            target: self.target,
            attempt_nodes: self.attempt_nodes,
            tileable: !self.no_tileable,
            incumbent: None,
        };
        if let Err(why) = options.check(instance) {
            bail!("{why}");
        }
        Ok(options)
    }
}

/// The scan walk's plan, settled by its pilot walks and printed before the
/// walks start: `options` with the plan given outright, and `limits` less
/// the pilot's seconds. Other walks and solvers settle nothing here.
fn settle(
    options: score::Options,
    solver: &Solver,
    instance: &Instance,
    limits: &Limits,
    stop: &Stop,
) -> Result<(score::Options, Limits)> {
    if options.walk != score::Walk::Scan || !matches!(solver, Solver::Search(_) | Solver::Auto(_)) {
        return Ok((options, *limits));
    }
    let start = Instant::now();
    let plan = score::plan::Plan::settle_for(instance, &options, limits, stop)
        .map_err(|e| anyhow::anyhow!("--fill-order: {e}"))?;
    println!("plan: {plan}");
    let spent = start.elapsed().as_secs_f64();
    let limits = Limits { time_limit: limits.time_limit.map(|t| (t - spent).max(0.01)), ..*limits };
    Ok((plan.fixed(&options), limits))
}

/// Resumes from the checkpoint, if one is given and exists: its board
/// becomes the incumbent and is written to `out`. Returns the seconds it had run.
fn resume(args: &ScoreArgs, instance: &Instance, out: Option<&Path>, options: &mut score::Options) -> Result<f64> {
    let Some(path) = args.checkpoint.as_deref().filter(|p| p.exists()) else { return Ok(0.0) };
    let resumed = checkpoint::read(path, instance)?;
    println!(
        "resumed: {} scores {}/{} after {:.3} s",
        path.display(),
        resumed.board.score(instance),
        instance.grid.max_score(),
        resumed.seconds
    );
    if let Some(path) = out {
        write_atomic(path, board_json::to_string(&resumed.board).as_bytes())?;
    }
    options.incumbent = Some(resumed.board);
    Ok(resumed.seconds)
}

/// Runs `solver` for the best board: each new best is checked, printed with its
/// time, written whole to `out`, appended to the trace and kept in the
/// checkpoint, so an interrupted or killed run leaves its best verified board
/// behind; a checkpoint given resumes from its board.
pub(crate) fn solve(
    args: &ScoreArgs,
    solver: &Solver,
    instance: &Instance,
    limits: &Limits,
    stop: &Stop,
    out: Option<&Path>,
) -> Result<Outcome> {
    let settling = Instant::now();
    let (mut options, limits) = settle(args.options(instance)?, solver, instance, limits, stop)?;
    let settled = settling.elapsed().as_secs_f64();
    if let Some(trace) = &args.trace {
        // Created (or kept) up front, so a bad path fails before the run.
        std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(trace)
            .map_err(|source| edgematch::Error::Io { path: trace.clone(), source })?;
    }
    let before = resume(args, instance, out, &mut options)?;
    let kept: Mutex<Option<Board>> = Mutex::new(options.incumbent.clone());
    let start = settling;
    let save = |board: &Board| {
        if let Some(path) = &args.checkpoint {
            let state = Checkpoint { seconds: before + start.elapsed().as_secs_f64(), board: board.clone() };
            if let Err(e) = checkpoint::write(path, instance, &state) {
                eprintln!("edgematch: {e}");
            }
        }
    };
    let max = instance.grid.max_score();
    let on_best = |best: &score::Best| {
        // Only a board the checker accepts is shown or kept.
        if solver::accept(instance, Status::Unknown, Some(&best.board)).is_err() {
            return;
        }
        // Written before it is announced: a board printed is a board on disk.
        if let Some(path) = out
            && let Err(e) = write_atomic(path, board_json::to_string(&best.board).as_bytes())
        {
            eprintln!("edgematch: {e}");
        }
        save(&best.board);
        edgematch::live::verified(&best.board, best.score);
        *kept.lock().unwrap_or_else(|e| e.into_inner()) = Some(best.board.clone());
        println!("best: {}/{max} after {:.3} s", best.score, before + settled + best.seconds);
        if let Some(path) = &args.trace {
            let seconds = ((before + settled + best.seconds) * 1000.0).round() / 1000.0;
            let line = serde_json::json!({ "seconds": seconds, "score": best.score });
            let appended = std::fs::OpenOptions::new()
                .append(true)
                .open(path)
                .and_then(|mut f| f.write_all(format!("{line}\n").as_bytes()));
            if let Err(e) = appended {
                eprintln!("edgematch: {}: {e}", path.display());
            }
        }
    };
    let every = Duration::from_secs_f64(args.checkpoint_every.unwrap_or(60.0));
    let finished = AtomicBool::new(false);
    let outcome = std::thread::scope(|scope| {
        // The periodic checkpoint: the best board so far, with the seconds run.
        let _ = scope.spawn(|| {
            let mut next = Instant::now() + every;
            while !finished.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(50));
                if Instant::now() >= next {
                    next += every;
                    if let Some(board) = kept.lock().unwrap_or_else(|e| e.into_inner()).clone() {
                        save(&board);
                    }
                }
            }
        });
        let outcome = solver.solve_score(instance, &options, &limits, stop, &on_best);
        finished.store(true, Ordering::Relaxed);
        outcome
    })?;
    let mut outcome = outcome;
    outcome.seconds += settled;
    if let Some(board) = kept.into_inner().unwrap_or_else(|e| e.into_inner()) {
        save(&board);
    }
    Ok(outcome)
}
