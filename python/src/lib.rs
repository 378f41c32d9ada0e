//! `edgematch._edgematch`: the Python module over the edgematch library (load, generate, solve, verify).
//!
//! Each class wraps one library value: [`instance::Instance`] a loaded puzzle,
//! [`board::Board`] a board with numpy views, [`solve::SolveResult`] a solve's
//! verified answer, [`verify::Verdict`] the checker's report. Every error the
//! library reports becomes `edgematch.Error` (a `ValueError`) carrying the
//! command line's message, which names the file and the field.

use pyo3::prelude::*;

mod board;
mod instance;
mod solve;
mod verify;

pyo3::create_exception!(
    edgematch,
    Error,
    pyo3::exceptions::PyValueError,
    "A file, an argument or an answer edgematch refuses; the message names the file and the field."
);

/// The library's error (or any message) as `edgematch.Error`.
pub(crate) fn error(message: impl std::fmt::Display) -> PyErr {
    Error::new_err(message.to_string())
}

#[pymodule]
fn _edgematch(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("Error", m.py().get_type::<Error>())?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("ORTOOLS_VERSION", edgematch::cpsat::ORTOOLS_VERSION)?;
    m.add_class::<instance::Instance>()?;
    m.add_class::<board::Board>()?;
    m.add_class::<solve::SolveResult>()?;
    m.add_class::<verify::Verdict>()?;
    m.add_function(wrap_pyfunction!(instance::load, m)?)?;
    m.add_function(wrap_pyfunction!(instance::generate, m)?)?;
    m.add_function(wrap_pyfunction!(board::load_board, m)?)?;
    m.add_function(wrap_pyfunction!(solve::solve, m)?)?;
    m.add_function(wrap_pyfunction!(verify::verify, m)?)?;
    Ok(())
}
