//! Property tests: writing any instance or board and reading it back is the
//! identity, for every format edgematch writes.

use std::path::Path;

use edgematch::formats::instance_json::InstanceFile;
use edgematch::formats::piece_list::Columns;
use edgematch::formats::{board_json, board_text, brendan, bucas, instance_json, piece_list};
use edgematch::generate::{Planted, PlantedSpec, planted};
use edgematch::puzzle::{Board, Grid};
use proptest::prelude::*;
use proptest::test_runner::FileFailurePersistence;

/// Planted boards with at most 22 colours (what a bucas link can show), and
/// a mask of cells to empty for partial boards.
fn planted_and_mask() -> impl Strategy<Value = (Planted, Vec<bool>)> {
    (2usize..=9, 2usize..=9, 1u32..=5, 1u32..=12, any::<u64>(), any::<bool>())
        .prop_filter_map("the generator needs enough colours", |(width, height, frame, interior, seed, clues)| {
            let spec = PlantedSpec {
                grid: Grid { width, height },
                frame_colours: frame,
                interior_colours: interior,
                clues: if clues { 1 } else { 0 },
                seed,
            };
            planted(&spec).ok()
        })
        .prop_flat_map(|p| {
            let cells = p.instance.grid.cells();
            (Just(p), proptest::collection::vec(any::<bool>(), cells))
        })
}

fn partial(board: &Board, mask: &[bool]) -> Board {
    let mut b = board.clone();
    for (cell, &empty) in b.cells.iter_mut().zip(mask) {
        if empty {
            *cell = None;
        }
    }
    b
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 64,
        failure_persistence: Some(Box::new(FileFailurePersistence::Direct("proptest-regressions/roundtrip.txt"))),
        ..ProptestConfig::default()
    })]

    #[test]
    fn instances_round_trip((p, _) in planted_and_mask()) {
        let path = Path::new("generated");
        let file = InstanceFile { instance: p.instance.clone(), name: Some("x".into()), colours: Some(p.colours) };
        let back = instance_json::parse(path, &instance_json::to_string(&file)).unwrap();
        prop_assert_eq!(back, file);
        // A piece list holds the size and the pieces (clues travel in a clue list).
        let pieces = piece_list::parse(path, &piece_list::to_string(&p.instance), Columns::NESW, None).unwrap();
        prop_assert_eq!(pieces.grid, p.instance.grid);
        prop_assert_eq!(pieces.pieces, p.instance.pieces.clone());
    }

    #[test]
    fn boards_round_trip((p, mask) in planted_and_mask()) {
        let path = Path::new("generated");
        let instance = &p.instance;
        for board in [p.solution.clone(), partial(&p.solution, &mask)] {
            prop_assert_eq!(&board_json::parse(path, &board_json::to_string(&board)).unwrap(), &board);
            prop_assert_eq!(&board_text::parse(path, &board_text::to_string(&board, instance), instance).unwrap(), &board);
            let link = bucas::parse(path, &bucas::to_link(&board, instance, "x")).unwrap();
            prop_assert_eq!(&bucas::to_board(path, &link, instance).unwrap(), &board);
        }
        let text = brendan::to_string(&p.solution).unwrap();
        prop_assert_eq!(brendan::parse(path, &text, instance).unwrap(), p.solution.clone());
    }
}
