//! Tests of the score search: full scores on solvable boards, optimal scores on broken ones, every board checked.

use std::sync::Mutex;

use super::*;
use crate::check::check;
use crate::generate::{PlantedSpec, forced_mismatch, planted};
use crate::outcome::Status;
use crate::search::Order;

pub(super) fn limits(seconds: f64, threads: u32) -> Limits {
    Limits { time_limit: Some(seconds), threads, ..Limits::default() }
}

/// Runs the search, checking every board it reports: full, no hard violation,
/// scored as the checker scores it, each better than the one before.
pub(super) fn run(instance: &Instance, options: &Options, limits: &Limits) -> Outcome<Stats> {
    run_seen(instance, options, limits).0
}

/// [`run`], also returning the boards reported, in order.
pub(super) fn run_seen(instance: &Instance, options: &Options, limits: &Limits) -> (Outcome<Stats>, Vec<Best>) {
    let seen: Mutex<Vec<Best>> = Mutex::new(Vec::new());
    let on_best = |best: &Best| {
        let report = check(instance, &best.board);
        assert_eq!(report.placed, instance.grid.cells(), "a score board places every piece");
        assert!(report.only_joins_mismatch(), "{report}");
        assert_eq!(report.score, best.score);
        let mut seen = seen.lock().unwrap();
        assert!(seen.last().is_none_or(|s| s.score < best.score), "{} then {}", seen.last().unwrap().score, best.score);
        seen.push(best.clone());
    };
    let outcome = solve(instance, options, limits, &Stop::new(), &on_best).expect("no board rejected");
    let seen = seen.into_inner().unwrap();
    let last = seen.last().map(|b| b.score);
    assert_eq!(outcome.board.as_ref().map(|b| check(instance, b).score), last, "the best board is the last reported");
    (outcome, seen)
}

/// The default options, and a ramp schedule (breaks from the first cell, one per four cells) on the row order.
fn schedules() -> [Options; 2] {
    let ramp = Options {
        schedule: Schedule::Ramp { unlock: 0.0, budget: None },
        order: Some(Order::Band { corner: crate::search::Corner::Nw, transposed: false, strip: 1 }),
        ..Options::default()
    };
    [Options::default(), ramp]
}

#[test]
fn small_planted_boards_reach_the_full_score() {
    for (side, frame, inner, seed) in [(5, 2, 4, 1), (6, 3, 6, 2), (7, 3, 8, 3)] {
        let p = planted(&PlantedSpec::square(side, frame, inner, seed)).unwrap();
        for options in schedules() {
            let outcome = run(&p.instance, &options, &limits(30.0, 2));
            assert_eq!(outcome.status, Status::Solved, "{side}x{side} seed {seed}, {options:?}");
            assert!(check(&p.instance, &outcome.board.unwrap()).is_solution());
        }
    }
}

/// One thread and one seed walk the same attempts: the same boards, in the
/// same order, every time (without CP-SAT's completions, whose timing is the
/// machine's), until the same node limit. Fails if a walk draws from an
/// unseeded source, or its attempts depend on the clock.
#[test]
fn one_thread_and_one_seed_give_the_same_boards_in_the_same_order() {
    let spec = PlantedSpec { clues: 1, ..PlantedSpec::square(6, 2, 4, 5) };
    let instance = forced_mismatch(&spec).unwrap().unwrap();
    let options = Options {
        schedule: Schedule::Steps(vec![(0, 8)]),
        completion: Some(Completion::NONE),
        attempt_nodes: Some(20_000),
        ..Options::default()
    };
    let boards = || {
        let seen = Mutex::new(Vec::new());
        let on_best = |best: &Best| seen.lock().unwrap().push((best.board.clone(), best.score));
        let limits = Limits { threads: 1, seed: 7, node_limit: Some(2_000_000), ..Limits::default() };
        let _ = solve(&instance, &options, &limits, &Stop::new(), &on_best).unwrap();
        seen.into_inner().unwrap()
    };
    let first = boards();
    assert!(first.len() >= 2, "the walk improves its board at least once: {}", first.len());
    assert_eq!(first, boards());
}

