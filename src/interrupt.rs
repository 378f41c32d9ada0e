//! Ctrl-C: it raises one process-wide [`Stop`] that every command hands to its solvers.
//!
//! The first Ctrl-C raises the handle and lets the command finish normally
//! (print what it has, keep what it finished). A solver that does not return
//! within [`GRACE`] — HiGHS does not check its interrupt callbacks while solving
//! its root LP — or a second Ctrl-C ends the process with exit code 130.

use std::io::Write as _;
use std::sync::OnceLock;
use std::time::Duration;

use crate::stop::Stop;

/// How long a solve may take to return after the first Ctrl-C.
pub const GRACE: Duration = Duration::from_secs(5);

static ROOT: OnceLock<Stop> = OnceLock::new();
static INSTALLED: OnceLock<Result<(), String>> = OnceLock::new();

/// The handle Ctrl-C raises.
fn root() -> &'static Stop {
    ROOT.get_or_init(Stop::new)
}

/// Installs the Ctrl-C handler (once per process) and returns the handle it raises.
pub fn install() -> Result<Stop, String> {
    INSTALLED
        .get_or_init(|| {
            ctrlc::set_handler(|| {
                let root = root();
                if root.is_raised() {
                    exit_now("interrupted");
                }
                root.raise();
                let _ = std::thread::spawn(|| {
                    std::thread::sleep(GRACE);
                    exit_now("interrupted (the solver did not stop in time)");
                });
            })
            .map_err(|e| format!("cannot install the Ctrl-C handler: {e}"))
        })
        .clone()
        .map(|()| root().clone())
}

/// Ends the process with exit code 130 at once, from the handler's thread.
fn exit_now(message: &str) -> ! {
    let _ = std::io::stdout().flush();
    eprintln!("{message}");
    // SAFETY: _exit ends the process without running exit handlers or static
    // destructors, which must not run while a solver thread is still inside
    // the C++ libraries. Output was flushed above; files are written by
    // rename, so none is left half-written.
    unsafe { libc::_exit(130) }
}

/// True once Ctrl-C was pressed.
pub fn raised() -> bool {
    ROOT.get().is_some_and(Stop::is_raised)
}
