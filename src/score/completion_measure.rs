//! Measuring the completion table: a walk's deepest partial boards, cut back to `k` empty cells and completed by CP-SAT, timed.
//!
//! `bench completion` runs it: on each board the scan walk runs alone for a
//! while, its deepest partial boards (one per attempt) are kept, and each is
//! cut back to `k` empty free cells (its last placements taken off, in the
//! fill order) and completed by CP-SAT on one thread, for each `k` asked.
//! [`rows`] sums the samples into the rows of [`super::completion_times::Table`].

use std::sync::Mutex;
use std::sync::atomic::AtomicUsize;

use super::attempts::Walk;
use super::completer::complete_by;
use super::completion::{Completion, Engine};
use super::completion_times::Row;
use super::lists::Lists;
use super::options::{Options, SCAN_ATTEMPT_NODES};
use super::plan::Plan;
use super::scan::{Attempt, Counter, Freeze, STALL, Shared};
use crate::error::Error;
use crate::outcome::Limits;
use crate::puzzle::{Board, Instance};
use crate::rng::attempt_seed;
use crate::stop::Stop;

/// One completion measured.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sample {
    /// Free cells left empty.
    pub empty: usize,
    /// Seconds CP-SAT took.
    pub seconds: f64,
    /// Whether it proved its board optimal.
    pub proved: bool,
    /// Joins the completed board mismatches (`None`: no board within the limit).
    pub breaks: Option<usize>,
}

/// What to measure on one board.
#[derive(Clone, Debug)]
pub struct Measure {
    /// Numbers of empty free cells to complete.
    pub empty: Vec<usize>,
    /// Partial boards per number (the deepest of different attempts).
    pub boards: usize,
    /// Seconds the walk runs to find them (one thread).
    pub walk_seconds: f64,
    /// Seconds each completion gets (one thread).
    pub limit_seconds: f64,
    /// What completes the boards.
    pub engine: Engine,
    /// The seed of the walk and of CP-SAT.
    pub seed: u64,
}

/// Measures completions on `instance` as [`Measure`] says: the deepest
/// partial boards of a walk settled as a run's is (its pilot, on one thread, within the walk's seconds), each cut back to each number of empty cells and
/// completed by CP-SAT. Stops early with what it has when `stop` is raised.
///
/// # Errors
/// A board that leaves no plan, or CP-SAT failing.
pub fn measure(instance: &Instance, how: &Measure, stop: &Stop) -> Result<Vec<Sample>, Error> {
    // The run's own plan (its pilot chooses the quota): the partial boards are those a run completes.
    let options = Options { completion: Some(Completion::NONE), ..Options::default() };
    let limits = Limits { time_limit: Some(how.walk_seconds), node_limit: None, seed: how.seed, threads: 1 };
    let plan = Plan::settle_for(instance, &options, &limits, stop).map_err(Error::Options)?;
    let lists = plan.lists(instance).map_err(Error::Options)?;
    let deepest = deepest_boards(&lists, how, stop);
    let free: Vec<usize> =
        plan.order.cells(instance).into_iter().filter(|c| instance.clues.iter().all(|k| k.cell != *c)).collect();
    let mut samples = Vec::new();
    for &empty in &how.empty {
        let deep_enough = deepest.iter().filter(|b| placed_free(b, &free) + empty >= free.len());
        for board in deep_enough.take(how.boards) {
            if stop.is_raised() {
                return Ok(samples);
            }
            samples.push(complete(instance, &cut_back(board, &free, empty), empty, how, stop)?);
        }
    }
    Ok(samples)
}

/// The deepest partial board of each attempt of one walk in `how.walk_seconds`, deepest first.
fn deepest_boards(lists: &Lists, how: &Measure, stop: &Stop) -> Vec<Board> {
    let free = lists.free();
    let found: Mutex<Vec<(usize, Board)>> = Mutex::new(Vec::new());
    let this_attempt: Mutex<Option<(usize, Board)>> = Mutex::new(None);
    let deep = |_: usize, recs: &[u64], _: usize| {
        let depth = recs.len();
        let mut slot = this_attempt.lock().unwrap_or_else(|e| e.into_inner());
        if slot.as_ref().is_none_or(|(d, _)| depth > *d) {
            let mut board = Board::empty(lists.clue_board.grid);
            lists.fill_board(&mut board, recs);
            *slot = Some((depth, board));
        }
    };
    // Boards are cut back to each number of empty cells, so any board that deep will do.
    let report_from = free.saturating_sub(how.empty.iter().copied().max().unwrap_or(1)).max(1);
    let attempt = Attempt {
        budget: usize::MAX,
        cap: SCAN_ATTEMPT_NODES,
        extend: 0,
        report_from,
        report_all: usize::MAX,
        stall: STALL,
        expect: report_from,
        freeze: Freeze::DEFAULT,
    };
    let after = || {
        if let Some(kept) = this_attempt.lock().unwrap_or_else(|e| e.into_inner()).take() {
            found.lock().unwrap_or_else(|e| e.into_inner()).push(kept);
        }
    };
    let alone = Alone { lists, attempt: &attempt, seed: how.seed, seconds: how.walk_seconds, stop };
    alone.walk(&deep, after);
    let mut found = found.into_inner().unwrap_or_else(|e| e.into_inner());
    found.sort_by_key(|(depth, _)| std::cmp::Reverse(*depth));
    found.into_iter().map(|(_, board)| board).collect()
}

