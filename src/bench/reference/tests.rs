//! Tests of the reference solvers. Each needs its tool (MiniZinc with Gecode,
//! or the Python venv with ortools), so each is `#[ignore]`d: run with
//! `--include-ignored` (`.ci/run` does, after installing both), where an
//! absent tool fails the test with the reason.

use super::process::proc_stat;
use super::*;
use crate::check::check;
use crate::generate::{PlantedSpec, planted};
use crate::puzzle::{Grid, Piece};

/// Fails the test, with the reason, when the tool is absent.
fn require(r: Reference) {
    if let Err(reason) = available(r) {
        panic!("{r}: {reason} (.ci/run installs it)");
    }
}

fn solves_a_small_planted_board(r: Reference) {
    require(r);
    let p = planted(&PlantedSpec::square(6, 3, 6, 1)).expect("planted");
    let out = solve(r, &p.instance, 60.0, &Stop::new()).expect("runs");
    assert_eq!(out.status, Status::Solved, "{r}: {out:?}");
    let board = out.board.expect("a board");
    let report = check(&p.instance, &board);
    assert!(report.is_solution(), "{r}: {}", report.summary(5));
    assert!(out.seconds > 0.0);
}

fn proves_an_edited_board_infeasible(r: Reference) {
    require(r);
    let mut instance = planted(&PlantedSpec::square(5, 2, 4, 7)).expect("planted").instance;
    let inner = instance.pieces.iter().position(|p| p.grey_sides() == 0).expect("an interior piece");
    instance.pieces[inner].0[0] = 99;
    let out = solve(r, &instance, 60.0, &Stop::new()).expect("runs");
    assert_eq!(out.status, Status::Infeasible, "{r}: {out:?}");
    assert_eq!(out.board, None);
}

#[test]
#[ignore = "needs the Python venv with ortools"]
fn python_element_solves_a_small_planted_board() {
    solves_a_small_planted_board(Reference::PythonElement);
}

#[test]
#[ignore = "needs minizinc"]
fn minizinc_gecode_solves_a_small_planted_board() {
    solves_a_small_planted_board(Reference::MinizincGecode);
}

#[test]
#[ignore = "needs the Python venv with ortools"]
fn python_element_proves_an_edited_board_infeasible() {
    proves_an_edited_board_infeasible(Reference::PythonElement);
}

#[test]
#[ignore = "needs minizinc"]
fn minizinc_gecode_proves_an_edited_board_infeasible() {
    proves_an_edited_board_infeasible(Reference::MinizincGecode);
}

/// Our processes that outlived their parent: their command line names one
/// of this test process's scratch directories and init adopted them.
fn orphans() -> Vec<String> {
    let mark = format!("edgematch-reference-{}-", std::process::id());
    let Ok(entries) = std::fs::read_dir("/proc") else { return Vec::new() };
    entries
        .filter_map(Result::ok)
        .filter_map(|e| e.file_name().to_str()?.parse::<i32>().ok())
        .filter(|&pid| proc_stat(pid).is_some_and(|(ppid, _)| ppid == 1))
        .filter_map(|pid| std::fs::read(format!("/proc/{pid}/cmdline")).ok())
        .map(|raw| String::from_utf8_lossy(&raw).replace('\0', " "))
        .filter(|cmdline| cmdline.contains(&mark))
        .collect()
}

#[test]
#[ignore = "needs minizinc and the Python venv with ortools"]
fn a_raised_stop_interrupts_and_kills_the_child() {
    for r in Reference::ALL {
        require(r);
        // A 16x16 board neither tool solves in a few seconds; the stop
        // comes once the solver proper (fzn-gecode for MiniZinc) runs.
        let instance = planted(&PlantedSpec::square(16, 5, 17, 1)).expect("planted").instance;
        let stop = Stop::new();
        let raiser = {
            let stop = stop.clone();
            std::thread::spawn(move || {
                std::thread::sleep(Duration::from_secs(3));
                stop.raise();
            })
        };
        let out = solve(r, &instance, 60.0, &stop).expect("runs");
        raiser.join().expect("raiser");
        assert_eq!(out.status, Status::Interrupted, "{r}: {out:?}");
        assert!(out.seconds < 10.0, "{r}: killed late, after {} s", out.seconds);
        std::thread::sleep(Duration::from_millis(200));
        assert_eq!(orphans(), Vec::<String>::new(), "{r}: processes left running");
    }
}

