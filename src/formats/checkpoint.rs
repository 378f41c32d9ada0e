//! The checkpoint of a score run: the instance it belongs to, the seconds run so far, the best board (once there is one), and where the run's walks stand.
//!
//! ```json
//! {
//!   "format": "edgematch-score-checkpoint/4",
//!   "instance_sha256": "…",
//!   "seconds": 123.4,
//!   "score": 452,
//!   "board": { "format": "edgematch-board/1", … },
//!   "instance": { "format": "edgematch-instance/1", … },
//!   "run": {
//!     "seed": 1,
//!     "generation": 2,
//!     "attempts": [31, 29],
//!     "placements": 81234567890,
//!     "plan": { "order": "band-sw", "breaks": "201:1,…", "quota": "3,6,8", "completion": "16:0:5" }
//!   }
//! }
//! ```
//! `instance_sha256` is the SHA-256 of the instance as `convert --to json`
//! writes it (its name left out), so a checkpoint of another instance is
//! refused; the instance itself is embedded, so a checkpoint can be judged
//! alone (`collect` picks the best over a Slurm array's tasks); the board is
//! read against the instance and must be full and break no rule but
//! mismatched joins; `score` is checked against it. `run` (see [`RunState`])
//! lets a resumed run go on where this one stood: its seed, how many times
//! it was resumed, the attempts each walk started, and its settled plan (the
//! strings `solve` takes for `--fill-order`, `--breaks`, `--quota` and
//! `--completion`; absent for a solver without one).
//!
//! Versions: 4 lets `board` and `score` be absent (a run checkpoints its
//! plan as soon as it settles, before its first board), both or neither;
//! 3 added `run`, its board required; version 2 files are read without a
//! run state (their board resumes, nothing else); version 1 files are refused.

use std::path::Path;

use serde::{Deserialize, Serialize};

use super::instance_json::{self, InstanceFile};
use super::{board_json, expect_format, field_error, parse_json, read_text};
use crate::error::Error;
use crate::output::write_atomic;
use crate::puzzle::{Board, Instance};

/// Format tag of a checkpoint.
pub const FORMAT: &str = "edgematch-score-checkpoint/4";

/// Format tags of the versions before, still read: with a board always, the
/// second without a run state.
const FORMAT_3: &str = "edgematch-score-checkpoint/3";
const FORMAT_2: &str = "edgematch-score-checkpoint/2";

/// A score run's state: enough to resume it from its best board.
#[derive(Clone, Debug, PartialEq)]
pub struct Checkpoint {
    /// Seconds the run (and the runs it resumed) spent so far.
    pub seconds: f64,
    /// The best board so far (`None`: none yet).
    pub board: Option<Board>,
    /// Where the run stood (`None`: a version 2 file).
    pub run: Option<RunState>,
}

/// Where a score run stood when its checkpoint was written.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RunState {
    /// The run's seed (`--seed` of its first segment).
    pub seed: u64,
    /// The segment that wrote it: 0 for the first run, one more for each resume.
    pub generation: u64,
    /// Attempts each walk started, all segments so far.
    pub attempts: Vec<u64>,
    /// Placements of all walks, all segments so far (up to each segment's last checkpoint).
    #[serde(default)]
    pub placements: u64,
    /// The plan the run settled (`None`: none yet, or a solver without one).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub plan: Option<SavedPlan>,
    /// The plan's flags the run's first segment was given, where they were
    /// not their defaults (version 4; `None` in older files): a resume given
    /// one that differs is refused rather than silently overridden.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub asked: Option<Asked>,
}

/// The plan's flags a run was started with, each where it was not its
/// default, as `solve` takes them.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Asked {
    /// `--fill-order`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub order: Option<String>,
    /// `--breaks`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub breaks: Option<String>,
    /// `--quota`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub quota: Option<String>,
    /// `--completion`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub completion: Option<String>,
}

