//! Knuth's random-probe estimate of a plan's tree size, generalised to a population of probes.
//!
//! A classic Knuth probe walks from the root to a leaf, choosing uniformly
//! among the candidates that fit at each depth; the sum over depths of the
//! product of the branching factors seen so far is an unbiased estimate of the
//! number of nodes of the whole tree (Knuth 1975). On these puzzles almost
//! every probe dies within a few steps of the first clue, so the mean of even
//! thousands of probes says little about the deep levels that decide the
//! search time.
//!
//! Here a run carries up to `width` probes ("particles") down the tree level
//! by level: every particle's children are weighed (a child inherits its
//! parent's weight), and when there are more than `width` children, `width`
//! of them are drawn by systematic resampling in proportion to weight, each
//! taking an equal share of the level's total weight. The sum of the weights
//! at a level is an unbiased estimate of the number of nodes at that level,
//! and a run survives as long as any particle does. With `width` = 1 this is
//! exactly Knuth's probe. Weights are kept relative to a per-level scale in
//! the log domain, so deep trees cannot overflow. A particle that fills the
//! board is a solution and is returned.

use std::sync::atomic::{AtomicBool, Ordering};

use super::plan::Plan;
use crate::puzzle::Board;
use crate::rng::Rng;

/// The outcome of estimating one plan.
#[derive(Clone, Debug)]
pub(crate) struct Estimate {
    /// Natural log of the estimated number of nodes.
    pub(crate) ln_nodes: f64,
    /// Runs made.
    pub(crate) runs: u64,
    /// Work done: particles expanded, summed over depths and runs.
    pub(crate) work: u64,
    /// Particles per run.
    pub(crate) width: usize,
    /// Mean depth the runs reached.
    pub(crate) mean_depth: f64,
    /// A full board, if a particle found one.
    pub(crate) solution: Option<Board>,
    /// Natural log of the estimated number of nodes at each depth (1 = one
    /// cell placed), as far as any run reached.
    pub(crate) ln_levels: Vec<f64>,
}

impl Estimate {
    /// The estimated number of nodes (may be infinite for huge trees).
    pub(crate) fn nodes(&self) -> f64 {
        self.ln_nodes.exp()
    }

    /// The depth with the most estimated nodes, and that number (0 and 1,
    /// the root, when no run placed a cell).
    pub(crate) fn peak(&self) -> (usize, f64) {
        let widest = self.ln_levels.iter().enumerate().max_by(|a, b| a.1.total_cmp(b.1));
        widest.map_or((0, 1.0), |(i, l)| (i + 1, l.exp()))
    }
}

/// ln(e^x + e^y) without overflow.
fn ln_add(x: f64, y: f64) -> f64 {
    let (hi, lo) = if x > y { (x, y) } else { (y, x) };
    if lo == f64::NEG_INFINITY { hi } else { hi + (lo - hi).exp().ln_1p() }
}

/// The particles of one level: each has the packed colours of every cell (plus
/// the sentinel), a used-piece bitset and a weight.
#[derive(Default)]
struct Population {
    colours: Vec<u32>,
    used: Vec<u64>,
    weight: Vec<f64>,
    /// What each step of the particle's current chain admits (see `chain.rs`).
    admitted: Vec<u64>,
}

impl Population {
    fn len(&self) -> usize {
        self.weight.len()
    }

    fn clear(&mut self) {
        self.colours.clear();
        self.used.clear();
        self.weight.clear();
        self.admitted.clear();
    }
}

/// Runs of `width` particles over `plan`, at least one and at most
/// `max_runs`, until `work` particles have been expanded or one of the `halt`
/// flags is raised; the estimate is their mean. The budget is in work, not
/// time, so the same plan, seed and budget give the same estimate on any
/// machine and under any load (and so the same choice of order).
pub(crate) fn estimate(
    plan: &Plan,
    width: usize,
    max_runs: u64,
    work: u64,
    seed: u64,
    halt: &[&AtomicBool],
) -> Estimate {
    let mut rng = Rng::new(seed);
    let mut ln_sum = f64::NEG_INFINITY;
    let mut depth_sum = 0usize;
    let mut runs = 0u64;
    let mut done = 0u64;
    let mut ln_levels: Vec<f64> = Vec::new();
    let mut found = None;
    while runs < max_runs && (runs == 0 || (done < work && !halt.iter().any(|h| h.load(Ordering::Relaxed)))) {
        runs += 1;
        let (ln_nodes, levels, solution) = one_run(plan, width.max(1), &mut rng, halt, &mut done);
        let depth = levels.len();
        ln_sum = ln_add(ln_sum, ln_nodes);
        if ln_levels.len() < levels.len() {
            ln_levels.resize(levels.len(), f64::NEG_INFINITY);
        }
        for (sum, level) in ln_levels.iter_mut().zip(levels) {
            *sum = ln_add(*sum, level);
        }
        depth_sum += depth;
        if solution.is_some() {
            found = solution;
            break;
        }
    }
    let ln_runs = (runs as f64).ln();
    Estimate {
        ln_nodes: ln_sum - ln_runs,
        runs,
        work: done,
        width,
        mean_depth: depth_sum as f64 / runs as f64,
        solution: found,
        ln_levels: ln_levels.into_iter().map(|l| l - ln_runs).collect(),
    }
}

