//! `edgematch.verify`: the checker's verdict on a board, as `edgematch verify` prints it.

use std::path::PathBuf;
use std::sync::Arc;

use edgematch::formats::load;
use edgematch::verdict;
use pyo3::prelude::*;

use crate::board::Board;
use crate::instance::Instance;
use crate::library_error;

/// The checker's verdict: `valid` is True for a full board that keeps every
/// rule (each piece once, the clues, grey all round the rim, every inner join
/// matched); `verdict` says it in one word ("solution", "partial": no
/// violation but empty cells, "imperfect": legal pieces, some joins
/// mismatched, "invalid": any other violation); `violations` lists what is
/// wrong as (kind, message) pairs.
#[pyclass(frozen, module = "edgematch")]
pub(crate) struct Verdict {
    /// Matched inner joins.
    #[pyo3(get)]
    score: usize,
    /// The inner joins of the board (a full solution's score).
    #[pyo3(get)]
    max_score: usize,
    /// True for a full solution.
    #[pyo3(get)]
    valid: bool,
    /// "solution", "partial", "imperfect" or "invalid".
    #[pyo3(get)]
    verdict: String,
    /// Occupied cells.
    #[pyo3(get)]
    placed: usize,
    /// Everything wrong, as (kind, message) pairs.
    #[pyo3(get)]
    violations: Vec<(String, String)>,
    /// The report `edgematch verify` prints.
    #[pyo3(get)]
    text: String,
}

#[pymethods]
impl Verdict {
    fn __repr__(&self) -> String {
        format!(
            "Verdict({}, score={}/{}, violations={})",
            self.verdict,
            self.score,
            self.max_score,
            self.violations.len()
        )
    }

    fn __str__(&self) -> String {
        self.text.clone()
    }

    fn __bool__(&self) -> bool {
        self.valid
    }
}

/// A board given as a Board or as a file (any board format, or a bucas link).
#[derive(FromPyObject)]
pub(crate) enum BoardArg<'py> {
    Board(Bound<'py, Board>),
    Path(PathBuf),
}

/// The checker's verdict on `board` (a Board, or a file or link in any board
/// format) as a solution of `instance`.
#[pyfunction]
pub(crate) fn verify(instance: &Instance, board: BoardArg<'_>) -> PyResult<Verdict> {
    let (board, source) = match board {
        BoardArg::Board(b) => (b.get().board.clone(), "board".to_owned()),
        BoardArg::Path(p) => (load::board(&p, instance.inner()).map_err(library_error)?.board, p.display().to_string()),
    };
    let loaded = Arc::clone(&instance.loaded);
    let v = verdict::Verdict::new(&loaded.instance, &loaded.clue_names, &board, loaded.name.clone(), source);
    Ok(Verdict {
        score: v.score,
        max_score: v.max_score,
        valid: v.solution,
        verdict: v.verdict.to_owned(),
        placed: v.placed,
        violations: v.violations.iter().map(|l| (l.kind.to_owned(), l.message.clone())).collect(),
        text: v.text(),
    })
}
