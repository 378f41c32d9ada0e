//! Tests of the search: solutions verified by the checker, proofs, clues, limits and stopping.

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use super::*;
use crate::check::check;
use crate::generate::{PlantedSpec, forced_mismatch, planted};
use crate::puzzle::{Board, Clue, GREY, Placement, Rotation, Side};

fn fixed(order: Order) -> Options {
    Options { order: OrderChoice::Fixed(order), ..Options::default() }
}

/// Candidates in table order (seed 0) on one thread, with no time limit.
fn limits() -> Limits {
    Limits { seed: 0, threads: 1, ..Limits::default() }
}

fn solved(instance: &Instance, answer: &Outcome<Stats>) -> bool {
    answer.status == Status::Solved && answer.board.as_ref().is_some_and(|b| check(instance, b).is_solution())
}

#[test]
fn every_order_solves_small_planted_boards() {
    let go = Stop::new();
    // Few colours make hard boards (8x8 with 3 + 6 colours takes seconds), so
    // the colour counts grow with the board.
    for (side, frame, inner, seed) in [(6, 3, 6, 1), (7, 3, 8, 2), (8, 4, 12, 4)] {
        let p = planted(&PlantedSpec::square(side, frame, inner, seed)).unwrap();
        for order in Order::all() {
            for strips in [StripTest::On, StripTest::Off] {
                let answer = solve(&p.instance, &Options { strips, ..fixed(order) }, &limits(), &go);
                assert!(
                    solved(&p.instance, &answer),
                    "{order}, strips {strips}, on {side}x{side}: {:?}",
                    answer.status
                );
                assert_eq!(answer.stats.order, order.name());
                assert_eq!(answer.stats.strip_test, strips == StripTest::On);
                assert!(answer.stats.nodes > 0);
            }
        }
    }
}

/// More threads than cores (8 here on two) still solve, split or raced:
/// catches a thread count capped, or a split that loses subtrees past two threads.
#[test]
fn auto_order_solves_with_one_two_and_eight_threads() {
    let go = Stop::new();
    for seed in 1..=3 {
        let p = planted(&PlantedSpec::square(8, 4, 12, seed)).unwrap();
        for (threads, parallel) in
            [(1, Parallel::Split), (2, Parallel::Split), (8, Parallel::Split), (8, Parallel::Race)]
        {
            let limits = Limits { threads, seed, time_limit: Some(5.0), ..limits() };
            let answer = solve(&p.instance, &Options { parallel, ..Options::default() }, &limits, &go);
            assert!(solved(&p.instance, &answer), "seed {seed}, {threads} threads, {parallel}: {:?}", answer.status);
            // A particle of the estimator may fill the board before every order is estimated.
            assert!((1..=Order::estimated().len()).contains(&answer.stats.estimates.len()));
        }
    }
}

#[test]
fn seeded_candidate_order_still_solves() {
    let go = Stop::new();
    let p = planted(&PlantedSpec::square(7, 3, 6, 9)).unwrap();
    for seed in [1, 2, 77] {
        let limits = Limits { seed, ..limits() };
        assert!(solved(&p.instance, &solve(&p.instance, &fixed(Order::RowScan), &limits, &go)));
    }
}

/// A planted board with one inner piece given a colour nobody else has: no
/// full board can place it, so the complete search must exhaust the tree, on
/// one thread as on two or eight sharing it (a split that declared the tree
/// exhausted while a thread still held a subtree would pass on one thread only).
#[test]
fn proves_an_edited_board_infeasible() {
    let go = Stop::new();
    for (side, seed) in [(4, 1), (5, 2)] {
        let spec = PlantedSpec { clues: 1, ..PlantedSpec::square(side, 2, 3, seed) };
        let instance = forced_mismatch(&spec).unwrap().unwrap();
        for (threads, parallel) in
            [(1, Parallel::Split), (2, Parallel::Split), (8, Parallel::Split), (8, Parallel::Race)]
        {
            for (choice, strips, look_ahead) in [
                (OrderChoice::Auto, StripTest::Auto, LookAhead::default()),
                (OrderChoice::Fixed(Order::RowScan), StripTest::On, LookAhead::Off),
                (OrderChoice::Fixed(Order::RowScan), StripTest::Off, LookAhead::Off),
                (OrderChoice::Fixed(Order::RowScan), StripTest::Off, LookAhead::On),
            ] {
                let options = Options { order: choice, strips, parallel, explain: false, look_ahead };
                let answer = solve(&instance, &options, &Limits { threads, ..limits() }, &go);
                assert_eq!(
                    answer.status,
                    Status::Infeasible,
                    "{side}x{side}, {choice}, strips {strips}, {threads} threads, {parallel}"
                );
                let board = answer.board.unwrap();
                assert!(check(&instance, &board).violations.is_empty(), "partial boards are exact");
            }
        }
    }
}

