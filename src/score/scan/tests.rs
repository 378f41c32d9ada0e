//! Tests of the scan walk on hand-made lists: the quota's cut, the cumulative break allowance, a used piece skipped.

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

/// Every full board the walk reports, with its breaks, in order.
fn boards(lists: &Lists) -> Vec<(Vec<usize>, usize)> {
    let seen = std::sync::Mutex::new(Vec::new());
    let found = |board: Board, breaks: usize| {
        let pieces = board.cells.iter().map(|c| c.map_or(usize::MAX, |p: Placement| p.piece)).collect();
        seen.lock().unwrap().push((pieces, breaks));
    };
    let deep = |_: usize, _: &[u64], _: usize| {};
    let (best, stop, deepest) = (AtomicUsize::new(usize::MAX), AtomicBool::new(false), AtomicUsize::new(0));
    let placed = [AtomicU64::new(0)];
    let shared = Shared {
        best: &best,
        stop: &stop,
        deadline: None,
        found: &found,
        deep: &deep,
        deepest: &deepest,
        placed: &placed,
        node_limit: None,
    };
    let settings = Attempt {
        budget: usize::MAX,
        cap: 1_000,
        extend: 0,
        report_from: usize::MAX,
        report_all: usize::MAX,
        stall: 0,
        expect: 0,
    };
    let end = attempt(lists, &settings, &shared, 0).end;
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
