//! `edgematch.Instance`, `edgematch.load` and `edgematch.generate`: a puzzle, read from a file or planted.

use std::path::PathBuf;
use std::sync::Arc;

use edgematch::formats::instance_json::{self, InstanceFile};
use edgematch::formats::load::{InstanceOptions, Loaded};
use edgematch::formats::piece_list::Columns;
use edgematch::generate::{PlantedSpec, planted};
use edgematch::output::write_atomic;
use edgematch::puzzle::{Clue, Grid, Instance as CoreInstance, Piece, Placement, Rotation};
use edgematch::render;
use numpy::ndarray::Array2;
use pyo3::prelude::*;

use crate::arrays::{int_table, int32_table};
use crate::{error, library_error};

/// A puzzle: the board size, the pieces (N, E, S, W colours, 0 = grey) and the clue cells.
#[pyclass(frozen, module = "edgematch")]
pub(crate) struct Instance {
    pub(crate) loaded: Arc<Loaded>,
}

impl Instance {
    pub(crate) fn new(loaded: Loaded) -> Instance {
        Instance { loaded: Arc::new(loaded) }
    }

    pub(crate) fn inner(&self) -> &edgematch::puzzle::Instance {
        &self.loaded.instance
    }
}

#[pymethods]
impl Instance {
    /// An instance from arrays: `pieces` of shape (width * height, 4), the N,
    /// E, S, W colours of each piece (0 = grey, at most 255), as `pieces`
    /// returns them; `clues` of shape (k, 4), one (row, column, piece,
    /// rotation) per clue, piece 0-based, as `clues` returns them. A bad value
    /// raises `edgematch.Error` naming the argument and its row.
    #[staticmethod]
    #[pyo3(signature = (pieces, width, height, clues=None, name="arrays"))]
    fn from_arrays(
        py: Python<'_>,
        pieces: &Bound<'_, PyAny>,
        width: usize,
        height: usize,
        clues: Option<&Bound<'_, PyAny>>,
        name: &str,
    ) -> PyResult<Instance> {
        let grid = Grid::new(width, height).map_err(|e| error(format!("width and height: {e}")))?;
        let pieces = pieces_from(grid, &int_table(py, "pieces", pieces, Some(4))?)?;
        let clues = match clues {
            Some(clues) => clues_from(grid, pieces.len(), &int_table(py, "clues", clues, Some(4))?)?,
            None => Vec::new(),
        };
        let clue_names = (1..=clues.len()).map(|k| format!("clue {k}")).collect();
        let instance = CoreInstance { grid, pieces, clues };
        Ok(Instance::new(Loaded { instance, name: name.to_owned(), clue_names, columns: None }))
    }

    /// The name reports use (the file's stem, or the name inside it).
    #[getter]
    fn name(&self) -> &str {
        &self.loaded.name
    }

    /// Columns of the board.
    #[getter]
    fn width(&self) -> usize {
        self.inner().grid.width
    }

    /// Rows of the board.
    #[getter]
    fn height(&self) -> usize {
        self.inner().grid.height
    }

    /// The inner joins: the score of a full solution.
    #[getter]
    fn max_score(&self) -> usize {
        self.inner().grid.max_score()
    }

    /// The pieces as a numpy array of shape (pieces, 4): N, E, S, W colours in
    /// reference orientation, 0 = grey. Row `i` is piece `i` of a board's `pieces`.
    #[getter]
    fn pieces<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let values = self.inner().pieces.iter().flat_map(|p| p.0.map(i32::from)).collect();
        int32_table(py, self.inner().pieces.len(), 4, values)
    }

    /// The clue cells as (row, column, piece, rotation) tuples (piece 0-based,
    /// rotation in clockwise quarter turns).
    #[getter]
    fn clues(&self) -> Vec<(usize, usize, usize, u8)> {
        let grid = self.inner().grid;
        self.inner()
            .clues
            .iter()
            .map(|c| {
                let (r, col) = grid.row_col(c.cell);
                (r, col, c.placement.piece, c.placement.rotation.turns())
            })
            .collect()
    }

    /// Writes the instance as instance JSON (whole or not at all).
    fn save(&self, path: PathBuf) -> PyResult<()> {
        let file = InstanceFile { instance: self.inner().clone(), name: Some(self.loaded.name.clone()), colours: None };
        write_atomic(&path, instance_json::to_string(&file).as_bytes()).map_err(library_error)
    }

    /// The instance as instance JSON text.
    fn to_json(&self) -> String {
        let file = InstanceFile { instance: self.inner().clone(), name: Some(self.loaded.name.clone()), colours: None };
        instance_json::to_string(&file)
    }

    /// The clue cells on an empty board, as `edgematch render` draws boards (Jupyter shows it).
    fn _repr_svg_(&self) -> String {
        render::svg(self.inner(), &self.inner().clue_board(), &self.loaded.name, render::Style::default())
    }

    fn __repr__(&self) -> String {
        let instance = self.inner();
        format!(
            "Instance(name={:?}, size={}, pieces={}, clues={})",
            self.loaded.name,
            instance.grid,
            instance.pieces.len(),
            instance.clues.len()
        )
    }

    fn __eq__(&self, other: &Instance) -> bool {
        self.inner() == other.inner()
    }
}

