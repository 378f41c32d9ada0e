//! The fast native backtracking search: complete, exact-match, over a chosen fill order.
//!
//! [`solve`] fills the free cells of an instance in one of several fill orders
//! ([`Order`]), never placing a piece that mismatches a placed neighbour, a
//! clue or the rim. Each order is compiled into a plan of per-cell candidate
//! tables (`plan.rs`) walked by an explicit-stack engine (`engine.rs`). With
//! [`OrderChoice::Auto`] the order is chosen by a random-probe estimate of each
//! order's tree size (Knuth's estimator carried by a population of resampled
//! probes, `estimate.rs`). Any number of threads share the chosen order's
//! tree, each claiming its next subtree from one counter ([`Parallel::Split`]),
//! or race as many orders ([`Parallel::Race`]).
//!
//! The search is complete: candidates are tried in a fixed order (permuted
//! once by a non-zero seed), with no restarts, so an exhausted tree proves the
//! instance has no solution.

pub mod band;
mod chain;
mod ending;
mod engine;
mod estimate;
mod options;
mod order;
mod plan;
mod step;

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use engine::{Bounds, End, Run};
use estimate::Estimate;
use log::info;
pub use options::{LookAhead, Options, OrderChoice, Parallel, Stats, StripTest};
pub use order::{Corner, Order};
use plan::Plan;

use crate::outcome::{Limits, Outcome, Status};
use crate::puzzle::{Board, Instance};
use crate::stop::Stop;

/// The threads the search runs when given `requested` (0 or more): as many, at least one.
/// Nothing caps it: threads that split one tree share only the counter of its
/// next subtree (one atomic add per subtree), and racing threads share nothing
/// but the flag that stops them.
pub fn threads(requested: u32) -> usize {
    requested.max(1) as usize
}

/// Most particles per estimation run (1 would be Knuth's classic probe).
const PARTICLES: usize = 4096;

/// Most particle-cells (particles × cells) per estimation run, to bound memory.
const PARTICLE_CELLS: usize = 1 << 22;

/// Most estimation runs per order.
const MAX_RUNS: u64 = 4;

/// The split level is the first depth with at least this many estimated
/// nodes per thread: enough subtrees to keep every thread busy to the end
/// (4096 for two threads, as measured in results/reach).
const SPLIT_SUBTREES_PER_THREAD: f64 = 2048.0;

/// How many times smaller the strip test must make the estimated tree for
/// [`StripTest::Auto`] to use it. Measured on one thread (results/reach): it
/// walks 4.3 times fewer nodes and runs 1.45 times faster on 15x15 5+26
/// boards, 1.6 times fewer and 0.85 times as fast on 12x12 5+17 boards.
pub const STRIP_TEST_GAIN: f64 = 2.5;

/// Work budget of the estimate of one order: particles expanded, summed over
/// depths and runs (one run on a 16x16 5+26 board expands about 170,000, so
/// this is about three). In work, not time, so that a seed gives the same
/// choice of order on any machine and under any load. The 18 orders at this
/// budget, with the strip test's check, take 0.8-1.2 s on two threads on the
/// planted 16x16 5+26 boards (results/reach).
pub const ESTIMATE_WORK: u64 = 1 << 19;

/// Seconds of time limit below which the estimates' work shrinks in
/// proportion (they then take about a tenth of the limit).
const ESTIMATE_FULL_LIMIT: f64 = 5.0;

/// Searches `instance` for a full exact-match board within `limits` (the node
/// limit counts each thread's placements). `stop` is polled every few thousand
/// placements; raising it makes the search return [`Status::Interrupted`]
/// promptly. The board is the full board when solved, else the deepest partial
/// board seen (no mismatched joins); `None` only when the clues conflict.
///
/// The phases: rank the orders by estimate (or take the fixed one), decide the
/// strip test, run the threads, merge their runs.
pub fn solve(instance: &Instance, options: &Options, limits: &Limits, stop: &Stop) -> Outcome<Stats> {
    let start = Instant::now();
    let finish = |status, board, mut stats: Stats| {
        stats.seconds = start.elapsed().as_secs_f64();
        Outcome { status, board, seconds: stats.seconds, stats }
    };
    let mut stats = Stats::default();
    if let Some(why) = plan::clue_conflict(instance) {
        info!(target: "search", "no solution: {why}");
        return finish(Status::Infeasible, None, stats);
    }
    let run = Setup { instance, options, seed: limits.seed, threads: threads(limits.threads), stop: stop.flag() };
    let mut chosen = match run.choose_plans(limits.time_limit, &mut stats) {
        Choice::Plans(chosen) => chosen,
        Choice::Solved(board) => return finish(Status::Solved, Some(board), stats),
        Choice::Stopped => return finish(Status::Interrupted, Some(instance.clue_board()), stats),
    };
    stats.strip_test = run.decide_strip_test(&mut chosen);
    let split = run.share(&mut chosen);
    // A limit too large for the clock (or infinite) is no limit.
    let deadline =
        limits.time_limit.and_then(|t| Duration::try_from_secs_f64(t.max(0.0)).ok()).and_then(|d| start.checked_add(d));
    let bounds = Bounds { deadline, node_limit: limits.node_limit };
    let runs = run.run_threads(&chosen.plans, split.as_ref(), &bounds);
    let (status, board) = merge(runs, &chosen.plans, split.is_some(), &mut stats);
    finish(status, board, stats)
}

