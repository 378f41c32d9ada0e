//! The scan walk's candidate lists: one 8-byte record per candidate, lists keyed by two known sides, sorted so that a scan stops at the first record over a limit.
//!
//! The fill order must be a staircase: every free cell has at most two
//! neighbours placed before it (the two towards the order's start corner, in
//! a row scan or a band order), so its list is found by the colours of those
//! two sides (`A` and `B`); sides facing clues beyond two are fixed colours,
//! filtered when the lists are built. A list holds the candidates that match
//! both keyed sides, then those that break one of them (never a join between
//! two rim cells); each record says how many joins it breaks (0 or 1) and how
//! many of its sides show a quota colour. Sorted by breaks, then by quota
//! sides (most first), then at random, a list is scanned from its head until
//! the first record that breaks more than the depth allows or would leave the
//! quota unmet: everything after it is worse. A sentinel record that breaks
//! 255 joins ends each list, so the scan needs no bound check.

use super::colour_keys;
use crate::kernel::{Clues, NO_SIDE, fitting, rim_class};
use crate::puzzle::{Board, Colour, GREY, Instance, Piece, Placement, Rotation, Side};
use crate::rng::Rng;

/// One candidate: the colours it shows N, E, S, W (bytes 0–3), the piece
/// (bytes 4–5), the joins it breaks (byte 6) and its quota sides (byte 7).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Rec(pub(crate) u64);

impl Rec {
    /// The end of every list: it breaks more joins than any depth allows.
    pub(crate) const SENTINEL: Rec = Rec(0xFF << 48);

    fn new(shown: [Colour; 4], piece: u16, breaks: u8, quota: u8) -> Rec {
        Rec(u64::from(u32::from_le_bytes(shown))
            | u64::from(piece) << 32
            | u64::from(breaks) << 48
            | u64::from(quota) << 56)
    }

    /// The colours shown, N E S W from the low byte.
    #[inline(always)]
    pub(crate) fn shown(self) -> u32 {
        self.0 as u32
    }

    /// The piece.
    #[inline(always)]
    pub(crate) fn piece(self) -> u16 {
        (self.0 >> 32) as u16
    }

    /// Joins it breaks among the keyed sides.
    #[inline(always)]
    pub(crate) fn breaks(self) -> u8 {
        (self.0 >> 48) as u8
    }

    /// Sides showing a quota colour.
    #[inline(always)]
    pub(crate) fn quota(self) -> u8 {
        (self.0 >> 56) as u8
    }
}

/// One free cell in fill order, as the walk reads it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Step {
    /// The cell.
    pub(crate) cell: u16,
    /// The slots (see [`Lists::slots`]) holding the neighbours of sides A and B, and
    /// the bit offsets of their sides facing this cell.
    pub(crate) a: u16,
    pub(crate) a_shift: u8,
    pub(crate) b: u16,
    pub(crate) b_shift: u8,
    /// Where this step's table of list heads begins in `starts`.
    pub(crate) table: u32,
    /// Breaks allowed in all once this cell is placed.
    pub(crate) allow: u8,
    /// Quota sides the placed free pieces must show once this cell is placed.
    pub(crate) need: u16,
}

/// What a table's lists depend on: the cell's rim class, its keyed sides
/// (4: none) and whether each is a frame join, the fixed colours of further
/// clue sides, and whether its lists hold breaking candidates at all.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct TableKey {
    class: u8,
    sides: [u8; 2],
    fixed: [bool; 2],
    filters: [(u8, Colour); 2],
    breaks: bool,
}

/// Everything a scan walk over one instance and fill order reads.
#[derive(Clone, Debug)]
pub(crate) struct Lists {
    /// Every list back to back, each ended by [`Rec::SENTINEL`].
    pub(crate) recs: Vec<Rec>,
    /// Per table, per pair of keys at [`head_at`]: the first record of the list.
    pub(crate) starts: Vec<u32>,
    /// Keys per side: the colours and one for a missing side.
    pub(crate) keys: usize,
    /// The free cells in fill order.
    pub(crate) steps: Vec<Step>,
    /// The initial slot values: one per step (empty), then one showing the
    /// missing-side key on every side, then one per clue cell.
    pub(crate) slots: Vec<u64>,
    /// The board with the clues only.
    pub(crate) clue_board: Board,
    /// Pieces the clues take, indexed by piece.
    pub(crate) clue_pieces: Vec<bool>,
    /// The pieces in the lists' colour keys ([`colour_keys::dense_colours`]), by which a record's rotation is found.
    pub(crate) pieces: Vec<Piece>,
}

