//! What a scan run settles before it starts: its fill order, the breaks allowed and the quota needed at each depth, printed so a run can be reproduced.

use std::fmt;
use std::sync::atomic::AtomicUsize;

use super::completion::Completion;
use super::completion_times;
use super::lists::{self, Lists};
use super::options::Options;
use super::pilot::{self, Pilots, Work};
use super::quota::{self, Quota};
use super::schedule::Schedule;
use crate::crew::Crew;
use crate::outcome::Limits;
use crate::puzzle::{Colour, Instance};
use crate::search::band::BandShape;
use crate::search::{Corner, Order};
use crate::stop::Stop;

/// The scan walk's default fill order: the band order from the bottom-left corner (Blackwood's).
pub const DEFAULT_ORDER: Order = Order::Band { corner: Corner::Sw, transposed: false, strip: 1 };

/// Strips below the band are at most this many rows high.
const MAX_STRIP: usize = 4;

/// The fill order of a run that names none: [`DEFAULT_ORDER`], its rows below
/// the band in strips as high as the lowest clue row among the rows 2 to
/// `MAX_STRIP` from its start edge, if a clue sits there. A row scan meets
/// such a clue a whole row after the cells that fix the neighbour below it, and
/// an attempt whose prefix cannot match the clue thrashes over the cells in
/// between until it stalls out: on the planted 5 + 17 boards (clues in the
/// third row) most attempts of a run ended 15 or 27 cells deep. With strips
/// reaching the clue's row, the cells beside it follow those that fix them.
pub fn default_order(instance: &Instance) -> Order {
    let Order::Band { corner, transposed, .. } = DEFAULT_ORDER else { return DEFAULT_ORDER };
    let grid = instance.grid;
    let band = BandShape::of(grid.width, grid.height);
    // Rows from the start edge (the bottom one, for the south-west corner).
    let row_of = |cell: usize| grid.height - 1 - grid.row_col(cell).0;
    let lowest = instance
        .clues
        .iter()
        .map(|c| row_of(c.cell))
        .filter(|&r| (1..MAX_STRIP).contains(&r) && r < band.height - band.rows)
        .min();
    match lowest {
        Some(row) => Order::Band { corner, transposed, strip: (row + 1) as u8 },
        None => DEFAULT_ORDER,
    }
}

/// After a ramp schedule's unlock, one break for every this many free cells, when it names no budget.
const CELLS_PER_BREAK: usize = 4;

/// Where the pilot walks stop short of the band, breaks begin at this share of their mean depth.
const EARLY: f64 = 0.95;

/// The position in `cells` (a fill order) of the free cell that makes `depth` free cells placed.
fn position_of(instance: &Instance, cells: &[usize], depth: usize) -> usize {
    let clue = |c: usize| instance.clues.iter().any(|k| k.cell == c);
    let mut placed = 0;
    for (position, &cell) in cells.iter().enumerate() {
        if !clue(cell) {
            placed += 1;
            if placed >= depth.max(1) {
                return position;
            }
        }
    }
    cells.len().saturating_sub(1)
}

/// A scan run's settled data.
#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    /// The fill order.
    pub order: Order,
    /// The schedule, resolved for the order (a band schedule as steps).
    pub schedule: Schedule,
    /// The breaks allowed in all.
    pub budget: usize,
    /// Per count of free cells placed, the breaks allowed in all by then.
    pub allow: Vec<u16>,
    /// The quota's colours.
    pub quota_colours: Vec<Colour>,
    /// The sides they show on all pieces.
    pub quota_total: usize,
    /// Per count of free cells placed, the quota sides the free pieces must show by then.
    pub need: Vec<usize>,
    /// What the pilot walk of each quota tried did (placements near the end, deepest depth), if any ran.
    pub pilot: Vec<(Quota, u64, usize)>,
    /// Where the exact walk stops short of the band, the depth breaks begin at instead.
    pub early: Option<usize>,
    /// When CP-SAT completes partial boards: as given, or read from the measured table for this board.
    pub completion: Completion,
}

