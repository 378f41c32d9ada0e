//! What a score run tells its front end (the command line, Python, a bench): each verified best, the plan, the heartbeat.

use crate::puzzle::Board;

/// The receiver of a score run's news, called from the run's threads. Every
/// method has a default that ignores it: a front end implements what it shows.
pub trait Sink: Sync {
    /// The run resumes a checkpoint (or an `--out` board better than it), with or without a board.
    fn resumed(&self, _resumed: &Resumed) {}

    /// The plan the run settled, as one line.
    fn plan(&self, _plan: &str) {}

    /// The completion workers the run's figures asked for, as one line, each time the number changes.
    fn split(&self, _split: &str) {}

    /// A board the checker passed and scored above every earlier one. It is
    /// on disk already (`--out`, the checkpoint) unless `unwritten` says why not.
    fn best(&self, _best: &Verified<'_>) {}

    /// The run's counters, every heartbeat interval.
    fn heartbeat(&self, _beat: &Heartbeat) {}

    /// Something the user should know that does not end the run (a file that
    /// could not be written, and will be tried again).
    fn warning(&self, _message: &str) {}
}

/// The receiver that ignores everything.
impl Sink for () {}

/// What a resumed run starts from.
#[derive(Clone, Debug, PartialEq)]
pub struct Resumed {
    /// The file the run resumes (the checkpoint, or `--out` when it holds the better board).
    pub from: std::path::PathBuf,
    /// The checker's score of the board resumed (`None`: the checkpoint holds
    /// no board yet, only where the run stood).
    pub score: Option<usize>,
    /// Seconds the run spent before this segment.
    pub seconds: f64,
    /// This segment's number (1 for the first resume); `None` when the file
    /// holds a board but no run state (its seeds start afresh).
    pub generation: Option<u64>,
    /// The time left of the run's time limit (`None`: no limit).
    pub left: Option<f64>,
}

/// A new best board, verified.
#[derive(Debug)]
pub struct Verified<'a> {
    /// The board.
    pub board: &'a Board,
    /// The checker's score of it.
    pub score: usize,
    /// Seconds into the run, the resumed segments' included.
    pub seconds: f64,
    /// Why `--out` or the checkpoint could not be written (the next save tries again).
    pub unwritten: Option<String>,
}

/// A score run's counters at a heartbeat.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct Heartbeat {
    /// Seconds into the run, the resumed segments' included.
    pub seconds: f64,
    /// Placements per second of each walk since the last heartbeat.
    pub rates: Vec<f64>,
    /// Attempts started, all walks and segments.
    pub attempts: u64,
    /// The most free cells a walk filled at once.
    pub deepest: usize,
    /// Partial boards CP-SAT completed.
    pub completed: u64,
    /// Completions CP-SAT failed (an error, not a board).
    pub failed: u64,
    /// Partial boards waiting for CP-SAT.
    pub queued: u64,
    /// Partial boards dropped unread (the completer was behind).
    pub dropped: u64,
    /// Completion workers taking boards now.
    pub completers: usize,
    /// The best board's score (`None`: no full board yet).
    pub best: Option<usize>,
}

impl std::fmt::Display for Heartbeat {
    /// One line: `heartbeat: 120 s, 2 walks at 31.2, 30.9 M placements/s, 14 attempts, deepest 247, completions 812 done / 0 failed / 3 queued / 0 dropped by 1 worker(s), best 466`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "heartbeat: {:.0} s, ", self.seconds)?;
        if self.rates.is_empty() {
            f.write_str("no walk under way (settling, or a solver without walks)")?;
        } else {
            let rates: Vec<String> = self.rates.iter().map(|r| format!("{:.1}", r / 1e6)).collect();
            write!(f, "{} walk(s) at {} M placements/s", self.rates.len(), rates.join(", "))?;
        }
        write!(
            f,
            ", {} attempts, deepest {}, completions {} done / {} failed / {} queued / {} dropped by {} worker(s), best ",
            self.attempts, self.deepest, self.completed, self.failed, self.queued, self.dropped, self.completers
        )?;
        match self.best {
            Some(best) => write!(f, "{best}"),
            None => f.write_str("none yet"),
        }
    }
}
