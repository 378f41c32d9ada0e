//! What a running solve shows as it goes: the live feed that `--watch`'s page reads.
//!
//! A process-wide feed, off until [`enable`] turns it on (the command line
//! does, for `--watch`); every hook below is then a short lock or an atomic
//! add, and one atomic load that finds no feed while it is off. A hook only
//! stores what it is given and returns: nothing is rendered or written under
//! the lock, so a solver thread reporting a new best never waits for the page.
//! Who calls what:
//! - a run or a bench job says it [`begin`]s, with a label and its instance;
//! - the checker's gate ([`crate::outcome::accept`]) reports each board it
//!   accepted ([`verified`]): only verified boards reach the page;
//! - the native searches add their placements as they poll ([`nodes`]);
//! - the portfolio names its arms ([`arms`]) and says how each ended ([`arm_done`]);
//! - the run says how it ended ([`Running::end`]), or ends as failed when
//!   its [`Running`] is dropped first.
//!
//! The page's server reads the feed with [`Feed::view`] when [`Feed::version`]
//! moves, and renders the view on its own thread (`watch.rs`).

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use crate::puzzle::{Board, Instance};

static FEED: OnceLock<Feed> = OnceLock::new();

/// Turns the feed on (once per process) and returns it.
pub fn enable() -> &'static Feed {
    FEED.get_or_init(Feed::new)
}

/// The feed, when it is on.
pub fn feed() -> Option<&'static Feed> {
    FEED.get()
}

/// A run or a bench job starts: `label` says what runs (e.g. `cpsat on
/// planted-12x12-f5i17-s1`). The run is over when the returned [`Running`]
/// is ended or dropped.
pub fn begin(label: &str, instance: &Instance) -> Running<'static> {
    Running::on(feed(), label, instance)
}

/// The page's current run, from [`begin`] until [`Running::end`]; one
/// dropped before it ends (an error or a panic on the way) ends as `failed`,
/// so the page never shows a run that is over as running.
#[must_use = "the run ends on the page when this is dropped"]
pub struct Running<'a> {
    feed: Option<&'a Feed>,
    ended: bool,
}

impl<'a> Running<'a> {
    /// A run begun on `feed` (none: the feed is off).
    fn on(feed: Option<&'a Feed>, label: &str, instance: &Instance) -> Running<'a> {
        if let Some(feed) = feed {
            feed.begin(label, instance);
        }
        Running { feed, ended: false }
    }

    /// The run ended with `status`.
    pub fn end(mut self, status: &str) {
        self.ended = true;
        if let Some(feed) = self.feed {
            feed.end(status);
        }
    }
}

impl Drop for Running<'_> {
    fn drop(&mut self) {
        if let Some(feed) = self.feed.filter(|_| !self.ended) {
            feed.end("failed");
        }
    }
}

/// The checker accepted `board` (with `score` matched joins): shown if it beats the best so far.
pub fn verified(board: &Board, score: usize) {
    if let Some(feed) = feed() {
        feed.verified(board, score);
    }
}

/// A search made `count` more placements.
#[inline]
pub fn nodes(count: u64) {
    if let Some(feed) = feed() {
        let _ = feed.nodes.fetch_add(count, Ordering::Relaxed);
    }
}

/// A portfolio starts racing these arms (solver name, threads).
pub fn arms(arms: &[(String, u32)]) {
    if let Some(feed) = feed() {
        let mut state = feed.lock();
        state.arms = arms.iter().map(|(name, threads)| Arm::running(name, *threads)).collect();
        feed.touch();
    }
}

/// Arm `index` of the race returned `status` after `seconds`.
pub fn arm_done(index: usize, status: &str, seconds: f64) {
    if let Some(feed) = feed() {
        let mut state = feed.lock();
        if let Some(arm) = state.arms.get_mut(index) {
            arm.state = status.to_owned();
            arm.seconds = Some(seconds);
        }
        feed.touch();
    }
}

/// A score run's heartbeat: one line of its counters, shown until the next.
pub fn heartbeat(line: &str) {
    if let Some(feed) = feed() {
        line.clone_into(&mut feed.lock().heartbeat);
        feed.touch();
    }
}

