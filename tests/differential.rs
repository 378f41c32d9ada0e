//! Differential tests: the complete DFS and CP-SAT's enumeration find the same
//! set of solutions on small boards, every board passes the checker, and a
//! board made unsolvable is infeasible for both.

use std::collections::BTreeSet;

use edgematch::check::check;
use edgematch::cpsat::{self, model::Formulation};
use edgematch::dfs;
use edgematch::generate::{PlantedSpec, planted};
use edgematch::puzzle::{Board, Clue, GREY, Grid, Instance, Piece, Placement, Rotation};
use edgematch::rng::Rng;
use edgematch::solver::{Limits, Solver, Status};
use edgematch::stop::Stop;

/// A limit of `seconds`, default seed, one thread.
fn within(seconds: f64) -> Limits {
    Limits { time_limit: Some(seconds), ..Limits::default() }
}

/// A hand-made board: every inner join coloured uniformly from `colours`
/// (duplicates and symmetric pieces allowed, so there are several solutions),
/// pieces shuffled and turned, optionally the top-left corner as a clue.
fn hand_made(width: usize, height: usize, colours: u8, seed: u64, clue: bool) -> Instance {
    let grid = Grid { width, height };
    let mut rng = Rng::new(seed);
    let mut sides = vec![[GREY; 4]; grid.cells()];
    for (cell, side) in grid.joins() {
        let colour = 1 + rng.below(usize::from(colours)) as u8;
        sides[cell][side.index()] = colour;
        sides[grid.neighbour(cell, side).unwrap()][side.opposite().index()] = colour;
    }
    let mut order: Vec<usize> = (0..grid.cells()).collect();
    rng.shuffle(&mut order);
    let mut pieces = Vec::new();
    let mut clues = Vec::new();
    for (id, &cell) in order.iter().enumerate() {
        let t = rng.below(4);
        pieces.push(Piece(std::array::from_fn(|k| sides[cell][(k + t) % 4])));
        if clue && cell == 0 {
            clues.push(Clue { cell, placement: Placement { piece: id, rotation: Rotation::wrapping(t) } });
        }
    }
    Instance { grid, pieces, clues }
}

fn key(board: &Board) -> Vec<Option<(usize, u8)>> {
    board.cells.iter().map(|c| c.map(|p| (p.piece, p.rotation.turns()))).collect()
}

/// Both solvers' solution sets, checked and compared; returns the count.
fn agree(instance: &Instance, formulation: Formulation) -> usize {
    const CAP: u64 = 20_000;
    let (dfs_boards, exhausted) = dfs::enumerate(instance, CAP, Some(120.0));
    assert!(exhausted, "the DFS must walk the whole tree");
    let options = cpsat::Options { formulation, ..cpsat::Options::default() };
    let (cpsat_boards, complete) =
        cpsat::enumerate(instance, &options, &within(120.0), CAP as u32, &Stop::new()).unwrap();
    assert!(complete, "CP-SAT must finish its enumeration");
    for board in dfs_boards.iter().chain(&cpsat_boards) {
        let report = check(instance, board);
        assert!(report.is_solution(), "{report}");
        assert!(edgematch::flux::law_holds(instance, board), "the flux law holds on every solution");
    }
    let dfs_set: BTreeSet<_> = dfs_boards.iter().map(key).collect();
    let cpsat_set: BTreeSet<_> = cpsat_boards.iter().map(key).collect();
    assert_eq!(dfs_set.len(), dfs_boards.len(), "the DFS found a board twice");
    assert_eq!(cpsat_set.len(), cpsat_boards.len(), "CP-SAT found a board twice");
    assert_eq!(dfs_set, cpsat_set);
    dfs_set.len()
}

#[test]
fn hand_made_boards_with_several_solutions() {
    let mut counts = Vec::new();
    for (w, h, colours, seed, clue) in
        [(3, 3, 2, 1, false), (4, 4, 2, 2, true), (4, 4, 3, 3, false), (5, 4, 3, 4, true), (5, 5, 4, 5, true)]
    {
        let instance = hand_made(w, h, colours, seed, clue);
        for formulation in [Formulation::Table, Formulation::Element] {
            counts.push(agree(&instance, formulation));
        }
    }
    // Few colours give several solutions: the comparison is not between empty sets.
    assert!(counts.iter().filter(|&&c| c > 1).count() >= 4, "{counts:?}");
}

#[test]
fn planted_boards_agree() {
    for (n, f, i, seed) in [(4, 2, 4, 1), (5, 2, 4, 2), (6, 3, 6, 3)] {
        let spec = PlantedSpec::square(n, f, i, seed);
        let p = planted(&spec).unwrap();
        let count = agree(&p.instance, Formulation::Table);
        assert!(count >= 1);
        let planted_key = key(&p.solution);
        let (boards, _) = dfs::enumerate(&p.instance, 20_000, None);
        assert!(boards.iter().any(|b| key(b) == planted_key), "the planted solution is among them");
    }
}

#[test]
fn an_edited_piece_makes_both_infeasible() {
    let spec = PlantedSpec::square(5, 2, 4, 7);
    let mut instance = planted(&spec).unwrap().instance;
    let inner = instance.pieces.iter().position(|p| p.grey_sides() == 0).unwrap();
    instance.pieces[inner].0[0] = 99;

    let (boards, exhausted) = dfs::enumerate(&instance, 10, Some(60.0));
    assert!(exhausted && boards.is_empty(), "exhausted {exhausted}, {} boards", boards.len());
    let complete = Solver::Dfs(dfs::Options { complete: true, ..dfs::Options::default() });
    assert_eq!(complete.solve(&instance, &Limits::default(), &Stop::new()).unwrap().status, Status::Infeasible);

    for formulation in [Formulation::Table, Formulation::Element] {
        let solver = Solver::Cpsat(cpsat::Options { formulation, ..cpsat::Options::default() });
        let outcome = solver.solve(&instance, &within(60.0), &Stop::new()).unwrap();
        assert_eq!(outcome.status, Status::Infeasible);
    }
}

/// The placement MIP (HiGHS) agrees on small boards: it finds a full board the
/// checker accepts, and proves the edited board has none.
#[test]
fn the_mip_agrees_on_small_boards() {
    let mip = Solver::Mip(edgematch::mip::Options::default());
    for (n, seed) in [(4, 1), (5, 2)] {
        let spec = PlantedSpec::square(n, 2, 4, seed);
        let p = planted(&spec).unwrap();
        let outcome = mip.solve(&p.instance, &within(60.0), &Stop::new()).unwrap();
        assert_eq!(outcome.status, Status::Solved);
        assert!(check(&p.instance, outcome.board.as_ref().unwrap()).is_solution());
    }
    let spec = PlantedSpec::square(5, 2, 4, 7);
    let mut instance = planted(&spec).unwrap().instance;
    let inner = instance.pieces.iter().position(|p| p.grey_sides() == 0).unwrap();
    instance.pieces[inner].0[0] = 99;
    let outcome = mip.solve(&instance, &within(60.0), &Stop::new()).unwrap();
    assert_eq!(outcome.status, Status::Infeasible);
}
