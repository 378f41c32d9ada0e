//! The fast native backtracking search: complete, exact-match, over a chosen fill order.
//!
//! [`solve`] fills the free cells of an instance in one of several fill orders
//! ([`Order`]), never placing a piece that mismatches a placed neighbour, a
//! clue or the rim. Each order is compiled into a plan of per-cell candidate
//! tables (`plan.rs`) walked by an explicit-stack engine (`engine.rs`). With
//! [`OrderChoice::Auto`] the order is chosen by a random-probe estimate of each
//! order's tree size (Knuth's estimator carried by a population of resampled
//! probes, `estimate.rs`). Two threads share the chosen order's tree, claiming
//! its subtrees one at a time ([`Parallel::Split`]), or race two orders.
//!
//! The search is complete: candidates are tried in a fixed order (permuted
//! once by a non-zero seed), with no restarts, so an exhausted tree proves the
//! instance has no solution.

mod chain;
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

/// The split level is the first depth with at least this many estimated
/// nodes: enough subtrees to keep two threads busy to the end.
const SPLIT_SUBTREES: f64 = 4096.0;

/// How many times smaller the strip test must make the estimated tree for
/// [`StripTest::Auto`] to use it. Measured on one thread (results/reach): it
/// walks 4.3 times fewer nodes and runs 1.45 times faster on 15x15 5+26
/// boards, 1.6 times fewer and 0.85 times as fast on 12x12 5+17 boards.
pub const STRIP_TEST_GAIN: f64 = 2.5;

/// Wall-clock budget of all the estimates together, in seconds (at most a
/// tenth of the time limit).
const ESTIMATE_SECONDS: f64 = 0.5;

/// How two search threads share the work.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Parallel {
    /// Both walk the best order's tree, claiming its subtrees at a shallow
    /// depth one at a time: the tree is searched once, twice as fast.
    #[default]
    Split,
    /// Each walks its own order (the two best by estimate, from different
    /// corners; a fixed order twice with different candidate orders), and the
    /// first to finish stops the other.
    Race,
}

impl fmt::Display for Parallel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Parallel::Split => "split",
            Parallel::Race => "race",
        })
    }
}

impl FromStr for Parallel {
    type Err = String;

    fn from_str(s: &str) -> Result<Parallel, String> {
        match s {
            "split" => Ok(Parallel::Split),
            "race" => Ok(Parallel::Race),
            _ => Err(format!("unknown parallel mode {s:?} (split or race)")),
        }
    }
}

/// Whether to test, at the first cell of each strip, that the strip can
/// still be completed (see `chain.rs`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum StripTest {
    /// When the estimator says it shrinks the chosen order's tree at least
    /// [`STRIP_TEST_GAIN`] times (below that, its cost outweighs the nodes it saves).
    #[default]
    Auto,
    /// Always.
    On,
    /// Never.
    Off,
}

impl fmt::Display for StripTest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            StripTest::Auto => "auto",
            StripTest::On => "on",
            StripTest::Off => "off",
        })
    }
}

impl FromStr for StripTest {
    type Err = String;

