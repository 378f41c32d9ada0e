//! The `edgematch` command line: parse, run, map the result to an exit code.
//!
//! Exit codes:
//! - 0: success (`solve`: a board found and verified as a full solution;
//!   `verify`: the board is a full valid solution);
//! - 1: a readable answer that is not a solution (`solve`: infeasible or no
//!   board within the limit; `verify`: partial, imperfect or invalid board);
//! - 2: an error (bad arguments, unreadable or malformed input, a failing solver);
//! - 3: a solver returned a board that the checker rejected (a bug: please report);
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
    match cli::run(cli::Cli::parse()) {
        Ok(code) => code,
        Err(error) => {
            eprintln!("edgematch: {error:#}");
            ExitCode::from(2)
        }
    }
}
