//! The run's side of the solver's events: each best board through the checker to the files, the trace and the sink; the plan and the counters into the checkpoint; the heartbeat.

use std::io::Write as _;
use std::path::Path;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use super::sink::{Heartbeat, Sink, Verified};
use crate::best_file::{BestFiles, Offered};
use crate::score::{self, Best, Events, Progress};
use crate::stop::Stop;

/// Where the solver's events go in a run.
pub(super) struct Feed<'a> {
    pub(super) files: &'a BestFiles<'a>,
    pub(super) options: &'a score::Options,
    pub(super) trace: Option<&'a Path>,
    pub(super) sink: &'a dyn Sink,
    /// Raised to end the run (a rejected board).
    pub(super) stop: &'a Stop,
    /// The checker's word on the first board it rejected.
    pub(super) rejected: Mutex<Option<String>>,
    /// The last counters the solver gave.
    pub(super) last: Mutex<Option<Progress>>,
    /// Placements of the earlier segments.
    pub(super) placements_before: u64,
}

impl Events for Feed<'_> {
    /// The checker first: a rejected board ends the run; a better one is
    /// written (by the files' one owner), traced, and handed to the sink.
    fn best(&self, best: &Best) {
        let (score, unwritten) = match self.files.offer(&best.board) {
            Err(error) => {
                let _ = self.rejected.lock().unwrap_or_else(|e| e.into_inner()).get_or_insert(error.to_string());
                self.stop.raise();
                return;
            }
            Ok(Offered::NotBetter(_)) => return,
            Ok(Offered::Better { score, unwritten }) => (score, unwritten),
        };
        let seconds = self.files.seconds();
        if let Some(path) = self.trace
            && let Err(error) = append_trace(path, seconds, score)
        {
            self.sink.warning(&error);
        }
        let unwritten = unwritten.map(|e| e.to_string());
        self.sink.best(&Verified { board: &best.board, score, seconds, unwritten });
    }

    /// Kept for the checkpoint, and saved at once (so a resume walks no
    /// pilot, however soon it comes), then shown.
    fn plan(&self, plan: &score::plan::Plan) {
        let saved = super::resume::saved(plan, self.options);
        self.files.update_run(|run| run.plan = Some(saved));
        if let Err(error) = self.files.save() {
            self.sink.warning(&error.to_string());
        }
        self.sink.plan(&plan.to_string());
    }

    /// Kept: the attempts for the checkpoint, the rest for the heartbeat.
    fn progress(&self, progress: &Progress) {
        self.files.update_run(|run| {
            // A walk this segment does not run keeps its count from the earlier ones.
            let kept = run.attempts.iter().skip(progress.attempts.len());
            run.attempts = progress.attempts.iter().chain(kept).copied().collect();
            run.placements = self.placements_before + progress.placements.iter().sum::<u64>();
        });
        *self.last.lock().unwrap_or_else(|e| e.into_inner()) = Some(progress.clone());
    }

    /// Shown.
    fn warning(&self, message: &str) {
        self.sink.warning(message);
    }

    /// Shown, and on the live page.
    fn split(&self, split: &score::Split) {
        let line = split.to_string();
        crate::live::heartbeat(&format!("split: {line}"));
        self.sink.split(&line);
    }
}

impl Feed<'_> {
    /// The checker's word on a rejected board, if one was.
    pub(super) fn rejected(&self) -> Option<String> {
        self.rejected.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// Saves the checkpoint every `every` and hands the sink a heartbeat
    /// every `heartbeat` (if any) until `finished` is raised.
    pub(super) fn keep(&self, every: Option<Duration>, heartbeat: Option<Duration>, finished: &Stop) {
        let started = Instant::now();
        let (mut save_at, mut beat_at) = (every.map(|e| started + e), heartbeat.map(|h| started + h));
        let mut before: Option<Progress> = None;
        while !finished.is_raised() {
            std::thread::sleep(Duration::from_millis(50));
            let now = Instant::now();
            if let (Some(at), Some(every)) = (save_at, every)
                && now >= at
            {
                save_at = Some(at + every);
                if let Err(error) = self.files.save() {
                    self.sink.warning(&error.to_string());
                }
            }
            if let (Some(at), Some(interval)) = (beat_at, heartbeat)
                && now >= at
            {
                beat_at = Some(at + interval);
                let now = self.last.lock().unwrap_or_else(|e| e.into_inner()).clone();
                let beat = self.heartbeat(before.as_ref(), now.as_ref());
                crate::live::heartbeat(&beat.to_string());
                self.sink.heartbeat(&beat);
                before = now;
            }
        }
    }

    /// The heartbeat from the counters `before` and `now` (either may be missing).
    fn heartbeat(&self, before: Option<&Progress>, now: Option<&Progress>) -> Heartbeat {
        let best = self.files.floor();
        let seconds = self.files.seconds();
        let Some(now) = now else { return Heartbeat { seconds, best, ..Heartbeat::default() } };
        let (then_placed, then_seconds) = before.map_or((&[][..], 0.0), |b| (&b.placements[..], b.seconds));
        let span = (now.seconds - then_seconds).max(1e-9);
        let rates = (0..now.placements.len())
            .map(|t| (now.placements[t] - then_placed.get(t).copied().unwrap_or(0)) as f64 / span)
            .collect();
        Heartbeat {
            seconds,
            rates,
            attempts: now.attempts.iter().sum(),
            deepest: now.deepest,
            completed: now.completed,
            failed: now.failed,
            queued: now.queued,
            dropped: now.dropped,
            completers: now.completers,
            best,
        }
    }
}

/// Appends one line for a new best to the trace at `path`: {"seconds", "score"}.
fn append_trace(path: &Path, seconds: f64, score: usize) -> Result<(), String> {
    let line = serde_json::json!({ "seconds": (seconds * 1000.0).round() / 1000.0, "score": score });
    std::fs::OpenOptions::new()
        .append(true)
        .open(path)
        .and_then(|mut f| f.write_all(format!("{line}\n").as_bytes()))
        .map_err(|e| format!("{}: {e}", path.display()))
}
