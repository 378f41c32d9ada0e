//! The break-budget walk: a depth-first fill in a chosen order that may leave a few joins mismatched.
//!
//! Each free cell, in the fill order, takes a piece that matches its known
//! neighbours (cells earlier in the order, and clues) exactly, or breaks one
//! of those joins: one break per piece at most, never on a join between two
//! rim cells (the frame), and never more breaks in all than the schedule
//! allows at that depth. Candidates come from tables keyed by the colours of
//! two known sides (A and B), or of one of them when the other breaks; a
//! third and fourth known side are compared one by one. A full board with `b` breaks scores
//! `joins − b`; each one found tightens the budget to `b − 1`, so the walk
//! only ever looks for better boards.
//!
//! A lower bound keeps the endgame tileable: for each colour, the open sides
//! of the placed region that no remaining piece can match are breaks still to
//! come, and a colour whose remaining sides and open sides differ by an odd
//! count is in one more. A partial board whose breaks plus that bound exceed
//! the budget is not extended. The counts are kept incrementally.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Instant;

use crate::kernel::{Clues, Poll, SLOTS, boxed, pack};
use crate::puzzle::{Board, GREY, Placement, Rotation};

mod plan;

pub(crate) use plan::Plan;
use plan::{Cand, Known, Step};

/// Placements between two looks at the clock and the shared flags.
const POLL: u64 = 1 << 14;

/// How a candidate list is read at a depth: exact, then breaking the join of
/// side B, then of side A (A and B: the cell's first two known sides in the
/// order north, east, south, west; in a row scan, B is west and A north).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Phase {
    #[default]
    Exact,
    /// Candidates matching A, breaking B.
    BreakB,
    /// Candidates matching B, breaking A.
    BreakA,
    Done,
}

/// The walk's place at one depth.
#[derive(Clone, Copy, Debug, Default)]
struct Frame {
    phase: Phase,
    pos: u32,
    end: u32,
    /// The colours the known sides want, in the step's order (A, B, C, D).
    want: [u8; 4],
    /// The candidate placed here and its breaks (valid while deeper depths are open).
    placed: Option<(Cand, u8)>,
}

/// What the walk shares with its sibling threads and its caller.
#[derive(Clone, Copy)]
pub(crate) struct Shared<'a> {
    /// Breaks of the best full board any walk found (`usize::MAX`: none yet).
    pub(crate) best: &'a AtomicUsize,
    /// Raised from outside (Ctrl-C, the limit, the target reached).
    pub(crate) stop: &'a AtomicBool,
    /// Called with each full board whose breaks are below `best` (which it sets).
    pub(crate) found: &'a (dyn Fn(Board, usize) + Sync),
    /// The wall-clock end of the run.
    pub(crate) deadline: Option<Instant>,
    /// Whether the tileability bound prunes.
    pub(crate) bound: bool,
    /// The most free cells any walk has filled at once.
    pub(crate) deepest: &'a AtomicUsize,
}

/// How one attempt ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum End {
    /// The whole tree within the budget was walked.
    Exhausted,
    /// The node cap of the attempt was reached.
    Capped,
    /// The stop, the deadline or a perfect board ended the run.
    Stopped,
}

/// The colour counts of the tileability bound, kept as one number per colour:
/// the open sides of the placed region showing it minus the sides of the
/// pieces left that show it. A colour whose count is positive has open sides
/// no remaining piece can match; an odd count leaves one side unpaired.
///
/// Placing a piece moves these counts only where it changes them: each side
/// facing an empty cell adds two to its colour (an open side more, a piece
/// side less), a matched join changes nothing (the neighbour's open side
/// closes as the piece's side leaves the pool), and only a broken join moves
/// two colours by one. Indexed by the colour byte, so no bounds are checked.
struct Counts {
    excess: [i32; 256],
    /// Σ over colours of max(0, excess).
    deficit: i32,
    /// Colours whose excess is odd.
    odd: i32,
}

impl Counts {
    fn new(plan: &Plan) -> Counts {
        let mut c = Counts { excess: [0; 256], deficit: 0, odd: 0 };
        for colour in 1..plan.colours {
            let e = plan.initial_open[colour] - plan.initial_left[colour];
            c.excess[colour] = e;
            c.deficit += e.max(0);
            c.odd += e & 1;
        }
        c
    }

