//! `--watch`: the live page's routes over a real run, fifty clients following a
//! score run, the connection cap, the Host check, the flag's parse, the
//! port-in-use error, and the page staying up until Ctrl-C.
//! (The page itself, in a browser, is tested by `python/tests/test_watch.py`.)

mod common;

use std::io::{BufRead as _, BufReader, Read as _, Write as _};
use std::net::{TcpListener, TcpStream};
use std::process::{Child, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

use serde_json::Value;

use common::{bin, model, run, text};

/// `method path` on `address`: the status code and the body.
fn get(address: &str, method: &str, path: &str) -> (u16, String) {
    request(address, method, path, Some(address))
}

/// `method path` on `address` with this `Host` header (none when `None`): the status code and the body.
fn request(address: &str, method: &str, path: &str, host: Option<&str>) -> (u16, String) {
    let mut stream = TcpStream::connect(address).unwrap();
    let host = host.map_or(String::new(), |h| format!("Host: {h}\r\n"));
    write!(stream, "{method} {path} HTTP/1.1\r\n{host}Connection: close\r\nContent-Length: 0\r\n\r\n").unwrap();
    let mut response = String::new();
    let _ = stream.read_to_string(&mut response).unwrap();
    let code = response.split(' ').nth(1).and_then(|c| c.parse().ok()).unwrap_or(0);
    let body = response.split_once("\r\n\r\n").map_or("", |(_, b)| b).to_owned();
    (code, body)
}

/// Starts `args` and returns the child and the address its `watch:` line gives.
fn start(args: &[&str]) -> (Child, String) {
    let (child, address, _) = start_reading(args);
    (child, address)
}

/// Starts `args`: the child, the address its `watch:` line gives, and its standard output line by line.
fn start_reading(args: &[&str]) -> (Child, String, Receiver<String>) {
    let mut child = bin().args(args).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    let mut stderr = BufReader::new(child.stderr.take().unwrap());
    let mut line = String::new();
    while !line.starts_with("watch: http://") {
        line.clear();
        assert!(stderr.read_line(&mut line).unwrap() > 0, "no watch line");
    }
    let address = line.trim().trim_start_matches("watch: http://").trim_end_matches('/').to_owned();
    // Keep reading both pipes, so the child never blocks on a full one.
    let _ = std::thread::spawn(move || std::io::copy(&mut stderr, &mut std::io::sink()));
    let stdout = BufReader::new(child.stdout.take().unwrap());
    let (lines, received) = channel();
    let _ = std::thread::spawn(move || {
        for line in stdout.lines().map_while(Result::ok) {
            let _ = lines.send(line);
        }
    });
    (child, address, received)
}

/// Ctrl-C to `child`; it must end through the handler (an exit code, not a signal).
fn interrupt(mut child: Child) {
    // SAFETY: kill(2) on our own child's pid.
    assert_eq!(unsafe { libc::kill(child.id() as i32, libc::SIGINT) }, 0);
    let status = child.wait().unwrap();
    assert!(status.code().is_some(), "ended by Ctrl-C's handler, not killed: {status}");
}

/// One client of `/events` (HTTP/1.0, so the stream is not chunked): every
/// event it receives, `(name, data)`, up to the first state of an ended run.
fn follow(address: &str) -> Vec<(String, Value)> {
    let mut stream = TcpStream::connect(address).unwrap();
    write!(stream, "GET /events HTTP/1.0\r\nHost: {address}\r\n\r\n").unwrap();
    let mut reader = BufReader::new(stream);
    let mut events = Vec::new();
    let mut name = String::new();
    let mut line = String::new();
    while reader.read_line(&mut line).unwrap() > 0 {
        let text = std::mem::take(&mut line);
        if let Some(event) = text.strip_prefix("event: ") {
            name = event.trim().to_owned();
        } else if let Some(data) = text.strip_prefix("data: ") {
            let data: Value = serde_json::from_str(data.trim()).unwrap();
            let ended = name == "state" && data["status"] != "running" && data["status"] != "starting";
            events.push((std::mem::take(&mut name), data));
            if ended {
                break;
            }
        }
    }
    events
}

/// The scores of the `best: S/M after T s` lines a score run prints, up to its `status:` line.
fn printed_bests(lines: &Receiver<String>) -> Vec<u64> {
    let mut bests = Vec::new();
    for line in lines.iter() {
        if line.starts_with("status: ") {
            break;
        }
        if let Some(best) = line.strip_prefix("best: ") {
            bests.push(best.split('/').next().unwrap().parse().unwrap());
        }
    }
    bests
}

/// The new bests a client learnt, in order: each state event's history, merged.
fn bests_seen(events: &[(String, Value)]) -> Vec<u64> {
    let mut seen: Vec<u64> = Vec::new();
    for (_, state) in events.iter().filter(|(name, _)| name == "state") {
        let history: Vec<u64> = state["history"].as_array().unwrap().iter().map(|h| h[1].as_u64().unwrap()).collect();
        assert!(history.starts_with(&seen), "a later state dropped a best: {seen:?} then {history:?}");
        seen = history;
    }
    seen
}

#[test]
fn the_page_follows_a_score_run_and_stays_up_until_ctrl_c() {
    let instance = model("planted-10x10-f5i17-s1.json");
    let (mut child, address) =
        start(&["solve", &instance, "--objective", "score", "--time-limit", "2", "--seed", "3", "--watch"]);
    assert!(address.starts_with("127.0.0.1:"), "{address}");
    let (code, page) = get(&address, "GET", "/");
    assert_eq!(code, 200);
    assert!(page.contains("EventSource(\"/events\")"), "the page listens to the pushed events");
    // The run ends (2 s), the page stays, with the verified board's score.
    let deadline = Instant::now() + Duration::from_secs(60);
    let state = loop {
        let (code, body) = get(&address, "GET", "/state.json");
        assert_eq!(code, 200);
        let state: serde_json::Value = serde_json::from_str(&body).unwrap();
        if state["status"] != "running" && state["status"] != "starting" {
            break state;
        }
        assert!(Instant::now() < deadline, "the run never ended: {state}");
        std::thread::sleep(Duration::from_millis(200));
    };
    assert!(child.try_wait().unwrap().is_none(), "the process must stay up after the run");
    let score = state["score"].as_u64().expect("a verified board");
    assert_eq!(state["max_score"], 180);
    assert!(score <= 180 && state["board"]["width"] == 10, "{state}");
    assert_eq!(state["history"].as_array().unwrap().last().unwrap()[1], score);
    assert!(state["svg"].as_str().unwrap().contains(&format!("{score}/180")));
    // Read-only: no other method, no other path.
    assert_eq!(get(&address, "POST", "/state.json").0, 405);
    assert_eq!(get(&address, "GET", "/stop").0, 404);
    // SAFETY: kill(2) on our own child's pid.
    assert_eq!(unsafe { libc::kill(child.id() as i32, libc::SIGINT) }, 0);
    let status = child.wait().unwrap();
    assert!(status.code().is_some(), "ended by Ctrl-C's handler, not killed: {status}");
}

#[test]
fn a_bench_shows_each_job_on_the_page() {
    let dir = common::scratch("watch-bench");
    let runs = dir.join("runs.jsonl");
    let s = |p: &std::path::Path| p.to_str().unwrap().to_owned();
    let (mut child, address) = start(&[
        "bench",
        "cliff",
        "--sizes",
        "4",
        "--colours",
        "2+3",
        "--seeds",
        "2-3",
        "--arms",
        "search",
        "--models-dir",
        &s(&dir.join("none")),
        "--runs",
        &s(&runs),
        "--watch",
    ]);
    let deadline = Instant::now() + Duration::from_secs(60);
    let state = loop {
        let state: serde_json::Value = serde_json::from_str(&get(&address, "GET", "/state.json").1).unwrap();
        if state["jobs"] == 2 && state["status"] == "solved" {
            break state;
        }
        assert!(Instant::now() < deadline, "the bench's second job never showed: {state}");
        std::thread::sleep(Duration::from_millis(100));
    };
    assert_eq!(state["title"], "edgematch bench cliff");
    assert_eq!(state["score"], state["max_score"], "{state}");
    assert!(child.try_wait().unwrap().is_none(), "the page stays after the bench");
    // SAFETY: kill(2) on our own child's pid.
    assert_eq!(unsafe { libc::kill(child.id() as i32, libc::SIGINT) }, 0);
    assert!(child.wait().unwrap().code().is_some());
    assert_eq!(std::fs::read_to_string(&runs).unwrap().lines().count(), 2, "both jobs recorded");
}

#[test]
fn a_port_in_use_exits_2_naming_it() {
    let taken = TcpListener::bind("127.0.0.1:0").unwrap();
    let address = taken.local_addr().unwrap().to_string();
    let output = run(&["solve", &model("planted-10x10-f5i17-s1.json"), &format!("--watch={address}")]);
    assert_eq!(output.status.code(), Some(2), "{}", text(&output));
    assert!(text(&output).contains(&format!("--watch={address}")), "{}", text(&output));
    let output = run(&["solve", &model("planted-10x10-f5i17-s1.json"), "--watch=not-an-address"]);
    assert_eq!(output.status.code(), Some(2), "{}", text(&output));
}

#[test]
fn watch_takes_a_value_only_after_an_equals_sign() {
    // `--watch x.json`: the default address, and x.json is the board.
    let (child, address) = start(&["solve", "--watch", &model("planted-10x10-f5i17-s1.json"), "--time-limit", "1"]);
    assert!(address.starts_with("127.0.0.1:"), "{address}");
    let state = ended_state(&address);
    assert!(state["label"].as_str().unwrap().ends_with("planted-10x10-f5i17-s1"), "{state}");
    interrupt(child);
    // `--watch ADDR` no longer reads ADDR: it is a second board, which solve refuses.
    let output = run(&["solve", &model("planted-10x10-f5i17-s1.json"), "--watch", "127.0.0.1:0"]);
    assert_eq!(output.status.code(), Some(2), "{}", text(&output));
}

/// Polls `/state.json` until the run has ended; returns its state.
fn ended_state(address: &str) -> Value {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let (code, body) = get(address, "GET", "/state.json");
        assert_eq!(code, 200, "{body}");
        let state: Value = serde_json::from_str(&body).unwrap();
        if state["status"] != "running" && state["status"] != "starting" {
            return state;
        }
        assert!(Instant::now() < deadline, "the run never ended: {state}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
fn fifty_clients_each_see_every_new_best_the_run_prints() {
    // A walk with a loose break budget: several new bests within a second, some a few ms
    // apart; the run ends at the target (a time limit would end a run slowed by a loaded
    // machine before its first best).
    let board = model("planted-12x12-f5i17-s1.json");
    let args = ["solve", &board, "--objective", "score", "--solver", "search", "--breaks", "ramp:0.2:200"];
    let args = [&args[..], &["--target", "203", "--time-limit", "120", "--seed", "3"]].concat();
    let (child, address, stdout) = start_reading(&[&args[..], &["--watch"]].concat());
    let clients: Vec<_> = (0..50)
        .map(|_| {
            let address = address.clone();
            std::thread::spawn(move || follow(&address))
        })
        .collect();
    let printed = printed_bests(&stdout);
    assert!(!printed.is_empty(), "the run printed no best");
    for (index, client) in clients.into_iter().enumerate() {
        let events = client.join().unwrap();
        assert_eq!(bests_seen(&events), printed, "client {index}");
        let states = events.iter().filter(|(name, _)| name == "state");
        let scores: Vec<u64> = states.filter_map(|(_, state)| state["score"].as_u64()).collect();
        assert!(scores.is_sorted(), "client {index}: the score shown went down: {scores:?}");
        assert_eq!(scores.last(), printed.last(), "client {index}: the last state shows the best");
        for (_, tick) in events.iter().filter(|(name, _)| name == "tick") {
            let keys: Vec<&String> = tick.as_object().unwrap().keys().collect();
            assert_eq!(keys, ["nodes", "nodes_per_second", "seconds"], "client {index}: a tick is the clock alone");
        }
    }
    interrupt(child);
}

#[test]
fn connections_over_the_cap_get_503_and_other_hosts_get_403() {
    let (child, address) = start(&["solve", &model("planted-10x10-f5i17-s1.json"), "--time-limit", "1", "--watch"]);
    let port = address.rsplit(':').next().unwrap();
    // The Host check: the bound address and localhost with the port pass; other names, other ports and no Host do not.
    for host in [address.clone(), format!("localhost:{port}"), format!("[::1]:{port}")] {
        assert_eq!(request(&address, "GET", "/state.json", Some(&host)).0, 200, "{host}");
    }
    for host in [Some(format!("rebound.example:{port}")), Some("localhost:1".to_owned()), None] {
        let (code, body) = request(&address, "GET", "/", host.as_deref());
        assert_eq!(code, 403, "{host:?}: {body}");
        assert!(body.contains("Host"), "{body}");
    }
    // The cap: with 64 connections open, the next is answered 503 with a short body.
    let held: Vec<TcpStream> = (0..64).map(|_| TcpStream::connect(&address).unwrap()).collect();
    let (code, body) = get(&address, "GET", "/state.json");
    assert_eq!(code, 503, "{body}");
    assert!(body.contains("too many connections"), "{body}");
    // Once they close, the page answers again.
    drop(held);
    let deadline = Instant::now() + Duration::from_secs(30);
    while get(&address, "GET", "/state.json").0 != 200 {
        assert!(Instant::now() < deadline, "the page never answered again after the connections closed");
        std::thread::sleep(Duration::from_millis(50));
    }
    interrupt(child);
}