/// The sizes of one particle's slices in a [`Population`].
#[derive(Clone, Copy)]
struct Shape {
    /// Cells plus the sentinel.
    cells: usize,
    /// Words of the used-piece bitset.
    words: usize,
    /// Admitted masks: one per later step of the longest chain.
    span: usize,
}

impl Shape {
    fn of(plan: &Plan) -> Shape {
        Shape {
            cells: plan.clue_board.cells.len() + 1,
            words: plan.pieces.div_ceil(64),
            span: plan.chains.longest.max(1),
        }
    }
}

/// One run: ln of the estimated node count, ln of the estimated count at
/// each depth it reached, and a solution if a particle filled the board.
/// Each depth expands every particle (counted in `work`), resamples the
/// children down to `width`, and advances the survivors; a full board is
/// traced back.
fn one_run(
    plan: &Plan,
    width: usize,
    rng: &mut Rng,
    halt: &[&AtomicBool],
    work: &mut u64,
) -> (f64, Vec<f64>, Option<Board>) {
    let shape = Shape::of(plan);
    let mut now = root(plan, shape);
    let mut next = Population::default();
    // The root counts as one node; weights are relative to e^ln_scale.
    let mut ln_total = 0.0f64;
    let mut ln_scale = 0.0f64;
    let mut children: Vec<(u32, u32)> = Vec::new();
    let mut picked: Vec<usize> = Vec::new();
    // Per depth, the (parent particle, entry) of each particle: back-pointers
    // that spell out a particle's board.
    let mut trail: Vec<Vec<(u32, u32)>> = Vec::with_capacity(plan.steps.len());
    let mut levels: Vec<f64> = Vec::with_capacity(plan.steps.len());
    for d in 0..plan.steps.len() {
        // A run on a wide board takes a while: a raised flag cuts it short (its
        // estimate is then not used, the caller stops too).
        if halt.iter().any(|h| h.load(Ordering::Relaxed)) {
            return (ln_total, levels, None);
        }
        expand(plan, d, shape, &now, &mut children);
        *work += now.len() as u64;
        if children.is_empty() {
            return (ln_total, levels, None);
        }
        let total: f64 = children.iter().map(|&(k, _)| now.weight[k as usize]).sum();
        levels.push(ln_scale + total.ln());
        ln_total = ln_add(ln_total, ln_scale + total.ln());
        next.clear();
        ln_scale += resample(&children, &now.weight, total, width, rng, &mut picked, &mut next.weight);
        trail.push(picked.iter().map(|&i| children[i]).collect());
        advance(plan, d, shape, &now, &children, &picked, &mut next);
        std::mem::swap(&mut now, &mut next);
    }
    (ln_total, levels, Some(trace_back(plan, &trail)))
}

/// The population of one particle at the root: the clues in place, weight 1.
fn root(plan: &Plan, shape: Shape) -> Population {
    let mut now = Population::default();
    now.colours.extend(plan.clues.packed());
    now.used.resize(shape.words, 0);
    for (p, _) in plan.clues.pieces.iter().enumerate().filter(|&(_, &u)| u) {
        now.used[p / 64] |= 1 << (p % 64);
    }
    now.weight.push(1.0);
    now.admitted.resize(shape.span, u64::MAX);
    if plan.steps.first().is_some_and(|s| s.begins_chain) {
        plan.chains.begin(0, &now.colours, &mut now.admitted);
    }
    now
}

