//! The portfolio in-process: it returns the first verified board and leaves no thread behind.
//! (One test in this binary, so the process's thread count is its own.)

use edgematch::check::check;
use edgematch::generate::{PlantedSpec, planted};
use edgematch::portfolio::{self, Arm};
use edgematch::solver::{Limits, Solver, SolverKind, Stats, Status};
use edgematch::stop::Stop;

fn threads() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir("/proc/self/task")
        .unwrap()
        .filter_map(|e| std::fs::read_to_string(e.ok()?.path().join("comm")).ok())
        .map(|n| n.trim().to_owned())
        .collect();
    names.sort();
    names
}

/// The threads return to `before` within a second: the race joins its arms'
/// threads before it returns, and CP-SAT ends its own helper thread just after.
fn settles_to(before: &[String]) {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(1);
    while threads() != before && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    assert_eq!(threads(), before, "a thread outlived the race");
}

#[test]
fn the_first_verified_board_wins_and_no_thread_is_left() {
    // OR-Tools keeps one idle thread of its own after its first solve: solve
    // once before counting, so that only threads the race leaves are counted.
    let tiny = planted(&PlantedSpec::square(4, 2, 4, 1)).unwrap();
    let _ = Solver::new(SolverKind::Cpsat).solve(&tiny.instance, &Limits::default(), &Stop::new()).unwrap();
    let before = threads();
    // The search solves this board in milliseconds; CP-SAT with one worker
    // and the DFS baseline take longer: the race must stop them.
    let p = planted(&PlantedSpec::square(12, 5, 26, 1)).unwrap();
    let arms = [SolverKind::Search, SolverKind::Cpsat, SolverKind::Dfs]
        .map(|kind| Arm { solver: Solver::new(kind), threads: 1 })
        .to_vec();
    let auto = Solver::Auto(portfolio::Options { arms, progress: false });
    let limits = Limits { time_limit: Some(120.0), ..Limits::default() };
    let outcome = auto.solve(&p.instance, &limits, &Stop::new()).unwrap();
    assert_eq!(outcome.status, Status::Solved);
    assert!(check(&p.instance, outcome.board.as_ref().unwrap()).is_solution());
    let Stats::Auto(stats) = &outcome.stats else { panic!("the portfolio returns its own stats") };
    assert_eq!(stats.arms.len(), 3, "every arm reported back");
    let winner = stats.winner.clone().expect("a winner");
    let seconds = stats.winner_seconds.unwrap();
    for arm in &stats.arms {
        if arm.solver != winner {
            assert!(arm.status != Status::Solved || arm.seconds >= seconds, "{arm:?}");
        }
    }
    assert!(outcome.seconds < 60.0, "the losers were stopped ({} s)", outcome.seconds);
    settles_to(&before);

    // Ctrl-C (the parent handle) stops every arm: nothing is left running either.
    let hard = planted(&PlantedSpec::square(16, 5, 17, 1)).unwrap();
    let stop = Stop::new();
    let raiser = {
        let stop = stop.clone();
        std::thread::spawn(move || {
            std::thread::sleep(std::time::Duration::from_millis(500));
            stop.raise();
            std::time::Instant::now()
        })
    };
    let outcome = auto.solve(&hard.instance, &limits, &stop).unwrap();
    let raised = raiser.join().unwrap();
    assert_eq!(outcome.status, Status::Interrupted);
    // Measured from the raise, not from the start: building the arms' models
    // on a loaded machine is not the stop's delay.
    assert!(raised.elapsed().as_secs_f64() < 5.0, "returned {:?} after the stop", raised.elapsed());
    settles_to(&before);
}