/// Where a known side's colour comes from.
#[derive(Clone, Copy, Debug)]
struct Known {
    side: Side,
    slot: u16,
    fixed: bool,
    /// The clue's colour on that join, for a clue neighbour.
    clue: Option<Colour>,
}

impl Lists {
    /// The lists of `instance` filled in `order` (every cell once; clue cells
    /// are skipped), with `allow[d]` breaks allowed in all once `d` free
    /// cells are placed and `need[d]` quota sides (of `quota`'s colours) by then.
    ///
    /// # Errors
    /// A clue out of range or repeated, a board too large for 16-bit cells, or
    /// an order that is not a staircase (a cell with three neighbours placed before it).
    pub(crate) fn new(
        instance: &Instance,
        order: &[usize],
        allow: &[u16],
        need: &[usize],
        quota: &[Colour],
    ) -> Result<Lists, String> {
        let (dense, quota) = colour_keys::dense_colours(instance, quota)?;
        let instance = &dense;
        let grid = instance.grid;
        if grid.cells() >= usize::from(u16::MAX) - 2 || instance.pieces.len() > usize::from(u16::MAX) {
            return Err(format!("a {grid} board is too large for the scan walk"));
        }
        let clues = Clues::of(instance)?;
        let (free, rank) = clues.fill(order);
        let keys = usize::from(instance.max_colour()) + 2;
        let none_slot = free.len();
        let mut slots = vec![0u64; free.len() + 1];
        slots[none_slot] = u64::from(u32::from_le_bytes([(keys - 1) as u8; 4]));
        let mut clue_slot = vec![0u16; grid.cells()];
        for (cell, shown) in clues.shown.iter().enumerate() {
            if let Some(shown) = shown {
                clue_slot[cell] = slots.len() as u16;
                slots.push(u64::from(u32::from_le_bytes(*shown)));
            }
        }
        let mut tables: Vec<TableKey> = Vec::new();
        let mut steps = Vec::with_capacity(free.len());
        for (i, &cell) in free.iter().enumerate() {
            let known = known_sides(instance, &clues, &rank, &clue_slot, cell)?;
            let side_of = |k: usize| known.get(k).map_or(NO_SIDE, |s: &Known| s.side.index() as u8);
            let mut filters = [(NO_SIDE, GREY); 2];
            for (f, k) in known.iter().skip(2).enumerate() {
                filters[f] = (k.side.index() as u8, k.clue.expect("sides beyond two face clues"));
            }
            let key = TableKey {
                class: rim_class(grid, cell),
                sides: [side_of(0), side_of(1)],
                fixed: [known.first().is_some_and(|k| k.fixed), known.get(1).is_some_and(|k| k.fixed)],
                filters,
                breaks: allow.get(i + 1).is_some_and(|&a| a > 0),
            };
            let table = tables.iter().position(|&t| t == key).unwrap_or_else(|| {
                tables.push(key);
                tables.len() - 1
            });
            let slot = |k: usize| known.get(k).map_or((none_slot as u16, 0), |s| (s.slot, facing_shift(s.side)));
            let ((a, a_shift), (b, b_shift)) = (slot(0), slot(1));
            steps.push(Step {
                cell: cell as u16,
                a,
                a_shift,
                b,
                b_shift,
                table: (table * keys * keys) as u32,
                allow: allow.get(i + 1).copied().unwrap_or(0).min(u16::from(u8::MAX - 1)) as u8,
                need: need.get(i + 1).copied().unwrap_or(0).min(usize::from(u16::MAX)) as u16,
            });
        }
        let (recs, starts) = build_tables(instance, &tables, keys, &clues.pieces, &quota);
        let clue_board = instance.clue_board();
        let pieces = dense.pieces.clone();
        Ok(Lists { recs, starts, keys, steps, slots, clue_board, clue_pieces: clues.pieces, pieces })
    }

