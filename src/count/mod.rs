//! Counting every solution of a board exactly: the full boards, each passed by the checker, raw and up to the board's symmetries, with the nodes the count visited.
//!
//! The count walks the plain row scan (`plain.rs`): every node of the tree
//! that fills the board row by row from the top-left corner, so its node
//! count is the figure the field publishes for that scan. Pieces are told
//! apart by their number: two identical pieces swapped make two solutions,
//! while one piece that shows the same colours turned is placed once per
//! distinct look. Solutions are also counted up to the board's symmetries
//! (`symmetry.rs`): a square board without clues has four boards per class,
//! a rectangle without clues two, a clued board one.

mod bits;
mod part;
mod plain;
mod split;
mod symmetry;
mod tree;
pub mod witness;

pub use part::{Part, fixed_corner, may_stand_for_classes};

use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::error::Error;
use crate::formats::board_json;
use crate::formats::count_progress::{self, Progress, Subtree};
use crate::puzzle::{Board, Instance, Placement};
use crate::stop::Stop;
use plain::Cand;

/// How often a count writes its progress file and reports on stderr.
const REPORT_EVERY: Duration = Duration::from_secs(10);

/// Random paths of the estimate a count makes of its tree before it starts
/// (for its reports): the estimate's error has a heavy tail, and 10,000
/// paths take well under a second on the boards a count can finish.
const PROBES: u32 = 10_000;

/// Knuth's estimate of the nodes a count of `instance` visits (of the
/// plain row scan's tree when `plain`, else of the tree the count picks),
/// from `probes` random paths down it (seeded by `seed`): unbiased, and the
/// more probes the closer; one with no path below the first cells is 0.
/// Returns the estimate and the tree's description.
///
/// # Errors
/// A board too large for the count's tables.
pub fn estimate(instance: &Instance, probes: u32, seed: u64, plain: bool) -> Result<(f64, String), Error> {
    let tree = if plain { tree::Tree::plain(instance) } else { tree::Tree::smallest(instance)? };
    let table = plain::Table::new(&tree.instance)?;
    Ok((plain::estimate(&table, probes, &mut crate::rng::Rng::new(seed)), tree.describe()))
}

/// What a count may stop at, where it keeps its solutions and its progress.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// Threads counting subtrees (at least one).
    pub threads: usize,
    /// Stop after this many solutions.
    pub limit: Option<u64>,
    /// Wall-clock seconds.
    pub time_limit: Option<f64>,
    /// Write each solution there as board JSON, `solution-D.json` (D: a digest of its placements).
    pub save: Option<PathBuf>,
    /// The progress file: read at the start when it exists (its subtrees are
    /// not counted again), written every 10 s and at the end.
    pub resume: Option<PathBuf>,
    /// Report the subtrees done on stderr every 10 s.
    pub progress: bool,
    /// Count the field's plain row scan tree (from the top-left corner along
    /// the width, nothing fixed), whose nodes the field publishes, instead of
    /// the smallest variant (`tree.rs`).
    pub plain: bool,
    /// Read each cell's candidates from the lists one by one, skipping used
    /// pieces, where the bit sets apply (the same tree and counts, slower: a reference).
    pub lists: bool,
}

/// Why a count ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize, strum::Display)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum Ended {
    /// Every node was visited: the counts are exact.
    Complete,
    /// `limit` solutions were found: the counts are lower bounds.
    Limit,
    /// The time limit passed: the counts are lower bounds.
    TimeLimit,
    /// Ctrl-C: the counts are lower bounds.
    Interrupted,
}

/// A count's figures.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Count {
    /// Full boards, each passed by the checker.
    pub solutions: u64,
    /// Classes of boards that the board's symmetries turn into one another.
    pub unique: u64,
    /// Boards per class at most: 4 for a square board without clues, 2 for a rectangle, 1 with clues.
    pub symmetries: usize,
    /// Pieces placed (nodes of the plain row scan), over every run of a resumed count.
    pub nodes: u64,
    /// Wall-clock seconds, over every run of a resumed count.
    pub seconds: f64,
    /// The tree walked: the plain row scan, or the variant the count picked
    /// (the board turned, a corner piece fixed); `nodes` are that tree's.
    pub tree: String,
    /// The scan that counted the subtrees: `lists`, `bits-64` or `bits-128`
    /// (the same tree: boards of at most 64 or 128 pieces get the bit sets).
    pub engine: String,
    /// The tree's nodes as estimated before the count (Knuth's estimate, the count's reports read it).
    pub estimated_nodes: f64,
    /// Subtrees of the cut.
    pub subtrees: usize,
    /// Of them, those counted whole (in this run or the ones it resumed).
    pub subtrees_done: usize,
    /// Why it ended; only `complete` makes the counts exact.
    pub ended: Ended,
}

