//! Pinning cells of a board as clues: the instance a region, border or export query is asked on.

use crate::error::Error;
use crate::puzzle::{Board, Clue, Instance};

/// `instance` with the placements of `board` at every cell `keep` selects
/// added as clues (empty cells are skipped). A pinned cell that holds a clue
/// must hold that clue, and no piece may be pinned twice.
pub fn pin(instance: &Instance, board: &Board, keep: impl Fn(usize) -> bool) -> Result<Instance, Error> {
    if board.grid != instance.grid {
        return Err(Error::Mismatch(format!("the board is {}, the instance {}", board.grid, instance.grid)));
    }
    let mut pinned = instance.clone();
    let mut used: Vec<Option<usize>> = vec![None; instance.pieces.len()];
    for clue in &instance.clues {
        used[clue.placement.piece] = Some(clue.cell);
    }
    for (cell, placement) in board.cells.iter().enumerate() {
        let Some(placement) = *placement else { continue };
        if !keep(cell) {
            continue;
        }
        let (row, col) = instance.grid.row_col(cell);
        if let Some(clue) = instance.clues.iter().find(|c| c.cell == cell) {
            if clue.placement != placement {
                return Err(Error::Mismatch(format!(
                    "cell ({row}, {col}) holds piece {} rotation {}, but its clue is piece {} rotation {}",
                    placement.piece + 1,
                    placement.rotation.turns(),
                    clue.placement.piece + 1,
                    clue.placement.rotation.turns()
                )));
            }
            continue;
        }
        let Some(slot) = used.get_mut(placement.piece) else {
            return Err(Error::Mismatch(format!(
                "cell ({row}, {col}) holds piece {}, past the last",
                placement.piece + 1
            )));
        };
        if let Some(other) = *slot {
            let (r, c) = instance.grid.row_col(other);
            return Err(Error::Mismatch(format!(
                "piece {} is pinned at ({row}, {col}) and at ({r}, {c})",
                placement.piece + 1
            )));
        }
        *slot = Some(cell);
        pinned.clues.push(Clue { cell, placement });
    }
    pinned.clues.sort_by_key(|c| c.cell);
    Ok(pinned)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::{PlantedSpec, planted};

    #[test]
    fn pins_the_kept_cells_and_refuses_contradictions() {
        let planted = planted(&PlantedSpec::square(4, 2, 3, 2)).unwrap();
        let (instance, board) = (&planted.instance, &planted.solution);
        let pinned = pin(instance, board, |cell| cell < 6).unwrap();
        let cells: std::collections::BTreeSet<usize> = pinned.clues.iter().map(|c| c.cell).collect();
        assert!((0..6).all(|c| cells.contains(&c)));
        assert!(instance.clues.iter().all(|c| cells.contains(&c.cell)));
        // The same piece at two cells.
        let mut twice = board.clone();
        twice.cells[1] = twice.cells[0];
        assert!(pin(instance, &twice, |_| true).is_err());
        // A clue cell holding something else.
        if let Some(clue) = instance.clues.first() {
            let mut broken = board.clone();
            let other = (clue.cell + 1) % 16;
            broken.cells.swap(clue.cell, other);
            assert!(pin(instance, &broken, |c| c == clue.cell).is_err());
        }
    }
}
