//! The completion bound of a walk's partial board read off its records: no board is filled to judge an offer.
//!
//! [`Bound`](super::bound::Bound) counts a board's open sides cell by cell;
//! a walk that offers every partial board near the end (the native
//! completer's settings: some 10⁵ a second) paid for a whole board written
//! (the clue board copied, each record turned back into a placement) and
//! read back, for each offer, most of which the bound then let go. Here the
//! same count comes from the walk's own records: the clue pieces' sides less
//! every piece's sides are counted once, each record adds the four colours it
//! shows, and the sides facing empty cells at each depth (few: the fill
//! order's frontier) are listed once per depth when the run starts.

use super::bound::from_excess;
use super::lists::Lists;
use crate::puzzle::Side;

/// Colour keys a bound counts: every key fits a byte.
const KEYS: usize = 256;

/// [`Bound`](super::bound::Bound) of the partial boards of one set of lists,
/// counted from the records of their first free cells.
#[derive(Clone, Debug)]
pub(crate) struct RecordBound {
    /// Per colour key: the clue pieces' sides less every piece's sides.
    base: Box<[i32; KEYS]>,
    /// Per depth (free cells placed), the sides of placed free cells that face
    /// an empty cell: (step, bit offset of the side in its record).
    open: Vec<Vec<(u16, u8)>>,
    /// Per depth, the colour keys of clue sides that face an empty cell.
    open_clues: Vec<Vec<u8>>,
}

impl RecordBound {
    /// The bound of the partial boards of `lists`.
    pub(crate) fn new(lists: &Lists) -> RecordBound {
        let mut base = Box::new([0i32; KEYS]);
        for (piece, shown) in lists.pieces.iter().enumerate() {
            let sign = if lists.clue_pieces[piece] { 0 } else { -1 };
            for &c in &shown.0 {
                base[usize::from(c)] += sign;
            }
        }
        let free = lists.free();
        let (open, open_clues) = (0..=free).map(|depth| open_sides(lists, depth)).unzip();
        RecordBound { base, open, open_clues }
    }

    /// A lower bound on the joins a completion must still break, for the
    /// partial board whose first free cells hold `recs` (one per step):
    /// the same as [`Bound::of`](super::bound::Bound::of) of that board.
    pub(crate) fn of(&self, recs: &[u64]) -> usize {
        let mut excess = *self.base;
        for &rec in recs {
            for c in (rec as u32).to_le_bytes() {
                excess[usize::from(c)] += 1;
            }
        }
        let depth = recs.len().min(self.open.len() - 1);
        for &(step, shift) in &self.open[depth] {
            excess[usize::from((recs[usize::from(step)] >> shift) as u8)] += 1;
        }
        for &c in &self.open_clues[depth] {
            excess[usize::from(c)] += 1;
        }
        from_excess(excess.into_iter())
    }
}

/// The sides facing an empty cell once `depth` free cells are placed: of
/// free cells placed (step, shift of the side in its record), and of clues
/// (their colour keys).
fn open_sides(lists: &Lists, depth: usize) -> (Vec<(u16, u8)>, Vec<u8>) {
    let grid = lists.clue_board.grid;
    let mut step_of = vec![None; grid.cells()];
    for (i, step) in lists.steps.iter().enumerate() {
        step_of[usize::from(step.cell)] = Some(i);
    }
    let empty = |cell: usize| step_of[cell].is_some_and(|i| i >= depth);
    let (mut open, mut clues) = (Vec::new(), Vec::new());
    for (cell, (&step, &clue)) in step_of.iter().zip(&lists.clue_board.cells).enumerate() {
        let facing_empty = Side::ALL.into_iter().filter(|&s| grid.neighbour(cell, s).is_some_and(&empty));
        match (step, clue) {
            (Some(i), _) if i < depth => open.extend(facing_empty.map(|s| (i as u16, 8 * s.index() as u8))),
            (None, Some(clue)) => {
                let piece = lists.pieces[clue.piece];
                clues.extend(facing_empty.map(|s| piece.side(clue.rotation, s)));
            }
            _ => {}
        }
    }
    (open, clues)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::{PlantedSpec, planted};
    use crate::puzzle::{Board, Placement, Rotation};
    use crate::rng::Rng;
    use crate::score::bound::Bound;
    use crate::search::Order;

    /// On planted boards with clues, partial boards of every depth holding
    /// pieces at random (any piece, any turn, joins broken anywhere) get
    /// the bound a filled board gets. Catches a side facing an empty cell
    /// missed or counted twice, a clue's side left out, or a record's
    /// colours read from the wrong byte.
    #[test]
    fn the_records_give_the_bound_of_the_board_they_fill() {
        for (size, seed) in [(6, 1), (7, 2), (8, 3)] {
            let p = planted(&PlantedSpec::square(size, 3, 5, seed)).unwrap();
            let instance = p.instance;
            assert_eq!(instance.clues.len(), 5);
            for order in [Order::RowScan, "band-sw-s3".parse().unwrap()] {
                let cells = order.cells(&instance);
                let free = cells.len() - instance.clues.len();
                let lists = Lists::new(&instance, &cells, &vec![0; free + 1], &vec![0; free + 1], &[]).unwrap();
                let bound = RecordBound::new(&lists);
                let mut rng = Rng::new(seed);
                for depth in 0..=free {
                    let (recs, board) = random_partial(&lists, &instance, depth, &mut rng);
                    let want = Bound::new(&instance).of(&instance, &board);
                    assert_eq!(bound.of(&recs), want, "{size}x{size} {order} depth {depth}");
                }
            }
        }
    }

    /// The first `depth` free cells of `lists` filled with pieces no clue
    /// holds, in random order and turns: the records and the board.
    fn random_partial(
        lists: &Lists,
        instance: &crate::puzzle::Instance,
        depth: usize,
        rng: &mut Rng,
    ) -> (Vec<u64>, Board) {
        let mut pieces: Vec<usize> = (0..lists.pieces.len()).filter(|&p| !lists.clue_pieces[p]).collect();
        rng.shuffle(&mut pieces);
        let mut board = instance.clue_board();
        let recs = (0..depth)
            .map(|i| {
                let (piece, rotation) = (pieces[i], Rotation::ALL[rng.below(4)]);
                board.cells[usize::from(lists.steps[i].cell)] = Some(Placement { piece, rotation });
                let shown = lists.pieces[piece].rotated(rotation);
                u64::from(u32::from_le_bytes(shown)) | (piece as u64) << 32
            })
            .collect();
        (recs, board)
    }
}