/// The pieces of a `grid` board from their (n, 4) table: one per cell, each colour in 0..=255.
fn pieces_from(grid: Grid, table: &Array2<i64>) -> PyResult<Vec<Piece>> {
    if table.nrows() != grid.cells() {
        return Err(error(format!("pieces: {} rows for a {grid} board, which needs {}", table.nrows(), grid.cells())));
    }
    let mut pieces = Vec::with_capacity(table.nrows());
    for (i, row) in table.rows().into_iter().enumerate() {
        let mut colours = [0; 4];
        for (side, (&value, colour)) in row.iter().zip(&mut colours).enumerate() {
            *colour = u8::try_from(value).map_err(|_| {
                error(format!("pieces row {i}, column {side} ({}): colour {value} is not in 0..=255", SIDES[side]))
            })?;
        }
        pieces.push(Piece(colours));
    }
    Ok(pieces)
}

/// The side names of a piece row's columns.
const SIDES: [&str; 4] = ["N", "E", "S", "W"];

/// The clues of a `grid` board with `count` pieces from their (k, 4) table
/// of (row, column, piece, rotation): inside the board, one per cell and per piece.
fn clues_from(grid: Grid, count: usize, table: &Array2<i64>) -> PyResult<Vec<Clue>> {
    let mut clues: Vec<Clue> = Vec::with_capacity(table.nrows());
    for (i, row) in table.rows().into_iter().enumerate() {
        let clue = clue_from(grid, count, [row[0], row[1], row[2], row[3]])
            .map_err(|e| error(format!("clues row {i}: {e}")))?;
        if let Some(j) = clues.iter().position(|k| k.cell == clue.cell) {
            return Err(error(format!("clues row {i}: its cell already has clues row {j}")));
        }
        if let Some(j) = clues.iter().position(|k| k.placement.piece == clue.placement.piece) {
            return Err(error(format!(
                "clues row {i}: piece {} is already placed by clues row {j}",
                clue.placement.piece
            )));
        }
        clues.push(clue);
    }
    Ok(clues)
}

/// One clue from its (row, column, piece, rotation), or what is wrong with it.
fn clue_from(grid: Grid, count: usize, [row, column, piece, turns]: [i64; 4]) -> Result<Clue, String> {
    let inside = |value: i64, end: usize| usize::try_from(value).ok().filter(|&v| v < end);
    let row = inside(row, grid.height).ok_or_else(|| format!("row {row} is not a row of a {grid} board"))?;
    let column =
        inside(column, grid.width).ok_or_else(|| format!("column {column} is not a column of a {grid} board"))?;
    let piece = inside(piece, count).ok_or_else(|| format!("no piece {piece} (pieces are 0..={})", count - 1))?;
    let rotation = u8::try_from(turns)
        .ok()
        .and_then(Rotation::new)
        .ok_or_else(|| format!("rotation {turns} is not in 0..=3 (clockwise quarter turns)"))?;
    Ok(Clue { cell: grid.cell(row, column), placement: Placement { piece, rotation } })
}

/// Reads an instance in any format the command line reads: instance JSON, a
/// piece list (`columns` names its column order, e.g. "nesw" or "bltr";
/// default: from its header), or an e2.bucas.name link (a file holding one, or
/// the link itself), whose cells become the pieces. `clues` is a clue list
/// that replaces the instance's clues.
#[pyfunction]
#[pyo3(signature = (path, columns=None, clues=None))]
pub(crate) fn load(path: PathBuf, columns: Option<&str>, clues: Option<PathBuf>) -> PyResult<Instance> {
    let columns = columns.map(|c| c.parse::<Columns>().map_err(|e| error(format!("columns: {e}")))).transpose()?;
    let options = InstanceOptions { columns, size: None, clues: clues.as_deref() };
    edgematch::formats::load::instance(&path, &options).map(Instance::new).map_err(library_error)
}

/// A planted board: framed, colour-balanced, built from a known solution, with
/// `clues` clue cells; `size`×`size`, or `width`×`height` when both are given.
#[pyfunction]
#[pyo3(signature = (size=None, frame_colours=5, interior_colours=17, clues=5, seed=1, width=None, height=None))]
pub(crate) fn generate(
    size: Option<usize>,
    frame_colours: u32,
    interior_colours: u32,
    clues: usize,
    seed: u64,
    width: Option<usize>,
    height: Option<usize>,
) -> PyResult<Instance> {
    let (width, height) = match (size, width, height) {
        (_, Some(w), Some(h)) => (w, h),
        (Some(s), None, None) => (s, s),
        (_, Some(_), None) | (_, None, Some(_)) => return Err(error("generate: give width and height together")),
        (None, None, None) => return Err(error("generate: give size, or width and height")),
    };
    let grid = Grid::new(width, height).map_err(error)?;
    let spec = PlantedSpec { grid, frame_colours, interior_colours, clues, seed };
    let made = planted(&spec).map_err(library_error)?;
    let clue_names = (1..=made.instance.clues.len()).map(|k| format!("clue {k}")).collect();
    Ok(Instance::new(Loaded { instance: made.instance, name: spec.name(), clue_names, columns: None }))
}
