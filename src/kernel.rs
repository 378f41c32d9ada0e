//! The placement basics under the native walks (the exact search in `search/`, the score walks in `score/`, the DFS): packed colours, rim and grey classes, the turns that fit a class, candidate lists back to back, the clues laid out and the sides a fill finds placed, the fixed-size arrays any `u16` indexes, and the periodic poll.
//!
//! Each is one fact the walks must agree on; written here once, a table built
//! by one walk means what the same table built by another means.

use crate::puzzle::{Colour, GREY, Grid, Instance, Placement, Side};

/// Length of the walks' fixed-size cell and piece arrays: any `u16` index
/// fits, so the inner loops index them without a bounds check.
pub(crate) const SLOTS: usize = 1 << 16;

/// A side index meaning "no side" in a table's key (N E S W are 0 to 3).
pub(crate) const NO_SIDE: u8 = 4;

/// The colours a placement shows packed into a `u32`: N in the low byte, then E, S, W.
#[inline(always)]
pub(crate) fn pack(shown: [Colour; 4]) -> u32 {
    u32::from_le_bytes(shown)
}

/// The rim class of `cell`: bit `s` set when its side `s` faces the rim.
#[inline]
pub(crate) fn rim_class(grid: Grid, cell: usize) -> u8 {
    Side::ALL.iter().fold(0, |m, &s| m | (u8::from(grid.is_rim_side(cell, s)) << s.index()))
}

/// The grey class of the colours a placement shows: bit `s` set when side
/// `s` is grey. A placement fits a cell when the two classes are equal.
#[inline]
pub(crate) fn grey_class(shown: [Colour; 4]) -> u8 {
    (0..4).fold(0, |m, s| m | (u8::from(shown[s] == GREY) << s))
}

/// A zeroed fixed-size array on the heap, filled from `from` (at most [`SLOTS`] long).
pub(crate) fn boxed<T: Copy + Default>(from: &[T]) -> Box<[T; SLOTS]> {
    let mut v = vec![T::default(); SLOTS];
    v[..from.len()].copy_from_slice(from);
    v.into_boxed_slice().try_into().unwrap_or_else(|_| unreachable!("SLOTS long"))
}

/// Every turn of every piece whose grey sides are exactly those of rim
/// class `class` (see [`rim_class`]), by piece, then rotation: the
/// candidates any table of a cell of that class is built from.
pub(crate) fn fitting(instance: &Instance, class: u8) -> impl Iterator<Item = (Placement, [Colour; 4])> + '_ {
    instance.turns().filter(move |&(_, shown)| grey_class(shown) == class)
}

/// Lists keyed by a number below a key count, back to back: key `k` holds
/// `items[starts[k]..starts[k + 1]]`. The layout of the walks' candidate tables.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Buckets<T> {
    /// Where each key's list starts in `items`, then `items.len()`.
    pub(crate) starts: Vec<u32>,
    /// Every list, back to back.
    pub(crate) items: Vec<T>,
}

impl<T> Buckets<T> {
    /// The lists of the `keyed` (key, item) pairs, every key below `keys`;
    /// the items of one key keep the order they came in.
    pub(crate) fn new(keys: usize, keyed: impl IntoIterator<Item = (usize, T)>) -> Buckets<T> {
        let mut keyed: Vec<(usize, T)> = keyed.into_iter().collect();
        keyed.sort_by_key(|&(k, _)| k);
        let mut starts = vec![0u32; keys + 1];
        for &(k, _) in &keyed {
            assert!(k < keys, "key {k} of {keys}");
            starts[k + 1] += 1;
        }
        for k in 0..keys {
            starts[k + 1] += starts[k];
        }
        Buckets { starts, items: keyed.into_iter().map(|(_, item)| item).collect() }
    }

    /// Number of keys.
    pub(crate) fn keys(&self) -> usize {
        self.starts.len() - 1
    }

    /// The list of key `k`.
    pub(crate) fn list(&self, k: usize) -> &[T] {
        &self.items[self.starts[k] as usize..self.starts[k + 1] as usize]
    }

    /// Each list in key order, to reorder in place.
    pub(crate) fn lists_mut(&mut self) -> impl Iterator<Item = &mut [T]> {
        let mut rest = self.items.as_mut_slice();
        self.starts.windows(2).map(move |w| {
            let (list, tail) = std::mem::take(&mut rest).split_at_mut((w[1] - w[0]) as usize);
            rest = tail;
            list
        })
    }

    /// Appends these lists after those already in `starts` and `items`:
    /// their starts shifted past the items there (without the end, which the
    /// next table's first start or a final push supplies), then their items.
    pub(crate) fn append_to(self, starts: &mut Vec<u32>, items: &mut Vec<T>) {
        let base = items.len() as u32;
        starts.extend(self.starts[..self.keys()].iter().map(|&s| base + s));
        items.extend(self.items);
    }
}

