//! The `edgematch` command line: parse, run, map the result to an exit code.
//!
//! Exit codes:
//! - 0: success (`solve`: a board found and verified as a full solution;
//!   `verify`: the board is a full valid solution);
//! - 1: a readable answer that is not a solution (`solve`: infeasible or no
//!   board within the limit; `verify`: partial, imperfect or invalid board);
//! - 2: an error (bad arguments, unreadable or malformed input, a failing solver);
//! - 3: a solver returned a board that the checker rejected (a bug: please report);
//!   a thread that panicked (a bug too) ends the run with 2 and says so;
//! - 130: interrupted by Ctrl-C.

mod cli;

use std::process::ExitCode;

use clap::Parser as _;

fn main() -> ExitCode {
    // A closed pipe (`edgematch solve … | head`) ends the process quietly, as
    // for any Unix filter, instead of panicking in `println!`.
    // SAFETY: restoring the default disposition of SIGPIPE before any thread starts.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    // Before any thread starts (see the library's `memory`).
    edgematch::memory::keep_freed_memory();
    let cli = cli::Cli::parse();
    // A panic in any thread of the run (its message already on stderr, from the
    // default hook) reaches here through the scopes that joined the thread.
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| cli::run(cli))) {
        Ok(Ok(code)) => code,
        Ok(Err(error)) => {
            eprintln!("edgematch: {}", message(&error));
            ExitCode::from(2)
        }
        Err(_) => {
            eprintln!("edgematch: a thread of the run panicked (a bug: please report it with the message above)");
            ExitCode::from(2)
        }
    }
}

/// `error` and its causes, joined by `: `, each cause left out where the
/// message before it already says it (the library's errors name their cause
/// in their own message: `FILE: No such file or directory`).
fn message(error: &anyhow::Error) -> String {
    let mut text = String::new();
    for cause in error.chain() {
        let cause = cause.to_string();
        if text.is_empty() {
            text = cause;
        } else if !text.ends_with(&cause) {
            text = format!("{text}: {cause}");
        }
    }
    text
}
