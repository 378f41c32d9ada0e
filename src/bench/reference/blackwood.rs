//! The field's published score method as a reference: the Rust port of Joshua Blackwood's solver, run from the user's own checkout.
//!
//! The port (`NickButcher1/EternityII_Solver`, folder `rust/`, GPL-3) has
//! Eternity II's pieces and the centre clue built in; it walks with its own
//! fill order, breaks and colour quota, and saves a board whenever an attempt
//! reaches a new depth at or past its save threshold (`MIN_SOLVE_INDEX_TO_SAVE`
//! in its `src/config.rs`, 252 as published), as a text grid and an
//! e2.bucas.name link under `$HOME/EternitySolutions/`. It runs `CORES − 1`
//! threads. Nothing of it is in this repository: the user clones and builds
//! it (see `docs/ARCHITECTURE.md`), and points [`DIR_ENV`] at the checkout.
//!
//! A run here gives it a scratch `HOME` and `CORES` = threads + 1, hands on
//! each board it saves while it runs (the folder is looked at every
//! [`LOOK`]), kills its process group at the budget, and reads back every
//! board it saved, timed by the file's modification time. Its boards are
//! partial (it stops at a depth): [`read_saved`] reads them as boards of the
//! official instance with empty cells, for the checker and for CP-SAT to
//! complete (during its run, in `bench score`).

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, SystemTime};

use super::process::{Scratch, run};
use crate::error::Error;
use crate::formats::bucas;
use crate::puzzle::{Board, Instance};
use crate::stop::Stop;

/// Environment variable naming the checkout of the port.
pub const DIR_ENV: &str = "EDGEMATCH_BLACKWOOD_DIR";

/// The port's binary, relative to the checkout (cargo's release build of `rust/`).
pub const BINARY: &str = "rust/target/release/rust";

/// The port's binary, or why it cannot be run (saying how to get it).
pub fn binary() -> Result<PathBuf, String> {
    let Some(dir) = std::env::var_os(DIR_ENV).filter(|d| !d.is_empty()) else {
        return Err(format!(
            "{DIR_ENV} is not set: clone NickButcher1/EternityII_Solver (GPL-3, not shipped here), build its \
             rust/ folder in release mode, and set {DIR_ENV} to the checkout"
        ));
    };
    let binary = Path::new(&dir).join(BINARY);
    if binary.is_file() {
        Ok(binary)
    } else {
        Err(format!("{}: no such file; build the checkout's rust/ folder in release mode", binary.display()))
    }
}

/// A board the port saved.
#[derive(Clone, Debug, PartialEq)]
pub struct Saved {
    /// Seconds from the start of the run to the file's last write.
    pub seconds: f64,
    /// The board, its unreached cells empty.
    pub board: Board,
}

/// What one run of the port gave back.
#[derive(Clone, Debug)]
pub struct Run {
    /// Every board it saved, in the order of their times.
    pub saved: Vec<Saved>,
    /// Wall seconds of the run.
    pub seconds: f64,
    /// Its own count of loop iterations per second (placements and
    /// backtracks, all threads), from the last summary it printed, if any.
    pub iterations_per_second: Option<f64>,
}

/// Runs the port with `threads` walking threads for `seconds`, handing each
/// board it saves to `on_saved` as soon as the file reads whole (the folder
/// is looked at every [`LOOK`]), as a board of `instance` (the official set
/// with its centre clue). Ends early when `stop` is raised.
///
/// # Errors
/// The binary missing (named), a scratch folder that cannot be made, or a
/// saved file that is not a board of `instance` once the run is over.
pub fn solve(
    instance: &Instance,
    threads: u32,
    seconds: f64,
    stop: &Stop,
    on_saved: &(dyn Fn(&Saved) + Sync),
) -> Result<Run, Error> {
    let program = binary().map_err(|reason| Error::Options(format!("blackwood: {reason}")))?;
    let home = Scratch::new()?;
    let folder = home.0.join("EternitySolutions");
    let mut command = Command::new(&program);
    let _ = command.env("HOME", &home.0).env("CORES", (threads.max(1) + 1).to_string());
    let started = SystemTime::now();
    let limit = Duration::try_from_secs_f64(seconds.max(0.0)).unwrap_or(Duration::MAX);
    let over = AtomicBool::new(false);
    let mut seen = Seen::default();
    let ran = std::thread::scope(|scope| {
        let running = scope.spawn(|| {
            let ran = run(command, Some(limit), stop);
            over.store(true, Ordering::Relaxed);
            ran
        });
        while !over.load(Ordering::Relaxed) {
            // A file the port is still writing does not read yet: it is looked at again next time.
            for saved in seen.new_boards(&folder, instance, started, false).unwrap_or_default() {
                on_saved(&saved);
            }
            std::thread::sleep(LOOK);
        }
        running.join().unwrap_or_else(|_| Err(Error::Options("blackwood: the runner thread panicked".to_owned())))
    })?;
    // After the run every file is whole: one that does not read is an error.
    for saved in seen.new_boards(&folder, instance, started, true)? {
        on_saved(&saved);
    }
    let mut saved = seen.saved;
    saved.sort_by(|a, b| a.seconds.total_cmp(&b.seconds));
    Ok(Run { saved, seconds: ran.seconds, iterations_per_second: iterations_per_second(&ran.stdout) })
}

