//! The fast native backtracking search: complete, exact-match, over a chosen fill order.
//!
//! [`solve`] fills the free cells of an instance in one of several fill orders
//! ([`Order`]), never placing a piece that mismatches a placed neighbour, a
//! clue or the rim. Each order is compiled into a plan of per-cell candidate
//! tables (`plan.rs`) walked by an explicit-stack engine (`engine.rs`). With
//! [`OrderChoice::Auto`] the order is chosen by a random-probe estimate of each
//! order's tree size (Knuth's estimator carried by a population of resampled
//! probes, `estimate.rs`); with two threads two orders race and the first to
//! finish stops the other.
//!
//! The search is complete: candidates are tried in a fixed order (permuted
//! once by a non-zero seed), with no restarts, so an exhausted tree proves the
//! instance has no solution.

mod engine;
mod estimate;
mod order;
mod plan;

use std::fmt;
use std::str::FromStr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

pub use order::{Corner, Order};

use crate::puzzle::{Board, Instance};
pub use crate::solver::Status;
use engine::{End, Limits, Run};
use plan::Plan;

/// Most particles per estimation run (1 would be Knuth's classic probe).
const PARTICLES: usize = 4096;

/// Most particle-cells (particles × cells) per estimation run, to bound memory.
const PARTICLE_CELLS: usize = 1 << 22;

/// Most estimation runs per order.
const MAX_RUNS: u64 = 4;

/// Wall-clock budget of all the estimates together, in seconds (at most a
/// tenth of the time limit).
const ESTIMATE_SECONDS: f64 = 0.5;

/// Which fill order to use.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum OrderChoice {
    /// The order with the smallest estimated tree (with two threads, also the
    /// best order that starts from another corner).
    #[default]
    Auto,
    /// This order.
    Fixed(Order),
}

impl fmt::Display for OrderChoice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OrderChoice::Auto => f.write_str("auto"),
            OrderChoice::Fixed(order) => order.fmt(f),
        }
    }
}

impl FromStr for OrderChoice {
    type Err = String;

    /// `auto` or an order name such as `row-scan` or `corner-square-nw-t`.
    fn from_str(s: &str) -> Result<OrderChoice, String> {
        if s == "auto" { Ok(OrderChoice::Auto) } else { s.parse().map(OrderChoice::Fixed) }
    }
}

/// How to run the search.
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    /// The fill order, or automatic choice.
    pub order: OrderChoice,
    /// 0 tries candidates in table order (by piece, then rotation); any other
    /// value permutes every candidate list once, keeping the search complete.
    /// Also seeds the estimator's probes.
    pub seed: u64,
    /// Wall-clock limit in seconds, estimation included.
    pub time_limit: Option<f64>,
    /// Stop each search thread after about this many placements.
    pub node_limit: Option<u64>,
    /// 1 or 2 (larger values count as 2). With 2, two orders run on two
    /// threads and the first to finish stops the other: with automatic choice
    /// the best order and the best one leaning on a different corner; with a
    /// fixed order, that order twice, the second with its candidate lists
    /// permuted by `seed + 1`.
    pub threads: usize,
    /// Print each order's estimate and the choice to stderr.
    pub explain: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options { order: OrderChoice::Auto, seed: 0, time_limit: None, node_limit: None, threads: 1, explain: false }
    }
}

/// Counters of a search.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct Stats {
    /// Placements made by the search threads, summed (estimation probes not counted).
    pub nodes: u64,
    /// Wall-clock seconds, estimation included.
    pub seconds: f64,
    /// Most cells filled at once by any thread, clues included.
    pub best_placed: usize,
    /// The order of the thread that finished (or got deepest).
    pub order: String,
    /// Estimated tree size (nodes) of each order, when estimates were made.
    pub estimates: Vec<(String, f64)>,
}

/// What [`solve`] returns.
#[derive(Clone, Debug, PartialEq)]
pub struct Answer {
    /// How the search ended.
    pub status: Status,
    /// The full board when solved, else the deepest partial board seen (no
    /// mismatched joins); `None` only when the clues themselves conflict.
    pub board: Option<Board>,
    /// Counters.
    pub stats: Stats,
}

