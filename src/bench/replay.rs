//! `bench replay`: a walk's recorded stream of partial boards offered to one completion worker faster than it can take them, and which depths it completed.

use std::path::Path;

use super::records::Provenance;
use super::score::ScoreBoard;
use crate::error::Error;
use crate::score::replay::{self, Recording};
use crate::stop::Stop;

/// How each board is recorded and replayed.
#[derive(Clone, Copy, Debug)]
pub struct Replay {
    /// Seconds the walk runs while its stream is recorded (one thread, after its pilot).
    pub record_seconds: f64,
    /// How many times faster than it came the stream is offered.
    pub speed: f64,
    /// Seconds the worker keeps completing after the last board is offered.
    pub tail: f64,
}

/// Records and replays each of `boards` (read from `data` and `models`) as
/// `how` says, and returns the markdown table naming `command`. Progress goes
/// to stderr; when `stop` is raised the boards done so far are kept.
///
/// # Errors
/// A board that cannot be read or planned, or a completed board the checker rejects.
pub fn run(
    boards: &[ScoreBoard],
    (data, models): (&Path, &Path),
    how: &Replay,
    command: &str,
    stop: &Stop,
) -> Result<String, Error> {
    let mut text = header(command, how);
    for (i, board) in boards.iter().enumerate() {
        if stop.is_raised() {
            break;
        }
        let name = board.name();
        eprintln!("replay: [{}/{}] {name}: recording {} s ...", i + 1, boards.len(), how.record_seconds);
        let instance = board.instance(data, models)?;
        let recording = replay::record(&instance, how.record_seconds, 1, stop)?;
        eprintln!(
            "replay: {name}: {} boards recorded; offering them {}x as fast ...",
            recording.offers.len(),
            how.speed
        );
        let done = replay::replay(&instance, &recording, how.speed, how.tail, stop)?;
        text.push_str(&board_table(&name, &recording, &done.stats, how));
    }
    Ok(text)
}

/// The table's title, its command and provenance.
fn header(command: &str, how: &Replay) -> String {
    let p = Provenance::current();
    format!(
        "# Replay: a walk's partial boards offered {speed}x as fast as they came, to one worker\n\n\
         Made by `{command}` at commit {commit}{dirty}, OR-Tools {ortools}, {cores} cores, {load}.\n\
         Each board: one walk recorded for {record} s (after its pilot, as a run settles it), every partial\n\
         board it offered for completion kept; then the stream offered {speed}x as fast through the run's\n\
         hand-off, bound and keeper to one CP-SAT worker, which works {tail} s past the last offer.\n\
         A worker taking boards in the order they came would complete about the same share at every depth\n\
         (the `all depths` row); the hand-off gives it the deepest first.\n",
        speed = how.speed,
        commit = p.commit,
        dirty = if p.dirty { " (dirty)" } else { "" },
        ortools = p.ortools,
        cores = p.cores,
        load = p.load.unwrap_or_else(|| "load unknown".to_owned()),
        record = how.record_seconds,
        tail = how.tail,
    )
}

/// One board's rows: depth, offered, completed, share.
fn board_table(name: &str, recording: &Recording, stats: &crate::score::Stats, how: &Replay) -> String {
    let rows = replay::shares(stats);
    let (offered, completed): (u64, u64) = rows.iter().fold((0, 0), |(o, c), r| (o + r.1, c + r.2));
    let mut text = format!(
        "\n## {name}\n\n{} boards in {:.1} s of walking, offered in {:.1} s; {} completed, {} dropped unread \
         (the rest let go by the bound: they could not beat the best).\n\n| depth (free cells filled) | offered | completed | share |\n|---:|---:|---:|---:|\n",
        recording.offers.len(),
        recording.seconds,
        recording.seconds / how.speed,
        completed,
        stats.dropped,
    );
    for (depth, o, c, share) in rows {
        text.push_str(&format!("| {depth} | {o} | {c} | {:.1}% |\n", 100.0 * share));
    }
    text.push_str(&format!(
        "| all depths | {offered} | {completed} | {:.1}% |\n",
        100.0 * completed as f64 / offered.max(1) as f64
    ));
    text
}
