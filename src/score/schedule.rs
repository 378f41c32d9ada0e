//! The break schedule of the score search: how many mismatched joins a partial board may hold at each depth.
//!
//! The community's best tools allow no break until late (about depth 200 of
//! 256 on Eternity II) and then one more every few cells, up to the joins the
//! target gives up. Here that shape is data, in one of two forms:
//! - a ramp (`ramp:UNLOCK` or `ramp:UNLOCK:BUDGET`): no break before `UNLOCK`
//!   of the free cells are placed, then an allowance growing linearly to the
//!   budget at the last cell. The default, `ramp:0.78`, is derived for any
//!   instance from its free cells; without a budget the run chooses it (one
//!   below the best board's breaks once a board is found, growing until then);
//! - steps (`DEPTH:BREAKS,...`): the cumulative breaks allowed from each depth
//!   on, never decreasing, e.g. `200:1,216:4,256:20`;
//! - the band's (`band` or `band:BREAKS`): the field's published schedule,
//!   derived for any board from the band fill order (`search::band`): its
//!   breaks over the band's break span, closer together towards its end (the first cell
//!   of its middle columns to the end of the right block's first row; on
//!   Eternity II cells 201–239 and ten breaks), one break for every four
//!   cells of that span unless given, or as many as `--target` gives up.
//!   A run resolves it into steps for its fill order and prints them.
//!   `band+pinned` (`band:BREAKS+pinned`) adds one break from each cell past
//!   the span that a clue pins on a third side, where nothing else may break.
//!
//! Either way a run never allows more breaks than its best board had, less one.

use std::fmt;
use std::str::FromStr;

use crate::puzzle::Instance;
use crate::search::band::BandShape;

/// When breaks unlock in the default ramp, as a fraction of the free cells (200 of 256 on Eternity II).
pub const DEFAULT_UNLOCK: f64 = 0.78;

/// The band schedule's spacing: break `k` of `B` sits at `1 − (1 − k/(B − 1))^this`
/// of the span, so breaks come closer towards its end, as the published ones
/// do (5 cells apart at first, 2 at the end; within a cell of each on Eternity II).
const BAND_SPACING: f64 = 1.2;

/// How many breaks a partial board may hold at each depth.
#[derive(Clone, Debug, PartialEq)]
pub enum Schedule {
    /// None before `unlock` of the free cells, then linear up to the budget at the last cell.
    Ramp {
        /// The fraction of the free cells placed before the first break (0..=1).
        unlock: f64,
        /// The breaks allowed by the last cell; `None` lets the run choose.
        budget: Option<usize>,
    },
    /// (depth, cumulative breaks allowed from that depth on), depths increasing, breaks never decreasing.
    Steps(Vec<(usize, usize)>),
    /// The band's breaks, evenly over its break span ([`Schedule::resolve`]).
    Band {
        /// How many (`None`: one per four cells of the span, or what the target gives up).
        breaks: Option<usize>,
        /// One break more at each cell past the span that a clue pins on a
        /// third side (its lists are keyed by two sides and filtered by the
        /// clue's), allowed from that cell on.
        pinned: bool,
    },
}

impl Default for Schedule {
    fn default() -> Self {
        Schedule::Band { breaks: None, pinned: false }
    }
}

impl Schedule {
    /// The budget the schedule fixes, if it fixes one: the ramp's, or the last step's breaks.
    pub fn budget(&self) -> Option<usize> {
        match self {
            Schedule::Ramp { budget, .. } => *budget,
            Schedule::Steps(steps) => Some(steps.last().map_or(0, |s| s.1)),
            Schedule::Band { breaks, pinned: false } => *breaks,
            Schedule::Band { pinned: true, .. } => None,
        }
    }

    /// The schedule as steps for `instance` filled in `order` (a band
    /// schedule's breaks placed; the others as they are), `target` the score
    /// the run stops at. Positions of the span are cells of the order; the
    /// steps count free cells (clue cells before a position are left out).
    pub fn resolve(&self, instance: &Instance, order: &[usize], target: Option<usize>) -> Schedule {
        let grid = instance.grid;
        self.resolve_over(instance, order, target, BandShape::of(grid.width, grid.height).break_span())
    }

