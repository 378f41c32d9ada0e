//! The depth-first engine: a complete, exact-match backtracking walk over one plan.
//!
//! The walk keeps an explicit stack of frames (the candidate range still to
//! try at each depth, the colours the further known sides want, and the piece
//! placed), a used-piece table and the packed colours of every cell. A fitting
//! candidate stores its colours and opens the next depth (two loads and one
//! lookup in the candidate table) before it is pushed: when the next cell has
//! no candidate at all, the placement is a leaf, counted without push or pop.
//! Candidates are tried in table order, so exhausting the root proves that no
//! solution extends the clues.
//!
//! Nearly all the time is spent between the split level and the deepest depth
//! reached so far, where no subtree is claimed and no board is recorded: there
//! [`walk_fast`] runs a loop with nothing else in it (its table lookups are
//! unchecked, the bounds having been checked once per run), and hands back to
//! the general loop at the edges of that band and to poll the clock.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use super::chain::Chains;
pub(crate) use super::ending::{Bounds, End, Run};
use super::plan::Plan;
use super::step::{Entry, Step};
use crate::kernel::{Poll, SLOTS, boxed};

/// Placements between two looks at the clock and the stop flags.
const POLL: u64 = 1 << 14;

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
    /// The piece placed at this depth (valid while a deeper depth is open).
    piece: u16,
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
    let key = step.key(a as usize, b as usize, colours);
    let (pos, end) = (starts[key], starts[key + 1]);
    Frame { pos, end, want: wanted(step, colour_of), piece: 0 }
}

/// The colours `step`'s cell must show on its further known sides C and D,
/// at the candidate's positions (0 where there is none).
#[inline(always)]
fn wanted(step: &Step, colour_of: &[u32; SLOTS]) -> u32 {
    let c = (colour_of[usize::from(step.c_src)] >> step.c_shift) & 0xFF;
    let d = (colour_of[usize::from(step.d_src)] >> step.d_shift) & 0xFF;
    (c << step.c_put) | (d << step.d_put)
}

/// True if every cell the look-ahead watches at this depth still has a
/// fitting unused piece once `piece` is placed (its colours already in `colour_of`).
#[inline(always)]
fn watches_hold(
    watches: &[Step],
    entries: &[Entry],
    starts: &[u32],
    colours: usize,
    colour_of: &[u32; SLOTS],
    used: &[bool; SLOTS],
    piece: u16,
) -> bool {
    let colour = |src: u16| colour_of[usize::from(src)];
    watches.iter().all(|w| w.has_fit(entries, starts, colours, colour, |p| p == piece || used[usize::from(p)]))
}

/// The outcome of scanning one depth's candidates.
enum Scan {
    /// Candidate `pos - 1` was placed at this depth; `next` opens the next depth.
    Placed { pos: u32, piece: u16, next: Frame },
    /// No candidate left.
    Exhausted,
}

/// The subtrees a run explores when it shares a tree (see [`Split`]).
struct Share<'a> {
    split: Option<&'a Split>,
    /// The split level (`usize::MAX` without a split).
    level: usize,
    /// Subtree roots seen so far.
    seen: u64,
    /// The root this run explores next.
    target: u64,
}

impl Share<'_> {
    fn claim(&mut self) {
        self.target = self.split.map_or(0, Split::claim);
    }
}

