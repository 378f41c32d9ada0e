//! Tests of the plan a board gets: its fill order passes the clues, its breaks stay off the rim and inside the span.

use std::path::Path;

use super::plan::{DEFAULT_ORDER, Plan, default_order};
use super::*;
use crate::formats::load::{self, InstanceOptions};
use crate::generate::{PlantedSpec, planted};
use crate::search::band::BandShape;
use crate::search::{Corner, Order};

/// The official set with the clues of `file` (under `data/official/`).
fn official(file: &str) -> Instance {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/official");
    let options = InstanceOptions { columns: Some("bltr".parse().unwrap()), size: None, clues: Some(&dir.join(file)) };
    load::instance(&dir.join("pieces.txt"), &options).unwrap().instance
}

/// The cells of the band of `order` on `instance` (the last cells of the order from the break span's row on).
fn band_cells(instance: &Instance, order: Order) -> Vec<usize> {
    let Order::Band { transposed, .. } = order else { panic!("a band order") };
    let (w, h) = (instance.grid.width, instance.grid.height);
    let (cols, rows) = if transposed { (h, w) } else { (w, h) };
    let shape = BandShape::of(cols, rows);
    let cells = order.cells(instance);
    cells[(rows - shape.rows) * cols..].to_vec()
}

/// A board whose clues sit in the band (Eternity II with all five clues, and
/// a planted 13×13: two clues in the third row from the far edge, whichever
/// corner the order starts from) gets, in every band orientation, with and
/// without strips, an order that lists each cell once, and walk steps that
/// skip the clue cells and place every other cell once, in that order. Fails
/// if a plan walks a clue cell (its piece placed twice) or leaves a cell out.
#[test]
fn a_board_with_clues_in_the_band_gets_a_plan_that_passes_them() {
    let boards = [official("clues.txt"), planted(&PlantedSpec::square(13, 5, 17, 1)).unwrap().instance];
    for instance in &boards {
        let clue = |c: usize| instance.clues.iter().any(|k| k.cell == c);
        for corner in Corner::ALL {
            for transposed in [false, true] {
                for strip in [1, 3] {
                    let order = Order::Band { corner, transposed, strip };
                    let options = Options { order: Some(order), quota: Quota::none(), ..Options::default() };
                    let plan = Plan::new(instance, &options).unwrap();
                    let cells = plan.order.cells(instance);
                    let mut seen = vec![false; instance.grid.cells()];
                    for &c in &cells {
                        assert!(!seen[c], "{order}: cell {c} twice");
                        seen[c] = true;
                    }
                    assert!(seen.iter().all(|&s| s), "{order}: a cell left out");
                    assert!(band_cells(instance, order).iter().filter(|&&c| clue(c)).count() >= 2, "{order}");
                    let lists = plan.lists(instance).unwrap();
                    let walked: Vec<usize> = lists.steps.iter().map(|s| usize::from(s.cell)).collect();
                    let free: Vec<usize> = cells.iter().copied().filter(|&c| !clue(c)).collect();
                    assert_eq!(walked, free, "{order}: the steps are the free cells in order");
                }
            }
        }
    }
}

/// The default order takes strips up to a clue in the second to fourth row
/// from its start edge, and none where the lowest clue sits higher: the
/// official set with its centre clue keeps the published order. Fails if the
/// strips are fixed rather than read from where the clues sit.
#[test]
fn the_default_order_takes_strips_up_to_a_low_clue() {
    let strip = |instance: &Instance| match default_order(instance) {
        Order::Band { strip, .. } => strip,
        other => panic!("{other}"),
    };
    assert_eq!(default_order(&official("clue-centre.txt")), DEFAULT_ORDER);
    assert_eq!(strip(&official("clues.txt")), 3, "clues in the third row from the bottom");
    assert_eq!(strip(&planted(&PlantedSpec::square(13, 5, 17, 1)).unwrap().instance), 3);
    // One clue, moved to the second row from the bottom edge: strips of two.
    let mut low = planted(&PlantedSpec::square(13, 5, 17, 1)).unwrap().instance;
    low.clues.truncate(1);
    let grid = low.grid;
    low.clues[0].cell = grid.cell(grid.height - 2, 4);
    assert_eq!(strip(&low), 2);
    low.clues[0].cell = grid.cell(grid.height - 6, 4);
    assert_eq!(default_order(&low), DEFAULT_ORDER, "a clue in the sixth row leaves the rows one by one");
}

/// Breaks are allowed nowhere before the band's break span (or, where the
/// exact walk stops short of it, the depth given) and never decrease after:
/// on the official set with all five clues, for every break budget. Fails if
/// the schedule puts a break before its start or takes one back.
#[test]
fn the_breaks_start_at_the_span_and_never_decrease() {
    let instance = official("clues.txt");
    for breaks in [1, 4, 10, 17] {
        let options = Options {
            schedule: Schedule::Band { breaks: Some(breaks), pinned: false },
            quota: Quota::none(),
            ..Options::default()
        };
        let plan = Plan::new(&instance, &options).unwrap();
        let first = plan.first_break();
        assert!(plan.allow[..first].iter().all(|&a| a == 0));
        assert!(plan.allow.windows(2).all(|w| w[0] <= w[1]), "{:?}", plan.allow);
        assert_eq!(usize::from(*plan.allow.last().unwrap()), breaks);
        let cells = plan.order.cells(&instance);
        let (span_start, _) = BandShape::of(16, 16).break_span();
        let clues_before = cells[..span_start].iter().filter(|&&c| instance.clues.iter().any(|k| k.cell == c)).count();
        // Placing the span's first cell makes span_start + 1 cells, clues among them, placed.
        assert_eq!(first, span_start + 1 - clues_before, "the first break at the span's first cell, in free cells");
    }
}
