//! Cutting an instance into cubes: prefixes of a fill order whose sub-trees
//! together hold every solution, each exactly once.
//!
//! A cube is the instance plus extra fixed cells: a consistent assignment of
//! (piece, rotation) to the first cells of a fixed fill order. The cubes are
//! the leaves of a prefix tree grown breadth first from the empty prefix: a
//! leaf is expanded by listing every placement of the next free cell of the
//! order that is consistent with what is already fixed (clues and the leaf's
//! own cells): the piece unused, grey exactly on the cell's rim sides, the
//! same colour as every fixed neighbour. Leaves are expanded oldest first until
//! there are at least K, so the cubes sit at two neighbouring depths.
//!
//! Why no solution is lost: every rule checked is one the checker enforces on
//! a full solution, so the first cells of any solution form a consistent
//! prefix, and expanding a leaf lists all consistent placements of its next
//! cell; by induction every solution extends exactly one leaf. A leaf with no
//! consistent extension holds no solution and is dropped (counted in
//! [`Split::dead_ends`]). Conversely a cube only adds fixed cells, so its
//! solutions are solutions of the instance.
//!
//! Why no solution is counted twice: two leaves differ in the piece or the
//! rotation of some cell, so no board extends both. Duplicate pieces or a
//! rotationally symmetric piece give boards that look alike but differ in a
//! piece number or a rotation; they are distinct boards to the checker, and
//! each still lies in exactly one cube.

use std::collections::VecDeque;

use crate::error::Error;
use crate::puzzle::{Clue, GREY, Instance, Placement, Side};
use crate::search::Order;

/// Most cubes a split may ask for.
pub const MAX_CUBES: usize = 9999;

/// The cubes of an instance.
#[derive(Clone, Debug, PartialEq)]
pub struct Split {
    /// The fill order whose first cells the cubes fix.
    pub order: Order,
    /// Each cube's extra fixed cells, in fill order.
    pub cubes: Vec<Vec<Clue>>,
    /// Prefixes dropped because no placement of their next cell was consistent.
    pub dead_ends: usize,
    /// True when the clues themselves conflict: then there are no cubes.
    pub clues_conflict: bool,
}

impl Split {
    /// The sub-instance of cube `i`: the instance with the cube's cells added to the clues.
    pub fn sub_instance(&self, instance: &Instance, i: usize) -> Instance {
        with_fixed(instance, &self.cubes[i])
    }

    /// This split of `instance` with `corner` added to its clues, made a
    /// split of `instance`: `corner` becomes every cube's first fixed cell.
    pub fn with_first(mut self, corner: Clue) -> Split {
        self.cubes.iter_mut().for_each(|cube| cube.insert(0, corner));
        self
    }

    /// Fewest and most fixed cells over the cubes.
    pub fn depths(&self) -> (usize, usize) {
        let depths = self.cubes.iter().map(Vec::len);
        (depths.clone().min().unwrap_or(0), depths.max().unwrap_or(0))
    }
}

/// The instance with `fixed` added to its clues.
pub fn with_fixed(instance: &Instance, fixed: &[Clue]) -> Instance {
    let mut sub = instance.clone();
    sub.clues.extend_from_slice(fixed);
    sub
}

/// Splits `instance` into at least `k` cubes (fewer only when the whole tree
/// has fewer consistent prefixes) along `order`. `k` is in 1..=[`MAX_CUBES`].
pub fn split(instance: &Instance, order: Order, k: usize) -> Result<Split, Error> {
    if !(1..=MAX_CUBES).contains(&k) {
        return Err(Error::Options(format!("--cubes {k} is not in 1..={MAX_CUBES}")));
    }
    let mut split = Split { order, cubes: Vec::new(), dead_ends: 0, clues_conflict: false };
    let Some(prefixes) = Prefixes::new(instance, order) else {
        split.clues_conflict = true;
        return Ok(split);
    };
    let mut leaves: VecDeque<Vec<Clue>> = VecDeque::from([Vec::new()]);
    let mut full: Vec<Vec<Clue>> = Vec::new();
    while leaves.len() + full.len() < k {
        let Some(prefix) = leaves.pop_front() else { break };
        match prefixes.children(instance, &prefix) {
            None => full.push(prefix),
            Some(children) if children.is_empty() => split.dead_ends += 1,
            Some(children) => leaves.extend(children),
        }
    }
    split.cubes = full.into_iter().chain(leaves).collect();
    Ok(split)
}

/// The prefixes of one fill order on one instance: the clues placed, and the
/// free cells in fill order.
pub(crate) struct Prefixes {
    base: State,
    free: Vec<usize>,
}

impl Prefixes {
    /// `None` when the clues break a rule among themselves.
    pub(crate) fn new(instance: &Instance, order: Order) -> Option<Prefixes> {
        let clue_cells: Vec<usize> = instance.clues.iter().map(|c| c.cell).collect();
        let free = order.cells(instance).into_iter().filter(|c| !clue_cells.contains(c)).collect();
        Some(Prefixes { base: State::with_clues(instance)?, free })
    }

