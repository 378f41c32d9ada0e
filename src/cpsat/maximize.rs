//! CP-SAT maximizing the matched joins of a whole board, in time slices that each hand over their best board.
//!
//! OR-Tools' C API, the only one the bridge can call (the wheel ships no C++
//! headers, so neither `SolutionCallback` nor `NewFeasibleSolutionObserver`
//! can be reached), has no solution callback: a solve returns one response,
//! at its end. A long run that reported only then would lose everything to a
//! kill and show nothing meanwhile, so the whole-board maximization runs in
//! slices. Each slice is the region model with every cell freed
//! ([`model::region`](super::model::region)), the last board as its solution
//! hint and its score as a lower bound on the objective's domain (so the hint
//! is CP-SAT's first solution and its large-neighbourhood workers start from
//! it at once). A slice's better board is handed on as soon as the slice ends.
//! The first slice lasts [`FIRST_SLICE`] seconds and each next one twice the
//! last, up to [`MAX_SLICE`]: a board waits at most that long to be reported.
//! A slice that proves its board optimal ends the run.
//!
//! Why not steps that stop at the first better board
//! (`stop_after_first_solution` with the floor one above the last score):
//! each step then has to find a first solution without a feasible hint, and
//! presolves again; on the official board that gave 40 matched joins in 60 s
//! against 307 for one long solve (`results/score/cpsat-slices.md`).

use std::time::Instant;

use super::{Repair, Stats, repair_at_least};
use crate::error::Error;
use crate::outcome::{Limits, Outcome, Status};
use crate::puzzle::{Board, Instance};
use crate::stop::Stop;

/// CP-SAT maximizing the matched joins of the whole board (clues kept),
/// started from the greedy rim-legal board ([`Board::rim_filled`]). Solved
/// only when the board it returns scores every join; otherwise its best full
/// board within `limits`. The board is a claim: check it.
///
/// # Errors
/// Pieces that do not fill the rim, parameters the bridge refuses, or a response it cannot read.
pub fn maximize(instance: &Instance, limits: &Limits, stop: &Stop) -> Result<Outcome<Stats>, Error> {
    maximize_from(instance, None, limits, stop, &mut |_, _, _| {})
}

/// [`maximize`] from `incumbent` when it is a full board (a resumed run's
/// board): its placement is the first slice's hint and its score a lower
/// bound on the objective, so no board worse than it comes back. Each better
/// board goes to `on_best` (board, its score, seconds since the start) when
/// the slice that found it ends.
///
/// # Errors
/// As [`maximize`].
pub fn maximize_from(
    instance: &Instance,
    incumbent: Option<&Board>,
    limits: &Limits,
    stop: &Stop,
    on_best: &mut dyn FnMut(&Board, usize, f64),
) -> Result<Outcome<Stats>, Error> {
    let start = Instant::now();
    let full = |b: &&Board| b.placed() == instance.grid.cells();
    let (mut board, mut floor) = match incumbent.filter(full) {
        Some(board) => (board.clone(), Some(board.score(instance))),
        None => (rim_filled(instance)?, None),
    };
    let mut found_any = false;
    let mut stats = Stats::default();
    let mut slice = FIRST_SLICE;
    let end = loop {
        let Some(rest) = remaining(limits, start, slice) else { break End::OutOfTime };
        let step = slice_solve(instance, &board, floor, &rest, stop)?;
        stats = accumulated(stats, &step.stats);
        slice = (slice * 2.0).min(MAX_SLICE);
        if let Some(better) = step.board.filter(|b| floor.is_none_or(|f| b.score(instance) > f)) {
            let score = better.score(instance);
            on_best(&better, score, start.elapsed().as_secs_f64());
            (board, floor, found_any) = (better, Some(score), true);
        }
        if floor.is_some_and(|s| s >= instance.grid.max_score()) {
            break End::Solved;
        }
        if step.optimal || step.infeasible {
            break End::ProvedOptimal;
        }
        if stop.is_raised() {
            break End::OutOfTime;
        }
    };
    let status = match end {
        End::Solved => Status::Solved,
        _ if stop.is_raised() => Status::Interrupted,
        _ => Status::Unknown,
    };
    stats.proved_optimal = end == End::ProvedOptimal;
    let board = found_any.then_some(board);
    Ok(Outcome { status, board, seconds: start.elapsed().as_secs_f64(), stats })
}

