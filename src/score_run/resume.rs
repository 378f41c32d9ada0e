//! Where a score run starts: afresh, or from its checkpoint (and the better board of the checkpoint and `--out`), going on with the walks' seeds and plan.

use std::path::Path;
use std::str::FromStr;

use super::sink::Resumed;
use crate::best_file::BestFiles;
use crate::error::Error;
use crate::formats::checkpoint::{self, Checkpoint, RunState, SavedPlan};
use crate::formats::field_error;
use crate::outcome::Limits;
use crate::puzzle::Instance;
use crate::score::{self, Completion, Quota, Schedule};
use crate::search::Order;
use crate::solver::Solver;

/// What a run starts from: its options and limits as this segment runs
/// them, the run state its checkpoints carry, and what it resumed, if anything.
pub(super) struct Start {
    pub(super) options: score::Options,
    pub(super) limits: Limits,
    pub(super) state: RunState,
    pub(super) resumed: Option<Resumed>,
}

/// Reads the checkpoint at `path`, if one is given and exists.
///
/// # Errors
/// A checkpoint that cannot be read, or that belongs to another instance.
pub(super) fn read(path: Option<&Path>, instance: &Instance) -> Result<Option<Checkpoint>, Error> {
    match path.filter(|p| p.exists()) {
        Some(path) => checkpoint::read(path, instance).map(Some),
        None => Ok(None),
    }
}

/// The start of a run of `solver` with `options` and `limits` whose files
/// are `files` and whose checkpoint at `path` read as `saved` (`None`: none). A run with a
/// board on disk resumes the better of the checkpoint's and `--out`'s; one
/// whose checkpoint has a run state goes on with its seed, a new generation
/// (so its attempts are seeded apart from every earlier segment's), the
/// walks' attempt counts, the plan it settled (so no pilot walks again), and
/// the time left of its time limit (`limits.time_limit` is the whole run's).
///
/// # Errors
/// A saved plan that does not parse (named with the file and the field).
pub(super) fn start(
    solver: &Solver,
    mut options: score::Options,
    limits: &Limits,
    files: &BestFiles<'_>,
    path: Option<&Path>,
    saved: Option<Checkpoint>,
) -> Result<Start, Error> {
    let before = saved.as_ref().map_or(0.0, |c| c.seconds);
    let run = saved.as_ref().and_then(|c| c.run.clone());
    let mut limits = Limits { time_limit: limits.time_limit.map(|t| (t - before).max(0.0)), ..*limits };
    let mut state = RunState { seed: limits.seed, ..RunState::default() };
    if let Some(run) = &run {
        limits.seed = run.seed;
        state = RunState { generation: run.generation + 1, ..run.clone() };
        options.resume = Some(score::Resume { generation: state.generation, attempts: run.attempts.clone() });
        if let (Some(plan), true) = (&run.plan, plans(solver)) {
            options = given(options, plan, path.unwrap_or(Path::new("checkpoint")))?;
        }
    }
    let resumed = files.best().map(|(board, score)| {
        let on_out = saved.as_ref().is_none_or(|c| c.board.score(files.instance()) < score);
        options.incumbent = Some(board);
        Resumed {
            from: if on_out { files.out_path() } else { path.map(Path::to_owned) }.unwrap_or_default(),
            score,
            seconds: before,
            generation: run.as_ref().map(|_| state.generation),
            left: limits.time_limit,
        }
    });
    Ok(Start { options, limits, state, resumed })
}

/// Whether `solver` runs the scan walk, whose plan a checkpoint keeps.
pub(super) fn plans(solver: &Solver) -> bool {
    matches!(solver, Solver::Search(_) | Solver::Auto(_))
}

/// The plan of `plan` and `options`, as a checkpoint keeps it.
pub(super) fn saved(plan: &score::plan::Plan, options: &score::Options) -> SavedPlan {
    let fixed = plan.fixed(options);
    SavedPlan {
        order: plan.order.to_string(),
        breaks: plan.schedule.to_string(),
        quota: fixed.quota.to_string(),
        completion: plan.completion.to_string(),
    }
}

/// `options` with the saved `plan` given outright, read from the checkpoint at `path`.
fn given(options: score::Options, plan: &SavedPlan, path: &Path) -> Result<score::Options, Error> {
    fn parse<T: FromStr<Err = String>>(path: &Path, field: &str, text: &str) -> Result<T, Error> {
        text.parse().map_err(|e: String| field_error(path, field, e))
    }
    Ok(score::Options {
        order: Some(parse::<Order>(path, "run.plan.order", &plan.order)?),
        schedule: parse::<Schedule>(path, "run.plan.breaks", &plan.breaks)?,
        quota: parse::<Quota>(path, "run.plan.quota", &plan.quota)?,
        completion: Some(parse::<Completion>(path, "run.plan.completion", &plan.completion)?),
        ..options
    })
}