/// How often the port's save folder is looked at during its run.
pub const LOOK: Duration = Duration::from_millis(200);

/// The saved files already handed on, by name, and what they held.
#[derive(Default)]
struct Seen {
    names: HashSet<PathBuf>,
    saved: Vec<Saved>,
}

impl Seen {
    /// The boards of the files in `dir` not handed on before. A file that
    /// does not read is left for the next look, or, when `whole` (the port
    /// has ended, so every file is whole), is an error.
    fn new_boards(
        &mut self,
        dir: &Path,
        instance: &Instance,
        started: SystemTime,
        whole: bool,
    ) -> Result<Vec<Saved>, Error> {
        let Ok(entries) = std::fs::read_dir(dir) else { return Ok(Vec::new()) };
        let mut fresh = Vec::new();
        for entry in entries.filter_map(Result::ok) {
            let path = entry.path();
            if path.extension().is_none_or(|e| e != "txt") || self.names.contains(&path) {
                continue;
            }
            match read_one(&entry, instance, started) {
                Ok(saved) => {
                    let _ = self.names.insert(path);
                    self.saved.push(saved.clone());
                    fresh.push(saved);
                }
                Err(error) if whole => return Err(error),
                Err(_) => {}
            }
        }
        Ok(fresh)
    }
}

/// Reads every board file in `dir` (the port's `EternitySolutions`), timed
/// from `started`; a folder that does not exist holds none.
///
/// # Errors
/// A file that cannot be read, or whose link is not a board of `instance` (named).
pub fn read_saved(dir: &Path, instance: &Instance, started: SystemTime) -> Result<Vec<Saved>, Error> {
    let mut saved = Seen::default().new_boards(dir, instance, started, true)?;
    saved.sort_by(|a, b| a.seconds.total_cmp(&b.seconds));
    Ok(saved)
}

/// One saved file as a board of `instance`, timed by its last write from `started`.
fn read_one(entry: &std::fs::DirEntry, instance: &Instance, started: SystemTime) -> Result<Saved, Error> {
    let path = entry.path();
    let text = std::fs::read_to_string(&path).map_err(|source| Error::Io { path: path.clone(), source })?;
    let link = bucas::first_link(&path, &text)?;
    let board = bucas::to_board(&path, &link, instance)?;
    let written = entry.metadata().and_then(|m| m.modified()).unwrap_or(started);
    let seconds = written.duration_since(started).unwrap_or_default().as_secs_f64();
    Ok(Saved { seconds, board })
}

