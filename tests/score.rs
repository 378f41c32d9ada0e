//! `solve --objective score` and `improve` through the binary: boards checked and written whole, bad flags named.

mod common;

use std::io::{BufRead as _, BufReader};
use std::path::Path;
use std::process::Stdio;

use common::{LOOSE_RAMP, bin, generate, model, run, scratch, text};

#[test]
fn a_small_planted_board_reaches_the_full_score_and_its_trace_is_written() {
    let dir = scratch("score-small");
    let instance = generate(&dir, 7, 3, 8, 4);
    let (out, trace) = (dir.join("best.json"), dir.join("trace.jsonl"));
    let output = run(&[
        "solve",
        instance.to_str().unwrap(),
        "--objective",
        "score",
        "--time-limit",
        "60",
        "--out",
        out.to_str().unwrap(),
        "--trace",
        trace.to_str().unwrap(),
    ]);
    let all = text(&output);
    assert_eq!(output.status.code(), Some(0), "{all}");
    assert!(all.contains("status: solved") && all.contains("best: 84/84"), "{all}");
    assert!(all.contains("view: https://e2.bucas.name/"), "{all}");
    let verify = run(&["verify", instance.to_str().unwrap(), out.to_str().unwrap()]);
    assert_eq!(verify.status.code(), Some(0), "{}", text(&verify));
    let lines = std::fs::read_to_string(&trace).unwrap();
    let last: serde_json::Value = serde_json::from_str(lines.lines().last().unwrap()).unwrap();
    assert_eq!(last["score"], 84);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `--save-boards` writes each distinct full board it keeps as a file that
/// the checker scores at or above `--save-from` (`verify` on a few of them, the
/// library's checker on every one), and the census line counts them (a loose
/// ramp, whose bests come in small steps, ends at `--target`, two joins above
/// the save score). Catches boards
/// saved unchecked, twice, or below the score asked.
#[test]
fn saved_boards_verify_at_or_above_the_save_score() {
    let dir = scratch("score-save");
    let instance = std::path::PathBuf::from(model("planted-13x13-f5i17-s2.json"));
    let saved = dir.join("boards");
    let (i, s) = (instance.to_str().unwrap(), saved.to_str().unwrap());
    let args = ["solve", i, "--objective", "score", "--solver", "search", "--time-limit", "60", "--target", "240"];
    let output = run(&[&args[..], &LOOSE_RAMP, &["--save-boards", s, "--save-from", "238"]].concat());
    let all = text(&output);
    assert!(all.contains("boards_by_score: "), "{all}");
    let mut files: Vec<_> = std::fs::read_dir(&saved).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    assert!(!files.is_empty(), "{all}");
    let loaded = edgematch::formats::load::instance(&instance, &Default::default()).unwrap().instance;
    let mut boards = std::collections::HashSet::new();
    for (k, file) in files.iter().enumerate() {
        let board = edgematch::formats::board_json::read(file).unwrap();
        let report = edgematch::check::check(&loaded, &board);
        assert!(report.placed == report.cells && report.only_joins_mismatch(), "{}: {report}", file.display());
        assert!(report.score >= 238, "{}: {report}", file.display());
        if k < 3 {
            let verify = run(&["verify", instance.to_str().unwrap(), file.to_str().unwrap()]);
            assert_eq!(score_after(&text(&verify), "score: "), report.score, "{}: {}", file.display(), text(&verify));
        }
        let text = std::fs::read_to_string(file).unwrap();
        assert!(text.contains("\"link\""), "{}", file.display());
        assert!(boards.insert(text), "{} repeats a board", file.display());
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `--threads 8` runs eight walks even on a machine with fewer cores (their
/// stats say each started attempts), and the board they return verifies (the
/// run ends at its node limit). Catches a thread count capped at the cores
/// measured here, or walks that never start.
#[test]
fn eight_threads_start_eight_walks_on_a_16x16_board() {
    let dir = scratch("score-threads");
    let out = dir.join("best.json");
    let instance = model("planted-16x16-f5i17-s1.json");
    // The plan given outright (no pilot walks); the run ends at its node limit.
    let args = ["solve", &instance, "--objective", "score", "--solver", "search", "--threads", "8"];
    let limits = ["--node-limit", "40000000", "--time-limit", "120", "--out", out.to_str().unwrap()];
    let output = run(&[&args[..], &LOOSE_RAMP, &limits].concat());
    let all = text(&output);
    assert!(all.contains("on 8 thread(s)"), "{all}");
    let walks = all.lines().find_map(|l| l.strip_prefix("walks: ")).unwrap_or_else(|| panic!("{all}"));
    assert!(walks.starts_with("8 (attempts each ") && !walks.contains("each 0-"), "every walk attempted: {all}");
    let printed = score_after(&all, "best board found: score");
    let verify = run(&["verify", instance.as_str(), out.to_str().unwrap()]);
    assert_eq!(score_after(&text(&verify), "score:"), printed);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_score_flags_are_refused_with_exit_2_naming_them() {
    let instance = model("planted-10x10-f5i17-s1.json");
    let cases: [(&[&str], &str); 7] = [
        (&["--objective", "score", "--target", "181"], "--target 181 is above the 180"),
        (&["--objective", "score", "--quota", "99"], "--quota: colour 99 is not a colour of the pieces"),
        (&["--objective", "score", "--fill-order", "band-sw-s0"], "band-sw-s0"),
        (&["--objective", "score", "--breaks", "60:4,70:2"], "decrease"),
        (&["--objective", "score", "--breaks", "60:1,99:181"], "exceed"),
        (&["--objective", "score", "--solver", "dfs"], "--solver dfs has no score mode"),
        (&["--target", "170"], "--target is not used by --objective full"),
    ];
    for (flags, words) in cases {
        let mut args = vec!["solve", instance.as_str(), "--time-limit", "5"];
        args.extend(flags);
        let output = run(&args);
        let all = text(&output);
        assert_eq!(output.status.code(), Some(2), "{flags:?}: {all}");
        assert!(all.contains(words), "{flags:?}: {all} should say {words}");
    }
}

/// `kill -9` during a score run leaves the `--out` file whole, and the checker
/// scores it as the run printed it.
#[test]
fn kill_9_leaves_the_best_board_whole_and_verified() {
    let dir = scratch("score-kill");
    let out = dir.join("best.json");
    let instance = model("planted-13x13-f5i17-s1.json");
    // Bests in small steps from the first second.
    let args = ["solve", &instance, "--objective", "score", "--time-limit", "300", "--out", out.to_str().unwrap()];
    let mut child = bin().args(args).args(LOOSE_RAMP).stdout(Stdio::piped()).stderr(Stdio::null()).spawn().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    // Killed right after its second new best (so after at least two writes).
    let (mut seen, mut bests, mut last) = (String::new(), 0, String::new());
    while bests < 2 {
        let mut line = String::new();
        assert!(stdout.read_line(&mut line).unwrap() > 0, "the run ended first: {seen}");
        if let Some(score) = line.strip_prefix("best: ") {
            bests += 1;
            last = score.split('/').next().unwrap().to_owned();
        }
        seen.push_str(&line);
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let verify = run(&["verify", &instance, out.to_str().unwrap()]);
    let all = text(&verify);
    assert!(all.contains("169 of 169 cells placed"), "{all}");
    // Each board is written before it is printed: the file holds the last one printed, or a later one.
    let score: usize = all.split("score ").nth(1).unwrap().split('/').next().unwrap().parse().unwrap();
    assert!(score >= last.parse::<usize>().unwrap(), "{score} vs {last} printed");
    // A kill in the middle of a write may leave that write's hidden temporary
    // file (nothing can remove it), never a second visible file.
    let names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(Result::ok)
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    let others: Vec<&String> =
        names.iter().filter(|n| *n != "best.json" && !(n.starts_with(".best.json.") && n.ends_with(".tmp"))).collect();
    assert!(others.is_empty() && names.len() <= 2, "only best.json beside it: {names:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn improve_keeps_a_full_solution_and_refuses_a_target_above_the_joins() {
    let instance = model("planted-10x10-f5i17-s1.json");
    let solution = model("planted-10x10-f5i17-s1.solution.json");
    let output = run(&["improve", &instance, &solution, "--time-limit", "10"]);
    let all = text(&output);
    assert_eq!(output.status.code(), Some(0), "{all}");
    assert!(all.contains("score: 180 -> 180/180 (verified)"), "{all}");
    let output = run(&["improve", &instance, &solution, "--target", "181"]);
    assert_eq!(output.status.code(), Some(2), "{}", text(&output));
    assert!(text(&output).contains("--target 181"));
}

/// Starts a score run of `solver` on `instance` that writes `checkpoint`,
/// kills it (`kill -9`) as soon as it has printed its second new best, and
/// returns the score of that best: the last the run reported, not its first.
/// CP-SAT, which reports a board at the end of each time slice (10 s, then 20
/// s more), is killed after its first: a board reported while the run goes
/// on. A best is printed only once the checkpoint holds it.
fn kill_after_the_second_best(solver: &str, instance: &str, checkpoint: &Path) -> usize {
    let wanted = if solver == "cpsat" { 1 } else { 2 };
    let c = checkpoint.to_str().unwrap();
    let args =
        ["solve", instance, "--objective", "score", "--solver", solver, "--time-limit", "600", "--checkpoint", c];
    // The walks in the published order (rows one by one): their runs report
    // better boards in small steps from the first seconds, where the strips
    // the planted boards get by default often find their best of minutes first.
    let order: &[&str] = if matches!(solver, "search" | "auto") { &["--fill-order", "band-sw"] } else { &[] };
    let mut child = bin().args(args).args(order).stdout(Stdio::piped()).stderr(Stdio::null()).spawn().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut bests = Vec::new();
    while bests.len() < wanted {
        let mut line = String::new();
        assert!(stdout.read_line(&mut line).unwrap() > 0, "{solver}: the run ended after the bests {bests:?}");
        if let Some(score) = line.strip_prefix("best: ") {
            bests.push(score.split('/').next().unwrap().parse::<usize>().unwrap());
        }
    }
    // The run may have ended on its own after a full score: killing it then is a no-op.
    let _ = child.kill();
    child.wait().unwrap();
    assert!(bests.windows(2).all(|w| w[0] < w[1]), "{solver}: bests {bests:?}");
    bests[wanted - 1]
}

/// Resumes the run of `checkpoint` with `solver` for a few seconds and checks
/// that it starts from the board of the last best before the kill (`last`):
/// it says it resumed from that score, prints no best at or below it, and
/// ends with a verified board no worse.
fn assert_resumes_at(solver: &str, instance: &str, checkpoint: &Path, last: usize) {
    let c = checkpoint.to_str().unwrap();
    let again =
        run(&["solve", instance, "--objective", "score", "--solver", solver, "--time-limit", "5", "--checkpoint", c]);
    let all = text(&again);
    let resumed_line = all.lines().find(|l| l.starts_with("resumed: ")).unwrap_or_else(|| panic!("{solver}: {all}"));
    let resumed = score_after(resumed_line.split(" scores ").nth(1).unwrap(), "");
    assert!(resumed >= last, "{solver} resumed from {resumed}, below the last best {last}: {all}");
    for line in all.lines().filter(|l| l.starts_with("best: ")) {
        assert!(score_after(line, "best: ") > resumed, "{solver} printed {line} after resuming from {resumed}: {all}");
    }
    let verdict = all.lines().rfind(|l| l.starts_with("checker: verdict:")).unwrap_or_else(|| panic!("{all}"));
    let end: usize = verdict.split("score ").nth(1).unwrap().split('/').next().unwrap().parse().unwrap();
    assert!(end >= resumed, "{solver} ended at {end}, below the resumed {resumed}: {all}");
}

/// Kills a run of `solver` on `instance` right after its second best, then
/// checks that the resumed run starts there; returns the checkpoint's path.
fn killed_after_its_last_best_resumes_there(dir: &Path, solver: &str, instance: &str) -> std::path::PathBuf {
    let checkpoint = dir.join("run.checkpoint.json");
    let last = kill_after_the_second_best(solver, instance, &checkpoint);
    assert_resumes_at(solver, instance, &checkpoint, last);
    checkpoint
}

/// The native walk killed after its last best resumes from it. Catches a
/// checkpoint that lags the printed best, or a resume that restarts from nothing.
#[test]
fn a_search_run_killed_after_its_last_best_resumes_there() {
    let dir = scratch("score-resume-search");
    let checkpoint = killed_after_its_last_best_resumes_there(&dir, "search", &model("planted-13x13-f5i17-s2.json"));
    // A checkpoint of another instance is refused, naming the file.
    let other = model("planted-13x13-f5i17-s1.json");
    let c = checkpoint.to_str().unwrap();
    let refused = run(&["solve", &other, "--objective", "score", "--time-limit", "5", "--checkpoint", c]);
    assert_eq!(refused.status.code(), Some(2), "{}", text(&refused));
    assert!(text(&refused).contains("run.checkpoint.json") && text(&refused).contains("another instance"));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `auto` (the walk for the whole time) killed after its last best resumes from it.
#[test]
fn an_auto_run_killed_after_its_last_best_resumes_there() {
    let dir = scratch("score-resume-auto");
    killed_after_its_last_best_resumes_there(&dir, "auto", &model("planted-13x13-f5i17-s2.json"));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// CP-SAT killed after its first time slice's board resumes from it. Catches
/// CP-SAT reporting only its final board (a kill would lose every slice), or
/// a resume that starts from the rim-filled board.
#[test]
fn a_cpsat_run_killed_after_its_last_best_resumes_there() {
    let dir = scratch("score-resume-cpsat-kill");
    killed_after_its_last_best_resumes_there(&dir, "cpsat", &model("planted-10x10-f5i17-s1.json"));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The MIP killed after HiGHS' second incumbent (reported through its
/// improving-solution callback) resumes from it, as HiGHS' start. Catches the
/// MIP reporting only its final incumbent, or ignoring the checkpoint.
#[test]
fn a_mip_run_killed_after_its_last_best_resumes_there() {
    let dir = scratch("score-resume-mip-kill");
    let instance = generate(&dir, 8, 4, 14, 1);
    killed_after_its_last_best_resumes_there(&dir, "mip", instance.to_str().unwrap());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The number after `prefix` on the last line that starts with it, e.g. `best: 84/84` -> 84.
fn score_after(all: &str, prefix: &str) -> usize {
    let line = all.lines().rfind(|l| l.starts_with(prefix)).unwrap_or_else(|| panic!("no {prefix}: {all}"));
    line[prefix.len()..].trim().split('/').next().unwrap().parse().unwrap()
}

#[test]
fn cpsat_maximizes_the_joins_of_the_whole_board_and_its_board_is_verified() {
    let dir = scratch("score-cpsat");
    let instance = generate(&dir, 5, 2, 3, 2);
    let out = dir.join("best.json");
    let output = run(&[
        "solve",
        instance.to_str().unwrap(),
        "--objective",
        "score",
        "--solver",
        "cpsat",
        "--workers",
        "2",
        "--time-limit",
        "30",
        "--out",
        out.to_str().unwrap(),
    ]);
    let all = text(&output);
    assert!(all.contains("cpsat for the score"), "{all}");
    let code = output.status.code();
    assert!(code == Some(0) || code == Some(1), "{all}");
    let verify = run(&["verify", instance.to_str().unwrap(), out.to_str().unwrap()]);
    assert_eq!(score_after(&text(&verify), "score:"), score_after(&all, "best:"), "{all}");
    // A planted 5x5 board: CP-SAT proves the optimum, every join.
    assert_eq!(code, Some(0), "{all}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn collect_picks_the_best_checkpoint_of_a_score_array_and_verifies_it() {
    let dir = scratch("score-array");
    let instance = generate(&dir, 7, 3, 8, 4);
    let tasks = dir.join("tasks");
    std::fs::create_dir_all(&tasks).unwrap();
    let mut scores = Vec::new();
    for seed in ["1", "2"] {
        let checkpoint = tasks.join(format!("task-{seed}.checkpoint.json"));
        let output = run(&[
            "solve",
            instance.to_str().unwrap(),
            "--objective",
            "score",
            "--solver",
            "search",
            "--threads",
            "1",
            "--seed",
            seed,
            "--time-limit",
            "20",
            "--checkpoint",
            checkpoint.to_str().unwrap(),
        ]);
        scores.push(score_after(&text(&output), "best:"));
    }
    std::fs::write(tasks.join("task-3.checkpoint.json"), "{ cut short").unwrap();
    let out = dir.join("best.json");
    let output = run(&["collect", tasks.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    let all = text(&output);
    let best = *scores.iter().max().unwrap();
    assert_eq!(score_after(&all, "best:"), best, "{all}");
    assert!(all.contains("task-3.checkpoint.json: "), "the unreadable task is listed: {all}");
    assert_eq!(output.status.code(), Some(if best == 84 { 0 } else { 1 }), "{all}");
    let verify = run(&["verify", instance.to_str().unwrap(), out.to_str().unwrap()]);
    assert_eq!(score_after(&text(&verify), "score:"), best);
    // A folder with no checkpoint is an error naming it.
    let empty = dir.join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    let output = run(&["collect", empty.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(2));
    assert!(text(&output).contains("no readable score checkpoint"), "{}", text(&output));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bench_score_verifies_every_run_resumes_and_writes_its_table_and_chart() {
    let dir = scratch("bench-score");
    let (runs, table, chart) = (dir.join("runs.jsonl"), dir.join("table.md"), dir.join("chart.svg"));
    let args = [
        "bench",
        "score",
        "--official",
        "none",
        "--sizes",
        "5",
        "--colours",
        "2+3",
        "--seeds",
        "1",
        "--arms",
        "search,cpsat,dfs",
        "--budgets",
        "5",
        "--models-dir",
        dir.to_str().unwrap(),
        "--runs",
        runs.to_str().unwrap(),
        "--out",
        table.to_str().unwrap(),
        "--svg",
        chart.to_str().unwrap(),
    ];
    let output = run(&args);
    assert!(output.status.success(), "{}", text(&output));
    let lines = std::fs::read_to_string(&runs).unwrap();
    assert_eq!(lines.lines().count(), 3);
    for line in lines.lines() {
        let run: serde_json::Value = serde_json::from_str(line).unwrap();
        assert_eq!(run["max_score"], 40);
        assert!(run["score"].as_u64().unwrap() <= 40);
    }
    let table = std::fs::read_to_string(&table).unwrap();
    assert!(table.contains("| planted-5x5-f2i3-s1 | 5 | 1 | search | **40** / 40 |"), "{table}");
    assert!(std::fs::read_to_string(&chart).unwrap().contains("planted-5x5-f2i3-s1, 5 s"));
    // Run again: every job is done, nothing runs.
    let again = run(&args);
    assert!(text(&again).contains("3 already done, 0 to run"), "{}", text(&again));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `instance` with `board`'s pieces fixed as clues in every cell but `free`, written beside it as JSON.
fn clued(
    instance: &edgematch::puzzle::Instance,
    board: &edgematch::puzzle::Board,
    free: &[usize],
    out: &std::path::Path,
) {
    use edgematch::formats::instance_json::{self, InstanceFile};
    use edgematch::puzzle::Clue;
    let mut instance = instance.clone();
    instance.clues = (0..board.cells.len())
        .filter(|c| !free.contains(c))
        .map(|cell| Clue { cell, placement: board.cells[cell].unwrap() })
        .collect();
    let file = InstanceFile { instance, name: Some("clued".to_owned()), colours: None };
    std::fs::write(out, instance_json::to_string(&file)).unwrap();
}

/// The official set with the clues of `clue_file` (under data/official/) and
/// Blackwood's 470 board of it, as the finishing tests start from them.
fn official_and_470(clue_file: &str) -> (edgematch::puzzle::Instance, edgematch::puzzle::Board) {
    let data = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("data");
    let clues = data.join("official").join(clue_file);
    let options = edgematch::formats::load::InstanceOptions { clues: Some(&clues), ..Default::default() };
    let official = edgematch::formats::load::instance(&data.join("official/pieces.txt"), &options).unwrap().instance;
    let board =
        edgematch::formats::load::board(&data.join("boards/Joshua_Blackwood_470.txt"), &official).unwrap().board;
    assert_eq!(board.score(&official), 470);
    (official, board)
}

/// The official set with 250 cells of Blackwood's 470 board fixed as clues
/// (six left free, as another solver might leave them): the score objective
/// returns a full verified board scoring at least that board's 470 (CP-SAT
/// completes it when the walk, which never breaks a frame join, finds none).
/// Catches the run that ended with no board at all.
#[test]
fn the_official_set_with_250_clues_is_finished() {
    let dir = scratch("finish-official");
    let (official, board) = official_and_470("clues.txt");
    // Six free cells: two on the frame, four inside.
    let free = [5, 16 * 15 + 9, 16 * 7 + 7, 16 * 7 + 8, 16 * 9 + 9, 16 * 3 + 12];
    let instance = dir.join("official-250.json");
    clued(&official, &board, &free, &instance);
    let (printed, written) = score_run(&instance, 470, &dir.join("best.json"));
    assert!(printed >= 470 && written >= 470, "printed {printed}, --out verifies at {written}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `improve` given a partial board as a bucas link (Blackwood's 470 board of
/// the official set, centre clue, with six cells emptied) finishes it, then repairs it:
/// the board it writes verifies at 470 or more. Catches `improve` refusing
/// a partial board, or finishing it into one that moves a placed cell.
#[test]
fn improve_finishes_a_partial_bucas_link() {
    let dir = scratch("improve-partial");
    let data = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("data");
    let (pieces, clues) = (data.join("official/pieces.txt"), data.join("official/clue-centre.txt"));
    let options = edgematch::formats::load::InstanceOptions { clues: Some(&clues), ..Default::default() };
    let official = edgematch::formats::load::instance(&pieces, &options).unwrap().instance;
    let mut board =
        edgematch::formats::load::board(&data.join("boards/Joshua_Blackwood_470.txt"), &official).unwrap().board;
    for cell in [5, 16 * 15 + 9, 16 * 7 + 7, 16 * 7 + 8, 16 * 9 + 9, 16 * 3 + 12] {
        board.cells[cell] = None;
    }
    let link = dir.join("partial.url");
    std::fs::write(&link, edgematch::formats::bucas::to_link(&board, &official, "partial")).unwrap();
    let out = dir.join("best.json");
    let (p, c, l, o) =
        (pieces.to_str().unwrap(), clues.to_str().unwrap(), link.to_str().unwrap(), out.to_str().unwrap());
    let output = run(&["improve", p, l, "--clues", c, "--time-limit", "60", "--target", "470", "--out", o]);
    let all = text(&output);
    assert!(score_after(&all, "best:") >= 470, "{all}");
    let verify = run(&["verify", p, o, "--clues", c]);
    assert!(score_after(&text(&verify), "score:") >= 470, "{}", text(&verify));
    let finished = edgematch::formats::board_json::read(&out).unwrap();
    let kept =
        (0..board.cells.len()).filter(|&c| board.cells[c].is_some()).all(|c| board.cells[c] == finished.cells[c]);
    assert!(
        kept || score_after(&all, "best:") > 470,
        "the first board written keeps the placed cells, or a repair moved them for a better score"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A planted 12×12 board with all but four cells clued, and one free frame
/// piece given another frame colour on a frame join: every completion breaks
/// a frame join, so the best is one join short. The score objective returns
/// that full board, verified. Catches a walk that cannot break a frame join
/// returning no board.
#[test]
fn a_forced_frame_mismatch_is_finished_one_join_short() {
    let dir = scratch("finish-frame");
    let planted = generate(&dir, 12, 3, 9, 5);
    let file = edgematch::formats::instance_json::read(&planted).unwrap();
    let solution_path = planted.with_file_name("planted-12x12-f3i9-s5.solution.json");
    let solution = edgematch::formats::board_json::read(&solution_path).unwrap();
    let mut instance = file.instance.clone();
    // The free cells: two on the top edge, two inside. The top edge's cell 3
    // holds a piece whose west side (a frame join) gets another frame colour.
    let free = [3, 8, 12 * 5 + 5, 12 * 6 + 6];
    let placed = solution.cells[3].unwrap();
    let side = (edgematch::puzzle::Side::W.index() + 4 - placed.rotation.turns() as usize) % 4;
    // The frame colours: those beside an edge piece's grey side.
    let frame: Vec<u8> = instance
        .pieces
        .iter()
        .filter(|p| p.grey_sides() == 1)
        .flat_map(|p| {
            let grey = p.0.iter().position(|&c| c == 0).unwrap();
            [p.0[(grey + 1) % 4], p.0[(grey + 3) % 4]]
        })
        .collect();
    let colour = &mut instance.pieces[placed.piece].0[side];
    *colour = *frame.iter().find(|&&c| c != *colour).unwrap();
    let path = dir.join("frame-mismatch.json");
    clued(&instance, &solution, &free, &path);
    let max = instance.grid.max_score();
    let (printed, written) = score_run(&path, max - 1, &dir.join("best.json"));
    assert_eq!((printed, written), (max - 1, max - 1), "one frame join short, printed and on --out");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Runs `solve --objective score` (auto) on `instance` until it reaches
/// `target` (or a minute passes) writing `out`; returns the best score it
/// printed and the checker's score of `out`.
fn score_run(instance: &Path, target: usize, out: &Path) -> (usize, usize) {
    let (i, o, t) = (instance.to_str().unwrap(), out.to_str().unwrap(), target.to_string());
    let output = run(&["solve", i, "--objective", "score", "--time-limit", "60", "--target", &t, "--out", o]);
    let all = text(&output);
    let printed = score_after(&all, "best board found: score");
    let verify = run(&["verify", i, o]);
    (printed, score_after(&text(&verify), "score:"))
}

/// CP-SAT and the MIP resumed from a checkpoint start from its board: the
/// resumed run prints it, and its final board and `--out` never score below
/// it (CP-SAT takes it as its hint and as a lower bound on the objective; the
/// MIP's worse board is not written, and the run ends with the better one).
/// Catches a resumed run starting from a rim-filled board and overwriting
/// the checkpoint and `--out` with a worse one.
#[test]
fn cpsat_and_mip_resume_from_the_checkpoint_and_never_go_below_it() {
    let dir = scratch("score-resume-cpsat");
    let instance = generate(&dir, 8, 3, 8, 6);
    let instance = instance.to_str().unwrap().to_owned();
    let (checkpoint, out) = (dir.join("run.checkpoint.json"), dir.join("best.json"));
    let (c, o) = (checkpoint.to_str().unwrap(), out.to_str().unwrap());
    let first = run(&[
        "solve",
        &instance,
        "--objective",
        "score",
        "--solver",
        "cpsat",
        "--time-limit",
        "5",
        "--checkpoint",
        c,
        "--out",
        o,
    ]);
    let mut had = score_after(&text(&first), "best:");
    for solver in ["cpsat", "mip"] {
        let again = run(&[
            "solve",
            &instance,
            "--objective",
            "score",
            "--solver",
            solver,
            "--time-limit",
            "5",
            "--checkpoint",
            c,
            "--out",
            o,
        ]);
        let all = text(&again);
        assert!(all.contains(&format!("scores {had}/112")), "{solver} resumed from {had}: {all}");
        let last = all.lines().rfind(|l| l.starts_with("checker: verdict:")).unwrap_or_else(|| panic!("{all}"));
        let end: usize = last.split("score ").nth(1).unwrap().split('/').next().unwrap().parse().unwrap();
        assert!(end >= had, "{solver} ended at {end} below the resumed {had}: {all}");
        let verify = run(&["verify", &instance, o]);
        assert!(score_after(&text(&verify), "score:") >= had, "{solver}: --out went below {had}");
        had = end;
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A score run whose `--out` cannot be written (its folder does not exist)
/// says so for each best and at the end, and never prints `wrote` for it.
/// Before, `solve` printed `wrote FILE` for a score run whatever the file held.
#[test]
fn wrote_is_printed_only_when_the_file_holds_the_board() {
    let dir = scratch("score-wrote");
    let out = dir.join("no-such-folder").join("best.json");
    let instance = model("planted-10x10-f5i17-s1.json");
    let args = ["solve", &instance, "--objective", "score", "--time-limit", "5", "--out", out.to_str().unwrap()];
    let output = run(&args);
    let all = text(&output);
    assert!(all.contains("best board") || all.contains("verdict"), "a board was found: {all}");
    assert!(!all.contains("wrote "), "{all}");
    assert!(all.contains("does not hold the best board"), "{all}");
    let written = dir.join("best.json");
    let output =
        run(&["solve", &instance, "--objective", "score", "--time-limit", "5", "--out", written.to_str().unwrap()]);
    assert!(text(&output).contains(&format!("wrote {}", written.display())), "{}", text(&output));
    std::fs::remove_dir_all(&dir).unwrap();
}
