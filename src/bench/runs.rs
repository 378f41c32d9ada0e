//! Runs files: one JSON object per line, appended and synced as each run finishes.

use std::fs::OpenOptions;
use std::io::{Read as _, Seek as _, SeekFrom, Write as _};
use std::path::Path;

use serde_json::Value;

use crate::error::Error;

/// Reads a runs file: the runs, skipping (and counting) lines that do not
/// parse or lack one of the `required` fields, such as a line cut short by a kill.
pub fn read_runs(path: &Path, required: &[&str]) -> Result<(Vec<Value>, usize), Error> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok((Vec::new(), 0)),
        Err(source) => return Err(Error::Io { path: path.to_owned(), source }),
    };
    let mut runs = Vec::new();
    let mut broken = 0;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        match serde_json::from_str::<Value>(line) {
            Ok(v) if required.iter().all(|k| !v[*k].is_null()) => runs.push(v),
            _ => broken += 1,
        }
    }
    Ok((runs, broken))
}

/// Appends one line, starting a fresh line if a killed writer left half of one.
pub fn append_line(path: &Path, line: &str) -> Result<(), Error> {
    let io = |source| Error::Io { path: path.to_owned(), source };
    let mut file = OpenOptions::new().create(true).read(true).append(true).open(path).map_err(io)?;
    let len = file.metadata().map_err(io)?.len();
    let mut text = String::new();
    if len > 0 {
        file.seek(SeekFrom::Start(len - 1)).map_err(io)?;
        let mut last = [0u8; 1];
        file.read_exact(&mut last).map_err(io)?;
        if last[0] != b'\n' {
            text.push('\n');
        }
    }
    text.push_str(line);
    text.push('\n');
    file.write_all(text.as_bytes()).map_err(io)?;
    file.sync_data().map_err(io)
}
