//! numpy at the boundary: integer tables read from any array-like, and int32 arrays made straight from Rust vectors.

use numpy::ndarray::Array2;
use numpy::{PyArray2, PyReadonlyArray2};
use pyo3::prelude::*;

use crate::error;

/// `values`, row by row, as a numpy int32 array of shape (`rows`, `columns`):
/// the vector becomes the array's buffer, with no Python list in between.
pub(crate) fn int32_table(py: Python<'_>, rows: usize, columns: usize, values: Vec<i32>) -> PyResult<Bound<'_, PyAny>> {
    let array = Array2::from_shape_vec((rows, columns), values).map_err(|e| error(format!("{e}; this is a bug")))?;
    Ok(PyArray2::from_owned_array(py, array).into_any())
}

/// Reads `value` (a numpy array, a list of lists, ...) named `name` as a 2-D
/// table of integers; `columns`, when given, is the width it must have. An
/// empty sequence is a table of no rows. Floats, strings and ragged rows are
/// refused with a message naming `name`.
pub(crate) fn int_table(
    py: Python<'_>,
    name: &str,
    value: &Bound<'_, PyAny>,
    columns: Option<usize>,
) -> PyResult<Array2<i64>> {
    let numpy = py.import("numpy")?;
    let array =
        numpy.call_method1("asarray", (value,)).map_err(|e| error(format!("{name}: not an array of integers: {e}")))?;
    let shape: Vec<usize> = array.getattr("shape")?.extract()?;
    if shape.iter().product::<usize>() == 0 && shape.len() <= 2 {
        return Ok(Array2::zeros((0, columns.unwrap_or(0))));
    }
    let wanted = columns.map_or_else(|| "(rows, columns)".to_owned(), |c| format!("(rows, {c})"));
    if shape.len() != 2 || columns.is_some_and(|c| shape[1] != c) {
        return Err(error(format!("{name}: expected a 2-D array of shape {wanted}, got shape {shape:?}")));
    }
    let dtype = array.getattr("dtype")?;
    let kind: String = dtype.getattr("kind")?.extract()?;
    if !matches!(kind.as_str(), "i" | "u") {
        return Err(error(format!("{name}: expected integers, got an array of {}", dtype.str()?)));
    }
    let wide = array.call_method1("astype", ("int64",))?;
    let readonly: PyReadonlyArray2<'_, i64> = wide.extract()?;
    Ok(readonly.as_array().to_owned())
}
