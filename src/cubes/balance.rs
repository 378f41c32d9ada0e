//! Array tasks of balanced work: a split's cubes weighed by the estimator,
//! the heaviest cut again, then dealt to tasks.
//!
//! A breadth-first split gives cubes of equal depth, not of equal work: on a
//! 13×13 board one prefix of the rim row can hold a thousand times the tree
//! of another, and an array job waits for its largest task. Here each cube is
//! weighed by [`search::estimate_tree`] (Knuth's estimator on the cube's
//! sub-instance, along the split's own order with the strip test off: the tree
//! that `solve --order ORDER --strip-test off` walks on the cube), and the
//! heaviest cube is replaced by its children (every consistent placement of
//! the order's next free cell, exactly as the split expands a prefix, so the
//! cover stays exact) until none weighs more than half a task's share of the
//! whole, or a cut would exceed the most cubes asked for (at most
//! [`MAX_CUBES`]), or the heaviest cube has no free cell left to fix. Then
//! the cubes are dealt to the tasks heaviest first, each to the task with the
//! least work so far (Graham's LPT rule): no task then holds more than its
//! share plus one cube, 1.5 times the mean at most.
//!
//! Cubes themselves cannot be made even: cutting one multiplies it into about
//! as many children as its next cell has candidates (8 on a 13×13 rim), of
//! sizes as spread as their parents', so the heaviest cube stays several
//! times the mean cube however far the cutting goes. Tasks of many cubes can.
//!
//! The estimate of one cube is noisy (a few runs of a few thousand probes,
//! with a heavy upper tail), so a cube is weighed three times (each with
//! its own seed, averaged) before it may be cut. The balance holds for the
//! estimates; the measured trees are reported beside them
//! (`results/reach/cubes/`).

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use super::split::{MAX_CUBES, Prefixes, Split, with_fixed};
use crate::puzzle::{Clue, Instance};
use crate::search;

/// A split whose cubes carry their estimated trees, dealt to tasks.
#[derive(Clone, Debug)]
pub struct Balanced {
    /// The cubes, in prefix order.
    pub split: Split,
    /// Each cube's estimated tree (nodes), in cube order.
    pub estimates: Vec<f64>,
    /// Each task's cubes (0-based indices), heaviest first.
    pub tasks: Vec<Vec<usize>>,
    /// Cubes replaced by their children.
    pub cuts: usize,
    /// How the weighing went.
    pub weighing: Weighing,
}

/// The estimates a balance made and the waves they took. A batch of `b`
/// estimates weighed side by side on `threads` threads takes `⌈b / threads⌉`
/// waves, and an estimate's work is budgeted (about the same time each), so
/// on that many cores the weighing takes about `waves` estimates' time, on
/// one `made`. The waves depend on the thread count and never on the
/// machine: a run here with `threads` set to a cluster node's cores counts
/// that node's waves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Weighing {
    /// Estimates made, those made ahead and never asked for included.
    pub made: usize,
    /// Waves they were made in.
    pub waves: usize,
}

impl Balanced {
    /// Each task's estimated work (nodes).
    pub fn loads(&self) -> Vec<f64> {
        self.tasks.iter().map(|task| task.iter().map(|&i| self.estimates[i]).sum()).collect()
    }

    /// The heaviest task's estimated work over the mean task's (1 for none).
    pub fn spread(&self) -> f64 {
        let loads = self.loads();
        let mean = loads.iter().sum::<f64>() / loads.len().max(1) as f64;
        let heaviest = loads.iter().copied().fold(0.0, f64::max);
        if mean > 0.0 { heaviest / mean } else { 1.0 }
    }

    /// The estimates' sum: the tree below the cubes' prefixes.
    pub fn total(&self) -> f64 {
        self.estimates.iter().sum()
    }
}

/// What a balance aims at, and with what.
#[derive(Clone, Copy, Debug)]
pub struct Target {
    /// The array tasks the cubes are dealt to.
    pub tasks: usize,
    /// The most cubes a cut may make (at most [`MAX_CUBES`] in any case).
    pub most: usize,
    /// The seed of the estimates.
    pub seed: u64,
    /// The threads that weigh cubes side by side. Each estimate depends on
    /// its cube and seed alone, so the count changes how soon the cubes are
    /// weighed, never the cubes, their estimates or the tasks.
    pub threads: usize,
}

