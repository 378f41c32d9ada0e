//! Ctrl-C: one process-wide flag, and the running solves to stop when it is raised.
//!
//! The first Ctrl-C asks every watched solve to stop and lets the command finish
//! normally (print what it has, keep what it finished). A solver that does not
//! return within [`GRACE`] — HiGHS does not check its interrupt callbacks while
//! solving its root LP — or a second Ctrl-C ends the process with exit code 130.

use std::io::Write as _;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::Duration;

/// How long a solve may take to return after the first Ctrl-C.
pub const GRACE: Duration = Duration::from_secs(5);

/// Stops one running solve.
type StopFn = Box<dyn Fn() + Send>;

static RAISED: AtomicBool = AtomicBool::new(false);
static STOPPERS: Mutex<Vec<StopFn>> = Mutex::new(Vec::new());
static INSTALLED: OnceLock<Result<(), String>> = OnceLock::new();

/// Installs the Ctrl-C handler (once per process; later calls are no-ops).
pub fn install() -> Result<(), String> {
    INSTALLED
        .get_or_init(|| {
            ctrlc::set_handler(|| {
                if RAISED.swap(true, Ordering::SeqCst) {
                    exit_now("interrupted");
                }
                if let Ok(stoppers) = STOPPERS.lock() {
                    stoppers.iter().for_each(|stop| stop());
                }
                let _ = std::thread::spawn(|| {
                    std::thread::sleep(GRACE);
                    exit_now("interrupted (the solver did not stop in time)");
                });
            })
            .map_err(|e| format!("cannot install the Ctrl-C handler: {e}"))
        })
        .clone()
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
    RAISED.load(Ordering::SeqCst)
}

/// Registers how to stop a solve on Ctrl-C; stops it at once if Ctrl-C came
/// first. Keep the guard alive for the duration of the solve.
pub fn watch(stop: impl Fn() + Send + 'static) -> Guard {
    let mut stoppers = STOPPERS.lock().unwrap_or_else(|e| e.into_inner());
    if raised() {
        stop();
    }
    stoppers.push(Box::new(stop));
    Guard(())
}

/// Unregisters the watched solves when dropped.
pub struct Guard(());

impl Drop for Guard {
    fn drop(&mut self) {
        STOPPERS.lock().unwrap_or_else(|e| e.into_inner()).clear();
    }
}