/// Counts the solutions of `instance` under `options`, until the tree is
/// walked, a limit is reached or `stop` is raised.
///
/// # Errors
/// A board the checker rejects (a bug), a board too large for the tables or
/// of one cell, a progress file of another instance or cut, a save folder or
/// progress file that cannot be written.
pub fn count(instance: &Instance, options: &Options, stop: &Stop) -> Result<Count, Error> {
    count_in(instance, Part::whole(instance), options, stop)
}

/// [`count`] for `instance`, a part of the whole board (a cube: the board with cells
/// fixed), its solutions counted up to the board's symmetries: the parts'
/// counts then add up to the board's (`part.rs`).
///
/// # Errors
/// As [`count`]; a part that stands for its classes without its own corner.
pub fn count_in(instance: &Instance, part: Part<'_>, options: &Options, stop: &Stop) -> Result<Count, Error> {
    let start = Instant::now();
    if instance.grid.cells() < 2 {
        return Err(Error::Options("a count needs a board of two cells or more".to_owned()));
    }
    if part.repeats_a_look(instance) {
        return Ok(Count { ended: Ended::Complete, ..nothing_counted(start) });
    }
    let tree = tree::Tree::for_part(instance, options.plain, part.corner(instance)?)?;
    let table = plain::Table::new(&tree.instance)?;
    if let Some(dir) = &options.save {
        std::fs::create_dir_all(dir).map_err(|source| Error::Io { path: dir.clone(), source })?;
    }
    let run = stop.child();
    let Some(cut) = split::Cut::of(&table, run.flag()) else {
        return Ok(nothing_counted(start));
    };
    let earlier = earlier_progress(instance, options, &cut)?;
    let estimated = plain::estimate(&table, PROBES, &mut crate::rng::Rng::new(1));
    let mut tally = Tally::new(instance, part.whole, &tree, options, &earlier, &run);
    tally.estimated = estimated;
    let deadline = options.time_limit.map(|t| start + Duration::from_secs_f64(t));
    let mut done = vec![false; cut.prefixes.len()];
    earlier.done.iter().for_each(|s| done[s.index] = true);
    let solution = |board: &[Cand]| tally.solution(board);
    let counted = |subtree: Subtree| tally.subtree_done(subtree);
    let engine = split::Engine::new(&table, options.lists);
    let work = split::Work {
        engine: &engine,
        cells: table.cells(),
        cut: &cut,
        done: &done,
        halt: plain::Halt { stop: run.flag(), deadline },
        solution: &solution,
        counted: &counted,
    };
    let partial = tally.with_reports(start, || split::count(&work, options.threads))?;
    let finished = tally.finish(start, partial, stop, deadline);
    Ok(Count { tree: tree.describe(), engine: engine.name().to_owned(), ..finished })
}

/// A count stopped before its cut was made.
fn nothing_counted(start: Instant) -> Count {
    let seconds = start.elapsed().as_secs_f64();
    Count {
        solutions: 0,
        unique: 0,
        symmetries: 1,
        nodes: 0,
        seconds,
        tree: String::new(),
        engine: String::new(),
        estimated_nodes: 0.0,
        subtrees: 0,
        subtrees_done: 0,
        ended: Ended::Interrupted,
    }
}

/// The progress file's subtrees, when `options` names one that exists; refused when its cut is not `cut`.
fn earlier_progress(instance: &Instance, options: &Options, cut: &split::Cut) -> Result<Progress, Error> {
    let fresh =
        Progress { level: cut.level, subtrees: cut.prefixes.len(), above: cut.above, seconds: 0.0, done: Vec::new() };
    let Some(path) = options.resume.as_ref().filter(|p| p.exists()) else { return Ok(fresh) };
    let earlier = count_progress::read(path, instance)?;
    if (earlier.level, earlier.subtrees, earlier.above) != (fresh.level, fresh.subtrees, fresh.above) {
        return Err(Error::Field {
            path: path.clone(),
            field: "level".to_owned(),
            message: format!(
                "a cut at {} cells into {} subtrees, where this count cuts at {} into {}",
                earlier.level, earlier.subtrees, fresh.level, fresh.subtrees
            ),
        });
    }
    Ok(earlier)
}

/// What the threads share: the checker, the symmetries, the limit and the
/// progress; solutions and finished subtrees are rare, so a lock is cheap.
struct Tally<'a> {
    instance: &'a Instance,
    /// The board `instance` is a part of: the boards a found one stands for are checked against it.
    whole: &'a Instance,
    /// The tree the scan walks: its boards map back to `instance`'s.
    tree: &'a tree::Tree,
    options: &'a Options,
    symmetries: symmetry::Symmetries,
    run: &'a Stop,
    state: Mutex<State>,
    /// Raised when the limit was reached.
    enough: AtomicBool,
    /// The tree's estimated nodes, for the reports.
    estimated: f64,
}

