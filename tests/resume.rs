//! A score run killed with `kill -9` and resumed from its checkpoint goes on: no attempt walked twice, no pilot, the time left, the better board on disk.

mod common;

use std::collections::HashSet;
use std::io::{BufRead as _, BufReader};
use std::path::Path;
use std::process::Stdio;

use common::{bin, model, run, scratch, text};

/// The whole run's time limit, across its segments.
const TOTAL: f64 = 8.0;

/// The arguments of a two-walk score run on `instance` with `checkpoint`
/// saved every second: a loose break budget, whose bests come in small
/// steps from the first second, and short attempts, so each segment starts many.
fn args<'a>(instance: &'a str, checkpoint: &'a str, out: &'a str) -> Vec<&'a str> {
    let mut args = vec!["solve", instance, "--objective", "score", "--solver", "search", "--threads", "2"];
    args.extend(["--breaks", "ramp:0.2:200", "--attempt-nodes", "2000000", "--time-limit", "8"]);
    args.extend(["--checkpoint", checkpoint, "--checkpoint-every", "1", "--out", out]);
    args
}

/// Whether the checkpoint at `path` holds the run's plan and some attempts of its walks.
fn walks_saved(path: &Path) -> bool {
    let Ok(text) = std::fs::read_to_string(path) else { return false };
    let Ok(saved) = serde_json::from_str::<serde_json::Value>(&text) else { return false };
    let attempts = saved["run"]["attempts"].as_array().map_or(0, |a| a.iter().filter_map(|n| n.as_u64()).sum());
    saved["run"]["plan"].is_object() && attempts > 0
}

/// Starts the run with the attempt seeds traced to `seeds`, and kills it
/// (`kill -9`) once it has printed two new bests and its checkpoint holds
/// the plan and some of the walks' attempts.
fn kill_after_the_second_best(args: &[&str], seeds: &Path) {
    let checkpoint = Path::new(args[args.iter().position(|&a| a == "--checkpoint").unwrap() + 1]);
    let mut child = bin()
        .args(args)
        .env(edgematch::score::ATTEMPT_TRACE_ENV, seeds)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let stdout = BufReader::new(child.stdout.take().unwrap());
    let (lines, received) = std::sync::mpsc::channel();
    let _ = std::thread::spawn(move || stdout.lines().map_while(Result::ok).try_for_each(|l| lines.send(l)));
    let mut bests = 0;
    while bests < 2 || !walks_saved(checkpoint) {
        match received.recv_timeout(std::time::Duration::from_millis(50)) {
            Ok(line) => bests += usize::from(line.starts_with("best: ")),
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {}
            Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => panic!("the run ended before the kill"),
        }
    }
    child.kill().unwrap();
    let _ = child.wait().unwrap();
}

/// The attempts in the seed trace: (generation, walk, attempt, seed) per line.
fn attempts(seeds: &Path) -> Vec<(u64, u64, u64, u64)> {
    let trace = std::fs::read_to_string(seeds).unwrap();
    let numbers = |line: &str| -> Vec<u64> { line.split_whitespace().map(|w| w.parse().unwrap()).collect() };
    trace.lines().map(numbers).map(|n| (n[0], n[1], n[2], n[3])).collect()
}

