//! The library's typed error.

use std::path::PathBuf;

/// Everything the library can fail with. Messages name the file and the field
/// or line, so the CLI can print them as they are.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A file could not be read or written.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The cause.
        #[source]
        source: std::io::Error,
    },
    /// A file is not well-formed in its format (syntax).
    #[error("{}: line {line}, column {column}: {message}", path.display())]
    Syntax {
        /// The file.
        path: PathBuf,
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// What is wrong.
        message: String,
    },
    /// A file is well-formed but a field holds a value that is not allowed.
    #[error("{}: field `{field}`: {message}", path.display())]
    Field {
        /// The file.
        path: PathBuf,
        /// The field, as a path such as `pieces[3][1]`.
        field: String,
        /// What is wrong.
        message: String,
    },
    /// A board does not fit the instance it is checked or solved against.
    #[error("{0}")]
    Mismatch(String),
    /// The planted generator cannot satisfy its constraints.
    #[error("cannot generate: {0}")]
    Generate(String),
    /// A solver returned a board the checker rejects: a solver bug.
    #[error("{0}")]
    Rejected(String),
    /// Solver options or limits that the solver cannot take.
    #[error("{0}")]
    Options(String),
    /// The C++ bridge reported a failure.
    #[error("CP-SAT bridge: {0}")]
    Bridge(String),
    /// The solver's response could not be decoded or does not fit the model.
    #[error("CP-SAT response: {0}")]
    Response(String),
    /// A thread of a run panicked (a bug): the run ended on it, its best board kept.
    #[error("the run's thread `{thread}` panicked ({message}); the run ended on it: a bug, please report it")]
    Panicked {
        /// The thread's name (`walk 1`, `completion worker 0`, ...).
        thread: String,
        /// What the panic said.
        message: String,
    },
}

/// The library's result type.
pub type Result<T, E = Error> = std::result::Result<T, E>;