    /// Adds `delta` to colour `colour`'s excess (grey is not counted).
    #[inline(always)]
    fn shift(&mut self, colour: u8, delta: i32) {
        if colour == GREY {
            return;
        }
        let slot = &mut self.excess[usize::from(colour)];
        let (before, after) = (*slot, *slot + delta);
        *slot = after;
        self.deficit += after.max(0) - before.max(0);
        self.odd += (after & 1) - (before & 1);
    }

    /// Breaks any completion must still make.
    fn bound(&self) -> usize {
        self.deficit.max((self.odd + 1) / 2) as usize
    }
}

/// One attempt: the walk over `plan` (shuffled for this attempt) until the tree
/// within the budget is exhausted, `cap` placements are made, or the run stops.
/// `schedule[d]` is the breaks allowed after `d` placements when the budget is
/// `budget`; the budget tightens below every board found. Returns how it ended
/// and the placements made.
pub(crate) fn attempt(
    plan: &Plan,
    schedule: &dyn Fn(usize) -> Vec<u16>,
    budget: usize,
    cap: u64,
    shared: &Shared<'_>,
) -> (End, u64) {
    let free = plan.free();
    let mut budget = budget.min(shared.best.load(Ordering::Relaxed).saturating_sub(1));
    let mut allowed = schedule(budget);
    let mut colour_of = Shown::new(&plan.clues);
    let mut used = Used::new(&plan.clues);
    let mut frames = vec![Frame::default(); free + 1];
    let mut counts = Counts::new(plan);
    let (mut breaks, mut nodes, mut poll_at, mut deepest) = (0usize, 0u64, Poll::every(POLL), 0usize);
    if free == 0 {
        return (End::Exhausted, 0);
    }
    let mut depth = 0usize;
    open(plan, &colour_of, &mut frames[0], 0);
    loop {
        let step = &plan.steps[depth];
        let limit = (usize::from(allowed[depth + 1]), budget);
        let chosen =
            choose(plan, step, &mut frames[depth], (&used, breaks, limit), (&mut colour_of, &mut counts), shared);
        match chosen {
            Some((cand, b)) => {
                nodes += 1;
                used.0[usize::from(cand.piece)] = true;
                breaks += usize::from(b);
                frames[depth].placed = Some((cand, b));
                depth += 1;
                if depth > deepest {
                    deepest = depth;
                    shared.deepest.fetch_max(depth, Ordering::Relaxed);
                }
                if depth == free {
                    // A full board: report it if it beats the best, then look for better.
                    report(plan, &frames, breaks, shared);
                    if breaks == 0 {
                        return (End::Stopped, nodes);
                    }
                    budget = breaks - 1;
                    allowed = schedule(budget);
                    depth -= 1;
                    unplace(
                        &plan.steps[depth],
                        &mut frames[depth],
                        &mut colour_of,
                        &mut counts,
                        &mut used,
                        &mut breaks,
                    );
                    continue;
                }
                open(plan, &colour_of, &mut frames[depth], depth);
                if poll_at.due(nodes) {
                    poll_at.looked(nodes);
                    match poll(nodes, cap, budget, shared) {
                        Err(end) => return (end, nodes),
                        Ok(Some(lower)) => {
                            budget = lower;
                            allowed = schedule(budget);
                        }
                        Ok(None) => {}
                    }
                }
            }
            None => {
                if depth == 0 {
                    return (End::Exhausted, nodes);
                }
                depth -= 1;
                unplace(&plan.steps[depth], &mut frames[depth], &mut colour_of, &mut counts, &mut used, &mut breaks);
            }
        }
    }
}

