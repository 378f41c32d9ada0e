//! `edgematch._edgematch`: the Python module over the edgematch library (load, generate, solve, improve, verify).
//!
//! Each class wraps one library value: [`instance::Instance`] a loaded puzzle,
//! [`board::Board`] a board with numpy views, [`solve::SolveResult`] a solve's
//! verified answer, [`improve::Improved`] a repair's, [`verify::Verdict`] the
//! checker's report. Every error the library reports becomes `edgematch.Error`
//! (a `ValueError`) carrying the command line's message, which names the file
//! and the field; a file that cannot be read or written raises the matching
//! `OSError` subclass instead ([`library_error`]).

use std::io::ErrorKind;
use std::path::Path;

use pyo3::exceptions::{
    PyFileExistsError, PyFileNotFoundError, PyIsADirectoryError, PyNotADirectoryError, PyOSError, PyPermissionError,
};
use pyo3::prelude::*;

mod arrays;
mod board;
mod improve;
mod instance;
mod report;
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

/// The library's error as Python sees it: a file the system could not read
/// or write ([`edgematch::Error::Io`] with an errno) as the `OSError` subclass
/// of its cause, anything else as `edgematch.Error` (so is an `Io` without an
/// errno: content read but not valid UTF-8 is malformed content).
pub(crate) fn library_error(e: edgematch::Error) -> PyErr {
    match e {
        edgematch::Error::Io { path, source } if source.raw_os_error().is_some() => os_error(&path, &source),
        other => error(other),
    }
}

/// `FileNotFoundError`, `PermissionError`, ... (plain `OSError` for other
/// kinds) with the errno, the system's message and the file name, as
/// Python's own `open` raises them.
fn os_error(path: &Path, source: &std::io::Error) -> PyErr {
    let message = source.to_string();
    // The system's message without Rust's " (os error N)" suffix.
    let strerror = message.split(" (os error").next().unwrap_or(&message).to_owned();
    let args = (source.raw_os_error(), strerror, path.to_string_lossy().into_owned());
    match source.kind() {
        ErrorKind::NotFound => PyFileNotFoundError::new_err(args),
        ErrorKind::PermissionDenied => PyPermissionError::new_err(args),
        ErrorKind::IsADirectory => PyIsADirectoryError::new_err(args),
        ErrorKind::NotADirectory => PyNotADirectoryError::new_err(args),
        ErrorKind::AlreadyExists => PyFileExistsError::new_err(args),
        _ => PyOSError::new_err(args),
    }
}

#[pymodule]
fn _edgematch(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("Error", m.py().get_type::<Error>())?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("ORTOOLS_VERSION", edgematch::cpsat::ORTOOLS_VERSION)?;
    // Whether this build lets the tests corrupt a solver's board (the cargo feature `fault-injection`).
    m.add("_FAULT_INJECTION", cfg!(feature = "fault-injection"))?;
    m.add_class::<instance::Instance>()?;
    m.add_class::<board::Board>()?;
    m.add_class::<solve::SolveResult>()?;
    m.add_class::<improve::Improved>()?;
    m.add_class::<verify::Verdict>()?;
    m.add_function(wrap_pyfunction!(instance::load, m)?)?;
    m.add_function(wrap_pyfunction!(instance::generate, m)?)?;
    m.add_function(wrap_pyfunction!(board::load_board, m)?)?;
    m.add_function(wrap_pyfunction!(solve::solve, m)?)?;
    m.add_function(wrap_pyfunction!(improve::improve, m)?)?;
    m.add_function(wrap_pyfunction!(verify::verify, m)?)?;
    Ok(())
}
