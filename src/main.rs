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

/// Tells glibc's allocator to grow its heaps in 64 MiB steps and to hand
/// freed memory back to the kernel only above 1 GiB of free heap top.
///
/// CaDiCaL allocates and frees millions of small blocks while it loads a
/// seam encoding (850,000 clauses on a 14×14 board). With glibc's defaults
/// (128 KiB), a solver running on a thread of its own (a portfolio arm) has
/// its arena trimmed and regrown over and over, and every regrown page
/// faults in again: measured on em_14_7_3 under `--solver auto`, 0.35 s
/// with the defaults against 0.26 s with these settings.
fn keep_freed_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: `mallopt` only sets allocator tunables; called before any thread starts.
    unsafe {
        libc::mallopt(libc::M_TOP_PAD, 64 << 20);
        libc::mallopt(libc::M_TRIM_THRESHOLD, 1 << 30);
    }
}

fn main() -> ExitCode {
    // A closed pipe (`edgematch solve … | head`) ends the process quietly, as
    // for any Unix filter, instead of panicking in `println!`.
    // SAFETY: restoring the default disposition of SIGPIPE before any thread starts.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    keep_freed_memory();
    match cli::run(cli::Cli::parse()) {
        Ok(code) => code,
        Err(error) => {
            eprintln!("edgematch: {error:#}");
            ExitCode::from(2)
        }
    }
}