/// Every (particle, entry) that fits at depth `d`, into `children`.
fn expand(plan: &Plan, d: usize, shape: Shape, now: &Population, children: &mut Vec<(u32, u32)>) {
    let Shape { cells, words, span } = shape;
    let (step, chains) = (&plan.steps[d], &plan.chains);
    children.clear();
    // The filter of this depth's chain: which slot of a particle's masks.
    let slot = chains.filtered[d].then(|| d - chains.start_of[d] as usize);
    let shift = step.filter_shift;
    let watches = &plan.watches[d];
    for k in 0..now.len() {
        let colour_of = &now.colours[k * cells..(k + 1) * cells];
        let used = &now.used[k * words..(k + 1) * words];
        let admit = slot.map_or(u64::MAX, |i| now.admitted[k * span + i]);
        let read = |src: u16, shift: u8| (colour_of[usize::from(src)] >> shift) & 0xFF;
        let (a, b) = (read(step.a_src, step.a_shift), read(step.b_src, step.b_shift));
        let want = (read(step.c_src, step.c_shift) << step.c_put) | (read(step.d_src, step.d_shift) << step.d_put);
        let key = step.key(a as usize, b as usize, plan.colours);
        let (lo, hi) = (plan.starts[key], plan.starts[key + 1]);
        for e in lo..hi {
            let entry = plan.entries[e as usize];
            let p = usize::from(entry.piece);
            let admitted = (admit >> ((entry.colours >> shift) & 63)) & 1 != 0;
            if used[p / 64] & (1 << (p % 64)) == 0 && entry.colours & step.mask == want && admitted {
                let colour = |src: u16| if src == step.cell { entry.colours } else { colour_of[usize::from(src)] };
                let taken = |q: u16| q == entry.piece || used[usize::from(q) / 64] & (1 << (q % 64)) != 0;
                if watches.iter().all(|w| w.has_fit(&plan.entries, &plan.starts, plan.colours, colour, taken)) {
                    children.push((k as u32, e));
                }
            }
        }
    }
}

/// Chooses the surviving children (`picked`, indices into `children`) and
/// pushes their weights, relative to the new scale, onto `weights`: all of
/// them when at most `width`, else `width` drawn by systematic resampling,
/// each with an equal share. Returns the change of ln scale.
fn resample(
    children: &[(u32, u32)],
    weight: &[f64],
    total: f64,
    width: usize,
    rng: &mut Rng,
    picked: &mut Vec<usize>,
    weights: &mut Vec<f64>,
) -> f64 {
    picked.clear();
    if children.len() <= width {
        picked.extend(0..children.len());
        let top = children.iter().map(|&(k, _)| weight[k as usize]).fold(0.0, f64::max);
        weights.extend(children.iter().map(|&(k, _)| weight[k as usize] / top));
        return top.ln();
    }
    let step_w = total / width as f64;
    let mut target = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64 * step_w;
    let mut cumulative = 0.0;
    for (i, &(k, _)) in children.iter().enumerate() {
        cumulative += weight[k as usize];
        while target < cumulative && picked.len() < width {
            picked.push(i);
            target += step_w;
        }
    }
    while picked.len() < width {
        picked.push(children.len() - 1);
    }
    weights.resize(width, 1.0);
    step_w.ln()
}

/// Places each picked child's entry at depth `d` in a copy of its parent, into `next`.
fn advance(
    plan: &Plan,
    d: usize,
    shape: Shape,
    now: &Population,
    children: &[(u32, u32)],
    picked: &[usize],
    next: &mut Population,
) {
    let Shape { cells, words, span } = shape;
    let step = &plan.steps[d];
    for &i in picked {
        let (k, e) = children[i];
        let k = k as usize;
        let entry = plan.entries[e as usize];
        let start = next.colours.len();
        next.colours.extend_from_slice(&now.colours[k * cells..(k + 1) * cells]);
        next.colours[start + usize::from(step.cell)] = entry.colours;
        let ustart = next.used.len();
        next.used.extend_from_slice(&now.used[k * words..(k + 1) * words]);
        let p = usize::from(entry.piece);
        next.used[ustart + p / 64] |= 1 << (p % 64);
        let astart = next.admitted.len();
        next.admitted.extend_from_slice(&now.admitted[k * span..(k + 1) * span]);
        if plan.steps.get(d + 1).is_some_and(|s| s.begins_chain) {
            plan.chains.begin(d + 1, &next.colours[start..start + cells], &mut next.admitted[astart..]);
        }
    }
}

/// The board of the first surviving particle, spelt out from the back-pointers.
fn trace_back(plan: &Plan, trail: &[Vec<(u32, u32)>]) -> Board {
    let mut chosen = vec![0u32; plan.steps.len()];
    let mut k = 0usize;
    for (depth, level) in trail.iter().enumerate().rev() {
        let (parent, e) = level[k];
        chosen[depth] = e;
        k = parent as usize;
    }
    plan.board(&chosen)
}
