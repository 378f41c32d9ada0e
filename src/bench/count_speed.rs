//! `bench count-speed`: the count's nodes per second, by engine (bit sets, lists) and thread count, on the same boards in one run.
//!
//! Each run counts one board's plain row scan tree for at most the given
//! seconds (a count cut by its time limit keeps the nodes of the subtrees it
//! did not finish, so the rate is the whole run's). Both engines walk the
//! same tree, so their rates compare like for like; the cut and the
//! estimate a count makes before it starts are inside each run's seconds.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::records::{Record, round3};
use crate::count::{self, Ended};
use crate::error::Error;
use crate::formats::load;
use crate::stop::Stop;

/// The default boards: Brendan's 7×7 (the goal board, cut by the
/// time limit) and 8×5 (about 9 × 10⁹ nodes).
pub fn default_instances() -> Vec<String> {
    ["data/brendan/pieces_07x07.txt", "data/brendan/pieces_08x05.txt"].map(str::to_owned).to_vec()
}

/// One count: a board, an engine, a thread count.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CountSpeedRun {
    /// The board's file.
    pub board: String,
    /// `bits-64`, `bits-128` or `lists`.
    pub engine: String,
    /// Threads counting.
    pub threads: usize,
    /// Nodes visited, every thread.
    pub nodes: u64,
    /// Wall-clock seconds, the cut and the estimate included.
    pub seconds: f64,
    /// `complete`, or `time_limit` when the seconds ran out first.
    pub ended: Ended,
    /// Nodes per second, all threads.
    pub nodes_per_second: f64,
    /// That rate divided by the threads.
    pub per_thread: f64,
    /// The rate over the same board and engine's on one thread (1.0 for one thread).
    pub over_one_thread: f64,
    /// The rate over the lists engine's on the same board and threads (1.0 for the lists).
    pub over_lists: f64,
}

/// The runs, with the cores they had.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CountSpeed {
    /// Cores this process could use.
    pub cores: usize,
    /// Seconds each run was given at most.
    pub seconds: f64,
    /// Every board, engine and thread count, in the order run.
    pub runs: Vec<CountSpeedRun>,
}

/// Counts each of `instances` with the lists and then the bit sets
/// one, at each of `threads`, for at most `seconds` each, one run at a time.
///
/// # Errors
/// A board that cannot be read or counted.
pub fn run(instances: &[PathBuf], threads: &[usize], seconds: f64, stop: &Stop) -> Result<Record<CountSpeed>, Error> {
    let mut runs = Vec::new();
    'all: for path in instances {
        let instance = load::instance(path, &load::InstanceOptions::default())?.instance;
        for lists in [true, false] {
            for &threads in threads {
                if stop.is_raised() {
                    break 'all;
                }
                let options = count::Options {
                    threads,
                    time_limit: Some(seconds),
                    plain: true,
                    lists,
                    ..count::Options::default()
                };
                let counted = count::count(&instance, &options, stop)?;
                runs.push(entry(path, threads, &counted, &runs));
            }
        }
    }
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let list: Vec<String> = threads.iter().map(ToString::to_string).collect();
    let boards: Vec<String> = instances.iter().map(|p| p.display().to_string()).collect();
    let command =
        format!("edgematch bench count-speed {} --threads {} --seconds {seconds}", boards.join(" "), list.join(","));
    let body = CountSpeed { cores, seconds: round3(seconds), runs };
    Ok(Record::new("count-speed", command, None, stop.is_raised().then_some(true), body))
}

/// The run of `counted` on `threads` threads, its rate set beside the
/// one-thread run of its engine and the plain run of its threads among `earlier`.
fn entry(path: &Path, threads: usize, counted: &count::Count, earlier: &[CountSpeedRun]) -> CountSpeedRun {
    let board = path.display().to_string();
    let rate = counted.nodes as f64 / counted.seconds.max(1e-9);
    let of = |engine: &str, threads: usize| {
        let same = |r: &&CountSpeedRun| r.board == board && r.engine == engine && r.threads == threads;
        earlier.iter().find(same).map_or(rate, |r| r.nodes_per_second)
    };
    let (one, lists) = (of(&counted.engine, 1), of("lists", threads));
    eprintln!(
        "bench: count {board} {} on {threads} thread(s): {:.1} M nodes/s ({})",
        counted.engine,
        rate / 1e6,
        counted.ended
    );
    CountSpeedRun {
        board,
        engine: counted.engine.clone(),
        threads,
        nodes: counted.nodes,
        seconds: round3(counted.seconds),
        ended: counted.ended,
        nodes_per_second: rate.round(),
        per_thread: (rate / threads.max(1) as f64).round(),
        over_one_thread: round3(rate / one.max(1e-9)),
        over_lists: round3(rate / lists.max(1e-9)),
    }
}
