//! The files of a run's best board (`--out`, `--checkpoint`): one owner writes them, whole, and never with a worse board than they hold.
//!
//! A score run finds better boards on several threads and saves its state on a
//! timer; every write of either file goes through [`BestFiles`], under one
//! lock, so two writes never interleave and a board is written only when the
//! checker scores it above every board written before, or found on disk when
//! the run began. The checkpoint's seconds are read under the same lock, so
//! they never go backwards either.

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Instant;

use crate::error::Error;
use crate::formats::board_json;
use crate::formats::checkpoint::{self, Checkpoint, RunState};
use crate::outcome::{Ranked, Status, accept, rank};
use crate::output::write_atomic;
use crate::puzzle::{Board, Instance};

/// The owner of a run's best-board files.
#[derive(Debug)]
pub struct BestFiles<'a> {
    instance: &'a Instance,
    out: Option<PathBuf>,
    checkpoint: Option<PathBuf>,
    /// Seconds of the runs this one resumes.
    before: f64,
    start: Instant,
    kept: Mutex<Kept>,
    /// Where the run stands, written into each checkpoint.
    run: Mutex<Option<RunState>>,
}

/// The best board so far and the checker's score of it.
#[derive(Debug, Default)]
struct Kept {
    board: Option<Board>,
    score: Option<usize>,
}

/// What became of a board offered to [`BestFiles::offer`].
#[derive(Debug)]
pub enum Offered {
    /// The checker scored it above every earlier board: it is the run's best,
    /// written unless `unwritten` says why not (the next save tries again).
    Better {
        /// The checker's score.
        score: usize,
        /// The error of a file that could not be written.
        unwritten: Option<Error>,
    },
    /// The checker scored it, no higher than the best: nothing written.
    NotBetter(usize),
}

impl<'a> BestFiles<'a> {
    /// The owner of `out` and `checkpoint` for a run on `instance` that
    /// resumes `before` seconds of earlier runs. A board already in either
    /// file that the checker accepts for `instance` sets the floor: nothing
    /// scoring at most as much is written over it. (A file that does not read
    /// as a board of `instance` sets none and is replaced by the first board.)
    pub fn open(instance: &'a Instance, out: Option<&Path>, checkpoint: Option<&Path>, before: f64) -> BestFiles<'a> {
        let on_disk = [
            out.and_then(|p| board_json::read(p).ok()),
            checkpoint.and_then(|p| checkpoint::read(p, instance).ok().and_then(|c| c.board)),
        ];
        // The best of them is the run's best so far: the periodic save keeps it with the seconds.
        let best = on_disk
            .into_iter()
            .flatten()
            .filter_map(|b| checked_score(instance, &b).ok().map(|s| (s, b)))
            .max_by_key(|(s, _)| *s);
        BestFiles {
            instance,
            out: out.map(Path::to_owned),
            checkpoint: checkpoint.map(Path::to_owned),
            before,
            start: Instant::now(),
            kept: Mutex::new(Kept { score: best.as_ref().map(|(s, _)| *s), board: best.map(|(_, b)| b) }),
            run: Mutex::new(None),
        }
    }

    /// Sets where the run stands, for the next checkpoint written.
    pub fn set_run(&self, run: RunState) {
        *self.run.lock().unwrap_or_else(std::sync::PoisonError::into_inner) = Some(run);
    }

    /// Changes where the run stands with `change` (nothing while it is unset).
    pub fn update_run(&self, change: impl FnOnce(&mut RunState)) {
        if let Some(run) = self.run.lock().unwrap_or_else(std::sync::PoisonError::into_inner).as_mut() {
            change(run);
        }
    }

    /// The highest score on disk or written so far (`None`: none yet).
    pub fn floor(&self) -> Option<usize> {
        self.lock().score
    }

    /// The best board so far (found on disk or written since), with the checker's score.
    pub fn best(&self) -> Option<(Board, usize)> {
        let kept = self.lock();
        kept.board.clone().zip(kept.score)
    }

    /// The instance whose boards these are.
    pub fn instance(&self) -> &'a Instance {
        self.instance
    }

