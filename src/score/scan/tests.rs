//! Tests of the scan walk on hand-made lists: the quota's cut, the cumulative break allowance, a used piece skipped.

use std::sync::atomic::AtomicBool;

use super::*;
use crate::puzzle::{Grid, Instance, Piece, Placement};

/// Two free cells side by side (a 2×1 board) with hand-made lists, so a
/// test sees exactly which records the scan places.
fn two_cells(first: Vec<Rec>, second: Vec<Rec>, allow: [u8; 2], need: [u16; 2]) -> Lists {
    let instance = Instance { grid: Grid { width: 2, height: 1 }, pieces: vec![Piece([0; 4]); 2], clues: Vec::new() };
    let mut recs = first.clone();
    recs.push(Rec::SENTINEL);
    let second_head = recs.len() as u32;
    recs.extend(second);
    recs.push(Rec::SENTINEL);
    // One key per side (a missing side reads key 0): step 0's table, then step 1's.
    Lists {
        recs,
        starts: vec![0, second_head],
        keys: 1,
        steps: vec![
            Step { cell: 0, a: 2, a_shift: 0, b: 2, b_shift: 0, table: 0, allow: allow[0], need: need[0] },
            Step { cell: 1, a: 2, a_shift: 0, b: 2, b_shift: 0, table: 1, allow: allow[1], need: need[1] },
        ],
        slots: vec![0, 0, 0],
        clue_board: Board::empty(instance.grid),
        clue_pieces: vec![false; 2],
        pieces: instance.pieces.clone(),
    }
}

fn rec(piece: u16, breaks: u8, quota: u8) -> Rec {
    Rec(u64::from(piece) << 32 | u64::from(breaks) << 48 | u64::from(quota) << 56)
}

/// One attempt of one walk over `lists`, alone (no sibling lowers the
/// best), full boards handed to `found` and partial ones to `deep`.
fn walk_once(
    lists: &Lists,
    settings: &Attempt,
    found: &(dyn Fn(Board, usize) + Sync),
    deep: &(dyn Fn(usize, &[u64], usize) + Sync),
) -> Ended {
    let (best, stop, deepest) = (AtomicUsize::new(usize::MAX), AtomicBool::new(false), AtomicUsize::new(0));
    let placed = [Counter::default()];
    let shared = Shared {
        best: &best,
        stop: &stop,
        deadline: None,
        found,
        deep,
        deepest: &deepest,
        placed: &placed,
        node_limit: None,
    };
    attempt(lists, settings, &shared, 0)
}

/// Every full board the walk reports, with its breaks, in order.
fn boards(lists: &Lists) -> Vec<(Vec<usize>, usize)> {
    let seen = std::sync::Mutex::new(Vec::new());
    let found = |board: Board, breaks: usize| {
        let pieces = board.cells.iter().map(|c| c.map_or(usize::MAX, |p: Placement| p.piece)).collect();
        seen.lock().unwrap().push((pieces, breaks));
    };
    let deep = |_: usize, _: &[u64], _: usize| {};
    let settings = Attempt {
        budget: usize::MAX,
        cap: 1_000,
        extend: 0,
        report_from: usize::MAX,
        report_all: usize::MAX,
        stall: 0,
        expect: 0,
        freeze: Freeze::NEVER,
    };
    let end = walk_once(lists, &settings, &found, &deep).end;
    let seen = seen.into_inner().unwrap();
    // The tree is walked whole, or a perfect board ended the run.
    assert!(end == End::Exhausted || (end == End::Stopped && seen.last().is_some_and(|b| b.1 == 0)), "{end:?}");
    seen
}

/// The quota is a cut, not a filter: the lists are sorted with the most
/// quota sides first, so the scan stops at the first record that would
/// leave the quota unmet. Here that record (piece 0, one side) heads an
/// unsorted list and piece 1, with two sides, after it is never placed;
/// a scan that skipped instead of stopping would place it.
#[test]
fn the_quota_cuts_the_list_at_the_first_record_under_it() {
    let lists = two_cells(vec![rec(0, 0, 1), rec(1, 0, 2)], vec![rec(0, 0, 0), rec(1, 0, 0)], [0, 0], [2, 0]);
    assert!(boards(&lists).is_empty(), "the cut leaves nothing");
    let lists = two_cells(vec![rec(1, 0, 2), rec(0, 0, 1)], vec![rec(0, 0, 0), rec(1, 0, 0)], [0, 0], [2, 0]);
    assert_eq!(boards(&lists), vec![(vec![1, 0], 0)], "the head meets the quota");
}