    /// Every consistent extension of `prefix` by the next free cell of the
    /// order (empty at a dead end), or `None` when `prefix` fixes every free cell.
    pub(crate) fn children(&self, instance: &Instance, prefix: &[Clue]) -> Option<Vec<Vec<Clue>>> {
        let &cell = self.free.get(prefix.len())?;
        let mut state = self.base.clone();
        for clue in prefix {
            state.place(clue.cell, clue.placement);
        }
        let fits = instance.rim_fits(cell).into_iter().filter(|&p| state.fits(instance, cell, p));
        Some(
            fits.map(|placement| {
                let mut child = prefix.to_vec();
                child.push(Clue { cell, placement });
                child
            })
            .collect(),
        )
    }
}

/// The cells fixed so far and the pieces they use.
#[derive(Clone, Debug)]
struct State {
    cells: Vec<Option<Placement>>,
    used: Vec<bool>,
}

impl State {
    /// The clues placed, or `None` when they break a rule among themselves.
    fn with_clues(instance: &Instance) -> Option<State> {
        let mut state = State { cells: vec![None; instance.grid.cells()], used: vec![false; instance.pieces.len()] };
        for clue in &instance.clues {
            let (cell, p) = (clue.cell, clue.placement);
            if cell >= state.cells.len() || state.cells[cell].is_some() || !state.fits(instance, cell, p) {
                return None;
            }
            state.place(cell, p);
        }
        Some(state)
    }

    fn place(&mut self, cell: usize, placement: Placement) {
        self.cells[cell] = Some(placement);
        self.used[placement.piece] = true;
    }

    /// True if `placement` at `cell` breaks no rule against what is fixed: the
    /// piece unused, grey exactly on the rim, the colour of each fixed neighbour.
    fn fits(&self, instance: &Instance, cell: usize, placement: Placement) -> bool {
        if self.used.get(placement.piece).is_none_or(|&used| used) {
            return false;
        }
        let grid = instance.grid;
        let piece = instance.pieces[placement.piece];
        Side::ALL.iter().all(|&side| {
            let colour = piece.side(placement.rotation, side);
            match grid.neighbour(cell, side) {
                None => colour == GREY,
                Some(other) => {
                    colour != GREY
                        && self.cells[other]
                            .is_none_or(|q| instance.pieces[q.piece].side(q.rotation, side.opposite()) == colour)
                }
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use super::*;
    use crate::dfs;
    use crate::generate::{PlantedSpec, planted};
    use crate::puzzle::Board;

    fn solutions(instance: &Instance) -> Vec<Board> {
        let (boards, exhausted) = dfs::enumerate(instance, 1_000_000, Some(60.0));
        assert!(exhausted, "the enumeration must finish");
        boards
    }

    #[test]
    fn the_cubes_hold_every_solution_exactly_once() {
        for (side, frame, interior, seed, clues, order) in
            [(4, 2, 3, 2, 5, "row-scan"), (5, 2, 3, 1, 1, "corner-square-se-t"), (5, 2, 4, 1, 2, "fail-first-nw")]
        {
            let mut instance = planted(&PlantedSpec::square(side, frame, interior, seed)).unwrap().instance;
            instance.clues.truncate(clues);
            let whole = solutions(&instance);
            assert!(whole.len() > 1, "{side}x{side} seed {seed}: want several solutions, got {}", whole.len());
            for k in [1, 3, 10, 40] {
                let split = split(&instance, order.parse().unwrap(), k).unwrap();
                assert!(split.cubes.len() >= k.min(whole.len()));
                let mut seen = HashSet::new();
                for i in 0..split.cubes.len() {
                    for board in solutions(&split.sub_instance(&instance, i)) {
                        assert!(crate::check::check(&instance, &board).is_solution());
                        assert!(seen.insert(board.cells.clone()), "a solution in two cubes (k {k}, cube {i})");
                    }
                }
                let all: HashSet<_> = whole.iter().map(|b| b.cells.clone()).collect();
                assert_eq!(seen, all, "{side}x{side} seed {seed}, k {k}: the cubes' solutions differ");
            }
        }
    }

    #[test]
    fn conflicting_clues_give_no_cube_and_bad_counts_are_refused() {
        let mut instance = planted(&PlantedSpec::square(4, 2, 3, 2)).unwrap().instance;
        let order: Order = "row-scan".parse().unwrap();
        assert!(split(&instance, order, 0).is_err() && split(&instance, order, MAX_CUBES + 1).is_err());
        let first = instance.clues[0];
        instance.clues.push(Clue { cell: (first.cell + 1) % 16, placement: first.placement });
        let split = split(&instance, order, 4).unwrap();
        assert!(split.clues_conflict && split.cubes.is_empty());
    }
}