    /// The `--out` file, if any.
    pub fn out_path(&self) -> Option<PathBuf> {
        self.out.clone()
    }

    /// Seconds run so far, the resumed runs' included.
    pub fn seconds(&self) -> f64 {
        self.before + self.start.elapsed().as_secs_f64()
    }

    /// Offers `board`: checked, and written to both files when it beats the best.
    ///
    /// # Errors
    /// [`Error::Rejected`] when the checker rejects the board (it breaks a hard
    /// rule: a piece twice, a clue moved, a colour on the rim).
    pub fn offer(&self, board: &Board) -> Result<Offered, Error> {
        let mut kept = self.lock();
        let score = match rank(self.instance, board, kept.score)? {
            Ranked::NotBetter(score) => return Ok(Offered::NotBetter(score)),
            Ranked::Better(score) => score,
        };
        *kept = Kept { board: Some(board.clone()), score: Some(score) };
        Ok(Offered::Better { score, unwritten: self.write(&kept).err() })
    }

    /// Writes the checkpoint again with the seconds run so far and where the
    /// run stands (the periodic checkpoint, and the one written when the plan
    /// settles, before any board), and `--out` with the best board, if any.
    ///
    /// # Errors
    /// A file that cannot be written.
    pub fn save(&self) -> Result<(), Error> {
        let kept = self.lock();
        self.write(&kept)
    }

