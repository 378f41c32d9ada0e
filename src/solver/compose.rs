//! Solvers run one after another: the native search's board as CP-SAT's hint, the exact search before the score walk, and CP-SAT completing and repairing the walk's best board.

use std::time::Instant;

use super::kind::{Outcome, SolverKind, Stats};

/// A score search's answer, its counters the score search's own.
type Scored = crate::outcome::Outcome<score::Stats>;
use crate::error::Error;
use crate::outcome::{Limits, Status};
use crate::puzzle::{Board, Instance};
use crate::stop::Stop;
use crate::{cpsat, score, search};

/// CP-SAT, after the native search when its options ask for a hint: the
/// search runs `hint_seconds` (within the time limit) on one thread and its
/// deepest board becomes CP-SAT's solution hint; the seconds count in the limit.
pub(super) fn cpsat_after_search(
    instance: &Instance,
    options: &cpsat::Options,
    limits: &Limits,
    stop: &Stop,
) -> Result<Outcome, Error> {
    let Some(seconds) = options.hint_seconds else {
        return Ok(cpsat::solve(instance, options, limits, None, stop)?.map_stats(Stats::Cpsat));
    };
    let start = Instant::now();
    let budget = limits.time_limit.map_or(seconds, |t| seconds.min(t));
    let search_limits = Limits { time_limit: Some(budget), node_limit: None, threads: 1, ..*limits };
    let hint = search::solve(instance, &search::Options::default(), &search_limits, stop).board;
    let spent = start.elapsed().as_secs_f64();
    let rest = Limits { time_limit: limits.time_limit.map(|t| (t - spent).max(0.01)), ..*limits };
    let mut outcome = cpsat::solve(instance, options, &rest, hint.as_ref(), stop)?;
    outcome.seconds = start.elapsed().as_secs_f64();
    outcome.stats.hint_seconds = spent;
    Ok(outcome.map_stats(Stats::Cpsat))
}

/// Share of a scan run's time limit (at most [`EXACT_SECONDS`]) the exact search gets first.
pub const EXACT_SHARE: f64 = 0.05;

/// Most seconds of that exact search.
pub const EXACT_SECONDS: f64 = 3.0;

/// The score search, preceded (in a run that resumes nothing) by the exact
/// search for [`EXACT_SHARE`] of the time limit (at most [`EXACT_SECONDS`]):
/// boards it completes (the planted 12×12 5+17 in about a second) need no
/// score at all. The exact search's seconds count in the time limit and in
/// every best board's time.
///
/// # Errors
/// A board the checker rejects (a bug).
pub(super) fn score_search(
    instance: &Instance,
    options: &score::Options,
    limits: &Limits,
    stop: &Stop,
    events: &dyn score::Events,
) -> Result<Scored, Error> {
    let start = Instant::now();
    let limits = Limits { threads: SolverKind::Search.threads(limits.threads), ..*limits };
    if options.incumbent.is_none() && options.resume.is_none() {
        let seconds = limits.time_limit.map_or(EXACT_SECONDS, |t| (t * EXACT_SHARE).min(EXACT_SECONDS));
        if let Some(solved) =
            exact_first(instance, &Limits { time_limit: Some(seconds), node_limit: None, ..limits }, stop, events)?
        {
            return Ok(solved);
        }
    }
    // The exact search's seconds count: in the time limit, and in each best's time.
    let spent = start.elapsed().as_secs_f64();
    let rest = Limits { time_limit: limits.time_limit.map(|t| (t - spent).max(0.01)), ..limits };
    let mut outcome = score::solve(instance, options, &rest, stop, &later(events, spent))?;
    outcome.seconds += spent;
    outcome.stats.best_seconds = outcome.stats.best_seconds.map(|t| t + spent);
    Ok(outcome)
}

/// The exact search within `limits`: its solution, checked and handed to `events`, if it finds one.
fn exact_first(
    instance: &Instance,
    limits: &Limits,
    stop: &Stop,
    events: &dyn score::Events,
) -> Result<Option<Scored>, Error> {
    let outcome = search::solve(instance, &search::Options::default(), limits, stop);
    let (Status::Solved, Some(board)) = (outcome.status, &outcome.board) else { return Ok(None) };
    let report = crate::check::check(instance, board);
    if !report.is_solution() {
        return Err(Error::Rejected(format!("the exact search's board failed the checker: {report}")));
    }
    events.best(&score::Best { board: board.clone(), score: report.score, seconds: outcome.seconds });
    let stats = score::Stats {
        nodes: outcome.stats.nodes,
        best_breaks: Some(0),
        best_seconds: Some(outcome.seconds),
        ..score::Stats::default()
    };
    Ok(Some(Scored { status: Status::Solved, board: outcome.board, seconds: outcome.seconds, stats }))
}

/// `events` with each board first handed to fault injection under `name`
/// (which corrupts nothing outside the test build; see [`crate::fault`]).
pub(super) fn injected<'a>(name: &'static str, events: &'a dyn score::Events) -> impl score::Events + 'a {
    let map = move |best: &score::Best| {
        let mut best = best.clone();
        crate::fault::inject(name, Some(&mut best.board));
        best
    };
    score::MapBest { events, map }
}