/// The counts so far, guarded by the tally's lock.
struct State {
    progress: Progress,
    /// Solutions counted, finished subtrees or not (for the limit).
    solutions: u64,
    failed: Option<Error>,
}

impl<'a> Tally<'a> {
    fn new(
        instance: &'a Instance,
        whole: &'a Instance,
        tree: &'a tree::Tree,
        options: &'a Options,
        earlier: &Progress,
        run: &'a Stop,
    ) -> Tally<'a> {
        let solutions = earlier.done.iter().map(|s| s.solutions).sum();
        let state = State { progress: earlier.clone(), solutions, failed: None };
        Tally {
            instance,
            whole,
            tree,
            options,
            symmetries: symmetry::Symmetries::of(whole),
            run,
            state: Mutex::new(state),
            enough: AtomicBool::new(false),
            estimated: 0.0,
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Checks one full board of the tree and counts it, with its class when
    /// it stands for it: the boards and classes it adds, or `None` (the count
    /// ends) past the limit or on an error.
    fn solution(&self, board: &[Cand]) -> Option<split::Found> {
        let placements = self.tree.back(&plain::placements(board));
        let (boards, found, against) = if self.tree.one_per_class() {
            let images = self.symmetries.images(self.instance.grid, &placements);
            (images, split::Found { boards: self.symmetries.order() as u64, classes: 1 }, self.whole)
        } else {
            let least = self.symmetries.is_least(self.instance, &placements);
            (vec![placements], split::Found { boards: 1, classes: u64::from(least) }, self.instance)
        };
        let checked: Result<Vec<Board>, Error> = boards.into_iter().map(|b| self.checked(b, against)).collect();
        let mut state = self.lock();
        let boards = match checked {
            Ok(boards) => boards,
            Err(error) => {
                state.failed = Some(error);
                self.run.raise();
                return None;
            }
        };
        if self.options.limit.is_some_and(|k| state.solutions >= k) {
            return None;
        }
        state.solutions += found.boards;
        if self.options.limit.is_some_and(|k| state.solutions >= k) {
            self.enough.store(true, Ordering::Relaxed);
            self.run.raise();
        }
        drop(state);
        if let Err(error) = boards.iter().try_for_each(|b| self.save(b)) {
            self.lock().failed = Some(error);
            self.run.raise();
            return None;
        }
        Some(found)
    }

    /// The board of `placements`, once the checker has passed it as a solution of `against`.
    fn checked(&self, placements: Vec<Placement>, against: &Instance) -> Result<Board, Error> {
        let mut board = Board { grid: self.instance.grid, cells: placements.into_iter().map(Some).collect() };
        crate::fault::inject("count", Some(&mut board));
        let report = crate::check::check(against, &board);
        if report.is_solution() {
            Ok(board)
        } else {
            Err(Error::Rejected(format!("the count's board failed the checker: {report}")))
        }
    }

    /// Writes `board` to the save folder, if there is one, named by its
    /// placements' digest: a subtree counted again after a resume writes the
    /// same files again, never a second copy.
    fn save(&self, board: &Board) -> Result<(), Error> {
        let Some(dir) = &self.options.save else { return Ok(()) };
        let path = dir.join(format!("solution-{:016x}.json", digest(board)));
        crate::output::write_atomic(&path, board_json::to_string(board).as_bytes())
    }

    fn subtree_done(&self, subtree: Subtree) {
        self.lock().progress.done.push(subtree);
    }

    /// Runs `count`, writing the progress file and a report every [`REPORT_EVERY`] beside it.
    fn with_reports(&self, start: Instant, count: impl FnOnce() -> split::Partial) -> Result<split::Partial, Error> {
        let (over, wait) = std::sync::mpsc::channel::<()>();
        let partial = std::thread::scope(|scope| {
            scope.spawn(move || {
                while wait.recv_timeout(REPORT_EVERY) == Err(std::sync::mpsc::RecvTimeoutError::Timeout) {
                    self.report(start);
                }
            });
            let partial = count();
            drop(over);
            partial
        });
        if let Some(error) = self.lock().failed.take() {
            return Err(error);
        }
        self.write_progress(start)?;
        Ok(partial)
    }

    /// One report on stderr, and the progress file written.
    fn report(&self, start: Instant) {
        if self.options.progress {
            let state = self.lock();
            let p = &state.progress;
            let nodes: u64 = p.above + p.done.iter().map(|s| s.nodes).sum::<u64>();
            let seconds = p.seconds + start.elapsed().as_secs_f64();
            let share = nodes as f64 / self.estimated.max(1.0);
            // Knuth's estimate runs low on trees with heavy tails: past it, nothing is promised.
            let to_go = match share {
                s if s >= 1.0 => "the estimate is passed, so no time to go".to_owned(),
                s if s > 0.0 => format!("about {:.0} s to go", seconds * (1.0 / s - 1.0)),
                _ => "no time to go yet".to_owned(),
            };
            eprintln!(
                "count: {}/{} subtrees done ({:.1}% of the estimated tree; {to_go}), {} solution(s), {:.0} s",
                p.done.len(),
                p.subtrees,
                100.0 * share,
                state.solutions,
                seconds
            );
        }
        if let Err(error) = self.write_progress(start) {
            eprintln!("edgematch: the count's progress was not saved: {error}");
        }
    }

    fn write_progress(&self, start: Instant) -> Result<(), Error> {
        let Some(path) = &self.options.resume else { return Ok(()) };
        let mut progress = self.lock().progress.clone();
        progress.seconds += start.elapsed().as_secs_f64();
        count_progress::write(path, self.instance, &progress)
    }

    /// The figures: the subtrees counted whole (in this run and the ones it
    /// resumed), the cut's nodes, and what unfinished subtrees held.
    fn finish(&self, start: Instant, partial: split::Partial, stop: &Stop, deadline: Option<Instant>) -> Count {
        let state = self.lock();
        let p = &state.progress;
        let sum = |f: fn(&Subtree) -> u64| p.done.iter().map(f).sum::<u64>();
        let ended = if p.done.len() == p.subtrees {
            Ended::Complete
        } else if self.enough.load(Ordering::Relaxed) {
            Ended::Limit
        } else if stop.is_raised() || deadline.is_none_or(|d| Instant::now() < d) {
            Ended::Interrupted
        } else {
            Ended::TimeLimit
        };
        Count {
            solutions: sum(|s| s.solutions) + partial.solutions,
            unique: sum(|s| s.unique) + partial.unique,
            symmetries: self.symmetries.order(),
            nodes: p.above + sum(|s| s.nodes) + partial.nodes,
            seconds: p.seconds + start.elapsed().as_secs_f64(),
            tree: String::new(),
            engine: String::new(),
            estimated_nodes: self.estimated,
            subtrees: p.subtrees,
            subtrees_done: p.done.len(),
            ended,
        }
    }
}

/// FNV-1a over a full board's pieces and turns: the same board gives the same name on every machine.
fn digest(board: &Board) -> u64 {
    let bytes = board.cells.iter().flatten().flat_map(|p| [(p.piece >> 8) as u8, p.piece as u8, p.rotation.turns()]);
    bytes.fold(0xcbf2_9ce4_8422_2325, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A planted board without clues counts its own solution's four turns
    /// (at least), one class for them, the same on the plain tree and on the
    /// one with a corner fixed; a limit of one stops the plain tree at one
    /// board and the other at its first class: catches a count that loses
    /// the planted board, a class counted short, or a count run past its limit.
    #[test]
    fn a_planted_board_counts_its_own_solution_and_a_limit_stops_it() {
        let planted = crate::generate::planted(&crate::generate::PlantedSpec::square(4, 2, 3, 3)).unwrap();
        let instance = Instance { clues: Vec::new(), ..planted.instance };
        let all = count(&instance, &Options::default(), &Stop::new()).unwrap();
        assert!(all.tree.contains("corner piece"), "{all:?}");
        assert_eq!(all.ended, Ended::Complete);
        assert!(all.solutions >= 4 && all.unique >= 1 && all.solutions == 4 * all.unique, "{all:?}");
        let plain = Options { plain: true, ..Options::default() };
        let same = count(&instance, &plain, &Stop::new()).unwrap();
        assert_eq!((same.solutions, same.unique), (all.solutions, all.unique));
        let one = count(&instance, &Options { limit: Some(1), ..plain }, &Stop::new()).unwrap();
        assert_eq!((one.solutions, one.ended), (1, Ended::Limit));
        let class = count(&instance, &Options { limit: Some(1), ..Options::default() }, &Stop::new()).unwrap();
        assert_eq!((class.solutions, class.unique, class.ended), (4, 1, Ended::Limit));
    }

    /// A board with no solution (one piece shows a colour no other has) counts 0, completely.
    #[test]
    fn a_board_without_solution_counts_zero() {
        let spec = crate::generate::PlantedSpec::square(6, 2, 4, 3);
        let instance = crate::generate::forced_mismatch(&spec).unwrap().unwrap();
        let none = count(&instance, &Options::default(), &Stop::new()).unwrap();
        assert_eq!((none.solutions, none.unique, none.ended), (0, 0, Ended::Complete));
    }
}