    /// Writes `kept`'s board to `--out` and, with the seconds and the run
    /// state, to the checkpoint (the lock held); a file with nothing to hold is not written.
    fn write(&self, kept: &Kept) -> Result<(), Error> {
        if let (Some(path), Some(board)) = (&self.out, &kept.board) {
            write_atomic(path, board_json::to_string(board).as_bytes())?;
        }
        if let Some(path) = &self.checkpoint {
            let run = self.run.lock().unwrap_or_else(std::sync::PoisonError::into_inner).clone();
            if kept.board.is_some() || run.is_some() {
                let state = Checkpoint { seconds: self.seconds(), board: kept.board.clone(), run };
                checkpoint::write(path, self.instance, &state)?;
            }
        }
        Ok(())
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Kept> {
        self.kept.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

/// The checker's score of `board` on `instance`, or its rejection.
fn checked_score(instance: &Instance, board: &Board) -> Result<usize, Error> {
    accept(instance, Status::Unknown, Some(board)).map(|a| a.score)
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicBool, Ordering};

    use super::*;
    use crate::generate::{PlantedSpec, planted};
    use crate::rng::Rng;

    /// The planted solution with `swaps` random pairs of interior cells (not
    /// clues) exchanged: a full board of a lower score (or the same).
    fn worse(instance: &Instance, solution: &Board, swaps: usize, rng: &mut Rng) -> Board {
        let mut board = solution.clone();
        let (w, h) = (board.grid.width, board.grid.height);
        let clue = |c: usize| instance.clues.iter().any(|k| k.cell == c);
        let inner: Vec<usize> =
            (0..w * h).filter(|&c| c % w != 0 && c % w != w - 1 && c / w != 0 && c / w != h - 1 && !clue(c)).collect();
        for _ in 0..swaps {
            let (a, b) = (inner[rng.below(inner.len())], inner[rng.below(inner.len())]);
            board.cells.swap(a, b);
        }
        board
    }

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("edgematch-best-file-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    /// Eight threads offer boards of random scores while a ninth saves the
    /// checkpoint in a loop and a tenth reads both files: every read parses
    /// whole, the scores read never go down, the checkpoint's seconds never
    /// go down, and the files end holding the best board offered. Catches two
    /// writers sharing a temporary name (a cut or mixed file), a save that
    /// writes a board older than the last written, and a check-then-write race.
    #[test]
    fn concurrent_bests_and_saves_never_go_backwards_or_cut_a_file() {
        let p = planted(&PlantedSpec::square(7, 3, 6, 3)).unwrap();
        let dir = scratch("concurrent");
        let (out, check) = (dir.join("best.json"), dir.join("run.checkpoint.json"));
        let files = BestFiles::open(&p.instance, Some(&out), Some(&check), 0.0);
        let over = AtomicBool::new(false);
        // Raised however the scope's body ends, so a failing offerer fails the test instead of hanging it.
        struct Over<'a>(&'a AtomicBool);
        impl Drop for Over<'_> {
            fn drop(&mut self) {
                self.0.store(true, Ordering::Relaxed);
            }
        }
        let offered: Vec<usize> = std::thread::scope(|scope| {
            let over_guard = Over(&over);
            let reader = scope.spawn(|| {
                let (mut last_score, mut last_seconds, mut reads) = (0, 0.0, 0u64);
                while !over.load(Ordering::Relaxed) {
                    if let Ok(board) = board_json::read(&out) {
                        let score = board.score(&p.instance);
                        assert!(score >= last_score, "--out went from {last_score} to {score}");
                        last_score = score;
                        reads += 1;
                    }
                    if let Ok(state) = checkpoint::read(&check, &p.instance) {
                        assert!(state.seconds >= last_seconds, "checkpoint seconds went back");
                        last_seconds = state.seconds;
                    }
                }
                reads
            });
            let _ = scope.spawn(|| {
                while !over.load(Ordering::Relaxed) {
                    files.save().unwrap();
                    std::thread::sleep(std::time::Duration::from_millis(2));
                }
            });
            let offerers: Vec<_> = (0..8u64)
                .map(|t| {
                    let (files, solution, instance) = (&files, &p.solution, &p.instance);
                    scope.spawn(move || {
                        let mut rng = Rng::new(t + 1);
                        (0..25)
                            .map(|_| {
                                let board = worse(instance, solution, rng.below(6), &mut rng);
                                let _ = files.offer(&board).unwrap();
                                board.score(instance)
                            })
                            .max()
                            .unwrap()
                    })
                })
                .collect();
            let best = offerers.into_iter().map(|h| h.join().unwrap()).collect();
            drop(over_guard);
            assert!(reader.join().unwrap() > 0, "the reader read the file");
            best
        });
        let best = *offered.iter().max().unwrap();
        assert_eq!(board_json::read(&out).unwrap().score(&p.instance), best);
        assert_eq!(checkpoint::read(&check, &p.instance).unwrap().board.unwrap().score(&p.instance), best);
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 2, "no temporary file left");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// A board already on disk is a floor: a worse board is not written over
    /// it, a better one is; a board the checker rejects is an error and never written.
    #[test]
    fn the_board_on_disk_is_a_floor_and_a_rejected_board_is_never_written() {
        let p = planted(&PlantedSpec::square(6, 3, 6, 2)).unwrap();
        let dir = scratch("floor");
        let out = dir.join("best.json");
        write_atomic(&out, board_json::to_string(&p.solution).as_bytes()).unwrap();
        let files = BestFiles::open(&p.instance, Some(&out), None, 0.0);
        let max = p.instance.grid.max_score();
        assert_eq!(files.floor(), Some(max));
        let lower = worse(&p.instance, &p.solution, 3, &mut Rng::new(5));
        assert!(matches!(files.offer(&lower).unwrap(), Offered::NotBetter(s) if s < max));
        assert_eq!(board_json::read(&out).unwrap(), p.solution);
        let mut twice = p.solution.clone();
        twice.cells[1] = twice.cells[0];
        assert!(matches!(files.offer(&twice), Err(Error::Rejected(_))));
        assert_eq!(board_json::read(&out).unwrap(), p.solution);
        // An unreadable file sets no floor and is replaced.
        std::fs::write(&out, "{ cut").unwrap();
        let files = BestFiles::open(&p.instance, Some(&out), None, 0.0);
        assert_eq!(files.floor(), None);
        assert!(matches!(files.offer(&lower).unwrap(), Offered::Better { unwritten: None, .. }));
        assert_eq!(board_json::read(&out).unwrap(), lower);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
