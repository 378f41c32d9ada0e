//! `bench completion`: how long CP-SAT takes to complete the scan walk's partial boards, by board and empty cells; the table the completion thresholds are read from.

use std::path::Path;

use super::records::Provenance;
use super::score::ScoreBoard;
use crate::error::Error;
use crate::score::completion_measure::{self, Measure};
use crate::score::completion_times::Table;
use crate::stop::Stop;

/// Measures `boards` (read from `data` and `models`) as `how` says, one after
/// the other, and returns the table, naming `command` and the provenance.
/// Progress goes to stderr; when `stop` is raised the boards measured so far are kept.
///
/// # Errors
/// A board that cannot be read or planned, or CP-SAT failing.
pub fn run(
    boards: &[ScoreBoard],
    (data, models): (&Path, &Path),
    how: &Measure,
    command: &str,
    stop: &Stop,
) -> Result<Table, Error> {
    let provenance = Provenance::current();
    let mut rows = Vec::new();
    for (i, board) in boards.iter().enumerate() {
        if stop.is_raised() {
            break;
        }
        let name = board.name();
        eprint!("completion: [{}/{}] {name} ... ", i + 1, boards.len());
        let instance = board.instance(data, models)?;
        let samples = completion_measure::measure(&instance, how, stop)?;
        let measured = completion_measure::rows(&name, instance.grid.cells(), &samples);
        let line: Vec<String> = measured.iter().map(|r| format!("{}: {:.3} s", r.empty, r.median_seconds)).collect();
        eprintln!("{}", line.join(", "));
        rows.extend(measured);
    }
    Ok(Table {
        command: command.to_owned(),
        provenance: format!(
            "commit {}{}, OR-Tools {}, {} cores, {}",
            provenance.commit,
            if provenance.dirty { " (dirty)" } else { "" },
            provenance.ortools,
            provenance.cores,
            provenance.load.unwrap_or_else(|| "load unknown".to_owned())
        ),
        limit_seconds: how.limit_seconds,
        rows,
    })
}