/// A run killed after its second best (its plan settled, its walks under way) and resumed: the resume says it goes
/// on as segment 1 with the time the first left, walks no pilot (its plan
/// line names none), prints no best at or below the checkpoint's, and walks
/// none of the killed run's attempts again: every seed in the trace of both
/// segments is new, the second segment's attempt numbers go on from the
/// checkpoint's counts. Catches a resume that reruns the killed run's seeds
/// (the seed and the attempt numbers from 0 again), settles a new plan with
/// pilot walks, or spends the whole time limit again.
#[test]
fn a_resumed_run_walks_no_attempt_twice_and_only_the_time_left() {
    let dir = scratch("resume-seeds");
    let (instance, seeds) = (model("planted-13x13-f5i17-s2.json"), dir.join("seeds.txt"));
    let (checkpoint, out) = (dir.join("run.checkpoint.json"), dir.join("best.json"));
    let args = args(&instance, checkpoint.to_str().unwrap(), out.to_str().unwrap());
    kill_after_the_second_best(&args, &seeds);
    let saved: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&checkpoint).unwrap()).unwrap();
    assert_eq!(saved["run"]["generation"], 0, "{saved}");
    assert!(saved["run"]["plan"]["breaks"] == "ramp:0.2:200", "the plan is kept: {}", saved["run"]);
    let first = attempts(&seeds);
    let resumed = bin().args(&args).env(edgematch::score::ATTEMPT_TRACE_ENV, &seeds).output().unwrap();
    let all = text(&resumed);
    let line = all.lines().find(|l| l.starts_with("resumed: ")).unwrap_or_else(|| panic!("{all}"));
    assert!(line.contains("(segment 1 of the run"), "{line}");
    let left: f64 = line.split("; ").nth(1).unwrap().split(' ').next().unwrap().parse().unwrap();
    let spent = saved["seconds"].as_f64().unwrap();
    assert!((left - (TOTAL - spent)).abs() < 0.01, "{left} s left after {spent} s of {TOTAL}: {line}");
    let plan = all.lines().find(|l| l.starts_with("plan: ")).unwrap_or_else(|| panic!("{all}"));
    assert!(!plan.contains("pilot walks"), "the resume walked pilots: {plan}");
    let floor = saved["score"].as_u64().unwrap();
    for best in all.lines().filter_map(|l| l.strip_prefix("best: ")) {
        assert!(best.split('/').next().unwrap().parse::<u64>().unwrap() > floor, "best: {best} after {floor}");
    }
    let both = attempts(&seeds);
    let second: Vec<_> = both[first.len()..].to_vec();
    assert!(first.iter().all(|a| a.0 == 0) && !second.is_empty() && second.iter().all(|a| a.0 == 1), "{second:?}");
    let distinct: HashSet<u64> = both.iter().map(|a| a.3).collect();
    assert_eq!(distinct.len(), both.len(), "an attempt seed was walked twice");
    let counted = |walk: u64| saved["run"]["attempts"][walk as usize].as_u64().unwrap();
    assert!(second.iter().all(|a| a.2 >= counted(a.1)), "attempt numbers restarted: {second:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A resume takes the better board of the checkpoint and `--out`: here
/// `--out` holds the planted solution (the full score), so the run resumes
/// from it and ends at once, solved. Catches a resume that starts from the
/// checkpoint's board while a better one is on disk.
#[test]
fn a_resume_starts_from_the_better_of_the_checkpoint_and_out() {
    let dir = scratch("resume-better");
    let (instance, seeds) = (model("planted-13x13-f5i17-s2.json"), dir.join("seeds.txt"));
    let (checkpoint, out) = (dir.join("run.checkpoint.json"), dir.join("best.json"));
    let args = args(&instance, checkpoint.to_str().unwrap(), out.to_str().unwrap());
    kill_after_the_second_best(&args, &seeds);
    std::fs::copy(model("planted-13x13-f5i17-s2.solution.json"), &out).unwrap();
    let resumed = run(&args);
    let all = text(&resumed);
    let line = all.lines().find(|l| l.starts_with("resumed: ")).unwrap_or_else(|| panic!("{all}"));
    assert!(line.contains("best.json scores 312/312"), "{line}");
    assert_eq!(resumed.status.code(), Some(0), "{all}");
    assert!(all.contains("status: solved"), "{all}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A two-walk run with no time limit, `EDGEMATCH_FAULT=panic:POINT` set and
/// `more` flags, run until it ends (a hang fails the test after two
/// minutes, killing it); its output, its `--out` file and its checkpoint.
fn run_until_a_thread_dies(name: &str, point: &str, more: &[&str]) -> (std::process::Output, std::path::PathBuf) {
    let dir = scratch(name);
    let (instance, checkpoint) = (model("planted-13x13-f5i17-s2.json"), dir.join("run.checkpoint.json"));
    let out = dir.join("best.json");
    let mut args = vec!["solve", &instance, "--objective", "score", "--solver", "search", "--threads", "2"];
    args.extend(["--breaks", "ramp:0.2:200", "--attempt-nodes", "2000000", "--heartbeat", "0"]);
    args.extend(["--checkpoint", checkpoint.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    args.extend(more);
    let mut child = bin()
        .args(&args)
        .env(edgematch::fault::VAR, format!("panic:{point}"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let hang = std::time::Instant::now() + std::time::Duration::from_secs(120);
    while child.try_wait().unwrap().is_none() {
        if std::time::Instant::now() > hang {
            child.kill().unwrap();
            panic!("the run went on after its thread `{point}` died: {}", text(&child.wait_with_output().unwrap()));
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    (child.wait_with_output().unwrap(), dir)
}

/// Checks that the run ended with exit 2 naming the thread `thread` and its
/// panic at `point`, after a best board, which is on disk, whole, as the
/// checker scores it (in `--out` and in the checkpoint).
fn assert_ended_on((thread, point): (&str, &str), output: &std::process::Output, dir: &Path) {
    let all = text(output);
    assert_eq!(output.status.code(), Some(2), "{all}");
    let named = format!("the run's thread `{thread}` panicked (fault injection: a panic at {point})");
    assert!(all.contains(&named), "the error names the thread and its panic: {all}");
    let printed = all.lines().rev().find_map(|l| l.strip_prefix("best: ")).unwrap_or_else(|| panic!("no best: {all}"));
    let printed: usize = printed.split('/').next().unwrap().parse().unwrap();
    let instance = model("planted-13x13-f5i17-s2.json");
    let verify = run(&["verify", &instance, dir.join("best.json").to_str().unwrap()]);
    assert!(text(&verify).contains(&format!("score {printed}/312")), "--out holds the last best: {}", text(&verify));
    let saved: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("run.checkpoint.json")).unwrap()).unwrap();
    assert_eq!(saved["score"], printed, "the checkpoint holds it too");
}

/// One walk of two dies (the test build's fault injection panics walk 1 at
/// its sixth attempt), with no time limit: the run ends with exit 2 naming
/// the walk and its panic, its best board on disk. Before, the other walk
/// walked on to a deadline a run without `--time-limit` does not have: a
/// run that never ended. Fails (the two-minute guard) when a walk's death
/// does not raise the run's stop.
#[test]
#[cfg_attr(not(feature = "fault-injection"), ignore = "needs --features fault-injection")]
fn a_walk_that_dies_ends_the_run_with_exit_2() {
    // No pilot walks; walk 1 dies at its sixth attempt, after the first bests.
    let point = "walk 1 attempt 5";
    let (output, dir) = run_until_a_thread_dies("resume-walk-dies", point, &["--quota", "none"]);
    assert_ended_on(("walk 1", point), &output, &dir);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The only completion worker dies (`--completers 1`, panicked as it
/// starts, after the pilot walks' first bests), with no time limit: the run ends with exit 2 naming it, its best
/// board on disk. Before, the walks went on and the worker's death surfaced
/// only when the run ended: never, without a time limit. Fails (the
/// two-minute guard) when a worker's death does not raise the run's stop.
#[test]
#[cfg_attr(not(feature = "fault-injection"), ignore = "needs --features fault-injection")]
fn the_only_completion_worker_dying_ends_the_run_with_exit_2() {
    let point = "completion worker 0";
    let (output, dir) = run_until_a_thread_dies("resume-worker-dies", point, &["--completers", "1"]);
    assert_ended_on((point, point), &output, &dir);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A run killed after its plan settled and before its first best (no break
/// allowed, no completion: no full board comes) resumes from the checkpoint
/// written when the plan settled: it holds the plan and no board, and the
/// resume goes on as segment 1 without walking the pilots again. The same
/// checkpoint refuses a `--seed` or a `--breaks` other than its run's,
/// naming the flag and saying the checkpoint wins. Before, the checkpoint was
/// written only once a best existed: such a kill repeated the pilots and the
/// first segment's seeds, and flags given on resume were silently overridden.
#[test]
fn a_run_killed_before_its_first_best_resumes_its_settled_plan() {
    let dir = scratch("resume-no-best");
    let (instance, checkpoint) = (model("planted-13x13-f5i17-s2.json"), dir.join("run.checkpoint.json"));
    let c = checkpoint.to_str().unwrap();
    let base = ["solve", &instance, "--objective", "score", "--solver", "search", "--threads", "2", "--heartbeat", "0"];
    let flags = ["--breaks", "0:0", "--completion", "none", "--checkpoint", c];
    let mut child = bin().args(base).args(flags).stdout(Stdio::piped()).stderr(Stdio::null()).spawn().unwrap();
    let settled = |path: &Path| {
        let saved = std::fs::read_to_string(path).ok().and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok());
        saved.filter(|s| s["run"]["plan"].is_object())
    };
    let saved = loop {
        if let Some(saved) = settled(&checkpoint) {
            break saved;
        }
        assert!(child.try_wait().unwrap().is_none(), "the run ended before its plan settled");
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    child.kill().unwrap();
    let _ = child.wait().unwrap();
    assert!(saved.get("board").is_none() && saved["run"]["generation"] == 0, "{saved}");
    // The same command with a time limit just past what was spent: segment 1, no pilot.
    let spent = saved["seconds"].as_f64().unwrap();
    let limit = format!("{:.3}", spent + 2.0);
    let resumed = run(&[&base[..], &flags[..], &["--time-limit", &limit]].concat());
    let all = text(&resumed);
    let line = all.lines().find(|l| l.starts_with("resumed: ")).unwrap_or_else(|| panic!("{all}"));
    assert!(line.contains("holds no board yet") && line.contains("(segment 1 of the run"), "{line}");
    let plan = all.lines().find(|l| l.starts_with("plan: ")).unwrap_or_else(|| panic!("{all}"));
    assert!(!plan.contains("pilot walks"), "the resume walked pilots again: {plan}");
    for (flag, value) in [("--seed", "5"), ("--breaks", "ramp:0.5")] {
        let others: Vec<&str> = flags.iter().copied().filter(|f| *f != "--breaks" && *f != "0:0").collect();
        let refused = run(&[&base[..], &others[..], &[flag, value]].concat());
        let said = text(&refused);
        assert_eq!(refused.status.code(), Some(2), "{said}");
        assert!(said.contains(&format!("{flag} {value} contradicts the checkpoint")), "{said}");
        assert!(said.contains("the checkpoint wins"), "{said}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