/// On tiny boards, turning a clue any way must agree with the independent
/// complete DFS: solved exactly when it finds a solution, else infeasible.
#[test]
fn agrees_with_the_complete_dfs_on_turned_clues() {
    let go = Stop::new();
    for seed in 1..=4 {
        let spec = PlantedSpec { clues: 2, ..PlantedSpec::square(5, 2, 3, seed) };
        let p = planted(&spec).unwrap();
        for turns in 0..4 {
            let mut instance = p.instance.clone();
            let clue = &mut instance.clues[0];
            clue.placement.rotation = Rotation::wrapping(usize::from(clue.placement.rotation.turns()) + turns);
            let (boards, exhausted) = crate::dfs::enumerate(&instance, 1, Some(10.0));
            assert!(exhausted || !boards.is_empty());
            for order in [Order::RowScan, Order::RimLast, Order::CornerSquare { corner: Corner::Se, transposed: true }]
            {
                let answer = solve(&instance, &fixed(order), &limits(), &go);
                if boards.is_empty() {
                    assert_eq!(answer.status, Status::Infeasible, "seed {seed}, turn {turns}, {order}");
                } else {
                    assert!(solved(&instance, &answer), "seed {seed}, turn {turns}, {order}");
                }
            }
        }
    }
}

#[test]
fn respects_clues() {
    let go = Stop::new();
    // Clues from a planted solution, including neighbouring clues and clues
    // met from every side by the various orders.
    let spec = PlantedSpec { clues: 12, ..PlantedSpec::square(7, 3, 6, 5) };
    let p = planted(&spec).unwrap();
    assert!(p.instance.clues.len() >= 10);
    for order in Order::all() {
        let answer = solve(&p.instance, &fixed(order), &limits(), &go);
        assert!(solved(&p.instance, &answer), "{order}");
        let board = answer.board.unwrap();
        for clue in &p.instance.clues {
            assert_eq!(board.cells[clue.cell], Some(clue.placement));
        }
    }
    // A clue showing colour on the rim: infeasible from the clues alone.
    let mut instance = p.instance.clone();
    let corner = instance.pieces.iter().position(|q| q.grey_sides() == 2).unwrap();
    instance.clues.retain(|c| c.placement.piece != corner && c.cell != 0);
    let rotation =
        Rotation::ALL.into_iter().find(|&r| instance.pieces[corner].side(r, crate::puzzle::Side::N) != GREY).unwrap();
    instance.clues.push(Clue { cell: 0, placement: Placement { piece: corner, rotation } });
    let answer = solve(&instance, &Options::default(), &limits(), &go);
    assert_eq!(answer.status, Status::Infeasible);
}

#[test]
fn limits_give_unknown_and_exact_partial_boards() {
    let go = Stop::new();
    let p = planted(&PlantedSpec::square(14, 5, 26, 1)).unwrap();
    let limits = Limits { node_limit: Some(50_000), ..limits() };
    let answer = solve(&p.instance, &fixed(Order::RowScan), &limits, &go);
    assert_eq!(answer.status, Status::Unknown);
    assert!(answer.stats.nodes >= 50_000 && answer.stats.nodes < 200_000);
    let board = answer.board.unwrap();
    let report = check(&p.instance, &board);
    assert!(report.violations.is_empty());
    assert_eq!(report.placed, answer.stats.best_placed);
    assert!(report.placed > p.instance.clues.len());
}

#[test]
fn stop_flag_stops_promptly() {
    let p = planted(&PlantedSpec::square(16, 5, 26, 2)).unwrap();
    // Raised before the start.
    let stop = Stop::new();
    stop.raise();
    for threads in [1, 2] {
        let answer = solve(&p.instance, &Options::default(), &Limits { threads, ..limits() }, &stop);
        assert_eq!(answer.status, Status::Interrupted);
        assert_eq!(answer.board.map(|b| b.placed()), Some(p.instance.clues.len()));
    }
    // Raised while two threads search.
    let stop = Stop::new();
    let limits = Limits { threads: 2, ..limits() };
    let (answer, raised) = std::thread::scope(|scope| {
        let raiser = scope.spawn(|| {
            std::thread::sleep(Duration::from_millis(100));
            stop.raise();
            Instant::now()
        });
        let answer = solve(&p.instance, &fixed(Order::RowScan), &limits, &stop);
        (answer, raiser.join().unwrap())
    });
    assert_eq!(answer.status, Status::Interrupted);
    // A hang detector, not a speed claim (the stop's latency is measured in results/time-limits.md).
    assert!(raised.elapsed() < Duration::from_secs(5), "returned {:?} after the stop", raised.elapsed());
    assert!(check(&p.instance, &answer.board.unwrap()).violations.is_empty());
}

