//! A cube folder's verdict: the first board verified against the original
//! instance, or refuted once every cube is, else which cubes are still open.

use std::path::Path;

use super::file::{self, CubeId, CubeSet, cube_path};
use super::result::{self, CubeResult, result_path};
use crate::check::{Report, check};
use crate::error::Error;
use crate::formats::instance_json;
use crate::outcome::Status;
use crate::puzzle::Board;

/// What the folder's results add up to.
#[derive(Clone, Debug)]
pub enum Verdict {
    /// A cube's board passed the checker against the original instance.
    Solved {
        /// The cube (1-based), the lowest one with a verified board.
        cube: usize,
        /// The board.
        board: Board,
        /// The checker's report (a solution).
        report: Report,
    },
    /// Every cube was refuted: the instance has no solution.
    Refuted,
    /// Neither yet: some cubes have no result, or ended without an answer.
    Open {
        /// Cubes (1-based) without a result file.
        missing: Vec<usize>,
        /// Cubes (1-based) whose result is `unknown` or `interrupted`.
        unknown: Vec<usize>,
    },
    /// A result claims a board that the checker rejects: a solver bug.
    Rejected {
        /// The cube (1-based).
        cube: usize,
        /// The checker's report.
        report: Report,
    },
}

/// The folder's cubes, their results and the verdict.
#[derive(Clone, Debug)]
pub struct Collected {
    /// The manifest.
    pub set: CubeSet,
    /// Each cube's result, if any (index 0 is cube 1).
    pub results: Vec<Option<CubeResult>>,
    /// The verdict.
    pub verdict: Verdict,
}

impl Collected {
    /// CPU seconds summed over the cubes that have a result.
    pub fn cpu_seconds(&self) -> f64 {
        self.results.iter().flatten().map(|r| r.cpu_seconds).sum()
    }
}

/// Reads `dir`'s manifest and every result file beside its cubes. A result
/// written for another split (other instance, index or fixed cells) is an
/// error naming the file.
pub fn collect(dir: &Path) -> Result<Collected, Error> {
    let set = file::read_manifest(dir)?;
    let sha = instance_json::sha256(&set.instance);
    let instance = &set.instance.instance;
    let mut results = Vec::with_capacity(set.cubes.len());
    for (i, fixed) in set.cubes.iter().enumerate() {
        let path = result_path(&cube_path(dir, i + 1));
        if !path.is_file() {
            results.push(None);
            continue;
        }
        let result = result::read(&path, instance)?;
        let expected = CubeId { index: i + 1, count: set.cubes.len(), sha: &sha, fixed };
        expected.expect(&path, "result", result.id())?;
        results.push(Some(result));
    }
    let mut missing = Vec::new();
    let mut unknown = Vec::new();
    let mut verdict = None;
    for (i, result) in results.iter().enumerate() {
        let Some(result) = result else {
            missing.push(i + 1);
            continue;
        };
        match (&result.board, result.status) {
            (Some(board), Status::Solved) => {
                let report = check(instance, board);
                if !report.is_solution() {
                    verdict = Some(Verdict::Rejected { cube: i + 1, report });
                    break;
                }
                if verdict.is_none() {
                    verdict = Some(Verdict::Solved { cube: i + 1, board: board.clone(), report });
                }
            }
            (_, Status::Infeasible) => {}
            _ => unknown.push(i + 1),
        }
    }
    let verdict = verdict.unwrap_or(if missing.is_empty() && unknown.is_empty() {
        Verdict::Refuted
    } else {
        Verdict::Open { missing, unknown }
    });
    Ok(Collected { set, results, verdict })
}
