//! How long CP-SAT takes to complete a walk's partial board, by board size and empty cells: the measured table the completion thresholds are read from.
//!
//! `bench completion` measures it ([`super::completion_measure`]). The table ([`Table`], `results/score/completion-times.json`) holds
//! the median seconds per completion and the share CP-SAT proved optimal,
//! per board and `k`; the library reads the committed file
//! ([`Table::measured`]) and derives each board's thresholds from it
//! ([`Table::thresholds`]), so a new measurement changes them without a
//! code change.

use serde::{Deserialize, Serialize};

use super::completion::Completion;
use crate::puzzle::Instance;

/// The table as committed, measured by `bench completion` (its command and commit inside).
const MEASURED: &str = include_str!("../../results/score/completion-times.json");

/// A partial board is completed when it reaches a new depth of its attempt
/// with at most as many empty cells as CP-SAT completes in this median time:
/// on the official set that is 16 cells (2.8 s), the setting its runs were
/// measured best with (`results/score/README.md`).
pub const NEW_DEPTH_SECONDS: f64 = 3.0;

/// Every partial board is completed when its empty cells take at most this median time.
pub const EVERY_SECONDS: f64 = 0.05;

/// One measured row: a board, a number of empty cells, what the completions took.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Row {
    /// The board's name (`official-centre`, `planted-13x13-f5i17-s1`, ...).
    pub board: String,
    /// Its cells.
    pub cells: usize,
    /// Free cells left empty.
    pub empty: usize,
    /// Completions measured.
    pub completions: usize,
    /// Median seconds per completion (a completion cut off at the limit counts the limit).
    pub median_seconds: f64,
    /// The share of completions CP-SAT proved optimal within the limit.
    pub proved: f64,
    /// The mean joins the completed boards mismatch (`None`: CP-SAT completed none within the limit).
    pub mean_breaks: Option<f64>,
}

/// The measured table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Table {
    /// The command that measured it.
    pub command: String,
    /// Commit, OR-Tools version and cores of the measurement.
    pub provenance: String,
    /// Seconds each completion had (by CP-SAT, unless the command names another engine).
    pub limit_seconds: f64,
    /// The rows, by board then empty cells.
    pub rows: Vec<Row>,
}

impl Table {
    /// The committed table, or `None` if it does not parse (a unit test keeps it parsing).
    pub fn measured() -> Option<Table> {
        serde_json::from_str(MEASURED).ok()
    }

    /// The completion settings for `instance`: among the measured boards, those
    /// nearest it in cells; for each number of empty cells, the median over
    /// them; then the most empty cells completed within [`NEW_DEPTH_SECONDS`]
    /// (a new depth of an attempt) and within [`EVERY_SECONDS`] (every partial
    /// board), each at least 1 (where the fewest measured already take
    /// longer, the default's, below them). The seconds per completion stay the default's.
    pub fn thresholds(&self, instance: &Instance) -> Completion {
        let cells = instance.grid.cells();
        let nearest = self.rows.iter().map(|r| r.cells.abs_diff(cells)).min();
        let rows: Vec<&Row> = self.rows.iter().filter(|r| Some(r.cells.abs_diff(cells)) == nearest).collect();
        let mut empties: Vec<usize> = rows.iter().map(|r| r.empty).collect();
        empties.sort_unstable();
        empties.dedup();
        let median_at = |empty: usize| {
            let mut times: Vec<f64> = rows.iter().filter(|r| r.empty == empty).map(|r| r.median_seconds).collect();
            times.sort_by(f64::total_cmp);
            times[times.len() / 2]
        };
        let default = Completion::default();
        // The largest k whose median (and every smaller k's) is within the
        // seconds: completion time grows with k. Where even the fewest empty
        // cells measured take longer (no board came nearer the end), the
        // default's k, below that fewest.
        let within = |seconds: f64, default: usize| {
            let below = empties.first().map_or(default, |&k| default.min(k.saturating_sub(1)));
            empties.iter().take_while(|&&k| median_at(k) <= seconds).last().copied().unwrap_or(below).max(1)
        };
        Completion {
            cells: within(NEW_DEPTH_SECONDS, default.cells),
            every: within(EVERY_SECONDS, default.every),
            ..default
        }
    }
}

