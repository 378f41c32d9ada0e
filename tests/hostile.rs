//! The fuzz corpus's hostile inputs through the score run: every instance,
//! clue list and checkpoint the fuzzers kept (inputs that reached new code in
//! the readers) fed to `solve --objective score`, which must end each with a
//! verdict or a clear error, never a panic (exit 101), a signal or a hang.

use std::path::{Path, PathBuf};
use std::process::Output;

mod common;
use common::{bin, scratch};

/// Each run's time limit: long enough for a board that parses to settle its plan and walk.
const LIMIT: &str = "0.1";

fn corpus(target: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/corpus").join(target);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    assert!(!files.is_empty(), "no corpus in {}", dir.display());
    files
}

fn official(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("data/official").join(name).to_str().unwrap().to_owned()
}

/// What went wrong with `output` of the run on `input`, if anything: a panic
/// (exit 101), a signal, a board the checker rejected (exit 3), or a refusal
/// (exit 2) that does not say what it refused. Exits 0 and 1 are verdicts
/// (solved; the best board found, not proven).
fn fault(input: &Path, output: &Output) -> Option<String> {
    let stderr = String::from_utf8_lossy(&output.stderr);
    let name = input.file_name().unwrap().to_string_lossy();
    match output.status.code() {
        None => Some(format!("{name}: ended by a signal ({:?})", output.status)),
        Some(0 | 1) => None,
        Some(2) if stderr.starts_with("edgematch: ") || stderr.starts_with("error: ") => None,
        Some(code) => Some(format!("{name}: exit {code}: {stderr}")),
    }
}

/// Runs `solve` with `args` (the hostile file among them) for each file of
/// `files`, copied to `name` in a scratch folder first; the faults found.
fn each(dir: &Path, files: &[PathBuf], name: &str, args: impl Fn(&str) -> Vec<String>) -> Vec<String> {
    let target = dir.join(name);
    let mut faults = Vec::new();
    for file in files {
        std::fs::copy(file, &target).unwrap();
        let args = args(target.to_str().unwrap());
        let output = bin().args(&args).output().unwrap();
        faults.extend(fault(file, &output));
    }
    faults
}

fn score_args(pieces: &str, more: &[&str]) -> Vec<String> {
    let base = ["solve", pieces, "--objective", "score", "--threads", "2", "--time-limit", LIMIT, "--heartbeat", "0"];
    base.iter().chain(more).map(|s| (*s).to_owned()).collect()
}

/// Instance files of every format the readers take (JSON, piece lists, the
/// field's formats): each is refused with a message or searched, never a
/// panic. Would catch a reader that lets a board through which the score
/// run's lists, quota or completer then index out of range (as colour 255 once did).
#[test]
fn hostile_instances_end_in_a_verdict_or_an_error() {
    let dir = scratch("hostile-instances");
    let mut faults = each(&dir, &corpus("instance_json"), "instance.json", |f| score_args(f, &[]));
    for target in ["piece_list", "bucas", "brendan"] {
        faults.extend(each(&dir, &corpus(target), "instance.txt", |f| score_args(f, &[])));
    }
    assert!(faults.is_empty(), "{} faults:\n{}", faults.len(), faults.join("\n"));
}

/// Hostile clue lists on the official set, and hostile checkpoints and
/// `--out` boards that a run on a planted 6×6 resumes from: each refused
/// with a message or run, never a panic. Would catch a resume that trusts a
/// checkpoint's board, plan or attempt counts.
#[test]
fn hostile_clues_and_checkpoints_end_in_a_verdict_or_an_error() {
    let dir = scratch("hostile-resume");
    let pieces = official("pieces.txt");
    let mut faults = each(&dir, &corpus("clue_list"), "clues.txt", |f| score_args(&pieces, &["--clues", f]));
    let planted = common::generate(&dir, 6, 3, 5, 1);
    let planted = planted.to_str().unwrap();
    for target in ["board_json", "board_any"] {
        let checkpoint = |f: &str| score_args(planted, &["--checkpoint", f]);
        faults.extend(each(&dir, &corpus(target), "run.checkpoint.json", checkpoint));
        let out = dir.join("best.json");
        let out = out.to_str().unwrap().to_owned();
        let resumed_out = |f: &str| {
            std::fs::copy(f, &out).unwrap();
            let checkpoint = dir.join("absent.checkpoint.json");
            let _ = std::fs::remove_file(&checkpoint);
            score_args(planted, &["--checkpoint", checkpoint.to_str().unwrap(), "--out", &out])
        };
        faults.extend(each(&dir, &corpus(target), "board.json", resumed_out));
    }
    assert!(faults.is_empty(), "{} faults:\n{}", faults.len(), faults.join("\n"));
}
