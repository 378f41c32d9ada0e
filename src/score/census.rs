//! The distinct full boards a score run finds near its best, counted by score and, when asked, saved one file each: the field's rates.
//!
//! The field reports its solvers by rates as much as by records: Verhaard's
//! eii found about 46,000 boards of 463 a day on one PC, 2,500 of 464, 150 of
//! 465, 7 of 466 and two of 467 in 82 days. A run here counts every distinct
//! full board it is offered (the walks' and CP-SAT's completions') that the
//! checker passes, by score, from [`WITHIN`] below the run's best up; the
//! counts are the run's `census`. With [`Save`] each such board at or above
//! a score is also written to a folder, one board JSON file each with its
//! e2.bucas.name link, for censuses and for other tools.

use std::collections::hash_map::DefaultHasher;
use std::collections::{BTreeMap, HashSet};
use std::hash::{Hash, Hasher};
use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::check::check;
use crate::error::Error;
use crate::formats::{board_json, bucas};
use crate::output::write_atomic;
use crate::puzzle::{Board, Instance};

/// Scores counted below the run's best: the best and the four below it, as eii's rates were given.
pub const WITHIN: usize = 4;

/// Where a run saves the distinct boards it finds, and from which score.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Save {
    /// The folder (created if missing).
    pub dir: PathBuf,
    /// Boards scoring at least this are saved; `None`: those within [`WITHIN`] of the best when found.
    pub from: Option<usize>,
}

/// The distinct verified boards by score.
pub(crate) struct Census<'a> {
    instance: &'a Instance,
    save: Option<Save>,
    seen: Mutex<Seen>,
    /// Boards written to the save folder.
    saved: AtomicU64,
    /// Why a board could not be saved, the first time one could not.
    save_failed: Mutex<Option<String>>,
}

/// What [`Census::record`] did with a board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Recorded {
    /// Not counted: the checker did not pass it as full, it lies below the window, or it was seen before.
    Skipped,
    /// Counted as a new board of its score.
    Counted,
    /// Counted and written to the save folder.
    Saved,
}

/// Board digests by score, and the best score recorded.
#[derive(Default)]
struct Seen {
    by_score: BTreeMap<usize, HashSet<u64>>,
    best: usize,
}