/// `events` for a search that starts `offset` seconds into the run: each best's seconds count from the run's start.
fn later(events: &dyn score::Events, offset: f64) -> impl score::Events + '_ {
    let map = move |best: &score::Best| score::Best { seconds: offset + best.seconds, ..best.clone() };
    score::MapBest { events, map }
}

/// Share of a score run's time limit the search gets before CP-SAT repairs its board.
pub const SEARCH_SHARE: f64 = 0.7;

/// `auto` for the score: the score search for [`SEARCH_SHARE`] of the time
/// limit, then CP-SAT's exact repair of regions of its best board
/// ([`improve`](crate::improve)) for the rest; when the search has no full
/// board by then, CP-SAT completes one (clues kept) in the rest of the time.
/// Without a time limit, the search alone. A repair that fails keeps the search's board, its error in
/// the counters ([`score::Stats::repair_failed`]).
pub(super) fn score_then_repair(
    instance: &Instance,
    options: &score::Options,
    limits: &Limits,
    stop: &Stop,
    events: &dyn score::Events,
) -> Result<Scored, Error> {
    let walk_best = injected("search", events);
    let Some(total) = limits.time_limit else {
        return score_search(instance, options, limits, stop, &walk_best);
    };
    let start = Instant::now();
    let first = Limits { time_limit: Some(total * SEARCH_SHARE), ..*limits };
    let mut outcome = score_search(instance, options, &first, stop, &walk_best)?;
    if outcome.board.is_none() && !stop.is_raised() {
        // No full board from the walk, which never breaks a frame join (some
        // clue sets force one): CP-SAT completes the board in the rest of the time.
        complete(instance, (limits, start), stop, &injected("cpsat", events), &mut outcome);
    }
    let target = options.target.unwrap_or(instance.grid.max_score());
    let reached = outcome.board.as_ref().is_some_and(|b| b.score(instance) >= target);
    if let (Some(board), false, false) = (outcome.board.clone(), reached, stop.is_raised()) {
        let offset = start.elapsed().as_secs_f64();
        let rest = Limits { time_limit: Some((total - offset).max(0.0)), ..*limits };
        repair(instance, &board, (&rest, offset), (options.target, stop), &injected("repair", events), &mut outcome);
    }
    outcome.seconds = start.elapsed().as_secs_f64();
    Ok(outcome)
}

/// CP-SAT maximizing the matched joins of the whole board (clues kept) for
/// the rest of a run within `limits` begun at `start`, when the walk left no
/// full board: its board goes to `on_best` and into the outcome; its failure
/// is kept in the counters.
fn complete(
    instance: &Instance,
    (limits, start): (&Limits, Instant),
    stop: &Stop,
    events: &dyn score::Events,
    outcome: &mut Scored,
) {
    let offset = start.elapsed().as_secs_f64();
    let rest = Limits { time_limit: limits.time_limit.map(|t| (t - offset).max(0.01)), ..*limits };
    let mut last = None;
    let mut found = |board: &Board, score: usize, seconds: f64| {
        last = Some((score, offset + seconds));
        events.best(&score::Best { board: board.clone(), score, seconds: offset + seconds });
    };
    let completed = cpsat::maximize::maximize_from(instance, None, &rest, stop, &mut found);
    let stats = &mut outcome.stats;
    match completed {
        Ok(found) => {
            if let (Some(board), Some((score, seconds))) = (found.board, last) {
                stats.best_breaks = Some(instance.grid.max_score() - score);
                stats.best_seconds = Some(seconds);
                outcome.status = found.status;
                outcome.board = Some(board);
            }
        }
        Err(error) => stats.repair_failed = Some(error.to_string()),
    }
}

/// CP-SAT's repair of `board`, started `offset` seconds into the run,
/// within `limits`: each better board goes to `on_best`, and the outcome
/// takes the repaired board (its counters speak of it when better). A
/// repair that fails leaves the outcome's board, and says why in its counters.
fn repair(
    instance: &Instance,
    board: &Board,
    (limits, offset): (&Limits, f64),
    (target, stop): (Option<usize>, &Stop),
    events: &dyn score::Events,
    outcome: &mut Scored,
) {
    let mut last = None;
    let mut report = |board: &Board, score: usize, seconds: f64| {
        last = Some((score, offset + seconds));
        events.best(&score::Best { board: board.clone(), score, seconds: offset + seconds });
    };
    let repaired = crate::improve::improve(instance, board, limits, target, stop, &mut report);
    let stats = &mut outcome.stats;
    let mut best = match repaired {
        Ok((best, _)) => best,
        Err(error) => {
            stats.repair_failed = Some(error.to_string());
            return;
        }
    };
    crate::fault::inject("repair", Some(&mut best));
    if best.score(instance) == instance.grid.max_score() {
        outcome.status = Status::Solved;
    }
    // The counters speak of the run's best board, the repair's when it found one.
    if let Some((score, seconds)) = last {
        stats.best_breaks = Some(instance.grid.max_score() - score);
        stats.best_seconds = Some(seconds);
    }
    outcome.board = Some(best);
}
