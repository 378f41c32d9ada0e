//! Tests of the walk's runs where the small solvable boards of `tests.rs` leave it
//! untested: boards only breaks complete, the target, several walks, the node limit, completions after the tree.

use super::tests::{limits, run, run_seen};
use super::*;
use crate::generate::{PlantedSpec, forced_mismatch, planted};
use crate::outcome::Status;

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
    let target = joins - 10;
    let schedule = Schedule::Ramp { unlock: 0.0, budget: Some(10) };
    let options = Options { target: Some(target), schedule, ..Options::default() };
    let (outcome, seen) = run_seen(&p.instance, &options, &limits(30.0, 1));
    let scores: Vec<usize> = seen.iter().map(|b| b.score).collect();
    let first = scores.iter().position(|&s| s >= target).expect("a board reaching the target");
    assert_eq!(first + 1, seen.len(), "target {target}: {scores:?}");
    assert_ne!(outcome.status, Status::Solved);
}

/// Three walks sharing one best board report only boards the checker
/// accepts, scored as it scores them and each better than the last
/// (`run_seen`); the counters agree, and the walks reach the optimum.
/// Catches boards handed on out of order or mis-scored when walks race, and
/// attempts counted apart from the walks that started them.
#[test]
fn several_walks_report_only_checked_boards_and_end_on_the_optimum() {
    for seed in [1, 2] {
        let spec = PlantedSpec { clues: 1, ..PlantedSpec::square(5, 2, 3, seed) };
        let instance = forced_mismatch(&spec).unwrap().unwrap();
        let joins = instance.grid.max_score();
        let schedule = Schedule::Ramp { unlock: 0.0, budget: Some(4) };
        // The target (the optimum) ends the run once reached; the limit only guards the test.
        let options = Options { schedule, attempt_nodes: Some(1_000), target: Some(joins - 1), ..Options::default() };
        let (outcome, _) = run_seen(&instance, &options, &Limits { seed, ..limits(60.0, 3) });
        let what = format!("seed {seed}: {:?}", outcome.stats);
        assert_eq!(outcome.stats.walks.len(), 3, "{what}");
        assert_eq!(outcome.stats.walks.iter().sum::<u64>(), outcome.stats.attempts, "{what}");
        assert_eq!(outcome.board.map(|b| b.score(&instance)), Some(joins - 1), "{what}");
    }
}

/// A node limit ends the run within one poll of each walk past it, though
/// an attempt's own cap lies far beyond: the walks count their placements
/// at every poll and stop there. Catches a limit read only between
/// attempts (`--node-limit 50000000` on the official board made 5 × 10⁸
/// placements, one attempt's cap), which `solve --node-limit` relies on for
/// reproducible measurements.
#[test]
fn a_node_limit_ends_the_walks_inside_an_attempt() {
    let instance = planted(&PlantedSpec::square(12, 5, 17, 1)).unwrap().instance;
    let options = Options {
        schedule: Schedule::Ramp { unlock: 0.6, budget: Some(20) },
        quota: Quota::none(),
        completion: Some(Completion::NONE),
        attempt_nodes: Some(u64::MAX / 2),
        ..Options::default()
    };
    let limit = 400_000;
    let threads = 2;
    let outcome = run(&instance, &options, &Limits { node_limit: Some(limit), ..limits(60.0, threads) });
    let nodes = outcome.stats.nodes;
    let most = limit + u64::from(threads) * scan::POLL;
    assert!((limit..=most).contains(&nodes), "{nodes} placements for a limit of {limit}");
}

/// Where every board needs a break and the walks may make none, the walks
/// exhaust their tree at once; their deep partial boards are queued for
/// CP-SAT, which completes them with the one break needed. The run must
/// wait for those completions: before, an exhausted tree ended the run, the
/// completions with it, and the run ended with no board at all.
#[test]
fn completions_queued_before_the_tree_is_exhausted_still_finish() {
    let instance = mismatched(5, 1, 3);
    let joins = instance.grid.max_score();
    let options = Options {
        schedule: Schedule::Steps(vec![(0, 0)]),
        quota: Quota::none(),
        completion: Some(Completion { cells: 10, every: 10, seconds: 10.0, ..Completion::default() }),
        ..Options::default()
    };
    let outcome = run(&instance, &options, &limits(60.0, 1));
    assert!(outcome.stats.completions > 0, "{:?}", outcome.stats);
    assert_eq!(outcome.board.map(|b| b.score(&instance)), Some(joins - 1), "{:?}", outcome.stats);
}

/// A run whose walks exhaust their tree ends by itself, with no time limit,
/// whatever its completion workers: here none at all (`completers: Some(0)`,
/// as a library caller may ask), and one, as the default gives. A watchdog
/// stops a run still going after a minute, which the test reports. Catches
/// the drain that waited for ever for offers no worker would take, and a
/// worker counted busy while idle (the drain then waited for the deadline,
/// or for ever without one).
#[test]
fn a_run_whose_walks_exhaust_their_tree_ends_without_a_time_limit() {
    let instance = mismatched(5, 1, 3);
    for completers in [Some(0), None] {
        let options = Options {
            schedule: Schedule::Steps(vec![(0, 0)]),
            quota: Quota::none(),
            completion: Some(Completion { cells: 10, every: 10, seconds: 10.0, ..Completion::default() }),
            completers,
            ..Options::default()
        };
        let stop = Stop::new();
        let over = std::sync::atomic::AtomicBool::new(false);
        let outcome = std::thread::scope(|scope| {
            let _ = scope.spawn(|| {
                let watchdog = std::time::Instant::now() + std::time::Duration::from_secs(60);
                while !over.load(std::sync::atomic::Ordering::Relaxed) && std::time::Instant::now() < watchdog {
                    std::thread::sleep(std::time::Duration::from_millis(10));
                }
                stop.raise();
            });
            let limits = Limits { time_limit: None, threads: 1, ..Limits::default() };
            let outcome = solve(&instance, &options, &limits, &stop, &|_: &Best| {});
            over.store(true, std::sync::atomic::Ordering::Relaxed);
            outcome.unwrap()
        });
        assert_ne!(outcome.status, Status::Interrupted, "completers {completers:?}: the run did not end by itself");
    }
}
