//! Fault injection for the test suite: a solver's board corrupted before the checker sees it.
//!
//! Compiled in only with the cargo feature `fault-injection` (the README's test
//! command turns it on); without it [`inject`] does nothing and the
//! environment is never read, so a user's build cannot be made to corrupt
//! anything. With it, `EDGEMATCH_FAULT=corrupt-board:SOLVER` (or
//! `corrupt-board` for every solver) makes that solver's board name one piece
//! twice, which the checker must reject: `solve` then exits 3; and
//! `EDGEMATCH_FAULT=panic:POINT` makes the thread passing [`panic_at`] at POINT
//! (`walk 1 attempt 5`, `completion worker 0`) panic (a worker's bug), which must end the run with exit 2, not a hang.

use crate::puzzle::Board;

/// The environment variable read when the feature is on.
pub const VAR: &str = "EDGEMATCH_FAULT";

/// Corrupts the board of the solver named `solver` if the feature is on and [`VAR`] asks for it.
#[cfg(feature = "fault-injection")]
pub fn inject(solver: &str, board: Option<&mut Board>) {
    let Ok(fault) = std::env::var(VAR) else { return };
    let wanted = match fault.split_once(':') {
        Some(("corrupt-board", name)) => name == solver,
        None => fault == "corrupt-board",
        Some(_) => false,
    };
    if wanted && let Some(board) = board {
        corrupt(board);
    }
}

/// Without the feature: nothing.
#[cfg(not(feature = "fault-injection"))]
pub fn inject(_solver: &str, _board: Option<&mut Board>) {}

/// Panics if the feature is on and [`VAR`] asks for a panic at `point`:
/// `panic:P` names the point, or the words it begins with (`panic:walk 1`
/// panics at `walk 1 attempt 0`, `panic:walk 1 attempt 5` only there). The
/// point comes as format arguments, so that a build without the feature formats nothing.
#[cfg(feature = "fault-injection")]
pub fn panic_at(point: std::fmt::Arguments<'_>) {
    let Ok(fault) = std::env::var(VAR) else { return };
    let Some(asked) = fault.strip_prefix("panic:") else { return };
    let point = point.to_string();
    if point == asked || point.strip_prefix(asked).is_some_and(|rest| rest.starts_with(' ')) {
        panic!("fault injection: a panic at {point}");
    }
}

/// Without the feature: nothing.
#[cfg(not(feature = "fault-injection"))]
#[inline]
pub fn panic_at(_point: std::fmt::Arguments<'_>) {}

/// Makes a board break a hard rule: the second placed cell gets the first
/// one's piece (a duplicated piece); a lone piece becomes one that does not exist.
#[cfg_attr(not(feature = "fault-injection"), allow(dead_code))]
fn corrupt(board: &mut Board) {
    let mut placed = board.cells.iter().enumerate().filter_map(|(cell, p)| p.map(|p| (cell, p)));
    match (placed.next(), placed.next()) {
        (Some((_, first)), Some((second, _))) => board.cells[second] = Some(first),
        (Some((cell, mut only)), None) => {
            only.piece = board.cells.len();
            board.cells[cell] = Some(only);
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::check;
    use crate::generate::{PlantedSpec, planted};

    #[test]
    fn a_corrupted_board_fails_the_checker() {
        let p = planted(&PlantedSpec::square(4, 2, 3, 1)).unwrap();
        let mut board = p.solution.clone();
        assert!(check(&p.instance, &board).is_solution());
        corrupt(&mut board);
        assert!(!check(&p.instance, &board).is_solution());
    }
}
