//! Tests of the seam encoding and of the CaDiCaL backend on small planted boards.

use std::time::{Duration, Instant};

use super::*;
use crate::check::check;
use crate::generate::{PlantedSpec, planted};
use crate::puzzle::{Clue, Grid, Piece, Placement, Rotation, Side};

fn limits(seconds: f64) -> Limits {
    Limits { time_limit: Some(seconds), ..Limits::default() }
}

fn planted_instance(size: usize, frame: u32, interior: u32, seed: u64) -> crate::generate::Planted {
    planted(&PlantedSpec::square(size, frame, interior, seed)).expect("planted board")
}

/// True if `clause` holds under the assignment `value` (indexed by variable).
fn satisfied(clause: &[i32], value: &[bool]) -> bool {
    clause.iter().any(|&l| value[l.unsigned_abs() as usize] == (l > 0))
}

#[test]
fn solves_small_planted_boards_with_every_am1_encoding() {
    for (size, seed) in [(3, 1), (4, 2), (5, 3), (6, 4)] {
        let p = planted_instance(size, 2, 4, seed);
        for am1 in Am1::ALL {
            for support in [false, true] {
                let options = Options { encoding: EncodeOptions { am1, support }, config: Config::Default };
                let outcome = solve(&p.instance, &options, &limits(10.0), &Stop::new()).expect("solve");
                assert_eq!(outcome.status, Status::Solved, "{size}x{size} seed {seed} {am1:?} support {support}");
                let board = outcome.board.expect("a board");
                let report = check(&p.instance, &board);
                assert!(report.is_solution(), "{size}x{size} {am1:?}: {report}");
            }
        }
    }
}

#[test]
fn the_planted_solution_satisfies_the_cnf() {
    // Extend the planted board to the placement and seam variables and check
    // every clause that mentions no auxiliary variable.
    let p = planted_instance(6, 3, 5, 7);
    let encoding = encode(&p.instance, &EncodeOptions::default());
    let mut value = vec![false; encoding.cnf.variables as usize + 1];
    for (i, &(cell, placement)) in encoding.placements.iter().enumerate() {
        value[i + 1] = p.solution.cells[cell] == Some(placement);
    }
    for (j, &(cell, side, colour)) in encoding.seams.iter().enumerate() {
        value[encoding.placements.len() + j + 1] = p.solution.colour(&p.instance, cell, side) == Some(colour);
    }
    let fixed = (encoding.placements.len() + encoding.seams.len()) as u32;
    let mut checked = 0;
    for clause in encoding.cnf.clauses() {
        if clause.iter().all(|l| l.unsigned_abs() <= fixed) {
            assert!(satisfied(clause, &value), "clause {clause:?} fails on the planted solution");
            checked += 1;
        }
    }
    assert!(checked > 0);
    assert_eq!(encoding.decode(|v| value[v as usize]), p.solution);
}

#[test]
fn variables_mean_what_the_map_says() {
    let p = planted_instance(5, 2, 4, 1);
    let encoding = encode(&p.instance, &EncodeOptions::default());
    let sizes = encoding.sizes();
    assert_eq!(sizes.variables, sizes.placement_variables + sizes.seam_variables + sizes.auxiliary_variables);
    assert_eq!(encoding.meaning(0), None);
    assert_eq!(encoding.meaning(encoding.cnf.variables + 1), None);
    let grid = p.instance.grid;
    for v in 1..=encoding.cnf.variables {
        match encoding.meaning(v).expect("a meaning") {
            Meaning::Placement { cell, placement } => {
                assert!(p.instance.rim_fits(cell).contains(&placement));
            }
            Meaning::Seam { cell, side, colour } => {
                assert!(matches!(side, Side::E | Side::S) && grid.neighbour(cell, side).is_some());
                assert_ne!(colour, 0, "no grey on an inner join");
            }
            Meaning::Auxiliary => assert!(v as usize > sizes.placement_variables + sizes.seam_variables),
        }
    }
    // Class pruning: a join between two rim cells takes frame colours only, others interior ones.
    let frame: Vec<u8> = encoding
        .seams
        .iter()
        .filter(|&&(cell, side, _)| {
            let other = grid.neighbour(cell, side).expect("inner join");
            grid.is_rim_cell(cell) && grid.is_rim_cell(other)
        })
        .map(|&(_, _, c)| c)
        .collect();
    let interior: Vec<u8> = encoding
        .seams
        .iter()
        .filter(|&&(cell, side, _)| {
            let other = grid.neighbour(cell, side).expect("inner join");
            !(grid.is_rim_cell(cell) && grid.is_rim_cell(other))
        })
        .map(|&(_, _, c)| c)
        .collect();
    assert!(!frame.is_empty() && !interior.is_empty());
    assert!(frame.iter().all(|c| !interior.contains(c)), "frame and interior colours are kept apart");
}

