//! Strips of a fill order ("chains") and a relaxed test that a strip can still be completed.
//!
//! A fill order that grows a square lays it strip by strip: each cell of a
//! strip reads one key colour from the cell placed just before it (the
//! "link") and the other from a cell placed before the strip began (its
//! "fixed" side). Within a strip the expected number of fits per cell is
//! about one, so most strip prefixes die before the strip's end: their nodes
//! are the bulk of the tree.
//!
//! When the search enters the first cell of a chain, every fixed colour of
//! the chain is known. Going backwards from the chain's last cell, the set of
//! link colours from which the rest of the chain can be completed is one
//! union of precomputed bit masks per cell: step `i` admits link colour `x`
//! when some candidate showing `x` on its link side and the fixed colour on
//! its fixed side shows, to step `i + 1`, a colour step `i + 1` admits. Piece
//! use is ignored (a relaxation: a candidate of a used piece still counts), so
//! the test never rejects a strip that can be completed, and the search stays
//! complete. A candidate is then placed only if the colour it shows to the
//! next cell of its chain is admitted there; at the chain's first cell this
//! rejects most candidates before their strip is walked.
//!
//! Colours are bits of a `u64`: with more than 64 colour values the plan has
//! no chains and nothing is filtered.

use super::step::{Entry, Step};

/// `end_of` value of a depth that begins no chain.
pub(crate) const NONE: u32 = u32::MAX;

/// How one chain step (after the first) reads its link and fixed colours.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Link {
    /// Cell and right shift of the key colour fixed when the chain begins.
    fixed_src: u16,
    fixed_shift: u8,
    /// Right shift giving the colour a candidate of the step before shows to this one.
    pub(crate) prev_shift: u8,
    /// The link is the step's key colour A (else B).
    link_is_a: bool,
    /// The last step of its chain.
    last: bool,
    /// Start of this step's rows in [`Chains::masks`]: for each fixed colour
    /// `f` a row of `colours + 1` masks; mask `y` of row `f` holds the link
    /// colours of candidates showing `f` on the fixed side and `y` to the next
    /// step, and mask `colours` those of every candidate showing `f`.
    rows: u32,
}

/// The chains of a plan and their completion masks, read-only.
#[derive(Clone, Debug, Default)]
pub(crate) struct Chains {
    /// Per depth (and one past the last): the last depth of the chain that
    /// begins there, or [`NONE`]; the other per-depth vectors are as long.
    pub(crate) end_of: Vec<u32>,
    /// Per depth: the first depth of the chain holding it, or [`NONE`].
    pub(crate) start_of: Vec<u32>,
    /// Per depth `d`: step `d + 1` is a later step of `d`'s chain, so the
    /// candidates of `d` are filtered by what `d + 1` admits.
    pub(crate) filtered: Vec<bool>,
    /// Per depth: how a later chain step reads its link (default elsewhere).
    pub(crate) links: Vec<Link>,
    /// Completion masks of every chain step, rows back to back.
    masks: Vec<u64>,
    /// Colour values (grey included).
    colours: usize,
    /// Most steps after the first in one chain.
    pub(crate) longest: usize,
}

impl Chains {
    /// No chains over `total` steps: nothing is filtered.
    pub(crate) fn none(total: usize) -> Chains {
        // One entry past the last step, for the search's full board.
        Chains {
            end_of: vec![NONE; total + 1],
            start_of: vec![NONE; total + 1],
            filtered: vec![false; total + 1],
            links: vec![Link::default(); total + 1],
            masks: Vec::new(),
            colours: 0,
            longest: 0,
        }
    }

    /// Whether any step is filtered.
    pub(crate) fn is_active(&self) -> bool {
        self.longest > 0
    }