    /// The first record of the list keyed `a`, `b` in the table at `table`.
    #[cfg(test)]
    pub(crate) fn head(&self, table: u32, a: usize, b: usize) -> usize {
        self.starts[head_at(table, self.keys, a, b)] as usize
    }

    /// Free cells.
    pub(crate) fn free(&self) -> usize {
        self.steps.len()
    }

    /// Sorts every list afresh for an attempt: by breaks, then by quota
    /// sides (most first), ties in an order drawn from `rng`.
    pub(crate) fn shuffle(&mut self, rng: &mut Rng) {
        let mut start = 0;
        while start < self.recs.len() {
            let len = self.recs[start..].iter().position(|&r| r == Rec::SENTINEL).expect("every list ends");
            let list = &mut self.recs[start..start + len];
            rng.shuffle_small(list);
            list.sort_by_key(|r| (r.breaks(), std::cmp::Reverse(r.quota())));
            start += len + 1;
        }
    }

    /// Writes into `board` the clues and the records `recs` of the first free
    /// cells of the order, one per step: no allocation (the board's cells are
    /// overwritten in place).
    pub(crate) fn fill_board(&self, board: &mut Board, recs: &[u64]) {
        board.cells.clone_from(&self.clue_board.cells);
        for (step, &slot) in self.steps.iter().zip(recs) {
            let rec = Rec(slot);
            let placement = Placement { piece: usize::from(rec.piece()), rotation: self.rotation(rec) };
            board.cells[usize::from(step.cell)] = Some(placement);
        }
    }

    /// The rotation of `rec`'s piece that shows its colours.
    pub(crate) fn rotation(&self, rec: Rec) -> Rotation {
        let shown = rec.shown().to_le_bytes();
        let piece = self.pieces[usize::from(rec.piece())];
        Rotation::ALL.into_iter().find(|&r| piece.rotated(r) == shown).expect("a record shows a turn of its piece")
    }
}

/// Checks that no free cell of `order` has more than two neighbours placed before it.
///
/// # Errors
/// The first cell that has, named; or clues out of range.
pub(crate) fn staircase(instance: &Instance, order: &[usize]) -> Result<(), String> {
    let clues = Clues::of(instance)?;
    let (free, rank) = clues.fill(order);
    let slots = vec![0u16; instance.grid.cells()];
    for &cell in &free {
        known_sides(instance, &clues, &rank, &slots, cell)?;
    }
    Ok(())
}

/// The known sides of the free cell `cell` (see [`Clues::known`]): neighbours
/// placed before it first, then clues, with the slot each colour is read from.
fn known_sides(
    instance: &Instance,
    clues: &Clues,
    rank: &[usize],
    clue_slot: &[u16],
    cell: usize,
) -> Result<Vec<Known>, String> {
    let grid = instance.grid;
    let mut walked = Vec::new();
    let mut clued = Vec::new();
    for (side, other) in clues.known(grid, rank, cell) {
        let fixed = grid.is_rim_cell(cell) && grid.is_rim_cell(other);
        if let Some(shown) = clues.shown[other] {
            let clue = Some(shown[side.opposite().index()]);
            clued.push(Known { side, slot: clue_slot[other], fixed, clue });
        } else {
            walked.push(Known { side, slot: rank[other] as u16, fixed, clue: None });
        }
    }
    if walked.len() > 2 {
        let (row, col) = grid.row_col(cell);
        return Err(format!(
            "the fill order is not a staircase: cell ({row}, {col}) has {} neighbours placed before it",
            walked.len()
        ));
    }
    walked.extend(clued);
    Ok(walked)
}

/// The bit offset, in a neighbour's packed colours, of its side facing this cell's `side`.
fn facing_shift(side: Side) -> u8 {
    8 * side.opposite().index() as u8
}

