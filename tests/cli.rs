//! Integration tests that run the real `edgematch` binary.

use std::path::{Path, PathBuf};
use std::process::Command;

mod common;
use common::{bin, generate, interrupt_after, run, scratch, text};

fn models() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("models")
}

#[test]
fn regenerated_models_are_byte_identical() {
    let dir = scratch("regenerate");
    for (size, interior, seed) in [(10, 17, 1), (12, 17, 3), (13, 26, 2), (16, 26, 5), (16, 17, 1)] {
        let fresh = generate(&dir, size, 5, interior, seed);
        let name = fresh.file_name().unwrap();
        let stem = fresh.file_stem().unwrap().to_str().unwrap();
        let committed = models().join(name);
        assert_eq!(std::fs::read(&fresh).unwrap(), std::fs::read(&committed).unwrap(), "{}", committed.display());
        let solution = format!("{stem}.solution.json");
        assert_eq!(
            std::fs::read(dir.join(&solution)).unwrap(),
            std::fs::read(models().join(&solution)).unwrap(),
            "{solution}"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn committed_solutions_verify() {
    for size in 10..=16 {
        for interior in [17, 26] {
            let stem = format!("planted-{size}x{size}-f5i{interior}-s1");
            let instance = models().join(format!("{stem}.json"));
            let board = models().join(format!("{stem}.solution.json"));
            let output = run(&["verify", instance.to_str().unwrap(), board.to_str().unwrap()]);
            assert_eq!(output.status.code(), Some(0), "{}", text(&output));
            let max = (size - 1) * size * 2;
            assert!(text(&output).contains(&format!("verdict: solution (score {max}/{max}")), "{}", text(&output));
        }
    }
}

fn solve_planted(size: usize, frame: u32, interior: u32, solver: &str) {
    let dir = scratch(&format!("solve-{size}-{solver}"));
    let instance = generate(&dir, size, frame, interior, 7);
    let board = dir.join("board.json");
    let output = run(&[
        "solve",
        "--solver",
        solver,
        instance.to_str().unwrap(),
        "--time-limit",
        "120",
        "--out",
        board.to_str().unwrap(),
    ]);
    let all = text(&output);
    assert_eq!(output.status.code(), Some(0), "{all}");
    assert!(all.contains("status: solved"), "{all}");
    let max = (size - 1) * size * 2;
    assert!(all.contains(&format!("verdict: solution (score {max}/{max}")), "{all}");
    // The written board verifies on its own, through the other command.
    let verify = run(&["verify", instance.to_str().unwrap(), board.to_str().unwrap()]);
    assert_eq!(verify.status.code(), Some(0), "{}", text(&verify));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Every complete solver, and the portfolio, solves small planted boards (checked).
#[test]
fn each_solver_solves_small_planted_boards() {
    for solver in ["cpsat", "search", "sat", "auto"] {
        solve_planted(6, 3, 6, solver);
        solve_planted(8, 4, 9, solver);
    }
}

/// Every complete solver, and the portfolio, proves an edited board infeasible.
#[test]
fn each_complete_solver_proves_an_unsolvable_board_infeasible() {
    let dir = scratch("infeasible");
    let instance = generate(&dir, 5, 3, 5, 2);
    // Give one interior piece a colour no other piece has: no full board exists.
    let mut json: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&instance).unwrap()).unwrap();
    let pieces = json["pieces"].as_array_mut().unwrap();
    let inner = pieces.iter().position(|p| p.as_array().unwrap().iter().all(|c| c.as_u64() != Some(0))).unwrap();
    pieces[inner][0] = serde_json::json!(99);
    std::fs::write(&instance, json.to_string()).unwrap();
    for solver in ["cpsat", "search", "sat", "auto"] {
        let output = run(&["solve", "--solver", solver, instance.to_str().unwrap(), "--time-limit", "60"]);
        let all = text(&output);
        assert_eq!(output.status.code(), Some(1), "{solver}: {all}");
        assert!(all.contains("status: infeasible"), "{solver}: {all}");
    }
    // The search's two ways of using several threads (eight on any machine:
    // more threads than cores must prove the same), and the SAT backend's
    // other encodings and option sets, are complete too.
    let variants: [&[&str]; 6] = [
        &["--solver", "search", "--threads", "2", "--parallel", "split"],
        &["--solver", "search", "--threads", "2", "--parallel", "race"],
        &["--solver", "search", "--threads", "8", "--parallel", "split"],
        &["--solver", "search", "--threads", "8", "--parallel", "race"],
        &["--solver", "sat", "--am1", "commander", "--no-support"],
        &["--solver", "sat", "--am1", "bitwise", "--sat-config", "unsat"],
    ];
    for flags in variants {
        let all = solve_with(&instance, flags, 1);
        assert!(all.contains("status: infeasible"), "{flags:?}: {all}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The same variants solve a small planted board, and the board passes the checker.
#[test]
fn search_and_sat_variants_solve_small_planted_boards() {
    let dir = scratch("variants");
    let instance = generate(&dir, 8, 4, 9, 3);
    let variants: [&[&str]; 6] = [
        &["--solver", "search", "--threads", "2", "--parallel", "split"],
        &["--solver", "search", "--threads", "8", "--parallel", "split"],
        &["--solver", "search", "--threads", "2", "--parallel", "race", "--order", "corner-square-se"],
        &["--solver", "sat", "--am1", "commander", "--no-support"],
        &["--solver", "sat", "--am1", "pairwise", "--sat-config", "plain"],
        &["--solver", "sat", "--sat-config", "sat"],
    ];
    for flags in variants {
        let all = solve_with(&instance, flags, 0);
        assert!(all.contains("verdict: solution (score 112/112"), "{flags:?}: {all}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Solves `instance` with `flags` (60 s at most) and returns everything the
/// binary printed, after checking its exit code.
fn solve_with(instance: &Path, flags: &[&str], code: i32) -> String {
    let mut args = vec!["solve", instance.to_str().unwrap(), "--time-limit", "60"];
    args.extend_from_slice(flags);
    let output = run(&args);
    let all = text(&output);
    assert_eq!(output.status.code(), Some(code), "{flags:?}: {all}");
    all
}

#[test]
fn verify_reports_a_corrupted_board() {
    let dir = scratch("corrupt");
    let instance = models().join("planted-10x10-f5i17-s1.json");
    let solution = std::fs::read_to_string(models().join("planted-10x10-f5i17-s1.solution.json")).unwrap();
    // Turn the first cell of the second row by one more quarter turn.
    let mut json: serde_json::Value = serde_json::from_str(&solution).unwrap();
    let rotation = &mut json["cells"][1][0][1];
    *rotation = serde_json::json!((rotation.as_u64().unwrap() + 1) % 4);
    let board = dir.join("board.json");
    std::fs::write(&board, json.to_string()).unwrap();
    let output = run(&["verify", instance.to_str().unwrap(), board.to_str().unwrap()]);
    let all = text(&output);
    assert_eq!(output.status.code(), Some(1), "{all}");
    assert!(all.contains("verdict: invalid"), "{all}");
    assert!(all.contains("cell (1, 0)"), "{all}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Each bad input: exit 2, a one-line message naming the file and the field, no output file.
#[test]
fn bad_instances_exit_2_with_a_message() {
    let dir = scratch("bad");
    let good = std::fs::read_to_string(models().join("planted-10x10-f5i17-s1.json")).unwrap();
    let first_piece = good.lines().find(|l| l.trim_start().starts_with('[')).unwrap().to_owned();
    let first_clue = good.lines().find(|l| l.contains("\"row\"")).unwrap().to_owned();
    let cases: Vec<(&str, String, &str)> = vec![
        ("malformed", good.replacen("\"width\": 10,", "\"width\": 10", 1), "line"),
        ("few-pieces", good.replacen(&format!("{first_piece}\n"), "", 1), "`pieces`"),
        ("colour-range", good.replacen(&first_piece, "    [0, 0, 256, 3],", 1), "`pieces[0][2]`"),
        ("clue-cell", good.replacen("\"row\": 2, \"col\": 2", "\"row\": 10, \"col\": 2", 1), "`clues[0].row`"),
        (
            "clue-piece",
            good.replacen(&first_clue, "    { \"row\": 2, \"col\": 2, \"piece\": 101, \"rotation\": 0 },", 1),
            "`clues[0].piece`",
        ),
        ("two-clues", good.replacen("\"row\": 2, \"col\": 7", "\"row\": 2, \"col\": 2", 1), "`clues[1]`"),
        ("width-0", good.replacen("\"width\": 10", "\"width\": 0", 1), "`width`"),
        ("height-65", good.replacen("\"height\": 10", "\"height\": 65", 1), "`height`"),
    ];
    for (name, contents, field) in cases {
        let path = dir.join(format!("{name}.json"));
        std::fs::write(&path, contents).unwrap();
        let out = dir.join(format!("{name}.board.json"));
        let output = run(&["solve", path.to_str().unwrap(), "--out", out.to_str().unwrap()]);
        let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
        assert_eq!(output.status.code(), Some(2), "{name}: {}", text(&output));
        assert!(stderr.contains(&format!("{name}.json")), "{name}: {stderr}");
        assert!(stderr.contains(field), "{name}: {stderr} should name {field}");
        assert_eq!(stderr.trim_end().lines().count(), 1, "{name}: {stderr}");
        assert!(!stderr.contains("panicked"), "{name}: {stderr}");
        assert!(!out.exists(), "{name}: an output file was written");
    }
    let missing = run(&["solve", dir.join("nowhere.json").to_str().unwrap()]);
    assert_eq!(missing.status.code(), Some(2));
    let said = String::from_utf8_lossy(&missing.stderr);
    assert!(said.contains("nowhere.json"), "{said}");
    // The cause once: the message names it already, the chain must not repeat it.
    assert_eq!(said.matches("No such file or directory").count(), 1, "{said}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn impossible_generation_writes_nothing() {
    let dir = scratch("impossible");
    let out = dir.join("x.json");
    let output = run(&[
        "generate",
        "--size",
        "6",
        "--frame-colours",
        "1",
        "--interior-colours",
        "1",
        "--seed",
        "1",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(output.status.code(), Some(2), "{}", text(&output));
    assert!(String::from_utf8_lossy(&output.stderr).contains("duplicate"));
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The dumped model parses as a CpModelProto in OR-Tools' own Python package.
/// Runs when `EDGEMATCH_TEST_PYTHON` names an interpreter with `ortools`
/// installed (`.ci/run` sets it up), and fails if that interpreter cannot parse it.
#[test]
#[ignore = "needs the Python venv with ortools (EDGEMATCH_TEST_PYTHON)"]
fn dumped_model_parses_in_ortools_python() {
    let python = std::env::var_os("EDGEMATCH_TEST_PYTHON")
        .expect("EDGEMATCH_TEST_PYTHON must name a Python with ortools==9.15.6755 (.ci/run sets it up)");
    let dir = scratch("dump");
    let instance = models().join("planted-10x10-f5i17-s1.json");
    let script = "import sys\n\
        from ortools.sat import cp_model_pb2\n\
        m = cp_model_pb2.CpModelProto()\n\
        m.ParseFromString(open(sys.argv[1], 'rb').read())\n\
        kinds = sorted({c.WhichOneof('constraint') for c in m.constraints})\n\
        print(len(m.variables), len(m.constraints), ','.join(kinds))\n\
        for c in m.constraints:\n\
        \x20   if c.HasField('element'):\n\
        \x20       print(len(c.element.exprs), c.element.HasField('linear_index'), c.element.HasField('linear_target'))\n\
        \x20       break\n";
    // Element: 100 cells × 7 variables; 100 × (1 linear + 4 elements) + 180 joins + 1 all_diff.
    // Table: 180 join colours + 100 × 2 variables; 100 tables + 1 all_diff.
    for (model, expected) in
        [("element", "700 681 all_diff,element,linear\n400 True True"), ("table", "380 101 all_diff,table")]
    {
        let pb = dir.join(format!("{model}.pb"));
        let output = run(&[
            "solve",
            "--solver",
            "cpsat",
            instance.to_str().unwrap(),
            "--model",
            model,
            "--time-limit",
            "0.5",
            "--dump-model",
            pb.to_str().unwrap(),
        ]);
        assert!(matches!(output.status.code(), Some(0 | 1)), "{}", text(&output));
        let parsed = Command::new(&python).args(["-c", script]).arg(&pb).output().unwrap();
        assert!(parsed.status.success(), "{}", text(&parsed));
        assert_eq!(String::from_utf8_lossy(&parsed.stdout).trim(), expected, "{model}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn dfs_solves_the_10x10_and_reports_its_speed() {
    let instance = models().join("planted-10x10-f5i17-s1.json");
    let output = run(&["solve", "--solver", "dfs", instance.to_str().unwrap(), "--time-limit", "20"]);
    let all = text(&output);
    assert_eq!(output.status.code(), Some(0), "{all}");
    assert!(all.contains("status: solved"), "{all}");
    assert!(all.contains("verdict: solution (score 180/180"), "{all}");
    assert!(all.contains("nodes: ") && all.contains("nodes_per_second: "), "{all}");
}

#[test]
fn dfs_counts_and_proves() {
    let dir = scratch("dfs-count");
    let instance = generate(&dir, 5, 2, 4, 3);
    let output = run(&["solve", "--solver", "dfs", instance.to_str().unwrap(), "--count", "1000"]);
    let all = text(&output);
    assert_eq!(output.status.code(), Some(0), "{all}");
    assert!(all.contains("exhausted: true"), "{all}");

    // An interior piece with a colour nobody else has: the complete DFS proves it unsolvable.
    let mut json: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&instance).unwrap()).unwrap();
    let pieces = json["pieces"].as_array_mut().unwrap();
    let inner = pieces.iter().position(|p| p.as_array().unwrap().iter().all(|c| c.as_u64() != Some(0))).unwrap();
    pieces[inner][0] = serde_json::json!(99);
    std::fs::write(&instance, json.to_string()).unwrap();
    let output = run(&["solve", "--solver", "dfs", "--complete", instance.to_str().unwrap()]);
    let all = text(&output);
    assert_eq!(output.status.code(), Some(1), "{all}");
    assert!(all.contains("status: infeasible") && all.contains("exhausted: true"), "{all}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// SIGKILL in the middle of a bench loses at most the run in flight, and the
/// same command then finishes the rest; the report merges the runs.
#[test]
fn a_killed_cliff_bench_resumes() {
    let dir = scratch("cliff");
    let runs = dir.join("runs.jsonl");
    // 12×12 DFS runs do not finish early, so each takes its whole 1 s budget.
    let args = [
        "bench",
        "cliff",
        "--sizes",
        "12",
        "--seeds",
        "1-4",
        "--arms",
        "dfs",
        "--dfs-budgets",
        "1",
        "--runs",
        runs.to_str().unwrap(),
    ];
    let mut child = bin().args(args).stderr(std::process::Stdio::null()).spawn().unwrap();
    // Kill it once the first run is on disk, in the middle of the second.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while std::fs::read_to_string(&runs).unwrap_or_default().lines().count() < 1 {
        assert!(std::time::Instant::now() < deadline, "no run finished within 60 s");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    std::thread::sleep(std::time::Duration::from_millis(300));
    child.kill().unwrap();
    let _ = child.wait();
    let first: Vec<String> = std::fs::read_to_string(&runs).unwrap_or_default().lines().map(str::to_owned).collect();
    assert!((1..4).contains(&first.len()), "{first:?}");

    let output = run(&args);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output));
    let lines: Vec<String> = std::fs::read_to_string(&runs).unwrap().lines().map(str::to_owned).collect();
    assert_eq!(lines.len(), 4, "{lines:?}");
    assert_eq!(&lines[..first.len()], &first[..], "finished runs are kept as they were");
    for (seed, line) in (1..=4).zip(&lines) {
        let run: serde_json::Value = serde_json::from_str(line).unwrap();
        assert_eq!(run["instance"], format!("planted-12x12-f5i17-s{seed}"));
        assert!(run["verified_score"].as_u64().unwrap() > 0);
    }
    // A third run has nothing left to do.
    let again = run(&args);
    assert!(text(&again).contains("0 to run"), "{}", text(&again));

    let table = dir.join("table.md");
    let svg = dir.join("chart.svg");
    let output = run(&[
        "bench",
        "report",
        runs.to_str().unwrap(),
        "--out",
        table.to_str().unwrap(),
        "--svg",
        svg.to_str().unwrap(),
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output));
    assert!(std::fs::read_to_string(&table).unwrap().contains("| 5+17 | 12×12 | dfs | 1 | 0/4 |"));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `bench report --compare` writes the comparison table beside the others,
/// from the latest run of each job; its flags come together or not at all.
#[test]
fn report_compares_an_arm_with_the_references() {
    let dir = scratch("report-compare");
    let runs = dir.join("runs.jsonl");
    let line = |arm: &str, instance: &str, budget: f64, seconds: Option<f64>| {
        serde_json::json!({"arm": arm, "instance": instance, "size": 5, "colours": "brendan", "seed": 0,
                           "budget": budget, "status": if seconds.is_some() { "solved" } else { "unknown" },
                           "solved": seconds.is_some(), "verified_score": 0, "target": 40,
                           "seconds": seconds.unwrap_or(budget + 0.5), "nodes": null, "restarts": null,
                           "model": null, "commit": "test", "dirty": false, "ortools": "9.15.6755", "cores": 2})
        .to_string()
    };
    let lines = [
        line("auto", "p1", 30.0, None), // run again below: the later run counts
        line("auto", "p1", 30.0, Some(0.02)),
        line("auto", "p2", 30.0, Some(0.04)),
        line("search", "p1", 30.0, Some(0.02)),
        line("search", "p2", 30.0, None),
        line("python-element", "p1", 30.0, Some(0.4)),
        line("python-element", "p2", 30.0, None),
        line("minizinc-gecode", "p1", 30.0, None),
        line("minizinc-gecode", "p2", 30.0, None),
        line("auto", "p1", 600.0, Some(0.02)),
    ];
    std::fs::write(&runs, lines.join("\n") + "\n").unwrap();
    let (table, svg, compare) = (dir.join("table.md"), dir.join("chart.svg"), dir.join("compare.md"));
    let s = |p: &Path| p.to_str().unwrap().to_owned();
    let report = |more: &[&str]| {
        let mut args = vec!["bench".to_owned(), "report".to_owned(), s(&runs), "--out".to_owned(), s(&table)];
        args.extend(["--svg".to_owned(), s(&svg)]);
        args.extend(more.iter().map(|a| (*a).to_owned()));
        bin().args(&args).output().unwrap()
    };
    let output = report(&["--compare", "auto", "--compare-out", &s(&compare)]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output));
    let written = std::fs::read_to_string(&compare).unwrap();
    assert!(
        written.contains(
            "| brendan 5×5 | 30 | 2 | 2/2 | 0.030 | 1/2 / 15.20 | 0/2 / 30.00 | search (1, 15.01) | 506.7× |"
        ),
        "{written}"
    );
    assert!(written.contains("Left out, for want of a board they all ran: brendan 5×5 at 600 s."), "{written}");
    assert!(std::fs::read_to_string(&table).unwrap().contains("| brendan | 5×5 | auto | 30 | 2/2 |"));
    // One reference: the same boards, compared with MiniZinc alone.
    let output = report(&["--compare", "auto", "--references", "minizinc-gecode", "--compare-out", &s(&compare)]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output));
    assert!(std::fs::read_to_string(&compare).unwrap().contains("| 0/2 / 30.00 | search (1, 15.01) | — |"));
    // A flag without the others, or the compared arm among the references: exit 2, nothing written.
    std::fs::remove_file(&compare).unwrap();
    for bad in [
        &["--compare", "auto"][..],
        &["--compare-out", &s(&compare)],
        &["--references", "sat", "--compare-out", &s(&compare)],
        &["--compare", "auto", "--references", "auto", "--compare-out", &s(&compare)],
    ] {
        let output = report(bad);
        assert_eq!(output.status.code(), Some(2), "{bad:?}: {}", text(&output));
        assert!(!compare.exists(), "{bad:?}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Ctrl-C (SIGINT) stops CP-SAT through the bridge's stop call: the command
/// says "interrupted" and exits 130 long before its time limit.
#[test]
fn ctrl_c_interrupts_a_cpsat_solve() {
    let instance = models().join("planted-16x16-f5i17-s1.json");
    let args = ["solve", "--solver", "cpsat", instance.to_str().unwrap(), "--model", "element", "--time-limit", "600"];
    let (output, took) = interrupt_after(&args, 500);
    let all = text(&output);
    assert_eq!(output.status.code(), Some(130), "{all}");
    assert!(all.contains("interrupted"), "{all}");
    assert!(took.as_secs_f64() < 5.0, "the stop call took {took:?} to stop the search");
}

/// HiGHS does not look at its interrupt callback during its root LP: Ctrl-C
/// still ends the MIP solve within the grace period, with exit code 130.
#[test]
fn ctrl_c_ends_a_mip_solve_in_its_root_lp() {
    let instance = models().join("planted-12x12-f5i17-s2.json");
    let args = ["solve", "--solver", "mip", instance.to_str().unwrap(), "--time-limit", "600"];
    let (output, took) = interrupt_after(&args, 500);
    let all = text(&output);
    assert_eq!(output.status.code(), Some(130), "{all}");
    assert!(all.contains("interrupted"), "{all}");
    assert!(took.as_secs_f64() < 8.0, "took {took:?} after the signal");
}

/// A flag of one solver given to another is refused, naming both, with exit 2.
#[test]
fn flags_of_another_solver_are_refused() {
    let instance = models().join("planted-10x10-f5i17-s1.json");
    let cases: [(&[&str], &str, &str); 7] = [
        (&["--solver", "dfs", "--dump-model", "x.pb"], "--dump-model", "--solver cpsat"),
        (&["--complete"], "--complete", "--solver dfs"),
        (&["--solver", "mip", "--workers", "2"], "--workers", "--solver cpsat"),
        (&["--count", "3", "--solver", "cpsat"], "--count", "--solver dfs"),
        (&["--solver", "cpsat", "--order", "row-scan"], "--order", "--solver search"),
        (&["--solver", "search", "--sat-config", "plain"], "--sat-config", "--solver sat"),
        (&["--parallel", "race", "--solver", "sat"], "--parallel", "--solver search"),
    ];
    for (flags, flag, owner) in cases {
        let mut args = vec!["solve", instance.to_str().unwrap()];
        args.extend_from_slice(flags);
        let output = run(&args);
        let all = text(&output);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {all}");
        assert!(all.contains(flag) && all.contains(owner), "{args:?}: {all}");
        assert!(!std::path::Path::new("x.pb").exists());
    }
    // Values checked by the parser: the seed's range, positive seconds.
    for bad in [["--seed", "2147483648"], ["--time-limit", "0"]] {
        let output = run(&["solve", instance.to_str().unwrap(), bad[0], bad[1]]);
        assert_eq!(output.status.code(), Some(2), "{bad:?}: {}", text(&output));
        assert!(text(&output).contains(bad[0]), "{}", text(&output));
    }
}

/// Ctrl-C stops every arm of the portfolio (here the native search on a board
/// it cannot finish, and SAT beside it on a few-colour board) within 5 s.
#[test]
fn ctrl_c_stops_every_arm_of_the_portfolio() {
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("data");
    for instance in [models().join("planted-16x16-f5i26-s1.json"), data.join("brendan/pieces_08x08.txt")] {
        let args = ["solve", instance.to_str().unwrap(), "--time-limit", "600"];
        let (output, took) = interrupt_after(&args, 500);
        let all = text(&output);
        assert_eq!(output.status.code(), Some(130), "{all}");
        assert!(all.contains("interrupted"), "{all}");
        assert!(took.as_secs_f64() < 5.0, "took {took:?} after the signal");
    }
}

/// `bench search-speed` solves each board with the strip test and without,
/// on the same order, and records both runs and their ratios.
#[test]
fn search_speed_bench_runs_each_board_both_ways() {
    let dir = scratch("search-speed");
    let boards = [generate(&dir, 8, 3, 12, 1), generate(&dir, 9, 4, 16, 2)];
    let out = dir.join("search-speed.json");
    let mut args = vec!["bench".to_owned(), "search-speed".to_owned(), "--seconds".to_owned(), "20".to_owned()];
    args.extend(boards.iter().map(|b| b.display().to_string()));
    args.extend(["--out".to_owned(), out.display().to_string()]);
    let output = run(&args.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(output.status.code(), Some(0), "{}", text(&output));
    let record: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    let runs = record["runs"].as_array().unwrap();
    assert_eq!(runs.len(), 4, "{record}");
    for (pair, board) in runs.chunks(2).zip(&boards) {
        assert_eq!(pair[0]["instance"], board.display().to_string());
        assert_eq!(pair[0]["order"], pair[1]["order"], "one order for both runs");
        assert_eq!((pair[0]["strip_test"].as_bool(), pair[1]["strip_test"].as_bool()), (Some(true), Some(false)));
        assert!(pair.iter().all(|r| r["solved"] == true), "{pair:?}");
        // The test only removes nodes from the same tree.
        assert!(pair[0]["nodes"].as_u64().unwrap() <= pair[1]["nodes"].as_u64().unwrap(), "{pair:?}");
    }
    assert_eq!(record["pairs"].as_array().unwrap().len(), 2, "{record}");
    assert_eq!(record["benchmark"], "search-speed");
}

/// `bench score-speed --planted` walks the official set, then each planted
/// board named by its side, and records each board's rate under its name;
/// a side out of range is refused naming the flag. Catches a planted board
/// dropped from the record or walked under another name.
#[test]
fn score_speed_bench_walks_the_planted_boards_it_is_given() {
    let dir = scratch("score-speed");
    let out = dir.join("speed.json");
    let output = run(&["bench", "score-speed", "--seconds", "1", "--planted", "8,9", "--out", out.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output));
    let record: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    assert!(record["ours_placements_per_second"].as_f64().unwrap() > 0.0, "{record}");
    let planted = record["planted"].as_array().unwrap();
    let names: Vec<&str> = planted.iter().map(|b| b["board"].as_str().unwrap()).collect();
    assert_eq!(names, ["planted-8x8-f5i17-s1", "planted-9x9-f5i17-s1"]);
    assert!(planted.iter().all(|b| b["speed"]["placements"].as_u64().unwrap() > 0), "{record}");
    let bad = run(&["bench", "score-speed", "--seconds", "1", "--planted", "1", "--out", out.to_str().unwrap()]);
    assert_ne!(bad.status.code(), Some(0));
    assert!(text(&bad).contains("--planted: 1 is not in 2..="), "{}", text(&bad));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_board_naming_a_piece_the_instance_lacks_is_reported_not_a_panic() {
    let dir = scratch("unknown-piece");
    let instance = models().join("planted-10x10-f5i17-s1.json");
    let text_of = std::fs::read_to_string(models().join("planted-10x10-f5i17-s1.solution.json")).unwrap();
    let mut board: serde_json::Value = serde_json::from_str(&text_of).unwrap();
    board["cells"][0][0] = serde_json::json!([999, 0]);
    let path = dir.join("bad.json");
    std::fs::write(&path, board.to_string()).unwrap();
    let (i, b) = (instance.to_str().unwrap(), path.to_str().unwrap());
    let verified = run(&["verify", i, b]);
    assert_eq!(verified.status.code(), Some(1), "{}", text(&verified));
    assert!(text(&verified).contains("unknown-piece") || text(&verified).contains("999"), "{}", text(&verified));
    let svg = dir.join("bad.svg");
    let rendered = run(&["render", i, b, "-o", svg.to_str().unwrap()]);
    assert!(rendered.status.success(), "{}", text(&rendered));
    for to in ["bucas", "text"] {
        let converted = run(&["convert", b, "--instance", i, "--to", to]);
        assert_eq!(converted.status.code(), Some(2), "{}", text(&converted));
        assert!(text(&converted).contains("names piece 999"), "{}", text(&converted));
    }
}
