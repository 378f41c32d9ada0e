//! `edgematch.Board`: a board as numpy arrays of pieces and rotations, its formats and its picture.

use std::path::PathBuf;
use std::sync::Arc;

use edgematch::formats::load::{self, Loaded};
use edgematch::formats::{board_json, bucas};
use edgematch::output::write_atomic;
use edgematch::puzzle::{Board as CoreBoard, Grid, Placement, Rotation};
use edgematch::render;
use pyo3::prelude::*;

use crate::arrays::{int_table, int32_table};
use crate::instance::Instance;
use crate::{error, library_error};

/// A board: one optional (piece, rotation) per cell. `pieces` and `rotations`
/// are numpy arrays of shape (height, width): the piece as a 0-based row of
/// `Instance.pieces`, the rotation in clockwise quarter turns, -1 in both for
/// an empty cell. A board from `solve` knows its instance; one made with
/// `from_arrays` does when given it.
#[pyclass(frozen, module = "edgematch")]
pub(crate) struct Board {
    pub(crate) board: CoreBoard,
    pub(crate) instance: Option<Arc<Loaded>>,
}

impl Board {
    fn loaded(&self, what: &str) -> PyResult<&Loaded> {
        self.instance.as_deref().ok_or_else(|| {
            error(format!("{what}: this board has no instance (give one to Board.from_arrays or load_board)"))
        })
    }

    /// One value per cell, row by row, as a numpy int32 array of shape (height, width).
    fn grid_array<'py>(&self, py: Python<'py>, value: impl Fn(&Placement) -> i32) -> PyResult<Bound<'py, PyAny>> {
        let values = self.board.cells.iter().map(|c| c.as_ref().map_or(-1, &value)).collect();
        int32_table(py, self.board.grid.height, self.board.grid.width, values)
    }
}

#[pymethods]
impl Board {
    /// A board from two arrays of shape (height, width): 0-based pieces and
    /// clockwise quarter turns, -1 for an empty cell (in both).
    #[staticmethod]
    #[pyo3(signature = (pieces, rotations, instance=None))]
    fn from_arrays(
        py: Python<'_>,
        pieces: &Bound<'_, PyAny>,
        rotations: &Bound<'_, PyAny>,
        instance: Option<&Instance>,
    ) -> PyResult<Board> {
        let pieces = int_table(py, "pieces", pieces, None)?;
        let rotations = int_table(py, "rotations", rotations, None)?;
        let (height, width) = pieces.dim();
        let grid = Grid::new(width, height).map_err(|e| error(format!("pieces: {e}")))?;
        if rotations.dim() != pieces.dim() {
            return Err(error(format!(
                "pieces and rotations: shapes {:?} and {:?} differ",
                pieces.shape(),
                rotations.shape()
            )));
        }
        let mut board = CoreBoard::empty(grid);
        for (cell, (&piece, &turns)) in pieces.iter().zip(rotations.iter()).enumerate() {
            let (r, c) = grid.row_col(cell);
            board.cells[cell] = match (piece, turns) {
                (-1, -1) => None,
                (p, t) if p >= 0 && (0..4).contains(&t) => {
                    Some(Placement { piece: p as usize, rotation: Rotation::wrapping(t as usize) })
                }
                (p, t) => {
                    return Err(error(format!(
                        "cell [{r}][{c}]: piece {p}, rotation {t}: expected a piece >= 0 with a rotation in 0..=3, or -1 and -1"
                    )));
                }
            };
        }
        if let Some(instance) = instance.filter(|i| i.inner().grid != grid) {
            return Err(error(format!("pieces: the board is {grid}, the instance {}", instance.inner().grid)));
        }
        Ok(Board { board, instance: instance.map(|i| Arc::clone(&i.loaded)) })
    }

    /// 0-based pieces, shape (height, width), -1 for an empty cell.
    #[getter]
    fn pieces<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.grid_array(py, |p| p.piece as i32)
    }

    /// Clockwise quarter turns, shape (height, width), -1 for an empty cell.
    #[getter]
    fn rotations<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.grid_array(py, |p| i32::from(p.rotation.turns()))
    }

    /// Columns of the board.
    #[getter]
    fn width(&self) -> usize {
        self.board.grid.width
    }

    /// Rows of the board.
    #[getter]
    fn height(&self) -> usize {
        self.board.grid.height
    }

    /// Occupied cells.
    #[getter]
    fn placed(&self) -> usize {
        self.board.placed()
    }

    /// The board as an e2.bucas.name link (needs its instance; colours up to 22).
    #[pyo3(signature = (name=None))]
    fn to_bucas(&self, name: Option<&str>) -> PyResult<String> {
        let loaded = self.loaded("to_bucas")?;
        if !bucas::can_write(&loaded.instance) {
            return Err(error("to_bucas: the instance has colours past 22, which the link's letters cannot show"));
        }
        if let Some((cell, piece)) = self.board.unknown_piece(&loaded.instance) {
            let (r, c) = self.board.grid.row_col(cell);
            return Err(error(format!(
                "to_bucas: cell [{r}][{c}] names piece {piece}, which the instance does not have"
            )));
        }
        Ok(bucas::to_link(&self.board, &loaded.instance, name.unwrap_or(&loaded.name)))
    }

    /// The board as board JSON text (pieces 1-based, as in the file format).
    fn to_json(&self) -> String {
        board_json::to_string(&self.board)
    }

    /// Writes the board, whole or not at all: board JSON, or an SVG picture
    /// when the file name ends in `.svg`, or a bucas link in `.url`/`.txt`.
    fn save(&self, path: PathBuf) -> PyResult<()> {
        let text = match path.extension().and_then(|e| e.to_str()) {
            Some("svg") => self.svg("save")?,
            Some("url" | "txt") => self.to_bucas(None)? + "\n",
            _ => board_json::to_string(&self.board),
        };
        write_atomic(&path, text.as_bytes()).map_err(library_error)
    }

    /// The picture `edgematch render` draws (Jupyter shows it).
    fn _repr_svg_(&self) -> PyResult<String> {
        self.svg("_repr_svg_")
    }

    fn __repr__(&self) -> String {
        format!("Board(size={}, placed={}/{})", self.board.grid, self.board.placed(), self.board.cells.len())
    }

    fn __eq__(&self, other: &Board) -> bool {
        self.board == other.board
    }
}

impl Board {
    fn svg(&self, what: &str) -> PyResult<String> {
        let loaded = self.loaded(what)?;
        Ok(render::svg(&loaded.instance, &self.board, &loaded.name, render::Style::default()))
    }
}

/// Reads a board of `instance` in any format the command line reads: board
/// JSON, an e2.bucas.name link (a file, or the link itself), decoded board
/// lines or a Brendan solution. As in the command line, a board naming pieces
/// the instance lacks is read (`verify` reports them).
#[pyfunction]
pub(crate) fn load_board(path: PathBuf, instance: &Instance) -> PyResult<Board> {
    let loaded = load::board(&path, instance.inner()).map_err(library_error)?;
    Ok(Board { board: loaded.board, instance: Some(Arc::clone(&instance.loaded)) })
}