/// The completion settings of a run on `instance` that names none: the
/// committed table's thresholds, or the default where the table does not parse.
pub fn thresholds(instance: &Instance) -> Completion {
    Table::measured().map_or_else(Completion::default, |table| table.thresholds(instance))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::{PlantedSpec, planted};

    fn row(board: &str, cells: usize, empty: usize, median_seconds: f64) -> Row {
        Row {
            board: board.to_owned(),
            cells,
            empty,
            completions: 3,
            median_seconds,
            proved: 1.0,
            mean_breaks: Some(2.0),
        }
    }

    /// The committed table parses and holds rows: the thresholds every
    /// score run without `--completion` reads.
    #[test]
    fn the_committed_table_parses() {
        let table = Table::measured().expect("results/score/completion-times.json parses");
        assert!(!table.rows.is_empty());
        assert!(table.command.contains("bench completion"), "{}", table.command);
    }

    /// The thresholds follow the table of the nearest board size: the same
    /// board gets other thresholds from another table, and a board between
    /// two sizes reads the nearer one. Fails if a size's thresholds are fixed
    /// in code rather than read from the table.
    #[test]
    fn thresholds_are_read_from_the_nearest_rows_of_the_table() {
        let instance = planted(&PlantedSpec::square(13, 5, 17, 1)).unwrap().instance;
        let table = |small: [f64; 4], large: [f64; 4]| Table {
            command: "edgematch bench completion".to_owned(),
            provenance: String::new(),
            limit_seconds: 20.0,
            rows: [8, 12, 16, 20]
                .iter()
                .zip(small)
                .map(|(&k, t)| row("planted-13x13", 169, k, t))
                .chain([8, 12, 16, 20].iter().zip(large).map(|(&k, t)| row("official", 256, k, t)))
                .collect(),
        };
        let quick = table([0.01, 0.04, 0.5, 2.9], [0.01, 0.01, 0.01, 0.01]);
        assert_eq!(
            quick.thresholds(&instance),
            Completion { cells: 20, every: 12, seconds: 5.0, ..Completion::default() }
        );
        let slow = table([0.01, 0.2, 4.0, 9.0], [0.01, 0.01, 0.01, 0.01]);
        assert_eq!(
            slow.thresholds(&instance),
            Completion { cells: 12, every: 8, seconds: 5.0, ..Completion::default() }
        );
        let big = planted(&PlantedSpec::square(16, 5, 17, 1)).unwrap().instance;
        assert_eq!(slow.thresholds(&big), Completion { cells: 20, every: 20, seconds: 5.0, ..Completion::default() });
    }

    /// A time that is not monotone in k stops the threshold at the first k over the seconds.
    #[test]
    fn a_slow_k_bounds_the_threshold_even_if_a_larger_one_was_quick() {
        let instance = planted(&PlantedSpec::square(13, 5, 17, 1)).unwrap().instance;
        let rows = vec![row("b", 169, 8, 0.01), row("b", 169, 12, 3.5), row("b", 169, 16, 0.5)];
        let table = Table { command: String::new(), provenance: String::new(), limit_seconds: 20.0, rows };
        assert_eq!(table.thresholds(&instance).cells, 8);
    }

    /// Where the fewest empty cells measured already take longer than the
    /// seconds, the threshold is the default's, below that fewest.
    #[test]
    fn a_table_without_quick_rows_falls_back_below_its_fewest_cells() {
        let instance = planted(&PlantedSpec::square(13, 5, 17, 1)).unwrap().instance;
        let rows = vec![row("b", 169, 12, 0.07), row("b", 169, 16, 2.9)];
        let table = Table { command: String::new(), provenance: String::new(), limit_seconds: 20.0, rows };
        assert_eq!(
            table.thresholds(&instance),
            Completion { cells: 16, every: 10, seconds: 5.0, ..Completion::default() }
        );
        let rows = vec![row("b", 169, 8, 0.07), row("b", 169, 16, 2.9)];
        let table = Table { command: String::new(), provenance: String::new(), limit_seconds: 20.0, rows };
        assert_eq!(table.thresholds(&instance).every, 7);
    }
}