/// Weighs `split`'s cubes, cuts the heaviest until none weighs more than half
/// of one of the target's equal shares or a cut would make more than its
/// `most` cubes, and deals the cubes to its tasks (see the module's notes);
/// `progress` is called every few seconds with the cube count and the
/// heaviest cube over a task's share.
pub fn balance(instance: &Instance, split: Split, target: Target, progress: &mut dyn FnMut(usize, f64)) -> Balanced {
    let tasks = target.tasks.max(1);
    let mut scale = Scale::new(instance, split, target);
    if let Some(prefixes) = Prefixes::new(instance, scale.split.order) {
        let mut shown = Instant::now();
        while scale.heaviest_over_share(tasks) > MOST_OF_A_SHARE {
            scale.weigh_ahead(&prefixes, tasks);
            let heaviest = heaviest_index(&scale.estimates);
            if scale.looks[heaviest] < LOOKS {
                // Weigh again before cutting: the heaviest estimate is the likeliest to be noise.
                scale.weigh_again(heaviest);
            } else if !scale.cut(&prefixes, heaviest, target.most.min(MAX_CUBES)) {
                break;
            }
            if shown.elapsed() >= Duration::from_secs(5) {
                progress(scale.split.cubes.len(), scale.heaviest_over_share(tasks));
                shown = Instant::now();
            }
        }
    }
    let tasks = deal(&scale.estimates, tasks);
    Balanced { split: scale.split, estimates: scale.estimates, tasks, cuts: scale.cuts, weighing: scale.weighing }
}

/// The cubes on the scale: each one's estimate and how many times it was
/// weighed, and the estimates made ahead of the loop's asking.
struct Scale<'a> {
    instance: &'a Instance,
    seed: u64,
    threads: usize,
    split: Split,
    estimates: Vec<f64>,
    looks: Vec<u64>,
    cuts: usize,
    ahead: HashMap<Look, f64>,
    weighing: Weighing,
}

/// One estimate to make: a cube, and which of its looks (each its own seed).
type Look = (Vec<Clue>, u64);

