//! `solve`'s flag table checked in-process: every flag it lists, with each objective and solver, parsed by clap and taken or refused by the table's own routing (`tests/flags.rs` runs a few of them through the binary).

use clap::Parser as _;
use edgematch::solver::{Objective, SolverKind};

use super::args::{SolveArgs, TAKEN_BY, objective_name};
use crate::cli::{Cli, Command};

/// Every solver `solve --solver` names.
const SOLVERS: [SolverKind; 6] =
    [SolverKind::Auto, SolverKind::Search, SolverKind::Cpsat, SolverKind::Dfs, SolverKind::Mip, SolverKind::Sat];

/// `flag` with a value it accepts (none for switches), and the flag it needs beside it, if any.
fn with_value(flag: &str) -> Vec<&str> {
    let value = match flag {
        "--threads" | "--workers" | "--cubes" | "--completers" => "1",
        "--model" => "table",
        "--strategy" => "solver",
        "--hint-seconds" => "0.1",
        "--cpsat-param" => "use_lns=false",
        "--dump-model" => "model.pb",
        "--restart-nodes" | "--node-limit" | "--attempt-nodes" => "100000",
        "--flux-prune" => "4",
        "--count" => "2",
        "--order" | "--fill-order" => "row-scan",
        "--parallel" => "split",
        "--strip-test" => "on",
        "--sat-config" => "plain",
        "--am1" => "pairwise",
        "--target" => "12",
        "--breaks" => "ramp:0.5",
        "--quota" | "--completion" => "none",
        "--trace" => "trace.jsonl",
        "--checkpoint" => "run.checkpoint.json",
        "--heartbeat" => "5",
        "--save-boards" => "saved",
        "--save-from" => return vec![flag, "10", "--save-boards", "saved"],
        "--checkpoint-every" => return vec![flag, "5", "--checkpoint", "every.checkpoint.json"],
        _ => return vec![flag],
    };
    vec![flag, value]
}

/// `solve`'s arguments as clap parses `words` (after `edgematch solve instance.json`).
fn parsed(words: &[&str]) -> SolveArgs {
    let argv = ["edgematch", "solve", "instance.json"].into_iter().chain(words.iter().copied());
    match Cli::try_parse_from(argv) {
        Ok(Cli { command: Command::Solve(args) }) => *args,
        Ok(_) => unreachable!("a solve command"),
        Err(error) => panic!("{words:?} does not parse: {error}"),
    }
}

/// Each flag the table lists, with each objective and each solver: where the
/// table says it is taken, the flags settle into a solver; elsewhere they are
/// refused with a message naming the flag. Catches a flag that a solver
/// silently ignores (it would settle), a table that says a flag works where it
/// is refused, and a listed flag clap does not know (it would not parse).
#[test]
fn every_listed_flag_is_taken_or_refused_as_the_table_says() {
    assert!(TAKEN_BY.len() >= 30, "the table lists the flags");
    for &(flag, objectives, takers) in TAKEN_BY {
        for objective in [Objective::Full, Objective::Score] {
            for solver in SOLVERS {
                let mut words = vec!["--objective", objective_name(objective), "--solver", solver.name()];
                words.extend(with_value(flag));
                let settled = parsed(&words).solver();
                match (objectives.contains(&objective) && takers.contains(&solver), settled) {
                    (true, Ok(_)) => {}
                    (true, Err(error)) => panic!("{words:?} is taken, yet refused: {error}"),
                    (false, Ok(_)) => panic!("{words:?} should be refused"),
                    (false, Err(error)) => assert!(error.to_string().contains(flag), "{words:?}: {error}"),
                }
            }
        }
    }
}
