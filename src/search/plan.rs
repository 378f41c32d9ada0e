//! The search plan of one fill order: per-step lookup sources and candidate tables.
//!
//! Each free cell of the order becomes a [`Step`]. When the search reaches a
//! step, some of the cell's neighbours are already fixed: clues, or cells
//! earlier in the order. Up to two of those "known" sides key the lookup in a
//! candidate table built for the cell's class (which sides face the rim) and
//! that pair of sides; a third and fourth known side are checked with one
//! masked compare. Every table entry already shows grey exactly on the class's
//! rim sides, so the search never has to look at the rim again.
//!
//! Colours of a placed cell are packed in one `u32`, N in the low byte, then E,
//! S, W. Reading "the colour my north neighbour shows on its south side" is a
//! shift and a mask; an absent source points at a sentinel cell that shows 0.

use std::collections::HashMap;

use super::chain::Chains;
use super::order::Order;
use super::step::{Entry, Step};
use crate::kernel::{Buckets, Clues, NO_SIDE, SLOTS, fitting, pack, rim_class};
use crate::puzzle::{Board, GREY, Instance, Placement, Rotation, Side};
use crate::rng::Rng;

/// Everything one search (or estimate) over one fill order needs, read-only.
#[derive(Clone, Debug)]
pub(crate) struct Plan {
    /// The order this plan follows.
    pub(crate) order: Order,
    /// One step per free cell, in fill order.
    pub(crate) steps: Vec<Step>,
    /// All candidate lists, back to back.
    pub(crate) entries: Vec<Entry>,
    /// Where each key of each table starts in `entries`, then `entries.len()`:
    /// the tables lie back to back, so key `k` holds `starts[k]..starts[k + 1]`.
    pub(crate) starts: Vec<u32>,
    /// Number of pieces.
    pub(crate) pieces: usize,
    /// Number of colour values, grey included (max colour + 1).
    pub(crate) colours: usize,
    /// The clues laid out: the walk starts from their packed colours (the
    /// sentinel, index `grid.cells()`, shows 0) and the pieces they take.
    pub(crate) clues: Clues,
    /// The board holding the clues only.
    pub(crate) clue_board: Board,
    /// The strips of the order and their completion test.
    pub(crate) chains: Chains,
    /// Per depth, the look-ahead: a step for each later cell (not the next)
    /// that the depth's cell gives a second known side or more; a candidate
    /// is placed only if each of them still has a fitting unused piece.
    pub(crate) watches: Vec<Vec<Step>>,
}

/// The candidate tables of a plan as they are built: one per (rim class, key
/// side A, key side B), shuffled once by the seed, laid back to back.
struct Tables {
    by_key: HashMap<(u8, usize, usize), u32>,
    entries: Vec<Entry>,
    starts: Vec<u32>,
    rng: Rng,
    seed: u64,
}

impl Tables {
    /// The step of `cell` whose known sides are `known` (side index,
    /// neighbour), its table built when it is the first of its key.
    fn step(&mut self, instance: &Instance, cell: usize, known: &[(usize, usize)], colours: usize) -> Step {
        let class = rim_class(instance.grid, cell);
        let side_at = |k: usize| known.get(k).map_or(usize::from(NO_SIDE), |&(s, _)| s);
        let (a_side, b_side) = (side_at(0), side_at(1));
        let base = match self.by_key.get(&(class, a_side, b_side)) {
            Some(&base) => base,
            None => {
                let base = self.starts.len() as u32;
                let mut table = table(instance, class, (a_side, b_side), colours);
                if self.seed != 0 {
                    table.lists_mut().for_each(|list| self.rng.shuffle_small(list));
                }
                table.append_to(&mut self.starts, &mut self.entries);
                self.by_key.insert((class, a_side, b_side), base);
                base
            }
        };
        step(cell, known, instance.grid.cells(), base)
    }
}

/// The look-ahead of depth `d` (filling `cell`): a step for each free
/// neighbour of `cell` filled later than depth `d + 1` that has two or more
/// known sides once `cell` is placed (clues, and cells of depth `d` or less).
fn watches(
    instance: &Instance,
    clues: &Clues,
    depth: &[usize],
    d: usize,
    cell: usize,
    tables: &mut Tables,
    colours: usize,
) -> Vec<Step> {
    let grid = instance.grid;
    let placed = |o: usize| clues.shown[o].is_some() || depth[o] <= d;
    let mut found = Vec::new();
    for side in Side::ALL {
        let Some(w) = grid.neighbour(cell, side).filter(|&w| depth[w] != usize::MAX && depth[w] > d + 1) else {
            continue;
        };
        let known: Vec<(usize, usize)> = Side::ALL
            .into_iter()
            .filter_map(|s| grid.neighbour(w, s).filter(|&o| placed(o)).map(|o| (s.index(), o)))
            .collect();
        if known.len() >= 2 {
            found.push(tables.step(instance, w, &known, colours));
        }
    }
    found
}

