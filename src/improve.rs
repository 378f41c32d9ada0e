//! Exact repair by CP-SAT as a large-neighbourhood loop: regions of a full board re-solved one after another, each improvement checked.
//!
//! Each round frees one region of the board — a window around a mismatched
//! join, cells scattered over the board with no two side by side (the ends of
//! mismatched joins first), a band of rows or columns, or a random rectangle,
//! in turn — and asks
//! CP-SAT for the placement of the region's own pieces that matches the most
//! joins with every other cell pinned ([`crate::cpsat::repair`]). A better
//! board is kept only after the checker accepted it; a worse one cannot come
//! back (the board given is the model's hint and its score a lower bound).
//! The region's size follows what happens: a round CP-SAT proves optimal
//! without a gain grows the next region, a round that runs out of time
//! shrinks it.

use std::time::Instant;

use crate::check::check;
use crate::cpsat;
use crate::error::Error;
use crate::outcome::{Limits, Status, accept};
use crate::puzzle::{Board, Grid, Instance, Side};
use crate::rng::Rng;
use crate::stop::Stop;

/// Seconds CP-SAT gets per region at most.
pub const ROUND_SECONDS: f64 = 10.0;

/// The smallest and largest region side (cells).
const MIN_SIDE: usize = 3;
const MAX_SIDE: usize = 8;

/// What the loop did.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct Stats {
    /// Regions CP-SAT re-solved.
    pub rounds: u64,
    /// Rounds that found a better board.
    pub improvements: u64,
    /// Rounds CP-SAT proved optimal (no better placement of that region exists).
    pub proved: u64,
    /// The score of the board given.
    pub from: usize,
    /// The score of the board returned.
    pub to: usize,
}

/// The shape of one round's region.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Shape {
    /// A square window around a mismatched join.
    Window,
    /// A band of whole rows or columns.
    Band,
    /// A rectangle anywhere.
    Rectangle,
    /// Cells with no two side by side, the ends of mismatched joins first:
    /// every freed cell meets only pinned ones, so the round is an assignment
    /// of the freed pieces to the freed cells, and a piece may move across
    /// the board (the large neighbourhood of Schaus and Deville's local search).
    Scattered,
}

/// The cells of a `height` × `width` window with its top left at (`row`, `col`), moved inside the grid.
fn window(grid: Grid, row: isize, col: isize, height: usize, width: usize) -> Vec<usize> {
    let top = row.clamp(0, (grid.height.saturating_sub(height)) as isize) as usize;
    let left = col.clamp(0, (grid.width.saturating_sub(width)) as isize) as usize;
    let mut cells = Vec::with_capacity(height * width);
    for r in top..(top + height).min(grid.height) {
        for c in left..(left + width).min(grid.width) {
            cells.push(grid.cell(r, c));
        }
    }
    cells
}

/// The region of one round: `side` sets its size (a band is `side / 2` rows or
/// columns thick; at most `side²` cells each way).
fn region(instance: &Instance, board: &Board, shape: Shape, side: usize, rng: &mut Rng) -> Vec<usize> {
    let grid = instance.grid;
    let half = (side / 2) as isize;
    match shape {
        Shape::Window => {
            let mismatched: Vec<(usize, Side)> = grid
                .joins()
                .filter(|&(cell, s)| {
                    let other = grid.neighbour(cell, s).expect("an inner join");
                    board.colour(instance, cell, s) != board.colour(instance, other, s.opposite())
                })
                .collect();
            if mismatched.is_empty() {
                return region(instance, board, Shape::Rectangle, side, rng);
            }
            let (cell, _) = mismatched[rng.below(mismatched.len())];
            let (row, col) = grid.row_col(cell);
            window(grid, row as isize - half, col as isize - half, side, side)
        }
        Shape::Band => {
            let thick = (side / 2).max(1);
            let cap = side * side;
            if rng.below(2) == 0 {
                let length = (cap / thick).min(grid.width);
                let row = rng.below(grid.height.saturating_sub(thick) + 1);
                let col = rng.below(grid.width.saturating_sub(length) + 1);
                window(grid, row as isize, col as isize, thick, length)
            } else {
                let length = (cap / thick).min(grid.height);
                let row = rng.below(grid.height.saturating_sub(length) + 1);
                let col = rng.below(grid.width.saturating_sub(thick) + 1);
                window(grid, row as isize, col as isize, length, thick)
            }
        }
        Shape::Rectangle => {
            let row = rng.below(grid.height) as isize - half;
            let col = rng.below(grid.width) as isize - half;
            window(grid, row, col, side, side)
        }
        Shape::Scattered => scattered(instance, board, 2 * side * side, rng),
    }
}

