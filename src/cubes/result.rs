//! A cube's result file (`cube-0001.result.json` beside the cube): how its
//! solve ended, with the board, written whole by `solve` on a cube file.
//!
//! ```json
//! {
//!   "format": "edgematch-cube-result/1",
//!   "cube": 3,
//!   "cubes": 20,
//!   "instance_sha256": "…",
//!   "fixed": [{ "row": 0, "col": 0, "piece": 12, "rotation": 1 }],
//!   "status": "infeasible",
//!   "seconds": 12.345,
//!   "cpu_seconds": 12.301,
//!   "nodes": 412345678,
//!   "solver": "search (order auto, 1 thread(s), seed 1)",
//!   "host": "node17",
//!   "board": null
//! }
//! ```
//! `status` is the solver's (`solved`, `infeasible`, `unknown`,
//! `interrupted`); `board` is the verified board when solved (board JSON),
//! else null. `cpu_seconds` is the process's user + system time; `nodes` the
//! solver's search nodes (placements), when it counts them (absent otherwise).

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;

use super::file::{Cube, CubeId, RawCell, cells_from_raw, embed, raw_cells, to_json};
use crate::error::Error;
use crate::formats::{board_json, expect_format, field_error, parse_json, read_text};
use crate::outcome::Status;
use crate::output::write_atomic;
use crate::puzzle::{Board, Clue, Instance};

/// Format tag of a result file.
pub const RESULT_FORMAT: &str = "edgematch-cube-result/1";

/// How one cube's solve ended.
#[derive(Clone, Debug, PartialEq)]
pub struct CubeResult {
    /// 1-based cube index.
    pub cube: usize,
    /// How many cubes the split has.
    pub cubes: usize,
    /// SHA-256 of the original instance.
    pub instance_sha256: String,
    /// The cube's fixed cells (to tell results of another split apart).
    pub fixed: Vec<Clue>,
    /// How the solve ended.
    pub status: Status,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// CPU seconds (user + system) of the process that solved it.
    pub cpu_seconds: f64,
    /// Search nodes, when the solver counts them.
    pub nodes: Option<u64>,
    /// What ran, as `solve` describes it.
    pub solver: String,
    /// The machine it ran on.
    pub host: String,
    /// The board, when solved.
    pub board: Option<Board>,
}

impl CubeResult {
    /// True when the cube needs no further run: solved or refuted.
    pub fn is_final(&self) -> bool {
        matches!(self.status, Status::Solved | Status::Infeasible)
    }

    /// True if this result is for `cube` (same instance, index and fixed cells).
    pub fn is_for(&self, cube: &Cube) -> bool {
        self.id() == cube.id()
    }

    /// What names the cube this result is for.
    pub fn id(&self) -> CubeId<'_> {
        CubeId { index: self.cube, count: self.cubes, sha: &self.instance_sha256, fixed: &self.fixed }
    }
}

/// The result file of a cube file: `cube-0001.json` → `cube-0001.result.json`.
pub fn result_path(cube_file: &Path) -> PathBuf {
    super::file::beside(cube_file, "result")
}

/// A result file, as written.
#[derive(Serialize)]
struct ResultDocument<'a> {
    format: &'static str,
    cube: usize,
    cubes: usize,
    instance_sha256: &'a str,
    fixed: Vec<RawCell>,
    status: Status,
    seconds: f64,
    cpu_seconds: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    nodes: Option<u64>,
    solver: &'a str,
    host: &'a str,
    /// The board as `solve --out` writes it, embedded as it is.
    board: Option<Box<RawValue>>,
}

