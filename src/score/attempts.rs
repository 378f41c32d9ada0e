//! One walk's attempts, one after another, each over the candidate lists shuffled from its own seed: the loop that the run's walks, its pilots and the benches that time the walk share.
//!
//! Each caller decides only what differs: the seed and settings of the
//! next attempt, or that there is none (its limit, its clock, its counts),
//! and what it keeps of each attempt's end. The loop ends when the caller
//! says so, when an attempt was stopped (the stop, the deadline, a perfect
//! board), or when an attempt exhausted the tree within its allowance:
//! another order of the same tree finds nothing new.

use super::lists::Lists;
use super::scan::{self, Attempt, End, Ended, Shared};
use crate::rng::Rng;

/// A walk: its lists, what it shares with the run, and its number among the run's walks.
pub(crate) struct Walk<'a> {
    pub(crate) lists: &'a Lists,
    pub(crate) shared: Shared<'a>,
    /// The walk's number (its placements are counted under it).
    pub(crate) index: usize,
}

/// What one attempt did, as [`Walk::attempts`] hands it back.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Done {
    pub(crate) ended: Ended,
    /// The walk thread's CPU seconds over the attempt.
    pub(crate) cpu_seconds: f64,
}

impl Walk<'_> {
    /// Walks attempt after attempt: `next` gives each one's seed and
    /// settings (`None`: the walk is over), `done` hears how each ended.
    /// Returns how the last attempt ended (`None`: none was walked).
    pub(crate) fn attempts(
        &self,
        mut next: impl FnMut() -> Option<(u64, Attempt)>,
        mut done: impl FnMut(&Done),
    ) -> Option<End> {
        let mut lists = self.lists.clone();
        let mut last = None;
        while let Some((seed, attempt)) = next() {
            lists.shuffle(&mut Rng::new(seed));
            let cpu = crate::cpu::thread_seconds();
            let ended = scan::attempt(&lists, &attempt, &self.shared, self.index);
            let cpu_seconds = (crate::cpu::thread_seconds() - cpu).max(0.0);
            done(&Done { ended, cpu_seconds });
            last = Some(ended.end);
            if ended.end != End::Capped {
                break;
            }
        }
        last
    }
}
