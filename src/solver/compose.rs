//! Solvers run one after another: the native search's board as CP-SAT's hint, the exact search before the score walk, and CP-SAT completing a board when the walk has none.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::{Duration, Instant};

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

/// Share of a score run's time limit after which a search that has no full
/// board yet gives way to CP-SAT completing one in the rest of the time.
pub const SEARCH_SHARE: f64 = 0.7;

/// `auto` for the score: the score search for the whole time limit. The walk
/// never breaks a frame join, so on clue sets that force one it finds no full
/// board: when it has none at [`SEARCH_SHARE`] of the time, it ends there and
/// CP-SAT completes the board (clues kept) in the rest. Without a time limit,
/// the search alone.
///
/// Until issue 52 `auto` gave the last 30% to CP-SAT's repair of regions of
/// the walk's best board; measured against the walk alone at the goal budgets
/// it tied on every board class and cost the walks a third of their boards
/// near the best (`results/score/README.md`), so the walk keeps the time.
/// `edgematch improve` still repairs a board's regions.
pub(super) fn score_or_complete(
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
    let search = stop.child();
    let boardless = total * SEARCH_SHARE;
    let mut outcome = search_until_boardless(instance, options, limits, &search, boardless, &walk_best)?;
    if outcome.board.is_none() && !stop.is_raised() {
        // No full board from the walk, which never breaks a frame join (some
        // clue sets force one): CP-SAT completes the board in the rest of the time.
        outcome.status = Status::Unknown;
        complete(instance, (limits, start), stop, &injected("cpsat", events), &mut outcome);
    }
    outcome.seconds = start.elapsed().as_secs_f64();
    Ok(outcome)
}

/// The score search within `limits`, raising `search` (ending it) when it has
/// no full board after `boardless` seconds.
fn search_until_boardless(
    instance: &Instance,
    options: &score::Options,
    limits: &Limits,
    search: &Stop,
    boardless: f64,
    events: &dyn score::Events,
) -> Result<Scored, Error> {
    let found = &AtomicBool::new(false);
    let seen = score::MapBest {
        events,
        map: |best: &score::Best| {
            found.store(true, Ordering::Relaxed);
            best.clone()
        },
    };
    let (ended, watch) = mpsc::channel::<()>();
    // A limit too long for a Duration waits for the search's end.
    let wait = Duration::try_from_secs_f64(boardless).unwrap_or(Duration::MAX);
    std::thread::scope(|scope| {
        scope.spawn(move || {
            // Woken by the search's end (the sender dropped), or by the share's passing.
            if watch.recv_timeout(wait) == Err(RecvTimeoutError::Timeout) && !found.load(Ordering::Relaxed) {
                search.raise();
            }
        });
        let outcome = score_search(instance, options, limits, search, &seen);
        drop(ended);
        outcome
    })
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
        Err(error) => stats.completion_failed = Some(error.to_string()),
    }
}
