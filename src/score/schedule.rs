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
//!   on, never decreasing, e.g. `200:1,216:4,256:20`.
//!
//! Either way a run never allows more breaks than its best board had, less one.

use std::fmt;
use std::str::FromStr;

/// When breaks unlock in the default ramp, as a fraction of the free cells (200 of 256 on Eternity II).
pub const DEFAULT_UNLOCK: f64 = 0.78;

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
}

impl Default for Schedule {
    fn default() -> Self {
        Schedule::Ramp { unlock: DEFAULT_UNLOCK, budget: None }
    }
}

impl Schedule {
    /// The budget the schedule fixes, if it fixes one: the ramp's, or the last step's breaks.
    pub fn budget(&self) -> Option<usize> {
        match self {
            Schedule::Ramp { budget, .. } => *budget,
            Schedule::Steps(steps) => Some(steps.last().map_or(0, |s| s.1)),
        }
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
        }
    }
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
        }
    }
}

impl FromStr for Schedule {
    type Err = String;

    /// `ramp:UNLOCK[:BUDGET]` or `DEPTH:BREAKS,...` (see the module's notes).
    fn from_str(s: &str) -> Result<Schedule, String> {
        let number =
            |part: &str, what: &str| part.trim().parse::<usize>().map_err(|e| format!("{s}: {what} {part}: {e}"));
        let schedule = if let Some(ramp) = s.strip_prefix("ramp:") {
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

    #[test]
    fn schedules_parse_and_refuse_what_cannot_be() {
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
