//! When CP-SAT completes the scan walk's partial boards: how near the end they must come, and the seconds each gets.

use std::fmt;
use std::str::FromStr;

/// When and how CP-SAT completes partial boards.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Completion {
    /// A partial board that reaches a new depth of its attempt with at most
    /// this many free cells empty is completed (0: none).
    pub cells: usize,
    /// Every partial board with at most this many free cells empty is completed.
    pub every: usize,
    /// Seconds CP-SAT gets per board.
    pub seconds: f64,
}

/// Measured: see `results/score/README.md`.
impl Default for Completion {
    fn default() -> Self {
        Completion { cells: 16, every: 10, seconds: 5.0 }
    }
}

impl Completion {
    /// No completion.
    pub const NONE: Completion = Completion { cells: 0, every: 0, seconds: 0.0 };
}

impl fmt::Display for Completion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.cells == 0 {
            return f.write_str("none");
        }
        write!(f, "{}:{}:{}", self.cells, self.every, self.seconds)
    }
}

impl FromStr for Completion {
    type Err = String;

    /// `none`, or `CELLS[:EVERY[:SECONDS]]`.
    fn from_str(s: &str) -> Result<Completion, String> {
        if s == "none" {
            return Ok(Completion::NONE);
        }
        let mut parts = s.split(':');
        let mut completion = Completion::default();
        let cells = parts.next().unwrap_or("");
        completion.cells = cells.trim().parse().map_err(|e| format!("{s}: cells {cells}: {e}"))?;
        completion.every = completion.every.min(completion.cells);
        if let Some(every) = parts.next() {
            completion.every = every.trim().parse().map_err(|e| format!("{s}: every {every}: {e}"))?;
        }
        if let Some(seconds) = parts.next() {
            completion.seconds = seconds.trim().parse().map_err(|e| format!("{s}: seconds {seconds}: {e}"))?;
            if !(completion.seconds > 0.0 && completion.seconds.is_finite()) {
                return Err(format!("{s}: seconds {seconds} is not a positive number"));
            }
        }
        if parts.next().is_some() {
            return Err(format!("{s}: expected CELLS[:EVERY[:SECONDS]]"));
        }
        Ok(completion)
    }
}