/// Why the clues alone make the instance unsolvable (or malformed), if they do:
/// a piece index out of range or used twice, a cell with two clues, a clue
/// showing a colour on the rim or grey inside, two neighbouring clues that
/// disagree, or a board or piece set too large for the search's 16-bit indices.
pub(crate) fn clue_conflict(instance: &Instance) -> Option<String> {
    let grid = instance.grid;
    if grid.cells() + 1 >= SLOTS || instance.pieces.len() >= SLOTS {
        return Some(format!("{grid} board with {} pieces is too large", instance.pieces.len()));
    }
    let at = match Clues::of(instance) {
        Ok(clues) => clues.shown,
        Err(why) => return Some(why),
    };
    for cell in 0..grid.cells() {
        let Some(shown) = at[cell] else { continue };
        for side in Side::ALL {
            let colour = shown[side.index()];
            match grid.neighbour(cell, side) {
                None if colour != GREY => return Some(format!("clue at cell {cell} shows colour on the rim")),
                None => {}
                Some(_) if colour == GREY => return Some(format!("clue at cell {cell} shows grey inside")),
                Some(other) => {
                    if let Some(theirs) = at[other]
                        && theirs[side.opposite().index()] != colour
                    {
                        return Some(format!("clues at cells {cell} and {other} disagree"));
                    }
                }
            }
        }
    }
    None
}

/// The step of `cell`, whose known sides are `known` (side index, neighbour),
/// its candidates at `base` in the tables; `sentinel` stands for a missing side.
fn step(cell: usize, known: &[(usize, usize)], sentinel: usize, base: u32) -> Step {
    // Source of known side k: the neighbour's packed colours, shifted so
    // that the side facing this cell lands in the low byte.
    let source = |k: usize| match known.get(k) {
        Some(&(s, n)) => (n as u16, (8 * ((s + 2) % 4)) as u8, (8 * s) as u8, 0xFFu32 << (8 * s)),
        None => (sentinel as u16, 0, 0, 0),
    };
    let (a_src, a_shift, _, _) = source(0);
    let (b_src, b_shift, _, _) = source(1);
    let (c_src, c_shift, c_put, c_mask) = source(2);
    let (d_src, d_shift, d_put, d_mask) = source(3);
    Step {
        cell: cell as u16,
        a_src,
        b_src,
        c_src,
        d_src,
        a_shift,
        b_shift,
        c_shift,
        d_shift,
        c_put,
        d_put,
        mask: c_mask | d_mask,
        base,
        filter_shift: 0,
        begins_chain: false,
    }
}

impl Plan {
    /// The plan of `order` for `instance`, whose clues must be consistent (see
    /// [`clue_conflict`]). A non-zero `seed` shuffles every candidate list once,
    /// which keeps the search complete.
    pub(crate) fn new(instance: &Instance, order: Order, seed: u64) -> Plan {
        let grid = instance.grid;
        let cells = grid.cells();
        let colours = usize::from(instance.max_colour()) + 1;

        let clues = Clues::of(instance).expect("consistent clues (clue_conflict)");
        let (free, depth) = clues.fill(&order.cells(instance));
        let clue_board = instance.clue_board();

        let mut tables =
            Tables { by_key: HashMap::new(), entries: Vec::new(), starts: Vec::new(), rng: Rng::new(seed), seed };
        let mut steps = Vec::new();
        for &cell in &free {
            let known: Vec<(usize, usize)> = clues.known(grid, &depth, cell).map(|(s, n)| (s.index(), n)).collect();
            steps.push(tables.step(instance, cell, &known, colours));
        }
        // After every step's table, so that the steps' candidate orders do not
        // depend on the look-ahead's tables.
        let watches = free
            .iter()
            .enumerate()
            .map(|(d, &cell)| watches(instance, &clues, &depth, d, cell, &mut tables, colours))
            .collect();
        let Tables { mut starts, entries, .. } = tables;
        starts.push(entries.len() as u32);
        let chains = Chains::new(&steps, &entries, &starts, colours, cells);
        chains.mark(&mut steps);
        let pieces = instance.pieces.len();
        Plan { order, steps, watches, entries, starts, pieces, colours, clues, clue_board, chains }
    }

    /// This plan without the look-ahead: no watch at any depth.
    pub(crate) fn without_watches(mut self) -> Plan {
        self.watches.iter_mut().for_each(Vec::clear);
        self
    }

    /// This plan with no chains: nothing is filtered by the strip test.
    pub(crate) fn without_chains(mut self) -> Plan {
        self.chains = Chains::none(self.steps.len());
        self.chains.mark(&mut self.steps);
        self
    }

    /// The sentinel cell: it shows 0 on every side and is never filled.
    pub(crate) fn sentinel(&self) -> u16 {
        self.clue_board.cells.len() as u16
    }

    /// The board of the clues plus the first `chosen.len()` steps, step `i`
    /// holding entry `chosen[i]`.
    pub(crate) fn board(&self, chosen: &[u32]) -> Board {
        let mut board = self.clue_board.clone();
        for (step, &e) in self.steps.iter().zip(chosen) {
            let entry = self.entries[e as usize];
            board.cells[usize::from(step.cell)] = Some(Placement {
                piece: usize::from(entry.piece),
                rotation: Rotation::new(entry.rotation).expect("0..4"),
            });
        }
        board
    }
}

/// The table of one (class, key side A, key side B): `colours²` lists, key
/// `A * colours + B` (0 for an absent side), over every (piece, rotation)
/// showing grey exactly on the class's rim sides.
fn table(instance: &Instance, class: u8, (a_side, b_side): (usize, usize), colours: usize) -> Buckets<Entry> {
    let keyed = fitting(instance, class).map(|(placement, shown)| {
        let colour_at = |side: usize| if side == usize::from(NO_SIDE) { 0 } else { usize::from(shown[side]) };
        let entry = Entry { colours: pack(shown), piece: placement.piece as u16, rotation: placement.rotation.turns() };
        (colour_at(a_side) * colours + colour_at(b_side), entry)
    });
    Buckets::new(colours * colours, keyed)
}
