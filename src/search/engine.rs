//! The depth-first engine: a complete, exact-match backtracking walk over one plan.
//!
//! The walk keeps an explicit stack of frames (the candidate range still to
//! try at each depth, the colours the further known sides want, and the entry
//! placed), a used-piece table and the packed colours of every cell. A fitting
//! candidate stores its colours and opens the next depth (four loads and one
//! lookup in the candidate table) before it is pushed: when the next cell has
//! no candidate at all, the placement is a leaf, counted without push or pop.
//! Candidates are tried in table order, so exhausting the root proves that no
//! solution extends the clues.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

use super::plan::{Plan, SLOTS, Step};
use crate::puzzle::Board;

/// Placements between two looks at the clock and the stop flags.
const POLL: u64 = 1 << 14;

/// Where a run must end besides a solution or an exhausted tree.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Limits {
    /// Wall-clock deadline.
    pub(crate) deadline: Option<Instant>,
    /// Stop after about this many placements.
    pub(crate) node_limit: Option<u64>,
}

/// How a run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum End {
    /// Every cell filled.
    Solved,
    /// The whole tree was walked without a solution.
    Exhausted,
    /// The deadline or node limit was reached.
    Limit,
    /// The caller's stop flag was raised.
    Stopped,
    /// Another run finished first.
    Cancelled,
}

/// The result of one run.
#[derive(Clone, Debug)]
pub(crate) struct Run {
    /// How it ended.
    pub(crate) end: End,
    /// Placements made.
    pub(crate) nodes: u64,
    /// Most cells ever filled at once, clues included.
    pub(crate) best_placed: usize,
    /// The solution, or the deepest partial board seen.
    pub(crate) board: Board,
}

/// A tree shared by several runs: the nodes at depth `level` (the subtrees
/// rooted there, numbered in the walk's order, which is the same in every run
/// of one plan) are handed out one at a time from `next`. Every run walks the
/// few levels above `level` in full and explores only the subtrees it claimed,
/// so the runs together cover the tree exactly once, and a run that finishes
/// its subtrees early claims more (self-scheduling).
#[derive(Debug)]
pub(crate) struct Split {
    /// Depth (free cells placed) of the subtrees' roots; at least 1.
    pub(crate) level: usize,
    /// The next unclaimed subtree.
    pub(crate) next: AtomicU64,
}

impl Split {
    /// Subtrees rooted at depth `level`, none claimed yet.
    pub(crate) fn new(level: usize) -> Split {
        Split { level: level.max(1), next: AtomicU64::new(0) }
    }

    fn claim(&self) -> u64 {
        self.next.fetch_add(1, Ordering::Relaxed)
    }
}

/// One depth of the explicit stack.
#[derive(Clone, Copy, Debug, Default)]
struct Frame {
    /// Next entry to try; once a candidate is placed, the one after it.
    pos: u32,
    /// End of the candidate range.
    end: u32,
    /// Colours wanted on the further known sides, at the candidate's positions.
    want: u32,
}

impl Frame {
    /// The entry placed at this depth (the one before `pos`).
    fn chosen(self) -> u32 {
        self.pos - 1
    }
}

/// Reads the key colours of `step` and returns its frame (range and wanted colours).
#[inline(always)]
fn open(step: &Step, colour_of: &[u32; SLOTS], starts: &[u32], colours: usize) -> Frame {
    let a = (colour_of[usize::from(step.a_src)] >> step.a_shift) & 0xFF;
    let b = (colour_of[usize::from(step.b_src)] >> step.b_shift) & 0xFF;
    let c = (colour_of[usize::from(step.c_src)] >> step.c_shift) & 0xFF;
    let d = (colour_of[usize::from(step.d_src)] >> step.d_shift) & 0xFF;
    let key = step.base as usize + a as usize * colours + b as usize;
    let (pos, end) = (starts[key], starts[key + 1]);
    Frame { pos, end, want: (c << step.c_put) | (d << step.d_put) }
}

/// A zeroed fixed-size array on the heap, filled from `from`.
pub(crate) fn boxed<T: Copy + Default>(from: &[T]) -> Box<[T; SLOTS]> {
    let mut v = vec![T::default(); SLOTS];
    v[..from.len()].copy_from_slice(from);
    v.into_boxed_slice().try_into().unwrap_or_else(|_| unreachable!("SLOTS long"))
}