/// The rate of the port's last `Total N nodes in S seconds, R per second` line.
fn iterations_per_second(stdout: &str) -> Option<f64> {
    let line = stdout.lines().rev().find(|l| l.contains(" per second"))?;
    let rate = line.split(" seconds, ").nth(1)?.split(" per second").next()?;
    rate.replace(',', "").trim().parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::check;
    use crate::formats::load::{self, InstanceOptions};
    use crate::puzzle::Side;

    fn official() -> Instance {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/official");
        let options = InstanceOptions {
            columns: Some("bltr".parse().unwrap()),
            size: None,
            clues: Some(&dir.join("clue-centre.txt")),
        };
        load::instance(&dir.join("pieces.txt"), &options).unwrap().instance
    }

    /// The port's save format for `board`: its grid text (rows from the top,
    /// `piece/turns`, `---/-` for an empty cell) and its link, each cell's
    /// colours top, right, bottom, left as letters in its own numbering
    /// (`motifs_order=jblackwood`), `aaaa` for an empty cell.
    fn port_file(instance: &Instance, board: &Board) -> String {
        // Default colour → the port's letter: the inverse of the reader's jblackwood table.
        let jblackwood: [u8; 23] = [0, 1, 6, 11, 16, 4, 9, 14, 19, 2, 7, 12, 17, 5, 10, 15, 20, 3, 8, 13, 18, 21, 22];
        let letter = |c: u8| (b'a' + jblackwood.iter().position(|&d| d == c).unwrap() as u8) as char;
        let (mut grid, mut edges) = (String::new(), String::new());
        for row in 0..16 {
            for col in 0..16 {
                let cell = row * 16 + col;
                match board.cells[cell] {
                    Some(p) => {
                        grid.push_str(&format!("{:>3}/{} ", p.piece + 1, p.rotation.turns()));
                        for side in Side::ALL {
                            edges.push(letter(board.colour(instance, cell, side).unwrap()));
                        }
                    }
                    None => {
                        grid.push_str("---/- ");
                        edges.push_str("aaaa");
                    }
                }
            }
            grid.push('\n');
        }
        format!(
            "{grid}\nhttps://e2.bucas.name/#puzzle=Joshua_Blackwood&board_w=16&board_h=16&board_edges={edges}&motifs_order=jblackwood"
        )
    }

    /// A file in the port's format, made here from the published 470 board
    /// with its last 20 cells emptied, reads back as that partial board, and
    /// the checker scores it as the board written: fails if the reader
    /// mistakes the colour numbering, the empty cells or the rows' order.
    #[test]
    fn a_saved_partial_board_reads_back_as_written() {
        let instance = official();
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/boards");
        let link = bucas::read(&dir.join("Joshua_Blackwood_470.url")).unwrap();
        let mut board = bucas::to_board(&dir.join("Joshua_Blackwood_470.url"), &link, &instance).unwrap();
        for cell in [0, 1, 2, 3, 12, 13, 14, 15, 16, 17, 18, 19, 28, 29, 30, 31, 32, 33, 34, 35] {
            board.cells[cell] = None;
        }
        let scratch = Scratch::new().unwrap();
        let _ = scratch.write("236_0123abcd_42.txt", &port_file(&instance, &board)).unwrap();
        let _ = scratch.write("notes.md", "not a board").unwrap();
        let saved = read_saved(&scratch.0, &instance, SystemTime::UNIX_EPOCH).unwrap();
        assert_eq!(saved.len(), 1);
        assert_eq!(saved[0].board, board);
        let report = check(&instance, &saved[0].board);
        assert_eq!(report.placed, 236);
        assert_eq!(report.score, board.score(&instance));
        assert!(report.only_joins_mismatch(), "{report}");
    }

    /// A saved file whose link shows colours no piece has is an error naming the file.
    #[test]
    fn a_foreign_board_is_an_error_naming_the_file() {
        let instance = official();
        let scratch = Scratch::new().unwrap();
        let edges = "bbbb".repeat(256);
        let text = format!("https://e2.bucas.name/#board_w=16&board_h=16&board_edges={edges}&motifs_order=jblackwood");
        let _ = scratch.write("250_x_1.txt", &text).unwrap();
        let err = read_saved(&scratch.0, &instance, SystemTime::UNIX_EPOCH).unwrap_err().to_string();
        assert!(err.contains("250_x_1.txt"), "{err}");
    }

    #[test]
    fn its_rate_is_read_from_its_summary_line() {
        let out = "[x INFO rust] Total 5,000,000,010 nodes in 45 seconds, 111,111,111 per second, max depth 248\n";
        assert_eq!(iterations_per_second(out), Some(111_111_111.0));
        assert_eq!(iterations_per_second("nothing"), None);
    }

    /// Without the variable, the reason says how to get the port.
    #[test]
    fn a_missing_checkout_is_explained() {
        if std::env::var_os(DIR_ENV).is_none() {
            let reason = binary().unwrap_err();
            assert!(reason.contains("NickButcher1/EternityII_Solver"), "{reason}");
        }
    }
}
