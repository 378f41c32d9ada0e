//! The scan walk: a depth-first fill over sorted candidate lists that stops each scan at the first candidate over a limit.
//!
//! The field's published score method (Blackwood's solver), over the lists
//! of [`Lists`]: at each depth the list keyed by the cell's two known sides
//! is read from where the last try left off; a record that breaks more joins
//! than the schedule still allows, or whose quota sides would leave the
//! quota unmet, ends the scan (the lists are sorted so that everything after
//! it is worse), a piece already placed is skipped, and the first other
//! record is placed. No bound, no allocation and no clock in the loop: it
//! hands back to [`attempt`] only on a full board, a depth deeper than the
//! attempt has reached, or every [`POLL`] placements.
//!
//! A full board with `b` breaks tightens the allowance to `b − 1` (the walk
//! then looks only for better boards); partial boards that reach a new
//! depth of the attempt at or past a given depth are handed to the caller,
//! who may complete them (with CP-SAT, see `complete.rs`).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use super::lists::{Lists, Rec, Step, head_at};
use crate::kernel::{Poll, SLOTS, boxed};
use crate::puzzle::Board;
pub(crate) use freeze::Freeze;
use freeze::{Heads, Stack};
use resume::Resume;
pub(crate) use shared::{Counter, POLL, Shared};

/// One attempt's settings.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Attempt {
    /// Breaks allowed in all (the schedule's allowance is capped by it).
    pub(crate) budget: usize,
    /// Placements before the attempt ends.
    pub(crate) cap: u64,
    /// Placements added to the cap each time the attempt reaches a depth no
    /// walk of the run had reached (0: none).
    pub(crate) extend: u64,
    /// Partial boards at least this deep are reported when they reach a new
    /// depth of the attempt (`usize::MAX`: none).
    pub(crate) report_from: usize,
    /// Partial boards at least this deep are all reported (`usize::MAX`: none).
    pub(crate) report_all: usize,
    /// An attempt still short of [`STALLED`] of the deepest depth any walk of
    /// the run reached (or of `expect`, if deeper) ends once it has made this
    /// many placements without reaching a new depth of its own (0: never):
    /// such an attempt is stuck in a prefix that cannot be completed (on the
    /// planted boards, now and then in the first rows), and a fresh one does better.
    pub(crate) stall: u64,
    /// The depth an attempt is expected to reach: the schedule's first break.
    pub(crate) expect: usize,
    /// When the walk stops reading the records of pieces placed far above it.
    pub(crate) freeze: Freeze,
}

/// Placements without a new depth after which an attempt far short of the run's deepest restarts ([`Attempt::stall`]).
pub(crate) const STALL: u64 = 20_000_000;

/// The share of the run's deepest depth below which an attempt may stall out.
pub(crate) const STALLED: f64 = 0.9;

/// The least share of [`Attempt::stall`] an attempt gets: its stall limit
/// is the stall scaled by its depth against the run's deepest, down to this.
pub(crate) const STALL_FLOOR: f64 = 0.05;

/// The placements without a new depth after which an attempt `depth` deep
/// stalls out, when the run's deepest (or expected) depth is `reference`.
/// The shallower it is stuck, the sooner: an attempt stuck in the first rows
/// (on the planted boards, below a clue in the second row) thrashes over
/// cells that cannot free it, and a fresh attempt gets past in fewer placements.
#[inline]
fn stall_limit(stall: u64, depth: usize, reference: usize) -> u64 {
    let share = (depth as f64 / reference.max(1) as f64).clamp(STALL_FLOOR, 1.0);
    (stall as f64 * share) as u64
}

/// How one attempt ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum End {
    /// The whole tree within the allowance was walked.
    Exhausted,
    /// The node cap of the attempt was reached.
    Capped,
    /// The stop, the deadline or a perfect board ended the run.
    Stopped,
}

/// How an attempt ended and what it did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Ended {
    /// Why it ended.
    pub(crate) end: End,
    /// Placements made.
    pub(crate) nodes: u64,
    /// The most free cells filled at once.
    pub(crate) deepest: usize,
    /// Turns of the walk's loop: a placement, or a cell given up (a backtrack),
    /// as the field's solvers count their nodes. Every placement but those
    /// still standing at the end is given up once, and an exhausted walk
    /// gives up its first cell too.
    pub(crate) iterations: u64,
}

