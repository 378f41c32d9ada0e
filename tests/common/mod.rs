//! Helpers the integration tests share: run the real binary, read its output, scratch folders, planted boards, Ctrl-C.
#![allow(dead_code)] // each test crate uses its own subset

use std::io::{BufRead as _, BufReader, Read as _};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// The `edgematch` binary cargo built for these tests.
pub(crate) fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_edgematch"))
}

/// Runs the binary with `args` and waits for it.
pub(crate) fn run(args: &[&str]) -> Output {
    bin().args(args).output().expect("the binary runs")
}

/// Standard output and standard error, one after the other.
pub(crate) fn text(output: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr))
}

/// The flags of a score run whose best boards come in small steps from its first second:
/// a loose ramp of breaks, short attempts, and the quota given outright (no pilot walks).
pub(crate) const LOOSE_RAMP: [&str; 6] = ["--quota", "none", "--breaks", "ramp:0.2:200", "--attempt-nodes", "2000000"];

/// A file of `models/`, as an argument.
pub(crate) fn model(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("models").join(name).to_str().unwrap().to_owned()
}

/// A fresh, empty folder under the target directory.
pub(crate) fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A planted instance written by `edgematch generate` (its solution beside it).
pub(crate) fn generate(dir: &Path, size: usize, frame: u32, interior: u32, seed: u64) -> PathBuf {
    let out = dir.join(format!("planted-{size}x{size}-f{frame}i{interior}-s{seed}.json"));
    let output = run(&[
        "generate",
        "--size",
        &size.to_string(),
        "--frame-colours",
        &frame.to_string(),
        "--interior-colours",
        &interior.to_string(),
        "--seed",
        &seed.to_string(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(output.status.success(), "{}", text(&output));
    out
}

/// Starts `solve`, waits until it says its solver runs (the `solver:` line,
/// printed once Ctrl-C is handled), lets it search for `millis`, sends
/// SIGINT, and returns its output and how long it took to exit after the signal.
pub(crate) fn interrupt_after(args: &[&str], millis: u64) -> (Output, Duration) {
    let mut child = bin().args(args).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut seen = String::new();
    loop {
        let mut line = String::new();
        assert!(stdout.read_line(&mut line).unwrap() > 0, "the solve ended before it started: {seen}");
        seen.push_str(&line);
        if line.starts_with("solver: ") {
            break;
        }
    }
    std::thread::sleep(Duration::from_millis(millis));
    let start = Instant::now();
    // SAFETY: kill(2) on our own child's pid.
    assert_eq!(unsafe { libc::kill(child.id() as i32, libc::SIGINT) }, 0);
    stdout.read_to_string(&mut seen).unwrap();
    let mut output = child.wait_with_output().unwrap();
    output.stdout = seen.into_bytes();
    (output, start.elapsed())
}