/// A planted board with one interior piece given a colour no other piece has:
/// no full solution, and the best board mismatches exactly the joins that
/// colour forces. CP-SAT, maximizing matched joins over the whole board from
/// the search's board, proves the same score optimal.
#[test]
fn a_forced_mismatch_gives_the_best_possible_score_which_cpsat_confirms() {
    for (side, seed) in [(4, 1), (5, 2)] {
        let spec = PlantedSpec { clues: 1, ..PlantedSpec::square(side, 2, 3, seed) };
        let instance = forced_mismatch(&spec).unwrap().unwrap();
        let schedule = Schedule::Ramp { unlock: 0.0, budget: Some(4) };
        let options = Options { schedule, ..Options::default() };
        let outcome = run(&instance, &options, &limits(30.0, 1));
        assert_eq!(outcome.status, Status::Unknown, "no full solution exists");
        let board = outcome.board.expect("a full board");
        let score = check(&instance, &board).score;
        let all: Vec<usize> = (0..instance.grid.cells()).collect();
        let exact = crate::cpsat::repair(&instance, &board, &all, &limits(60.0, 1), &Stop::new()).unwrap();
        assert!(exact.optimal, "CP-SAT proves its optimum on {side}x{side}");
        assert_eq!(score, exact.score, "{side}x{side}: the search's best is the optimum");
        assert_eq!(score, instance.grid.max_score() - 1);
    }
}

#[test]
fn the_target_stops_the_run_and_bad_options_are_named() {
    let p = planted(&PlantedSpec::square(6, 3, 6, 4)).unwrap();
    let joins = p.instance.grid.max_score();
    let high = Options { target: Some(joins + 1), ..Options::default() };
    assert!(high.check(&p.instance).unwrap_err().contains("--target"));
    let many = Options { schedule: Schedule::Steps(vec![(0, 1), (10, joins + 1)]), ..Options::default() };
    assert!(many.check(&p.instance).unwrap_err().contains("exceed"));
    let low = Options {
        target: Some(joins - 10),
        schedule: Schedule::Ramp { unlock: 0.0, budget: Some(10) },
        ..Options::default()
    };
    let outcome = run(&p.instance, &low, &limits(30.0, 1));
    assert!(check(&p.instance, &outcome.board.unwrap()).score >= joins - 10);
}

/// A piece showing a colour no other piece has (99, far above the others)
/// makes a full score impossible: the walks' boards are scored by the board
/// itself, never claimed solved (the reliability test found the scan walk
/// counting no break on such a board, and the run claiming a solution that
/// the checker then rejected). `run` checks each reported score against the checker.
#[test]
fn a_colour_no_other_piece_has_never_gives_a_claimed_solution() {
    let mut p = planted(&PlantedSpec::square(5, 2, 3, 3)).unwrap();
    let inner = p.instance.pieces.iter().position(|q| q.0.iter().all(|&c| c != crate::puzzle::GREY)).unwrap();
    p.instance.pieces[inner].0[0] = 99;
    for options in schedules() {
        let outcome = run(&p.instance, &options, &limits(3.0, 2));
        assert_ne!(outcome.status, Status::Solved, "{options:?}");
        assert!(outcome.board.is_some(), "{options:?}: a full board with breaks exists");
    }
}

/// A board whose pieces show colour 255 (the reader accepts it) is solved by
/// the scan walk with every board checked. Before its lists keyed colours
/// densely, the key count (257) failed the walk's assertion in every walk
/// thread, and the run then waited for ever on threads nobody would stop.
#[test]
fn a_board_showing_colour_255_is_solved() {
    let (instance, _) = super::colour_keys::planted_showing_255();
    let outcome = run(&instance, &Options::default(), &limits(20.0, 2));
    assert_eq!(outcome.status, Status::Solved);
}