    /// The chains of `steps` over the tables `starts`/`entries` (see
    /// `Plan`), on a board of `cells` cells (the sentinel is cell `cells`).
    pub(crate) fn new(steps: &[Step], entries: &[Entry], starts: &[u32], colours: usize, cells: usize) -> Chains {
        let total = steps.len();
        let mut chains = Chains { colours, ..Chains::none(total) };
        if colours > 64 {
            return chains;
        }
        // Depth at which each cell is placed (clues and the sentinel: never).
        let mut depth_of = vec![usize::MAX; cells + 1];
        for (d, step) in steps.iter().enumerate() {
            depth_of[usize::from(step.cell)] = d;
        }
        let fixed_before =
            |cell: u16, d0: usize| depth_of.get(usize::from(cell)).is_none_or(|&d| d == usize::MAX || d < d0);
        let mut d0 = 0;
        while d0 < total {
            // Extend the chain while the next step reads this one's cell as a
            // key colour and its other key colour is fixed before the chain.
            let mut d1 = d0;
            while d1 + 1 < total {
                let (prev, step) = (steps[d1].cell, &steps[d1 + 1]);
                let link = if step.a_src == prev && fixed_before(step.b_src, d0) {
                    let (fixed_src, fixed_shift, prev_shift) = (step.b_src, step.b_shift, step.a_shift);
                    Link { fixed_src, fixed_shift, prev_shift, link_is_a: true, ..Link::default() }
                } else if step.b_src == prev && fixed_before(step.a_src, d0) {
                    let (fixed_src, fixed_shift, prev_shift) = (step.a_src, step.a_shift, step.b_shift);
                    Link { fixed_src, fixed_shift, prev_shift, link_is_a: false, ..Link::default() }
                } else {
                    break;
                };
                chains.links[d1 + 1] = link;
                chains.filtered[d1] = true;
                d1 += 1;
            }
            if d1 > d0 {
                chains.end_of[d0] = d1 as u32;
                chains.links[d1].last = true;
                chains.start_of[d0..=d1].fill(d0 as u32);
                chains.longest = chains.longest.max(d1 - d0);
            }
            d0 = d1 + 1;
        }
        // The masks of each chain step; steps reading the same table the same
        // way share them.
        let mut shared = std::collections::HashMap::new();
        for (d, step) in steps.iter().enumerate() {
            if chains.start_of[d] == NONE || chains.start_of[d] as usize == d {
                continue;
            }
            let link = chains.links[d];
            let link_is_a = link.link_is_a;
            let next_shift = if link.last { None } else { Some(chains.links[d + 1].prev_shift) };
            let key = (step.base, link_is_a, next_shift);
            let rows = *shared.entry(key).or_insert_with(|| {
                let rows = chains.masks.len() as u32;
                chains.masks.resize(chains.masks.len() + colours * (colours + 1), 0);
                for a in 0..colours {
                    for b in 0..colours {
                        let k = step.key(a, b, colours);
                        let (x, f) = if link_is_a { (a, b) } else { (b, a) };
                        let row = rows as usize + f * (colours + 1);
                        for entry in &entries[starts[k] as usize..starts[k + 1] as usize] {
                            chains.masks[row + colours] |= 1 << x;
                            if let Some(shift) = next_shift {
                                let y = ((entry.colours >> shift) & 0xFF) as usize;
                                chains.masks[row + y] |= 1 << x;
                            }
                        }
                    }
                }
                rows
            });
            chains.links[d].rows = rows;
        }
        chains
    }

    /// Entering the first step `d0` of a chain with the board's colours
    /// `colour_of`: writes to `admitted[i - d0 - 1]`, for every later step `i`
    /// of the chain, the link colours from which the chain can be completed.
    pub(crate) fn begin(&self, d0: usize, colour_of: &[u32], admitted: &mut [u64]) {
        let d1 = self.end_of[d0] as usize;
        let width = self.colours + 1;
        let links = &self.links[d0 + 1..=d1];
        let admitted = &mut admitted[..links.len()];
        let masks = &self.masks[..];
        let mut next = 0u64;
        for (k, link) in links.iter().enumerate().rev() {
            let f = ((colour_of[usize::from(link.fixed_src)] >> link.fixed_shift) & 0xFF) as usize;
            let row = link.rows as usize + f * width;
            // SAFETY: f and every bit of `next` are colours (< colours), and
            // every link's rows hold colours rows of width masks (Chains::new).
            let set = unsafe {
                if link.last {
                    *masks.get_unchecked(row + self.colours)
                } else {
                    let (mut set, mut ys) = (0u64, next);
                    while ys != 0 {
                        set |= *masks.get_unchecked(row + ys.trailing_zeros() as usize);
                        ys &= ys - 1;
                    }
                    set
                }
            };
            admitted[k] = set;
            next = set;
            if set == 0 {
                // Nothing reaches this step: no earlier step can be completed either.
                admitted[..k].fill(0);
                break;
            }
        }
    }

