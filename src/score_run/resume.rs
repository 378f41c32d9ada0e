//! Where a score run starts: afresh, or from its checkpoint (and the better board of the checkpoint and `--out`), going on with the walks' seeds and plan, each checked as a flag is.

use std::path::Path;
use std::str::FromStr;

use super::sink::Resumed;
use crate::best_file::BestFiles;
use crate::error::Error;
use crate::formats::checkpoint::{self, Asked, Checkpoint, RunState, SavedPlan};
use crate::formats::field_error;
use crate::outcome::{Limits, SEED_RANGE};
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
/// A saved seed or plan that a flag would not be allowed to give (named
/// with the file and the field), or a seed or plan flag that contradicts the checkpoint's.
pub(super) fn start(
    solver: &Solver,
    options: score::Options,
    limits: &Limits,
    files: &BestFiles<'_>,
    path: Option<&Path>,
    saved: Option<Checkpoint>,
) -> Result<Start, Error> {
    let before = saved.as_ref().map_or(0.0, |c| c.seconds);
    let limits = Limits { time_limit: limits.time_limit.map(|t| (t - before).max(0.0)), ..*limits };
    let run = saved.as_ref().and_then(|c| c.run.clone());
    let (mut options, limits, state) = match &run {
        None => {
            let state = RunState { seed: limits.seed, asked: Some(asked(&options)), ..RunState::default() };
            (options, limits, state)
        }
        Some(run) => {
            let path = path.unwrap_or(Path::new("checkpoint"));
            go_on(solver, options, &limits, (files.instance(), path), run)?
        }
    };
    let best = files.best();
    let on_out = best.as_ref().is_some_and(|(_, score)| {
        saved.as_ref().and_then(|c| c.board.as_ref()).is_none_or(|b| b.score(files.instance()) < *score)
    });
    // A board on disk, or a checkpoint with no board yet but a run state to go on with.
    let resumed = (best.is_some() || run.is_some()).then(|| Resumed {
        from: if on_out { files.out_path() } else { path.map(Path::to_owned) }.unwrap_or_default(),
        score: best.as_ref().map(|(_, score)| *score),
        seconds: before,
        generation: run.as_ref().map(|_| state.generation),
        left: limits.time_limit,
    });
    options.incumbent = best.map(|(board, _)| board);
    Ok(Start { options, limits, state, resumed })
}

/// The options, limits and run state of a segment that goes on from `run`
/// (the state of the checkpoint at `path`, on `instance`): its seed, a new
/// generation, its attempts, its plan; each checked as a flag is, and
/// refused if a flag the caller gave contradicts it.
fn go_on(
    solver: &Solver,
    mut options: score::Options,
    limits: &Limits,
    (instance, path): (&Instance, &Path),
    run: &RunState,
) -> Result<(score::Options, Limits, RunState), Error> {
    agree(&options, limits, run, path)?;
    if !SEED_RANGE.contains(&run.seed) {
        return Err(field_error(path, "run.seed", format!("{} is not in {SEED_RANGE:?}", run.seed)));
    }
    let state = RunState { generation: run.generation + 1, ..run.clone() };
    options.resume = Some(score::Resume { generation: state.generation, attempts: run.attempts.clone() });
    if let (Some(plan), true) = (&run.plan, plans(solver)) {
        options = given(options, plan, path)?;
        let checked = options.check(instance).and_then(|()| score::plan::Plan::new(instance, &options).map(drop));
        checked.map_err(|e| field_error(path, "run.plan", e))?;
    }
    Ok((options, Limits { seed: run.seed, ..*limits }, state))
}

/// The plan's flags of `options` that are not their defaults, as a checkpoint keeps them.
fn asked(options: &score::Options) -> Asked {
    let other = |value: String, default: String| (value != default).then_some(value);
    Asked {
        order: options.order.map(|o| o.to_string()),
        breaks: other(options.schedule.to_string(), Schedule::default().to_string()),
        quota: other(options.quota.to_string(), Quota::default().to_string()),
        completion: options.completion.map(|c| c.to_string()),
    }
}

/// Refuses a seed or plan flag (one not at its default) that differs from
/// what the run of the checkpoint at `path` was started with: a resumed run
/// keeps its checkpoint's seed and plan, so the flag would be silently ignored.
fn agree(options: &score::Options, limits: &Limits, run: &RunState, path: &Path) -> Result<(), Error> {
    let contradiction = |flag: &str, now: &str, then: Option<&str>| {
        let then = then.map_or_else(|| "without it (its default)".to_owned(), |t| format!("with {flag} {t}"));
        Error::Options(format!(
            "{flag} {now} contradicts the checkpoint {}: its run was started {then}, and a resumed run keeps \
             its checkpoint's seed and plan (the checkpoint wins). Leave {flag} out to resume it, or give \
             another --checkpoint to start a new run with {flag} {now}",
            path.display()
        ))
    };
    if limits.seed != Limits::default().seed && limits.seed != run.seed {
        return Err(contradiction("--seed", &limits.seed.to_string(), Some(&run.seed.to_string())));
    }
    // A checkpoint of version 3 did not keep what its run was asked: nothing to compare.
    let Some(then) = &run.asked else { return Ok(()) };
    let now = asked(options);
    let flags = [
        ("--fill-order", &now.order, &then.order),
        ("--breaks", &now.breaks, &then.breaks),
        ("--quota", &now.quota, &then.quota),
        ("--completion", &now.completion, &then.completion),
    ];
    for (flag, now, then) in flags {
        if let Some(now) = now
            && then.as_ref() != Some(now)
        {
            return Err(contradiction(flag, now, then.as_deref()));
        }
    }
    Ok(())
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
