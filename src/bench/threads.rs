//! `bench threads`: the score walks' and the exact search's total placements per second at 1, 2, 4, 8… threads, on one board.
//!
//! What the threads share decides how the rate grows with them. The score
//! walks share the best score (one atomic read per full board, one write per
//! new best) and the stop flag; each has its own lists and stack. The exact
//! search's threads, splitting one tree, share the counter of the next subtree
//! (one atomic add per subtree claimed) and the cancel flag. Neither takes a
//! lock in its loop, so on C cores the total should rise to about C times one
//! thread's and then stay level: threads beyond the cores take turns, and
//! must not lose rate to contention. On a machine with fewer cores than
//! threads only that level can be checked; how it rises past the cores
//! measured here is the model above, not a measurement.

use serde::{Deserialize, Serialize};

use super::records::{Record, round3};
use super::score_speed::published;
use crate::error::Error;
use crate::outcome::Limits;
use crate::puzzle::Instance;
use crate::score::speed;
use crate::search;
use crate::stop::Stop;

/// One engine at one thread count.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ThreadsRun {
    /// `score-walk` or `exact-search`.
    pub engine: String,
    /// Threads it ran.
    pub threads: usize,
    /// Placements, all threads.
    pub placements: u64,
    /// Wall seconds (the exact search's include its estimates).
    pub seconds: f64,
    /// Placements per second, all threads.
    pub placements_per_second: f64,
    /// That rate over the same engine's on one thread (1.0 for one thread).
    pub over_one_thread: f64,
}

/// The runs, with the cores they had.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Threads {
    /// Cores this process could use.
    pub cores: usize,
    /// Seconds each run was given.
    pub seconds: f64,
    /// Every engine at every thread count, in the order run.
    pub runs: Vec<ThreadsRun>,
}

/// Runs the scan walks (the published configuration of `bench score-speed`)
/// and then the exact search on `instance` for `seconds` at each of `counts`
/// threads, one run at a time. The search's order is chosen once, by the
/// estimator, and fixed for every count, without strip tests: its runs time
/// the shared walk, not the estimates (which run on the same threads).
///
/// # Errors
/// The walk's plan refused on `instance`.
pub fn run(instance: &Instance, counts: &[usize], seconds: f64, stop: &Stop) -> Result<Record<Threads>, Error> {
    let mut runs = Vec::new();
    for &threads in counts {
        if stop.is_raised() {
            break;
        }
        let walk = speed::measure_on(instance, &published(), seconds, (1, threads), stop).map_err(Error::Options)?;
        runs.push(entry("score-walk", threads, walk.placements, walk.seconds, &runs));
    }
    let choose = Limits { time_limit: Some(seconds), threads: 1, seed: 1, node_limit: None };
    let order = search::best_order(instance, &choose, stop).unwrap_or(search::Order::RowScan);
    let options = search::Options {
        order: search::OrderChoice::Fixed(order),
        strips: search::StripTest::Off,
        ..search::Options::default()
    };
    for &threads in counts {
        if stop.is_raised() {
            break;
        }
        let limits = Limits { threads: threads as u32, ..choose };
        let outcome = search::solve(instance, &options, &limits, stop);
        runs.push(entry("exact-search", threads, outcome.stats.nodes, outcome.seconds, &runs));
    }
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let list: Vec<String> = counts.iter().map(ToString::to_string).collect();
    let command = format!("edgematch bench threads --threads {} --seconds {seconds}", list.join(","));
    let body = Threads { cores, seconds: round3(seconds), runs };
    Ok(Record::new("threads", command, None, stop.is_raised().then_some(true), body))
}

/// The run of `engine` on `threads` threads, its rate set beside the one-thread run among `earlier`.
fn entry(engine: &str, threads: usize, placements: u64, seconds: f64, earlier: &[ThreadsRun]) -> ThreadsRun {
    let rate = placements as f64 / seconds.max(1e-9);
    let one = earlier.iter().find(|r| r.engine == engine && r.threads == 1).map_or(rate, |r| r.placements_per_second);
    eprintln!("bench: {engine} on {threads} thread(s): {:.1} M placements/s", rate / 1e6);
    ThreadsRun {
        engine: engine.to_owned(),
        threads,
        placements,
        seconds: round3(seconds),
        placements_per_second: rate.round(),
        over_one_thread: round3(rate / one.max(1e-9)),
    }
}