/// Writes a result file whole.
pub fn write(path: &Path, instance: &Instance, result: &CubeResult) -> Result<(), Error> {
    let millis = |s: f64| (s * 1000.0).round() / 1000.0;
    let document = ResultDocument {
        format: RESULT_FORMAT,
        cube: result.cube,
        cubes: result.cubes,
        instance_sha256: &result.instance_sha256,
        fixed: raw_cells(instance.grid, &result.fixed),
        status: result.status,
        seconds: millis(result.seconds),
        cpu_seconds: millis(result.cpu_seconds),
        nodes: result.nodes,
        solver: &result.solver,
        host: &result.host,
        board: result.board.as_ref().map(|board| embed(&board_json::to_string(board))),
    };
    write_atomic(path, to_json(&document).as_bytes())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawResult {
    format: String,
    cube: usize,
    cubes: usize,
    instance_sha256: String,
    fixed: Vec<RawCell>,
    status: Status,
    seconds: f64,
    cpu_seconds: f64,
    #[serde(default)]
    nodes: Option<u64>,
    solver: String,
    host: String,
    board: Option<serde_json::Value>,
}

/// Reads a result file; `instance` is the original instance (the fixed cells are read against it).
pub fn read(path: &Path, instance: &Instance) -> Result<CubeResult, Error> {
    let raw: RawResult = parse_json(path, &read_text(path)?)?;
    expect_format(path, &raw.format, RESULT_FORMAT)?;
    let board = match raw.board {
        Some(value) => {
            Some(board_json::parse(path, &value.to_string()).map_err(|e| field_error(path, "board", e.to_string()))?)
        }
        None => None,
    };
    if raw.status == Status::Solved && board.is_none() {
        return Err(field_error(path, "board", "status solved without a board"));
    }
    Ok(CubeResult {
        cube: raw.cube,
        cubes: raw.cubes,
        instance_sha256: raw.instance_sha256,
        fixed: cells_from_raw(path, "fixed", &raw.fixed, instance)?,
        status: raw.status,
        seconds: raw.seconds,
        cpu_seconds: raw.cpu_seconds,
        nodes: raw.nodes,
        solver: raw.solver,
        host: raw.host,
        board,
    })
}

/// This host's name (`HOSTNAME`, else `/etc/hostname`, else `unknown`).
pub fn host_name() -> String {
    std::env::var("HOSTNAME")
        .ok()
        .or_else(|| std::fs::read_to_string("/etc/hostname").ok())
        .map(|h| h.trim().to_owned())
        .filter(|h| !h.is_empty())
        .unwrap_or_else(|| "unknown".to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::{PlantedSpec, planted};
    use crate::puzzle::{Placement, Rotation};

    #[test]
    fn a_result_reads_back_as_written_and_a_solved_one_needs_its_board() {
        let planted = planted(&PlantedSpec::square(4, 2, 3, 2)).unwrap();
        let fixed = vec![Clue { cell: 0, placement: Placement { piece: 3, rotation: Rotation::ALL[1] } }];
        let mut result = CubeResult {
            cube: 2,
            cubes: 5,
            instance_sha256: "ab".repeat(32),
            fixed: fixed.clone(),
            status: Status::Solved,
            seconds: 1.5,
            cpu_seconds: 1.25,
            nodes: Some(1 << 40),
            solver: "search \"x\"".into(),
            host: "node1".into(),
            board: Some(planted.solution.clone()),
        };
        let dir = std::env::temp_dir().join(format!("edgematch-cube-result-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = result_path(&dir.join("cube-0002.json"));
        assert!(path.ends_with("cube-0002.result.json"));
        write(&path, &planted.instance, &result).unwrap();
        assert_eq!(read(&path, &planted.instance).unwrap(), result);
        result.status = Status::Infeasible;
        result.board = None;
        write(&path, &planted.instance, &result).unwrap();
        let back = read(&path, &planted.instance).unwrap();
        assert!(back.is_final() && back.board.is_none());
        let text = std::fs::read_to_string(&path).unwrap().replace("\"infeasible\"", "\"solved\"");
        std::fs::write(&path, text).unwrap();
        let error = read(&path, &planted.instance).unwrap_err().to_string();
        assert!(error.contains("board") && error.contains("cube-0002.result.json"), "{error}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
