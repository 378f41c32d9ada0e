//! Impossibility oracles: can a freed region of a board, or the whole interior inside a border, ever be completed?
//!
//! A query pins every cell outside the freed region as a clue ([`crate::pin`])
//! and asks a complete solver (CP-SAT, the SAT backend, or both raced) for a
//! fully matched board of the pinned instance. The freed cells may take only
//! the pieces the pinned cells leave, since every piece is used once. The
//! answer is a proof that no rearrangement of the region finishes the board
//! (`infeasible`), or a completion that the checker has passed, or `unknown`
//! when the time limit came first.
//!
//! If the pinned cells already disagree among themselves, no completion can
//! exist; the query says so at once without calling a solver.

use std::collections::BTreeSet;
use std::time::Instant;

use serde::Serialize;

use crate::check::{Violation, check};
use crate::error::Error;
use crate::pin::pin;
use crate::portfolio::{self, Arm};
use crate::puzzle::{Board, Grid, Instance, Side};
use crate::solver::{self, Limits, Outcome, Solver, SolverKind, Status};
use crate::stop::Stop;

/// Which cells a region query frees.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Region {
    /// These cells (row-major indices).
    Cells(BTreeSet<usize>),
    /// Every cell within `radius` of `cell` (Chebyshev distance: a square of side 2·radius + 1).
    Around {
        /// The centre, row-major.
        cell: usize,
        /// Rings around it.
        radius: usize,
    },
    /// Every cell within `radius` of either cell of a mismatched join.
    Mismatches {
        /// Rings around each mismatched join's two cells (0: just those cells).
        radius: usize,
    },
}

/// The cells within Chebyshev distance `radius` of `cell`.
fn square(grid: Grid, cell: usize, radius: usize) -> impl Iterator<Item = usize> {
    let (row, col) = grid.row_col(cell);
    let rows = row.saturating_sub(radius)..=(row + radius).min(grid.height - 1);
    rows.flat_map(move |r| {
        (col.saturating_sub(radius)..=(col + radius).min(grid.width - 1)).map(move |c| grid.cell(r, c))
    })
}

/// The joins of `board` whose two sides disagree, as (cell, E or S).
pub fn mismatched_joins(instance: &Instance, board: &Board) -> Vec<(usize, Side)> {
    board
        .grid
        .joins()
        .filter(|&(cell, side)| {
            let other = board.grid.neighbour(cell, side).expect("an inner join has two cells");
            match (board.colour(instance, cell, side), board.colour(instance, other, side.opposite())) {
                (Some(a), Some(b)) => a != b,
                _ => false,
            }
        })
        .collect()
}

/// The cells `region` frees on `board`; empty cells are always free.
pub fn free_cells(instance: &Instance, board: &Board, region: &Region) -> Result<BTreeSet<usize>, Error> {
    let grid = board.grid;
    let mut free: BTreeSet<usize> = (0..grid.cells()).filter(|&c| board.cells[c].is_none()).collect();
    match region {
        Region::Cells(cells) => {
            if let Some(&bad) = cells.iter().find(|&&c| c >= grid.cells()) {
                return Err(Error::Options(format!("cell {bad} is outside the {grid} board")));
            }
            free.extend(cells);
        }
        Region::Around { cell, radius } => {
            if *cell >= grid.cells() {
                return Err(Error::Options(format!("cell {cell} is outside the {grid} board")));
            }
            free.extend(square(grid, *cell, *radius));
        }
        Region::Mismatches { radius } => {
            for (cell, side) in mismatched_joins(instance, board) {
                let other = grid.neighbour(cell, side).expect("an inner join has two cells");
                free.extend(square(grid, cell, *radius).chain(square(grid, other, *radius)));
            }
        }
    }
    Ok(free)
}

/// The rim cells of a grid.
pub fn rim_cells(grid: Grid) -> BTreeSet<usize> {
    (0..grid.cells()).filter(|&c| grid.is_rim_cell(c)).collect()
}

/// A query: the pinned instance and what it frees.
#[derive(Clone, Debug)]
pub struct Query {
    /// The instance with every kept cell pinned as a clue.
    pub instance: Instance,
    /// The freed cells.
    pub free: BTreeSet<usize>,
    /// Inner joins between two pinned cells that already disagree.
    pub pinned_mismatches: usize,
}

/// Pins every cell of `board` outside `free`.
pub fn query(instance: &Instance, board: &Board, free: BTreeSet<usize>) -> Result<Query, Error> {
    let pinned = pin(instance, board, |cell| !free.contains(&cell))?;
    let mut only_pinned = Board::empty(board.grid);
    for clue in &pinned.clues {
        only_pinned.cells[clue.cell] = Some(clue.placement);
    }
    let pinned_mismatches = check(&pinned, &only_pinned)
        .violations
        .iter()
        .filter(|v| {
            matches!(v, Violation::Mismatch { .. } | Violation::ColourOnRim { .. } | Violation::GreyInside { .. })
        })
        .count();
    Ok(Query { instance: pinned, free, pinned_mismatches })
}