/// The breaks allowed are cumulative per depth: a record that breaks a
/// join is placed only where the allowance, less the breaks already made,
/// covers it; and a record over it ends the scan (the records after it,
/// which break no more, are never tried). Fails if the cap is per cell
/// instead of cumulative, or read one depth off.
#[test]
fn breaks_are_capped_by_the_cumulative_allowance_at_each_depth() {
    // Both cells offer only a breaking record: one break in all allows one of them, not both.
    let lists = two_cells(vec![rec(0, 1, 0)], vec![rec(1, 1, 0)], [1, 1], [0, 0]);
    assert!(boards(&lists).is_empty(), "two breaks exceed one");
    let lists = two_cells(vec![rec(0, 1, 0)], vec![rec(1, 1, 0)], [1, 2], [0, 0]);
    assert_eq!(boards(&lists), vec![(vec![0, 1], 2)]);
    // No break at the first cell: its breaking record ends its scan, the exact one after it is never reached.
    let lists = two_cells(vec![rec(0, 1, 0), rec(0, 0, 0)], vec![rec(1, 0, 0)], [0, 1], [0, 0]);
    assert!(boards(&lists).is_empty());
    let lists = two_cells(vec![rec(0, 0, 0), rec(0, 1, 0)], vec![rec(1, 0, 0)], [0, 1], [0, 0]);
    assert_eq!(boards(&lists), vec![(vec![0, 1], 0)]);
}

/// A piece placed at the first cell is not placed again at the second.
#[test]
fn a_used_piece_is_skipped() {
    let lists = two_cells(vec![rec(0, 0, 0)], vec![rec(0, 0, 0), rec(1, 0, 0)], [0, 0], [0, 0]);
    assert_eq!(boards(&lists), vec![(vec![0, 1], 0)]);
}

/// What one walk did: its placements short of a full board in order, each
/// as its depth and record; the full boards it found, with their breaks;
/// and its placements in all.
#[derive(Debug, Default, PartialEq, Eq)]
struct Placements {
    placed: Vec<(usize, u64)>,
    full: Vec<(Board, usize)>,
    nodes: u64,
}

/// The scan's rules written plainly, as a recursion with no hand-backs: at
/// each depth the list keyed by the known sides is read in order; a record
/// over the allowance (`min(step.allow, budget)` less the breaks so far)
/// ends it, a used piece is skipped, a record under the quota need ends it,
/// anything else is placed. A full board with `b` breaks lowers the budget
/// to `b − 1`; one with none ends the walk, as `cap` placements do.
struct Plain<'a> {
    lists: &'a Lists,
    slots: Vec<u64>,
    used: Vec<bool>,
    budget: u8,
    cap: u64,
    seen: Placements,
}

impl Plain<'_> {
    fn walk(lists: &Lists, cap: u64) -> Placements {
        let slots = lists.slots.clone();
        let used = lists.clue_pieces.clone();
        let mut plain = Plain { lists, slots, used, budget: u8::MAX - 1, cap, seen: Placements::default() };
        plain.depth(0, 0, 0);
        plain.seen
    }

    /// Scans the list of `depth` with `made` breaks and `have` quota sides
    /// above it; false once the walk is over.
    fn depth(&mut self, depth: usize, made: u8, have: u16) -> bool {
        let step = self.lists.steps[depth];
        let key = |slot: u16, shift: u8| usize::from((self.slots[usize::from(slot)] >> shift) as u8);
        let mut p = self.lists.head(step.table, key(step.a, step.a_shift), key(step.b, step.b_shift));
        loop {
            let rec = self.lists.recs[p];
            p += 1;
            if rec.breaks() > step.allow.min(self.budget).saturating_sub(made) {
                return true;
            }
            let piece = usize::from(rec.piece());
            if self.used[piece] {
                continue;
            }
            if u16::from(rec.quota()) + have < step.need {
                return true;
            }
            if !self.place(depth, rec, made + rec.breaks(), have + u16::from(rec.quota())) {
                return false;
            }
        }
    }

    /// Places `rec` at `depth` and goes on below it; false once the walk is over.
    fn place(&mut self, depth: usize, rec: Rec, made: u8, have: u16) -> bool {
        let piece = usize::from(rec.piece());
        self.slots[depth] = rec.0;
        self.used[piece] = true;
        self.seen.nodes += 1;
        let mut going = self.seen.nodes < self.cap;
        if depth + 1 == self.lists.free() {
            let mut board = self.lists.clue_board.clone();
            self.lists.fill_board(&mut board, &self.slots[..=depth]);
            self.seen.full.push((board, usize::from(made)));
            going &= made > 0;
            self.budget = self.budget.min(made.saturating_sub(1));
        } else {
            self.seen.placed.push((depth, rec.0));
            going = going && self.depth(depth + 1, made, have);
        }
        self.used[piece] = false;
        going
    }
}