#[test]
fn order_choice_parses() {
    assert_eq!("auto".parse::<OrderChoice>(), Ok(OrderChoice::Auto));
    assert_eq!("row-scan".parse::<OrderChoice>(), Ok(OrderChoice::Fixed(Order::RowScan)));
    assert_eq!(
        "corner-square-sw-t".parse::<OrderChoice>(),
        Ok(OrderChoice::Fixed(Order::CornerSquare { corner: Corner::Sw, transposed: true }))
    );
    assert!("spiral".parse::<OrderChoice>().is_err());
    // The command line's names are the ones records and --explain print.
    use clap::ValueEnum as _;
    for strips in [StripTest::Auto, StripTest::On, StripTest::Off] {
        assert_eq!(StripTest::from_str(&strips.to_string(), false), Ok(strips));
    }
    for parallel in [Parallel::Split, Parallel::Race] {
        assert_eq!(Parallel::from_str(&parallel.to_string(), false), Ok(parallel));
    }
    assert!(StripTest::from_str("sometimes", false).is_err());
}

/// Without resampling (more particles than any level has nodes) the particle
/// estimate enumerates the tree, so it must equal the engine's exact count on
/// a tree the engine walks to the end.
#[test]
fn estimate_is_exact_when_no_particle_is_dropped() {
    let go = AtomicBool::new(false);
    for (side, seed) in [(4, 1), (5, 2)] {
        let spec = PlantedSpec { clues: 1, ..PlantedSpec::square(side, 2, 3, seed) };
        let instance = forced_mismatch(&spec).unwrap().unwrap();
        // Every order (one also shuffled): the engine's fast walk and its
        // general path must place exactly the estimator's nodes.
        let orders = Order::all()
            .into_iter()
            .map(|o| (o, 0, true))
            .chain([(Order::RowScan, 5, true), (Order::RowScan, 0, false)]);
        for (order, shuffle, strips) in orders {
            let plan = plan::Plan::new(&instance, order, shuffle);
            let plan = if strips { plan } else { plan.without_chains() };
            let run = engine::run(&plan, &engine::Bounds::default(), &go, &go, None);
            assert_eq!(run.end, engine::End::Exhausted);
            let est = estimate::estimate(&plan, 1 << 20, 1, 0, 1, &[&go]);
            let exact = (run.nodes + 1) as f64;
            assert!((est.nodes() - exact).abs() < 1e-9 * exact, "{order}: {} vs {exact}", est.nodes());
        }
    }
}

/// Two runs sharing a split tree explore every subtree exactly once: on a
/// tree walked to the end, their placements add up to the single walk's plus
/// one extra copy of the levels above the split per extra run (every run walks
/// them), at every split level, and every run ends exhausted; with two runs and
/// with eight.
#[test]
fn split_runs_cover_the_tree_exactly_once() {
    let go = AtomicBool::new(false);
    let spec = PlantedSpec { clues: 1, ..PlantedSpec::square(5, 2, 3, 2) };
    let instance = forced_mismatch(&spec).unwrap().unwrap();
    let plan = plan::Plan::new(&instance, Order::RowScan, 0);
    let single = engine::run(&plan, &engine::Bounds::default(), &go, &go, None);
    assert_eq!(single.end, engine::End::Exhausted);
    // Exact node counts per depth (no particle is ever dropped).
    let levels: Vec<u64> =
        estimate::estimate(&plan, 1 << 20, 1, 0, 1, &[&go]).ln_levels.iter().map(|l| l.exp().round() as u64).collect();
    assert_eq!(levels.iter().sum::<u64>(), single.nodes);
    for (level, threads) in (1..=plan.steps.len()).flat_map(|level| [(level, 2u64), (level, 8)]) {
        let split = engine::Split::new(level);
        let runs: Vec<engine::Run> = std::thread::scope(|scope| {
            let handles: Vec<_> = (0..threads)
                .map(|_| scope.spawn(|| engine::run(&plan, &engine::Bounds::default(), &go, &go, Some(&split))))
                .collect();
            handles.into_iter().map(|h| h.join().unwrap()).collect()
        });
        assert!(runs.iter().all(|r| r.end == engine::End::Exhausted), "split at {level}, {threads} runs");
        let above: u64 = levels.iter().take(level - 1).sum();
        let expected = single.nodes + (threads - 1) * above;
        assert_eq!(runs.iter().map(|r| r.nodes).sum::<u64>(), expected, "split at {level}, {threads} runs");
    }
}

