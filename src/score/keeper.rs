//! The best board of a score run, shared by its threads: each better board is handed on as it comes.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use super::census::{Census, Recorded};
use super::options::{Best, Options, Stats};
use crate::outcome::{Outcome, Status};
use crate::puzzle::{Board, Instance};
use crate::stop::Stop;

/// Raises a run's flag when dropped. The threads that wait on the flag (the
/// keeper's [`Keeper::watch`], the completion worker) then end even when a
/// walk panics and unwinds past the store that would have raised it: without
/// it the run's scope would wait for them for ever (a hang, not an error).
pub(crate) struct RaiseOnDrop<'a>(pub(crate) &'a AtomicBool);

impl Drop for RaiseOnDrop<'_> {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

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
    on_best: &'a (dyn Fn(&Best) + Sync),
    /// Every distinct verified full board near the best, by score (and saved, if asked).
    census: Census<'a>,
    /// Boards the census saved, and the first save that failed.
    saved: AtomicUsize,
    save_failed: Mutex<Option<String>>,
}

impl<'a> Keeper<'a> {
    /// A keeper for a run of `options` on `instance` started at `start`,
    /// holding the options' incumbent (scored, at 0 s) if any.
    pub(crate) fn new(
        instance: &'a Instance,
        options: &Options,
        start: Instant,
        on_best: &'a (dyn Fn(&Best) + Sync),
    ) -> Keeper<'a> {
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
            on_best,
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

    /// Offers a full board the walk counts `breaks` mismatched joins on: kept
    /// and handed on if it beats the best so far and the best has not yet
    /// reached the target (a board reaching it is the last handed on, though
    /// the walks see the run is over only at their next poll). Its score is
    /// counted again from the board itself, not taken from the walk's count: a
    /// walk that miscounts can then neither claim a solution nor replace a better board.
    pub(crate) fn offer(&self, board: Board, breaks: usize) {
        self.count(&board);
        let score = board.score(self.instance);
        let breaks = breaks.max(self.joins - score);
        let mut slot = self.best.lock().unwrap_or_else(|e| e.into_inner());
        let reached = |b: &Best| self.joins - b.score <= self.target_breaks;
        if slot.as_ref().is_some_and(|b| b.score >= score || reached(b)) {
            return;
        }
        let new = Best { board, score, seconds: self.start.elapsed().as_secs_f64() };
        (self.on_best)(&new);
        *slot = Some(new);
        let _ = self.breaks.fetch_min(breaks, Ordering::Relaxed);
        if breaks <= self.target_breaks {
            self.done.store(true, Ordering::Relaxed);
        }
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
    pub(crate) fn finish(
        self,
        stop: &Stop,
        mut stats: Stats,
        finish: impl FnOnce(Status, Option<Board>, Stats) -> Outcome<Stats>,
    ) -> Outcome<Stats> {
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
        finish(status, best.map(|b| b.board), stats)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A scope whose body panics still ends, the panic coming out of it: the
    /// guard raises the flag the waiting thread polls (as the keeper's watch
    /// does). Fails if the guard does not raise it: the waiter then ends only
    /// by its own fallback of 30 s, and says so.
    #[test]
    fn a_panicking_scope_raises_the_flag_its_waiters_wait_on() {
        let flag = AtomicBool::new(false);
        let by_flag = AtomicBool::new(false);
        let unwound = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            std::thread::scope(|scope| {
                let _over = RaiseOnDrop(&flag);
                let _ = scope.spawn(|| {
                    let fallback = Instant::now() + Duration::from_secs(30);
                    while !flag.load(Ordering::Relaxed) && Instant::now() < fallback {
                        std::thread::sleep(Duration::from_millis(5));
                    }
                    by_flag.store(flag.load(Ordering::Relaxed), Ordering::Relaxed);
                });
                panic!("a walk fails");
            });
        }));
        assert!(unwound.is_err(), "the panic comes out of the scope");
        assert!(by_flag.load(Ordering::Relaxed), "the waiter ended by the flag");
    }
}