#[test]
fn bad_limits_are_refused() {
    let instance = planted(&PlantedSpec::square(4, 2, 3, 1)).expect("planted").instance;
    for limit in [0.0, -1.0, f64::NAN] {
        assert!(solve(Reference::MinizincGecode, &instance, limit, &Stop::new()).is_err());
    }
}

fn tiny() -> Instance {
    // 2x1: piece 1 then piece 2, joined by colour 5.
    let grid = Grid { width: 2, height: 1 };
    Instance { grid, pieces: vec![Piece([0, 5, 0, 0]), Piece([0, 0, 0, 5])], clues: vec![] }
}

#[test]
fn python_output_is_parsed() {
    let instance = tiny();
    let (status, board) =
        parse_python(&instance, "noise\n{\"status\": \"OPTIMAL\", \"cells\": [[0, 0], [1, 0]]}\n").expect("parsed");
    assert_eq!(status, Status::Solved);
    assert!(check(&instance, &board.expect("board")).is_solution());
    let unknown = parse_python(&instance, "{\"status\": \"UNKNOWN\", \"cells\": null}").expect("parsed");
    assert_eq!(unknown, (Status::Unknown, None));
    let infeasible = parse_python(&instance, "{\"status\": \"INFEASIBLE\", \"cells\": null}").expect("parsed");
    assert_eq!(infeasible, (Status::Infeasible, None));
    assert!(parse_python(&instance, "{\"status\": \"OPTIMAL\", \"cells\": [[0, 0], [2, 0]]}").is_err());
    assert!(parse_python(&instance, "{\"status\": \"OPTIMAL\", \"cells\": [[0, 4], [1, 0]]}").is_err());
    assert!(parse_python(&instance, "{\"status\": \"MODEL_INVALID\", \"cells\": null}").is_err());
    assert!(parse_python(&instance, "").is_err());
}

#[test]
fn minizinc_output_is_parsed() {
    let instance = tiny();
    let (status, board) = parse_minizinc(&instance, "BOARD 0 0 1 0\n----------\n").expect("parsed");
    assert_eq!(status, Status::Solved);
    assert!(check(&instance, &board.expect("board")).is_solution());
    assert_eq!(parse_minizinc(&instance, "=====UNSATISFIABLE=====\n").expect("parsed"), (Status::Infeasible, None));
    assert_eq!(parse_minizinc(&instance, "=====UNKNOWN=====\n").expect("parsed"), (Status::Unknown, None));
    assert!(parse_minizinc(&instance, "BOARD 0 0 1\n").is_err());
    assert!(parse_minizinc(&instance, "=====ERROR=====\n").is_err());
    assert!(parse_minizinc(&instance, "").is_err());
}

#[test]
fn dzn_lists_pieces_and_one_based_clues() {
    let mut instance = tiny();
    instance.clues.push(crate::puzzle::Clue { cell: 1, placement: Placement { piece: 1, rotation: Rotation::ALL[0] } });
    let text = dzn(&instance);
    assert!(text.contains("W = 2;\nH = 1;\nN = 2;\nC = 5;"), "{text}");
    assert!(text.contains("P = [| 0, 5, 0, 0\n   | 0, 0, 0, 5 |];"), "{text}");
    assert!(text.contains("K = 1;\nclue_cell = [1];\nclue_piece = [2];\nclue_rot = [0];"), "{text}");
}