    /// Writes each step's chain fields (`filter_shift`, `begins_chain`).
    pub(crate) fn mark(&self, steps: &mut [Step]) {
        for (d, step) in steps.iter_mut().enumerate() {
            step.filter_shift = if self.filtered[d] { self.links[d + 1].prev_shift } else { 0 };
            step.begins_chain = self.end_of[d] != NONE;
        }
    }

    /// The filter of depth `d` given `admitted` (per depth, what each chain
    /// step admits): a candidate showing `colours` passes when bit
    /// `(colours >> shift) & 63` of the mask is set. Depths whose next step is
    /// in no chain with them admit everything.
    #[inline(always)]
    pub(crate) fn filter(&self, d: usize, admitted: &[u64]) -> (u64, u32) {
        if self.filtered[d] { (admitted[d + 1], u32::from(self.links[d + 1].prev_shift)) } else { (u64::MAX, 0) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::{PlantedSpec, planted};
    use crate::search::order::{Corner, Order};
    use crate::search::plan::Plan;

    /// Whether steps `i..=d1` can be filled from the tables, pieces' reuse
    /// allowed and further sides ignored, when step `i`'s link shows `x`: a
    /// direct walk over the candidate lists, against which the masks are checked.
    fn completable(plan: &Plan, colour_of: &[u32], i: usize, d1: usize, x: usize) -> bool {
        let step = &plan.steps[i];
        let link = plan.chains.links[i];
        let read = |src: u16, shift: u8| ((colour_of[usize::from(src)] >> shift) & 0xFF) as usize;
        let (a, b) =
            if link.link_is_a { (x, read(step.b_src, step.b_shift)) } else { (read(step.a_src, step.a_shift), x) };
        let key = step.key(a, b, plan.colours);
        plan.entries[plan.starts[key] as usize..plan.starts[key + 1] as usize].iter().any(|e| {
            i == d1
                || completable(
                    plan,
                    colour_of,
                    i + 1,
                    d1,
                    ((e.colours >> plan.chains.links[i + 1].prev_shift) & 0xFF) as usize,
                )
        })
    }

    #[test]
    fn masks_admit_exactly_the_completable_link_colours() {
        for (side, frame, inner, seed) in [(5, 2, 4, 1), (6, 3, 6, 2), (7, 3, 8, 3)] {
            let p = planted(&PlantedSpec::square(side, frame, inner, seed)).unwrap();
            for order in [
                Order::CornerSquare { corner: Corner::Nw, transposed: false },
                Order::FailFirst { corner: Corner::Se, transposed: true },
                Order::RowScan,
            ] {
                let plan = Plan::new(&p.instance, order, 0);
                assert!(plan.chains.is_active(), "{order} on {side}x{side} has chains");
                // Each chain entered with the planted solution laid before it.
                let mut colour_of = plan.clues.packed();
                for d0 in 0..plan.steps.len() {
                    if plan.chains.end_of[d0] != NONE {
                        let d1 = plan.chains.end_of[d0] as usize;
                        let mut admitted = vec![0u64; d1 - d0];
                        plan.chains.begin(d0, &colour_of, &mut admitted);
                        for i in d0 + 1..=d1 {
                            let direct: u64 = (0..plan.colours)
                                .filter(|&x| completable(&plan, &colour_of, i, d1, x))
                                .fold(0, |m, x| m | 1 << x);
                            assert_eq!(
                                admitted[i - d0 - 1],
                                direct,
                                "{order} on {side}x{side}, chain at {d0}, step {i}"
                            );
                        }
                    }
                    let cell = usize::from(plan.steps[d0].cell);
                    let placement = p.solution.cells[cell].unwrap();
                    colour_of[cell] =
                        u32::from_le_bytes(p.instance.pieces[placement.piece].rotated(placement.rotation));
                }
            }
        }
    }

    #[test]
    fn no_chains_without_room_in_a_mask() {
        // 64 colour values fit a mask; 65 do not.
        let p = planted(&PlantedSpec::square(9, 8, 57, 1)).unwrap();
        assert!(usize::from(p.instance.max_colour()) + 1 > 64);
        let plan = Plan::new(&p.instance, Order::RowScan, 0);
        assert!(!plan.chains.is_active());
        assert!(plan.steps.iter().all(|s| !s.begins_chain && s.filter_shift == 0));
    }
}
