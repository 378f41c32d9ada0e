//! Every flag of `solve` × objective × solver: refused with exit 2 naming it, or taken, as `solve --help` says.

mod common;

use common::{generate, run, scratch, text};

/// The flags `solve --help` says only some objectives and solvers take:
/// (flag, objectives, solvers), parsed from its table.
fn table() -> Vec<(String, Vec<String>, Vec<String>)> {
    let help = text(&run(&["solve", "--help"]));
    let (_, rows) = help.split_once("Flags taken only by some objectives and solvers").expect("the table in --help");
    rows.lines()
        .skip(1)
        .filter_map(|line| {
            let words: Vec<&str> = line.split_whitespace().collect();
            match words.as_slice() {
                [flag, "--objective", objectives, "--solver", solvers] if flag.starts_with("--") => Some((
                    (*flag).to_owned(),
                    objectives.split(',').map(str::to_owned).collect(),
                    solvers.split(',').map(str::to_owned).collect(),
                )),
                _ => None,
            }
        })
        .collect()
}

/// A value each flag accepts (none for switches); files go under `dir`.
fn with_value(flag: &str, dir: &str) -> Vec<String> {
    let value = match flag {
        "--threads" | "--workers" | "--cubes" => Some("1".to_owned()),
        "--model" => Some("table".to_owned()),
        "--strategy" => Some("solver".to_owned()),
        "--hint-seconds" => Some("0.1".to_owned()),
        "--cpsat-param" => Some("use_lns=false".to_owned()),
        "--dump-model" => Some(format!("{dir}/model.pb")),
        "--restart-nodes" | "--node-limit" => Some("100000".to_owned()),
        "--flux-prune" => Some("4".to_owned()),
        "--count" => Some("2".to_owned()),
        "--order" => Some("row-scan".to_owned()),
        "--parallel" => Some("split".to_owned()),
        "--strip-test" => Some("on".to_owned()),
        "--sat-config" => Some("plain".to_owned()),
        "--am1" => Some("pairwise".to_owned()),
        "--target" => Some("12".to_owned()),
        "--breaks" => Some("ramp:0.5".to_owned()),
        "--attempt-nodes" => Some("100000".to_owned()),
        "--fill-order" => Some("row-scan".to_owned()),
        "--quota" => Some("none".to_owned()),
        "--completion" => Some("none".to_owned()),
        "--completers" => Some("1".to_owned()),
        "--trace" => Some(format!("{dir}/trace.jsonl")),
        "--checkpoint" => Some(format!("{dir}/run.checkpoint.json")),
        "--heartbeat" => Some("5".to_owned()),
        "--save-boards" => Some(format!("{dir}/saved")),
        _ => None,
    };
    let mut args = vec![flag.to_owned()];
    args.extend(value);
    if flag == "--save-from" {
        args = ["--save-from", "10", "--save-boards"].map(str::to_owned).to_vec();
        args.push(format!("{dir}/saved-from"));
    }
    if flag == "--checkpoint-every" {
        args = ["--checkpoint-every", "5", "--checkpoint"].map(str::to_owned).to_vec();
        args.push(format!("{dir}/every.checkpoint.json"));
    }
    args
}

/// Each listed flag, with each objective and each solver, on a 3×3 board:
/// where the table says it is taken, the run is not refused (exit 0 or 1);
/// elsewhere it exits 2 with a message naming the flag. Catches a flag that
/// a solver silently ignores (it would run) and a table in --help that says
/// a flag works where it is refused.
#[test]
fn every_flag_is_taken_or_refused_as_the_help_table_says() {
    let dir = scratch("flags");
    let instance = generate(&dir, 3, 2, 2, 1);
    let dir_text = dir.to_str().unwrap();
    let rows = table();
    assert!(rows.len() >= 30, "the table lists the flags: {rows:?}");
    let solvers = ["auto", "search", "cpsat", "dfs", "mip", "sat"];
    for (flag, objectives, takers) in &rows {
        for objective in ["full", "score"] {
            for solver in solvers {
                let mut args: Vec<String> =
                    ["solve", instance.to_str().unwrap(), "--time-limit", "5"].map(str::to_owned).to_vec();
                args.extend(["--objective", objective, "--solver", solver].map(str::to_owned));
                args.extend(with_value(flag, dir_text));
                let argv: Vec<&str> = args.iter().map(String::as_str).collect();
                let output = run(&argv);
                let all = text(&output);
                let taken = objectives.iter().any(|o| o == objective) && takers.iter().any(|s| s == solver);
                let no_score_mode = objective == "score" && matches!(solver, "dfs" | "sat");
                if taken && !no_score_mode {
                    assert_ne!(output.status.code(), Some(2), "{argv:?} is taken, yet refused: {all}");
                } else {
                    assert_eq!(output.status.code(), Some(2), "{argv:?} should be refused: {all}");
                    assert!(all.contains(flag.as_str()) || no_score_mode, "{argv:?}: the message names {flag}: {all}");
                }
            }
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The help text of `flag` in `solve --help`: the lines after its own, up to the next flag.
fn help_of(help: &str, flag: &str) -> String {
    let mut lines = help.lines().skip_while(|l| !l.trim_start().starts_with(&format!("{flag} ")));
    let _ = lines.next().unwrap_or_else(|| panic!("{flag} is not in --help"));
    lines.take_while(|l| !l.trim_start().starts_with("--")).collect::<Vec<_>>().join(" ")
}

/// What `solve --help` says of the score flags' defaults and grammar is what
/// the library does: each default named there is the value the run takes
/// when the flag is left out (one source: the library's constants and
/// `Default`s), and `--completion`'s grammar is the parser's order. Catches
/// help that names an old default (it said "ramp:0.78" and "rarest:1+2"
/// while the runs took the band and auto) or a grammar the parser reads in
/// another order (it said CELLS[:SECONDS[:REOPEN]]).
#[test]
fn the_help_states_the_defaults_and_the_grammar_the_run_uses() {
    use edgematch::score::{Completion, Quota, SCAN_ATTEMPT_NODES, Schedule};
    use edgematch::score_run::{CHECKPOINT_EVERY, HEARTBEAT_EVERY};
    let help = text(&run(&["solve", "--help"]));
    let says = |flag: &str, words: String| {
        let text = help_of(&help, flag);
        assert!(text.contains(&words), "{flag}'s help should say {words:?}: {text}");
    };
    says("--breaks", format!("`{}[:B]` (the default", Schedule::default()));
    says("--quota", format!("(the default, {}:", Quota::default()));
    says("--attempt-nodes", format!("(default {SCAN_ATTEMPT_NODES},"));
    says("--checkpoint-every", format!("(default {CHECKPOINT_EVERY})"));
    says("--heartbeat", format!("(default {HEARTBEAT_EVERY})"));
    says("--completion", "`CELLS[:EVERY[:SECONDS]]`".to_owned());
    let parsed: Completion = "3:2:1.5".parse().unwrap();
    assert_eq!((parsed.cells, parsed.every, parsed.seconds), (3, 2, 1.5), "CELLS:EVERY:SECONDS in this order");
    assert_eq!(edgematch::score::Options::default().quota, Quota::default());
}
