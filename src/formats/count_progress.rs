//! The progress file of a count: which subtrees of its tree are counted, and what each held, so an interrupted count resumes without counting a subtree twice.
//!
//! ```json
//! {
//!   "format": "edgematch-count-progress/1",
//!   "instance_sha256": "…",
//!   "level": 7,
//!   "subtrees": 5120,
//!   "above": 61234,
//!   "seconds": 12.5,
//!   "done": [[0, 2, 1, 81234], [1, 0, 0, 79120]]
//! }
//! ```
//! The tree is cut at `level` cells into `subtrees` subtrees, numbered in the
//! scan's order (the same on every machine for one instance); `above` is the
//! nodes of the cut itself (the pieces placed on the first `level` cells);
//! each entry of `done` is a counted subtree: its number, solutions, classes
//! up to symmetry and nodes. `instance_sha256` is the checkpoint's (the
//! instance as `convert --to json` writes it), so progress of another
//! instance is refused.

use std::path::Path;

use serde::{Deserialize, Serialize};

use super::checkpoint::instance_sha256;
use super::{expect_format, field_error, parse_json, read_text};
use crate::error::Error;
use crate::output::write_atomic;
use crate::puzzle::Instance;

/// Format tag of a count's progress file.
pub const FORMAT: &str = "edgematch-count-progress/1";

/// One counted subtree.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Subtree {
    /// Its number in the scan's order.
    pub index: usize,
    /// Full boards in it.
    pub solutions: u64,
    /// Of those, the least of their class under the board's symmetries.
    pub unique: u64,
    /// Pieces placed in it, below the cut.
    pub nodes: u64,
}

/// Where a count stands.
#[derive(Clone, Debug, PartialEq)]
pub struct Progress {
    /// Cells of the cut.
    pub level: usize,
    /// Subtrees below the cut.
    pub subtrees: usize,
    /// Nodes of the cut.
    pub above: u64,
    /// Seconds counted so far, over every run that resumed.
    pub seconds: f64,
    /// The subtrees counted, in any order.
    pub done: Vec<Subtree>,
}

#[derive(Serialize, Deserialize)]
struct Raw {
    format: String,
    instance_sha256: String,
    level: usize,
    subtrees: usize,
    above: u64,
    seconds: f64,
    done: Vec<(usize, u64, u64, u64)>,
}

/// Writes `progress` of a count of `instance` to `path`, whole or not at all.
///
/// # Errors
/// The file cannot be written.
pub fn write(path: &Path, instance: &Instance, progress: &Progress) -> Result<(), Error> {
    let raw = Raw {
        format: FORMAT.to_owned(),
        instance_sha256: instance_sha256(instance),
        level: progress.level,
        subtrees: progress.subtrees,
        above: progress.above,
        seconds: progress.seconds,
        done: progress.done.iter().map(|s| (s.index, s.solutions, s.unique, s.nodes)).collect(),
    };
    let text = serde_json::to_string(&raw).map_err(|e| Error::Options(format!("{}: {e}", path.display())))?;
    write_atomic(path, (text + "\n").as_bytes())
}

/// Reads the progress at `path` of a count of `instance`.
///
/// # Errors
/// An unreadable or malformed file, progress of another instance, or a
/// subtree out of range or counted twice; each named with the file and the field.
pub fn read(path: &Path, instance: &Instance) -> Result<Progress, Error> {
    let raw: Raw = parse_json(path, &read_text(path)?)?;
    expect_format(path, &raw.format, FORMAT)?;
    if raw.instance_sha256 != instance_sha256(instance) {
        return Err(field_error(path, "instance_sha256", "the progress of a count of another instance"));
    }
    let mut seen = vec![false; raw.subtrees];
    for (k, &(index, ..)) in raw.done.iter().enumerate() {
        match seen.get_mut(index) {
            None => {
                return Err(field_error(
                    path,
                    format!("done[{k}][0]"),
                    format!("no subtree {index} of {}", raw.subtrees),
                ));
            }
            Some(true) => {
                return Err(field_error(path, format!("done[{k}][0]"), format!("subtree {index} is counted twice")));
            }
            Some(flag) => *flag = true,
        }
    }
    if !raw.seconds.is_finite() || raw.seconds < 0.0 {
        return Err(field_error(path, "seconds", "not a number of seconds"));
    }
    let done =
        raw.done.iter().map(|&(index, solutions, unique, nodes)| Subtree { index, solutions, unique, nodes }).collect();
    Ok(Progress { level: raw.level, subtrees: raw.subtrees, above: raw.above, seconds: raw.seconds, done })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn instance() -> Instance {
        crate::generate::planted(&crate::generate::PlantedSpec::square(4, 2, 3, 1)).unwrap().instance
    }

    /// What is written reads back, and a file with a subtree counted twice
    /// or of another instance is refused by name: catches a resume that
    /// would count a subtree twice, or continue another board's count.
    #[test]
    fn progress_round_trips_and_bad_files_are_refused() {
        let dir = std::env::temp_dir().join(format!("edgematch-count-progress-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("progress.json");
        let progress = Progress {
            level: 3,
            subtrees: 5,
            above: 40,
            seconds: 1.5,
            done: vec![Subtree { index: 4, solutions: 2, unique: 1, nodes: 99 }],
        };
        write(&path, &instance(), &progress).unwrap();
        assert_eq!(read(&path, &instance()).unwrap(), progress);
        let other = crate::generate::planted(&crate::generate::PlantedSpec::square(4, 2, 3, 2)).unwrap().instance;
        assert!(read(&path, &other).unwrap_err().to_string().contains("another instance"));
        let twice = Progress { done: vec![progress.done[0]; 2], ..progress.clone() };
        write(&path, &instance(), &twice).unwrap();
        assert!(read(&path, &instance()).unwrap_err().to_string().contains("counted twice"));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
