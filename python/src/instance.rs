//! `edgematch.Instance`, `edgematch.load` and `edgematch.generate`: a puzzle, read from a file or planted.

use std::path::PathBuf;
use std::sync::Arc;

use edgematch::formats::instance_json::{self, InstanceFile};
use edgematch::formats::load::{InstanceOptions, Loaded};
use edgematch::formats::piece_list::Columns;
use edgematch::generate::{PlantedSpec, planted};
use edgematch::output::write_atomic;
use edgematch::puzzle::{Board, Grid};
use edgematch::render;
use pyo3::prelude::*;

use crate::error;

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

    /// The board with only the clues placed.
    fn clue_board(&self) -> Board {
        let instance = self.inner();
        let mut board = Board::empty(instance.grid);
        for clue in &instance.clues {
            board.cells[clue.cell] = Some(clue.placement);
        }
        board
    }
}

#[pymethods]
impl Instance {
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
        let rows: Vec<[u32; 4]> = self.inner().pieces.iter().map(|p| p.0.map(u32::from)).collect();
        let numpy = py.import("numpy")?;
        numpy.call_method1("array", (rows, "int32"))
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
        write_atomic(&path, instance_json::to_string(&file).as_bytes()).map_err(error)
    }

    /// The instance as instance JSON text.
    fn to_json(&self) -> String {
        let file = InstanceFile { instance: self.inner().clone(), name: Some(self.loaded.name.clone()), colours: None };
        instance_json::to_string(&file)
    }

    /// The clue cells on an empty board, as `edgematch render` draws boards (Jupyter shows it).
    fn _repr_svg_(&self) -> String {
        render::svg(self.inner(), &self.clue_board(), &self.loaded.name, render::Style::default())
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
    edgematch::formats::load::instance(&path, &options).map(Instance::new).map_err(error)
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
    let made = planted(&spec).map_err(error)?;
    let clue_names = (1..=made.instance.clues.len()).map(|k| format!("clue {k}")).collect();
    Ok(Instance::new(Loaded { instance: made.instance, name: spec.name(), clue_names, columns: None }))
}
