//! `solve --objective score`: its flags, and what each new best board does (printed, checked, written, traced).

use std::io::Write as _;
use std::path::{Path, PathBuf};

use anyhow::{Result, bail};
use clap::Args;
use edgematch::formats::board_json;
use edgematch::output::write_atomic;
use edgematch::puzzle::Instance;
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
    /// Do not prune with the colour counts (the bound that keeps the endgame tileable).
    #[arg(long)]
    no_tileable: bool,
    /// Append one JSON line per new best board here: {"seconds", "score"}.
    #[arg(long, value_name = "FILE")]
    trace: Option<PathBuf>,
}

impl ScoreArgs {
    /// The flags given, by name.
    pub(crate) fn given(&self) -> Vec<&'static str> {
        let flags = [
            ("--target", self.target.is_some()),
            ("--breaks", self.breaks.is_some()),
            ("--attempt-nodes", self.attempt_nodes.is_some()),
            ("--fill-order", self.fill_order.is_some()),
            ("--no-tileable", self.no_tileable),
            ("--trace", self.trace.is_some()),
        ];
        flags.iter().filter_map(|&(name, given)| given.then_some(name)).collect()
    }

    /// The score search's options, checked against `instance`.
    fn options(&self, instance: &Instance) -> Result<score::Options> {
        let options = score::Options {
            order: self.fill_order,
            schedule: self.breaks.clone().unwrap_or_default(),
            target: self.target,
            attempt_nodes: self.attempt_nodes.unwrap_or(score::DEFAULT_ATTEMPT_NODES),
            tileable: !self.no_tileable,
        };
        if let Err(why) = options.check(instance) {
            bail!("{why}");
        }
        Ok(options)
    }
}

/// Runs `solver` for the best board: each new best is checked, printed with its
/// time, written whole to `out` and appended to the trace, so an interrupted or
/// killed run leaves its best verified board behind.
pub(crate) fn solve(
    args: &ScoreArgs,
    solver: &Solver,
    instance: &Instance,
    limits: &Limits,
    stop: &Stop,
    out: Option<&Path>,
) -> Result<Outcome> {
    let options = args.options(instance)?;
    if let Some(trace) = &args.trace {
        // Created (or kept) up front, so a bad path fails before the run.
        std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(trace)
            .map_err(|source| edgematch::Error::Io { path: trace.clone(), source })?;
    }
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
        println!("best: {}/{max} after {:.3} s", best.score, best.seconds);
        if let Some(path) = &args.trace {
            let line = serde_json::json!({ "seconds": (best.seconds * 1000.0).round() / 1000.0, "score": best.score });
            let appended = std::fs::OpenOptions::new()
                .append(true)
                .open(path)
                .and_then(|mut f| f.write_all(format!("{line}\n").as_bytes()));
            if let Err(e) = appended {
                eprintln!("edgematch: {}: {e}", path.display());
            }
        }
    };
    Ok(solver.solve_score(instance, &options, limits, stop, &on_best)?)
}
