//! The budget walk's incremental state against a count from scratch.

use proptest::prelude::*;

use super::*;
use crate::generate::{PlantedSpec, forced_mismatch, planted};
use crate::puzzle::{Grid, Instance, Side};
use crate::search::{Corner, Order};

/// Per colour, from the board alone: the sides of placed cells (clues
/// included) facing an empty cell, less the sides of the pieces no cell holds.
/// Grey is left out, as the walk leaves it out.
fn excess_from_scratch(instance: &Instance, board: &Board, colours: usize) -> Vec<i32> {
    let grid = instance.grid;
    let mut excess = vec![0i32; colours];
    let mut held = vec![false; instance.pieces.len()];
    for (cell, placed) in board.cells.iter().enumerate() {
        let Some(p) = placed else { continue };
        held[p.piece] = true;
        for side in Side::ALL {
            if grid.neighbour(cell, side).is_some_and(|n| board.cells[n].is_none()) {
                excess[usize::from(instance.pieces[p.piece].side(p.rotation, side))] += 1;
            }
        }
    }
    for (_, piece) in instance.pieces.iter().enumerate().filter(|&(q, _)| !held[q]) {
        for &c in &piece.0 {
            excess[usize::from(c)] -= 1;
        }
    }
    excess[usize::from(GREY)] = 0;
    excess
}

/// The orders a test instance is filled in (the walk's open sides depend on it).
const ORDERS: [Order; 4] = [
    Order::RowScan,
    Order::RimLast,
    Order::CornerSquare { corner: Corner::Se, transposed: true },
    Order::Band { corner: Corner::Sw, transposed: false, strip: 1 },
];

/// A walk's state driven by hand: the counts and colours as `attempt` keeps them.
struct Driven<'a> {
    plan: &'a Plan,
    counts: Counts,
    shown: Shown,
    used: Used,
    placed: Vec<Cand>,
    board: Board,
}

impl Driven<'_> {
    /// Places the `pick`-th unused candidate of the next step, if it has one.
    fn place(&mut self, pick: usize) -> bool {
        let Some(step) = self.plan.steps.get(self.placed.len()) else { return false };
        let fits: Vec<Cand> = self.plan.tables[step.tables]
            .exact
            .items
            .iter()
            .filter(|c| !self.used.0[usize::from(c.piece)])
            .copied()
            .collect();
        let Some(&cand) = fits.get(pick % fits.len().max(1)) else { return false };
        place(step, &cand, &mut self.shown, &mut self.counts, 1);
        self.used.0[usize::from(cand.piece)] = true;
        let rotation = Rotation::new(cand.rotation).unwrap();
        self.board.cells[usize::from(step.cell)] = Some(Placement { piece: usize::from(cand.piece), rotation });
        self.placed.push(cand);
        true
    }

    /// Takes back the last candidate placed, if any.
    fn remove(&mut self) {
        let Some(cand) = self.placed.pop() else { return };
        let step = &self.plan.steps[self.placed.len()];
        place(step, &cand, &mut self.shown, &mut self.counts, -1);
        self.used.0[usize::from(cand.piece)] = false;
        self.board.cells[usize::from(step.cell)] = None;
    }
}

/// A planted instance (or its forced-mismatch variant, whose colour counts are odd) from proptest's draws.
fn instance_of((w, h, frame, inner, clues, seed, odd): (usize, usize, u32, u32, usize, u64, bool)) -> Option<Instance> {
    let spec =
        PlantedSpec { grid: Grid { width: w, height: h }, frame_colours: frame, interior_colours: inner, clues, seed };
    if odd { forced_mismatch(&spec).ok().flatten() } else { planted(&spec).ok().map(|p| p.instance) }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    /// After any sequence of placements and removals the walk could make (a
    /// step's candidates, in fill order, broken joins included), the colour
    /// counts it keeps incrementally equal a count from scratch of the board,
    /// its deficit, odd colours and bound follow from them (and agree with
    /// the completer's bound, written separately), and the colour array shows
    /// what the board holds. Catches an update skipped or signed wrongly on
    /// placing or on taking back (a broken join's two colours, an open side's
    /// two), which would make the bound prune boards within the budget or let
    /// through boards beyond it.
    #[test]
    fn the_incremental_colour_counts_equal_a_count_from_scratch(
        shape in (3usize..8, 3usize..8, 3u32..5, 5u32..9, 0usize..6, 1u64..1_000, any::<bool>()),
        order in 0usize..ORDERS.len(),
        ops in prop::collection::vec((0u8..4, any::<u16>()), 1..160),
    ) {
        let Some(instance) = instance_of(shape) else { return Ok(()) };
        let Ok(plan) = Plan::new(&instance, &ORDERS[order].cells(&instance)) else { return Ok(()) };
        let board = plan.clue_board.clone();
        let mut s = Driven {
            plan: &plan,
            counts: Counts::new(&plan),
            shown: Shown::new(&plan.clues),
            used: Used::new(&plan.clues),
            placed: Vec::new(),
            board,
        };
        for (op, pick) in ops {
            // Three placements for each removal, so that boards fill up.
            if op == 0 || !s.place(usize::from(pick)) {
                s.remove();
            }
            let scratch = excess_from_scratch(&instance, &s.board, plan.colours);
            prop_assert_eq!(&s.counts.excess[..plan.colours], &scratch[..], "after {} placed", s.placed.len());
            prop_assert_eq!(s.counts.deficit, scratch.iter().map(|e| e.max(&0)).sum::<i32>());
            prop_assert_eq!(s.counts.odd, scratch.iter().filter(|e| e.rem_euclid(2) == 1).count() as i32);
            prop_assert_eq!(s.counts.bound(), crate::score::completer::bound(&instance, &s.board));
            for step in &plan.steps {
                let want = s.board.cells[usize::from(step.cell)].map_or(0, |p| pack(instance.pieces[p.piece].rotated(p.rotation)));
                prop_assert_eq!(s.shown.0[usize::from(step.cell)], want);
            }
        }
    }
}
