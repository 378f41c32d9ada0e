//! When the scan walk's partial boards are completed, and by what: how near the end they must come, the seconds each gets, CP-SAT or the native branch and bound.

use std::fmt;
use std::str::FromStr;

/// When and how partial boards are completed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Completion {
    /// A partial board that reaches a new depth of its attempt with at most
    /// this many free cells empty is completed (0: none).
    pub cells: usize,
    /// Every partial board with at most this many free cells empty is completed.
    pub every: usize,
    /// Seconds each completion gets.
    pub seconds: f64,
    /// What completes them.
    pub engine: Engine,
}

/// Measured: see `results/score/README.md`.
impl Default for Completion {
    fn default() -> Self {
        Completion { cells: 16, every: 10, seconds: 5.0, engine: Engine::Cpsat }
    }
}

/// Which exact search completes a partial board.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum, strum::Display)]
#[strum(serialize_all = "lowercase")]
pub enum Engine {
    /// CP-SAT, maximizing the matched joins over the empty cells (`cpsat::repair`).
    #[default]
    Cpsat,
    /// The native branch and bound (`score::finish`).
    Native,
}

impl Completion {
    /// No completion.
    pub const NONE: Completion = Completion { cells: 0, every: 0, seconds: 0.0, engine: Engine::Cpsat };
}

impl fmt::Display for Completion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.cells == 0 {
            return f.write_str("none");
        }
        if self.engine != Engine::Cpsat {
            write!(f, "{}:", self.engine)?;
        }
        write!(f, "{}:{}:{}", self.cells, self.every, self.seconds)
    }
}

impl FromStr for Completion {
    type Err = String;

    /// `none`, or `[ENGINE:]CELLS[:EVERY[:SECONDS]]` (ENGINE `cpsat`, the default, or `native`).
    fn from_str(s: &str) -> Result<Completion, String> {
        if s == "none" {
            return Ok(Completion::NONE);
        }
        let mut parts = s.split(':').peekable();
        let mut completion = Completion::default();
        if let Some(engine) = parts.next_if(|p| p.trim().starts_with(|c: char| c.is_ascii_alphabetic())) {
            completion.engine = <Engine as clap::ValueEnum>::from_str(engine.trim(), false)
                .map_err(|_| format!("{s}: engine {engine}: expected cpsat or native"))?;
        }
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
            return Err(format!("{s}: expected [ENGINE:]CELLS[:EVERY[:SECONDS]]"));
        }
        Ok(completion)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each form parses to what it says and prints back to itself, the
    /// engine named only when it is not CP-SAT (so checkpoints written
    /// before the engine existed read the same). Catches an engine dropped
    /// on the way through a checkpoint, and a number taken for an engine.
    #[test]
    fn a_completion_reads_back_what_it_prints() {
        let native: Completion = "native:24:20:5".parse().unwrap();
        assert_eq!(native, Completion { cells: 24, every: 20, seconds: 5.0, engine: Engine::Native });
        let cpsat: Completion = "16:10:5".parse().unwrap();
        assert_eq!(cpsat, Completion::default());
        for completion in [native, cpsat, "native:8".parse().unwrap(), Completion::NONE] {
            assert_eq!(completion.to_string().parse::<Completion>(), Ok(completion));
        }
        assert_eq!("cpsat:16".parse::<Completion>().map(|c| c.engine), Ok(Engine::Cpsat));
    }

    /// A wrong engine or count is refused with the part it could not read.
    #[test]
    fn a_bad_completion_names_its_part() {
        assert!("gurobi:16".parse::<Completion>().unwrap_err().contains("engine gurobi"));
        assert!("native:x".parse::<Completion>().unwrap_err().contains("cells x"));
        assert!("native:16:1:2:3".parse::<Completion>().unwrap_err().contains("[ENGINE:]"));
    }
}