    /// [`Schedule::resolve`] with the band's breaks over the positions
    /// `start..=end` of the order (a band's break span, or one begun earlier
    /// where the exact walk stops short of it).
    pub fn resolve_over(
        &self,
        instance: &Instance,
        order: &[usize],
        target: Option<usize>,
        (start, end): (usize, usize),
    ) -> Schedule {
        let &Schedule::Band { breaks, pinned } = self else { return self.clone() };
        let grid = instance.grid;
        let span = end.saturating_sub(start) + 1;
        let count =
            breaks.or_else(|| target.map(|t| grid.max_score().saturating_sub(t))).unwrap_or(span.div_ceil(4)).max(1);
        let mut clue = vec![false; grid.cells()];
        for c in &instance.clues {
            clue[c.cell] = true;
        }
        // Free cells placed once the cell at `position` of the order is.
        let placed = |position: usize| order.iter().take(position + 1).filter(|&&c| !clue[c]).count();
        let steps = (0..count)
            .map(|k| {
                let x = if count == 1 { 0.0 } else { k as f64 / (count - 1) as f64 };
                let position = start + ((span - 1) as f64 * (1.0 - (1.0 - x).powf(BAND_SPACING))).round() as usize;
                (placed(position.min(order.len().saturating_sub(1))), k + 1)
            })
            .collect::<Vec<_>>();
        let extra = if pinned { pinned_depths(instance, order, end) } else { Vec::new() };
        let after = extra.iter().enumerate().map(|(k, &depth)| (depth, count + k + 1));
        let steps = steps.into_iter().chain(after).fold(Vec::<(usize, usize)>::new(), |mut steps, (depth, b)| {
            match steps.last_mut() {
                Some(last) if last.0 >= depth => last.1 = b,
                _ => steps.push((depth, b)),
            }
            steps
        });
        Schedule::Steps(steps)
    }

    /// The cumulative breaks allowed after `depth` of `free` cells are placed, for a run
    /// whose budget is `budget`.
    pub fn allowed(&self, depth: usize, free: usize, budget: usize) -> usize {
        match self {
            Schedule::Ramp { unlock, .. } => {
                let start = (unlock * free as f64).floor() as usize;
                if depth < start || budget == 0 {
                    return 0;
                }
                let span = (free - start).max(1);
                ((depth - start + 1) * budget).div_ceil(span).min(budget)
            }
            Schedule::Steps(steps) => {
                let step = steps.iter().rev().find(|&&(d, _)| d <= depth);
                step.map_or(0, |s| s.1).min(budget)
            }
            // Unresolved, the band's breaks fall in the last fifth of the cells.
            Schedule::Band { .. } => {
                Schedule::Ramp { unlock: DEFAULT_UNLOCK, budget: None }.allowed(depth, free, budget)
            }
        }
    }

    /// The allowance at every depth `0..=free` for `budget` breaks.
    pub fn table(&self, free: usize, budget: usize) -> Vec<u16> {
        (0..=free).map(|d| self.allowed(d, free, budget).min(u16::MAX as usize) as u16).collect()
    }

    /// Checks the schedule against an instance with `joins` inner joins.
    ///
    /// # Errors
    /// Breaks above the joins, decreasing steps, or an unlock outside 0..=1, named.
    pub fn check(&self, joins: usize) -> Result<(), String> {
        match self {
            Schedule::Ramp { unlock, budget } => {
                if !(0.0..=1.0).contains(unlock) {
                    return Err(format!("breaks unlock at {unlock} of the depth, not within 0..=1"));
                }
                match budget {
                    Some(b) if *b > joins => Err(format!("{b} breaks exceed the board's {joins} inner joins")),
                    _ => Ok(()),
                }
            }
            Schedule::Steps(steps) => {
                if steps.is_empty() {
                    return Err("an empty list of steps".to_owned());
                }
                for w in steps.windows(2) {
                    if w[1].0 <= w[0].0 {
                        return Err(format!("depth {} does not follow depth {}", w[1].0, w[0].0));
                    }
                    if w[1].1 < w[0].1 {
                        return Err(format!("the breaks decrease from {} to {} at depth {}", w[0].1, w[1].1, w[1].0));
                    }
                }
                match steps.last() {
                    Some(&(_, b)) if b > joins => Err(format!("{b} breaks exceed the board's {joins} inner joins")),
                    _ => Ok(()),
                }
            }
            Schedule::Band { breaks: Some(b), .. } if *b > joins => {
                Err(format!("{b} breaks exceed the board's {joins} inner joins"))
            }
            Schedule::Band { .. } => Ok(()),
        }
    }
}