/// The answer to a query.
#[derive(Clone, Debug, Serialize)]
pub struct Reply {
    /// `solved` (a checked completion), `infeasible` (no completion exists) or `unknown`/`interrupted`.
    pub status: Status,
    /// The completion, if there is one; the checker passed it.
    #[serde(skip)]
    pub board: Option<Board>,
    /// Seconds, building included.
    pub seconds: f64,
    /// Which solver answered (`none` when the pinned cells decided it).
    pub solver: String,
    /// Freed cells.
    pub free_cells: usize,
    /// Pieces the freed cells may take.
    pub free_pieces: usize,
    /// Disagreeing joins between pinned cells.
    pub pinned_mismatches: usize,
}

/// The solver an oracle uses: CP-SAT, the SAT backend, or both raced (`auto`).
pub fn solver_for(kind: SolverKind, cores: u32) -> Result<Solver, Error> {
    Ok(match kind {
        SolverKind::Cpsat | SolverKind::Sat => Solver::new(kind),
        SolverKind::Auto => Solver::Auto(portfolio::Options {
            arms: vec![
                Arm { solver: Solver::new(SolverKind::Sat), threads: 1 },
                Arm { solver: Solver::new(SolverKind::Cpsat), threads: cores.saturating_sub(1).max(1) },
            ],
            progress: false,
        }),
        other => {
            return Err(Error::Options(format!("the oracles use cpsat, sat or auto (both raced), not {other}")));
        }
    })
}

/// Answers `query` with `solver`; a completion is checked against the pinned instance.
pub fn ask(query: &Query, solver: &Solver, limits: &Limits, stop: &Stop) -> Result<Reply, Error> {
    let start = Instant::now();
    let free_pieces = query.instance.pieces.len() - query.instance.clues.len();
    let answer = |status, board, solver: String| Reply {
        status,
        board,
        seconds: start.elapsed().as_secs_f64(),
        solver,
        free_cells: query.free.len(),
        free_pieces,
        pinned_mismatches: query.pinned_mismatches,
    };
    if query.pinned_mismatches > 0 {
        return Ok(answer(Status::Infeasible, None, "none".to_owned()));
    }
    let (outcome, verified): (Outcome, _) = solver::solve_accepted(solver, &query.instance, limits, stop)?;
    let by = match &outcome.stats {
        solver::Stats::Auto(stats) => stats.winner.as_ref().map_or("auto".to_owned(), |w| format!("auto ({w})")),
        _ => solver.kind().to_string(),
    };
    let board = if verified.solved { outcome.board } else { None };
    let status = if outcome.status == Status::Solved && board.is_none() { Status::Unknown } else { outcome.status };
    Ok(answer(status, board, by))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::{PlantedSpec, planted};

    #[test]
    fn regions_free_what_they_say() {
        let planted = planted(&PlantedSpec::square(6, 2, 4, 3)).unwrap();
        let (instance, board) = (&planted.instance, &planted.solution);
        let grid = board.grid;
        let around = free_cells(instance, board, &Region::Around { cell: grid.cell(0, 0), radius: 1 }).unwrap();
        assert_eq!(around, [0, 1, 6, 7].into());
        let centre = free_cells(instance, board, &Region::Around { cell: grid.cell(2, 2), radius: 1 }).unwrap();
        assert_eq!(centre.len(), 9);
        assert!(free_cells(instance, board, &Region::Mismatches { radius: 2 }).unwrap().is_empty());
        // Swap two interior pieces: the mismatches appear around both.
        let mut swapped = board.clone();
        swapped.cells.swap(grid.cell(2, 2), grid.cell(3, 3));
        let joins = mismatched_joins(instance, &swapped);
        assert!(!joins.is_empty());
        let free = free_cells(instance, &swapped, &Region::Mismatches { radius: 0 }).unwrap();
        assert!(free.contains(&grid.cell(2, 2)) && free.contains(&grid.cell(3, 3)));
        assert!(free_cells(instance, board, &Region::Cells([99].into())).is_err());
    }

    #[test]
    fn pinned_disagreement_answers_at_once() {
        let planted = planted(&PlantedSpec::square(5, 2, 4, 4)).unwrap();
        let (instance, board) = (&planted.instance, &planted.solution);
        let grid = board.grid;
        // Two interior cells without clues.
        let plain: Vec<usize> = (0..grid.cells())
            .filter(|&c| !grid.is_rim_cell(c) && instance.clues.iter().all(|clue| clue.cell != c))
            .collect();
        let (a, b) = (plain[0], plain[plain.len() - 1]);
        let mut swapped = board.clone();
        swapped.cells.swap(a, b);
        // Free a corner only: the swapped pieces stay pinned and disagree.
        let q = query(instance, &swapped, [0].into()).unwrap();
        assert!(q.pinned_mismatches > 0);
        let answer = ask(&q, &Solver::new(SolverKind::Sat), &Limits::default(), &Stop::new()).unwrap();
        assert_eq!((answer.status, answer.solver.as_str()), (Status::Infeasible, "none"));
        // Free both swapped cells: the planted solution completes it.
        let q = query(instance, &swapped, [a, b].into()).unwrap();
        assert_eq!(q.pinned_mismatches, 0);
        let a = ask(&q, &Solver::new(SolverKind::Sat), &Limits::default(), &Stop::new()).unwrap();
        assert_eq!(a.status, Status::Solved);
        assert!(check(instance, a.board.as_ref().unwrap()).is_solution());
    }
}
