//! Property tests for the generator/checker pair: planted solutions verify as
//! full, and each kind of corruption is reported as that kind.

use edgematch::check::{Report, check};
use edgematch::generate::{Planted, PlantedSpec, planted};
use edgematch::puzzle::{Board, GREY, Grid, Placement, Rotation, Side};
use proptest::prelude::*;
use proptest::test_runner::FileFailurePersistence;

/// Board sizes and colour counts with enough colours for duplicate-free pieces.
fn spec() -> impl Strategy<Value = PlantedSpec> {
    (5usize..=9, 4usize..=9, 3u32..=6, 7u32..=14, any::<u64>()).prop_map(|(width, height, frame, interior, seed)| {
        PlantedSpec { grid: Grid { width, height }, frame_colours: frame, interior_colours: interior, clues: 5, seed }
    })
}

fn kinds(report: &Report) -> Vec<&'static str> {
    let mut kinds: Vec<_> = report.violations.iter().map(|v| v.kind()).collect();
    kinds.sort_unstable();
    kinds.dedup();
    kinds
}

/// Interior cells that hold no clue.
fn free_interior(p: &Planted) -> Vec<usize> {
    let grid = p.instance.grid;
    (0..grid.cells()).filter(|&c| !grid.is_rim_cell(c) && p.instance.clues.iter().all(|k| k.cell != c)).collect()
}

fn turned(board: &Board, cell: usize, extra: usize) -> Board {
    let mut b = board.clone();
    let p = b.cells[cell].unwrap();
    b.cells[cell] = Some(Placement { rotation: Rotation::wrapping(p.rotation.turns() as usize + extra), ..p });
    b
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 48,
        failure_persistence: Some(Box::new(FileFailurePersistence::Direct("proptest-regressions/properties.txt"))),
        ..ProptestConfig::default()
    })]

    #[test]
    fn planted_solutions_verify_as_full(spec in spec()) {
        let p = planted(&spec).unwrap();
        let report = check(&p.instance, &p.solution);
        prop_assert!(report.is_solution(), "{}", report);
        prop_assert_eq!(report.score, spec.grid.max_score());
        prop_assert_eq!(p.instance.clues.len(), 5);
        // The flux law holds on every full valid board.
        prop_assert!(edgematch::flux::law_holds(&p.instance, &p.solution));
    }

    #[test]
    fn swapped_cells_are_mismatches(spec in spec(), a in any::<prop::sample::Index>(), b in any::<prop::sample::Index>()) {
        let p = planted(&spec).unwrap();
        let free = free_interior(&p);
        let (x, y) = (free[a.index(free.len())], free[b.index(free.len())]);
        prop_assume!(x != y);
        let mut board = p.solution.clone();
        board.cells.swap(x, y);
        let report = check(&p.instance, &board);
        prop_assert_eq!(kinds(&report), vec!["mismatch"], "{}", report);
    }

    #[test]
    fn a_duplicated_piece_is_reported(spec in spec(), a in any::<prop::sample::Index>(), b in any::<prop::sample::Index>()) {
        let p = planted(&spec).unwrap();
        let free = free_interior(&p);
        let (x, y) = (free[a.index(free.len())], free[b.index(free.len())]);
        prop_assume!(x != y);
        let mut board = p.solution.clone();
        board.cells[y] = board.cells[x];
        let report = check(&p.instance, &board);
        prop_assert!(kinds(&report).contains(&"duplicate-piece"), "{}", report);
    }

    #[test]
    fn a_wrong_rotation_is_a_mismatch(spec in spec(), a in any::<prop::sample::Index>(), extra in 1usize..=3) {
        let p = planted(&spec).unwrap();
        let free = free_interior(&p);
        let cell = free[a.index(free.len())];
        let report = check(&p.instance, &turned(&p.solution, cell, extra));
        prop_assert_eq!(kinds(&report), vec!["mismatch"], "{}", report);
    }

    #[test]
    fn a_broken_clue_is_reported(spec in spec(), k in 0usize..5, extra in 1usize..=3) {
        let p = planted(&spec).unwrap();
        let cell = p.instance.clues[k].cell;
        let report = check(&p.instance, &turned(&p.solution, cell, extra));
        prop_assert!(kinds(&report).contains(&"clue-broken"), "{}", report);
    }

    #[test]
    fn colour_on_the_rim_is_reported(spec in spec(), a in any::<prop::sample::Index>()) {
        let p = planted(&spec).unwrap();
        let grid = p.instance.grid;
        // A top-row edge cell (not a corner) turned half way shows its inner colour on the rim.
        let col = 1 + a.index(grid.width - 2);
        let report = check(&p.instance, &turned(&p.solution, grid.cell(0, col), 2));
        let k = kinds(&report);
        prop_assert!(k.contains(&"colour-on-rim") && k.contains(&"grey-inside"), "{}", report);
        prop_assert_eq!(p.solution.colour(&p.instance, grid.cell(0, col), Side::N), Some(GREY));
    }
}