impl Plan {
    /// Settles `options` for `instance` without walking: an automatic quota
    /// takes its most concentrated set, the band's breaks its break span.
    ///
    /// # Errors
    /// A fill order that is not a staircase, or clues that rule every board out.
    pub fn new(instance: &Instance, options: &Options) -> Result<Plan, String> {
        let quota = Quota { colours: quota::Colours::List(options.quota.colours(instance)), ..options.quota.clone() };
        Plan::build(instance, options, &quota, None)
    }

    /// Settles `options` for `instance` by the pilot walks `pilots` ([`pilot`]): an automatic quota takes the candidate (no quota among
    /// them) whose walk makes the most placements near the end, then reaches
    /// deepest; where that walk stops short of the band's first break, the
    /// band's breaks begin at 95% of its depth instead.
    ///
    /// # Errors
    /// As [`Plan::new`].
    pub(crate) fn settle(instance: &Instance, options: &Options, pilots: &Pilots<'_>) -> Result<Plan, String> {
        let quotas = quota::candidates(&options.quota, instance);
        let band = matches!(options.schedule, Schedule::Band { .. });
        if quotas.len() == 1 && !band {
            return Plan::build(instance, options, &quotas[0], None);
        }
        let plans = quotas.iter().map(|q| Plan::build(instance, options, q, None)).collect::<Result<Vec<_>, _>>()?;
        let lists =
            plans.iter().map(|p| Ok((p.lists(instance)?, p.first_break()))).collect::<Result<Vec<_>, String>>()?;
        let reached = pilot::reach(&lists, pilots);
        let best = (0..plans.len()).fold(0, |b, k| if reached[k] > reached[b] { k } else { b });
        let mut plan = plans[best].clone();
        if band && reached[best].deepest < plan.first_break() {
            let depth = (reached[best].deepest as f64 * EARLY).floor() as usize;
            let (_, end) = BandShape::of(instance.grid.width, instance.grid.height).break_span();
            let start = position_of(instance, &plan.order.cells(instance), depth).min(end);
            plan = Plan::build(instance, options, &quotas[best], Some((start, end)))?;
            plan.early = Some(depth);
        }
        plan.pilot = quotas.into_iter().zip(reached).map(|(q, r)| (q, r.deep, r.deepest)).collect();
        Ok(plan)
    }

    /// Settles the plan as a run of `limits` does, for a measurement that
    /// wants the plan alone (the pilots' boards are not kept), until `stop`
    /// is raised or the pilot's share of the time limit is spent
    /// (`pilot::PILOT_SHARE`).
    ///
    /// # Errors
    /// As [`Plan::new`], and a pilot thread that died (named).
    pub fn settle_for(instance: &Instance, options: &Options, limits: &Limits, stop: &Stop) -> Result<Plan, String> {
        let pilots_stop = stop.child();
        let raise = || pilots_stop.raise();
        let crew = Crew::new(&raise);
        let best = AtomicUsize::new(usize::MAX);
        let pilots = Pilots {
            work: Work::for_limit(limits.time_limit),
            seed: limits.seed,
            threads: limits.threads.max(1) as usize,
            best: &best,
            stop: pilots_stop.flag(),
            deadline: pilot::pilot_deadline(std::time::Instant::now(), limits.time_limit),
            found: &|_, _| {},
            crew: &crew,
        };
        let plan = Plan::settle(instance, options, &pilots);
        crew.check().map_err(|e| e.to_string())?;
        plan
    }

    /// `options` with this plan's quota and breaks given outright, so that a
    /// run of them settles nothing again.
    pub fn fixed(&self, options: &Options) -> Options {
        Options {
            quota: Quota {
                colours: if self.quota_colours.is_empty() {
                    quota::Colours::None
                } else {
                    quota::Colours::List(self.quota_colours.clone())
                },
                ..options.quota.clone()
            },
            schedule: self.schedule.clone(),
            order: Some(self.order),
            completion: Some(self.completion),
            ..options.clone()
        }
    }