/// Where in [`Lists::starts`] the head of the list keyed `a`, `b` lies, in
/// the table at `table` of `keys` keys per side (a row per key of side A).
/// A power-of-two row (a shift for the multiply) measured no faster.
#[inline(always)]
pub(crate) fn head_at(table: u32, keys: usize, a: usize, b: usize) -> usize {
    table as usize + a * keys + b
}

/// Every table's lists back to back (unsorted: [`Lists::shuffle`] sorts them) and the heads.
fn build_tables(
    instance: &Instance,
    tables: &[TableKey],
    keys: usize,
    clue_pieces: &[bool],
    quota: &[Colour],
) -> (Vec<Rec>, Vec<u32>) {
    let mut recs = Vec::new();
    let mut starts = Vec::with_capacity(tables.len() * keys * keys);
    for table in tables {
        let cands = candidates(instance, table, clue_pieces, quota);
        for ka in 0..keys {
            for kb in 0..keys {
                starts.push(recs.len() as u32);
                let want = [ka, kb];
                for &(shown, piece, q) in &cands {
                    if let Some(breaks) = breaks(table, shown, want, keys) {
                        recs.push(Rec::new(shown, piece, breaks, q));
                    }
                }
                recs.push(Rec::SENTINEL);
            }
        }
    }
    (recs, starts)
}

/// The (colours shown, piece, quota sides) of every free piece's turn that
/// fits the table's rim class and its clue filters.
fn candidates(
    instance: &Instance,
    table: &TableKey,
    clue_pieces: &[bool],
    quota: &[Colour],
) -> Vec<([Colour; 4], u16, u8)> {
    let clues_fit =
        |shown: &[Colour; 4]| table.filters.iter().all(|&(side, c)| side == NO_SIDE || shown[usize::from(side)] == c);
    fitting(instance, table.class)
        .filter(|(placement, shown)| !clue_pieces[placement.piece] && clues_fit(shown))
        .map(|(placement, shown)| {
            let q = instance.pieces[placement.piece].0.iter().filter(|c| quota.contains(c)).count() as u8;
            (shown, placement.piece as u16, q)
        })
        .collect()
}