impl<'a> Scale<'a> {
    fn new(instance: &'a Instance, split: Split, target: Target) -> Scale<'a> {
        let (seed, threads) = (target.seed, target.threads.max(1));
        let mut scale = Scale {
            instance,
            seed,
            threads,
            split,
            estimates: Vec::new(),
            looks: Vec::new(),
            cuts: 0,
            ahead: HashMap::new(),
            weighing: Weighing::default(),
        };
        let first: Vec<Look> = scale.split.cubes.iter().map(|cube| (cube.clone(), 0)).collect();
        scale.estimates = scale.weigh_all(&first);
        scale.looks = vec![1; scale.estimates.len()];
        scale
    }

    /// The estimates `looks` ask for, in their order, made on the scale's
    /// threads, each taking the next one not begun (the cubes' trees differ a
    /// thousandfold, so a fixed share each would leave threads idle).
    fn weigh_all(&mut self, looks: &[Look]) -> Vec<f64> {
        self.weighing.made += looks.len();
        self.weighing.waves += looks.len().div_ceil(self.threads);
        let next = AtomicUsize::new(0);
        let weigh_next = || {
            let mut weighed = Vec::new();
            loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some((cube, look)) = looks.get(i) else { return weighed };
                weighed.push((i, self.weigh(cube, *look)));
            }
        };
        let weighed: Vec<(usize, f64)> = std::thread::scope(|scope| {
            let workers: Vec<_> = (0..self.threads.min(looks.len())).map(|_| scope.spawn(weigh_next)).collect();
            workers
                .into_iter()
                .flat_map(|worker| worker.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)))
                .collect()
        });
        let mut estimates = vec![0.0; looks.len()];
        for (i, estimate) in weighed {
            estimates[i] = estimate;
        }
        estimates
    }

    /// Makes ahead, side by side, what the loop will ask for next: the paths
    /// of the heaviest cubes still above half a share (see `path`),
    /// heaviest first, until there is work for every thread. Every estimate
    /// depends on its cube and look alone and the loop takes them in its own
    /// order, so the cubes come out as on one thread; a guess never taken (a
    /// cube that falls below the line first) costs time, not results.
    fn weigh_ahead(&mut self, prefixes: &Prefixes, tasks: usize) {
        let line = MOST_OF_A_SHARE * self.estimates.iter().sum::<f64>() / tasks as f64;
        let mut above: Vec<usize> = (0..self.estimates.len()).filter(|&i| self.estimates[i] > line).collect();
        above.sort_by(|&a, &b| self.estimates[b].total_cmp(&self.estimates[a]));
        let known =
            |scale: &Self, i: usize| scale.path(prefixes, i).first().is_none_or(|l| scale.ahead.contains_key(l));
        if above.first().is_none_or(|&heaviest| known(self, heaviest)) {
            return; // the loop's next step was made ahead: guess again only when it runs out
        }
        let mut wanted: Vec<Look> = Vec::new();
        for &i in &above {
            if wanted.len() >= self.threads {
                break;
            }
            let path = self.path(prefixes, i);
            wanted.extend(path.into_iter().filter(|look| !self.ahead.contains_key(look)));
        }
        let estimates = self.weigh_all(&wanted);
        self.ahead.extend(wanted.into_iter().zip(estimates));
    }

    /// What cube `i` asks for until it is cut: its remaining looks, then its
    /// children's first looks. On one thread only the first of these, so that
    /// nothing is weighed that the loop does not take.
    fn path(&self, prefixes: &Prefixes, i: usize) -> Vec<Look> {
        let cube = &self.split.cubes[i];
        let mut path: Vec<Look> = (self.looks[i]..LOOKS).map(|look| (cube.clone(), look)).collect();
        if self.threads == 1 && !path.is_empty() {
            path.truncate(1);
        } else if let Some(children) = prefixes.children(self.instance, cube) {
            path.extend(children.into_iter().map(|child| (child, 0)));
        }
        path
    }

    /// The `look`-th estimate of `cube`: the one made ahead, else made now.
    fn take(&mut self, cube: &[Clue], look: u64) -> f64 {
        match self.ahead.remove(&(cube.to_vec(), look)) {
            Some(estimate) => estimate,
            None => self.weigh_all(&[(cube.to_vec(), look)])[0],
        }
    }

    /// One estimate of `cube`'s tree, the `look`-th (each look its own seed).
    fn weigh(&self, cube: &[Clue], look: u64) -> f64 {
        let seed = self.seed.wrapping_add(look.wrapping_mul(LOOK_SEEDS));
        search::estimate_tree(&with_fixed(self.instance, cube), self.split.order, seed)
    }

    /// The heaviest cube's estimate over one of `tasks` equal shares of the whole.
    fn heaviest_over_share(&self, tasks: usize) -> f64 {
        let share = self.estimates.iter().sum::<f64>() / tasks as f64;
        let heaviest = self.estimates.iter().copied().fold(0.0, f64::max);
        if share > 0.0 { heaviest / share } else { 0.0 }
    }

    /// Averages one more estimate into cube `i`'s.
    fn weigh_again(&mut self, i: usize) {
        let again = self.take(&self.split.cubes[i].clone(), self.looks[i]);
        let n = self.looks[i] as f64;
        self.estimates[i] = (self.estimates[i] * n + again) / (n + 1.0);
        self.looks[i] += 1;
    }

    /// Replaces cube `i` by its children, weighed; false (and nothing done)
    /// when it fixes every cell or the cut would make more than `most` cubes.
    fn cut(&mut self, prefixes: &Prefixes, i: usize, most: usize) -> bool {
        let Some(children) = prefixes.children(self.instance, &self.split.cubes[i]) else { return false };
        if self.split.cubes.len() - 1 + children.len() > most {
            return false;
        }
        if children.is_empty() {
            self.split.dead_ends += 1;
        }
        let weights: Vec<f64> = children.iter().map(|child| self.take(child, 0)).collect();
        self.looks.splice(i..=i, vec![1; children.len()]);
        self.split.cubes.splice(i..=i, children);
        self.estimates.splice(i..=i, weights);
        self.cuts += 1;
        true
    }
}

/// Graham's LPT rule: the items heaviest first, each to the lightest task so far.
fn deal(weights: &[f64], tasks: usize) -> Vec<Vec<usize>> {
    let mut by_weight: Vec<usize> = (0..weights.len()).collect();
    by_weight.sort_by(|&a, &b| weights[b].total_cmp(&weights[a]));
    let mut dealt = vec![Vec::new(); tasks.min(weights.len()).max(1)];
    let mut loads = vec![0.0_f64; dealt.len()];
    for item in by_weight {
        let lightest = (0..loads.len()).min_by(|&a, &b| loads[a].total_cmp(&loads[b])).unwrap_or(0);
        dealt[lightest].push(item);
        loads[lightest] += weights[item];
    }
    dealt
}

/// The most of one task's share a cube may hold: then dealing heaviest first,
/// each to the lightest task, keeps every task within 1 + this of the mean.
const MOST_OF_A_SHARE: f64 = 0.5;

/// Estimates of a cube (each with its own seed, averaged) before it may be cut.
const LOOKS: u64 = 3;

