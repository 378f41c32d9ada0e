//! The fuzz corpus's hostile inputs through the score run: every instance, clue list,
//! checkpoint and `--out` board the fuzzers kept (inputs that reached new code in the
//! readers). Each is read first in-process by what `solve --objective score` reads it
//! with (the instance loader, the clue list through it, the run's opening for a
//! checkpoint and for `--out`): an input they refuse must be refused with a message
//! naming the file, never a panic. Only the inputs that load go through the binary,
//! which must end each with a verdict or a clear error, never a panic (exit 101), a
//! signal, a rejected board or a hang.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::process::Output;

use edgematch::formats::checkpoint;
use edgematch::formats::instance_json::{self, InstanceFile};
use edgematch::formats::load::{self, InstanceOptions};
use edgematch::outcome::Limits;
use edgematch::puzzle::Instance;
use edgematch::score_run::{Run, Setup};
use edgematch::solver::{Solver, SolverKind};

mod common;
use common::{bin, scratch};

/// Each run's time limit: long enough for a board that loads to settle its plan and walk.
const LIMIT: &str = "0.1";

fn corpus(target: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/corpus").join(target);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    assert!(!files.is_empty(), "no corpus in {}", dir.display());
    files
}

fn official(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("data/official").join(name)
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

/// How an input fared in-process.
enum Read {
    /// It loads: the binary runs on it.
    Loads,
    /// It is refused (or ignored, for an `--out` board that is not one of the
    /// instance): nothing more to run.
    Refused,
}

/// What the hostile inputs of one kind gave: the faults found, and how many the binary ran.
#[derive(Default)]
struct Tally {
    faults: Vec<String>,
    ran: usize,
    refused: usize,
}

impl Tally {
    /// Copies each of `files` to `target`, reads it in-process with `read`
    /// (a panic there is a fault), and runs the binary with `args` on those that load.
    fn each(&mut self, files: &[PathBuf], target: &Path, read: impl Fn(&Path) -> Result<Read, String>, args: &[&str]) {
        for file in files {
            std::fs::copy(file, target).unwrap();
            let name = file.file_name().unwrap().to_string_lossy();
            match catch_unwind(AssertUnwindSafe(|| read(target))) {
                Err(_) => self.faults.push(format!("{name}: the reader panicked")),
                Ok(Err(why)) => self.faults.push(format!("{name}: {why}")),
                Ok(Ok(Read::Refused)) => self.refused += 1,
                Ok(Ok(Read::Loads)) => {
                    self.ran += 1;
                    self.faults.extend(fault(file, &bin().args(args).output().unwrap()));
                }
            }
        }
    }

    fn assert_clean(&self, kind: &str) {
        eprintln!("{kind}: {} refused in-process, {} run through the binary", self.refused, self.ran);
        assert!(self.faults.is_empty(), "{} faults:\n{}", self.faults.len(), self.faults.join("\n"));
    }
}

/// `Loads` or `Refused` from a reader's result, a refusal required to name `path`.
fn named<T, E: std::fmt::Display>(path: &Path, read: Result<T, E>) -> Result<Read, String> {
    let file = path.file_name().unwrap().to_string_lossy().into_owned();
    match read {
        Ok(_) => Ok(Read::Loads),
        Err(e) if e.to_string().contains(&file) => Ok(Read::Refused),
        Err(e) => Err(format!("refused without naming {file}: {e}")),
    }
}

fn score_args<'a>(pieces: &'a str, more: &[&'a str]) -> Vec<&'a str> {
    let base = ["solve", pieces, "--objective", "score", "--threads", "2", "--time-limit", LIMIT, "--heartbeat", "0"];
    base.into_iter().chain(more.iter().copied()).collect()
}

/// An instance file is read as `solve` reads it without flags: as a cube
/// file (written by `split`) if it says it is one, else as an instance.
fn read_instance(path: &Path) -> Result<Read, String> {
    if edgematch::cubes::file::is_cube(path) {
        return named(path, edgematch::cubes::file::read_cube(path));
    }
    named(path, load::instance(path, &InstanceOptions::default()))
}

/// Instance files of every format the readers take (JSON, piece lists, the
/// field's formats): each is refused with a message naming it or searched,
/// never a panic. Would catch a reader that lets a board through which the
/// score run's lists, quota or completer then index out of range (as colour
/// 255 once did), and a refusal that does not say which file.
#[test]
fn hostile_instances_end_in_a_verdict_or_an_error() {
    let dir = scratch("hostile-instances");
    let mut tally = Tally::default();
    let json = dir.join("instance.json");
    tally.each(&corpus("instance_json"), &json, read_instance, &score_args(json.to_str().unwrap(), &[]));
    let text = dir.join("instance.txt");
    for target in ["piece_list", "bucas", "brendan"] {
        tally.each(&corpus(target), &text, read_instance, &score_args(text.to_str().unwrap(), &[]));
    }
    tally.assert_clean("instances");
}

/// The run of `solve --objective score` (`auto`) on `instance`, opened in-process with `setup`.
fn open(instance: &Instance, setup: Setup) -> Result<(), edgematch::Error> {
    let solver = Solver::new(SolverKind::Auto);
    Run::open(instance, &solver, edgematch::score::Options::default(), &Limits::default(), setup).map(drop)
}

/// Hostile clue lists on the official set, hostile checkpoints (each resumed
/// on the instance it embeds) and `--out` boards that a run on a planted 6×6
/// resumes from: each refused with a message naming it, or run, never a panic. Would catch a resume
/// that trusts a checkpoint's board, plan, seed or attempt counts (the
/// checkpoint corpus holds real checkpoints of every version and what the
/// fuzzer made of them), or a refusal that does not say which file.
#[test]
fn hostile_clues_and_checkpoints_end_in_a_verdict_or_an_error() {
    let dir = scratch("hostile-resume");
    let mut tally = Tally::default();
    let (pieces, clues) = (official("pieces.txt"), dir.join("clues.txt"));
    let with_clues = |path: &Path| {
        named(path, load::instance(&pieces, &InstanceOptions { clues: Some(path), ..Default::default() }))
    };
    let clue_args = score_args(pieces.to_str().unwrap(), &["--clues", clues.to_str().unwrap()]);
    tally.each(&corpus("clue_list"), &clues, with_clues, &clue_args);
    tally.assert_clean("clue lists");

    // A checkpoint is resumed on the instance it embeds, written beside it for the run.
    let mut tally = Tally::default();
    let (checkpoint, own) = (dir.join("run.checkpoint.json"), dir.join("own.json"));
    let resume = |path: &Path| match checkpoint::read_alone(path) {
        Err(e) => named(path, Err::<(), _>(e)),
        Ok((instance, _)) => {
            let file = InstanceFile { instance: instance.clone(), name: None, colours: None };
            std::fs::write(&own, instance_json::to_string(&file)).unwrap();
            named(path, open(&instance, Setup { checkpoint: Some(path.to_owned()), ..Setup::default() }))
        }
    };
    let resume_args = score_args(own.to_str().unwrap(), &["--checkpoint", checkpoint.to_str().unwrap()]);
    for target in ["checkpoint", "board_json", "board_any"] {
        tally.each(&corpus(target), &checkpoint, resume, &resume_args);
    }
    tally.assert_clean("checkpoints");

    let planted = common::generate(&dir, 6, 3, 5, 1);
    let instance = load::instance(&planted, &InstanceOptions::default()).unwrap().instance;
    let planted = planted.to_str().unwrap();

    // An `--out` board the run can resume from (a full board of the instance) is run; any
    // other is ignored by the run (it sets no floor and is replaced by the first board).
    let mut tally = Tally::default();
    let out = dir.join("best.json");
    let absent = dir.join("absent.checkpoint.json");
    let resumes = |path: &Path| {
        let setup = Setup { out: Some(path.to_owned()), ..Setup::default() };
        open(&instance, setup).map_err(|e| format!("--out refused: {e}"))?;
        let board = edgematch::formats::board_json::read(path).ok();
        let full = board.is_some_and(|b| {
            edgematch::outcome::accept(&instance, edgematch::outcome::Status::Unknown, Some(&b)).is_ok()
        });
        Ok(if full { Read::Loads } else { Read::Refused })
    };
    let out_args = score_args(planted, &["--checkpoint", absent.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    for target in ["board_json", "board_any"] {
        tally.each(&corpus(target), &out, resumes, &out_args);
    }
    // The corpus's boards are the fuzzers' 4×4 fixture's, never one of this 6×6: its
    // planted solution stands for an --out board the run resumes from.
    let solution = Path::new(planted).with_file_name("planted-6x6-f3i5-s1.solution.json");
    tally.each(&[solution], &out, resumes, &out_args);
    assert_eq!(tally.ran, 1, "the planted solution is resumed");
    tally.assert_clean("--out boards");
}
