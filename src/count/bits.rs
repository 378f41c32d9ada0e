//! The plain row scan on bit sets: the tree of `plain.rs` node for node, each cell's free candidates taken from masks of unused pieces instead of read and skipped one by one.
//!
//! Built from the plain table, so the rules (grey exactly on the rim, clues,
//! distinct turns) are that table's: per cell and per key (the colours its
//! north and west neighbours show) it holds, for each turn that shows the
//! key, the mask of the pieces the plain table lists there in that turn.
//! The walk keeps one mask of free pieces; a depth's candidates in one turn
//! are `mask & free`, taken lowest bit first. A used piece is never read, and
//! no branch guesses whether the next one is used, which is where the plain
//! scan spends its time once the board is half full. Every (piece, turn)
//! the plain scan places at a node, this one places there too, so the nodes
//! and the solutions are the same; within a cell, candidates come turn by
//! turn instead of piece by piece.
//!
//! Masks of 64 or 128 bits: boards of at most 128 pieces (every Brendan board
//! up to 11×11); larger ones are counted by the plain scan.

use std::ops::{BitAnd, BitOr, BitXor};

use super::plain::{self, Cand, End, Halt};
use crate::kernel::Poll;
use crate::puzzle::Colour;

/// Nodes between two looks at the clock and the stop flag.
const POLL: u64 = 1 << 18;

/// A set of pieces, one bit each.
pub(crate) trait Mask:
    Copy + Eq + BitAnd<Output = Self> + BitOr<Output = Self> + BitXor<Output = Self> + Send + Sync
{
    /// No piece.
    const EMPTY: Self;
    /// Pieces a mask holds.
    const PIECES: usize;
    /// The set of `piece` alone.
    fn of(piece: usize) -> Self;
    /// The lowest piece of a set that is not empty.
    fn lowest(self) -> usize;
    /// The set without its lowest piece.
    fn without_lowest(self) -> Self;
}

macro_rules! mask {
    ($bits:ty) => {
        impl Mask for $bits {
            const EMPTY: Self = 0;
            const PIECES: usize = <$bits>::BITS as usize;
            #[inline(always)]
            fn of(piece: usize) -> Self {
                1 << piece
            }
            #[inline(always)]
            fn lowest(self) -> usize {
                self.trailing_zeros() as usize
            }
            #[inline(always)]
            fn without_lowest(self) -> Self {
                self & self.wrapping_sub(1)
            }
        }
    };
}
mask!(u64);
mask!(u128);

/// The pieces a key admits in one turn.
#[derive(Clone, Copy, Debug)]
struct Turned<M> {
    pieces: M,
    turns: u8,
}

/// Per cell and key, the turns that show the key and their pieces' masks.
#[derive(Debug)]
pub(crate) struct Table<'a, M> {
    plain: &'a plain::Table,
    turned: Vec<Turned<M>>,
    /// Per key of the plain table (same index), the first of its turns; one more entry ends the last.
    starts: Vec<u32>,
    /// Per piece and turn (`piece · 4 + turns`), the colours it shows east and south.
    shows: Vec<[Colour; 2]>,
    /// Every piece.
    all: M,
}