/// Scans candidates `frame.pos..frame.end` of `step` for the first one that
/// fits: at the split level only claimed subtree roots are placed, and a
/// candidate whose next cell (`next_step`) has no candidate is a leaf, counted
/// in `nodes` but not placed unless `keep_leaves` (the last cell, or deeper
/// than any board seen, whose board is recorded). [`walk_fast`] does the same
/// where neither applies.
#[inline(never)]
#[allow(clippy::too_many_arguments)]
fn scan_general(
    step: &Step,
    next_step: &Step,
    watches: &[Step],
    frame: Frame,
    entries: &[Entry],
    starts: &[u32],
    colours: usize,
    colour_of: &mut [u32; SLOTS],
    used: &[bool; SLOTS],
    nodes: &mut u64,
    at_split: bool,
    keep_leaves: bool,
    share: &mut Share,
    admits_next: impl Fn(u32) -> bool,
) -> Scan {
    let candidates = &entries[frame.pos as usize..frame.end as usize];
    for (i, entry) in candidates.iter().enumerate() {
        if used[usize::from(entry.piece)] || entry.colours & step.mask != frame.want || !admits_next(entry.colours) {
            continue;
        }
        colour_of[usize::from(step.cell)] = entry.colours;
        if !watches_hold(watches, entries, starts, colours, colour_of, used, entry.piece) {
            continue;
        }
        if at_split {
            // The root of a subtree (every fitting candidate counts, so that
            // all runs number them alike): explore it only if claimed.
            share.seen += 1;
            if share.seen - 1 != share.target {
                continue;
            }
        }
        *nodes += 1;
        let next = open(next_step, colour_of, starts, colours);
        if next.pos == next.end && !keep_leaves {
            if at_split {
                // A claimed subtree that is a single leaf: claim the next.
                share.claim();
            }
            continue;
        }
        return Scan::Placed { pos: frame.pos + i as u32 + 1, piece: entry.piece, next };
    }
    Scan::Exhausted
}

/// The shared state of a walk, for [`walk_fast`].
struct Walk<'a> {
    steps: &'a [Step],
    entries: &'a [Entry],
    starts: &'a [u32],
    colours: usize,
    colour_of: Box<[u32; SLOTS]>,
    used: Box<[bool; SLOTS]>,
    frames: Vec<Frame>,
    nodes: u64,
    chains: &'a Chains,
    /// Per depth, the look-ahead's steps (see `Plan::watches`).
    watches: &'a [Vec<Step>],
    /// Per depth, the link colours the depth's chain step admits (see `chain.rs`).
    admitted: Vec<u64>,
}

/// How [`walk_fast`] handed back.
enum Handback {
    /// A candidate was placed, reaching the depth returned.
    Pushed,
    /// Every candidate of the frame at the depth returned is tried.
    Exhausted,
}

/// The walk's inner loop, from `depth` for as long as it stays at depths in
/// `lo..hi`, where no depth is the split level's parent, the last one, or at
/// least the deepest seen (so every leaf is skipped and nothing is recorded),
/// and until `nodes` reaches `poll_at`. Returns the depth reached and why it
/// handed back: a placement reached `hi` or the poll, or the frame at `lo`
/// (or at the depth returned, when it is `lo`) is exhausted.
///
/// Indexing is unchecked: `Walk::new` checked once that every key of every
/// step lies inside `starts` and every range inside `entries`, and `lo..hi`
/// lies inside `frames` and `steps` (which has one step past the last).
///
/// One function on purpose: this loop is where the search spends its time,
/// and kept whole, the depth, the node count and the current frame stay
/// locals of the loop across placements instead of passing through `&mut
/// Walk` at every call of a helper.
#[inline(never)]
fn walk_fast(w: &mut Walk, mut depth: usize, lo: usize, hi: usize, poll_at: u64) -> (usize, Handback) {
    debug_assert!(lo <= depth && depth < hi && hi < w.frames.len() && hi < w.steps.len());
    let (steps, entries, starts, colours) = (w.steps, w.entries, w.starts, w.colours);
    let colour_of = &mut *w.colour_of;
    let used = &mut *w.used;
    let frames = &mut w.frames[..];
    let chains = w.chains;
    let all_watches = w.watches;
    let admitted = &mut w.admitted[..];
    let mut nodes = w.nodes;
    let handback = 'frame: loop {
        // SAFETY: depth < hi < steps.len() and frames.len() (checked above,
        // kept by the loop: depth only grows up to hi, shrinks down to lo).
        let (step, next_step) = unsafe { (steps.get_unchecked(depth), steps.get_unchecked(depth + 1)) };
        let frame = unsafe { *frames.get_unchecked(depth) };
        // What the next step of this depth's chain admits (everything when
        // the next step is in no chain with it: its entry stays all ones).
        // SAFETY: depth + 1 <= hi < admitted.len().
        let (admit, shift) = (unsafe { *admitted.get_unchecked(depth + 1) }, u32::from(step.filter_shift));
        let watches = &all_watches[depth][..];
        let mut pos = frame.pos;
        while pos < frame.end {
            // SAFETY: frame ranges lie inside entries (Walk::new).
            let entry = unsafe { *entries.get_unchecked(pos as usize) };
            pos += 1;
            if used[usize::from(entry.piece)] || entry.colours & step.mask != frame.want {
                continue;
            }
            if (admit >> ((entry.colours >> shift) & 63)) & 1 == 0 {
                continue;
            }
            colour_of[usize::from(step.cell)] = entry.colours;
            if !watches.is_empty() && !watches_hold(watches, entries, starts, colours, colour_of, used, entry.piece) {
                continue;
            }
            nodes += 1;
            let next = open_unchecked(next_step, colour_of, starts, colours);
            if next.pos == next.end {
                continue;
            }
            used[usize::from(entry.piece)] = true;
            // SAFETY: depth + 1 <= hi < frames.len().
            unsafe {
                let placed = frames.get_unchecked_mut(depth);
                placed.pos = pos;
                placed.piece = entry.piece;
                *frames.get_unchecked_mut(depth + 1) = next;
            }
            depth += 1;
            if next_step.begins_chain {
                chains.begin(depth, &colour_of[..], &mut admitted[depth + 1..]);
            }
            if depth == hi || nodes >= poll_at {
                break 'frame Handback::Pushed;
            }
            continue 'frame;
        }
        if depth == lo {
            break Handback::Exhausted;
        }
        depth -= 1;
        // SAFETY: lo <= depth < hi.
        let piece = unsafe { frames.get_unchecked(depth).piece };
        used[usize::from(piece)] = false;
    };
    w.nodes = nodes;
    (depth, handback)
}