/// Sets what the whole run is (`solve`, `bench cliff`, ...), shown as the page's title.
pub fn title(text: &str) {
    if let Some(feed) = feed() {
        feed.lock().title = text.to_owned();
        feed.touch();
    }
}

/// The live state of one run.
pub struct Feed {
    state: Mutex<State>,
    /// Bumped at every change, so a server can tell whether to look again.
    version: AtomicU64,
    /// Placements since the current job began.
    nodes: AtomicU64,
}

/// An arm of a portfolio, as the page shows it.
#[derive(Clone, Debug)]
pub struct Arm {
    /// The solver's name.
    pub solver: String,
    /// Its threads.
    pub threads: u32,
    /// `running`, or how it ended.
    pub state: String,
    /// When it ended (seconds since the job began).
    pub seconds: Option<f64>,
}

impl Arm {
    fn running(solver: &str, threads: u32) -> Arm {
        Arm { solver: solver.to_owned(), threads, state: "running".to_owned(), seconds: None }
    }
}

/// The best verified board of the job so far.
#[derive(Clone, Debug)]
pub struct Best {
    /// The board, shared: the feed stores it once and views only count a reference.
    pub board: Arc<Board>,
    /// Its matched joins.
    pub score: usize,
    /// When it was reported, in seconds since the job began.
    pub seconds: f64,
}

/// A copy of the feed's state at one moment, its instance and best board shared with the feed.
#[derive(Clone, Debug)]
pub struct View {
    /// What the whole run is (`edgematch solve`, ...).
    pub title: String,
    /// What the current job runs.
    pub label: String,
    /// Jobs begun so far.
    pub jobs: u64,
    /// The job's instance.
    pub instance: Option<Arc<Instance>>,
    /// Seconds since the job began, frozen at its end.
    pub seconds: f64,
    /// When the job began, in Unix seconds.
    pub started_unix: f64,
    /// Whether the job has ended.
    pub ended: bool,
    /// `starting`, `running`, or how the job ended.
    pub status: String,
    /// The best verified board so far.
    pub best: Option<Best>,
    /// Bumped at each new best and each new job: whoever draws the best board
    /// draws it again only when this moves.
    pub best_version: u64,
    /// `(seconds, score)` per new best of the job.
    pub history: Vec<(f64, usize)>,
    /// The portfolio's arms.
    pub arms: Vec<Arm>,
    /// A score run's last heartbeat line (empty: none yet).
    pub heartbeat: String,
}

struct State {
    title: String,
    label: String,
    jobs: u64,
    instance: Option<Arc<Instance>>,
    started: Instant,
    started_unix: f64,
    ended: Option<f64>,
    status: String,
    best: Option<Best>,
    best_version: u64,
    history: Vec<(f64, usize)>,
    arms: Vec<Arm>,
    heartbeat: String,
}

fn unix_now() -> f64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0.0, |d| d.as_secs_f64())
}

impl State {
    /// Whether `board` with `score` beats the best so far (a higher score, or as high with more pieces placed).
    fn beaten_by(&self, board: &Board, score: usize) -> bool {
        match &self.best {
            None => true,
            Some(best) => score > best.score || (score == best.score && board.placed() > best.board.placed()),
        }
    }
}