impl<'a, M: Mask> Table<'a, M> {
    /// The masks of `plain`'s candidates; `None` when its pieces do not fit in `M`.
    pub(crate) fn of(plain: &'a plain::Table) -> Option<Table<'a, M>> {
        if plain.pieces() > M::PIECES {
            return None;
        }
        let mut turned = Vec::new();
        let mut starts = Vec::with_capacity(plain.heads() + 1);
        let mut shows = vec![[0; 2]; plain.pieces() * 4];
        for head in 0..plain.heads() {
            starts.push(turned.len() as u32);
            let cands = plain.list(head);
            for turns in 0..4u8 {
                let mut pieces = M::EMPTY;
                for c in cands.iter().filter(|c| c.turns == turns) {
                    pieces = pieces | M::of(usize::from(c.piece));
                    shows[usize::from(c.piece) * 4 + usize::from(turns)] = [c.east, c.south];
                }
                if pieces != M::EMPTY {
                    turned.push(Turned { pieces, turns });
                }
            }
        }
        starts.push(turned.len() as u32);
        assert!(starts.windows(2).all(|w| w[0] <= w[1]) && starts.len() == plain.heads() + 1, "heads out of order");
        let all = (0..plain.pieces()).fold(M::EMPTY, |all, p| all | M::of(p));
        assert!(turned.iter().all(|t| t.pieces | all == all), "a mask holds a piece of no list");
        Some(Table { plain, turned, starts, shows, all })
    }

    /// The frame of the cell at `depth`, its neighbours' colours read from `chosen`.
    ///
    /// # Safety
    /// As [`plain::Table::head_unchecked`]: `depth` below the cells, `chosen`
    /// one entry longer than the cells. `starts` has one entry per head and one more.
    #[inline(always)]
    unsafe fn open(&self, chosen: &[Cand], depth: usize) -> Frame<M> {
        // SAFETY: as the caller promised; the head is below `plain.heads()`.
        unsafe {
            let head = self.plain.head_unchecked(chosen, depth);
            Frame {
                left: M::EMPTY,
                turns: 0,
                pos: *self.starts.get_unchecked(head),
                end: *self.starts.get_unchecked(head + 1),
            }
        }
    }
}

/// One depth of the walk: the turns still to open, and the free pieces left in the open turn.
#[derive(Clone, Copy, Debug)]
struct Frame<M> {
    left: M,
    turns: u8,
    pos: u32,
    end: u32,
}

impl<M: Mask> Frame<M> {
    /// Opens turns until one has a free piece (`left` not empty), or none is left (`left` empty).
    ///
    /// # Safety
    /// `pos..end` lies inside `turned` (a range of `Table::starts`).
    #[inline(always)]
    unsafe fn next_turn(&mut self, turned: &[Turned<M>], free: M) {
        while self.left == M::EMPTY && self.pos != self.end {
            // SAFETY: pos < end <= turned.len(), as the caller promised.
            let t = unsafe { *turned.get_unchecked(self.pos as usize) };
            self.pos += 1;
            self.left = t.pieces & free;
            self.turns = t.turns;
        }
    }
}

/// [`plain::scan`] on `table`: the same nodes and the same boards handed to `visit`.
///
/// The frame of the depth being scanned lives in locals; the stack holds
/// the frames of the depths above. A placement whose next cell has no free
/// candidate is a leaf: counted, never pushed.
///
/// Indexing in the loop is unchecked. `depth` stays below `until` (the
/// length of `frames`), which is at most the cells (`chosen` holds one
/// more); every frame's range comes from `starts`, whose entries rise to
/// `turned.len()`; a piece taken from a mask is below the pieces (the masks
/// hold only the plain table's pieces), so `shows` holds its turns. The
/// table's constructor builds it so, and `scan` asserts the rest on entry.
pub(crate) fn scan<M: Mask>(
    table: &Table<M>,
    prefix: &[Cand],
    until: usize,
    halt: Halt<'_>,
    visit: &mut dyn FnMut(&[Cand]) -> bool,
) -> (End, u64) {
    let root = prefix.len();
    assert!(root < until && until <= table.plain.cells(), "a scan from {root} to {until} cells");
    let (turned, shows) = (&table.turned[..], &table.shows[..]);
    let mut chosen = plain::placed(prefix, table.plain.cells());
    let mut free = prefix.iter().fold(table.all, |free, c| free ^ M::of(usize::from(c.piece)));
    let mut frames = vec![Frame { left: M::EMPTY, turns: 0, pos: 0, end: 0 }; until];
    // SAFETY (every block below): the bounds of the doc comment above.
    let mut frame = unsafe { table.open(&chosen, root) };
    unsafe { frame.next_turn(turned, free) };
    let mut poll = Poll::every(POLL);
    let (mut depth, mut nodes) = (root, 0u64);
    loop {
        if frame.left == M::EMPTY {
            if depth == root {
                return (End::Done, nodes);
            }
            depth -= 1;
            unsafe {
                free = free ^ M::of(usize::from(chosen.get_unchecked(depth).piece));
                frame = *frames.get_unchecked(depth);
                frame.next_turn(turned, free);
            }
            continue;
        }
        let piece = frame.left.lowest();
        frame.left = frame.left.without_lowest();
        nodes += 1;
        let [east, south] = unsafe { *shows.get_unchecked(piece * 4 + usize::from(frame.turns)) };
        unsafe { *chosen.get_unchecked_mut(depth) = Cand { piece: piece as u16, turns: frame.turns, east, south } };
        if depth + 1 == until {
            if !visit(&chosen[..until]) {
                return (End::Enough, nodes);
            }
        } else {
            let rest = free ^ M::of(piece);
            let mut next = unsafe { table.open(&chosen, depth + 1) };
            unsafe { next.next_turn(turned, rest) };
            if next.left != M::EMPTY {
                unsafe { *frames.get_unchecked_mut(depth) = frame };
                (frame, free, depth) = (next, rest, depth + 1);
            }
        }
        if frame.left == M::EMPTY {
            unsafe { frame.next_turn(turned, free) };
        }
        if poll.due(nodes) {
            poll.looked(nodes);
            if halt.due() {
                return (End::Stopped, nodes);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::{PlantedSpec, planted};
    use crate::puzzle::Instance;
    use std::sync::atomic::AtomicBool;

    /// Every node and board of a scan, in the order met.
    fn walk(scan: impl FnOnce(&mut dyn FnMut(&[Cand]) -> bool) -> (End, u64)) -> (u64, Vec<Vec<Cand>>) {
        let mut boards = Vec::new();
        let (end, nodes) = scan(&mut |b| {
            boards.push(b.to_vec());
            true
        });
        assert_eq!(end, End::Done);
        boards.sort_by_key(|b| b.iter().map(|c| (c.piece, c.turns)).collect::<Vec<_>>());
        (nodes, boards)
    }

    /// The bit-set scan against the plain one, at 64 and 128 bits, on planted
    /// boards with their five clues and (some) without, whole and below
    /// prefixes: the same node count and the same boards. Catches a candidate
    /// the masks lose (a turn dropped, a piece freed twice on the way back) or add.
    #[test]
    fn the_bit_scan_walks_the_plain_tree() {
        let stop = AtomicBool::new(false);
        // (side, frame colours, interior colours, seed, also without clues):
        // trees of 50 to 450,000 nodes.
        for (side, frame, interior, seed, bare) in
            [(4, 2, 3, 1, true), (5, 2, 3, 2, false), (5, 3, 4, 2, true), (6, 3, 4, 1, false)]
        {
            let clued = planted(&PlantedSpec::square(side, frame, interior, seed)).unwrap().instance;
            let unclued = Instance { clues: Vec::new(), ..clued.clone() };
            let boards = if bare { vec![clued, unclued] } else { vec![clued] };
            for instance in boards {
                let plain = plain::Table::new(&instance).unwrap();
                let cells = plain.cells();
                let want = walk(|v| plain::scan(&plain, &[], cells, Halt::on(&stop), v));
                let narrow = Table::<u64>::of(&plain).unwrap();
                assert_eq!(walk(|v| scan(&narrow, &[], cells, Halt::on(&stop), v)), want, "{side}x{side} u64");
                let wide = Table::<u128>::of(&plain).unwrap();
                assert_eq!(walk(|v| scan(&wide, &[], cells, Halt::on(&stop), v)), want, "{side}x{side} u128");
                let mut prefixes = Vec::new();
                plain::scan(&plain, &[], 3, Halt::on(&stop), &mut |p| {
                    prefixes.push(p.to_vec());
                    true
                });
                for prefix in prefixes.iter().step_by(prefixes.len().div_ceil(5).max(1)) {
                    let want = walk(|v| plain::scan(&plain, prefix, cells, Halt::on(&stop), v));
                    assert_eq!(walk(|v| scan(&narrow, prefix, cells, Halt::on(&stop), v)), want, "below {prefix:?}");
                }
            }
        }
    }

    /// A board of more pieces than a mask holds gets no bit table (the plain scan counts it).
    #[test]
    fn a_board_too_large_for_the_mask_is_refused() {
        let instance = planted(&PlantedSpec::square(9, 3, 6, 1)).unwrap().instance;
        let plain = plain::Table::new(&instance).unwrap();
        assert!(Table::<u64>::of(&plain).is_none());
        assert!(Table::<u128>::of(&plain).is_some());
    }
}