/// [`open`] without the bounds checks of the table lookup.
#[inline(always)]
fn open_unchecked(step: &Step, colour_of: &[u32; SLOTS], starts: &[u32], colours: usize) -> Frame {
    let a = (colour_of[usize::from(step.a_src)] >> step.a_shift) & 0xFF;
    let b = (colour_of[usize::from(step.b_src)] >> step.b_shift) & 0xFF;
    let key = step.key(a as usize, b as usize, colours);
    // SAFETY: a and b are colours (< colours), and every step's table has
    // colours² keys inside starts, plus the final end (Walk::new).
    let (pos, end) = unsafe { (*starts.get_unchecked(key), *starts.get_unchecked(key + 1)) };
    Frame { pos, end, want: wanted(step, colour_of), piece: 0 }
}

impl<'a> Walk<'a> {
    /// A walk over `plan` with `steps` (the plan's, and a dummy past the last)
    /// at the root. Panics if a table key or range could fall outside its
    /// array, which `walk_fast` relies on.
    fn new(plan: &'a Plan, steps: &'a [Step]) -> Walk<'a> {
        let keys = plan.colours * plan.colours;
        assert!(steps.iter().all(|s| s.base as usize + keys < plan.starts.len()), "a table lies outside starts");
        assert!(plan.starts.windows(2).all(|w| w[0] <= w[1]), "table ranges out of order");
        assert!(plan.starts.last().is_none_or(|&e| e as usize <= plan.entries.len()), "a range lies outside entries");
        let colours_ok = |c: u32| c.to_le_bytes().iter().all(|&b| usize::from(b) < plan.colours);
        assert!(plan.entries.iter().all(|e| colours_ok(e.colours)), "an entry shows a colour out of range");
        let initial = plan.clues.packed();
        assert!(initial.iter().all(|&c| colours_ok(c)), "a clue shows a colour out of range");
        Walk {
            steps,
            entries: &plan.entries,
            starts: &plan.starts,
            colours: plan.colours,
            colour_of: boxed(&initial),
            used: plan.clues.used(),
            frames: vec![Frame::default(); steps.len()],
            nodes: 0,
            chains: &plan.chains,
            watches: &plan.watches,
            admitted: vec![u64::MAX; steps.len() + 1],
        }
    }
}

