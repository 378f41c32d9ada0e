//! The best board of a score run, shared by its threads: each board offered passes the checker, joins the census, and if it beats the best is kept and queued for the front ends.
//!
//! Each step has its own home: the checker's verdict ([`Keeper::verified`]),
//! the census of boards near the best and their saving (`census.rs`), the
//! best board and the bound the walks read ([`Keeper::improve`], one short
//! lock), and the front ends' calls (`dispatch.rs`, on a thread of their
//! own, never under that lock).

use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use super::census::Census;
use super::dispatch::Dispatch;
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
    best: Mutex<Option<Best>>,
    instance: &'a Instance,
    joins: usize,
    target_breaks: usize,
    start: Instant,
    /// Raised when the target is reached or the checker rejected a board: the run is over.
    run: &'a Stop,
    /// The checker's word on the first board it rejected: the run ends on it.
    rejected: Mutex<Option<String>>,
    /// Every distinct verified full board near the best (and saved, if asked).
    census: Census<'a>,
    /// The new bests on their way to the front ends.
    pub(crate) dispatch: Dispatch<'a>,
}

impl<'a> Keeper<'a> {
    /// A keeper for a run of `options` on `instance` started at `start`,
    /// holding the options' incumbent (scored, at 0 s) if any, handing each
    /// new best to `events` (through its dispatch) and raising `run` once the
    /// run is over (the target reached, or a board rejected).
    pub(crate) fn new(
        instance: &'a Instance,
        options: &Options,
        (start, run): (Instant, &'a Stop),
        events: &'a dyn Events,
    ) -> Keeper<'a> {
        let joins = instance.grid.max_score();
        let target_breaks = joins - options.target.unwrap_or(joins).min(joins);
        let incumbent =
            options.incumbent.as_ref().map(|b| Best { board: b.clone(), score: b.score(instance), seconds: 0.0 });
        let breaks = incumbent.as_ref().map_or(usize::MAX, |b| joins - b.score);
        if breaks <= target_breaks {
            run.raise();
        }
        Keeper {
            breaks: AtomicUsize::new(breaks),
            best: Mutex::new(incumbent),
            instance,
            joins,
            target_breaks,
            start,
            run,
            rejected: Mutex::new(None),
            census: Census::new(instance, options.save.clone()),
            dispatch: Dispatch::new(events),
        }
    }

    /// Whether a board with `breaks` mismatched joins is worth finishing: it
    /// would beat the best, or reach the score boards are saved from.
    pub(crate) fn worth(&self, breaks: usize) -> bool {
        breaks < self.wanted_below()
    }

    /// The breaks a board must stay below to be worth finishing (see [`Keeper::worth`]).
    pub(crate) fn wanted_below(&self) -> usize {
        let best = self.breaks.load(Ordering::Relaxed);
        self.census.wanted_breaks(best).map_or(best, |w| best.max(w + 1))
    }

    /// Offers a full board. The checker sees it first: a board that breaks a
    /// hard rule ends the run ([`Keeper::finish`] returns the checker's word)
    /// and nothing else happens to it. A board it passes joins the census,
    /// and if it beats the best (which has not reached the target yet) it
    /// is kept, the walks' shared bound lowered to the checker's count of
    /// its breaks (not the walk's), and it is queued for the front ends.
    pub(crate) fn offer(&self, mut board: Board) {
        crate::fault::inject("walk", Some(&mut board));
        let Some(score) = self.verified(&board) else { return };
        self.census.take(&board);
        if let Some(new) = self.improve(board, score) {
            self.dispatch.send(new);
        }
    }

    /// The checker's score of `board`, or `None` when it rejects it (kept, and the run ended).
    fn verified(&self, board: &Board) -> Option<usize> {
        let report = check(self.instance, board);
        if report.placed == report.cells && report.only_joins_mismatch() {
            return Some(report.score);
        }
        let why = format!("the score walk's board failed the checker: {report}");
        let _ = self.rejected.lock().unwrap_or_else(|e| e.into_inner()).get_or_insert(why);
        self.run.raise();
        None
    }

    /// Keeps `board` (scoring `score`) if it beats the best and the best has
    /// not reached the target; the new best, if it is one. A board reaching
    /// the target is the last kept, and ends the run.
    fn improve(&self, board: Board, score: usize) -> Option<Best> {
        let mut slot = self.best.lock().unwrap_or_else(|e| e.into_inner());
        let reached = |b: &Best| self.joins - b.score <= self.target_breaks;
        if slot.as_ref().is_some_and(|b| b.score >= score || reached(b)) {
            return None;
        }
        let new = Best { board, score, seconds: self.start.elapsed().as_secs_f64() };
        *slot = Some(new.clone());
        let breaks = self.joins - score;
        let _ = self.breaks.fetch_min(breaks, Ordering::Relaxed);
        if breaks <= self.target_breaks {
            self.run.raise();
        }
        Some(new)
    }

    /// The best board's score so far (`None`: none yet).
    pub(crate) fn best_score(&self) -> Option<usize> {
        self.best.lock().unwrap_or_else(|e| e.into_inner()).as_ref().map(|b| b.score)
    }

    /// The events the run reports to.
    pub(crate) fn events(&self) -> &'a dyn Events {
        self.dispatch.events()
    }

    /// The run's outcome: the best board, `Solved` when it is a full
    /// solution, `Interrupted` when `stop` (the caller's) was raised, else `Unknown`.
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
        (stats.saved, stats.save_failed) = self.census.saves();
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