    /// The plan with `quota`, the band's breaks over `span` (positions of the order; `None`: its break span).
    fn build(
        instance: &Instance,
        options: &Options,
        quota: &Quota,
        span: Option<(usize, usize)>,
    ) -> Result<Plan, String> {
        let order = options.order.unwrap_or_else(|| default_order(instance));
        let cells = order.cells(instance);
        let mut clue = vec![false; instance.grid.cells()];
        for c in &instance.clues {
            clue[c.cell] = true;
        }
        let free = cells.iter().filter(|&&c| !clue[c]).count();
        let schedule = match span {
            Some(span) => options.schedule.resolve_over(instance, &cells, options.target, span),
            None => options.schedule.resolve(instance, &cells, options.target),
        };
        let budget = match (&schedule, schedule.budget()) {
            (_, Some(b)) => b,
            (Schedule::Ramp { unlock, .. }, None) => {
                let start = (unlock * free as f64).floor() as usize;
                (free - start.min(free)).div_ceil(CELLS_PER_BREAK).max(1)
            }
            _ => 0,
        }
        .min(instance.grid.max_score());
        let budget = options.target.map_or(budget, |t| budget.min(instance.grid.max_score().saturating_sub(t)));
        let allow = schedule.table(free, budget);
        let quota_colours = quota.colours(instance);
        let quota_total = instance.pieces.iter().flat_map(|p| p.0).filter(|c| quota_colours.contains(c)).count();
        let need = quota_need(instance, quota, &cells, &clue, &quota_colours, quota_total);
        lists::staircase(instance, &cells)?;
        let completion = options.completion.unwrap_or_else(|| completion_times::thresholds(instance));
        Ok(Plan {
            order,
            schedule,
            budget,
            allow,
            quota_colours,
            quota_total,
            need,
            pilot: Vec::new(),
            early: None,
            completion,
        })
    }

    /// The depth (free cells placed) at which the first break is allowed (the free cells, if none is).
    pub fn first_break(&self) -> usize {
        self.allow.iter().position(|&a| a > 0).unwrap_or(self.allow.len().saturating_sub(1))
    }

    /// The candidate lists of this plan.
    ///
    /// # Errors
    /// Clues that rule every board out.
    pub(crate) fn lists(&self, instance: &Instance) -> Result<Lists, String> {
        let quota = if self.quota_total == 0 { &[][..] } else { &self.quota_colours[..] };
        Lists::new(instance, &self.order.cells(instance), &self.allow, &self.need, quota)
    }
}

/// Per count of free cells placed, the quota sides the free pieces must show:
/// the curve at the position of the last one placed, less the sides of the
/// clues passed by then.
fn quota_need(
    instance: &Instance,
    quota: &Quota,
    cells: &[usize],
    clue: &[bool],
    colours: &[Colour],
    total: usize,
) -> Vec<usize> {
    let sides = |cell: usize| {
        instance
            .clues
            .iter()
            .find(|c| c.cell == cell)
            .map_or(0, |c| instance.pieces[c.placement.piece].0.iter().filter(|x| colours.contains(x)).count())
    };
    let mut need = vec![0];
    let mut clue_sides = 0;
    for (position, &cell) in cells.iter().enumerate() {
        if clue[cell] {
            clue_sides += sides(cell);
            continue;
        }
        let want = if colours.is_empty() { 0 } else { quota.need(position, cells.len(), total) };
        need.push(want.saturating_sub(clue_sides));
    }
    need
}

impl fmt::Display for Plan {
    /// One line: the order, the breaks as steps, the quota's colours and its largest need.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "order {}, breaks {} (at most {}", self.order, self.schedule, self.budget)?;
        if let Some(depth) = self.early {
            write!(f, "; begun at depth {depth}, where the exact walk stops")?;
        }
        f.write_str("), quota ")?;
        if self.quota_colours.is_empty() {
            f.write_str("none")?;
        } else {
            let colours: Vec<String> = self.quota_colours.iter().map(u8::to_string).collect();
            let most = self.need.iter().max().copied().unwrap_or(0);
            let until = self.need.iter().rposition(|&n| n > 0).unwrap_or(0);
            write!(
                f,
                "colours {} ({} sides; at least {most} of them placed by cell {until})",
                colours.join(","),
                self.quota_total
            )?;
        }
        write!(f, ", completion {}", self.completion)?;
        if !self.pilot.is_empty() {
            let tried: Vec<String> = self
                .pilot
                .iter()
                .map(|(q, deep, deepest)| format!("{q}: {deep} near the end, {deepest} deep"))
                .collect();
            write!(f, "; pilot walks: {}", tried.join("; "))?;
        }
        Ok(())
    }
}