/// A walk's periodic look at the clock and the shared flags, every so many
/// placements: the one place the looks are counted and the placements made
/// between two of them reach the live page.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Poll {
    every: u64,
    next: u64,
}

impl Poll {
    /// A look every `every` placements (at least one), the first after `every`.
    pub(crate) const fn every(every: u64) -> Poll {
        let every = if every == 0 { 1 } else { every };
        Poll { every, next: every }
    }

    /// Whether a walk that has made `nodes` placements is due to look.
    #[inline(always)]
    pub(crate) fn due(&self, nodes: u64) -> bool {
        nodes >= self.next
    }

    /// The placement count at which the next look is due.
    #[inline(always)]
    pub(crate) fn next(&self) -> u64 {
        self.next
    }

    /// A look taken at `nodes` placements: the placements since the last
    /// look go to the live page, and the next look is `every` from here.
    #[inline]
    pub(crate) fn looked(&mut self, nodes: u64) {
        crate::live::nodes(nodes.saturating_sub(self.next - self.every));
        self.next = nodes + self.every;
    }
}

/// The clues laid out for a walk.
#[derive(Clone, Debug)]
pub(crate) struct Clues {
    /// Per cell, the colours its clue shows (N E S W), if it holds one.
    pub(crate) shown: Vec<Option<[Colour; 4]>>,
    /// Per piece, whether a clue takes it.
    pub(crate) pieces: Vec<bool>,
}

impl Clues {
    /// The clues of `instance`, or why they cannot be laid out: a cell or
    /// piece out of range, a piece two clues take, or a cell two clues fill.
    pub(crate) fn of(instance: &Instance) -> Result<Clues, String> {
        let grid = instance.grid;
        let mut shown = vec![None; grid.cells()];
        let mut pieces = vec![false; instance.pieces.len()];
        for clue in &instance.clues {
            let p = clue.placement;
            if clue.cell >= grid.cells() || p.piece >= instance.pieces.len() {
                return Err(format!("the clue at cell {} names piece {}, out of range", clue.cell, p.piece + 1));
            }
            if std::mem::replace(&mut pieces[p.piece], true) {
                return Err(format!("piece {} is a clue twice", p.piece + 1));
            }
            if shown[clue.cell].replace(instance.pieces[p.piece].rotated(p.rotation)).is_some() {
                return Err(format!("cell {} has two clues", clue.cell));
            }
        }
        Ok(Clues { shown, pieces })
    }

    /// Per piece, whether a clue takes it, then `false` up to [`SLOTS`]: the
    /// used-piece array a walk starts from.
    pub(crate) fn used(&self) -> Box<[bool; SLOTS]> {
        boxed(&self.pieces)
    }

    /// Per cell, the packed colours of its clue (0 where none), then a
    /// sentinel cell showing nothing: one longer than the board.
    pub(crate) fn packed(&self) -> Vec<u32> {
        let mut packed: Vec<u32> = self.shown.iter().map(|shown| shown.map_or(0, pack)).collect();
        packed.push(0);
        packed
    }

    /// The cells of `order` a walk fills (in range, no clue), in fill order,
    /// and per cell its depth in that fill (`usize::MAX` for the others).
    pub(crate) fn fill(&self, order: &[usize]) -> (Vec<usize>, Vec<usize>) {
        let cells = self.shown.len();
        let free: Vec<usize> = order.iter().copied().filter(|&c| c < cells && self.shown[c].is_none()).collect();
        let mut depth = vec![usize::MAX; cells];
        for (i, &cell) in free.iter().enumerate() {
            depth[cell] = i;
        }
        (free, depth)
    }

