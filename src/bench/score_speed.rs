//! `bench score-speed`: the scan walk's rate beside the field's published solver's, on the same board, one thread each.
//!
//! Both walk the official set with its centre clue in the published
//! configuration: the band order, the breaks at 201–239, the quota on the
//! colours the port uses (its 13, 16 and 10: 5, 20 and 7 here) and attempts
//! of 5 × 10⁸ loop turns. Both count the same things: a loop turn is a
//! placement or a cell given up, skipped candidates are not counted, and
//! placements are half the turns plus half the depth left standing at each
//! attempt's end (the port prints only turns; over 5 × 10⁸ turns an attempt's
//! depth is noise, so its placements are taken as half its turns). Ours runs
//! first, then the port, never together.
//!
//! Planted boards, if asked, are walked after them under the plan a score
//! run settles without pilot walks (the port reads only the official set):
//! the walk's rate on boards it was not tuned on, to hold a faster loop to
//! the same gain everywhere.

use serde::{Deserialize, Serialize};

use super::records::{Record, round3};
use super::reference::blackwood;
use crate::error::Error;
use crate::puzzle::Instance;
use crate::score::{self, Completion, Options, Quota, Schedule, speed};
use crate::stop::Stop;

/// The published quota's colours in this project's numbering (the port's 13, 16 and 10).
pub const PUBLISHED_QUOTA: [u8; 3] = [5, 7, 20];

/// The options of the published configuration.
pub fn published() -> Options {
    Options {
        quota: Quota { colours: score::quota::Colours::List(PUBLISHED_QUOTA.to_vec()), ..Quota::default() },
        schedule: Schedule::Band { breaks: None, pinned: false },
        completion: Some(Completion::NONE),
        order: Some(score::plan::DEFAULT_ORDER),
        ..Options::default()
    }
}

/// The two rates, side by side.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ScoreSpeed {
    /// Seconds each ran.
    pub seconds: f64,
    /// Ours: placements per second.
    pub ours_placements_per_second: f64,
    /// Ours: loop turns per second.
    pub ours_iterations_per_second: f64,
    /// Ours: what it counted.
    pub ours: speed::Speed,
    /// The port's loop turns per second by its own summary line (`None`: not run, see `reference`).
    pub reference_iterations_per_second: Option<f64>,
    /// The port's placements per second, taken as half its turns.
    pub reference_placements_per_second: Option<f64>,
    /// The reference's state: run, or why not.
    pub reference: String,
    /// Ours on each planted board asked for, in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub planted: Vec<BoardSpeed>,
}

/// The walk's rate on one board.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BoardSpeed {
    /// The board's name.
    pub board: String,
    /// Placements per second.
    pub placements_per_second: f64,
    /// What it counted.
    pub speed: speed::Speed,
}

/// The options a planted board is walked with: a run's, without completions.
fn planted_options() -> Options {
    Options { completion: Some(Completion::NONE), ..Options::default() }
}

/// Runs ours, then the port, each for `seconds` on one thread, on the
/// official set `instance`; then ours on each of the `planted` boards (name,
/// instance). `command` is the command line the record names.
///
/// # Errors
/// A plan refused, or the port failing once found.
pub fn run(
    instance: &Instance,
    planted: &[(String, Instance)],
    seconds: f64,
    command: &str,
    stop: &Stop,
) -> Result<Record<ScoreSpeed>, Error> {
    let ours = speed::measure(instance, &published(), seconds, 1, stop).map_err(Error::Options)?;
    eprintln!("bench: score walk: {:.1} M placements/s", ours.placements_per_second() / 1e6);
    let (rate, reference) = match blackwood::binary() {
        Err(why) => (None, format!("skipped: {why}")),
        Ok(_) => {
            let ran = blackwood::solve(instance, 1, seconds, stop, &|_| {})?;
            match ran.iterations_per_second {
                Some(rate) => (Some(rate), "run".to_owned()),
                None => (None, format!("its summary line did not come within {seconds} s")),
            }
        }
    };
    if let Some(rate) = rate {
        eprintln!("bench: the port: {:.1} M loop turns/s", rate / 1e6);
    }
    let mut boards = Vec::new();
    for (board, instance) in planted.iter().take_while(|_| !stop.is_raised()) {
        let speed = speed::measure(instance, &planted_options(), seconds, 1, stop).map_err(Error::Options)?;
        eprintln!("bench: score walk on {board}: {:.1} M placements/s", speed.placements_per_second() / 1e6);
        let placements_per_second = speed.placements_per_second().round();
        boards.push(BoardSpeed { board: board.clone(), placements_per_second, speed });
    }
    let body = ScoreSpeed {
        seconds: round3(seconds),
        ours_placements_per_second: ours.placements_per_second().round(),
        ours_iterations_per_second: ours.iterations_per_second().round(),
        ours,
        reference_iterations_per_second: rate,
        reference_placements_per_second: rate.map(|r| (r / 2.0).round()),
        reference,
        planted: boards,
    };
    Ok(Record::new("score-speed", command.to_owned(), Some(1), stop.is_raised().then_some(true), body))
}