/// How far apart the seeds of one cube's estimates are.
const LOOK_SEEDS: u64 = 0x9E37_79B9;

/// The index of the largest estimate (0 for none).
fn heaviest_index(estimates: &[f64]) -> usize {
    (0..estimates.len()).max_by(|&a, &b| estimates[a].total_cmp(&estimates[b])).unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use super::*;
    use crate::cubes::split;
    use crate::generate::{PlantedSpec, planted};

    /// A board whose first prefixes differ in weight, so a breadth-first split is unbalanced.
    fn board() -> Instance {
        planted(&PlantedSpec::square(7, 3, 5, 4)).unwrap().instance
    }

    /// `tasks` tasks, weighed on `threads` threads, seed 1.
    fn target(tasks: usize, threads: usize) -> Target {
        Target { tasks, most: MAX_CUBES, seed: 1, threads }
    }

    /// Catches weighing that depends on the threads (an estimate stored at
    /// another cube's place, or seeded by the thread that made it): a split's
    /// manifest must come out the same on a laptop and on a cluster node.
    #[test]
    fn the_thread_count_changes_nothing_but_the_time() {
        let instance = board();
        let order = "row-scan".parse().unwrap();
        let one = balance(&instance, split::split(&instance, order, 8).unwrap(), target(4, 1), &mut |_, _| {});
        let many = balance(&instance, split::split(&instance, order, 8).unwrap(), target(4, 5), &mut |_, _| {});
        assert!(one.cuts > 0, "no cut: the children's weighing went untested");
        assert_eq!(one.weighing.waves, one.weighing.made, "one thread weighs one cube a wave");
        assert!(many.weighing.waves < one.weighing.waves, "five threads weighed no two cubes at once");
        assert_eq!(one.split.cubes, many.split.cubes);
        assert_eq!(one.estimates, many.estimates);
        assert_eq!(one.tasks, many.tasks);
    }

    /// Catches a balance that stops cutting early or deals cubes badly: with
    /// the cubes cut to half a share, LPT keeps every task within 1.5x the mean.
    #[test]
    fn no_task_holds_more_than_one_and_a_half_times_the_mean() {
        let instance = board();
        let order = "row-scan".parse().unwrap();
        let plain = split::split(&instance, order, 8).unwrap();
        let balanced = balance(&instance, plain, target(4, 2), &mut |_, _| {});
        assert!(balanced.cuts > 0, "the breadth-first cubes were already light: pick another board");
        assert_eq!(balanced.estimates.len(), balanced.split.cubes.len());
        let mut dealt: Vec<usize> = balanced.tasks.iter().flatten().copied().collect();
        dealt.sort_unstable();
        assert_eq!(dealt, (0..balanced.split.cubes.len()).collect::<Vec<_>>(), "every cube in one task");
        assert_eq!(balanced.tasks.len(), 4);
        assert!(balanced.spread() <= 1.5, "spread {} after {} cuts", balanced.spread(), balanced.cuts);
    }

    /// Catches an LPT deal that is not: one heavy item and many light ones.
    #[test]
    fn the_deal_puts_each_item_on_the_lightest_task() {
        let tasks = deal(&[1.0, 1.0, 6.0, 1.0, 1.0, 2.0], 2);
        assert_eq!(tasks, vec![vec![2], vec![5, 0, 1, 3, 4]]);
    }

    /// Catches a cut that loses or duplicates a prefix: the balanced cubes
    /// must still be disjoint and hold the planted solution in exactly one.
    #[test]
    fn the_balanced_cubes_still_cover_the_solution_once() {
        let planted = planted(&PlantedSpec::square(7, 3, 5, 4)).unwrap();
        let order = "row-scan".parse().unwrap();
        let plain = split::split(&planted.instance, order, 8).unwrap();
        let balanced = balance(&planted.instance, plain, target(4, 2), &mut |_, _| {});
        let holding = balanced
            .split
            .cubes
            .iter()
            .filter(|cube| cube.iter().all(|c| planted.solution.cells[c.cell] == Some(c.placement)))
            .count();
        assert_eq!(holding, 1, "the planted solution must extend exactly one cube");
        let distinct: HashSet<_> = balanced.split.cubes.iter().collect();
        assert_eq!(distinct.len(), balanced.split.cubes.len(), "two cubes alike");
        let crossed = balanced
            .split
            .cubes
            .iter()
            .any(|a| balanced.split.cubes.iter().any(|b| a != b && a.len() < b.len() && b.starts_with(a)));
        assert!(!crossed, "one cube is a prefix of another: their trees overlap");
    }
}