/// The next candidate of `frame` that fits the breaks allowed at this depth
/// (`limit`: the schedule's, then the budget for the whole board), placed in
/// the colour counts; `None` when the frame has no more.
#[inline(always)]
fn choose(
    plan: &Plan,
    step: &Step,
    frame: &mut Frame,
    (used, breaks, (allowed, budget)): (&Used, usize, (usize, usize)),
    (colour_of, counts): (&mut Shown, &mut Counts),
    shared: &Shared<'_>,
) -> Option<(Cand, u8)> {
    while let Some((cand, b)) = next(plan, step, frame, used, breaks, allowed) {
        place(step, &cand, colour_of, counts, 1);
        if !shared.bound || breaks + usize::from(b) + counts.bound() <= budget {
            return Some((cand, b));
        }
        place(step, &cand, colour_of, counts, -1);
    }
    None
}

/// Hands on the full board of `frames`, with `breaks`, when it beats the run's best.
fn report(plan: &Plan, frames: &[Frame], breaks: usize, shared: &Shared<'_>) {
    if breaks < shared.best.load(Ordering::Relaxed) {
        shared.best.fetch_min(breaks, Ordering::Relaxed);
        (shared.found)(board(plan, frames), breaks);
    }
}

/// The attempt's periodic look at the run, after `nodes` placements: how it
/// ends (the cap, the stop, the deadline, a perfect board found), or the
/// lower budget a sibling's better board sets (`Ok(None)`: go on as before).
fn poll(nodes: u64, cap: u64, budget: usize, shared: &Shared<'_>) -> Result<Option<usize>, End> {
    if nodes >= cap {
        return Err(End::Capped);
    }
    if shared.stop.load(Ordering::Relaxed) || shared.deadline.is_some_and(|d| Instant::now() >= d) {
        return Err(End::Stopped);
    }
    match shared.best.load(Ordering::Relaxed) {
        0 => Err(End::Stopped),
        // A sibling found better: look below its board.
        best if best <= budget => Ok(Some(best - 1)),
        _ => Ok(None),
    }
}

/// Opens the frame of `depth`: reads the known colours of its cell.
#[inline(always)]
fn open(plan: &Plan, colour_of: &Shown, frame: &mut Frame, depth: usize) {
    let step = &plan.steps[depth];
    let mut want = [0u8; 4];
    for (k, known) in step.known.iter().enumerate().take(usize::from(step.count)) {
        // The neighbour's side facing this cell.
        want[k] = colour_of.facing(known);
    }
    let width = plan.colours + 1;
    let key_of = |k: usize| if k < usize::from(step.count) { usize::from(want[k]) } else { plan.colours };
    let tables = &plan.tables[step.tables];
    let key = key_of(0) * width + key_of(1);
    *frame = Frame {
        phase: Phase::Exact,
        pos: tables.exact.starts[key],
        end: tables.exact.starts[key + 1],
        want,
        placed: None,
    };
}

/// The next candidate of `frame` that fits: an unused piece whose breaks (A or
/// B broken by phase, and mismatched further sides C and D) are at most one,
/// on no frame join, within `limit` in all with `breaks`.
#[inline(always)]
fn next(plan: &Plan, step: &Step, frame: &mut Frame, used: &Used, breaks: usize, limit: usize) -> Option<(Cand, u8)> {
    let tables = &plan.tables[step.tables];
    let count = usize::from(step.count);
    let width = plan.colours + 1;
    loop {
        if frame.pos >= frame.end {
            // The next phase, if it may break a join at all (B needs two known sides).
            let may_break = breaks < limit;
            let can = |k: usize| k < count && !step.known[k].fixed;
            frame.phase = match frame.phase {
                Phase::Exact if may_break && can(1) => Phase::BreakB,
                Phase::Exact | Phase::BreakB if may_break && can(0) => Phase::BreakA,
                _ => Phase::Done,
            };
            let key = |k: usize| if k < count { usize::from(frame.want[k]) } else { plan.colours };
            let (start, key) = match frame.phase {
                Phase::BreakB => (&tables.by_a.starts, key(0)),
                Phase::BreakA if count >= 2 => (&tables.by_b.starts, key(1)),
                // With one known side, breaking it leaves every candidate of the class.
                Phase::BreakA => (&tables.by_b.starts, plan.colours),
                _ => return None,
            };
            debug_assert!(key < width);
            frame.pos = start[key];
            frame.end = start[key + 1];
            continue;
        }
        // The scan of one list, its position in a register until it returns.
        let list: &[Cand] = match frame.phase {
            Phase::Exact => &tables.exact.items,
            Phase::BreakB => &tables.by_a.items,
            _ => &tables.by_b.items,
        };
        // The known side this phase breaks (A or B), if any: the same for the whole list.
        let broken = match frame.phase {
            Phase::Exact => None,
            Phase::BreakB => Some(1),
            _ => Some(0),
        };
        let (mut pos, end) = (frame.pos as usize, (frame.end as usize).min(list.len()));
        while pos < end {
            let cand = list[pos];
            pos += 1;
            if used.0[usize::from(cand.piece)] {
                continue;
            }
            let shows = |k: usize| cand.shown[usize::from(step.known[k].side)];
            let mut b = 0u8;
            if let Some(k) = broken {
                if shows(k) == frame.want[k] {
                    continue; // it matches both: tried in the exact phase
                }
                b = 1;
            }
            let mut fits = true;
            for k in 2..count {
                if shows(k) != frame.want[k] {
                    if step.known[k].fixed {
                        fits = false;
                    }
                    b += 1;
                }
            }
            if fits && b <= 1 && breaks + usize::from(b) <= limit {
                frame.pos = pos as u32;
                return Some((cand, b));
            }
        }
        frame.pos = frame.end;
    }
}

