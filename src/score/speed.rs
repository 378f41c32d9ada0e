//! The scan walk's own rate: its placements and loop turns per second on one thread, nothing else running.

use std::sync::atomic::AtomicUsize;
use std::time::{Duration, Instant};

use super::attempts::{Done, Walk};
use super::lists::Lists;
use super::options::Options;
use super::plan::Plan;
use super::scan::{Attempt, Counter, Freeze, Shared};
use crate::puzzle::{Board, Instance};
use crate::stop::Stop;

/// What the walk did in the time it was given.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Speed {
    /// Placements.
    pub placements: u64,
    /// Loop turns: placements and backtracks, as the field's solvers count nodes.
    pub iterations: u64,
    /// Attempts.
    pub attempts: u64,
    /// Wall seconds.
    pub seconds: f64,
}

impl Speed {
    /// Placements per second.
    pub fn placements_per_second(&self) -> f64 {
        self.placements as f64 / self.seconds.max(1e-9)
    }

    /// Loop turns per second.
    pub fn iterations_per_second(&self) -> f64 {
        self.iterations as f64 / self.seconds.max(1e-9)
    }
}

/// Walks `instance` on one thread for about `seconds`, attempt after attempt,
/// with `options`' plan settled without pilot walks ([`Plan::new`]), no
/// completion and no board kept: the walk's loop alone, as a profile would
/// see it. Attempts are cut at the time, so the last one counts what it made.
///
/// # Errors
/// A plan that cannot be settled (named).
pub fn measure(instance: &Instance, options: &Options, seconds: f64, seed: u64, stop: &Stop) -> Result<Speed, String> {
    measure_on(instance, options, seconds, (seed, 1), stop)
}

/// [`measure`] on `threads` threads walking at once, each its own attempts
/// (thread `t` seeded with `seed + t`, its shuffles apart from the others'),
/// their counts summed: what N walks of a score run share is only the
/// machine, so the sum is the run's rate.
///
/// # Errors
/// A plan that cannot be settled (named).
pub fn measure_on(
    instance: &Instance,
    options: &Options,
    seconds: f64,
    (seed, threads): (u64, usize),
    stop: &Stop,
) -> Result<Speed, String> {
    let plan = Plan::new(instance, options)?;
    let lists = plan.lists(instance)?;
    let start = Instant::now();
    let deadline = start.checked_add(Duration::from_secs_f64(seconds.max(0.0)));
    let walks: Vec<Speed> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads.max(1))
            .map(|t| {
                let lists = &lists;
                scope.spawn(move || walk_until(options, lists, deadline, seed.wrapping_add(t as u64), stop))
            })
            .collect();
        handles.into_iter().map(|h| h.join().expect("speed walk panicked")).collect()
    });
    let mut speed = Speed { placements: 0, iterations: 0, attempts: 0, seconds: start.elapsed().as_secs_f64() };
    for walk in walks {
        speed.placements += walk.placements;
        speed.iterations += walk.iterations;
        speed.attempts += walk.attempts;
    }
    Ok(speed)
}

/// One walk's attempts over `lists` until `deadline` or the stop.
fn walk_until(options: &Options, lists: &Lists, deadline: Option<Instant>, seed: u64, stop: &Stop) -> Speed {
    let none = |_: Board, _: usize| {};
    let none_deep = |_: usize, _: &[u64], _: usize| {};
    let (best, deepest) = (AtomicUsize::new(usize::MAX), AtomicUsize::new(0));
    let placed = [Counter::default()];
    let shared = Shared {
        best: &best,
        stop: stop.flag(),
        deadline,
        found: &none,
        deep: &none_deep,
        deepest: &deepest,
        placed: &placed,
        node_limit: None,
    };
    let attempt = Attempt {
        budget: usize::MAX,
        cap: options.attempt_nodes.unwrap_or(super::options::SCAN_ATTEMPT_NODES),
        extend: 0,
        report_from: usize::MAX,
        report_all: usize::MAX,
        stall: 0,
        expect: 0,
        freeze: Freeze::DEFAULT,
    };
    let speed = std::cell::Cell::new(Speed { placements: 0, iterations: 0, attempts: 0, seconds: 0.0 });
    let next = || {
        let over = deadline.is_none_or(|d| Instant::now() >= d) || stop.is_raised();
        (!over).then(|| (seed.wrapping_add(speed.get().attempts), attempt))
    };
    let done = |done: &Done| {
        let mut s = speed.get();
        s.placements += done.ended.nodes;
        s.iterations += done.ended.iterations;
        s.attempts += 1;
        speed.set(s);
    };
    let _ = Walk { lists, shared, index: 0 }.attempts(next, done);
    speed.get()
}
