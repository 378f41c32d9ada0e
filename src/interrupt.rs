//! Ctrl-C: one process-wide flag, and the running solves to stop when it is raised.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, OnceLock};

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
                RAISED.store(true, Ordering::SeqCst);
                if let Ok(stoppers) = STOPPERS.lock() {
                    stoppers.iter().for_each(|stop| stop());
                }
            })
            .map_err(|e| format!("cannot install the Ctrl-C handler: {e}"))
        })
        .clone()
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