/// The packed colours of every cell (0 while empty), indexed by the cell's
/// `u16` number, so no bounds are checked.
struct Shown(Box<[u32; SLOTS]>);

impl Shown {
    /// The clues' colours, the sentinel showing 0, every other cell empty.
    fn new(clues: &Clues) -> Shown {
        Shown(boxed(&clues.packed()))
    }

    /// The colour the known side's neighbour shows towards the cell.
    #[inline(always)]
    fn facing(&self, known: &Known) -> u8 {
        (self.0[usize::from(known.src)] >> known.facing) as u8
    }
}

/// Which pieces are placed, indexed by the piece's `u16` number, so no bounds are checked.
struct Used(Box<[bool; SLOTS]>);

impl Used {
    /// The pieces the clues take.
    fn new(clues: &Clues) -> Used {
        Used(clues.used())
    }
}

/// Places (`sign` 1) or removes (−1) `cand` at the step's cell in the colour
/// array and the bound's counts.
#[inline(always)]
fn place(step: &Step, cand: &Cand, colour_of: &mut Shown, counts: &mut Counts, sign: i32) {
    // Its sides facing empty cells: open sides more, pieces' sides fewer.
    if step.open != 0 {
        for side in 0..4 {
            if step.open >> side & 1 == 1 {
                counts.shift(cand.shown[side], 2 * sign);
            }
        }
    }
    // The joins it closes: a match leaves the counts as they were.
    for known in step.known.iter().take(usize::from(step.count)) {
        let own = cand.shown[usize::from(known.side)];
        let theirs = colour_of.facing(known);
        if own != theirs {
            counts.shift(own, sign);
            counts.shift(theirs, -sign);
        }
    }
    colour_of.0[usize::from(step.cell)] = if sign > 0 { pack(cand.shown) } else { 0 };
}

/// Takes back the candidate placed at `frame`, the frame of `step`.
#[inline(always)]
fn unplace(
    step: &Step,
    frame: &mut Frame,
    colour_of: &mut Shown,
    counts: &mut Counts,
    used: &mut Used,
    breaks: &mut usize,
) {
    if let Some((cand, b)) = frame.placed.take() {
        place(step, &cand, colour_of, counts, -1);
        used.0[usize::from(cand.piece)] = false;
        *breaks -= usize::from(b);
    }
}

/// The full board the frames spell.
fn board(plan: &Plan, frames: &[Frame]) -> Board {
    let mut board = plan.clue_board.clone();
    for (step, frame) in plan.steps.iter().zip(frames) {
        if let Some((cand, _)) = frame.placed {
            board.cells[usize::from(step.cell)] = Some(Placement {
                piece: usize::from(cand.piece),
                rotation: Rotation::new(cand.rotation).expect("a quarter turn"),
            });
        }
    }
    board
}

#[cfg(test)]
mod tests;