/// A settled plan, as the flags that give it outright.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SavedPlan {
    /// `--fill-order`.
    pub order: String,
    /// `--breaks`.
    pub breaks: String,
    /// `--quota`.
    pub quota: String,
    /// `--completion`.
    pub completion: String,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Raw {
    format: String,
    instance_sha256: String,
    seconds: f64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    score: Option<usize>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    board: Option<serde_json::Value>,
    instance: serde_json::Value,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    run: Option<RunState>,
}

/// The instance as a checkpoint embeds it (its name left out).
fn instance_file(instance: &Instance) -> InstanceFile {
    InstanceFile { instance: instance.clone(), name: None, colours: None }
}

/// The identity of `instance` in a checkpoint (its name left out).
pub fn instance_sha256(instance: &Instance) -> String {
    instance_json::sha256(&instance_file(instance))
}

/// Writes the checkpoint of `instance` whole to `path`.
///
/// # Errors
/// The file cannot be written.
pub fn write(path: &Path, instance: &Instance, checkpoint: &Checkpoint) -> Result<(), Error> {
    let board = checkpoint.board.as_ref().map(|board| {
        serde_json::from_str::<serde_json::Value>(&board_json::to_string(board)).expect("board JSON is JSON")
    });
    let raw = Raw {
        format: FORMAT.to_owned(),
        instance_sha256: instance_sha256(instance),
        seconds: (checkpoint.seconds * 1000.0).round() / 1000.0,
        score: checkpoint.board.as_ref().map(|b| b.score(instance)),
        board,
        instance: serde_json::from_str(&instance_json::to_string(&instance_file(instance)))
            .expect("instance JSON is JSON"),
        run: checkpoint.run.clone(),
    };
    write_atomic(path, (serde_json::to_string_pretty(&raw).expect("a checkpoint serializes") + "\n").as_bytes())
}

/// Reads the checkpoint at `path` for `instance`.
///
/// # Errors
/// An unreadable or malformed file, a checkpoint of another instance, or a
/// board that is not full, breaks a rule, or does not score what it says;
/// each named with the file and the field.
pub fn read(path: &Path, instance: &Instance) -> Result<Checkpoint, Error> {
    let (own, checkpoint) = read_alone(path)?;
    if instance_sha256(&own) != instance_sha256(instance) {
        return Err(field_error(path, "instance_sha256", "a checkpoint of another instance"));
    }
    Ok(checkpoint)
}

/// Reads the checkpoint at `path` with the instance it embeds.
///
/// # Errors
/// As [`read`], and an embedded instance that is malformed or does not match `instance_sha256`.
pub fn read_alone(path: &Path) -> Result<(Instance, Checkpoint), Error> {
    parse_alone(path, &read_text(path)?)
}

/// Parses `text`, the checkpoint read from `path` (named in messages), with the instance it embeds.
///
/// # Errors
/// As [`read_alone`], for the text.
pub fn parse_alone(path: &Path, text: &str) -> Result<(Instance, Checkpoint), Error> {
    let raw: Raw = parse_json(path, text)?;
    if raw.format != FORMAT_2 && raw.format != FORMAT_3 {
        expect_format(path, &raw.format, FORMAT)?;
    }
    let instance = instance_json::parse(path, &raw.instance.to_string())
        .map_err(|e| field_error(path, "instance", e.to_string()))?
        .instance;
    if raw.instance_sha256 != instance_sha256(&instance) {
        return Err(field_error(path, "instance_sha256", "not the SHA-256 of the embedded instance"));
    }
    if !raw.seconds.is_finite() || raw.seconds < 0.0 {
        return Err(field_error(path, "seconds", format!("{} is not a number of seconds", raw.seconds)));
    }
    let board = match (raw.board, raw.score) {
        (Some(board), Some(score)) => Some(full_board(path, &instance, &board, score)?),
        (None, None) if raw.format == FORMAT => None,
        (None, _) => return Err(field_error(path, "board", "missing")),
        (Some(_), None) => return Err(field_error(path, "score", "missing beside the board")),
    };
    if let Some(run) = &raw.run
        && run.generation == u64::MAX
    {
        return Err(field_error(path, "run.generation", "has no successor"));
    }
    Ok((instance, Checkpoint { seconds: raw.seconds, board, run: raw.run }))
}