#[test]
fn sizes_stay_linear_with_the_ladder_and_blow_up_pairwise() {
    let p = planted_instance(8, 3, 6, 1);
    let size = |am1| encode(&p.instance, &EncodeOptions { am1, support: true }).sizes();
    let (ladder, pairwise) = (size(Am1::Ladder), size(Am1::Pairwise));
    assert_eq!(pairwise.auxiliary_variables, 0);
    assert!(ladder.clauses * 3 < pairwise.clauses, "ladder {ladder:?} vs pairwise {pairwise:?}");
}

#[test]
fn an_edited_board_is_infeasible() {
    let mut p = planted_instance(5, 2, 4, 1);
    let interior = (0..p.instance.pieces.len())
        .find(|&k| p.instance.pieces[k].grey_sides() == 0 && !p.instance.clues.iter().any(|c| c.placement.piece == k))
        .expect("an interior piece");
    p.instance.pieces[interior].0[0] = 99;
    let outcome = solve(&p.instance, &Options::default(), &limits(10.0), &Stop::new()).expect("solve");
    assert_eq!(outcome.status, Status::Infeasible);
    assert!(outcome.board.is_none());
}

#[test]
fn a_colour_swap_that_class_pruning_cannot_see_is_refuted_by_search() {
    // Recolour one side of one interior piece with another interior colour:
    // every seam colour still exists on the board, so pruning keeps the
    // placements, yet the colour counts no longer pair up.
    let mut p = planted_instance(5, 2, 4, 1);
    let k = (0..p.instance.pieces.len())
        .find(|&k| p.instance.pieces[k].grey_sides() == 0 && !p.instance.clues.iter().any(|c| c.placement.piece == k))
        .expect("an interior piece");
    let old = p.instance.pieces[k].0[0];
    let new = p
        .instance
        .pieces
        .iter()
        .filter(|q| q.grey_sides() == 0)
        .flat_map(|q| q.0)
        .find(|&c| c != old)
        .expect("another interior colour");
    p.instance.pieces[k].0[0] = new;
    // Each colour shows on an even number of inner sides in a solution; one
    // count went down by one and another up by one, so both are odd now.
    let outcome = solve(&p.instance, &Options::default(), &limits(10.0), &Stop::new()).expect("solve");
    assert_eq!(outcome.status, Status::Infeasible);
}

#[test]
fn honours_a_clue() {
    let p = planted_instance(6, 2, 4, 5);
    let mut instance = p.instance.clone();
    // Add a clue from the planted solution in an interior cell without one.
    let grid = instance.grid;
    let cell = (0..grid.cells())
        .find(|&c| !grid.is_rim_cell(c) && !instance.clues.iter().any(|clue| clue.cell == c))
        .expect("a free interior cell");
    let placement = p.solution.cells[cell].expect("a full solution");
    instance.clues.push(Clue { cell, placement });
    let encoding = encode(&instance, &EncodeOptions::default());
    let here: Vec<Placement> = encoding.placements.iter().filter(|&&(c, _)| c == cell).map(|&(_, q)| q).collect();
    assert_eq!(here, vec![placement], "a clue cell has exactly its clue");
    let outcome = solve(&instance, &Options::default(), &limits(10.0), &Stop::new()).expect("solve");
    assert_eq!(outcome.status, Status::Solved);
    let board = outcome.board.expect("a board");
    assert!(check(&instance, &board).is_solution());
    for clue in &instance.clues {
        assert_eq!(board.cells[clue.cell], Some(clue.placement), "clue at cell {}", clue.cell);
    }
}

