//! What a running solve shows as it goes: the live feed that `--watch`'s page reads.
//!
//! A process-wide feed, off until [`enable`] turns it on (the command line
//! does, for `--watch`); every hook below is then a lock or an atomic add, and
//! one atomic load that finds no feed while it is off. Who calls what:
//! - a run or a bench job says it [`begin`]s, with a label and its instance;
//! - the layer that runs the checker reports each board it accepted
//!   ([`verified`]): only verified boards reach the page, as in the CLI;
//! - the native searches add their placements as they poll ([`nodes`]);
//! - the portfolio names its arms ([`arms`]) and says how each ended ([`arm_done`]);
//! - the run says how it ended ([`end`]).
//!
//! [`Feed::snapshot`] turns the state into the JSON object of `GET /state.json`.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard, OnceLock};
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use serde_json::{Value, json};

use crate::formats::{board_json, bucas};
use crate::puzzle::{Board, Instance};
use crate::render;

static FEED: OnceLock<Feed> = OnceLock::new();

/// Turns the feed on (once per process) and returns it.
pub fn enable() -> &'static Feed {
    FEED.get_or_init(Feed::new)
}

/// The feed, when it is on.
pub fn feed() -> Option<&'static Feed> {
    FEED.get()
}

/// A run or a bench job starts: `label` says what runs (e.g. `cpsat on planted-12x12-f5i17-s1`).
pub fn begin(label: &str, instance: &Instance) {
    if let Some(feed) = feed() {
        feed.begin(label, instance);
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

/// The run (or job) ended with `status`.
pub fn end(status: &str) {
    if let Some(feed) = feed() {
        let mut state = feed.lock();
        state.status = status.to_owned();
        state.ended = Some(state.started.elapsed().as_secs_f64());
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
    /// Bumped at every change, so a server can tell whether to push.
    version: AtomicU64,
    /// Placements since the current job began.
    nodes: AtomicU64,
}

/// An arm of a portfolio, as the page shows it.
#[derive(Clone, Debug)]
struct Arm {
    solver: String,
    threads: u32,
    state: String,
    seconds: Option<f64>,
}

impl Arm {
    fn running(solver: &str, threads: u32) -> Arm {
        Arm { solver: solver.to_owned(), threads, state: "running".to_owned(), seconds: None }
    }
}

struct State {
    title: String,
    label: String,
    jobs: u64,
    instance: Option<Instance>,
    started: Instant,
    started_unix: f64,
    ended: Option<f64>,
    status: String,
    best: Option<(Board, usize, f64)>,
    history: Vec<(f64, usize)>,
    arms: Vec<Arm>,
    /// The last (seconds, nodes) sample and the rate measured up to it.
    sample: (f64, u64),
    rate: f64,
}

fn unix_now() -> f64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0.0, |d| d.as_secs_f64())
}

impl Feed {
    fn new() -> Feed {
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
            history: Vec::new(),
            arms: Vec::new(),
            sample: (0.0, 0),
            rate: 0.0,
        };
        Feed { state: Mutex::new(state), version: AtomicU64::new(0), nodes: AtomicU64::new(0) }
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn touch(&self) {
        let _ = self.version.fetch_add(1, Ordering::Release);
    }

    /// Changes so far: a server pushes a snapshot when this moves.
    pub fn version(&self) -> u64 {
        self.version.load(Ordering::Acquire)
    }

    fn begin(&self, label: &str, instance: &Instance) {
        let mut state = self.lock();
        state.label = label.to_owned();
        state.jobs += 1;
        state.instance = Some(instance.clone());
        state.started = Instant::now();
        state.started_unix = unix_now();
        state.ended = None;
        state.status = "running".to_owned();
        state.best = None;
        state.history.clear();
        state.arms.clear();
        state.sample = (0.0, 0);
        state.rate = 0.0;
        self.nodes.store(0, Ordering::Relaxed);
        self.touch();
    }

    fn verified(&self, board: &Board, score: usize) {
        let mut state = self.lock();
        let better = match &state.best {
            None => true,
            Some((best, best_score, _)) => {
                score > *best_score || (score == *best_score && board.placed() > best.placed())
            }
        };
        if better {
            let seconds = state.started.elapsed().as_secs_f64();
            state.best = Some((board.clone(), score, seconds));
            state.history.push((seconds, score));
            self.touch();
        }
    }

    /// The state as the JSON object of `GET /state.json`: `title`, `label`,
    /// `status`, `seconds` (since the job began; frozen at its end),
    /// `started_unix` (the job's start, Unix seconds), `score`, `max_score`,
    /// `best_seconds`, `board` (board JSON, or null), `svg` (the board as
    /// `render` draws it, mismatched joins in red), `bucas` (the board as an
    /// e2.bucas.name link, when its colours fit), `history` ([seconds, score]
    /// per new best), `nodes`, `nodes_per_second`, `arms` and `jobs`.
    pub fn snapshot(&self) -> Value {
        let nodes = self.nodes.load(Ordering::Relaxed);
        let mut state = self.lock();
        let seconds = state.ended.unwrap_or_else(|| state.started.elapsed().as_secs_f64());
        // Nodes per second: over the last second or more while the job runs, over the whole job once it ended.
        let (t0, n0) = state.sample;
        if state.ended.is_some() {
            state.rate = nodes as f64 / seconds.max(1e-9);
        } else if seconds - t0 >= 1.0 {
            state.rate = nodes.saturating_sub(n0) as f64 / (seconds - t0);
            state.sample = (seconds, nodes);
        }
        let best = state.best.as_ref();
        let (board, svg, link) = match (best, &state.instance) {
            (Some((board, _, _)), Some(instance)) => (
                serde_json::from_str::<Value>(&board_json::to_string(board)).unwrap_or(Value::Null),
                Value::from(render::svg(instance, board, &state.label, render::Style::default())),
                if board.placed() == board.cells.len() && bucas::can_write(instance) {
                    Value::from(bucas::to_link(board, instance, "edgematch"))
                } else {
                    Value::Null
                },
            ),
            _ => (Value::Null, Value::Null, Value::Null),
        };
        let arms: Vec<Value> = state
            .arms
            .iter()
            .map(|a| json!({ "solver": a.solver, "threads": a.threads, "state": a.state, "seconds": a.seconds }))
            .collect();
        json!({
            "title": state.title,
            "label": state.label,
            "jobs": state.jobs,
            "status": state.status,
            "seconds": seconds,
            "started_unix": state.started_unix,
            "score": best.map(|b| b.1),
            "max_score": state.instance.as_ref().map(|i| i.grid.max_score()),
            "best_seconds": best.map(|b| b.2),
            "board": board,
            "svg": svg,
            "bucas": link,
            "history": state.history,
            "nodes": nodes,
            "nodes_per_second": state.rate,
            "arms": arms,
        })
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
        let before = feed.version();
        feed.verified(&p.solution, max - 2);
        feed.verified(&p.solution, max - 3);
        feed.verified(&p.solution, max);
        let _ = feed.nodes.fetch_add(1000, Ordering::Relaxed);
        let snap = feed.snapshot();
        assert!(feed.version() > before);
        assert_eq!(snap["score"], max);
        assert_eq!(snap["max_score"], max);
        assert_eq!(snap["history"].as_array().unwrap().len(), 2, "{snap}");
        assert_eq!(snap["nodes"], 1000);
        assert!(snap["svg"].as_str().unwrap().starts_with("<svg"));
        assert_eq!(snap["board"]["width"], 4);
        feed.begin("again", &p.instance);
        let snap = feed.snapshot();
        assert!(snap["score"].is_null() && snap["history"].as_array().unwrap().is_empty());
        assert_eq!(snap["jobs"], 2);
    }
}