/// The checkpoint's `board`, read against `instance`: full, breaking no rule
/// but mismatched joins, and scoring `score`.
fn full_board(path: &Path, instance: &Instance, board: &serde_json::Value, score: usize) -> Result<Board, Error> {
    let board = board_json::parse(path, &board.to_string()).map_err(|e| field_error(path, "board", e.to_string()))?;
    let report = crate::check::check(instance, &board);
    if report.placed != instance.grid.cells() || !report.only_joins_mismatch() {
        return Err(field_error(path, "board", format!("not a full board of the instance: {}", report.summary(3))));
    }
    if report.score != score {
        return Err(field_error(path, "score", format!("{score} but the board scores {}", report.score)));
    }
    Ok(board)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::{PlantedSpec, planted};

    #[test]
    fn a_checkpoint_reads_back_and_refuses_another_instance_or_an_edit() {
        let dir = std::env::temp_dir().join(format!("edgematch-checkpoint-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("run.checkpoint.json");
        let p = planted(&PlantedSpec::square(5, 2, 3, 1)).unwrap();
        let plan = SavedPlan {
            order: "band-sw".to_owned(),
            breaks: "10:1".to_owned(),
            quota: "none".to_owned(),
            completion: "none".to_owned(),
        };
        let asked = Asked { breaks: Some("ramp:0.5".to_owned()), ..Asked::default() };
        let run = RunState {
            seed: 7,
            generation: 2,
            attempts: vec![3, 4],
            placements: 99,
            plan: Some(plan),
            asked: Some(asked),
        };
        let checkpoint = Checkpoint { seconds: 12.5, board: Some(p.solution.clone()), run: Some(run) };
        write(&path, &p.instance, &checkpoint).unwrap();
        assert_eq!(read(&path, &p.instance).unwrap(), checkpoint);
        let other = planted(&PlantedSpec::square(5, 2, 3, 2)).unwrap();
        assert!(read(&path, &other.instance).unwrap_err().to_string().contains("another instance"));
        let text = std::fs::read_to_string(&path).unwrap().replace("\"score\": 40", "\"score\": 39");
        std::fs::write(&path, text).unwrap();
        assert!(read(&path, &p.instance).unwrap_err().to_string().contains("score"));
        std::fs::write(&path, "{").unwrap();
        assert!(read(&path, &p.instance).is_err());
        // A run that has no board yet (its plan just settled) is checkpointed without one.
        let early = Checkpoint { board: None, ..checkpoint.clone() };
        write(&path, &p.instance, &early).unwrap();
        assert_eq!(read(&path, &p.instance).unwrap(), early);
        // Versions 2 and 3 always had a board: one without is refused, naming the field.
        let text = std::fs::read_to_string(&path).unwrap().replace(FORMAT, FORMAT_3);
        std::fs::write(&path, text).unwrap();
        assert!(read(&path, &p.instance).unwrap_err().to_string().contains("`board`: missing"));
        // A version 3 file reads whole; a version 2 file (no run state) reads its board to resume.
        write(&path, &p.instance, &checkpoint).unwrap();
        let text = std::fs::read_to_string(&path).unwrap().replace(FORMAT, FORMAT_3);
        std::fs::write(&path, text).unwrap();
        assert_eq!(read(&path, &p.instance).unwrap(), checkpoint);
        let two = Checkpoint { run: None, ..checkpoint.clone() };
        write(&path, &p.instance, &two).unwrap();
        let text = std::fs::read_to_string(&path).unwrap().replace(FORMAT, FORMAT_2);
        std::fs::write(&path, text).unwrap();
        assert_eq!(read(&path, &p.instance).unwrap(), two);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