/// The same walk through [`attempt`], every placement handed back and
/// recorded, freezing as `freeze` says.
fn placements(lists: &Lists, cap: u64, freeze: Freeze) -> Placements {
    let seen = std::sync::Mutex::new(Placements::default());
    let found = |board: Board, breaks: usize| seen.lock().unwrap().full.push((board, breaks));
    let deep =
        |_: usize, recs: &[u64], _: usize| seen.lock().unwrap().placed.push((recs.len() - 1, recs[recs.len() - 1]));
    let settings =
        Attempt { budget: usize::MAX, cap, extend: 0, report_from: 1, report_all: 1, stall: 0, expect: 0, freeze };
    let nodes = walk_once(lists, &settings, &found, &deep).nodes;
    Placements { nodes, ..seen.into_inner().unwrap() }
}

/// Freezing every few placements, a few cells above the walk's depth: many
/// freezes, deeper freezes and thaws in a short walk.
const OFTEN: Freeze = Freeze { every: 50, margin: 3, step: 2 };

/// The walk places what the plain recursion places, in the same order, and
/// finds the same full boards, reading the full lists or freezing pieces
/// (as it does in runs, and every few placements): on planted boards with their five clues (a
/// 6×6 of 2 + 4 colours with many solutions, a 10×10 and a 16×16 of 5 + 17) under a break allowance that grows along the row scan and, on
/// the 10×10 and the 6×6, a quota that cuts lists, over shuffled lists.
/// Catches a candidate the loop loses or adds (a used piece placed, a free
/// one skipped, a list ended early or late), a break or quota side lost in
/// the sums a depth carries, the budget not lowered after a full board, a
/// wrong list after a placement or a give-up, and a frozen copy that drops
/// a free piece, a position moved to the wrong place of a copy, or a thaw missed.
#[test]
fn the_walk_places_what_the_plain_recursion_places() {
    use crate::generate::{PlantedSpec, planted};
    let boards = [(6, 2, 4, vec![3, 4]), (10, 5, 17, vec![6, 7, 8, 9, 10, 11]), (16, 5, 17, vec![])];
    for (side, frame, inner, quota_colours) in boards {
        let instance = planted(&PlantedSpec::square(side, frame, inner, 3)).unwrap().instance;
        let cells = side * side;
        let order: Vec<usize> = (0..cells).collect();
        let allow: Vec<u16> = (0..=cells).map(|d| (d * 8 / cells) as u16).collect();
        let need: Vec<usize> = (0..=cells).map(|d| if quota_colours.is_empty() { 0 } else { d / 3 }).collect();
        let mut lists = Lists::new(&instance, &order, &allow, &need, &quota_colours).unwrap();
        for seed in 1..=3 {
            lists.shuffle(&mut crate::rng::Rng::new(seed));
            let plain = Plain::walk(&lists, 300_000);
            assert!(plain.nodes > 10_000, "{side}x{side}: a walk that does little: {}", plain.nodes);
            assert!(side > 6 || plain.full.len() > 1, "the 6x6 finds boards and lowers its budget");
            for freeze in [Freeze::NEVER, Freeze::DEFAULT, OFTEN] {
                let walked = placements(&lists, 300_000, freeze);
                assert_eq!(walked.nodes, plain.nodes, "{side}x{side}, seed {seed}, {freeze:?}");
                assert!(walked.placed == plain.placed, "{side}x{side}, seed {seed}, {freeze:?}: other placements");
                assert_eq!(walked.full, plain.full, "{side}x{side}, seed {seed}, {freeze:?}");
            }
        }
    }
}

/// A depth's resume word gives back the next record, breaks and quota sides
/// it was made of, at their largest values too. Fails if two fields overlap
/// (a give-up would then resume with the wrong sums).
#[test]
fn a_resume_word_gives_back_what_it_holds() {
    for (next, made, have) in [(0, 0, 0), (u32::MAX as usize, u8::MAX, u16::MAX), (46_534, 14, 300), (1, 255, 0)] {
        assert_eq!(Resume::new(next, made, have).get(), (next, made, have));
    }
}

/// Two walks' placement counters never share a cache line (of 64 bytes, or
/// a pair of them). Fails if the counters' alignment is dropped, which no
/// rate measured on two cores would show.
#[test]
fn walks_count_their_placements_on_lines_of_their_own() {
    let counters: Vec<Counter> = (0..4).map(|_| Counter::default()).collect();
    for pair in counters.windows(2) {
        let (a, b) = (&pair[0] as *const Counter as usize, &pair[1] as *const Counter as usize);
        assert!(b - a >= 128 && a % 128 == 0, "{a:#x} {b:#x}");
    }
}