/// Why the inner loop handed back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Event {
    /// Every free cell is filled.
    Full,
    /// A depth deeper than the attempt had reached, or one deep enough to report every time.
    Deeper,
    /// The poll's placement count was reached.
    Poll,
    /// The first cell's list is exhausted.
    Exhausted,
    /// A cell above the frozen ones was given up: the lists must be read in full again.
    Thaw,
}

/// A walk's state: what is placed at each depth and where each scan resumes.
struct Walk<'a> {
    steps: &'a [Step],
    /// The records and the heads the steps read, full or frozen ([`freeze`]).
    heads: Heads,
    keys: usize,
    /// Per depth the record placed there, then the missing-side and clue slots.
    slots: Vec<u64>,
    /// Per depth, where its scan resumes ([`Resume`]).
    resume: Vec<Resume>,
    used: Box<[bool; SLOTS]>,
    depth: usize,
    deepest: usize,
    /// The inner loop hands back at this depth: one past the deepest, or the depth where every board is reported.
    watch: usize,
    nodes: u64,
    /// Breaks allowed in all.
    budget: u8,
}

impl<'a> Walk<'a> {
    /// A walk at the root of `lists`. Panics if a list head or key could fall
    /// outside its array, which [`scan`] relies on.
    fn new(lists: &'a Lists, budget: usize) -> Walk<'a> {
        let keys = lists.keys;
        assert!(keys <= 256, "colours fit a byte");
        assert!(lists.steps.iter().all(|s| s.table as usize + keys * keys <= lists.starts.len()), "a table is cut");
        assert!(lists.starts.iter().all(|&s| (s as usize) < lists.recs.len()), "a head lies outside the records");
        assert_eq!(lists.recs.last(), Some(&Rec::SENTINEL), "the last list ends");
        let key_ok = |v: u64| (v as u32).to_le_bytes().iter().all(|&b| usize::from(b) < keys);
        assert!(lists.recs.iter().all(|r| *r == Rec::SENTINEL || key_ok(r.0)), "a record shows a colour out of range");
        assert!(lists.slots.iter().all(|&v| key_ok(v)), "a slot shows a colour out of range");
        assert!(lists.steps.iter().all(|s| usize::from(s.a.max(s.b)) < lists.slots.len()), "a side reads no slot");
        let free = lists.free();
        let used = boxed(&lists.clue_pieces);
        let mut walk = Walk {
            steps: &lists.steps,
            heads: Heads::new(lists),
            keys,
            slots: lists.slots.clone(),
            resume: vec![Resume::new(0, 0, 0); free + 1],
            used,
            depth: 0,
            deepest: 0,
            watch: 1,
            nodes: 0,
            budget: budget.min(usize::from(u8::MAX - 1)) as u8,
        };
        if free > 0 {
            walk.resume[0] = Resume::new(walk.head(0) as usize, 0, 0);
        }
        walk
    }

    /// The head of the list of the step at `depth`, keyed by its known sides' colours.
    #[inline(always)]
    fn head(&self, depth: usize) -> u32 {
        let s = &self.steps[depth];
        let a = (self.slots[usize::from(s.a)] >> s.a_shift) as u8;
        let b = (self.slots[usize::from(s.b)] >> s.b_shift) as u8;
        self.heads.starts[head_at(s.table, self.keys, usize::from(a), usize::from(b))]
    }

    /// How the attempt ended, with its counts.
    fn ended(&self, end: End) -> Ended {
        let backtracks = self.nodes - self.depth as u64 + u64::from(end == End::Exhausted);
        Ended { end, nodes: self.nodes, deepest: self.deepest, iterations: self.nodes + backtracks }
    }

    /// Takes back the record at `depth - 1`, so the scan goes on there
    /// (thawing the lists if that frees a frozen piece).
    fn back(&mut self, lists: &Lists) {
        self.depth -= 1;
        let piece = Rec(self.slots[self.depth]).piece();
        self.used[usize::from(piece)] = false;
        if self.depth < self.heads.frozen_from() {
            self.heads.thaw(lists);
        }
    }

    /// Freezes the pieces placed far above the walk's depth, or freezes
    /// deeper, if `freeze` says it is time (see [`freeze`]).
    fn look_at_freezing(&mut self, lists: &Lists, freeze: &Freeze) {
        let stack = Stack { slots: &self.slots, resume: &mut self.resume, depth: self.depth, nodes: self.nodes };
        self.heads.look(lists, freeze, stack);
    }

    /// The board of the first `depth` free cells.
    fn board(&self, lists: &Lists) -> Board {
        let mut board = lists.clue_board.clone();
        lists.fill_board(&mut board, &self.slots[..self.depth]);
        board
    }
}

/// The inner loop, from the walk's depth until an [`Event`]; `poll_at` is
/// the placement count of the next poll.
///
/// Indexing is unchecked: [`Walk::new`] checked that every list head lies
/// inside `recs` and every key inside `starts`; every list ends with a
/// sentinel that breaks more joins than any allowance (so no scan passes
/// it); depths stay in `0..free`, and `resume` holds `free + 1` entries,
/// `slots` more.
///
/// One function on purpose: this loop is where the walk spends its time, and
/// kept whole the depth and the node count stay in registers.
#[inline(never)]
fn scan(w: &mut Walk, poll_at: u64) -> Event {
    let (steps, recs, starts, keys) = (w.steps, &w.heads.recs[..], &w.heads.starts[..], w.keys);
    let free = steps.len();
    let (mut depth, mut nodes, watch, budget) = (w.depth, w.nodes, w.watch, w.budget);
    // Giving up a cell above this depth frees a frozen piece (0: none is frozen).
    let thaw_below = w.heads.frozen_from();
    debug_assert!(depth < free);
    let slots = &mut w.slots[..];
    let resume = &mut w.resume[..];
    let used = &mut *w.used;
    // The scan of `depth`: the next record, the breaks and quota sides of the
    // cells above it. A placement sets them for the depth below from the
    // record in hand; only a give-up reads them back, in one word.
    // SAFETY: depth < free = steps.len() < resume.len().
    let (mut p, mut made, mut have) = unsafe { resume.get_unchecked(depth).get() };
    'depth: loop {
        // SAFETY: as above.
        let step = unsafe { steps.get_unchecked(depth) };
        let allow = step.allow.min(budget).saturating_sub(made);
        loop {
            // SAFETY: p starts at a list head inside recs and stops at the
            // list's sentinel at the latest, whose breaks exceed any allow.
            let rec = unsafe { *recs.get_unchecked(p) };
            p += 1;
            if rec.breaks() > allow {
                break;
            }
            if used[usize::from(rec.piece())] {
                continue;
            }
            if u16::from(rec.quota()) + have < step.need {
                break;
            }
            used[usize::from(rec.piece())] = true;
            // SAFETY: depth < free, inside every per-depth array.
            unsafe {
                *resume.get_unchecked_mut(depth) = Resume::new(p, made, have);
                *slots.get_unchecked_mut(depth) = rec.0;
            }
            made += rec.breaks();
            have += u16::from(rec.quota());
            depth += 1;
            nodes += 1;
            if depth == free {
                // SAFETY: depth == free < resume.len().
                unsafe { *resume.get_unchecked_mut(depth) = Resume::new(0, made, have) };
                w.depth = depth;
                w.nodes = nodes;
                return Event::Full;
            }
            // SAFETY: depth < free.
            p = head_after(rec, unsafe { steps.get_unchecked(depth) }, depth, slots, starts, keys);
            if depth >= watch || nodes >= poll_at {
                // SAFETY: depth < free.
                unsafe { *resume.get_unchecked_mut(depth) = Resume::new(p, made, have) };
                w.depth = depth;
                w.nodes = nodes;
                return if depth >= watch { Event::Deeper } else { Event::Poll };
            }
            continue 'depth;
        }
        if depth == 0 {
            w.depth = 0;
            w.nodes = nodes;
            return Event::Exhausted;
        }
        depth -= 1;
        // SAFETY: depth < free.
        unsafe {
            let piece = Rec(*slots.get_unchecked(depth)).piece();
            used[usize::from(piece)] = false;
            (p, made, have) = resume.get_unchecked(depth).get();
        }
        if depth < thaw_below {
            w.depth = depth;
            w.nodes = nodes;
            return Event::Thaw;
        }
    }
}