#[test]
fn a_clue_turned_the_wrong_way_is_infeasible() {
    let p = planted_instance(5, 2, 4, 2);
    let mut instance = p.instance.clone();
    let corner = 0;
    instance.clues.retain(|c| c.cell != corner);
    let placement = p.solution.cells[corner].expect("a full solution");
    let turned = Rotation::wrapping(placement.rotation.turns() as usize + 1);
    instance.clues.push(Clue { cell: corner, placement: Placement { rotation: turned, ..placement } });
    let outcome = solve(&instance, &Options::default(), &limits(10.0), &Stop::new()).expect("solve");
    assert_eq!(outcome.status, Status::Infeasible);
}

#[test]
fn tiny_boards_decode_faithfully() {
    // A 2x1 board: two pieces, one inner join of colour 5.
    let grid = Grid { width: 2, height: 1 };
    let instance = Instance { grid, pieces: vec![Piece([0, 0, 0, 5]), Piece([0, 5, 0, 0])], clues: vec![] };
    let outcome = solve(&instance, &Options::default(), &limits(10.0), &Stop::new()).expect("solve");
    assert_eq!(outcome.status, Status::Solved);
    let board = outcome.board.expect("a board");
    let at = |piece, turns| Some(Placement { piece, rotation: Rotation::new(turns).expect("rotation") });
    // Two solutions: piece 2 then piece 1 upright, or both turned half way round.
    assert!(board.cells == vec![at(1, 0), at(0, 0)] || board.cells == vec![at(0, 2), at(1, 2)], "{board:?}");
    assert!(check(&instance, &board).is_solution());
}

#[test]
fn a_raised_stop_interrupts() {
    let p = planted_instance(5, 2, 4, 1);
    let stop = Stop::new();
    stop.raise();
    let outcome = solve(&p.instance, &Options::default(), &limits(10.0), &stop).expect("solve");
    assert_eq!(outcome.status, Status::Interrupted);
    assert!(outcome.board.is_none());
}

/// A board CaDiCaL does not finish in a few seconds.
fn hard_instance() -> Instance {
    planted_instance(HARD_SIDE, 5, HARD_INTERIOR, 1).instance
}

const HARD_SIDE: usize = 12;
const HARD_INTERIOR: u32 = 17;

#[test]
fn a_stop_raised_during_the_search_interrupts_it() {
    let instance = hard_instance();
    let stop = Stop::new();
    let raiser = {
        let stop = stop.clone();
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(500));
            stop.raise();
        })
    };
    let start = Instant::now();
    let outcome = solve(&instance, &Options::default(), &Limits::default(), &stop).expect("solve");
    raiser.join().expect("raiser");
    assert_eq!(outcome.status, Status::Interrupted);
    assert!(start.elapsed() < Duration::from_secs(5), "stopped at all: {:?}", start.elapsed());
}

#[test]
fn the_time_limit_gives_unknown() {
    let instance = hard_instance();
    let start = Instant::now();
    let outcome = solve(&instance, &Options::default(), &limits(0.5), &Stop::new()).expect("solve");
    assert_eq!(outcome.status, Status::Unknown);
    assert!(start.elapsed() < Duration::from_secs(5), "stopped at all: {:?}", start.elapsed());
}

#[test]
fn dimacs_export_lists_every_clause() {
    let p = planted_instance(3, 2, 3, 1);
    let encoding = encode(&p.instance, &EncodeOptions::default());
    let mut text = Vec::new();
    encoding.cnf.write_dimacs(&mut text).expect("write");
    let text = String::from_utf8(text).expect("utf-8");
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some(format!("p cnf {} {}", encoding.cnf.variables, encoding.cnf.len()).as_str()));
    assert_eq!(lines.count(), encoding.cnf.len());
}