/// The fill order whose exact tree the estimator finds smallest on `instance`
/// (within half a second, or a tenth of the time limit), for searches that walk
/// another tree over the same order (the score search). `None` when the clues
/// conflict or the stop is raised first.
pub fn best_order(instance: &Instance, limits: &Limits, stop: &Stop) -> Option<Order> {
    if plan::clue_conflict(instance).is_some() {
        return None;
    }
    let options = Options::default();
    let run =
        Setup { instance, options: &options, seed: limits.seed, threads: threads(limits.threads), stop: stop.flag() };
    let ranked = run.estimate_orders(limits.time_limit);
    if stop.is_raised() {
        return None;
    }
    ranked.into_iter().min_by(|a, b| a.1.ln_nodes.total_cmp(&b.1.ln_nodes)).map(|(plan, _)| plan.order)
}

/// The estimated number of nodes of `order`'s tree on `instance` with the
/// strip test and the look-ahead off: the tree `solve --order ORDER
/// --strip-test off --look-ahead off` walks,
/// estimated with one order's full work budget and `seed`. 0 when the clues
/// conflict (that tree is empty: `solve` answers without a node).
pub fn estimate_tree(instance: &Instance, order: Order, seed: u64) -> f64 {
    if plan::clue_conflict(instance).is_some() {
        return 0.0;
    }
    let plan = Plan::new(instance, order, seed).without_chains().without_watches();
    let go = AtomicBool::new(false);
    estimate::estimate(&plan, particle_width(instance), MAX_RUNS, ESTIMATE_WORK, seed, &[&go]).nodes()
}

/// What every phase of one [`solve`] reads.
struct Setup<'a> {
    instance: &'a Instance,
    options: &'a Options,
    seed: u64,
    threads: usize,
    stop: &'a AtomicBool,
}

/// The plans to run, best first, with the estimate of the first when made.
struct Chosen {
    plans: Vec<Plan>,
    estimate: Option<Estimate>,
}

/// How the choice of plans ended.
enum Choice {
    Plans(Chosen),
    /// A probe of the estimator filled the board.
    Solved(Board),
    /// The stop was raised while estimating.
    Stopped,
}

