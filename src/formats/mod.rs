//! File formats: readers that return typed errors naming the field, and
//! writers whose output is byte-for-byte deterministic.

pub mod board_json;
pub mod board_text;
pub mod brendan;
pub mod bucas;
pub mod clue_list;
pub mod instance_json;
pub mod load;
pub mod piece_list;

use std::path::Path;

use crate::error::Error;

/// Reads a whole file, naming it in the error.
pub fn read_text(path: &Path) -> Result<String, Error> {
    std::fs::read_to_string(path).map_err(|source| Error::Io { path: path.to_owned(), source })
}

/// Parses JSON into `T`, turning serde's position into a [`Error::Syntax`].
pub(crate) fn parse_json<T: serde::de::DeserializeOwned>(path: &Path, text: &str) -> Result<T, Error> {
    serde_json::from_str(text).map_err(|e| Error::Syntax {
        path: path.to_owned(),
        line: e.line(),
        column: e.column(),
        message: e.to_string().split(" at line ").next().unwrap_or_default().to_owned(),
    })
}

/// Shorthand for a field error.
pub(crate) fn field_error(path: &Path, field: impl Into<String>, message: impl Into<String>) -> Error {
    Error::Field { path: path.to_owned(), field: field.into(), message: message.into() }
}