/// The head of the list of `next`, the step at `depth`, just after `rec` was
/// placed at `depth - 1`: the side facing it is read off the record in hand,
/// not back from the slot just written (a wait for store forwarding on the
/// path from one placement to the next).
#[inline(always)]
fn head_after(rec: Rec, next: &Step, depth: usize, slots: &[u64], starts: &[u32], keys: usize) -> usize {
    let side = |slot: u16, shift: u8| {
        let shown = if usize::from(slot) == depth - 1 {
            rec.0
        } else {
            // SAFETY: Walk::new checked that every side reads a slot.
            unsafe { *slots.get_unchecked(usize::from(slot)) }
        };
        usize::from((shown >> shift) as u8)
    };
    let (a, b) = (side(next.a, next.a_shift), side(next.b, next.b_shift));
    // SAFETY: a, b < keys (colours checked by Walk::new); the table has keys² heads.
    unsafe { *starts.get_unchecked(head_at(next.table, keys, a, b)) as usize }
}

/// One attempt of walk `walk` over `lists` (sorted for this attempt) until
/// its tree within the allowance is walked, its cap is reached, or the run
/// stops (the node limit included). Its placements are added to the walk's
/// count at every poll. Returns how it ended and what it did.
pub(crate) fn attempt(lists: &Lists, settings: &Attempt, shared: &Shared<'_>, walk: usize) -> Ended {
    let mut counted = 0;
    let mut count = |nodes: u64| {
        let _ = shared.placed[walk].0.fetch_add(nodes - counted, Ordering::Relaxed);
        counted = nodes;
    };
    let ended = walk_attempt(lists, settings, shared, walk, &mut count);
    count(ended.nodes);
    ended
}