/// The joins a candidate showing `shown` breaks in the list of key `want`:
/// `None` when it does not belong there (two breaks, a broken frame join,
/// a break in a table without breaks, or a key a missing side cannot take).
fn breaks(table: &TableKey, shown: [Colour; 4], want: [usize; 2], keys: usize) -> Option<u8> {
    let mut broken = 0u8;
    for ((&side, &fixed), &want) in table.sides.iter().zip(&table.fixed).zip(&want) {
        if side == NO_SIDE {
            if want != keys - 1 {
                return None;
            }
            continue;
        }
        if usize::from(shown[usize::from(side)]) != want {
            if fixed || !table.breaks || want == keys - 1 || want == usize::from(GREY) {
                return None;
            }
            broken += 1;
        }
    }
    (broken <= 1).then_some(broken)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::{PlantedSpec, planted};
    use crate::search::Order;

    /// Every list, in every table, holds exactly the turns of free pieces
    /// that fit the cell's rim and break at most one keyed join (never a
    /// frame join), each with the breaks it makes: fails if a candidate is
    /// missing, misfiled or miscounted.
    #[test]
    fn lists_hold_exactly_the_fitting_candidates() {
        let p = planted(&PlantedSpec::square(6, 3, 5, 2)).unwrap();
        let order = Order::Band { corner: crate::search::Corner::Sw, transposed: false, strip: 1 }.cells(&p.instance);
        let free = p.instance.grid.cells() - p.instance.clues.len();
        let lists = Lists::new(&p.instance, &order, &vec![3; free + 1], &vec![0; free + 1], &[]).unwrap();
        for step in &lists.steps {
            for a in 0..lists.keys {
                for b in 0..lists.keys {
                    let head = lists.head(step.table, a, b);
                    let len = lists.recs[head..].iter().position(|&r| r == Rec::SENTINEL).unwrap();
                    for rec in &lists.recs[head..head + len] {
                        let shown = rec.shown().to_le_bytes();
                        let rotation = lists.rotation(*rec);
                        assert_eq!(p.instance.pieces[usize::from(rec.piece())].rotated(rotation), shown);
                        assert!(rec.breaks() <= 1);
                        assert!(!lists.clue_pieces[usize::from(rec.piece())]);
                    }
                }
            }
        }
    }

    /// The walk's steps are the order's cells, each once, in order, without
    /// the clue cells: fails if a clue cell is walked (its piece would be
    /// placed twice) or a free cell is left out.
    #[test]
    fn the_steps_are_the_free_cells_of_the_order() {
        let p = planted(&PlantedSpec::square(9, 3, 6, 4)).unwrap();
        assert_eq!(p.instance.clues.len(), 5);
        for order in [Order::Band { corner: crate::search::Corner::Ne, transposed: true, strip: 1 }, Order::RowScan] {
            let cells = order.cells(&p.instance);
            let lists = Lists::new(&p.instance, &cells, &[0; 82], &[0; 82], &[]).unwrap();
            let walked: Vec<usize> = lists.steps.iter().map(|s| usize::from(s.cell)).collect();
            let free: Vec<usize> =
                cells.iter().copied().filter(|&c| p.instance.clues.iter().all(|k| k.cell != c)).collect();
            assert_eq!(walked, free, "{order}");
            assert_eq!(walked.len(), 81 - 5);
        }
    }

    /// No list holds a record that breaks a join between two rim cells, at
    /// any step of a band order on a board with five clues, whatever the
    /// allowance: the rim's joins are all grey-flanked frame colours, and a
    /// break there would leave a frame colour facing the wrong neighbour.
    /// Fails if a record's break is counted on a frame join, or a missing
    /// side's key lets a rim cell break.
    #[test]
    fn no_record_breaks_a_join_between_two_rim_cells() {
        let p = planted(&PlantedSpec::square(9, 3, 6, 4)).unwrap();
        let grid = p.instance.grid;
        let clues = Clues::of(&p.instance).unwrap();
        let order = Order::Band { corner: crate::search::Corner::Sw, transposed: false, strip: 1 }.cells(&p.instance);
        let (_, rank) = clues.fill(&order);
        let free = grid.cells() - 5;
        let lists = Lists::new(&p.instance, &order, &vec![4; free + 1], &vec![0; free + 1], &[]).unwrap();
        let mut rim_breaks_seen = 0;
        for step in &lists.steps {
            let cell = usize::from(step.cell);
            let known = known_sides(&p.instance, &clues, &rank, &vec![0; grid.cells()], cell).unwrap();
            for a in 0..lists.keys {
                for b in 0..lists.keys {
                    let head = lists.head(step.table, a, b);
                    let len = lists.recs[head..].iter().position(|&r| r == Rec::SENTINEL).unwrap();
                    for rec in lists.recs[head..head + len].iter().filter(|r| r.breaks() == 1) {
                        let shown = rec.shown().to_le_bytes();
                        for (k, want) in known.iter().take(2).zip([a, b]) {
                            if usize::from(shown[k.side.index()]) != want {
                                let other = grid.neighbour(cell, k.side).unwrap();
                                assert!(
                                    !(grid.is_rim_cell(cell) && grid.is_rim_cell(other)),
                                    "cell {cell} breaks its rim join on side {:?}",
                                    k.side
                                );
                                rim_breaks_seen += usize::from(grid.is_rim_cell(cell));
                            }
                        }
                    }
                }
            }
        }
        // Rim cells do break, but only towards the interior: the test looked at some.
        assert!(rim_breaks_seen > 0);
    }

    /// An order whose cells have three neighbours placed before them is refused, by name.
    #[test]
    fn a_non_staircase_order_is_refused() {
        let p = planted(&PlantedSpec::square(5, 2, 4, 1)).unwrap();
        // Row 0, then row 2, then row 1: each cell of row 1 has N, S and W placed.
        let order: Vec<usize> = (0..5).chain(10..15).chain(5..10).chain(15..25).collect();
        let err = Lists::new(&p.instance, &order, &[0; 26], &[0; 26], &[]).unwrap_err();
        assert!(err.contains("staircase"), "{err}");
    }
}