impl<'a> Census<'a> {
    /// An empty census of boards of `instance`, saving into `save` if given.
    pub(crate) fn new(instance: &'a Instance, save: Option<Save>) -> Census<'a> {
        Census {
            instance,
            save,
            seen: Mutex::new(Seen::default()),
            saved: AtomicU64::new(0),
            save_failed: Mutex::new(None),
        }
    }

    /// Records `board` as [`Census::record`] does, counting a save, and
    /// keeping the first failure to save instead of returning it (the run goes on).
    pub(crate) fn take(&self, board: &Board) {
        match self.record(board) {
            Ok(Recorded::Saved) => {
                let _ = self.saved.fetch_add(1, Ordering::Relaxed);
            }
            Ok(_) => {}
            Err(error) => {
                let mut failed = self.save_failed.lock().unwrap_or_else(|e| e.into_inner());
                let _ = failed.get_or_insert_with(|| error.to_string());
            }
        }
    }

    /// Boards saved so far, and why the first save that failed did.
    pub(crate) fn saves(&self) -> (u64, Option<String>) {
        (self.saved.load(Ordering::Relaxed), self.save_failed.lock().unwrap_or_else(|e| e.into_inner()).clone())
    }

    /// The lowest score a board is saved at, when the best so far is `best`.
    fn save_from(&self, best: usize) -> Option<usize> {
        self.save.as_ref().map(|s| s.from.unwrap_or(best.saturating_sub(WITHIN)))
    }

    /// The most breaks a board may have and still be counted or saved, with the best so far at `best_breaks`.
    pub(crate) fn wanted_breaks(&self, best_breaks: usize) -> Option<usize> {
        let joins = self.instance.grid.max_score();
        let from = self.save.as_ref()?.from?;
        Some(joins.saturating_sub(from)).filter(|&b| b >= best_breaks.min(joins))
    }

    /// Records a full board: counted if the checker passes it as a full board
    /// whose only faults are mismatched joins and it scores within [`WITHIN`]
    /// of the best recorded (or at the save score), saved if it is new and
    /// at or above the save score.
    ///
    /// # Errors
    /// The save folder or a board file that cannot be written (the board is still counted).
    pub(crate) fn record(&self, board: &Board) -> Result<Recorded, Error> {
        let report = check(self.instance, board);
        if report.placed != report.cells || !report.only_joins_mismatch() {
            return Ok(Recorded::Skipped);
        }
        let score = report.score;
        let mut seen = self.seen.lock().unwrap_or_else(|e| e.into_inner());
        let floor = seen.best.max(score).saturating_sub(WITHIN);
        let saved_from = self.save_from(seen.best.max(score));
        if score < floor && saved_from.is_none_or(|f| score < f) {
            return Ok(Recorded::Skipped);
        }
        if !seen.by_score.entry(score).or_default().insert(digest(board)) {
            return Ok(Recorded::Skipped);
        }
        if score > seen.best {
            seen.best = score;
            let keep = saved_from.map_or(floor, |f| f.min(floor));
            seen.by_score.retain(|&s, _| s >= keep);
        }
        drop(seen);
        if saved_from.is_none_or(|f| score < f) {
            return Ok(Recorded::Counted);
        }
        self.write(board, score)?;
        Ok(Recorded::Saved)
    }

    /// Distinct boards per score, best first, from the best down to [`WITHIN`] below it.
    pub(crate) fn counts(&self) -> Vec<(usize, u64)> {
        let seen = self.seen.lock().unwrap_or_else(|e| e.into_inner());
        let floor = seen.best.saturating_sub(WITHIN);
        seen.by_score.iter().rev().filter(|&(&s, _)| s >= floor).map(|(&s, set)| (s, set.len() as u64)).collect()
    }

    /// Writes `board` (scoring `score`) to the save folder, named by its score and digest.
    fn write(&self, board: &Board, score: usize) -> Result<(), Error> {
        let Some(save) = &self.save else { return Ok(()) };
        std::fs::create_dir_all(&save.dir).map_err(|source| Error::Io { path: save.dir.clone(), source })?;
        let name = format!("{score:03}-{:016x}", digest(board));
        let link = bucas::can_write(self.instance).then(|| bucas::to_link(board, self.instance, &name));
        let path = save.dir.join(format!("{name}.json"));
        write_atomic(&path, board_json::to_string_with_link(board, link.as_deref()).as_bytes())
    }
}

/// A digest of the board's placements (pieces and turns): equal boards, equal digests.
fn digest(board: &Board) -> u64 {
    let mut hasher = DefaultHasher::new();
    board.cells.hash(&mut hasher);
    hasher.finish()
}

/// `counts` as `466:1 465:3 464:12`, or `-` for none.
pub fn describe(counts: &[(usize, u64)]) -> String {
    if counts.is_empty() {
        return "-".to_owned();
    }
    counts.iter().map(|(s, n)| format!("{s}:{n}")).collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::{PlantedSpec, planted};
    use crate::puzzle::Rotation;

    /// The planted board with `swaps` pairs of interior cells exchanged: a
    /// full board with fewer matched joins, different for each pair.
    fn worse(board: &Board, instance: &Instance, pairs: &[(usize, usize)]) -> Board {
        let mut b = board.clone();
        for &(x, y) in pairs {
            b.cells.swap(x, y);
        }
        assert!(check(instance, &b).only_joins_mismatch());
        b
    }

    fn interior(instance: &Instance) -> Vec<usize> {
        let g = instance.grid;
        (0..g.cells())
            .filter(|&c| {
                let (r, k) = (c / g.width, c % g.width);
                r > 0 && k > 0 && r + 1 < g.height && k + 1 < g.width && instance.clues.iter().all(|q| q.cell != c)
            })
            .collect()
    }

    /// The same board twice counts once; boards more than WITHIN below the
    /// best are dropped once a better one comes, and not counted after. Fails if the census counts repeats or keeps scores
    /// outside the window.
    #[test]
    fn distinct_boards_are_counted_by_score_within_the_window() {
        let p = planted(&PlantedSpec::square(8, 3, 5, 2)).unwrap();
        let inner = interior(&p.instance);
        let census = Census::new(&p.instance, None);
        let a = worse(&p.solution, &p.instance, &[(inner[0], inner[7]), (inner[2], inner[12]), (inner[4], inner[20])]);
        let low = a.score(&p.instance);
        assert_eq!(census.record(&a).unwrap(), Recorded::Counted);
        assert_eq!(census.record(&a).unwrap(), Recorded::Skipped, "the same board again");
        assert_eq!(census.counts(), vec![(low, 1)]);
        let b = worse(&p.solution, &p.instance, &[(inner[1], inner[9])]);
        let high = b.score(&p.instance);
        assert!(high > low + WITHIN, "{high} against {low}");
        assert_eq!(census.record(&b).unwrap(), Recorded::Counted);
        assert_eq!(census.counts(), vec![(high, 1)], "the low board fell out of the window");
        assert_eq!(census.record(&a).unwrap(), Recorded::Skipped, "below the window now");
        assert_eq!(census.record(&p.solution).unwrap(), Recorded::Counted);
    }

    /// A board the checker does not pass as full (an empty cell, a piece
    /// turned so grey faces inward) is not counted.
    #[test]
    fn a_board_the_checker_rejects_is_not_counted() {
        let p = planted(&PlantedSpec::square(6, 3, 5, 4)).unwrap();
        let census = Census::new(&p.instance, None);
        let mut partial = p.solution.clone();
        partial.cells[7] = None;
        assert_eq!(census.record(&partial).unwrap(), Recorded::Skipped);
        let mut turned = p.solution.clone();
        let corner = turned.cells[0].as_mut().unwrap();
        corner.rotation = Rotation::try_from(i64::from((corner.rotation.turns() + 2) % 4)).unwrap();
        assert_eq!(census.record(&turned).unwrap(), Recorded::Skipped);
        assert!(census.counts().is_empty());
    }

    /// Saved boards read back as the boards recorded, one file each, named by
    /// score, with their link; a repeat writes nothing; a board under the
    /// save score is counted but not saved.
    #[test]
    fn boards_at_or_above_the_save_score_are_saved_one_file_each() {
        let p = planted(&PlantedSpec::square(6, 3, 5, 5)).unwrap();
        let inner = interior(&p.instance);
        let dir = std::env::temp_dir().join(format!("edgematch-census-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let joins = p.instance.grid.max_score();
        let save = Save { dir: dir.clone(), from: Some(joins - 9) };
        let census = Census::new(&p.instance, Some(save));
        let one = worse(&p.solution, &p.instance, &[(inner[0], inner[1])]);
        let far = worse(&p.solution, &p.instance, &[(inner[0], inner[5]), (inner[2], inner[9])]);
        for board in [&p.solution, &one, &p.solution, &far] {
            let _ = census.record(board).unwrap();
        }
        let mut files: Vec<PathBuf> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
        files.sort();
        let read: Vec<Board> = files.iter().map(|f| board_json::read(f).unwrap()).collect();
        let expected: Vec<&Board> =
            [&one, &p.solution].into_iter().filter(|b| b.score(&p.instance) >= joins - 9).collect();
        assert_eq!(read.len(), expected.len(), "{files:?}");
        for board in expected {
            assert!(read.contains(board));
        }
        let text = std::fs::read_to_string(&files[0]).unwrap();
        assert!(text.contains("\"link\": \"https://e2.bucas.name/"), "{text}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
