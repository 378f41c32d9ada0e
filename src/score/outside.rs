//! Partial boards from outside a run (another solver's saved boards) completed by CP-SAT exactly as a run completes its walks' boards.
//!
//! The field's walks save partial boards and stop there. So that a bench
//! compares walks, not what comes after them, the reference's saved boards
//! go through the same queue, bound, worker and keeper as ours
//! (`completer.rs`), during its run and on the cores it shares with it.

use std::time::{Duration, Instant};

use super::completer::{Completers, Worker};
use super::completion::Completion;
use super::dispatch::CloseOnDrop;
use super::events::Events;
use super::keeper::Keeper;
use super::options::{Options, Stats};
use crate::crew::Crew;
use crate::error::Error;
use crate::outcome::{Limits, Outcome};
use crate::puzzle::{Board, Instance};
use crate::stop::{RaiseOnDrop, Stop};

/// The feed's boards are dealt to this many mailboxes of the hand-off (each
/// of `handoff::SLOTS` slots), so that a burst of them waits whole.
const MAILBOXES: usize = 4;

/// How often the feed is read.
const POLL: Duration = Duration::from_millis(100);

/// Completes the partial boards `feed` hands over (each call returns those
/// that came since the last) until `limits`' time limit passes or `stop` is
/// raised, one CP-SAT worker on one thread with `completion`'s seconds per
/// board, as a scan run completes its walks' partial boards: the most
/// promising first, none the bound says cannot beat the best (or reach the
/// save score). Each better full board goes to `events`; returns the best,
/// with the run's census.
///
/// # Errors
/// A completed board the checker rejects (a bug).
pub fn complete(
    instance: &Instance,
    completion: &Completion,
    limits: &Limits,
    stop: &Stop,
    feed: &(dyn Fn() -> Vec<Board> + Sync),
    events: &dyn Events,
) -> Result<Outcome<Stats>, Error> {
    let start = Instant::now();
    let run = stop.child();
    let raise = || run.raise();
    let crew = Crew::new(&raise);
    let keeper = Keeper::new(instance, &Options::default(), (start, &run), events);
    let deadline = limits.deadline(start);
    let free = instance.grid.cells() - instance.clues.len();
    let queue = Completers::new(MAILBOXES, instance, free, 1);
    std::thread::scope(|scope| {
        let _closed = CloseOnDrop(&keeper.dispatch);
        let _ = crew.spawn(scope, "dispatch".to_owned(), || keeper.dispatch.serve());
        let worker = Worker { instance, completion, keeper: &keeper, run: &run, seed: limits.seed };
        let queue = &queue;
        let _ = crew.spawn(scope, "completion worker 0".to_owned(), move || queue.work(&worker, 0));
        let _ = crew.guard("feed", || {
            let _over = RaiseOnDrop(&run);
            while !run.is_raised() && deadline.is_none_or(|d| Instant::now() < d) {
                for board in feed() {
                    let (breaks, depth) = (breaks(instance, &board), free_placed(instance, &board));
                    let worth = keeper.worth(breaks + queue.bound.of(instance, &board));
                    let mailbox = queue.handoff.offered() as usize % MAILBOXES;
                    queue.offer(mailbox, (depth, breaks), worth, |slot| slot.clone_from(&board));
                }
                std::thread::sleep(POLL);
            }
        });
    });
    crew.check()?;
    let stats = queue.counted(Stats::default());
    let finish = |status, board, stats| Outcome { status, board, seconds: start.elapsed().as_secs_f64(), stats };
    keeper.finish(stop, stats, finish)
}

/// Joins between two placed cells of `board` whose colours differ.
fn breaks(instance: &Instance, board: &Board) -> usize {
    let grid = instance.grid;
    grid.joins()
        .filter(|&(cell, side)| {
            let other = grid.neighbour(cell, side).expect("inner join");
            match (board.colour(instance, cell, side), board.colour(instance, other, side.opposite())) {
                (Some(a), Some(b)) => a != b,
                _ => false,
            }
        })
        .count()
}

/// Placed cells of `board` that are not clue cells.
fn free_placed(instance: &Instance, board: &Board) -> usize {
    let clue = |c: usize| instance.clues.iter().any(|k| k.cell == c);
    board.cells.iter().enumerate().filter(|&(c, p)| p.is_some() && !clue(c)).count()
}

#[cfg(test)]
mod tests {
    use std::sync::Mutex;

    use super::*;
    use crate::generate::{PlantedSpec, planted};

    /// Partial boards handed in from outside come back completed, verified,
    /// as the best board: the planted board, which completes them without a
    /// break. Fails if outside boards skip the queue or the keeper.
    #[test]
    fn an_outside_partial_board_is_completed_and_kept() {
        let p = planted(&PlantedSpec::square(6, 3, 5, 7)).unwrap();
        let mut partial = p.solution.clone();
        for cell in [20, 21, 26, 27, 28] {
            partial.cells[cell] = None;
        }
        let handed = Mutex::new(vec![partial]);
        let feed = || std::mem::take(&mut *handed.lock().unwrap());
        let seen = Mutex::new(Vec::new());
        let on_best = |b: &crate::score::Best| seen.lock().unwrap().push(b.score);
        let limits = Limits { time_limit: Some(3.0), ..Limits::default() };
        let outcome = complete(&p.instance, &Completion::default(), &limits, &Stop::new(), &feed, &on_best).unwrap();
        let joins = p.instance.grid.max_score();
        assert_eq!(seen.into_inner().unwrap(), vec![joins]);
        assert_eq!(outcome.board.as_ref().map(|b| b.score(&p.instance)), Some(joins));
        assert_eq!((outcome.stats.reported, outcome.stats.completions), (1, 1));
        assert_eq!(outcome.stats.census, vec![(joins, 1)]);
    }

    #[test]
    fn breaks_count_only_joins_between_placed_cells() {
        let p = planted(&PlantedSpec::square(5, 2, 4, 3)).unwrap();
        assert_eq!(breaks(&p.instance, &p.solution), 0);
        let mut swapped = p.solution.clone();
        swapped.cells.swap(6, 18);
        let full = breaks(&p.instance, &swapped);
        assert_eq!(full, p.instance.grid.max_score() - swapped.score(&p.instance));
        swapped.cells[6] = None;
        assert!(breaks(&p.instance, &swapped) <= full);
    }
}
