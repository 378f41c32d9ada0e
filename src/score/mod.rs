//! The score search: the best full board where no solution is in reach, by the scan walk with breaks allowed by depth.
//!
//! Where no solver finds a full solution (the official 16×16, planted boards
//! with the real puzzle's 5 + 17 colours from 13×13 up) a board is judged by
//! its score: every piece placed, the clues honoured, grey all round the rim,
//! and as many inner joins matched as possible. This search is the field's
//! scan walk (`scan/mod.rs`): sorted candidate lists read up to the first record
//! over a limit, breaks allowed late under a schedule that is data
//! ([`Schedule`]), a colour quota, long attempts restarted with freshly
//! shuffled lists, one independent walk per thread, and CP-SAT completing
//! the walks' deep partial boards. Every board it finds is checked, then
//! passed to the caller as it is found; the best one is returned. Its exit is
//! a full solution, or the limit.

pub mod array;
mod attempt_trace;
mod attempts;
mod bound;
pub mod census;
mod colour_keys;
mod completer;
mod completion;
pub mod completion_measure;
pub mod completion_times;
mod dispatch;
mod events;
pub mod finish;
mod handoff;
mod keeper;
mod lists;
mod options;
pub mod outside;
mod pilot;
pub mod plan;
pub mod quota;
mod record_bound;
pub mod replay;
mod runner;
mod scan;
pub mod schedule;
pub mod speed;
mod split;

pub use attempt_trace::ATTEMPT_TRACE_ENV;
pub use census::Save;
pub use completer::TRACE_ENV;
pub use completion::{Completion, Engine};
pub use events::{Events, MapBest, Progress};
pub use options::{Best, Options, Resume, SCAN_ATTEMPT_NODES, Stats};
pub use quota::Quota;
pub use schedule::Schedule;
pub use split::{PayingDepth, Split};

use crate::error::Error;
use crate::outcome::{Limits, Outcome};
use crate::puzzle::Instance;
use crate::stop::Stop;

/// Searches `instance` for its best full board within `limits` on `limits.threads`
/// threads (0: one), handing `events` each board that beats every earlier
/// one once the checker passed it (in the order found, from any thread), the
/// plan it settled, and its counters as it goes. Returns the best board:
/// `Solved` when it is a full solution, `Interrupted` when stopped from
/// outside, else `Unknown` (its score is not proven best).
///
/// The plan is settled by short pilot walks (see [`plan::Plan`]) unless
/// the options give it outright, as a resumed run's do; a resumed run's
/// walks go on with attempts its earlier segments never walked ([`Resume`]).
///
/// # Errors
/// [`Error::Rejected`] when the checker rejected a board of the walks or of
/// CP-SAT's completions (a bug): the run ends on it.
pub fn solve(
    instance: &Instance,
    options: &Options,
    limits: &Limits,
    stop: &Stop,
    events: &dyn Events,
) -> Result<Outcome<Stats>, Error> {
    runner::solve(instance, options, limits, stop, events)
}

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_plan;
#[cfg(test)]
mod tests_walks;
