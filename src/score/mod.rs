//! The score search: the best full board where no solution is in reach, by a depth-gated break budget.
//!
//! Where no solver finds a full solution (the official 16×16, planted boards
//! with the real puzzle's 5 + 17 colours from 13×13 up) a board is judged by
//! its score: every piece placed, the clues honoured, grey all round the rim,
//! and as many inner joins matched as possible. This search fills the board in
//! row order like the exact search but may break a few joins, late and at most
//! one per piece (`walk.rs`), under a schedule that is data ([`Schedule`]),
//! with a bound that keeps the endgame tileable, restarts with freshly shuffled
//! candidate lists and a node cap per attempt, and one independent walk per
//! thread. Every board it finds is passed to the caller as it is found; the
//! best one is returned. Its exit is a full solution, or the limit.

pub mod array;
mod budget;
pub mod census;
mod colour_keys;
mod completer;
mod completion;
pub mod completion_measure;
pub mod completion_times;
mod keeper;
mod lists;
mod options;
pub mod outside;
mod pilot;
pub mod plan;
pub mod quota;
mod runner;
mod scan;
pub mod schedule;
pub mod speed;
mod walk;

pub use census::Save;
pub use completer::TRACE_ENV;
pub use completion::Completion;
pub use options::{Best, DEFAULT_ATTEMPT_NODES, Options, SCAN_ATTEMPT_NODES, Stats, Walk};
pub use quota::Quota;
pub use schedule::Schedule;

use crate::outcome::{Limits, Outcome};
use crate::puzzle::Instance;
use crate::stop::Stop;

/// Searches `instance` for its best full board within `limits` on `limits.threads`
/// threads (0: one), calling `on_best` with each board that beats every earlier
/// one (in the order found, from any thread). Returns the best board: `Solved`
/// when it is a full solution, `Interrupted` when stopped from outside, else
/// `Unknown` (its score is not proven best).
///
/// With the automatic schedule the run first walks without breaks for a
/// moment (a twentieth of the time limit, at most three seconds) to learn how
/// deep the exact walk reaches on this instance, and unlocks breaks just above
/// that depth (`derived`); a given schedule is used as it is.
pub fn solve(
    instance: &Instance,
    options: &Options,
    limits: &Limits,
    stop: &Stop,
    on_best: &(dyn Fn(&Best) + Sync),
) -> Outcome<Stats> {
    match options.walk {
        Walk::Scan => runner::solve(instance, options, limits, stop, on_best),
        Walk::Budget => budget::solve(instance, options, limits, stop, on_best),
    }
}

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_plan;
#[cfg(test)]
mod tests_walks;