/// Searches `instance` for a full exact-match board. `stop` is polled every
/// few thousand placements; raising it makes the search return
/// [`Status::Interrupted`] promptly.
pub fn solve(instance: &Instance, options: &Options, stop: &AtomicBool) -> Answer {
    let start = Instant::now();
    // A limit too large for the clock (or infinite) is no limit.
    let deadline = options
        .time_limit
        .and_then(|t| Duration::try_from_secs_f64(t.max(0.0)).ok())
        .and_then(|d| start.checked_add(d));
    let mut stats = Stats::default();
    let answer = |status, board, mut stats: Stats| {
        stats.seconds = start.elapsed().as_secs_f64();
        Answer { status, board, stats }
    };
    if let Some(why) = plan::clue_conflict(instance) {
        if options.explain {
            eprintln!("search: no solution: {why}");
        }
        return answer(Status::Infeasible, None, stats);
    }
    let threads = options.threads.clamp(1, 2);

    // Plans to run, best first.
    let mut plans: Vec<Plan> = Vec::new();
    if matches!(options.order, OrderChoice::Auto) || options.explain {
        let mut ranked = Vec::new();
        for (plan, est) in estimate_orders(instance, options, threads, stop) {
            let name = plan.order.name();
            if options.explain {
                eprintln!(
                    "search: {name:<20} estimate {:>10.3e} nodes ({} runs of {} particles, mean depth {:.1} of {})",
                    est.nodes(),
                    est.runs,
                    est.width,
                    est.mean_depth,
                    plan.steps.len()
                );
            }
            stats.estimates.push((name.clone(), est.nodes()));
            if let Some(board) = est.solution {
                if options.explain {
                    eprintln!("search: a probe of {name} found a solution");
                }
                stats.order = name;
                stats.best_placed = board.placed();
                return answer(Status::Solved, Some(board), stats);
            }
            ranked.push((est.ln_nodes, plan));
        }
        if stop.load(Ordering::Relaxed) {
            return answer(Status::Interrupted, Some(plan::clue_board(instance)), stats);
        }
        // Stable: ties keep the listing order. The runner-up is the best order
        // leaning on another corner: orders from the same corner differ only
        // in tie-breaks and would search nearly the same tree.
        ranked.sort_by(|a, b| a.0.total_cmp(&b.0));
        plans = ranked.into_iter().map(|(_, plan)| plan).collect();
        if let Some(second) = plans.iter().skip(1).position(|p| p.order.corner() != plans[0].order.corner()) {
            plans.swap(1, second + 1);
        }
    }
    if let OrderChoice::Fixed(order) = options.order {
        plans = vec![Plan::new(instance, order, options.seed)];
        if threads == 2 {
            plans.push(Plan::new(instance, order, options.seed.wrapping_add(1)));
        }
    }
    plans.truncate(threads);
    if options.explain {
        let names: Vec<String> = plans.iter().map(|p| p.order.name()).collect();
        eprintln!("search: running {}", names.join(" and "));
    }

    let limits = Limits { deadline, node_limit: options.node_limit };
    let cancel = AtomicBool::new(false);
    let runs: Vec<Run> = if plans.len() == 1 {
        vec![engine::run(&plans[0], &limits, stop, &cancel)]
    } else {
        std::thread::scope(|scope| {
            let handles: Vec<_> = plans
                .iter()
                .map(|plan| {
                    let (limits, cancel) = (&limits, &cancel);
                    scope.spawn(move || {
                        let run = engine::run(plan, limits, stop, cancel);
                        if matches!(run.end, End::Solved | End::Exhausted) {
                            cancel.store(true, Ordering::Relaxed);
                        }
                        run
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().expect("search thread panicked")).collect()
        })
    };

    stats.nodes = runs.iter().map(|r| r.nodes).sum();
    stats.best_placed = runs.iter().map(|r| r.best_placed).max().unwrap_or(0);
    let finished = runs.iter().position(|r| matches!(r.end, End::Solved | End::Exhausted));
    let deepest = (0..runs.len()).max_by_key(|&i| (runs[i].best_placed, usize::MAX - i)).unwrap_or(0);
    let winner = finished.unwrap_or(deepest);
    stats.order = plans[winner].order.name();
    let status = match runs[winner].end {
        End::Solved => Status::Solved,
        End::Exhausted => Status::Infeasible,
        _ if runs.iter().any(|r| r.end == End::Stopped) => Status::Interrupted,
        _ => Status::Unknown,
    };
    let board = runs.into_iter().nth(winner).map(|r| r.board);
    answer(status, board, stats)
}

/// Estimates every order (on `threads` threads, orders dealt in turn), within
/// the estimation budget. Returns (plan, estimate) in listing order; the list
/// stops short when `stop` is raised or a particle fills the board (the one
/// that did is then in the list).
fn estimate_orders(
    instance: &Instance,
    options: &Options,
    threads: usize,
    stop: &AtomicBool,
) -> Vec<(Plan, estimate::Estimate)> {
    let orders = Order::all();
    let budget = ESTIMATE_SECONDS.min(options.time_limit.map_or(f64::INFINITY, |t| t / 10.0)).max(0.0);
    let per_order = Duration::from_secs_f64(budget * threads as f64 / orders.len() as f64);
    let width = PARTICLES.min(PARTICLE_CELLS / instance.grid.cells().max(1)).max(1);
    let found = AtomicBool::new(false);
    let share = |first: usize| {
        let mut done = Vec::new();
        for (k, &order) in orders.iter().enumerate().skip(first).step_by(threads) {
            if stop.load(Ordering::Relaxed) || found.load(Ordering::Relaxed) {
                break;
            }
            let plan = Plan::new(instance, order, options.seed);
            let seed = options.seed.wrapping_add(k as u64);
            let est = estimate::estimate(&plan, width, MAX_RUNS, Instant::now() + per_order, seed, &[stop, &found]);
            if est.solution.is_some() {
                found.store(true, Ordering::Relaxed);
            }
            done.push((k, plan, est));
        }
        done
    };
    let mut all: Vec<(usize, Plan, estimate::Estimate)> = if threads == 1 {
        share(0)
    } else {
        std::thread::scope(|scope| {
            let handles: Vec<_> = (0..threads).map(|t| scope.spawn(move || share(t))).collect();
            handles.into_iter().flat_map(|h| h.join().expect("estimation thread panicked")).collect()
        })
    };
    all.sort_by_key(|&(k, _, _)| k);
    if let Some(at) = all.iter().position(|(_, _, est)| est.solution.is_some()) {
        all.truncate(at + 1);
    }
    all.into_iter().map(|(_, plan, est)| (plan, est)).collect()
}

#[cfg(test)]
mod tests;
