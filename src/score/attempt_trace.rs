//! A record of every attempt's seed, for the tests that show a resumed run walks no attempt twice.
//!
//! With the environment variable [`ATTEMPT_TRACE_ENV`] naming a file, each
//! attempt a scan walk starts appends one line to it: `generation walk attempt
//! seed`. The file is opened for appending and each line written whole in one
//! call, so the lines of several walks and of several segments of a run (a
//! killed run and its resume) do not cut one another. Without the variable
//! nothing is written and the walks pay one branch per attempt.

use std::fs::File;
use std::io::Write as _;
use std::sync::Mutex;

/// The environment variable naming the file of attempt seeds.
pub const ATTEMPT_TRACE_ENV: &str = "EDGEMATCH_ATTEMPT_TRACE";

/// Where a run's attempt seeds go, if anywhere.
pub(crate) struct AttemptTrace {
    generation: u64,
    file: Option<Mutex<File>>,
}

impl AttemptTrace {
    /// The trace [`ATTEMPT_TRACE_ENV`] asks for, for segment `generation` of
    /// the run (none if unset or if the file cannot be opened: said on stderr).
    pub(crate) fn from_env(generation: u64) -> AttemptTrace {
        let file = std::env::var_os(ATTEMPT_TRACE_ENV).and_then(|path| {
            let opened = std::fs::OpenOptions::new().create(true).append(true).open(&path);
            opened.map_err(|e| eprintln!("edgematch: {}: {e}", path.to_string_lossy())).ok()
        });
        AttemptTrace { generation, file: file.map(Mutex::new) }
    }

    /// Records attempt `attempt` of walk `walk`, seeded `seed`.
    pub(crate) fn record(&self, walk: usize, attempt: u64, seed: u64) {
        if let Some(file) = &self.file {
            let line = format!("{} {walk} {attempt} {seed}\n", self.generation);
            let mut file = file.lock().unwrap_or_else(|e| e.into_inner());
            let _ = file.write_all(line.as_bytes());
        }
    }
}