/// Walks the tree of `plan` until a solution, exhaustion, a limit, `stop`, or
/// `cancel` (raised by a sibling run that finished). With `split`, only the
/// subtrees this run claims below the split level are explored, and
/// `Exhausted` means that no subtree is left to claim.
pub(crate) fn run(plan: &Plan, bounds: &Bounds, stop: &AtomicBool, cancel: &AtomicBool, split: Option<&Split>) -> Run {
    let total = plan.steps.len();
    // The steps with a dummy after the last, so that opening "the next
    // depth" needs no test (the dummy reads the sentinel; its range is unused).
    let sentinel = plan.sentinel();
    let dummy = Step { a_src: sentinel, b_src: sentinel, c_src: sentinel, d_src: sentinel, ..Step::default() };
    let steps: Vec<Step> = plan.steps.iter().copied().chain([dummy]).collect();
    let mut w = Walk::new(plan, &steps);
    let clues = plan.clue_board.placed();
    let mut poll = Poll::every(POLL);
    let mut best = 0usize;
    let mut best_chosen: Vec<u32> = Vec::new();
    let mut share = Share { split, level: split.map_or(usize::MAX, |s| s.level), seen: 0, target: 0 };
    share.claim();
    // The fast walk runs at depths from the split level (0 without a split)
    // up to the deepest seen, short of the last.
    let lo = if split.is_some() { share.level } else { 0 };
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
    w.frames[0] = open(&steps[0], &w.colour_of, w.starts, w.colours);
    if steps[0].begins_chain {
        w.chains.begin(0, &w.colour_of[..], &mut w.admitted[1..]);
    }
    loop {
        let hi = best.min(total - 1);
        let handback = if lo <= depth && depth < hi {
            let (reached, handback) = walk_fast(&mut w, depth, lo, hi, poll.next());
            depth = reached;
            handback
        } else {
            let at_split = depth + 1 == share.level;
            let keep_leaves = depth + 1 == total || depth >= best;
            step_general(&mut w, &steps, &mut depth, at_split, keep_leaves, &mut share)
        };
        match handback {
            Handback::Exhausted => {
                // Every candidate of this depth tried: back up.
                if depth == 0 {
                    return finish(End::Exhausted, w.nodes, &best_chosen);
                }
                if depth == share.level {
                    // Back from a claimed subtree: claim the next one.
                    share.claim();
                }
                depth -= 1;
                w.used[usize::from(w.frames[depth].piece)] = false;
            }
            Handback::Pushed => {
                if depth > best {
                    best = depth;
                    best_chosen.clear();
                    best_chosen.extend(w.frames[..depth].iter().map(|f| f.chosen()));
                    if depth == total {
                        return finish(End::Solved, w.nodes, &best_chosen);
                    }
                }
                let nodes = w.nodes;
                if poll.due(nodes) {
                    poll.looked(nodes);
                    if let Some(end) = bounds.reached(nodes, stop, cancel) {
                        return finish(end, nodes, &best_chosen);
                    }
                }
            }
        }
    }
}

/// One step of the general scan (depths outside the fast walk's range): the
/// next candidate of `depth` is placed and the next depth opened, or the
/// depth is exhausted.
#[inline(always)]
fn step_general(
    w: &mut Walk<'_>,
    steps: &[Step],
    depth: &mut usize,
    at_split: bool,
    keep_leaves: bool,
    share: &mut Share<'_>,
) -> Handback {
    let d = *depth;
    let (step, next_step, frame) = (&steps[d], &steps[d + 1], w.frames[d]);
    let scan = scan_general(
        step,
        next_step,
        &w.watches[d],
        frame,
        w.entries,
        w.starts,
        w.colours,
        &mut w.colour_of,
        &w.used,
        &mut w.nodes,
        at_split,
        keep_leaves,
        share,
        {
            let (admit, shift) = w.chains.filter(d, &w.admitted);
            move |shown: u32| (admit >> ((shown >> shift) & 63)) & 1 != 0
        },
    );
    match scan {
        Scan::Placed { pos, piece, next } => {
            w.used[usize::from(piece)] = true;
            w.frames[d].pos = pos;
            w.frames[d].piece = piece;
            *depth = d + 1;
            w.frames[d + 1] = next;
            if steps[d + 1].begins_chain {
                w.chains.begin(d + 1, &w.colour_of[..], &mut w.admitted[d + 2..]);
            }
            Handback::Pushed
        }
        Scan::Exhausted => Handback::Exhausted,
    }
}