    /// The sides of the free `cell` whose neighbours a walk finds placed
    /// when it reaches the cell: clues, and cells of an earlier `depth` (as
    /// [`Clues::fill`] gives it); (side, neighbour), N E S W.
    pub(crate) fn known<'a>(
        &'a self,
        grid: Grid,
        depth: &'a [usize],
        cell: usize,
    ) -> impl Iterator<Item = (Side, usize)> + 'a {
        let placed = move |other: usize| self.shown[other].is_some() || depth[other] < depth[cell];
        Side::ALL
            .into_iter()
            .filter_map(move |side| grid.neighbour(cell, side).filter(|&o| placed(o)).map(|o| (side, o)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::{PlantedSpec, planted};
    use crate::puzzle::Rotation;

    /// The classes of a solved board's pieces are their cells' classes: a
    /// rim side is grey and an inner side is not. Catches a class built with
    /// its bits in another side order than `pack`'s (N E S W), which would
    /// give a walk no candidate on the rim.
    #[test]
    fn a_solution_shows_grey_exactly_where_its_cells_face_the_rim() {
        let p = planted(&PlantedSpec::square(5, 2, 4, 1)).unwrap();
        for (cell, placed) in p.solution.cells.iter().enumerate() {
            let Placement { piece, rotation } = placed.unwrap();
            let shown = p.instance.pieces[piece].rotated(rotation);
            assert_eq!(grey_class(shown), rim_class(p.instance.grid, cell), "cell {cell}");
            assert_eq!(pack(shown).to_le_bytes(), shown, "N in the low byte");
        }
    }

    /// Each key's list holds exactly its items, in the order they came, and
    /// the lists lie in key order with no gap. Catches a counting sort that
    /// misplaces a start (a list reading its neighbour's items) or reorders
    /// items of one key (a seeded shuffle would then differ run to run).
    #[test]
    fn buckets_hold_each_key_s_items_in_arrival_order() {
        let keyed = [(2, 'a'), (0, 'b'), (2, 'c'), (3, 'd'), (0, 'e')];
        let mut b = Buckets::new(5, keyed);
        assert_eq!(b.starts, [0, 2, 2, 4, 5, 5]);
        assert_eq!(
            (b.list(0), b.list(1), b.list(2), b.list(3), b.list(4)),
            (&['b', 'e'][..], &[][..], &['a', 'c'][..], &['d'][..], &[][..])
        );
        b.lists_mut().for_each(|l| l.reverse());
        assert_eq!(b.items, ['e', 'b', 'c', 'a', 'd']);
        let (mut starts, mut items) = (vec![0], vec!['x']);
        b.append_to(&mut starts, &mut items);
        assert_eq!((starts, items.len()), (vec![0, 1, 3, 3, 5, 6], 6));
    }

    /// `fitting` yields exactly the turns whose grey class is the class
    /// asked for, and every turn fits some class. Catches a filter on the
    /// wrong class bits, which would leave a walk's rim tables empty.
    #[test]
    fn every_turn_fits_exactly_its_own_class() {
        let instance = planted(&PlantedSpec::square(5, 2, 4, 3)).unwrap().instance;
        let by_class: usize = (0..16).map(|class| fitting(&instance, class).count()).sum();
        assert_eq!(by_class, 4 * instance.pieces.len());
        for (placement, shown) in fitting(&instance, 0b1001) {
            assert_eq!(instance.pieces[placement.piece].rotated(placement.rotation), shown);
            assert!(shown[0] == GREY && shown[3] == GREY && shown[1] != GREY && shown[2] != GREY);
        }
        assert_eq!(fitting(&instance, 0b1001).count(), 4, "one corner turn per corner piece");
    }

    /// Looks fall due every `every` placements counted from the last look,
    /// however far past its due count a walk took it. Catches a poll that
    /// drifts (looks due at fixed multiples, so a late look is followed by an
    /// early one) or never falls due again.
    #[test]
    fn a_poll_falls_due_every_so_many_placements_from_the_last_look() {
        let mut poll = Poll::every(100);
        assert!(!poll.due(99) && poll.due(100));
        poll.looked(130);
        assert_eq!(poll.next(), 230);
        assert!(!poll.due(229) && poll.due(230));
        assert!(Poll::every(0).due(1), "a zero interval looks at every placement");
    }

    /// The clues laid out match the instance's clue board; a clue naming a
    /// piece twice, or two clues on one cell, are refused. Catches a clue laid
    /// at the wrong cell or rotation, and a second clue silently overwriting
    /// the first while both pieces count as taken.
    #[test]
    fn the_clues_are_laid_where_the_instance_puts_them() {
        let mut instance = planted(&PlantedSpec::square(5, 2, 4, 2)).unwrap().instance;
        let clues = Clues::of(&instance).unwrap();
        let board = instance.clue_board();
        for (cell, placed) in board.cells.iter().enumerate() {
            let clue = instance.clues.iter().find(|k| k.cell == cell).map(|k| k.placement);
            assert_eq!(*placed, clue, "cell {cell}");
            let want = placed.map(|p| instance.pieces[p.piece].rotated(p.rotation));
            assert_eq!(clues.shown[cell], want, "cell {cell}");
        }
        assert_eq!(clues.pieces.iter().filter(|&&t| t).count(), instance.clues.len());
        let twice = instance.clues[0].placement.piece;
        let first = instance.clues[1].placement;
        instance.clues[1].placement = Placement { piece: twice, rotation: Rotation::new(0).unwrap() };
        assert!(Clues::of(&instance).unwrap_err().contains("is a clue twice"));
        instance.clues[1].placement = first;
        instance.clues[1].cell = instance.clues[0].cell;
        assert!(Clues::of(&instance).unwrap_err().contains("two clues"));
    }
}
