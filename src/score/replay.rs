//! A walk's stream of partial boards, recorded, then offered to one completion worker faster than it can take them: which boards the hand-off lets it complete.
//!
//! [`record`] walks the board as a run does (its plan, its completion
//! depths) on one thread and keeps every partial board the walk offers, with
//! the second it came. [`replay`] offers them again, `speed` times as fast,
//! through the run's own hand-off, bound, worker and keeper
//! ([`super::outside::complete`]), so that the worker falls behind: what it
//! completes, depth by depth, shows whether the hand-off keeps the most
//! promising boards for it (`bench replay` writes the table).

use std::sync::Mutex;
use std::time::Instant;

use super::completion::Completion;
use super::completion_measure::Alone;
use super::options::{Options, Stats};
use super::plan::Plan;
use crate::error::Error;
use crate::outcome::{Limits, Outcome};
use crate::puzzle::{Board, Instance};
use crate::stop::Stop;

/// Most partial boards a recording keeps (about 4 KB each on a 16×16 board).
pub const MOST_RECORDED: usize = 50_000;

/// One partial board of the stream.
#[derive(Clone, Debug)]
pub struct Offer {
    /// Seconds into the recording.
    pub at: f64,
    /// The partial board.
    pub board: Board,
}

/// A walk's recorded stream, and the completion settings of its plan.
#[derive(Clone, Debug)]
pub struct Recording {
    /// The boards, in the order they came.
    pub offers: Vec<Offer>,
    /// The plan's completion (its depths and the seconds each completion gets).
    pub completion: Completion,
    /// Seconds the walk ran.
    pub seconds: f64,
}

/// Walks `instance` on one thread for `seconds` (after its pilot) as a run
/// of seed `seed` does, keeping every partial board it offers for
/// completion (at most [`MOST_RECORDED`]). Stops early when `stop` is raised.
///
/// # Errors
/// A board that leaves no plan.
pub fn record(instance: &Instance, seconds: f64, seed: u64, stop: &Stop) -> Result<Recording, Error> {
    let options = Options::default();
    let limits = Limits { time_limit: Some(seconds), node_limit: None, seed, threads: 1 };
    let plan = Plan::settle_for(instance, &options, &limits, stop).map_err(Error::Options)?;
    let lists = plan.lists(instance).map_err(Error::Options)?;
    let attempt = super::runner::first_attempt(&options, &lists, &plan, 1);
    let offers = Mutex::new(Vec::new());
    let start = Instant::now();
    let deep = |_: usize, recs: &[u64], _: usize| {
        let mut offers = offers.lock().unwrap_or_else(|e| e.into_inner());
        if offers.len() < MOST_RECORDED {
            let mut board = Board::empty(instance.grid);
            lists.fill_board(&mut board, recs);
            offers.push(Offer { at: start.elapsed().as_secs_f64(), board });
        }
    };
    let alone = Alone { lists: &lists, attempt: &attempt, seed, seconds, stop };
    alone.walk(&deep, || {});
    let offers = offers.into_inner().unwrap_or_else(|e| e.into_inner());
    Ok(Recording { offers, completion: plan.completion, seconds: start.elapsed().as_secs_f64() })
}

/// Offers `recording`'s boards again, `speed` times as fast as they came,
/// to one completion worker for the stream's length (its seconds over
/// `speed`) plus `tail` seconds, and returns what the run's completers did
/// ([`Stats::completions_by_depth`]: offered and completed per depth).
///
/// # Errors
/// A completed board the checker rejects (a bug).
pub fn replay(
    instance: &Instance,
    recording: &Recording,
    speed: f64,
    tail: f64,
    stop: &Stop,
) -> Result<Outcome<Stats>, Error> {
    let speed = speed.max(1e-9);
    let limits = Limits { time_limit: Some(recording.seconds / speed + tail), node_limit: None, seed: 1, threads: 1 };
    let start = Instant::now();
    let next = Mutex::new(0usize);
    let feed = || {
        let due = start.elapsed().as_secs_f64() * speed;
        let mut next = next.lock().unwrap_or_else(|e| e.into_inner());
        let from = *next;
        while *next < recording.offers.len() && recording.offers[*next].at <= due {
            *next += 1;
        }
        recording.offers[from..*next].iter().map(|o| o.board.clone()).collect()
    };
    super::outside::complete(instance, &recording.completion, &limits, stop, &feed, &|_: &_| {})
}

/// The share of the boards offered at each depth that were completed, deepest first: (depth, offered, completed, share).
pub fn shares(stats: &Stats) -> Vec<(usize, u64, u64, f64)> {
    stats.completions_by_depth.iter().map(|&(d, o, c)| (d, o, c, c as f64 / o.max(1) as f64)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::{PlantedSpec, planted};

    /// Two seconds of a walk on a planted 13×13 of 5 + 17 colours, offered at once and
    /// shallowest first, to a worker that gives each completion a fifth of a second: the
    /// worker may take the first (shallow) board before the rest arrive, but from then on
    /// it must take the deepest ones, so it completes fewer boards than were offered and
    /// the deepest depth offered fares at least as well as the stream as a whole. Catches
    /// a replay that offers nothing, or a hand-off that hands the worker boards in the
    /// order they came.
    #[test]
    fn a_stream_offered_too_fast_is_completed_deepest_first() {
        let p = planted(&PlantedSpec::square(13, 5, 17, 1)).unwrap();
        let stop = Stop::new();
        let mut recording = record(&p.instance, 2.0, 1, &stop).unwrap();
        assert!(recording.offers.len() > 100, "{} offers", recording.offers.len());
        let placed = |o: &Offer| o.board.cells.iter().filter(|c| c.is_some()).count();
        recording.offers.sort_by_key(placed);
        recording.offers.iter_mut().for_each(|o| o.at = 0.0);
        recording.completion.seconds = 0.2;
        let done = replay(&p.instance, &recording, 1e6, 2.0, &stop).unwrap();
        let rows = shares(&done.stats);
        let offered: u64 = rows.iter().map(|r| r.1).sum();
        let completed: u64 = rows.iter().map(|r| r.2).sum();
        assert_eq!(offered as usize, recording.offers.len());
        assert!(completed > 0 && completed < offered, "{completed} of {offered}");
        assert!(rows[0].3 >= completed as f64 / offered as f64, "{rows:?}");
    }
}