impl Setup<'_> {
    /// The plan of `order`, its candidates permuted by `seed`, without strip
    /// tests when they are off.
    fn build(&self, order: Order, seed: u64) -> Plan {
        let mut plan = Plan::new(self.instance, order, seed);
        if self.options.look_ahead == LookAhead::Off {
            plan = plan.without_watches();
        }
        if self.options.strips == StripTest::Off { plan.without_chains() } else { plan }
    }

    /// Ranks the orders by estimate (when automatic or explained) and picks the
    /// plans: the best order, and the best order from another corner for a
    /// race; a fixed order once, or twice with two candidate orders for a race.
    fn choose_plans(&self, time_limit: Option<f64>, stats: &mut Stats) -> Choice {
        let mut chosen = Chosen { plans: Vec::new(), estimate: None };
        if matches!(self.options.order, OrderChoice::Auto) || self.options.explain {
            let mut ranked = Vec::new();
            for (plan, est) in self.estimate_orders(time_limit) {
                let name = plan.order.name();
                let (peak_depth, peak) = est.peak();
                info!(
                    target: "search",
                    "{name:<20} estimate {:>10.3e} nodes, widest level {:.1e} at depth {peak_depth} ({} runs of {} particles, {} expanded, mean depth {:.1} of {})",
                    est.nodes(),
                    peak,
                    est.runs,
                    est.width,
                    est.work,
                    est.mean_depth,
                    plan.steps.len()
                );
                stats.estimates.push((name.clone(), est.nodes()));
                if let Some(board) = est.solution {
                    info!(target: "search", "a probe of {name} found a solution");
                    stats.order = name;
                    stats.best_placed = board.placed();
                    return Choice::Solved(board);
                }
                ranked.push((est, plan));
            }
            if self.stop.load(Ordering::Relaxed) {
                return Choice::Stopped;
            }
            // Stable: ties keep the listing order. The runner-up is the best order
            // leaning on another corner: orders from the same corner differ only
            // in tie-breaks and would search nearly the same tree.
            ranked.sort_by(|a, b| a.0.ln_nodes.total_cmp(&b.0.ln_nodes));
            if let Some(second) = ranked.iter().skip(1).position(|p| p.1.order.corner() != ranked[0].1.order.corner()) {
                ranked.swap(1, second + 1);
            }
            chosen.estimate = ranked.first().map(|(est, _)| est.clone());
            chosen.plans = ranked.into_iter().map(|(_, plan)| plan).collect();
        }
        if let OrderChoice::Fixed(order) = self.options.order {
            chosen.plans = vec![self.build(order, self.seed)];
            chosen.estimate = None;
            if self.options.parallel == Parallel::Race {
                for t in 1..self.threads {
                    chosen.plans.push(self.build(order, self.seed.wrapping_add(t as u64)));
                }
            }
        }
        Choice::Plans(chosen)
    }

    /// A shorter estimate of one plan (half an order's work budget: two runs
    /// on a 16x16 board, where one run alone can tip the strip test's choice).
    fn quick_estimate(&self, plan: &Plan) -> Estimate {
        estimate::estimate(plan, particle_width(self.instance), MAX_RUNS, ESTIMATE_WORK / 2, self.seed, &[self.stop])
    }

    /// Whether the chosen plans keep the strip test: always when on (and the
    /// order has strips), never when off; when automatic, only where the
    /// estimate says it shrinks the tree [`STRIP_TEST_GAIN`] times. The plans
    /// and their estimate follow the decision.
    fn decide_strip_test(&self, chosen: &mut Chosen) -> bool {
        let active = chosen.plans[0].chains.is_active();
        if self.options.strips != StripTest::Auto || !active {
            return active;
        }
        let with = chosen.estimate.take().unwrap_or_else(|| self.quick_estimate(&chosen.plans[0]));
        let bare = self.quick_estimate(&chosen.plans[0].clone().without_chains());
        let keep = with.ln_nodes + STRIP_TEST_GAIN.ln() <= bare.ln_nodes;
        info!(
            target: "search",
            "strip test {} ({:.3e} nodes with it, {:.3e} without)",
            if keep { "on" } else { "off" },
            with.nodes(),
            bare.nodes()
        );
        if keep {
            chosen.estimate = Some(with);
        } else {
            chosen.plans = std::mem::take(&mut chosen.plans).into_iter().map(Plan::without_chains).collect();
            chosen.estimate = Some(bare);
        }
        keep
    }

    /// How the threads share the work: with several threads splitting one tree,
    /// the depth at which they claim its subtrees (the plans cut to the best
    /// one); else `None`, and one plan per thread (fewer plans than threads:
    /// the last threads run the best plans again under other seeds).
    fn share(&self, chosen: &mut Chosen) -> Option<engine::Split> {
        let split = (self.threads >= 2 && self.options.parallel == Parallel::Split).then(|| {
            chosen.plans.truncate(1);
            let ln_levels = match chosen.estimate.take() {
                Some(estimate) => estimate.ln_levels,
                None => self.quick_estimate(&chosen.plans[0]).ln_levels,
            };
            engine::Split::new(split_level(&ln_levels, chosen.plans[0].steps.len(), self.threads))
        });
        chosen.plans.truncate(self.threads);
        if split.is_none() {
            self.fill_race(&mut chosen.plans);
        }
        let names: Vec<String> = chosen.plans.iter().map(|p| p.order.name()).collect();
        match &split {
            Some(split) => info!(
                target: "search",
                "running {} on {} threads, sharing the subtrees at depth {}",
                names[0],
                self.threads,
                split.level
            ),
            None => info!(target: "search", "running {}", names.join(" and ")),
        }
        split
    }

    /// Tops `plans` up to one per thread for a race: the best plans again,
    /// their candidates permuted by further seeds (a thread never repeats another's walk).
    fn fill_race(&self, plans: &mut Vec<Plan>) {
        let distinct = plans.len();
        for t in distinct..self.threads {
            let order = plans[t % distinct.max(1)].order;
            plans.push(self.build(order, self.seed.wrapping_add(t as u64)));
        }
    }

    /// Runs the plans, one thread each (or every thread on the one plan when
    /// `split`), until one solves or every one ends; returns (plan index, run)
    /// per thread.
    fn run_threads(&self, plans: &[Plan], split: Option<&engine::Split>, bounds: &Bounds) -> Vec<(usize, Run)> {
        let (stop, cancel) = (self.stop, AtomicBool::new(false));
        if self.threads == 1 {
            return vec![(0, engine::run(&plans[0], bounds, stop, &cancel, None))];
        }
        std::thread::scope(|scope| {
            let handles: Vec<_> = (0..self.threads)
                .map(|t| {
                    let index = if split.is_some() { 0 } else { t };
                    let (plan, cancel) = (&plans[index], &cancel);
                    scope.spawn(move || {
                        let run = engine::run(plan, bounds, stop, cancel, split);
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
    }

    /// Estimates every order (on the threads, orders dealt in turn), within the
    /// estimation budget. Returns (plan, estimate) in listing order; the list
    /// stops short when the stop is raised or a particle fills the board (the
    /// one that did is then in the list).
    fn estimate_orders(&self, time_limit: Option<f64>) -> Vec<(Plan, Estimate)> {
        let (threads, stop) = (self.threads, self.stop);
        let orders = Order::estimated();
        let per_order = estimate_work(time_limit);
        let width = particle_width(self.instance);
        let found = AtomicBool::new(false);
        let share = |first: usize| {
            let mut done = Vec::new();
            for (k, &order) in orders.iter().enumerate().skip(first).step_by(threads) {
                if stop.load(Ordering::Relaxed) || found.load(Ordering::Relaxed) {
                    break;
                }
                let plan = self.build(order, self.seed);
                let seed = self.seed.wrapping_add(k as u64);
                let est = estimate::estimate(&plan, width, MAX_RUNS, per_order, seed, &[stop, &found]);
                if est.solution.is_some() {
                    found.store(true, Ordering::Relaxed);
                }
                done.push((k, plan, est));
            }
            done
        };
        let mut all: Vec<(usize, Plan, Estimate)> = if threads == 1 {
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
}

/// The search's answer from its threads' runs: solved if one solved; infeasible
/// if one exhausted its tree (with a split tree, only if all did); interrupted
/// if one was stopped; else unknown. The board is the deciding thread's, or
/// the deepest one.
fn merge(runs: Vec<(usize, Run)>, plans: &[Plan], split: bool, stats: &mut Stats) -> (Status, Option<Board>) {
    stats.nodes = runs.iter().map(|(_, r)| r.nodes).sum();
    stats.best_placed = runs.iter().map(|(_, r)| r.best_placed).max().unwrap_or(0);
    let solved = runs.iter().position(|(_, r)| r.end == End::Solved);
    let exhausted = if split {
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
    (status, runs.into_iter().nth(winner).map(|(_, r)| r.board))
}

/// The estimate's work budget per order under `time_limit`: [`ESTIMATE_WORK`],
/// less in proportion below [`ESTIMATE_FULL_LIMIT`] seconds.
fn estimate_work(time_limit: Option<f64>) -> u64 {
    let share = time_limit.map_or(1.0, |t| (t / ESTIMATE_FULL_LIMIT).clamp(0.0, 1.0));
    (ESTIMATE_WORK as f64 * share) as u64
}

/// Particles per estimation run on `instance`: at most [`PARTICLES`], and
/// at most [`PARTICLE_CELLS`] particle-cells.
fn particle_width(instance: &Instance) -> usize {
    PARTICLES.min(PARTICLE_CELLS / instance.grid.cells().max(1)).max(1)
}

/// The depth at which `threads` threads share a plan's subtrees: the first with at
/// least [`SPLIT_SUBTREES_PER_THREAD`] estimated nodes per thread (the deepest
/// the estimate reached when none has), between 1 and `steps`.
fn split_level(ln_levels: &[f64], steps: usize, threads: usize) -> usize {
    let wanted = (SPLIT_SUBTREES_PER_THREAD * threads.max(2) as f64).ln();
    let first = ln_levels.iter().position(|&l| l >= wanted).unwrap_or(ln_levels.len().saturating_sub(1));
    (first + 1).clamp(1, steps.max(1))
}

#[cfg(test)]
mod tests;