/// The estimate depends on the plan, the seed and the work budget only (no
/// clock): the same three give the same estimate, and more work more runs.
#[test]
fn estimate_is_the_same_for_the_same_seed_and_work() {
    let go = AtomicBool::new(false);
    let p = planted(&PlantedSpec::square(8, 3, 6, 2)).unwrap();
    let plan = plan::Plan::new(&p.instance, Order::RowScan, 0);
    let run = |work: u64, seed: u64| estimate::estimate(&plan, 64, 4, work, seed, &[&go]);
    let (a, b) = (run(2_000, 7), run(2_000, 7));
    assert_eq!((a.ln_nodes.to_bits(), a.runs, a.work), (b.ln_nodes.to_bits(), b.runs, b.work));
    assert!(a.work >= 1 && (1..=4).contains(&a.runs));
    // A run always completes; the budget decides whether another starts.
    assert_eq!(run(0, 7).runs, 1);
    let all = run(u64::MAX, 7);
    assert!(all.runs == 4 || all.solution.is_some(), "{} runs", all.runs);
}

/// Replays `board` (a full solution) along `plan`: true if at every depth each
/// cell the look-ahead watches still has a fitting unused piece.
fn look_ahead_admits(plan: &plan::Plan, instance: &Instance, board: &Board) -> bool {
    let mut colour_of = plan.clues.packed();
    let mut used = plan.clues.pieces.clone();
    for (step, watches) in plan.steps.iter().zip(&plan.watches) {
        let cell = usize::from(step.cell);
        let placement = board.cells[cell].expect("a full board");
        let piece = instance.pieces[placement.piece];
        colour_of[cell] = crate::kernel::pack(Side::ALL.map(|side| piece.side(placement.rotation, side)));
        used[placement.piece] = true;
        let colour = |src: u16| colour_of[usize::from(src)];
        if !watches
            .iter()
            .all(|w| w.has_fit(&plan.entries, &plan.starts, plan.colours, colour, |p| used[usize::from(p)]))
        {
            return false;
        }
    }
    true
}

/// The look-ahead never cuts a branch that holds a solution: every solution
/// of small boards with many solutions, replayed along every order, passes
/// every watch. Catches a watch that reads a side not yet placed, a wrong
/// key or mask, or a piece counted as used when it is free.
#[test]
fn the_look_ahead_never_cuts_a_solution() {
    let mut watched = 0;
    for (side, frame, interior, seed, clues) in [(5, 2, 3, 1, 2), (5, 2, 4, 1, 3), (6, 2, 4, 3, 5)] {
        let mut instance = planted(&PlantedSpec::square(side, frame, interior, seed)).unwrap().instance;
        instance.clues.truncate(clues);
        let (solutions, exhausted) = crate::dfs::enumerate(&instance, 2_000, Some(60.0));
        assert!(exhausted || solutions.len() == 2_000, "the enumeration must finish or fill its cap");
        assert!(solutions.len() > 1, "{side}x{side} seed {seed}: want several solutions");
        for order in Order::all() {
            let plan = plan::Plan::new(&instance, order, 0);
            watched += plan.watches.iter().map(Vec::len).sum::<usize>();
            for board in &solutions {
                assert!(look_ahead_admits(&plan, &instance, board), "{order} on {side}x{side}: a solution was cut");
            }
        }
    }
    assert!(watched > 0, "no order watched any cell: the test tested nothing");
}

/// The look-ahead cuts: on boards without a solution (one piece shows a
/// colour no other has) the whole tree walked with it is smaller than
/// without, and the planted boards are still solved. Catches a look-ahead
/// that is never consulted (equal trees) or that cuts a solution.
#[test]
fn the_look_ahead_cuts_the_tree_and_still_finds_the_planted_solution() {
    let go = AtomicBool::new(false);
    let spec = PlantedSpec::square(6, 2, 5, 2);
    let instance = forced_mismatch(&spec).unwrap().unwrap();
    let with = plan::Plan::new(&instance, Order::RowScan, 0);
    let without = with.clone().without_watches();
    let walk = |plan: &plan::Plan| engine::run(plan, &engine::Bounds::default(), &go, &go, None);
    let (cut, full) = (walk(&with), walk(&without));
    assert_eq!((cut.end, full.end), (engine::End::Exhausted, engine::End::Exhausted));
    assert!(cut.nodes < full.nodes, "look-ahead {} nodes, without {}", cut.nodes, full.nodes);
    let stop = Stop::new();
    for seed in 1..=3 {
        let p = planted(&PlantedSpec::square(8, 4, 12, seed)).unwrap();
        for order in [Order::RowScan, Order::all()[4]] {
            let options = Options { look_ahead: LookAhead::On, ..fixed(order) };
            let answer = solve(&p.instance, &options, &limits(), &stop);
            assert!(solved(&p.instance, &answer), "seed {seed}, {order}: {:?}", answer.status);
        }
    }
}