/// Up to `count` cells, no two sharing a side: one end of each mismatched join
/// (in random order) where it fits, then random cells.
fn scattered(instance: &Instance, board: &Board, count: usize, rng: &mut Rng) -> Vec<usize> {
    let grid = instance.grid;
    let mut ends: Vec<usize> = grid
        .joins()
        .filter_map(|(cell, s)| {
            let other = grid.neighbour(cell, s).expect("an inner join");
            let mismatched = board.colour(instance, cell, s) != board.colour(instance, other, s.opposite());
            mismatched.then(|| if rng.below(2) == 0 { cell } else { other })
        })
        .collect();
    rng.shuffle(&mut ends);
    let mut rest: Vec<usize> = (0..grid.cells()).collect();
    rng.shuffle(&mut rest);
    let mut taken = vec![false; grid.cells()];
    let mut cells = Vec::with_capacity(count);
    for cell in ends.into_iter().chain(rest) {
        if cells.len() == count {
            break;
        }
        let touches = Side::ALL.iter().any(|&s| grid.neighbour(cell, s).is_some_and(|n| taken[n]));
        if !taken[cell] && !touches {
            taken[cell] = true;
            cells.push(cell);
        }
    }
    cells
}

/// A full board from the partial `board`: CP-SAT maximizing the matched joins
/// with every placed cell kept as it is (taken as clues) and the unused pieces
/// in the empty cells, within `limits`. Checked before it is returned.
///
/// # Errors
/// The placed cells leave no full board (the unused pieces cannot fill the
/// rim), CP-SAT's failure, or no full board within the limits.
pub fn finish(instance: &Instance, board: &Board, limits: &Limits, stop: &Stop) -> Result<Board, Error> {
    let mut fixed = instance.clone();
    fixed.clues = (0..board.cells.len())
        .filter_map(|cell| board.cells[cell].map(|placement| crate::puzzle::Clue { cell, placement }))
        .collect();
    let found = crate::cpsat::maximize::maximize(&fixed, limits, stop)?;
    let full = found.board.filter(|b| b.placed() == instance.grid.cells()).ok_or_else(|| {
        Error::Options(format!(
            "CP-SAT found no full board around the {} placed cells within the time limit",
            board.placed()
        ))
    })?;
    let report = check(instance, &full);
    if !report.only_joins_mismatch() {
        return Err(Error::Rejected(format!("the finished board failed the checker: {report}")));
    }
    Ok(full)
}

/// Share of the time limit that finishing a partial board may take before the repair rounds.
pub const FINISH_SHARE: f64 = 0.5;

