//! Benchmarks whose records go to `results/`: each run solved, verified and timed, with its provenance.

pub mod cliff;
pub mod dfs_speed;
pub mod external;
pub mod report;
pub mod runs;
pub mod spine;

use std::process::Command;

use serde_json::{Value, json};

use crate::cpsat;

pub use dfs_speed::dfs_speed;
pub use spine::{SpineConfig, spine};

/// Where a measurement was taken: commit, OR-Tools version, cores.
///
/// The commit is `git rev-parse HEAD` of the working directory, unless
/// `EDGEMATCH_COMMIT` is set: a long bench run from a copied binary sets it to
/// the commit the binary was built from, since HEAD may move meanwhile.
pub fn provenance() -> Value {
    if let Ok(commit) = std::env::var("EDGEMATCH_COMMIT") {
        return json!({
            "commit": commit,
            "dirty": false,
            "ortools": cpsat::ORTOOLS_VERSION,
            "cores": std::thread::available_parallelism().map_or(1, |n| n.get()),
        });
    }
    let git = |args: &[&str]| {
        Command::new("git")
            .args(args)
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned())
    };
    let commit = git(&["rev-parse", "HEAD"]).unwrap_or_else(|| "unknown".to_owned());
    let dirty = git(&["status", "--porcelain", "--untracked-files=no"]).is_some_and(|s| !s.is_empty());
    json!({
        "commit": commit,
        "dirty": dirty,
        "ortools": cpsat::ORTOOLS_VERSION,
        "cores": std::thread::available_parallelism().map_or(1, |n| n.get()),
    })
}

/// Rounds to milliseconds, for records people read.
pub(crate) fn round3(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}
