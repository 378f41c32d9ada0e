//! Tests of the budget walk's runs where the small solvable boards of `tests.rs` leave it
//! untested (issue 33): boards only breaks complete, the target, the seed, several walks, no bound.

use std::sync::Mutex;

use super::tests::{limits, run, run_seen};
use super::*;
use crate::generate::{PlantedSpec, forced_mismatch, planted};
use crate::outcome::Status;
use crate::puzzle::Board;

/// A planted `side`×`side` board (one clue) whose first free inner piece
/// shows a colour no other piece has on `sides` of its sides (1, or 2: north
/// and south). Those joins cannot match, and the planted board breaks only
/// them: its best boards have exactly `sides` breaks. With one such side the
/// colour counts are odd, so the bound proves at the root that a board needs a
/// break; with two they are even, and the exact walk goes deep before failing.
fn mismatched(side: usize, sides: usize, seed: u64) -> Instance {
    let spec = PlantedSpec { clues: 1, ..PlantedSpec::square(side, 3, 6, seed) };
    let mut instance = forced_mismatch(&spec).unwrap().unwrap();
    let fresh = instance.max_colour();
    let q = instance.pieces.iter().position(|p| p.0[0] == fresh).unwrap();
    if sides == 2 {
        instance.pieces[q].0[2] = fresh;
    }
    instance
}

/// The budget walk under the default ramp (`ramp:0.78`, no budget: a probe
/// without breaks, then the ramp derived from it).
fn default_ramp(tileable: bool) -> Options {
    let schedule = Schedule::Ramp { unlock: schedule::DEFAULT_UNLOCK, budget: None };
    Options { walk: Walk::Budget, schedule, tileable, ..Options::default() }
}

/// On a board no exact walk completes, the default ramp's run must break
/// joins: here the bound proves a break needed before any piece is placed,
/// so the probe reaches no depth and breaks unlock from the first cell, one
/// per four free cells. Every board it reports stays within that budget and
/// the run ends on the one break the board needs. Catches a walk that never
/// allows a break (no board at all), one that exceeds its budget (boards
/// with more breaks first), and a budget or bound that loses the optimum.
#[test]
fn the_default_ramp_breaks_where_the_bound_rules_out_every_exact_board() {
    for side in [5, 6] {
        let instance = mismatched(side, 1, 3);
        let (joins, free) = (instance.grid.max_score(), instance.grid.cells() - instance.clues.len());
        let (outcome, seen) = run_seen(&instance, &default_ramp(true), &limits(10.0, 1));
        assert_eq!(outcome.status, Status::Unknown, "{side}x{side}: no full solution exists");
        let breaks: Vec<usize> = seen.iter().map(|b| joins - b.score).collect();
        assert!(breaks.iter().all(|&b| (1..=free.div_ceil(4)).contains(&b)), "{side}x{side}: {breaks:?}");
        assert_eq!(outcome.stats.best_breaks, Some(1), "{side}x{side}: {breaks:?}");
    }
}

/// Where the exact walk goes deep before failing (two sides of one piece in
/// a colour of their own, the bound on; or one side, the bound off, so the
/// probe walks the exact tree), the default ramp's run must still find the
/// best board, which breaks only the joins the colour forces, well within
/// the time limit. The probe sets the unlock near 0.78 of the free cells,
/// where no board with so few breaks fits the ramp: catches a run that
/// declares itself done once a walk has walked that ramp's tree (it ended
/// after a second with 8 breaks for 2, 6 for 1) instead of unlocking earlier.
#[test]
fn the_default_ramp_finds_the_optimum_where_the_exact_walk_goes_deep() {
    for (sides, tileable) in [(2, true), (1, false)] {
        let instance = mismatched(5, sides, 3);
        let outcome = run(&instance, &default_ramp(tileable), &limits(10.0, 1));
        assert_eq!(outcome.stats.best_breaks, Some(sides), "{sides} sides, tileable {tileable}: {:?}", outcome.stats);
    }
}

/// With a target below the best score, the run stops at the first board
/// reaching it: no board is reported after that one, and the run does not go
/// on to a full solution. Catches a run that hands on boards after the
/// target: the walks see the run is over only at their next poll (every
/// 16 384 placements, the flag passed on every 20 ms), and the budget walk
/// found five better boards meanwhile, down to a full solution.
#[test]
fn the_run_reports_no_board_after_the_first_that_reaches_the_target() {
    let p = planted(&PlantedSpec::square(6, 3, 6, 4)).unwrap();
    let joins = p.instance.grid.max_score();
    for (walk, target) in [(Walk::Budget, joins - 6), (Walk::Scan, joins - 10)] {
        let schedule = Schedule::Ramp { unlock: 0.0, budget: Some(10) };
        let options = Options { walk, target: Some(target), schedule, ..Options::default() };
        let (outcome, seen) = run_seen(&p.instance, &options, &limits(30.0, 1));
        let scores: Vec<usize> = seen.iter().map(|b| b.score).collect();
        let first = scores.iter().position(|&s| s >= target).expect("a board reaching the target");
        assert_eq!(first + 1, seen.len(), "{walk:?}, target {target}: {scores:?}");
        assert_ne!(outcome.status, Status::Solved, "{walk:?}");
    }
}