/// How a run of slices ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum End {
    /// A board scoring every join.
    Solved,
    /// A slice proved that no board beats the last one.
    ProvedOptimal,
    /// The time limit or a stop.
    OutOfTime,
}

/// The greedy rim-legal board every run without an incumbent starts from.
fn rim_filled(instance: &Instance) -> Result<Board, Error> {
    Board::rim_filled(instance)
        .ok_or_else(|| Error::Options("cpsat: the pieces cannot fill the rim, so no full board exists".to_owned()))
}

/// Seconds of the first slice; each next slice lasts twice the last, up to [`MAX_SLICE`].
pub const FIRST_SLICE: f64 = 10.0;

/// The longest slice, in seconds: the most a better board waits before it is handed on.
pub const MAX_SLICE: f64 = 120.0;

/// `limits` for a slice of at most `slice` seconds of the time left in a run
/// begun at `start`; `None` once none is left.
fn remaining(limits: &Limits, start: Instant, slice: f64) -> Option<Limits> {
    let left = limits.time_limit.map_or(slice, |total| (total - start.elapsed().as_secs_f64()).min(slice));
    (left > 0.01).then_some(Limits { time_limit: Some(left), ..*limits })
}

/// One slice: every cell freed, `board` as the hint, `floor` as the lower bound.
fn slice_solve(
    instance: &Instance,
    board: &Board,
    floor: Option<usize>,
    limits: &Limits,
    stop: &Stop,
) -> Result<Repair, Error> {
    let cells: Vec<usize> = (0..instance.grid.cells()).collect();
    repair_at_least(instance, board, (&cells, floor), limits, stop)
}

/// The run's counters so far with one more slice's.
fn accumulated(run: Stats, slice: &Stats) -> Stats {
    Stats {
        wall_time: run.wall_time + slice.wall_time,
        conflicts: run.conflicts + slice.conflicts,
        branches: run.branches + slice.branches,
        slices: run.slices + 1,
        ..slice.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::{PlantedSpec, planted};

    /// From a worse board (a planted solution with two interior pieces
    /// swapped), every board handed on beats it and the one before, scores
    /// what it claims, and the last is the solution returned. Catches a slice
    /// that hands on a board no better than the floor (a resumed run's
    /// checkpoint going backwards), or a run that hands on nothing until its end.
    #[test]
    fn from_an_incumbent_only_better_boards_are_handed_on() {
        let p = planted(&PlantedSpec::square(6, 3, 6, 5)).unwrap();
        let grid = p.instance.grid;
        let free = |c: &usize| !grid.is_rim_cell(*c) && !p.instance.clues.iter().any(|k| k.cell == *c);
        let inner: Vec<usize> = (0..grid.cells()).filter(free).collect();
        let mut board = p.solution.clone();
        board.cells.swap(inner[0], inner[inner.len() - 1]);
        let floor = board.score(&p.instance);
        assert!(floor < grid.max_score());
        let mut seen: Vec<(Board, usize)> = Vec::new();
        let limits = Limits { time_limit: Some(60.0), threads: 1, ..Limits::default() };
        let outcome =
            maximize_from(&p.instance, Some(&board), &limits, &Stop::new(), &mut |b, s, _| seen.push((b.clone(), s)))
                .unwrap();
        assert!(!seen.is_empty());
        assert!(seen.iter().all(|(b, s)| *s > floor && b.score(&p.instance) == *s), "floor {floor}");
        assert!(seen.windows(2).all(|w| w[0].1 < w[1].1));
        assert_eq!(outcome.status, Status::Solved);
        assert_eq!(outcome.board.as_ref(), seen.last().map(|(b, _)| b));
        assert_eq!(outcome.stats.slices, 1, "a 6×6 board is solved in the first slice");
    }
}
