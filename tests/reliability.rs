//! Reliability tests on the real binary and the library's edges: limits on
//! input, the bridges' validators, signals, time limits, answers the checker
//! rejects (fault injection), concurrent bench shards and pinned downloads.

use std::io::{BufRead as _, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Output, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

mod common;
use common::{bin, interrupt_after, run, text};

#[path = "../build/pins.rs"]
#[allow(dead_code)]
mod pins;

/// The tests that time the binary run one at a time, so they do not slow each other down.
static TIMED: Mutex<()> = Mutex::new(());

fn timed() -> std::sync::MutexGuard<'static, ()> {
    TIMED.lock().unwrap_or_else(|e| e.into_inner())
}

fn scratch(name: &str) -> PathBuf {
    common::scratch(&format!("reliability-{name}"))
}

fn model(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("models").join(name).to_str().unwrap().to_owned()
}

/// A planted square board written by `generate`.
#[cfg_attr(not(feature = "fault-injection"), allow(dead_code))]
fn generate(dir: &Path, size: usize, frame: u32, interior: u32) -> String {
    let out = dir.join(format!("planted-{size}.json"));
    let (s, f, i) = (size.to_string(), frame.to_string(), interior.to_string());
    let output = run(&[
        "generate",
        "--size",
        &s,
        "--frame-colours",
        &f,
        "--interior-colours",
        &i,
        "--seed",
        "3",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(output.status.success(), "{}", text(&output));
    out.to_str().unwrap().to_owned()
}

/// Exit 2 and a message containing each of `words`.
fn refused(output: &Output, words: &[&str]) {
    let all = text(output);
    assert_eq!(output.status.code(), Some(2), "{all}");
    for w in words {
        assert!(all.contains(w), "{all} should say {w}");
    }
}

/// Sizes above 64×64, colours above 255, files above the size limit, and more
/// clues or pieces than a board holds are refused with a message (exit 2).
#[test]
fn inputs_beyond_the_limits_are_refused_with_a_message() {
    let dir = scratch("limits");
    let write = |name: &str, text: &str| {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        path.to_str().unwrap().to_owned()
    };
    let wide = write("wide.json", r#"{"format":"edgematch-instance/1","width":65,"height":1,"pieces":[]}"#);
    refused(&run(&["solve", &wide]), &["wide.json", "`width`", "65", "1..=64"]);
    let huge =
        write("huge.json", r#"{"format":"edgematch-instance/1","width":99999999999,"height":99999999999,"pieces":[]}"#);
    refused(&run(&["solve", &huge]), &["huge.json", "`width`"]);
    let colour =
        write("colour.json", r#"{"format":"edgematch-instance/1","width":1,"height":1,"pieces":[[0,0,0,256]]}"#);
    refused(&run(&["solve", &colour]), &["colour.json", "pieces[0][3]", "0..=255"]);
    let listed = write("colour.txt", "1 1\n0 0 0 300\n");
    refused(&run(&["solve", &listed]), &["colour.txt", "line 2", "0..=255"]);
    let header = write("size.txt", "100 100\n0 0 0 0\n");
    refused(&run(&["solve", &header]), &["size.txt", "line 1", "100"]);
    refused(&run(&["generate", "--size", "65", "--seed", "1", "--out", "x.json"]), &["65"]);

    // A 2×2 board has 4 cells: a fifth clue is refused, naming the line.
    let instance = write(
        "two.json",
        r#"{"format":"edgematch-instance/1","width":2,"height":2,"pieces":[[0,1,1,0],[0,0,1,1],[1,1,0,0],[1,0,0,1]]}"#,
    );
    let board = write(
        "two.board.json",
        r#"{"format":"edgematch-board/1","width":2,"height":2,"cells":[[[1,0],[2,0]],[[3,0],[4,0]]]}"#,
    );
    let four = "a 1 0 0 0 0 0 0 1 1 0\nb 2 1 0 1 0 0 0 0 1 1\nc 3 2 1 0 0 0 1 1 0 0\nd 4 3 1 1 0 0 1 0 0 1\n";
    let clues = write("four.txt", four);
    let fine = run(&["verify", &instance, &board, "--clues", &clues]);
    assert_eq!(fine.status.code(), Some(0), "{}", text(&fine));
    let clues = write("clues.txt", &format!("{four}e 1 0 0 0 0 0 0 1 1 0\n"));
    refused(
        &run(&["verify", &instance, &board, "--clues", &clues]),
        &["clues.txt", "line 5", "more clues than the 4 cells"],
    );
    let many = format!(
        r#"{{"format":"edgematch-instance/1","width":1,"height":1,"pieces":[[0,0,0,0]],"clues":[{}]}}"#,
        [r#"{"row":0,"col":0,"piece":1,"rotation":0}"#; 2].join(",")
    );
    let many = write("many.json", &many);
    refused(&run(&["solve", &many]), &["many.json", "`clues`", "2 clues"]);
    let pieces = write("pieces.txt", &"0 0 0 0\n".repeat(64 * 64 + 1));
    refused(&run(&["solve", &pieces]), &["pieces.txt", "line 4097", "more than 4096 pieces"]);

    // The 64×64 models (CP-SAT's three formulations, the MIP) are refused before they are built.
    let out = dir.join("planted-64.json");
    let output = run(&["generate", "--size", "64", "--seed", "1", "--out", out.to_str().unwrap()]);
    assert!(output.status.success(), "{}", text(&output));
    let big = out.to_str().unwrap();
    for model in ["table", "element", "boolean"] {
        let start = Instant::now();
        refused(&run(&["solve", big, "--solver", "cpsat", "--model", model]), &["64x64", "constants", "more than"]);
        assert!(start.elapsed() < Duration::from_secs(10), "{model}: {:?}", start.elapsed());
    }
    refused(&run(&["solve", big, "--solver", "mip"]), &["64x64", "placement columns"]);

    // A file above the limit is refused before it is read (a sparse file: no disk used).
    let big = dir.join("big.json");
    std::fs::File::create(&big).unwrap().set_len(edgematch::input::MAX_FILE_BYTES + 1).unwrap();
    refused(&run(&["solve", big.to_str().unwrap()]), &["big.json", "larger than 16777216 bytes"]);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Broken CP-SAT models and parameters are refused by the Rust-side
/// validator with an error: OR-Tools is never called with them (it would
/// abort the test process), and a valid model still solves.
#[test]
fn the_cpsat_bridge_refuses_broken_models_instead_of_aborting() {
    use edgematch::cpsat::proto::constraint_proto::Constraint;
    use edgematch::cpsat::proto::{
        ConstraintProto, CpModelProto, CpSolverStatus, IntegerVariableProto, LinearExpressionProto, SatParameters,
        TableConstraintProto,
    };
    use edgematch::cpsat::solve_proto;
    use edgematch::stop::Stop;

    let var = |lo, hi| IntegerVariableProto { name: "x".into(), domain: vec![lo, hi] };
    let x = |v| LinearExpressionProto { vars: vec![v], coeffs: vec![1], offset: 0 };
    let table = |exprs, values| ConstraintProto {
        constraint: Some(Constraint::Table(TableConstraintProto { exprs, values, ..Default::default() })),
        ..Default::default()
    };
    let good = CpModelProto {
        variables: vec![var(0, 3), var(0, 3)],
        constraints: vec![table(vec![x(0), x(1)], vec![1, 2, 3, 0])],
        ..Default::default()
    };
    let params = SatParameters { num_workers: Some(1), max_time_in_seconds: Some(10.0), ..Default::default() };
    let response = solve_proto(&good, &params, &Stop::new()).unwrap();
    assert_eq!(CpSolverStatus::try_from(response.status), Ok(CpSolverStatus::Optimal));

    let mut broken = Vec::new();
    let mut m = good.clone();
    m.variables[0].domain = vec![];
    broken.push((m, "variable 0"));
    let mut m = good.clone();
    m.variables[1].domain = vec![5, 1];
    broken.push((m, "variable 1"));
    let mut m = good.clone();
    m.constraints[0] = table(vec![x(0), x(9)], vec![1, 2]);
    broken.push((m, "variable 9"));
    let mut m = good.clone();
    m.constraints[0] = table(vec![x(0), x(1)], vec![1, 2, 3]);
    broken.push((m, "whole number of rows"));
    let mut m = good.clone();
    m.constraints.push(ConstraintProto::default());
    broken.push((m, "constraint 1"));
    for (model, words) in broken {
        let message = solve_proto(&model, &params, &Stop::new()).unwrap_err().to_string();
        assert!(message.contains("refused before calling OR-Tools") && message.contains(words), "{message}");
    }
    for bad in [
        SatParameters { num_workers: Some(10_001), ..params },
        SatParameters { max_time_in_seconds: Some(-1.0), ..params },
    ] {
        assert!(solve_proto(&good, &bad, &Stop::new()).is_err(), "{bad:?}");
    }
}

/// A MIP whose arrays do not fit each other, or whose start does not fit its
/// columns, is refused before HiGHS reads them; a start and an objective
/// floor cross the bridge and HiGHS honours them; each improving incumbent
/// comes back through the callback. Catches a start or floor dropped in C++,
/// or a callback that never fires or reads the wrong item.
#[test]
fn the_highs_bridge_refuses_broken_problems() {
    use edgematch::mip::MipEnv;
    use edgematch::mip::bridge::{Incumbents, MipProblem};
    let problem = || MipProblem {
        col_cost: vec![1.0, 1.0],
        col_lower: vec![0.0, 0.0],
        col_upper: vec![1.0, 1.0],
        integrality: vec![1, 1],
        row_lower: vec![f64::NEG_INFINITY],
        row_upper: vec![1.0],
        a_start: vec![0, 1, 2],
        a_index: vec![0, 0],
        a_value: vec![1.0, 1.0],
        start: Vec::new(),
        objective_floor: f64::NEG_INFINITY,
        time_limit: 10.0,
        seed: 1,
        log: false,
    };
    let (tx, rx) = std::sync::mpsc::channel();
    let incumbents = Incumbents::new(move |found| drop(tx.send(found)));
    let result = MipEnv::new().solve(&problem(), &incumbents).unwrap();
    assert!(result.has_solution && (result.objective - 1.0).abs() < 1e-9);
    let seen: Vec<_> = rx.try_iter().collect();
    assert!(seen.last().is_some_and(|i| (i.objective - 1.0).abs() < 1e-9 && i.col_value.len() == 2), "{seen:?}");
    // The start is HiGHS' incumbent; a floor above the optimum leaves no solution.
    let started = MipProblem { start: vec![0.0, 1.0], objective_floor: 1.0, ..problem() };
    let result = MipEnv::new().solve(&started, &incumbents).unwrap();
    assert!(result.has_solution && result.col_value == [0.0, 1.0], "{:?}", result.col_value);
    let above = MipProblem { objective_floor: 2.0, ..problem() };
    assert!(!MipEnv::new().solve(&above, &incumbents).unwrap().has_solution);
    let mut bad = problem();
    bad.a_index[1] = 7;
    let message = MipEnv::new().solve(&bad, &incumbents).err().expect("refused").to_string();
    assert!(message.contains("refused before calling HiGHS") && message.contains("a_index[1]"), "{message}");
    for bad in [
        MipProblem { a_start: vec![0, 5, 2], ..problem() },
        MipProblem { start: vec![1.0], ..problem() },
        MipProblem { start: vec![0.0, f64::NAN], ..problem() },
    ] {
        assert!(MipEnv::new().solve(&bad, &incumbents).is_err());
    }
}

/// `--time-limit S` returns for every solver and the portfolio on a 16×16
/// board none of them solves that fast, within S + 5 s (wall time of the whole
/// process, model building included): a bound that catches a solver ignoring
/// its limit, not a speed claim (the measured overrun, under 2 s, is in
/// results/time-limits.md). A solver that overruns once gets a second try,
/// and both times are printed.
#[test]
fn every_solver_returns_within_its_time_limit() {
    let _one_at_a_time = timed();
    let instance = model("planted-16x16-f5i17-s1.json");
    let limit = 2.0;
    for solver in ["dfs", "search", "sat", "cpsat", "mip", "auto"] {
        let mut tries = Vec::new();
        while tries.len() < 2 && tries.last().is_none_or(|&t| t > limit + 5.0) {
            let start = Instant::now();
            let output = run(&["solve", "--solver", solver, &instance, "--time-limit", "2"]);
            tries.push(start.elapsed().as_secs_f64());
            let all = text(&output);
            assert_eq!(output.status.code(), Some(1), "{solver}: {all}");
            assert!(all.contains("status: unknown"), "{solver}: {all}");
        }
        eprintln!("{solver}: --time-limit {limit}: {tries:.2?} s");
        assert!(tries.last().unwrap() <= &(limit + 5.0), "{solver}: --time-limit {limit} returned after {tries:.2?} s");
    }
}

/// Ctrl-C stops every solver (HiGHS, which runs no interrupt callback in its
/// root LP, is abandoned after a second), within 5 s here: a bound that catches
/// a stop not heard, not the latency (under 2 s, measured in
/// results/time-limits.md). `solve` prints `interrupted`,
/// the best verified board when there is one, and exits 130; the `--out` file
/// is the verified board, whole, and no temporary file is left beside it. The
/// signal is sent once the solver runs (the `solver:` line); the machine is
/// shared, so a solver that overruns once gets a second try, and both times are printed.
#[test]
fn ctrl_c_stops_every_solver() {
    let _one_at_a_time = timed();
    let dir = scratch("ctrl-c");
    let instance = model("planted-16x16-f5i26-s2.json");
    for solver in ["dfs", "search", "sat", "cpsat", "mip", "auto"] {
        let out = dir.join(format!("{solver}.json"));
        let args = ["solve", "--solver", solver, &instance, "--time-limit", "600", "--out", out.to_str().unwrap()];
        let bound = Duration::from_secs(5);
        let mut tries = Vec::new();
        let all = loop {
            let (output, took) = interrupt_after(&args, 700);
            let all = text(&output);
            assert_eq!(output.status.code(), Some(130), "{solver}: {all}");
            assert!(all.contains("status: interrupted"), "{solver}: {all}");
            tries.push(took);
            if took <= bound || tries.len() == 2 {
                break all;
            }
        };
        eprintln!("{solver}: exited {tries:.2?} after Ctrl-C");
        assert!(tries.last().is_some_and(|&t| t <= bound), "{solver}: exited {tries:?} after Ctrl-C");
        if all.contains("(verified)") {
            let verify = run(&["verify", &instance, out.to_str().unwrap()]);
            assert!(text(&verify).contains("verdict:"), "{solver}: {}", text(&verify));
        } else {
            assert!(!out.exists(), "{solver}: a board file without a verified board");
        }
    }
    let partial = ["dfs", "search"].iter().all(|s| dir.join(format!("{s}.json")).exists());
    assert!(partial, "the native searches always have a partial board to report");
    let leftovers: Vec<_> = std::fs::read_dir(&dir).unwrap().filter_map(Result::ok).map(|e| e.file_name()).collect();
    assert!(leftovers.iter().all(|n| !n.to_string_lossy().ends_with(".tmp")), "{leftovers:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A board corrupted between `solver` and the checker (the `fault-injection`
/// feature) is reported as the checker's rejection, exit 3, and never printed
/// or written as a solution; without the fault the same solve is verified.
#[cfg(feature = "fault-injection")]
fn a_corrupted_board_is_rejected_with_exit_3(solver: &str) {
    let dir = scratch(&format!("fault-{solver}"));
    let small = generate(&dir, 5, 2, 3);
    let out = dir.join("board.json");
    let output = bin()
        .args(["solve", "--solver", solver, &small, "--time-limit", "60", "--out", out.to_str().unwrap()])
        .env(edgematch::fault::VAR, format!("corrupt-board:{solver}"))
        .output()
        .unwrap();
    let all = text(&output);
    assert_eq!(output.status.code(), Some(3), "{solver}: {all}");
    assert!(all.contains("failed the checker") && all.contains("is already used at"), "{solver}: {all}");
    assert!(!all.contains("verdict: solution") && !all.contains("board (piece/rotation"), "{solver}: {all}");
    assert!(!out.exists(), "{solver}: a rejected board was written");
    let clean = run(&["solve", "--solver", solver, &small, "--time-limit", "60"]);
    assert_eq!(clean.status.code(), Some(0), "{solver}: {}", text(&clean));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// One fault-injection test per solver. Built without the feature (which a
/// user's build never has), each is ignored with the reason, and fails if run
/// anyway (`.ci/run` runs the ignored tests): a CI without the feature cannot
/// pass them by leaving them out.
macro_rules! fault_tests {
    ($($name:ident => $solver:literal),* $(,)?) => {
        $(
            #[test]
            #[cfg_attr(not(feature = "fault-injection"), ignore = "needs --features fault-injection")]
            fn $name() {
                #[cfg(feature = "fault-injection")]
                a_corrupted_board_is_rejected_with_exit_3($solver);
                #[cfg(not(feature = "fault-injection"))]
                panic!("{}: build the tests with --features fault-injection", $solver);
            }
        )*
    };
}

fault_tests! {
    a_corrupted_dfs_board_exits_3 => "dfs",
    a_corrupted_search_board_exits_3 => "search",
    a_corrupted_sat_board_exits_3 => "sat",
    a_corrupted_cpsat_board_exits_3 => "cpsat",
    a_corrupted_mip_board_exits_3 => "mip",
    a_corrupted_portfolio_board_exits_3 => "auto",
}

/// A score run's board corrupted at `fault` (each board the walks offer,
/// before the run's checker sees it; the walk's new bests, in `search` and in
/// `auto`; CP-SAT's or the MIP's incumbent) is the checker's
/// rejection: exit 3, the run ended, and `--out` holds only boards the
/// checker accepts. The board has no full solution (one piece shows a colour
/// no other piece has), so the walk never finishes early.
#[cfg(feature = "fault-injection")]
fn a_corrupted_score_board_is_rejected_with_exit_3(solver: &str, fault: &str) {
    let dir = scratch(&format!("score-fault-{solver}-{fault}"));
    let instance = generate(&dir, 5, 2, 3);
    let mut json: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&instance).unwrap()).unwrap();
    let pieces = json["pieces"].as_array_mut().unwrap();
    let inner = pieces.iter().position(|p| p.as_array().unwrap().iter().all(|c| c.as_u64() != Some(0))).unwrap();
    pieces[inner][0] = serde_json::json!(99);
    std::fs::write(&instance, json.to_string()).unwrap();
    let out = dir.join("board.json");
    let args = ["solve", &instance, "--objective", "score", "--solver", solver, "--time-limit", "4"];
    let output = bin()
        .args(args)
        .args(["--out", out.to_str().unwrap()])
        .env(edgematch::fault::VAR, format!("corrupt-board:{fault}"))
        .output()
        .unwrap();
    let all = text(&output);
    assert_eq!(output.status.code(), Some(3), "{solver} at {fault}: {all}");
    assert!(all.contains("failed the checker") && all.contains("is already used at"), "{fault}: {all}");
    assert!(!all.contains("board (piece/rotation"), "{fault}: {all}");
    if fault == "walk" {
        // Every board the walks offer is corrupted: the checker sees each first, so none is shown or kept.
        assert!(!all.contains("best: ") && !out.exists(), "{fault}: a rejected board went on: {all}");
    }
    if out.exists() {
        let verify = run(&["verify", &instance, out.to_str().unwrap()]);
        assert!(text(&verify).contains("verdict:"), "{fault}: --out holds a rejected board: {}", text(&verify));
    }
    // The control, without the fault: the walk ends at the best score (every join but the
    // colour's one); the others run their time.
    let walks = ["search", "auto"].contains(&solver);
    let target: &[&str] = if walks { &["--target", "39"] } else { &[] };
    let clean = bin().args(args).args(target).output().unwrap();
    assert_eq!(clean.status.code(), Some(1), "{fault} without the fault: {}", text(&clean));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// One score-mode fault-injection test per solver and phase (ignored, and
/// failing if run, without the feature, as above).
macro_rules! score_fault_tests {
    ($($name:ident => ($solver:literal, $fault:literal)),* $(,)?) => {
        $(
            #[test]
            #[cfg_attr(not(feature = "fault-injection"), ignore = "needs --features fault-injection")]
            fn $name() {
                #[cfg(feature = "fault-injection")]
                a_corrupted_score_board_is_rejected_with_exit_3($solver, $fault);
                #[cfg(not(feature = "fault-injection"))]
                panic!("{}: build the tests with --features fault-injection", $fault);
            }
        )*
    };
}

score_fault_tests! {
    a_corrupted_walk_best_exits_3 => ("search", "search"),
    a_board_the_walks_offer_corrupted_exits_3 => ("search", "walk"),
    a_corrupted_auto_walk_best_exits_3 => ("auto", "search"),
    a_corrupted_cpsat_score_board_exits_3 => ("cpsat", "cpsat"),
    a_corrupted_mip_score_board_exits_3 => ("mip", "mip"),
}

/// The cliff bench's jobs: (instance, arm, budget) of each line of a runs file.
fn run_keys(path: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).unwrap();
    let mut keys: Vec<String> = text
        .lines()
        .map(|l| {
            let run: serde_json::Value = serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}"));
            format!("{} {} {}", run["instance"], run["arm"], run["budget"])
        })
        .collect();
    keys.sort();
    keys
}

/// The columns of `bench report`'s table that do not depend on timing:
/// colours, size, arm, budget and full solves.
fn table_rows(runs: &Path, dir: &Path, name: &str) -> Vec<String> {
    let table = dir.join(format!("{name}.md"));
    let svg = dir.join(format!("{name}.svg"));
    let output = run(&[
        "bench",
        "report",
        runs.to_str().unwrap(),
        "--out",
        table.to_str().unwrap(),
        "--svg",
        svg.to_str().unwrap(),
    ]);
    assert!(output.status.success(), "{}", text(&output));
    let table = std::fs::read_to_string(&table).unwrap();
    table.lines().skip(2).map(|l| l.split('|').take(6).collect::<Vec<_>>().join("|")).collect()
}

/// Four `bench cliff --shard k/4` processes at once on one runs file, one of
/// them killed (SIGKILL) in the middle of a run and started again: the merged
/// file has every job once, and its table is the single-process run's table.
#[test]
fn concurrent_shards_lose_and_duplicate_nothing() {
    let _one_at_a_time = timed();
    let dir = scratch("shards");
    let shared = dir.join("runs.jsonl");
    let single = dir.join("single.jsonl");
    let models = Path::new(env!("CARGO_MANIFEST_DIR")).join("models");
    let args = |runs: &Path, shard: &str| -> Vec<String> {
        [
            "bench",
            "cliff",
            "--sizes",
            "12",
            "--colours",
            "5+17,5+26",
            "--seeds",
            "1-4",
            "--arms",
            "dfs",
            "--dfs-budgets",
            "1",
            "--models-dir",
            models.to_str().unwrap(),
            "--runs",
            runs.to_str().unwrap(),
            "--shard",
            shard,
        ]
        .map(str::to_owned)
        .to_vec()
    };
    let spawn =
        |shard: &str| bin().args(args(&shared, shard)).stdout(Stdio::null()).stderr(Stdio::piped()).spawn().unwrap();
    let mut shards: Vec<_> = (1..=4).map(|k| spawn(&format!("{k}/4"))).collect();
    // Shard 2 is killed once it says its first run has started.
    let mut stderr = BufReader::new(shards[1].stderr.take().unwrap());
    let mut seen = String::new();
    while !seen.contains("dfs 1 s") {
        let mut line = String::new();
        assert!(stderr.read_line(&mut line).unwrap() > 0, "shard 2 ended before its first run: {seen}");
        seen.push_str(&line);
    }
    std::thread::sleep(Duration::from_millis(300));
    shards[1].kill().unwrap();
    for child in &mut shards {
        assert!(child.wait().unwrap().code().is_none_or(|c| c == 0));
    }
    let before = run_keys(&shared);
    assert!(before.len() < 8, "shard 2 was killed before finishing: {before:?}");
    let again = bin().args(args(&shared, "2/4")).output().unwrap();
    assert!(again.status.success(), "{}", text(&again));

    let single_run = bin().args(args(&single, "1/1")).output().unwrap();
    assert!(single_run.status.success(), "{}", text(&single_run));
    let merged = run_keys(&shared);
    let mut unique = merged.clone();
    unique.dedup();
    assert_eq!(merged, unique, "a job ran twice");
    assert_eq!(merged, run_keys(&single), "the shards lost or added a job");
    assert_eq!(table_rows(&shared, &dir, "shards"), table_rows(&single, &dir, "single"));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The build's digest check: the pinned wheel has a digest, and a file whose
/// digest differs (or is not pinned) is refused with a message naming the
/// file and both digests.
#[test]
fn a_download_with_another_digest_is_refused() {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let pinned = pins::read(&manifest.join("vendor/ortools.sha256")).unwrap();
    assert!(pinned.iter().any(|p| p.name.starts_with("ortools-9.15.6755-cp311") && p.name.ends_with(".whl")));

    let dir = scratch("pins");
    let file = dir.join("ortools-9.15.6755-test.whl");
    std::fs::write(&file, b"not the wheel").unwrap();
    let actual = pins::sha256(&file).unwrap();
    let good = [pins::Pin { digest: actual.clone(), name: "ortools-9.15.6755-test.whl".into() }];
    pins::check(&file, &good, "pins.txt").unwrap();

    let wrong = "0".repeat(64);
    let bad = [pins::Pin { digest: wrong.clone(), name: "ortools-9.15.6755-test.whl".into() }];
    let message = pins::check(&file, &bad, "pins.txt").unwrap_err();
    assert!(message.contains("ortools-9.15.6755-test.whl") && message.contains(&actual) && message.contains(&wrong));
    let message = pins::check(&file, &pinned, "pins.txt").unwrap_err();
    assert!(message.contains("no SHA-256 is pinned") && message.contains(&actual), "{message}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `bench score` with a search whose boards are corrupted before the run's
/// checker sees them: the bench ends with the checker's word (a non-zero
/// exit naming it) and its runs file holds an error record for the job, not
/// a score. Before, the bench dropped the rejected board and searched on.
#[test]
#[cfg_attr(not(feature = "fault-injection"), ignore = "needs --features fault-injection")]
fn a_rejected_board_ends_the_score_bench_with_an_error_record() {
    bench_score_ends_with_an_error_record("corrupt-board:search", ("7", "3+6"), "failed the checker");
}

/// A thread of a bench's score run that dies (a walk, panicked by the test
/// build's fault injection) ends the bench the same way: a non-zero exit
/// naming the thread, and an error record for the job. Catches a bench that
/// records a dead run's board as a score.
#[test]
#[cfg_attr(not(feature = "fault-injection"), ignore = "needs --features fault-injection")]
fn a_thread_that_dies_ends_the_score_bench_with_an_error_record() {
    bench_score_ends_with_an_error_record("panic:walk 0", ("13", "5+17"), "the run's thread `walk 0` panicked");
}

/// Runs `bench score` (the search arm, 5 s) on a planted board of `size` and
/// `colours` with `EDGEMATCH_FAULT=fault`, and checks that it ends non-zero
/// saying `said`, its runs file ending with an error record saying it too.
fn bench_score_ends_with_an_error_record(fault: &str, (size, colours): (&str, &str), said: &str) {
    let dir = scratch(&format!("bench-fault-{size}"));
    let runs = dir.join("runs.jsonl");
    let (table, chart) = (dir.join("table.md"), dir.join("chart.svg"));
    let args = ["bench", "score", "--arms", "search", "--official", "none", "--sizes", size, "--colours", colours];
    let paths = [runs.to_str().unwrap(), table.to_str().unwrap(), chart.to_str().unwrap()];
    let output = bin()
        .args(args)
        .args(["--seeds", "1", "--budgets", "5", "--runs", paths[0], "--out", paths[1], "--svg", paths[2]])
        .env(edgematch::fault::VAR, fault)
        .output()
        .unwrap();
    let all = text(&output);
    assert_ne!(output.status.code(), Some(0), "{all}");
    assert!(all.contains(said), "{all}");
    let record: serde_json::Value =
        serde_json::from_str(std::fs::read_to_string(&runs).unwrap().lines().last().unwrap()).unwrap();
    assert!(record["error"].as_str().is_some_and(|e| e.contains(said)), "{record}");
    assert_eq!(record["score"], 0, "{record}");
    std::fs::remove_dir_all(&dir).unwrap();
}
