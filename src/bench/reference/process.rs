//! Running a reference tool as a child process: a scratch folder, its output captured, killed on stop or timeout.

use std::io::Read;
use std::os::unix::process::CommandExt as _;
use std::path::PathBuf;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crate::error::Error;
use crate::stop::Stop;

/// A scratch directory removed when dropped.
pub(super) struct Scratch(pub(super) PathBuf);

impl Scratch {
    pub(super) fn new() -> Result<Scratch, Error> {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!("edgematch-reference-{}-{n}", std::process::id()));
        std::fs::create_dir_all(&dir).map_err(|source| Error::Io { path: dir.clone(), source })?;
        Ok(Scratch(dir))
    }

    /// Writes a file in the directory and returns its path.
    pub(super) fn write(&self, name: &str, text: &str) -> Result<PathBuf, Error> {
        let path = self.0.join(name);
        std::fs::write(&path, text).map_err(|source| Error::Io { path: path.clone(), source })?;
        Ok(path)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// How a child process ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Ended {
    /// On its own.
    Exited(ExitStatus),
    /// Killed because the stop handle was raised.
    Stopped,
    /// Killed because it ran past its limit and the grace.
    TimedOut,
}

/// A finished child process.
#[derive(Debug)]
pub(super) struct Run {
    pub(super) ended: Ended,
    pub(super) stdout: String,
    pub(super) stderr: String,
    pub(super) seconds: f64,
}

/// Reads a pipe to its end on a thread of its own.
fn drain(pipe: Option<impl Read + Send + 'static>) -> JoinHandle<String> {
    std::thread::spawn(move || {
        let mut bytes = Vec::new();
        if let Some(mut pipe) = pipe {
            let _ = pipe.read_to_end(&mut bytes);
        }
        String::from_utf8_lossy(&bytes).into_owned()
    })
}

/// How long a terminated child may take to exit before it is killed.
const TERM_WAIT: Duration = Duration::from_secs(2);

/// A process's parent and start time (clock ticks since boot), from `/proc/<pid>/stat`.
pub(super) fn proc_stat(pid: i32) -> Option<(i32, u64)> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // Fields after the command name (which may hold spaces): state, ppid, …, starttime (the 20th).
    let fields: Vec<&str> = text.get(text.rfind(')')? + 1..)?.split_whitespace().collect();
    Some((fields.get(1)?.parse().ok()?, fields.get(19)?.parse().ok()?))
}

/// Every live descendant of `root`, with its start time (empty where there is no `/proc`).
fn descendants(root: i32) -> Vec<(i32, u64)> {
    let Ok(entries) = std::fs::read_dir("/proc") else { return Vec::new() };
    let procs: Vec<(i32, i32, u64)> = entries
        .filter_map(Result::ok)
        .filter_map(|e| e.file_name().to_str()?.parse::<i32>().ok())
        .filter_map(|pid| proc_stat(pid).map(|(ppid, start)| (pid, ppid, start)))
        .collect();
    let mut found: Vec<(i32, u64)> = Vec::new();
    let mut frontier = vec![root];
    while let Some(parent) = frontier.pop() {
        for &(pid, ppid, start) in &procs {
            if ppid == parent && !found.iter().any(|&(p, _)| p == pid) {
                found.push((pid, start));
                frontier.push(pid);
            }
        }
    }
    found
}

/// Ends the child and everything it started: SIGTERM to its process group
/// (MiniZinc then stops its solver and removes its files), SIGKILL after
/// [`TERM_WAIT`] to the group and to every descendant seen before (MiniZinc
/// runs its solver in a process group of its own), then reaps the child.
fn terminate(child: &mut Child) {
    let Ok(pid) = libc::pid_t::try_from(child.id()) else {
        let _ = child.kill();
        let _ = child.wait();
        return;
    };
    let family = descendants(pid);
    // SAFETY: kill(2) on a negative pid signals one process group: the group
    // `process_group(0)` made for this child, which it leads.
    let _ = unsafe { libc::kill(-pid, libc::SIGTERM) };
    let deadline = Instant::now() + TERM_WAIT;
    while Instant::now() < deadline && matches!(child.try_wait(), Ok(None)) {
        std::thread::sleep(Duration::from_millis(10));
    }
    // SAFETY: as above; the child is not reaped yet, so its group id cannot have been reused.
    let _ = unsafe { libc::kill(-pid, libc::SIGKILL) };
    let _ = child.kill();
    let _ = child.wait();
    for (pid, start) in family {
        // Only a process still alive with the same start time is the one seen
        // before (a pid may have been reused since).
        if proc_stat(pid).is_some_and(|(_, now)| now == start) {
            // SAFETY: kill(2) on one pid checked above to be our descendant.
            let _ = unsafe { libc::kill(pid, libc::SIGKILL) };
        }
    }
}

/// Runs a command in its own process group until it exits, `stop` is raised
/// or `kill_after` passes.
pub(super) fn run(mut command: Command, kill_after: Option<Duration>, stop: &Stop) -> Result<Run, Error> {
    let program = PathBuf::from(command.get_program());
    command.stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped()).process_group(0);
    let start = Instant::now();
    let mut child = command.spawn().map_err(|source| Error::Io { path: program.clone(), source })?;
    let stdout = drain(child.stdout.take());
    let stderr = drain(child.stderr.take());
    let ended = loop {
        match child.try_wait() {
            Ok(Some(status)) => break Ended::Exited(status),
            Ok(None) => {}
            Err(source) => {
                terminate(&mut child);
                return Err(Error::Io { path: program, source });
            }
        }
        if stop.is_raised() {
            terminate(&mut child);
            break Ended::Stopped;
        }
        if kill_after.is_some_and(|limit| start.elapsed() >= limit) {
            terminate(&mut child);
            break Ended::TimedOut;
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let seconds = start.elapsed().as_secs_f64();
    let stdout = stdout.join().unwrap_or_default();
    let stderr = stderr.join().unwrap_or_default();
    Ok(Run { ended, stdout, stderr, seconds })
}
