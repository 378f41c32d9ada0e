//! `solve`'s flags through the binary: a few taken or refused as `solve --help`'s table says (every flag × objective × solver is checked in-process in `src/cli/solve/tests.rs`), and the defaults the help states.

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

/// A few flags through the binary on a 3×3 board, one taken and one refused
/// for each objective: taken, the run ends in a verdict (exit 0 or 1);
/// refused, it exits 2 naming the flag and saying who takes it; and the
/// table `solve --help` prints lists them as the runs behave. Every listed
/// flag with every objective and solver is checked in-process against the
/// same table (`src/cli/solve/tests.rs`); these catch a binary that does not
/// route its flags through it, or a --help that prints another table.
#[test]
fn a_few_flags_are_taken_or_refused_end_to_end_as_the_help_table_says() {
    let dir = scratch("flags");
    let instance = generate(&dir, 3, 2, 2, 1);
    let rows = table();
    assert!(rows.len() >= 30, "the table lists the flags: {rows:?}");
    let listed = |flag: &str, objective: &str, solver: &str| {
        let (_, objectives, solvers) = rows.iter().find(|r| r.0 == flag).unwrap_or_else(|| panic!("{flag} listed"));
        objectives.iter().any(|o| o == objective) && solvers.iter().any(|s| s == solver)
    };
    let cases: [(&str, &str, &[&str]); 6] = [
        ("full", "search", &["--order", "row-scan"]),
        ("score", "search", &["--order", "row-scan"]),
        ("full", "cpsat", &["--model", "table"]),
        ("score", "auto", &["--cubes", "4"]),
        ("score", "search", &["--quota", "none"]),
        ("full", "search", &["--log"]),
    ];
    for (objective, solver, flag) in cases {
        let mut args = vec!["solve", instance.to_str().unwrap(), "--time-limit", "5"];
        args.extend(["--objective", objective, "--solver", solver]);
        args.extend(flag);
        let output = run(&args);
        let all = text(&output);
        if listed(flag[0], objective, solver) {
            assert!(matches!(output.status.code(), Some(0 | 1)), "{args:?} is taken, yet: {all}");
        } else {
            assert_eq!(output.status.code(), Some(2), "{args:?} should be refused: {all}");
            assert!(all.contains(flag[0]) && all.contains("it is taken by"), "{args:?}: the message names it: {all}");
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
    says("--completion", "`[ENGINE:]CELLS[:EVERY[:SECONDS]]`".to_owned());
    let parsed: Completion = "3:2:1.5".parse().unwrap();
    assert_eq!((parsed.cells, parsed.every, parsed.seconds), (3, 2, 1.5), "CELLS:EVERY:SECONDS in this order");
    assert_eq!(edgematch::score::Options::default().quota, Quota::default());
}
