//! `bench search-speed`: the native search's walk with and without the strip test, one thread.
//!
//! For each instance the search first picks its fill order as usual (the
//! estimator's choice, strip test on); then the walk runs twice over that
//! order, with the strip test on and off, to the solution or the time limit.
//! Both boards are verified. The fixed order keeps estimation out of the
//! timings, so the two runs differ only in the test.

use std::path::PathBuf;

use super::records::round3;
use super::records::{Record, SearchSpeed, SearchSpeedPair, SearchSpeedRun};
use crate::error::Error;
use crate::formats::instance_json;
use crate::search::{self, OrderChoice, StripTest};
use crate::solver::{self, Limits, Solver, Stats};
use crate::stop::Stop;

/// The default instances: the planted 15×15 5+26 and 12×12 5+17 boards.
pub fn default_instances() -> Vec<String> {
    let mut paths = Vec::new();
    for (side, colours) in [(15, "f5i26"), (12, "f5i17")] {
        paths.extend((1..=5).map(|s| format!("models/planted-{side}x{side}-{colours}-s{s}.json")));
    }
    paths
}

/// Runs the walk with the strip test on and off on each instance, `seconds` at most each.
pub fn search_speed(instances: &[PathBuf], seconds: f64, stop: &Stop) -> Result<Record<SearchSpeed>, Error> {
    let mut runs = Vec::new();
    let limits = Limits { time_limit: Some(seconds), threads: 1, ..Limits::default() };
    for path in instances {
        if stop.is_raised() {
            break;
        }
        let file = instance_json::read(path)?;
        let instance = &file.instance;
        // The estimator's choice: estimation only, the walk stopped at once.
        let choose = search::Options { strips: StripTest::On, ..search::Options::default() };
        let walk_none = Limits { node_limit: Some(1), seed: 0, threads: 1, time_limit: None };
        let chosen = search::solve(instance, &choose, &walk_none, stop).stats;
        if stop.is_raised() {
            // Interrupted while estimating: no order was chosen.
            break;
        }
        let Ok(order) = chosen.order.parse::<search::Order>() else {
            return Err(Error::Options(format!(
                "{}: the search chose no fill order (its clues conflict)",
                path.display()
            )));
        };
        for strips in [StripTest::On, StripTest::Off] {
            if stop.is_raised() {
                break;
            }
            let options = search::Options { order: OrderChoice::Fixed(order), strips, ..search::Options::default() };
            let (outcome, verified) = solver::solve_accepted(&Solver::Search(options), instance, &limits, stop)?;
            let Stats::Search(stats) = outcome.stats else { unreachable!("the search returns search stats") };
            eprintln!(
                "bench: search {} {order} strip test {strips}: {} in {:.3} s, {} nodes",
                path.display(),
                outcome.status,
                outcome.seconds,
                stats.nodes
            );
            runs.push(SearchSpeedRun {
                instance: path.display().to_string(),
                order: order.name(),
                strip_test: strips == StripTest::On,
                status: outcome.status,
                solved: verified.solved,
                nodes: stats.nodes,
                seconds: round3(outcome.seconds),
                nodes_per_second: (stats.nodes as f64 / outcome.seconds.max(1e-9)).round(),
            });
        }
    }
    // Per instance solved both ways: node and time ratios (off / on).
    let pairs = runs
        .chunks_exact(2)
        .filter(|pair| pair[0].solved && pair[1].solved)
        .map(|pair| SearchSpeedPair {
            instance: pair[0].instance.clone(),
            order: pair[0].order.clone(),
            fewer_nodes: round3(pair[1].nodes as f64 / pair[0].nodes.max(1) as f64),
            faster: round3(pair[1].seconds / pair[0].seconds.max(1e-3)),
        })
        .collect();
    Ok(Record::new(
        "search-speed",
        format!("edgematch bench search-speed --seconds {seconds}"),
        Some(1),
        Some(stop.is_raised()),
        SearchSpeed { pairs, runs },
    ))
}