/// The suffix of a band schedule that adds a break at each pinned cell.
const PINNED: &str = "+pinned";

/// Free cells placed once each cell past position `end` of `order` that a
/// clue pins on a third side is placed, in order. A free cell's lists are
/// keyed by its two neighbours towards the order's start; a clue on another
/// side filters them as well, and a break is never allowed against it, so
/// such a cell late in the order finds a piece for three fixed sides among
/// the few left: with all five clues of Eternity II, where the attempts end.
fn pinned_depths(instance: &Instance, order: &[usize], end: usize) -> Vec<usize> {
    let grid = instance.grid;
    let mut clue = vec![false; grid.cells()];
    for c in &instance.clues {
        clue[c.cell] = true;
    }
    let mut position = vec![0; grid.cells()];
    for (p, &cell) in order.iter().enumerate() {
        position[cell] = p;
    }
    let pinned = |p: usize, cell: usize| {
        crate::puzzle::Side::ALL
            .into_iter()
            .any(|side| grid.neighbour(cell, side).is_some_and(|n| clue[n] && position[n] > p))
    };
    let mut placed = 0;
    let mut depths = Vec::new();
    for (p, &cell) in order.iter().enumerate().filter(|&(_, &c)| !clue[c]) {
        placed += 1;
        if p > end && pinned(p, cell) {
            depths.push(placed);
        }
    }
    depths
}

impl fmt::Display for Schedule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Schedule::Ramp { unlock, budget: Some(b) } => write!(f, "ramp:{unlock}:{b}"),
            Schedule::Ramp { unlock, budget: None } => write!(f, "ramp:{unlock}"),
            Schedule::Steps(steps) => {
                let parts: Vec<String> = steps.iter().map(|(d, b)| format!("{d}:{b}")).collect();
                f.write_str(&parts.join(","))
            }
            Schedule::Band { breaks, pinned } => {
                f.write_str("band")?;
                if let Some(b) = breaks {
                    write!(f, ":{b}")?;
                }
                if *pinned { f.write_str(PINNED) } else { Ok(()) }
            }
        }
    }
}

impl FromStr for Schedule {
    type Err = String;