    fn from_str(s: &str) -> Result<StripTest, String> {
        match s {
            "auto" => Ok(StripTest::Auto),
            "on" => Ok(StripTest::On),
            "off" => Ok(StripTest::Off),
            _ => Err(format!("unknown strip test {s:?} (auto, on or off)")),
        }
    }
}

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
    /// 1 or 2 (larger values count as 2); with 2, see [`Parallel`].
    pub threads: usize,
    /// Print each order's estimate and the choice to stderr.
    pub explain: bool,
    /// How two threads share the work.
    pub parallel: Parallel,
    /// Whether strips are tested for completion before they are walked.
    pub strips: StripTest,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            order: OrderChoice::Auto,
            seed: 0,
            time_limit: None,
            node_limit: None,
            threads: 1,
            explain: false,
            parallel: Parallel::Split,
            strips: StripTest::Auto,
        }
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
    /// Whether the strips were tested for completion (see [`StripTest`]).
    pub strip_test: bool,
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

    // Plans to run, best first, with the estimate of the first when made.
    let mut plans: Vec<Plan> = Vec::new();
    let mut best_estimate = None;
    let build = |order: Order, seed: u64| {
        let plan = Plan::new(instance, order, seed);
        if options.strips == StripTest::Off { plan.without_chains() } else { plan }
    };
    if matches!(options.order, OrderChoice::Auto) || options.explain {
        let mut ranked = Vec::new();
        for (plan, est) in estimate_orders(instance, options, threads, &build, stop) {
            let name = plan.order.name();
            if options.explain {
                let (peak_depth, peak) = est.peak();
                eprintln!(
                    "search: {name:<20} estimate {:>10.3e} nodes, widest level {:.1e} at depth {peak_depth} ({} runs of {} particles, mean depth {:.1} of {})",
                    est.nodes(),
                    peak,
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
            ranked.push((est, plan));
        }
        if stop.load(Ordering::Relaxed) {
            return answer(Status::Interrupted, Some(plan::clue_board(instance)), stats);
        }
        // Stable: ties keep the listing order. The runner-up is the best order
        // leaning on another corner: orders from the same corner differ only
        // in tie-breaks and would search nearly the same tree.
        ranked.sort_by(|a, b| a.0.ln_nodes.total_cmp(&b.0.ln_nodes));
        if let Some(second) = ranked.iter().skip(1).position(|p| p.1.order.corner() != ranked[0].1.order.corner()) {
            ranked.swap(1, second + 1);
        }
        best_estimate = ranked.first().map(|(est, _)| est.clone());
        plans = ranked.into_iter().map(|(_, plan)| plan).collect();
    }
    if let OrderChoice::Fixed(order) = options.order {
        plans = vec![build(order, options.seed)];
        best_estimate = None;
        if threads == 2 && options.parallel == Parallel::Race {
            plans.push(build(order, options.seed.wrapping_add(1)));
        }
    }
    let quick_estimate = |plan: &Plan| {
        let budget = Instant::now() + Duration::from_secs_f64(ESTIMATE_SECONDS / 8.0);
        estimate::estimate(plan, particle_width(instance), 1, budget, options.seed, &[stop])
    };
    stats.strip_test = plans[0].chains.is_active();
    if options.strips == StripTest::Auto && stats.strip_test {
        // Keep the strip test only where it pays: compare the chosen order's
        // estimated tree with and without it.
        let with = best_estimate.take().unwrap_or_else(|| quick_estimate(&plans[0]));
        let bare = quick_estimate(&plans[0].clone().without_chains());
        stats.strip_test = with.ln_nodes + STRIP_TEST_GAIN.ln() <= bare.ln_nodes;
        if options.explain {
            eprintln!(
                "search: strip test {} ({:.3e} nodes with it, {:.3e} without)",
                if stats.strip_test { "on" } else { "off" },
                with.nodes(),
                bare.nodes()
            );
        }
        if stats.strip_test {
            best_estimate = Some(with);
        } else {
            plans = plans.into_iter().map(Plan::without_chains).collect();
            best_estimate = Some(bare);
        }
    }
    let split = (threads == 2 && options.parallel == Parallel::Split).then(|| {
        plans.truncate(1);
        let ln_levels = best_estimate.map_or_else(|| quick_estimate(&plans[0]).ln_levels, |e| e.ln_levels);
        engine::Split::new(split_level(&ln_levels, plans[0].steps.len()))
    });
    plans.truncate(threads);
    if options.explain {
        let names: Vec<String> = plans.iter().map(|p| p.order.name()).collect();
        match &split {
            Some(split) => eprintln!(
                "search: running {} on {threads} threads, sharing the subtrees at depth {}",
                names[0], split.level
            ),
            None => eprintln!("search: running {}", names.join(" and ")),
        }
    }

    let limits = Limits { deadline, node_limit: options.node_limit };
    let cancel = AtomicBool::new(false);
    // (plan index, run) of each thread.
    let runs: Vec<(usize, Run)> = if threads == 1 {
        vec![(0, engine::run(&plans[0], &limits, stop, &cancel, None))]
    } else {
        std::thread::scope(|scope| {
            let handles: Vec<_> = (0..threads)
                .map(|t| {
                    let index = if split.is_some() { 0 } else { t };
                    let (plan, limits, cancel, split) = (&plans[index], &limits, &cancel, split.as_ref());
                    scope.spawn(move || {
                        let run = engine::run(plan, limits, stop, cancel, split);
                        // A thread that exhausted its share of a split tree
                        // proves nothing alone: the others go on.
                        if run.end == End::Solved || (run.end == End::Exhausted && split.is_none()) {
                            cancel.store(true, Ordering::Relaxed);
                        }
                        (index, run)
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().expect("search thread panicked")).collect()
        })
    };

    stats.nodes = runs.iter().map(|(_, r)| r.nodes).sum();
    stats.best_placed = runs.iter().map(|(_, r)| r.best_placed).max().unwrap_or(0);
    let solved = runs.iter().position(|(_, r)| r.end == End::Solved);
    let exhausted = if split.is_some() {
        runs.iter().all(|(_, r)| r.end == End::Exhausted).then_some(0)
    } else {
        runs.iter().position(|(_, r)| r.end == End::Exhausted)
    };
    let deepest = (0..runs.len()).max_by_key(|&i| (runs[i].1.best_placed, usize::MAX - i)).unwrap_or(0);
    let winner = solved.or(exhausted).unwrap_or(deepest);
    stats.order = plans[runs[winner].0].order.name();
    let status = if solved.is_some() {
        Status::Solved
    } else if exhausted.is_some() {
        Status::Infeasible
    } else if runs.iter().any(|(_, r)| r.end == End::Stopped) {
        Status::Interrupted
    } else {
        Status::Unknown
    };
    let board = runs.into_iter().nth(winner).map(|(_, r)| r.board);
    answer(status, board, stats)
}

/// Particles per estimation run on `instance`: at most [`PARTICLES`], and
/// at most [`PARTICLE_CELLS`] particle-cells.
fn particle_width(instance: &Instance) -> usize {
    PARTICLES.min(PARTICLE_CELLS / instance.grid.cells().max(1)).max(1)
}

/// The depth at which two threads share a plan's subtrees: the first with at
/// least [`SPLIT_SUBTREES`] estimated nodes (the deepest the estimate reached
/// when none has), between 1 and `steps`.
fn split_level(ln_levels: &[f64], steps: usize) -> usize {
    let first = ln_levels.iter().position(|&l| l >= SPLIT_SUBTREES.ln()).unwrap_or(ln_levels.len().saturating_sub(1));
    (first + 1).clamp(1, steps.max(1))
}

/// Estimates every order (on `threads` threads, orders dealt in turn), within
/// the estimation budget. Returns (plan, estimate) in listing order; the list
/// stops short when `stop` is raised or a particle fills the board (the one
/// that did is then in the list).
fn estimate_orders(
    instance: &Instance,
    options: &Options,
    threads: usize,
    build: &(dyn Fn(Order, u64) -> Plan + Sync),
    stop: &AtomicBool,
) -> Vec<(Plan, estimate::Estimate)> {
    let orders = Order::all();
    let budget = ESTIMATE_SECONDS.min(options.time_limit.map_or(f64::INFINITY, |t| t / 10.0)).max(0.0);
    let per_order = Duration::from_secs_f64(budget * threads as f64 / orders.len() as f64);
    let width = particle_width(instance);
    let found = AtomicBool::new(false);
    let share = |first: usize| {
        let mut done = Vec::new();
        for (k, &order) in orders.iter().enumerate().skip(first).step_by(threads) {
            if stop.load(Ordering::Relaxed) || found.load(Ordering::Relaxed) {
                break;
            }
            let plan = build(order, options.seed);
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
