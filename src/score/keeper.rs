//! The best board of a score run, shared by its threads: each better board is handed on as it comes.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use super::census::{Census, Recorded};
use super::events::Events;
use super::options::{Best, Options, Stats};
use crate::check::check;
use crate::error::Error;
use crate::outcome::{Outcome, Status};
use crate::puzzle::{Board, Instance};
use crate::stop::Stop;

/// The run's best board and what follows from it.
pub(crate) struct Keeper<'a> {
    /// Breaks of the best board (`usize::MAX`: none yet); walks read it to look only for better.
    pub(crate) breaks: AtomicUsize,
    /// Raised when the target is reached (or a walk proved nothing better exists).
    pub(crate) done: AtomicBool,
    best: Mutex<Option<Best>>,
    instance: &'a Instance,
    joins: usize,
    target_breaks: usize,
    start: Instant,
    events: &'a dyn Events,
    /// The checker's word on the first board it rejected: the run ends on it.
    rejected: Mutex<Option<String>>,
    /// Every distinct verified full board near the best, by score (and saved, if asked).
    census: Census<'a>,
    /// Boards the census saved, and the first save that failed.
    saved: AtomicUsize,
    save_failed: Mutex<Option<String>>,
}

impl<'a> Keeper<'a> {
    /// A keeper for a run of `options` on `instance` started at `start`,
    /// holding the options' incumbent (scored, at 0 s) if any.
    pub(crate) fn new(instance: &'a Instance, options: &Options, start: Instant, events: &'a dyn Events) -> Keeper<'a> {
        let joins = instance.grid.max_score();
        let target_breaks = joins - options.target.unwrap_or(joins).min(joins);
        let incumbent =
            options.incumbent.as_ref().map(|b| Best { board: b.clone(), score: b.score(instance), seconds: 0.0 });
        let breaks = incumbent.as_ref().map_or(usize::MAX, |b| joins - b.score);
        Keeper {
            breaks: AtomicUsize::new(breaks),
            done: AtomicBool::new(breaks <= target_breaks),
            best: Mutex::new(incumbent),
            instance,
            joins,
            target_breaks,
            start,
            events,
            rejected: Mutex::new(None),
            census: Census::new(instance, options.save.clone()),
            saved: AtomicUsize::new(0),
            save_failed: Mutex::new(None),
        }
    }

    /// Whether a board with `breaks` mismatched joins is worth finishing: it
    /// would beat the best, or reach the score boards are saved from.
    pub(crate) fn worth(&self, breaks: usize) -> bool {
        let best = self.breaks.load(Ordering::Relaxed);
        breaks < best || self.census.wanted_breaks(best).is_some_and(|w| breaks <= w)
    }

    /// Offers a full board. The checker sees it first: a board that breaks a hard rule ends the run
    /// ([`Keeper::finish`] returns the checker's word), and nothing else
    /// happens to it. A board it passes is kept and handed on if it beats the
    /// best so far and the best has not yet reached the target (a board
    /// reaching it is the last handed on, though the walks see the run is over
    /// only at their next poll); only then is the walks' shared bound lowered,
    /// to the checker's count of its breaks, not the walk's.
    pub(crate) fn offer(&self, mut board: Board) {
        crate::fault::inject("walk", Some(&mut board));
        let report = check(self.instance, &board);
        if report.placed != report.cells || !report.only_joins_mismatch() {
            let why = format!("the score walk's board failed the checker: {report}");
            let _ = self.rejected.lock().unwrap_or_else(|e| e.into_inner()).get_or_insert(why);
            self.done.store(true, Ordering::Relaxed);
            return;
        }
        self.count(&board);
        let score = report.score;
        let breaks = self.joins - score;
        let mut slot = self.best.lock().unwrap_or_else(|e| e.into_inner());
        let reached = |b: &Best| self.joins - b.score <= self.target_breaks;
        if slot.as_ref().is_some_and(|b| b.score >= score || reached(b)) {
            return;
        }
        let new = Best { board, score, seconds: self.start.elapsed().as_secs_f64() };
        self.events.best(&new);
        *slot = Some(new);
        let _ = self.breaks.fetch_min(breaks, Ordering::Relaxed);
        if breaks <= self.target_breaks {
            self.done.store(true, Ordering::Relaxed);
        }
    }

    /// The best board's score so far (`None`: none yet).
    pub(crate) fn best_score(&self) -> Option<usize> {
        self.best.lock().unwrap_or_else(|e| e.into_inner()).as_ref().map(|b| b.score)
    }

    /// The events the run reports to.
    pub(crate) fn events(&self) -> &dyn Events {
        self.events
    }

    /// Records `board` in the census, counting a save and keeping the first failure.
    fn count(&self, board: &Board) {
        match self.census.record(board) {
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

    /// Raises `flag` (which the walks poll) once `stop` is raised, the run is
    /// done or `deadline` passes; returns when `flag` is raised.
    pub(crate) fn watch(&self, flag: &AtomicBool, stop: &Stop, deadline: Option<Instant>) {
        while !flag.load(Ordering::Relaxed) {
            if stop.is_raised() || self.done.load(Ordering::Relaxed) || deadline.is_some_and(|d| Instant::now() >= d) {
                flag.store(true, Ordering::Relaxed);
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// The run's outcome: the best board, `Solved` when it is a full
    /// solution, `Interrupted` when stopped from outside, else `Unknown`.
    ///
    /// # Errors
    /// [`Error::Rejected`] when the checker rejected a board the walks or the
    /// completions offered (a bug of the search).
    pub(crate) fn finish(
        self,
        stop: &Stop,
        mut stats: Stats,
        finish: impl FnOnce(Status, Option<Board>, Stats) -> Outcome<Stats>,
    ) -> Result<Outcome<Stats>, Error> {
        if let Some(why) = self.rejected.into_inner().unwrap_or_else(|e| e.into_inner()) {
            return Err(Error::Rejected(why));
        }
        stats.census = self.census.counts();
        stats.saved = self.saved.load(Ordering::Relaxed) as u64;
        stats.save_failed = self.save_failed.into_inner().unwrap_or_else(|e| e.into_inner());
        let best = self.best.into_inner().unwrap_or_else(|e| e.into_inner());
        stats.best_breaks = best.as_ref().map(|b| self.joins - b.score);
        stats.best_seconds = best.as_ref().map(|b| b.seconds);
        let status = match &best {
            Some(b) if b.score == self.joins => Status::Solved,
            _ if stop.is_raised() => Status::Interrupted,
            _ => Status::Unknown,
        };
        Ok(finish(status, best.map(|b| b.board), stats))
    }
}