/// Walks the tree of `plan` until a solution, exhaustion, a limit, `stop`, or
/// `cancel` (raised by a sibling run that finished). With `split`, only the
/// subtrees this run claims below the split level are explored, and
/// `Exhausted` means that no subtree is left to claim.
pub(crate) fn run(plan: &Plan, limits: &Limits, stop: &AtomicBool, cancel: &AtomicBool, split: Option<&Split>) -> Run {
    let steps = &plan.steps[..];
    let entries = &plan.entries[..];
    let starts = &plan.starts[..];
    let colours = plan.colours;
    let total = steps.len();
    let clues = plan.clue_board.placed();
    let mut colour_of = boxed(&plan.initial_colours);
    let mut used = boxed(&plan.initial_used);
    let mut frames = vec![Frame::default(); total + 1];
    let mut nodes = 0u64;
    let mut next_poll = POLL;
    let mut best = 0usize;
    let mut best_chosen: Vec<u32> = Vec::new();
    // The split level (never reached without a split), the subtrees seen
    // there so far and the one this run explores next.
    let split_level = split.map_or(usize::MAX, |s| s.level);
    let mut seen = 0u64;
    let mut target = split.map_or(0, Split::claim);
    let finish = |end: End, nodes: u64, best_chosen: &[u32]| Run {
        end,
        nodes,
        best_placed: clues + best_chosen.len(),
        board: plan.board(best_chosen),
    };
    if total == 0 {
        return finish(End::Solved, 0, &[]);
    }
    let mut depth = 0usize;
    frames[0] = open(&steps[0], &colour_of, starts, colours);
    'descend: loop {
        let step = steps[depth];
        let frame = frames[depth];
        let (start, end) = (frame.pos as usize, frame.end as usize);
        for (i, entry) in entries[start..end].iter().enumerate() {
            if used[usize::from(entry.piece)] || entry.colours & step.mask != frame.want {
                continue;
            }
            if depth + 1 == split_level {
                // The root of a subtree: explore it only if this run claimed it.
                seen += 1;
                if seen - 1 != target {
                    continue;
                }
            }
            // Open the next depth before committing to this candidate: when
            // the next cell has no candidate at all for these colours (a third
            // of all placements on 26-colour boards), the placement is a leaf
            // and is counted without the push and pop.
            colour_of[usize::from(step.cell)] = entry.colours;
            nodes += 1;
            let next = steps.get(depth + 1).map_or(Frame::default(), |s| open(s, &colour_of, starts, colours));
            if next.pos == next.end && depth + 1 < total && depth < best {
                if depth + 1 == split_level {
                    // A claimed subtree that is a single leaf: claim the next.
                    target = split.map_or(0, Split::claim);
                }
                continue;
            }
            frames[depth].pos = (start + i + 1) as u32;
            used[usize::from(entry.piece)] = true;
            depth += 1;
            if depth > best {
                best = depth;
                best_chosen.clear();
                best_chosen.extend(frames[..depth].iter().map(|f| f.chosen()));
                if depth == total {
                    return finish(End::Solved, nodes, &best_chosen);
                }
            }
            if nodes >= next_poll {
                next_poll = nodes + POLL;
                let end = if stop.load(Ordering::Relaxed) {
                    Some(End::Stopped)
                } else if cancel.load(Ordering::Relaxed) {
                    Some(End::Cancelled)
                } else if limits.node_limit.is_some_and(|l| nodes >= l)
                    || limits.deadline.is_some_and(|d| Instant::now() >= d)
                {
                    Some(End::Limit)
                } else {
                    None
                };
                if let Some(end) = end {
                    return finish(end, nodes, &best_chosen);
                }
            }
            frames[depth] = next;
            continue 'descend;
        }
        if depth == 0 {
            return finish(End::Exhausted, nodes, &best_chosen);
        }
        if depth == split_level {
            // Back from a claimed subtree: claim the next one.
            target = split.map_or(0, Split::claim);
        }
        depth -= 1;
        used[usize::from(entries[frames[depth].chosen() as usize].piece)] = false;
    }
}
