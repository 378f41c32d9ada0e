//! What a score run tells its caller as it goes: each new best board (after the checker), the plan it settled, its progress.

use super::options::Best;
use super::plan::Plan;
use super::split::Split;

/// The receiver of a score run's events, called from the run's threads.
///
/// A closure `Fn(&Best)` is one: it receives the new best boards and nothing else.
pub trait Events: Sync {
    /// A full board the checker passed, scored above every earlier one.
    fn best(&self, best: &Best);

    /// The plan the run settled, before its walks start (a resumed run's too).
    fn plan(&self, _plan: &Plan) {}

    /// The run's counters, about once a second while the walks run, and once at their end.
    fn progress(&self, _progress: &Progress) {}

    /// The completion workers the run's figures asked for, each time the number changes.
    fn split(&self, _split: &Split) {}

    /// Something the user should know that does not end the run (completions given up).
    fn warning(&self, _message: &str) {}
}

impl<F: Fn(&Best) + Sync> Events for F {
    fn best(&self, best: &Best) {
        self(best);
    }
}

/// A score run's counters at one moment.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct Progress {
    /// Seconds since the run (this segment of it) started.
    pub seconds: f64,
    /// Placements each walk made so far.
    pub placements: Vec<u64>,
    /// Attempts each walk started so far, counting on from a resumed run's ([`super::Resume`]).
    pub attempts: Vec<u64>,
    /// The most free cells a walk filled at once.
    pub deepest: usize,
    /// Partial boards CP-SAT completed.
    pub completed: u64,
    /// Completions CP-SAT failed (an error, not a board).
    pub failed: u64,
    /// Partial boards waiting for CP-SAT.
    pub queued: u64,
    /// Partial boards dropped unread (the completer was behind).
    pub dropped: u64,
    /// Completion workers taking boards now.
    pub completers: usize,
    /// The best board's score (`None`: no full board yet).
    pub best: Option<usize>,
}

/// `events` with each best board first passed through `map`; the other events as they come.
pub struct MapBest<'a, F> {
    /// Where the events go.
    pub events: &'a dyn Events,
    /// What each best board becomes on its way.
    pub map: F,
}

impl<F: Fn(&Best) -> Best + Sync> Events for MapBest<'_, F> {
    fn best(&self, best: &Best) {
        self.events.best(&(self.map)(best));
    }

    fn plan(&self, plan: &Plan) {
        self.events.plan(plan);
    }

    fn progress(&self, progress: &Progress) {
        self.events.progress(progress);
    }

    fn split(&self, split: &Split) {
        self.events.split(split);
    }

    fn warning(&self, message: &str) {
        self.events.warning(message);
    }
}
