//! The page's shared snapshot: the feed rendered once per change, off the solvers' threads, handed to every client.
//!
//! One task of the server looks at the feed every [`POLL`]. When its
//! version moved it takes a [`View`](live::View) (a short lock), draws the
//! best board again only if a new best came (SVG, board JSON, bucas link),
//! and publishes the state's JSON; every [`HEARTBEAT`] it publishes the clock
//! alone. Clients read what was published: nothing is rendered per client.

use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::{Map, Value, json};
use tokio::sync::watch;

use crate::formats::{board_json, bucas};
use crate::live::{self, Feed};
use crate::render;

/// How often the publisher looks for a change of the feed.
pub const POLL: Duration = Duration::from_millis(50);

/// The longest gap between two publications (the page's clock and nodes per second move with them).
pub const HEARTBEAT: Duration = Duration::from_secs(1);

/// What the server hands to every client: shared, never copied per client but into its socket.
pub(crate) struct Published {
    /// Bumped with each new state (not at a heartbeat): a client sends `state` when it moved.
    pub(crate) serial: u64,
    /// The whole state as JSON, with the clock as of its change (the `state` event).
    pub(crate) state: Arc<str>,
    /// The clock alone as JSON: `seconds`, `nodes`, `nodes_per_second` (the `tick` event).
    pub(crate) tick: Arc<str>,
    /// The whole state with the latest clock (`GET /state.json`).
    pub(crate) whole: Arc<str>,
}

/// The publisher's memory between two publications.
pub(crate) struct Publisher {
    feed: &'static Feed,
    /// The feed's version last published.
    version: u64,
    /// The best board's version last drawn, and its drawing (`board`, `svg`, `bucas`).
    drawn: Option<u64>,
    drawing: [Value; 3],
    serial: u64,
    /// The state object last built (its clock fields overwritten at each heartbeat).
    state: Map<String, Value>,
    state_json: Arc<str>,
    rate: Rate,
}

/// Nodes per second, measured between two samples at least a second apart.
#[derive(Default)]
struct Rate {
    jobs: u64,
    sample: (f64, u64),
    value: f64,
}

impl Rate {
    /// The rate at `seconds` with `nodes` placed: over the last second or more
    /// while the job runs, over the whole job once it ended.
    fn at(&mut self, view: &live::View, nodes: u64) -> f64 {
        if view.jobs != self.jobs || nodes < self.sample.1 {
            *self = Rate { jobs: view.jobs, ..Rate::default() };
        }
        let (t0, n0) = self.sample;
        if view.ended {
            self.value = nodes as f64 / view.seconds.max(1e-9);
        } else if view.seconds - t0 >= 1.0 {
            self.value = (nodes - n0) as f64 / (view.seconds - t0);
            self.sample = (view.seconds, nodes);
        }
        self.value
    }
}

impl Publisher {
    /// A publisher over `feed`, and the channel's first value (the state now).
    pub(crate) fn start(feed: &'static Feed) -> (Publisher, Published) {
        let mut publisher = Publisher {
            feed,
            version: feed.version(),
            drawn: None,
            drawing: [Value::Null, Value::Null, Value::Null],
            serial: 0,
            state: Map::new(),
            state_json: Arc::from("{}"),
            rate: Rate::default(),
        };
        let first = publisher.publish(true);
        (publisher, first)
    }

    /// Runs for ever: publishes a new state within [`POLL`] of each change of
    /// the feed, and the clock at least every [`HEARTBEAT`].
    pub(crate) async fn run(mut self, sender: watch::Sender<Arc<Published>>) {
        let mut last = Instant::now();
        loop {
            tokio::time::sleep(POLL).await;
            let changed = self.feed.version() != self.version;
            if changed || last.elapsed() >= HEARTBEAT {
                let _ = sender.send_replace(Arc::new(self.publish(changed)));
                last = Instant::now();
            }
        }
    }

    /// The state now: rebuilt (and the board drawn again after a new best) when `changed`, else only its clock.
    fn publish(&mut self, changed: bool) -> Published {
        let version = self.feed.version();
        let view = self.feed.view();
        let nodes = self.feed.nodes();
        let clock = fields(json!({
            "seconds": view.seconds,
            "nodes": nodes,
            "nodes_per_second": self.rate.at(&view, nodes),
        }));
        if changed {
            self.version = version;
            self.serial += 1;
            self.redraw(&view);
            self.state = state(&view, &self.drawing);
        }
        self.state.extend(clock.clone());
        let whole: Arc<str> = Arc::from(Value::Object(self.state.clone()).to_string());
        if changed {
            self.state_json = Arc::clone(&whole);
        }
        Published {
            serial: self.serial,
            state: Arc::clone(&self.state_json),
            tick: Arc::from(Value::Object(clock).to_string()),
            whole,
        }
    }