    /// `ramp:UNLOCK[:BUDGET]` or `DEPTH:BREAKS,...` (see the module's notes).
    fn from_str(s: &str) -> Result<Schedule, String> {
        let number =
            |part: &str, what: &str| part.trim().parse::<usize>().map_err(|e| format!("{s}: {what} {part}: {e}"));
        let (band, pinned) = s.strip_suffix(PINNED).map_or((s, false), |b| (b, true));
        let schedule = if band == "band" {
            Schedule::Band { breaks: None, pinned }
        } else if let Some(breaks) = band.strip_prefix("band:") {
            Schedule::Band { breaks: Some(number(breaks, "breaks")?), pinned }
        } else if pinned {
            return Err(format!("{s}: {PINNED} follows a band schedule (band{PINNED}, band:B{PINNED})"));
        } else if let Some(ramp) = s.strip_prefix("ramp:") {
            let (unlock, budget) = match ramp.split_once(':') {
                Some((u, b)) => (u, Some(number(b, "budget")?)),
                None => (ramp, None),
            };
            let unlock: f64 = unlock.parse().map_err(|e| format!("{s}: unlock {unlock}: {e}"))?;
            Schedule::Ramp { unlock, budget }
        } else {
            let mut steps = Vec::new();
            for part in s.split(',') {
                let (d, b) = part.split_once(':').ok_or_else(|| format!("{s}: expected DEPTH:BREAKS, found {part}"))?;
                steps.push((number(d, "depth")?, number(b, "breaks")?));
            }
            Schedule::Steps(steps)
        };
        schedule.check(usize::MAX).map_err(|e| format!("{s}: {e}"))?;
        Ok(schedule)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_ramp_is_zero_before_the_unlock_and_grows_to_the_budget() {
        let s = Schedule::default();
        let table = s.table(256, 20);
        assert!(table[..199].iter().all(|&a| a == 0), "{table:?}");
        assert!(table.windows(2).all(|w| w[0] <= w[1]), "never decreases");
        assert_eq!(table[256], 20);
        assert!(table[200] >= 1);
        assert_eq!(s.table(10, 0), vec![0; 11]);
    }

    #[test]
    fn steps_hold_from_their_depth_and_are_capped_by_the_budget() {
        let s: Schedule = "200:1,216:4,256:20".parse().unwrap();
        assert_eq!(s.allowed(199, 256, 30), 0);
        assert_eq!(s.allowed(200, 256, 30), 1);
        assert_eq!(s.allowed(230, 256, 30), 4);
        assert_eq!(s.allowed(256, 256, 30), 20);
        assert_eq!(s.allowed(256, 256, 7), 7);
        assert_eq!(s.budget(), Some(20));
    }

    /// The band schedule on Eternity II with the centre clue is the field's:
    /// one break more at cells 201, 206, 211, 216, 221, 225, 229, 233, 237
    /// and 239 of the order (the clue, cell 119 of it, counted), within a
    /// cell of each. Fails if the span, the spacing or the clue shift drifts.
    #[test]
    fn the_band_schedule_on_eternity_ii_is_the_published_one() {
        let official = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/data/official"));
        let options = crate::formats::load::InstanceOptions {
            columns: Some("bltr".parse().unwrap()),
            size: None,
            clues: Some(&official.join("clue-centre.txt")),
        };
        let instance = crate::formats::load::instance(&official.join("pieces.txt"), &options).unwrap().instance;
        let order = crate::search::Order::Band { corner: crate::search::Corner::Sw, transposed: false, strip: 1 }
            .cells(&instance);
        let Schedule::Steps(steps) = Schedule::Band { breaks: None, pinned: false }.resolve(&instance, &order, None)
        else {
            panic!("a band schedule resolves to steps")
        };
        // Published: the piece at order index i (clue included) may take break k;
        // here, after it the free cells placed are i (the clue is one of the i + 1 cells).
        let published = [201, 206, 211, 216, 221, 225, 229, 233, 237, 239];
        assert_eq!(steps.len(), published.len(), "{steps:?}");
        for (k, (&(depth, breaks), &index)) in steps.iter().zip(&published).enumerate() {
            assert_eq!(breaks, k + 1);
            assert!(depth.abs_diff(index) <= 1, "break {}: depth {depth} against {index}", k + 1);
        }
        let with_target = Schedule::Band { breaks: None, pinned: false }.resolve(&instance, &order, Some(463));
        assert_eq!(with_target.budget(), Some(17), "a target of 463 gives up 17 joins");
    }

    #[test]
    fn schedules_parse_and_refuse_what_cannot_be() {
        assert_eq!("band".parse::<Schedule>(), Ok(Schedule::Band { breaks: None, pinned: false }));
        assert_eq!("band:12".parse::<Schedule>(), Ok(Schedule::Band { breaks: Some(12), pinned: false }));
        assert_eq!(Schedule::Band { breaks: Some(12), pinned: false }.to_string(), "band:12");
        for pinned in ["band+pinned", "band:12+pinned"] {
            assert_eq!(pinned.parse::<Schedule>().map(|s| s.to_string()), Ok(pinned.to_owned()));
        }
        assert!("200:1+pinned".parse::<Schedule>().unwrap_err().contains("follows a band schedule"));
        assert_eq!("ramp:0.8:20".parse::<Schedule>(), Ok(Schedule::Ramp { unlock: 0.8, budget: Some(20) }));
        assert_eq!("ramp:0.5".parse::<Schedule>(), Ok(Schedule::Ramp { unlock: 0.5, budget: None }));
        assert!("ramp:1.5".parse::<Schedule>().is_err());
        assert!("ramp:0.5:-1".parse::<Schedule>().is_err());
        let decreasing = "200:4,210:2".parse::<Schedule>().unwrap_err();
        assert!(decreasing.contains("decrease"), "{decreasing}");
        assert!("200:1,200:2".parse::<Schedule>().is_err());
        assert!("x".parse::<Schedule>().is_err());
        assert!("200:1,256:481".parse::<Schedule>().unwrap().check(480).unwrap_err().contains("exceed"));
    }
}
