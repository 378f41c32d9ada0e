//! Cube and conquer through the real binary, without Slurm: `split`, `solve`
//! on each cube file, `collect`, and `solve --cubes`.

use std::path::{Path, PathBuf};
use std::process::Command;

mod common;
use common::{run, scratch, text};

fn s(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// A planted 6x6 board with 3+4 colours (solved in milliseconds), and a copy
/// made unsolvable: one interior piece shows a colour no other piece has.
fn boards(dir: &Path) -> (PathBuf, PathBuf) {
    let planted = dir.join("planted.json");
    let out = run(&[
        "generate",
        "--size",
        "6",
        "--frame-colours",
        "3",
        "--interior-colours",
        "4",
        "--seed",
        "2",
        "--out",
        s(&planted),
    ]);
    assert!(out.status.success(), "{}", text(&out));
    let mut json: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&planted).unwrap()).unwrap();
    let pieces = json["pieces"].as_array_mut().unwrap();
    let inner = pieces.iter().position(|p| p.as_array().unwrap().iter().all(|c| c.as_u64() != Some(0))).unwrap();
    pieces[inner][0] = serde_json::Value::from(99);
    json["clues"].as_array_mut().unwrap().retain(|c| c["piece"].as_u64() != Some(inner as u64 + 1));
    let unsolvable = dir.join("unsolvable.json");
    std::fs::write(&unsolvable, serde_json::to_string_pretty(&json).unwrap()).unwrap();
    (planted, unsolvable)
}

fn cube_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let name = p.file_name().unwrap().to_str().unwrap();
            name.starts_with("cube-") && !name.ends_with(".result.json")
        })
        .collect();
    files.sort();
    files
}

#[test]
fn split_solve_each_cube_and_collect_find_the_board_or_refute_every_cube() {
    let dir = scratch("cubes-split-collect");
    let (planted, unsolvable) = boards(&dir);

    let cubes = dir.join("planted-cubes");
    let out = run(&["split", s(&planted), "--cubes", "5", "--out", s(&cubes)]);
    assert!(out.status.success(), "{}", text(&out));
    let files = cube_files(&cubes);
    assert!(files.len() >= 5, "{}", text(&out));
    // Before any cube ran: open, exit 1, every cube missing.
    let out = run(&["collect", s(&cubes)]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(text(&out).contains("status: unknown"), "{}", text(&out));
    let mut solved = 0;
    for file in &files {
        let out = run(&["solve", s(file), "--solver", "search", "--threads", "1"]);
        let code = out.status.code().unwrap();
        assert!(code == 0 || code == 1, "{}", text(&out));
        solved += usize::from(code == 0);
        assert!(cubes.join(file.file_stem().unwrap().to_str().unwrap().to_owned() + ".result.json").is_file());
    }
    assert!(solved >= 1);
    // A cube already answered is not run again.
    let out = run(&["solve", s(&files[0])]);
    assert!(text(&out).contains("already"), "{}", text(&out));
    let board = dir.join("board.json");
    let out = run(&["collect", s(&cubes), "--out", s(&board)]);
    assert!(out.status.success(), "{}", text(&out));
    assert!(text(&out).contains("status: solved"), "{}", text(&out));
    let out = run(&["verify", s(&planted), s(&board)]);
    assert!(out.status.success(), "the collected board verifies against the original: {}", text(&out));

    let cubes = dir.join("unsolvable-cubes");
    let out = run(&["split", s(&unsolvable), "--cubes", "3", "--out", s(&cubes), "--order", "row-scan"]);
    assert!(out.status.success(), "{}", text(&out));
    for file in cube_files(&cubes) {
        let out = run(&["solve", s(&file), "--solver", "dfs", "--complete"]);
        assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    }
    let out = run(&["collect", s(&cubes)]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(text(&out).contains("status: infeasible"), "{}", text(&out));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn solve_with_cubes_runs_them_on_the_local_cores() {
    let dir = scratch("cubes-local");
    let (planted, unsolvable) = boards(&dir);
    let board = dir.join("board.json");
    let out = run(&["solve", s(&planted), "--cubes", "8", "--solver", "search", "--out", s(&board)]);
    assert!(out.status.success(), "{}", text(&out));
    assert!(text(&out).contains("status: solved"), "{}", text(&out));
    assert!(run(&["verify", s(&planted), s(&board)]).status.success());
    for solver in ["auto", "sat"] {
        let out = run(&["solve", s(&unsolvable), "--cubes", "4", "--solver", solver]);
        assert_eq!(out.status.code(), Some(1), "{}", text(&out));
        assert!(text(&out).contains("status: infeasible"), "{}", text(&out));
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_cube_folders_and_results_are_refused_naming_the_file() {
    let dir = scratch("cubes-bad");
    let (planted, _) = boards(&dir);
    let out = run(&["collect", s(&dir.join("nowhere"))]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out).contains("cubes.json"), "{}", text(&out));
    let out = run(&["split", s(&planted), "--cubes", "0", "--out", s(&dir.join("c"))]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));

    let one = dir.join("one");
    let two = dir.join("two");
    assert!(run(&["split", s(&planted), "--cubes", "4", "--out", s(&one)]).status.success());
    assert!(run(&["split", s(&planted), "--cubes", "9", "--out", s(&two)]).status.success());
    let _ = run(&["solve", s(&two.join("cube-0001.json")), "--solver", "search"]);
    // A result of another split's cube 1, copied in, is named and refused.
    std::fs::copy(two.join("cube-0001.result.json"), one.join("cube-0001.result.json")).unwrap();
    let out = run(&["collect", s(&one)]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(text(&out).contains("cube-0001.result.json"), "{}", text(&out));
    // An edited cube file fails its instance hash.
    let cube = one.join("cube-0002.json");
    let edited = std::fs::read_to_string(&cube).unwrap().replacen("\"width\": 6", "\"width\": 7", 1);
    std::fs::write(&cube, edited).unwrap();
    let out = run(&["solve", s(&cube)]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(text(&out).contains("cube-0002.json"), "{}", text(&out));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_bench_shard_comes_from_a_slurm_array_task() {
    let dir = scratch("cubes-bench-shard");
    let runs = dir.join("runs-{shard}.jsonl");
    let mut files = Vec::new();
    for (id, min) in [("0", "0"), ("1", "0")] {
        let out = Command::new(env!("CARGO_BIN_EXE_edgematch"))
            .args(["bench", "cliff", "--sizes", "4", "--colours", "2+3", "--seeds", "2-3", "--arms", "search"])
            .args(["--models-dir", s(&dir.join("none")), "--runs", s(&runs)])
            .env("SLURM_ARRAY_TASK_ID", id)
            .env("SLURM_ARRAY_TASK_MIN", min)
            .env("SLURM_ARRAY_TASK_COUNT", "2")
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", text(&out));
        let k = id.parse::<usize>().unwrap() + 1;
        assert!(text(&out).contains(&format!("shard {k}/2")), "{}", text(&out));
        files.push(dir.join(format!("runs-{k}.jsonl")));
    }
    let lines: Vec<usize> = files.iter().map(|f| std::fs::read_to_string(f).unwrap().lines().count()).collect();
    assert_eq!(lines, vec![1, 1], "one job per task");
    let table = dir.join("table.md");
    let out = run(&["bench", "report", s(&files[0]), s(&files[1]), "--out", s(&table), "--svg", s(&dir.join("c.svg"))]);
    assert!(out.status.success() && text(&out).contains("(2 runs)"), "{}", text(&out));
    std::fs::remove_dir_all(&dir).unwrap();
}