impl Feed {
    /// A feed of its own, not the process's (for tests; [`enable`] makes the process's).
    pub(crate) fn new() -> Feed {
        let state = State {
            title: "edgematch".to_owned(),
            label: String::new(),
            jobs: 0,
            instance: None,
            started: Instant::now(),
            started_unix: unix_now(),
            ended: None,
            status: "starting".to_owned(),
            best: None,
            best_version: 0,
            history: Vec::new(),
            arms: Vec::new(),
            heartbeat: String::new(),
        };
        Feed { state: Mutex::new(state), version: AtomicU64::new(0), nodes: AtomicU64::new(0) }
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn touch(&self) {
        let _ = self.version.fetch_add(1, Ordering::Release);
    }

    /// Changes so far: a server looks at the feed again when this moves.
    pub fn version(&self) -> u64 {
        self.version.load(Ordering::Acquire)
    }

    /// Placements since the current job began.
    pub fn nodes(&self) -> u64 {
        self.nodes.load(Ordering::Relaxed)
    }

    /// See [`begin`].
    pub(crate) fn begin(&self, label: &str, instance: &Instance) {
        let instance = Arc::new(instance.clone());
        let mut state = self.lock();
        state.label = label.to_owned();
        state.jobs += 1;
        state.instance = Some(instance);
        state.started = Instant::now();
        state.started_unix = unix_now();
        state.ended = None;
        state.status = "running".to_owned();
        state.best = None;
        state.best_version += 1;
        state.history.clear();
        state.arms.clear();
        state.heartbeat.clear();
        self.nodes.store(0, Ordering::Relaxed);
        drop(state);
        self.touch();
    }

    /// Keeps `board` if it beats the best (see [`verified`]): the copy is made
    /// before the lock, and under it only a comparison and two stores.
    pub(crate) fn verified(&self, board: &Board, score: usize) {
        let board = Arc::new(board.clone());
        let mut state = self.lock();
        if !state.beaten_by(&board, score) {
            return;
        }
        let seconds = state.started.elapsed().as_secs_f64();
        let previous = state.best.replace(Best { board, score, seconds });
        state.history.push((seconds, score));
        state.best_version += 1;
        drop(state);
        drop(previous);
        self.touch();
    }

    /// See [`end`].
    pub(crate) fn end(&self, status: &str) {
        let mut state = self.lock();
        state.status = status.to_owned();
        state.ended = Some(state.started.elapsed().as_secs_f64());
        drop(state);
        self.touch();
    }

    /// The state now, for the page's server to render.
    pub fn view(&self) -> View {
        let state = self.lock();
        View {
            title: state.title.clone(),
            label: state.label.clone(),
            jobs: state.jobs,
            instance: state.instance.clone(),
            seconds: state.ended.unwrap_or_else(|| state.started.elapsed().as_secs_f64()),
            started_unix: state.started_unix,
            ended: state.ended.is_some(),
            status: state.status.clone(),
            best: state.best.clone(),
            best_version: state.best_version,
            history: state.history.clone(),
            arms: state.arms.clone(),
            heartbeat: state.heartbeat.clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::{PlantedSpec, planted};

    #[test]
    fn the_feed_keeps_only_better_boards_and_restarts_with_each_job() {
        let feed = Feed::new();
        let p = planted(&PlantedSpec::square(4, 2, 3, 1)).unwrap();
        let max = p.instance.grid.max_score();
        feed.begin("test", &p.instance);
        let before = (feed.version(), feed.view().best_version);
        feed.verified(&p.solution, max - 2);
        feed.verified(&p.solution, max - 3);
        feed.verified(&p.solution, max);
        let _ = feed.nodes.fetch_add(1000, Ordering::Relaxed);
        let view = feed.view();
        assert!(feed.version() > before.0);
        assert_eq!(view.best_version, before.1 + 2, "two new bests");
        assert_eq!(view.best.as_ref().map(|b| b.score), Some(max));
        assert_eq!(view.history.iter().map(|h| h.1).collect::<Vec<_>>(), [max - 2, max]);
        assert_eq!(feed.nodes(), 1000);
        assert_eq!(view.best.unwrap().board.grid.width, 4);
        feed.begin("again", &p.instance);
        let view = feed.view();
        assert!(view.best.is_none() && view.history.is_empty() && feed.nodes() == 0);
        assert_eq!((view.jobs, view.label.as_str(), view.status.as_str()), (2, "again", "running"));
    }

    /// A run ended says how; a run dropped before it ends (an error returned
    /// on the way) ends as failed. Catches a page left showing "running" for
    /// a run that is over, as every caller's early return once left it.
    #[test]
    fn a_run_dropped_before_it_ends_ends_as_failed() {
        let feed = Feed::new();
        let p = planted(&PlantedSpec::square(4, 2, 3, 1)).unwrap();
        Running::on(Some(&feed), "ends", &p.instance).end("solved");
        assert_eq!((feed.view().ended, feed.view().status.as_str()), (true, "solved"));
        let running = Running::on(Some(&feed), "errs", &p.instance);
        assert_eq!((feed.view().ended, feed.view().status.as_str()), (false, "running"));
        drop(running);
        assert_eq!((feed.view().ended, feed.view().status.as_str()), (true, "failed"));
    }
}