/// One scan walk on the calling thread, with nothing beside it: how a bench
/// gathers a walk's partial boards.
pub(crate) struct Alone<'a> {
    pub(crate) lists: &'a Lists,
    /// Each attempt's settings (which depths are reported).
    pub(crate) attempt: &'a Attempt,
    /// Attempt `k` sorts the lists from `attempt_seed(seed, 0, k)`.
    pub(crate) seed: u64,
    /// Seconds it walks.
    pub(crate) seconds: f64,
    pub(crate) stop: &'a Stop,
}

impl Alone<'_> {
    /// Attempt after attempt until the seconds pass or the stop is raised,
    /// every partial board the attempt reports handed to `deep` (walk 0, its
    /// records, its breaks), and `after` called when each attempt ends.
    pub(crate) fn walk(&self, deep: &(dyn Fn(usize, &[u64], usize) + Sync), mut after: impl FnMut()) {
        let (best, deepest) = (AtomicUsize::new(usize::MAX), AtomicUsize::new(0));
        let none = |_: Board, _: usize| {};
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs_f64(self.seconds.max(0.0));
        let placed = [Counter::default()];
        let shared = Shared {
            best: &best,
            stop: self.stop.flag(),
            deadline: Some(deadline),
            found: &none,
            deep,
            deepest: &deepest,
            placed: &placed,
            node_limit: None,
        };
        let mut k = 0;
        let next = || {
            let over = self.stop.is_raised() || std::time::Instant::now() >= deadline;
            k += 1;
            (!over).then(|| (attempt_seed(self.seed, 0, k - 1), *self.attempt))
        };
        let _ = Walk { lists: self.lists, shared, index: 0 }.attempts(next, |_| after());
    }
}

/// The free cells `board` fills.
fn placed_free(board: &Board, free: &[usize]) -> usize {
    free.iter().filter(|&&c| board.cells[c].is_some()).count()
}

/// `board` with every free cell after the first `free.len() - empty` of the fill order emptied.
fn cut_back(board: &Board, free: &[usize], empty: usize) -> Board {
    let mut cut = board.clone();
    for &cell in &free[free.len().saturating_sub(empty)..] {
        cut.cells[cell] = None;
    }
    cut
}

/// The completion of `partial` on one thread by `how.engine`, timed; the
/// native search looks for the best completion, with no cutoff.
fn complete(instance: &Instance, partial: &Board, empty: usize, how: &Measure, stop: &Stop) -> Result<Sample, Error> {
    let limits = Limits { time_limit: Some(how.limit_seconds), node_limit: None, seed: how.seed, threads: 1 };
    let done = complete_by(how.engine, instance, partial, usize::MAX, &limits, stop)?;
    let joins = instance.grid.max_score();
    let full = done.board.filter(|b| b.placed() == b.cells.len());
    Ok(Sample { empty, seconds: done.seconds, proved: done.optimal, breaks: full.map(|b| joins - b.score(instance)) })
}

/// The rows of `samples` measured on `board` (named, of `cells` cells), one per number of empty cells.
pub fn rows(board: &str, cells: usize, samples: &[Sample]) -> Vec<Row> {
    let mut empties: Vec<usize> = samples.iter().map(|s| s.empty).collect();
    empties.sort_unstable();
    empties.dedup();
    empties
        .into_iter()
        .map(|empty| {
            let of: Vec<&Sample> = samples.iter().filter(|s| s.empty == empty).collect();
            let mut times: Vec<f64> = of.iter().map(|s| s.seconds).collect();
            times.sort_by(f64::total_cmp);
            let breaks: Vec<f64> = of.iter().filter_map(|s| s.breaks).map(|b| b as f64).collect();
            Row {
                board: board.to_owned(),
                cells,
                empty,
                completions: of.len(),
                median_seconds: (times[times.len() / 2] * 1000.0).round() / 1000.0,
                proved: of.iter().filter(|s| s.proved).count() as f64 / of.len() as f64,
                mean_breaks: (!breaks.is_empty()).then(|| breaks.iter().sum::<f64>() / breaks.len() as f64),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::{PlantedSpec, planted};

    /// A cut-back board keeps its first placements and empties exactly `k` free cells at the end of the order.
    #[test]
    fn cutting_back_empties_the_last_cells_of_the_order() {
        let p = planted(&PlantedSpec::square(6, 3, 5, 1)).unwrap();
        let free: Vec<usize> = (0..36).filter(|c| p.instance.clues.iter().all(|k| k.cell != *c)).collect();
        let cut = cut_back(&p.solution, &free, 4);
        assert_eq!(cut.placed(), 32);
        assert!(free[free.len() - 4..].iter().all(|&c| cut.cells[c].is_none()));
        assert!(free[..free.len() - 4].iter().all(|&c| cut.cells[c] == p.solution.cells[c]));
    }
}