/// Raises the run's deepest depth to `depth`; true if no walk had reached
/// it. Read first: most new depths of an attempt are not new to the run,
/// and a read leaves the line shared by the walks' cores.
fn raise_deepest(deepest: &AtomicUsize, depth: usize) -> bool {
    deepest.load(Ordering::Relaxed) < depth && deepest.fetch_max(depth, Ordering::Relaxed) < depth
}

/// [`attempt`], handing its placements so far to `count` at every poll.
fn walk_attempt(
    lists: &Lists,
    settings: &Attempt,
    shared: &Shared<'_>,
    walk: usize,
    count: &mut dyn FnMut(u64),
) -> Ended {
    let free = lists.free();
    if free == 0 {
        return Ended { end: End::Exhausted, nodes: 0, deepest: 0, iterations: 0 };
    }
    let budget = settings.budget.min(shared.best.load(Ordering::Relaxed).saturating_sub(1));
    let mut w = Walk::new(lists, budget);
    let mut cap = settings.cap;
    let mut poll = Poll::every(POLL);
    let mut improved_at = 0u64;
    loop {
        let event = scan(&mut w, poll.next().min(cap.max(1)));
        match event {
            Event::Exhausted => return w.ended(End::Exhausted),
            Event::Full => {
                let made = w.resume[free].made();
                if made < shared.best.load(Ordering::Relaxed) {
                    (shared.found)(w.board(lists), made);
                }
                w.deepest = free;
                if made == 0 {
                    return w.ended(End::Stopped);
                }
                w.watch = (free + 1).min(settings.report_all);
                w.budget = w.budget.min(made as u8 - 1);
                w.back(lists);
            }
            Event::Deeper => {
                let new = w.depth > w.deepest;
                if new {
                    w.deepest = w.depth;
                    improved_at = w.nodes;
                    w.watch = (w.deepest + 1).min(settings.report_all);
                    if raise_deepest(shared.deepest, w.depth) && settings.extend > 0 {
                        cap = cap.max(w.nodes + settings.extend);
                    }
                }
                if (new && w.depth >= settings.report_from) || w.depth >= settings.report_all {
                    (shared.deep)(walk, &w.slots[..w.depth], w.resume[w.depth].made());
                }
            }
            Event::Poll => {}
            Event::Thaw => w.heads.thaw(lists),
        }
        w.look_at_freezing(lists, &settings.freeze);
        if poll.due(w.nodes) || w.nodes >= cap {
            poll.looked(w.nodes);
            count(w.nodes);
            if w.nodes >= cap {
                return w.ended(End::Capped);
            }
            if shared.node_limit.is_some_and(|n| shared.placements() >= n) {
                return w.ended(End::Stopped);
            }
            let reference = shared.deepest.load(Ordering::Relaxed).max(settings.expect);
            let short = (w.deepest as f64) < STALLED * reference as f64;
            if settings.stall > 0 && short && w.nodes - improved_at >= stall_limit(settings.stall, w.deepest, reference)
            {
                return w.ended(End::Capped);
            }
            if shared.stop.load(Ordering::Relaxed) || shared.deadline.is_some_and(|d| Instant::now() >= d) {
                return w.ended(End::Stopped);
            }
            let best = shared.best.load(Ordering::Relaxed);
            if best == 0 {
                return w.ended(End::Stopped);
            }
            if best <= usize::from(w.budget) {
                // A sibling found better: look below its board.
                w.budget = (best - 1) as u8;
            }
        }
    }
}

mod freeze;
mod resume;
mod shared;
#[cfg(test)]
mod tests;