/// Improves `board` region by region until `limits.time_limit`, the stop, a
/// full solution, or `target` matched joins. A partial board (empty cells,
/// say another solver's unfinished board) is first finished ([`finish`], in
/// at most [`FINISH_SHARE`] of the time). Each better board, once the checker
/// accepted it, goes to `on_better` with its score and seconds. Returns the
/// best board and what the loop did.
///
/// # Errors
/// A board that breaks a hard rule, a partial board that cannot be finished, or CP-SAT's failure.
pub fn improve(
    instance: &Instance,
    board: &Board,
    limits: &Limits,
    target: Option<usize>,
    stop: &Stop,
    on_better: &mut dyn FnMut(&Board, usize, f64),
) -> Result<(Board, Stats), Error> {
    let start = Instant::now();
    let report = check(instance, board);
    if !report.only_joins_mismatch() {
        return Err(Error::Options(format!("the board breaks more than joins: {report}")));
    }
    let from = report.score;
    let board = if board.placed() == instance.grid.cells() {
        board.clone()
    } else {
        let share = Limits { time_limit: limits.time_limit.map(|t| t * FINISH_SHARE), ..*limits };
        let full = finish(instance, board, &share, stop)?;
        on_better(&full, full.score(instance), start.elapsed().as_secs_f64());
        full
    };
    let report = check(instance, &board);
    let joins = instance.grid.max_score();
    let target = target.unwrap_or(joins).min(joins);
    let mut best = board.clone();
    let mut score = report.score;
    let mut stats = Stats { from, to: score, ..Stats::default() };
    let mut rng = Rng::new(limits.seed);
    let mut side = MIN_SIDE + 1;
    let shapes = [Shape::Window, Shape::Scattered, Shape::Window, Shape::Band, Shape::Scattered, Shape::Rectangle];
    while score < target && !stop.is_raised() {
        let left = limits.time_limit.map(|t| t - start.elapsed().as_secs_f64());
        if left.is_some_and(|l| l <= 0.05) {
            break;
        }
        let shape = shapes[(stats.rounds % shapes.len() as u64) as usize];
        let cells = region(instance, &best, shape, side, &mut rng);
        let seconds = left.map_or(ROUND_SECONDS, |l| l.min(ROUND_SECONDS));
        let round = Limits { time_limit: Some(seconds), ..*limits };
        let repair = cpsat::repair(instance, &best, &cells, &round, stop)?;
        stats.rounds += 1;
        stats.proved += u64::from(repair.optimal);
        if let Some(board) = repair.board.filter(|_| repair.score > score) {
            // Kept only once the checker agrees with CP-SAT's count.
            let checked = accept(instance, Status::Unknown, Some(&board))?.score;
            if checked > score {
                score = checked;
                best = board;
                stats.improvements += 1;
                on_better(&best, score, start.elapsed().as_secs_f64());
                continue;
            }
        }
        side = if repair.optimal { (side + 1).min(MAX_SIDE) } else { side.saturating_sub(1).max(MIN_SIDE) };
    }
    stats.to = score;
    Ok((best, stats))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::{PlantedSpec, planted};

    /// A planted solution with two pieces of its interior swapped: the loop
    /// never returns a worse board, and finds the full score back.
    #[test]
    fn repair_never_worsens_and_mends_a_swap() {
        let p = planted(&PlantedSpec::square(6, 3, 6, 5)).unwrap();
        let mut board = p.solution.clone();
        let grid = p.instance.grid;
        let free = |c: &usize| grid.row_col(*c).0 > 0 && !p.instance.clues.iter().any(|k| k.cell == *c);
        let inner: Vec<usize> = (0..grid.cells()).filter(|c| !grid.is_rim_cell(*c)).filter(free).collect();
        board.cells.swap(inner[0], inner[inner.len() - 1]);
        let before = check(&p.instance, &board).score;
        assert!(before < grid.max_score());
        let mut scores = vec![before];
        let limits = Limits { time_limit: Some(60.0), threads: 1, ..Limits::default() };
        let (best, stats) =
            improve(&p.instance, &board, &limits, None, &Stop::new(), &mut |_, s, _| scores.push(s)).unwrap();
        assert!(scores.windows(2).all(|w| w[0] < w[1]), "{scores:?}");
        assert_eq!(check(&p.instance, &best).score, grid.max_score(), "{stats:?}");
        assert_eq!(stats.to, grid.max_score());
        // A full solution cannot be improved: returned as it is.
        let (same, stats) = improve(&p.instance, &best, &limits, None, &Stop::new(), &mut |_, _, _| {}).unwrap();
        assert_eq!(same, best);
        assert_eq!(stats.rounds, 0);
    }

    #[test]
    fn scattered_cells_never_touch_and_start_at_the_mismatches() {
        let p = planted(&PlantedSpec::square(8, 3, 6, 2)).unwrap();
        let mut board = p.solution.clone();
        let grid = p.instance.grid;
        let (a, b) = (grid.cell(3, 3), grid.cell(5, 6));
        board.cells.swap(a, b);
        let cells = scattered(&p.instance, &board, 64, &mut Rng::new(3));
        for &cell in &cells {
            assert!(!Side::ALL.iter().any(|&s| grid.neighbour(cell, s).is_some_and(|n| cells.contains(&n))));
        }
        // The first cell is an end of a mismatched join: a swapped cell or one of its neighbours.
        let near = |c: usize, x: usize| c == x || Side::ALL.iter().any(|&s| grid.neighbour(c, s) == Some(x));
        assert!(near(cells[0], a) || near(cells[0], b), "{cells:?}");
        assert!(cells.len() >= 12 && cells.len() <= 32, "{}", cells.len());
    }

    /// A partial board is finished first (its placed cells kept), then
    /// improved: on a planted 4×4 with one edge cell emptied the result is the full
    /// solution. Catches `improve` refusing partial boards again, or finishing
    /// one into a board that moves a placed cell.
    #[test]
    fn a_partial_board_is_finished_then_improved() {
        let p = planted(&PlantedSpec::square(4, 2, 3, 1)).unwrap();
        let mut board = p.solution.clone();
        board.cells[1] = None;
        let limits = Limits { time_limit: Some(20.0), threads: 1, ..Limits::default() };
        let (best, stats) = improve(&p.instance, &board, &limits, None, &Stop::new(), &mut |_, _, _| {}).unwrap();
        assert_eq!(best.placed(), 16);
        assert_eq!(stats.to, p.instance.grid.max_score());
        assert!(check(&p.instance, &best).is_solution());
    }
}
