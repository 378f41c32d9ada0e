//! A cube's count (`cube-0001.count.json` beside the cube), written by `count` on a cube file, and a folder's counts summed, refusing a total while a cube is missing or unfinished.
//!
//! ```json
//! {
//!   "format": "edgematch-cube-count/1",
//!   "cube": 3,
//!   "cubes": 20,
//!   "instance_sha256": "…",
//!   "fixed": [{ "row": 0, "col": 0, "piece": 12, "rotation": 1 }],
//!   "solutions": 12,
//!   "unique": 3,
//!   "nodes": 81234,
//!   "seconds": 1.25,
//!   "ended": "complete",
//!   "host": "node17"
//! }
//! ```
//! `unique` counts the cube's solutions that are the least of their class
//! under the ORIGINAL board's symmetries, so the cubes' sums are the whole
//! board's counts; `ended` is the count's (`complete` is the only exact one).

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::file::{self, Cube, CubeId, RawCell, cells_from_raw, cube_path, raw_cells, to_json};
use crate::count::Ended;
use crate::error::Error;
use crate::formats::{expect_format, instance_json, parse_json, read_text};
use crate::output::write_atomic;
use crate::puzzle::{Clue, Instance};

/// Format tag of a cube's count file.
pub const COUNT_FORMAT: &str = "edgematch-cube-count/1";

/// One cube's count.
#[derive(Clone, Debug, PartialEq)]
pub struct CubeCount {
    /// 1-based cube index.
    pub cube: usize,
    /// How many cubes the split has.
    pub cubes: usize,
    /// SHA-256 of the original instance.
    pub instance_sha256: String,
    /// The cube's fixed cells.
    pub fixed: Vec<Clue>,
    /// Full boards in the cube, each passed by the checker.
    pub solutions: u64,
    /// Of those, the least of their class under the original board's symmetries.
    pub unique: u64,
    /// Nodes of the cube's count.
    pub nodes: u64,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// Why the count ended.
    pub ended: Ended,
    /// The machine it ran on.
    pub host: String,
}

impl CubeCount {
    /// True if this count is for `cube` (same instance, index and fixed cells).
    pub fn is_for(&self, cube: &Cube) -> bool {
        self.id() == cube.id()
    }

    /// What names the cube this count is for.
    pub fn id(&self) -> CubeId<'_> {
        CubeId { index: self.cube, count: self.cubes, sha: &self.instance_sha256, fixed: &self.fixed }
    }
}

/// The count file of a cube file: `cube-0001.json` → `cube-0001.count.json`.
pub fn count_path(cube_file: &Path) -> PathBuf {
    file::beside(cube_file, "count")
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCount {
    format: String,
    cube: usize,
    cubes: usize,
    instance_sha256: String,
    fixed: Vec<RawCell>,
    solutions: u64,
    unique: u64,
    nodes: u64,
    seconds: f64,
    ended: Ended,
    host: String,
}

/// Writes a cube's count file whole; `instance` is the original instance.
///
/// # Errors
/// The file cannot be written.
pub fn write(path: &Path, instance: &Instance, count: &CubeCount) -> Result<(), Error> {
    let raw = RawCount {
        format: COUNT_FORMAT.to_owned(),
        cube: count.cube,
        cubes: count.cubes,
        instance_sha256: count.instance_sha256.clone(),
        fixed: raw_cells(instance.grid, &count.fixed),
        solutions: count.solutions,
        unique: count.unique,
        nodes: count.nodes,
        seconds: (count.seconds * 1000.0).round() / 1000.0,
        ended: count.ended,
        host: count.host.clone(),
    };
    write_atomic(path, to_json(&raw).as_bytes())
}

/// Reads a cube's count file; `instance` is the original instance.
///
/// # Errors
/// An unreadable or malformed file, named with its field.
pub fn read(path: &Path, instance: &Instance) -> Result<CubeCount, Error> {
    let raw: RawCount = parse_json(path, &read_text(path)?)?;
    expect_format(path, &raw.format, COUNT_FORMAT)?;
    Ok(CubeCount {
        cube: raw.cube,
        cubes: raw.cubes,
        instance_sha256: raw.instance_sha256,
        fixed: cells_from_raw(path, "fixed", &raw.fixed, instance)?,
        solutions: raw.solutions,
        unique: raw.unique,
        nodes: raw.nodes,
        seconds: raw.seconds,
        ended: raw.ended,
        host: raw.host,
    })
}

/// A folder's counts summed.
#[derive(Clone, Debug, PartialEq)]
pub struct Summed {
    /// Cubes of the split.
    pub cubes: usize,
    /// The sums over the cubes counted completely.
    pub solutions: u64,
    /// Classes up to the original board's symmetries.
    pub unique: u64,
    /// Nodes of the cubes' counts (not the one-machine count's: each cube's fixed cells count in it).
    pub nodes: u64,
    /// Seconds of the cubes' counts, added.
    pub seconds: f64,
    /// Cubes (1-based) without a count file.
    pub missing: Vec<usize>,
    /// Cubes (1-based) whose count stopped early.
    pub unfinished: Vec<usize>,
}

impl Summed {
    /// True when every cube was counted completely: only then are the sums the board's counts.
    pub fn is_total(&self) -> bool {
        self.missing.is_empty() && self.unfinished.is_empty()
    }
}

/// Sums the count files of the cube folder `dir`.
///
/// # Errors
/// An unreadable manifest or count file, or a count file of another split.
pub fn sum(dir: &Path) -> Result<Summed, Error> {
    let set = file::read_manifest(dir)?;
    let sha = instance_json::sha256(&set.instance);
    let instance = &set.instance.instance;
    let mut summed = Summed {
        cubes: set.cubes.len(),
        solutions: 0,
        unique: 0,
        nodes: 0,
        seconds: 0.0,
        missing: Vec::new(),
        unfinished: Vec::new(),
    };
    for (i, fixed) in set.cubes.iter().enumerate() {
        let path = count_path(&cube_path(dir, i + 1));
        if !path.is_file() {
            summed.missing.push(i + 1);
            continue;
        }
        let count = read(&path, instance)?;
        let expected = CubeId { index: i + 1, count: set.cubes.len(), sha: &sha, fixed };
        expected.expect(&path, "count", count.id())?;
        if count.ended != Ended::Complete {
            summed.unfinished.push(i + 1);
            continue;
        }
        summed.solutions += count.solutions;
        summed.unique += count.unique;
        summed.nodes += count.nodes;
        summed.seconds += count.seconds;
    }
    Ok(summed)
}
