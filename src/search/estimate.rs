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
use std::time::Instant;

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
/// `max_runs`, until `deadline` or one of the `halt` flags is raised; the
/// estimate is their mean.
pub(crate) fn estimate(
    plan: &Plan,
    width: usize,
    max_runs: u64,
    deadline: Instant,
    seed: u64,
    halt: &[&AtomicBool],
) -> Estimate {
    let mut rng = Rng::new(seed);
    let mut ln_sum = f64::NEG_INFINITY;
    let mut depth_sum = 0usize;
    let mut runs = 0u64;
    let mut ln_levels: Vec<f64> = Vec::new();
    let mut found = None;
    while runs < max_runs
        && (runs == 0 || (Instant::now() < deadline && !halt.iter().any(|h| h.load(Ordering::Relaxed))))
    {
        runs += 1;
        let (ln_nodes, levels, solution) = one_run(plan, width.max(1), &mut rng, halt);
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
        width,
        mean_depth: depth_sum as f64 / runs as f64,
        solution: found,
        ln_levels: ln_levels.into_iter().map(|l| l - ln_runs).collect(),
    }
}

/// One run: ln of the estimated node count, ln of the estimated count at
/// each depth it reached, and a solution if a particle filled the board.
fn one_run(plan: &Plan, width: usize, rng: &mut Rng, halt: &[&AtomicBool]) -> (f64, Vec<f64>, Option<Board>) {
    let steps = &plan.steps[..];
    let entries = &plan.entries[..];
    let cells = plan.clue_board.cells.len() + 1;
    let words = plan.pieces.div_ceil(64);
    let mut now = Population::default();
    let mut next = Population::default();
    now.colours.extend_from_slice(&plan.initial_colours[..cells]);
    now.used.resize(words, 0);
    for (p, _) in plan.initial_used.iter().enumerate().filter(|&(_, &u)| u) {
        now.used[p / 64] |= 1 << (p % 64);
    }
    now.weight.push(1.0);
    let chains = &plan.chains;
    // Admitted masks per particle: one per later step of the longest chain.
    let span = chains.longest.max(1);
    now.admitted.resize(span, u64::MAX);
    if steps.first().is_some_and(|s| s.begins_chain) {
        chains.begin(0, &now.colours, &mut now.admitted);
    }
    // The root counts as one node; weights are relative to e^ln_scale.
    let mut ln_total = 0.0f64;
    let mut ln_scale = 0.0f64;
    let mut children: Vec<(u32, u32)> = Vec::new();
    let mut picked: Vec<usize> = Vec::new();
    // Per depth, the (parent particle, entry) of each particle: back-pointers
    // that spell out a particle's board.
    let mut trail: Vec<Vec<(u32, u32)>> = Vec::with_capacity(steps.len());
    let mut levels: Vec<f64> = Vec::with_capacity(steps.len());
    for (d, step) in steps.iter().enumerate() {
        // A run on a wide board takes a while: a raised flag cuts it short (its
        // estimate is then not used, the caller stops too).
        if halt.iter().any(|h| h.load(Ordering::Relaxed)) {
            return (ln_total, levels, None);
        }
        children.clear();
        // The filter of this depth's chain: which slot of a particle's masks.
        let slot = chains.filtered[d].then(|| d - chains.start_of[d] as usize);
        let shift = step.filter_shift;
        for k in 0..now.len() {
            let colour_of = &now.colours[k * cells..(k + 1) * cells];
            let used = &now.used[k * words..(k + 1) * words];
            let admit = slot.map_or(u64::MAX, |i| now.admitted[k * span + i]);
            let read = |src: u16, shift: u8| (colour_of[usize::from(src)] >> shift) & 0xFF;
            let (a, b) = (read(step.a_src, step.a_shift), read(step.b_src, step.b_shift));
            let want = (read(step.c_src, step.c_shift) << step.c_put) | (read(step.d_src, step.d_shift) << step.d_put);
            let key = step.base as usize + a as usize * plan.colours + b as usize;
            let (lo, hi) = (plan.starts[key], plan.starts[key + 1]);
            for e in lo..hi {
                let entry = entries[e as usize];
                let p = usize::from(entry.piece);
                let admitted = (admit >> ((entry.colours >> shift) & 63)) & 1 != 0;
                if used[p / 64] & (1 << (p % 64)) == 0 && entry.colours & step.mask == want && admitted {
                    children.push((k as u32, e));
                }
            }
        }
        if children.is_empty() {
            return (ln_total, levels, None);
        }
        let total: f64 = children.iter().map(|&(k, _)| now.weight[k as usize]).sum();
        levels.push(ln_scale + total.ln());
        ln_total = ln_add(ln_total, ln_scale + total.ln());
        // Choose the survivors and their weights (relative to the new scale).
        picked.clear();
        let share;
        if children.len() <= width {
            picked.extend(0..children.len());
            let top = children.iter().map(|&(k, _)| now.weight[k as usize]).fold(0.0, f64::max);
            ln_scale += top.ln();
            share = None;
            next.clear();
            for &i in &picked {
                next.weight.push(now.weight[children[i].0 as usize] / top);
            }
        } else {
            let step_w = total / width as f64;
            let mut target = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64 * step_w;
            let mut cumulative = 0.0;
            for (i, &(k, _)) in children.iter().enumerate() {
                cumulative += now.weight[k as usize];
                while target < cumulative && picked.len() < width {
                    picked.push(i);
                    target += step_w;
                }
            }
            while picked.len() < width {
                picked.push(children.len() - 1);
            }
            ln_scale += step_w.ln();
            share = Some(1.0);
            next.clear();
        }
        trail.push(picked.iter().map(|&i| children[i]).collect());
        for &i in &picked {
            let (k, e) = children[i];
            let k = k as usize;
            let entry = entries[e as usize];
            let start = next.colours.len();
            next.colours.extend_from_slice(&now.colours[k * cells..(k + 1) * cells]);
            next.colours[start + usize::from(step.cell)] = entry.colours;
            let ustart = next.used.len();
            next.used.extend_from_slice(&now.used[k * words..(k + 1) * words]);
            let p = usize::from(entry.piece);
            next.used[ustart + p / 64] |= 1 << (p % 64);
            let astart = next.admitted.len();
            next.admitted.extend_from_slice(&now.admitted[k * span..(k + 1) * span]);
            if steps.get(d + 1).is_some_and(|s| s.begins_chain) {
                chains.begin(d + 1, &next.colours[start..start + cells], &mut next.admitted[astart..]);
            }
            if let Some(w) = share {
                next.weight.push(w);
            }
        }
        std::mem::swap(&mut now, &mut next);
    }
    // Every surviving particle is a full board: spell out the first.
    let mut chosen = vec![0u32; steps.len()];
    let mut k = 0usize;
    for (depth, level) in trail.iter().enumerate().rev() {
        let (parent, e) = level[k];
        chosen[depth] = e;
        k = parent as usize;
    }
    (ln_total, levels, Some(plan.board(&chosen)))
}