/// The boards (with their scores) a one-thread budget run reports, in order.
fn boards(instance: &Instance, options: &Options, seed: u64) -> Vec<(Board, usize)> {
    let seen = Mutex::new(Vec::new());
    let on_best = |best: &Best| seen.lock().unwrap().push((best.board.clone(), best.score));
    // The time limit only guards the test: the run ends when a walk has walked the tree below its best board.
    let limits = Limits { seed, ..limits(60.0, 1) };
    let _ = solve(instance, options, &limits, &Stop::new(), &on_best);
    seen.into_inner().unwrap()
}

/// The budget walk on one thread with a given schedule (no timed probe)
/// walks the same attempts for one seed: the same boards in the same order,
/// every time; and another seed walks others. Attempts here end at a node
/// cap (restarts with lists shuffled from the seed), the run once the tree
/// below its best board is walked, so no clock decides what is found.
/// Catches an attempt seeded from anything but the run's seed and the
/// attempt's number (the clock, a global counter), and a seed left unused.
#[test]
fn one_thread_and_one_seed_give_the_budget_walk_the_same_boards_in_the_same_order() {
    let instance = mismatched(5, 1, 3);
    let schedule = Schedule::Ramp { unlock: 0.0, budget: Some(12) };
    let options = Options { walk: Walk::Budget, schedule, attempt_nodes: Some(1), ..Options::default() };
    let runs: Vec<Vec<(Board, usize)>> = (1..=4).map(|seed| boards(&instance, &options, seed)).collect();
    for (seed, first) in (1..).zip(&runs) {
        assert!(first.len() >= 3, "seed {seed}: the walk improves its board twice at least: {}", first.len());
        assert_eq!(first, &boards(&instance, &options, seed), "seed {seed}");
    }
    assert!(runs.iter().any(|r| r != &runs[0]), "four seeds, one sequence of boards");
}

/// Whether `board` keeps the budget walk's rules for its fill order (row by
/// row): no frame join (between two rim cells) broken, and no piece breaking
/// more than one join with the cells filled before it (clues included).
fn keeps_the_walks_rules(instance: &Instance, board: &Board) -> bool {
    let grid = instance.grid;
    let clue = |c: usize| instance.clues.iter().any(|k| k.cell == c);
    let shows = |c: usize, side: crate::puzzle::Side| {
        let p = board.cells[c].expect("a full board");
        instance.pieces[p.piece].side(p.rotation, side)
    };
    let breaks = |cell: usize| {
        let earlier = |o: usize| o < cell || clue(o);
        let sides = crate::puzzle::Side::ALL.into_iter().filter_map(|s| grid.neighbour(cell, s).map(|o| (s, o)));
        sides.filter(|&(s, o)| earlier(o) && shows(cell, s) != shows(o, s.opposite())).map(|(_, o)| o).collect()
    };
    (0..grid.cells()).filter(|&c| !clue(c)).all(|cell| {
        let broken: Vec<usize> = breaks(cell);
        broken.len() <= 1 && broken.iter().all(|&o| !(grid.is_rim_cell(cell) && grid.is_rim_cell(o)))
    })
}

/// Three walks sharing one best board, with and without the bound, report
/// only boards the checker accepts, scored as it scores them and each better
/// than the last (`run_seen`), each keeping the walk's rules (one break per
/// piece, none on the frame); the counters agree, and the walks end on the
/// optimum. Catches boards
/// handed on out of order or mis-scored when walks race, a break counted
/// wrongly (a piece breaking two joins, or a frame join), and a walk that
/// needs the bound to reach the optimum or to end.
#[test]
fn several_walks_with_and_without_the_bound_report_only_checked_boards() {
    for seed in [3, 4] {
        let instance = mismatched(5, 1, seed);
        let joins = instance.grid.max_score();
        for tileable in [true, false] {
            let schedule = Schedule::Ramp { unlock: 0.0, budget: Some(12) };
            let options =
                Options { walk: Walk::Budget, schedule, attempt_nodes: Some(1), tileable, ..Options::default() };
            let (outcome, seen) = run_seen(&instance, &options, &Limits { seed, ..limits(30.0, 3) });
            let what = format!("seed {seed}, tileable {tileable}: {:?}", outcome.stats);
            assert!(seen.iter().all(|b| keeps_the_walks_rules(&instance, &b.board)), "{what}");
            assert_eq!(outcome.stats.walks.len(), 3, "{what}");
            assert_eq!(outcome.stats.walks.iter().sum::<u64>(), outcome.stats.attempts, "{what}");
            assert_eq!(outcome.board.map(|b| b.score(&instance)), Some(joins - 1), "{what}");
        }
    }
}

/// A node limit ends the budget walk's run after about that many placements
/// (each thread's attempt is cut to what is left of it), on a board far
/// from any target, with a time limit only as a safety net. Catches a run
/// that ignores the limit (it would walk the whole minute: hundreds of
/// millions of placements), which `solve --node-limit` relies on for
/// reproducible measurements.
#[test]
fn a_node_limit_ends_the_budget_walk_after_about_that_many_placements() {
    let instance = planted(&PlantedSpec::square(12, 5, 17, 1)).unwrap().instance;
    let options = Options {
        walk: Walk::Budget,
        schedule: Schedule::Ramp { unlock: 0.6, budget: Some(20) },
        attempt_nodes: Some(100_000),
        ..Options::default()
    };
    let limit = 400_000;
    let threads = 2;
    let outcome = run(&instance, &options, &Limits { node_limit: Some(limit), ..limits(60.0, threads) });
    let nodes = outcome.stats.nodes;
    // Two threads may each start an attempt cut to what was left before either counted its own.
    assert!((limit..=limit * u64::from(threads)).contains(&nodes), "{nodes} placements for a limit of {limit}");
}