    /// Draws the best board again if it changed since the last drawing.
    fn redraw(&mut self, view: &live::View) {
        if self.drawn != Some(view.best_version) {
            self.drawing = draw(view);
            self.drawn = Some(view.best_version);
        }
    }
}

/// The best board as `board` (board JSON), `svg` (as `render` draws it,
/// mismatched joins in red) and `bucas` (an e2.bucas.name link, when the board
/// is full and its colours fit); nulls without a board.
fn draw(view: &live::View) -> [Value; 3] {
    let (Some(best), Some(instance)) = (&view.best, &view.instance) else {
        return [Value::Null, Value::Null, Value::Null];
    };
    let board = &best.board;
    let full = board.placed() == board.cells.len();
    [
        serde_json::from_str::<Value>(&board_json::to_string(board)).unwrap_or(Value::Null),
        Value::from(render::svg(instance, board, &view.label, render::Style::default())),
        if full && bucas::can_write(instance) {
            Value::from(bucas::to_link(board, instance, "edgematch"))
        } else {
            Value::Null
        },
    ]
}

/// The state object of `GET /state.json` without its clock: `title`,
/// `label`, `jobs`, `status`, `started_unix`, `score`, `max_score`,
/// `best_seconds`, `board`, `svg`, `bucas`, `history` ([seconds, score] per
/// new best), `arms` and `heartbeat` (a score run's last heartbeat line).
fn state(view: &live::View, drawing: &[Value; 3]) -> Map<String, Value> {
    let arms: Vec<Value> = view
        .arms
        .iter()
        .map(|a| json!({ "solver": a.solver, "threads": a.threads, "state": a.state, "seconds": a.seconds }))
        .collect();
    let best = view.best.as_ref();
    fields(json!({
        "title": view.title,
        "label": view.label,
        "jobs": view.jobs,
        "status": view.status,
        "started_unix": view.started_unix,
        "score": best.map(|b| b.score),
        "max_score": view.instance.as_ref().map(|i| i.grid.max_score()),
        "best_seconds": best.map(|b| b.seconds),
        "board": drawing[0],
        "svg": drawing[1],
        "bucas": drawing[2],
        "history": view.history,
        "arms": arms,
        "heartbeat": view.heartbeat,
    }))
}

/// The fields of a JSON object (`json!` of an object literal always makes one).
fn fields(object: Value) -> Map<String, Value> {
    match object {
        Value::Object(map) => map,
        _ => Map::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::{PlantedSpec, planted};

    fn field(json: &str) -> Value {
        serde_json::from_str(json).unwrap()
    }

    #[test]
    fn a_new_best_is_drawn_once_and_a_heartbeat_carries_only_the_clock() {
        // A feed of the test's own: other tests of this process report into the process's.
        let feed: &'static Feed = Box::leak(Box::new(Feed::new()));
        let p = planted(&PlantedSpec::square(4, 2, 3, 1)).unwrap();
        let max = p.instance.grid.max_score();
        feed.begin("test", &p.instance);
        let (mut publisher, first) = Publisher::start(feed);
        assert!(field(&first.state)["svg"].is_null());
        feed.verified(&p.solution, max - 2);
        feed.verified(&p.solution, max);
        let after = publisher.publish(true);
        let state = field(&after.state);
        assert_eq!(after.serial, first.serial + 1);
        assert_eq!(state["score"], max);
        assert_eq!(state["history"].as_array().unwrap().len(), 2, "both bests in the history: {state}");
        assert!(state["svg"].as_str().unwrap().starts_with("<svg"));
        assert_eq!(state["board"]["width"], 4);
        let drawn = publisher.drawn;
        let tick = publisher.publish(false);
        assert_eq!(tick.serial, after.serial, "a heartbeat is no new state");
        assert!(Arc::ptr_eq(&tick.state, &after.state), "the same state, shared");
        let clock = field(&tick.tick);
        let keys: Vec<&String> = clock.as_object().unwrap().keys().collect();
        assert_eq!(keys, ["nodes", "nodes_per_second", "seconds"]);
        assert_eq!(field(&tick.whole)["score"], max);
        feed.end("solved");
        let _ = publisher.publish(true);
        assert_eq!(publisher.drawn, drawn, "no new best, no new drawing");
    }
}
