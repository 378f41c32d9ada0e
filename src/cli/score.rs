//! `solve --objective score`: its flags, and what each new best board does (printed, checked, written, traced).

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

use anyhow::{Result, bail};
use clap::Args;
use edgematch::best_file::{BestFiles, Offered};
use edgematch::formats::checkpoint::{self, Checkpoint};
use edgematch::puzzle::{Board, Instance};
use edgematch::score::{self, Schedule};
use edgematch::solver::{Limits, Outcome, Solver, Stats};
use edgematch::stop::Stop;

/// Flags of the score objective.
#[derive(Args)]
#[command(next_help_heading = "Score options (--objective score)")]
pub(crate) struct ScoreArgs {
    /// Stop once a board scores at least this many matched joins (default: a full solution).
    #[arg(long, value_name = "SCORE")]
    target: Option<usize>,
    /// The break schedule: `band[:B]` (the scan walk's default: B breaks over the
    /// band's break span, or from where the exact walk stops short of it),
    /// `ramp:UNLOCK[:BUDGET]` (no break before UNLOCK of the free cells are
    /// placed, then linear up to BUDGET breaks by the last cell; without BUDGET,
    /// one below the best board's; the budget walk's default is ramp:0.78) or
    /// `DEPTH:BREAKS,...` (the breaks allowed from each depth on).
    #[arg(long, value_name = "SCHEDULE")]
    breaks: Option<Schedule>,
    /// Placements per attempt before a restart with reshuffled candidates.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    attempt_nodes: Option<u64>,
    /// The fill order (a name such as `band-sw`, `band-sw-s3` or `row-scan`). Default for the
    /// scan walk: the band order from the bottom-left corner, its rows below the band in
    /// strips up to a clue in the 2nd-4th row (the `plan:` line names it); for the budget
    /// walk: the one whose exact tree the estimator finds smallest.
    #[arg(long, value_name = "ORDER")]
    fill_order: Option<edgematch::search::Order>,
    /// Do not prune with the colour counts (the bound that keeps the endgame tileable; --walk budget).
    #[arg(long)]
    no_tileable: bool,
    /// The walk: `scan` (the field's method: sorted lists, a colour quota, the band's
    /// breaks, long attempts) or `budget` (the break-budget walk with a tileability bound).
    #[arg(long, value_enum, value_name = "WALK")]
    walk: Option<score::Walk>,
    /// The colour quota of the scan walk: `auto[:F+I]` (the default, auto:1+2: pilot walks
    /// choose among the most concentrated sets of F frame and I interior colours and no
    /// quota), `concentrated[:F+I]`, `rarest[:F+I]`, `commonest[:F+I]`, `none`, or colour
    /// numbers `C,C,...`; optionally `@X:Y,...`, the curve's points (fraction of the
    /// order, fraction of the colours' sides; default the published curve).
    #[arg(long, value_name = "QUOTA")]
    quota: Option<score::Quota>,
    /// CP-SAT completes the scan walk's partial boards: those reaching a new depth of
    /// their attempt within CELLS free cells of the end, and every one within EVERY,
    /// SECONDS each at most: `CELLS[:EVERY[:SECONDS]]`, or `none`. Default: read from the
    /// measured table for the board's size (results/score/completion-times.json; the
    /// `plan:` line names it).
    #[arg(long, value_name = "COMPLETION")]
    completion: Option<score::Completion>,
    /// Append one JSON line per new best board here: {"seconds", "score"}.
    #[arg(long, value_name = "FILE")]
    trace: Option<PathBuf>,
    /// Keep the run's state (its best board and seconds) in this file, written
    /// whole at each new best and every --checkpoint-every seconds; a run given
    /// an existing checkpoint resumes from its best board.
    #[arg(long, value_name = "FILE")]
    checkpoint: Option<PathBuf>,
    /// Seconds between two checkpoints (default 60).
    #[arg(long, value_name = "S", requires = "checkpoint", value_parser = super::args::seconds)]
    checkpoint_every: Option<f64>,
    /// Save every distinct full board the checker passes into this folder, one
    /// board JSON file each (named by score and digest, with its e2.bucas.name
    /// link), from --save-from up; the run's census of boards by score is
    /// printed either way.
    #[arg(long, value_name = "DIR")]
    save_boards: Option<PathBuf>,
    /// The lowest score --save-boards saves (default: within 4 joins of the best board at the time).
    #[arg(long, value_name = "SCORE", requires = "save_boards")]
    save_from: Option<usize>,
}

impl ScoreArgs {
    /// The flags given, by name.
    pub(crate) fn given(&self) -> Vec<&'static str> {
        super::args::given_flags(&[
            ("--target", self.target.is_some()),
            ("--breaks", self.breaks.is_some()),
            ("--attempt-nodes", self.attempt_nodes.is_some()),
            ("--fill-order", self.fill_order.is_some()),
            ("--no-tileable", self.no_tileable),
            ("--walk", self.walk.is_some()),
            ("--quota", self.quota.is_some()),
            ("--completion", self.completion.is_some()),
            ("--trace", self.trace.is_some()),
            // Before --checkpoint, which it needs: a refusal names the flag the user added last.
            ("--checkpoint-every", self.checkpoint_every.is_some()),
            ("--checkpoint", self.checkpoint.is_some()),
            ("--save-from", self.save_from.is_some()),
            ("--save-boards", self.save_boards.is_some()),
        ])
    }

    /// The walk these flags choose.
    pub(crate) fn walk(&self) -> score::Walk {
        self.walk.unwrap_or_default()
    }

    /// The score search's options, checked against `instance`.
    fn options(&self, instance: &Instance) -> Result<score::Options> {
        let options = score::Options {
            walk: self.walk.unwrap_or_default(),
            quota: self.quota.clone().unwrap_or_default(),
            completion: self.completion,
            order: self.fill_order,
            schedule: self.breaks.clone().unwrap_or_default(),
            target: self.target,
            attempt_nodes: self.attempt_nodes,
            tileable: !self.no_tileable,
            incumbent: None,
            save: self.save_boards.clone().map(|dir| score::Save { dir, from: self.save_from }),
        };
        if let Err(why) = options.check(instance) {
            bail!("{why}");
        }
        Ok(options)
    }
}

/// The scan walk's plan, settled by its pilot walks and printed before the
/// walks start: `options` with the plan given outright, and `limits` less
/// the pilot's seconds. Other walks and solvers settle nothing here.
fn settle(
    options: score::Options,
    solver: &Solver,
    instance: &Instance,
    limits: &Limits,
    stop: &Stop,
) -> Result<(score::Options, Limits)> {
    if options.walk != score::Walk::Scan || !matches!(solver, Solver::Search(_) | Solver::Auto(_)) {
        return Ok((options, *limits));
    }
    let start = Instant::now();
    let plan = score::plan::Plan::settle_for(instance, &options, limits, stop)
        .map_err(|e| anyhow::anyhow!("--fill-order: {e}"))?;
    println!("plan: {plan}");
    let spent = start.elapsed().as_secs_f64();
    let limits = Limits { time_limit: limits.time_limit.map(|t| (t - spent).max(0.01)), ..*limits };
    Ok((plan.fixed(&options), limits))
}

/// The checkpoint's board and seconds, if one is given and exists.
fn resumed(args: &ScoreArgs, instance: &Instance) -> Result<Option<Checkpoint>> {
    let Some(path) = args.checkpoint.as_deref().filter(|p| p.exists()) else { return Ok(None) };
    let resumed = checkpoint::read(path, instance)?;
    println!(
        "resumed: {} scores {}/{} after {:.3} s",
        path.display(),
        resumed.board.score(instance),
        instance.grid.max_score(),
        resumed.seconds
    );
    Ok(Some(resumed))
}

/// What a score run ends with.
pub(crate) struct Scored {
    /// The solver's outcome, its board the best the run saw (a resumed board included).
    pub(crate) outcome: Outcome,
    /// Why the checker rejected a board the solver offered as a new best, if it did (the run then ended).
    pub(crate) rejected: Option<String>,
}

/// What each new best board goes through: the checker, the files, the page, stdout and the trace.
struct Bests<'a> {
    args: &'a ScoreArgs,
    instance: &'a Instance,
    files: BestFiles<'a>,
    /// Seconds between the start of the files' clock and the solver's.
    offset: f64,
    rejected: Mutex<Option<String>>,
    run: &'a Stop,
}

impl Bests<'_> {
    /// Offers `best` to the files: a board the checker rejects ends the run;
    /// a board it scores above every earlier one is shown with that score.
    fn offer(&self, best: &score::Best) {
        let score = match self.files.offer(&best.board) {
            Err(error) => {
                *self.rejected.lock().unwrap_or_else(PoisonError::into_inner) = Some(error.to_string());
                self.run.raise();
                return;
            }
            Ok(Offered::NotBetter(_)) => return,
            Ok(Offered::Better { score, unwritten }) => {
                if let Some(error) = unwritten {
                    eprintln!("edgematch: {error}");
                }
                score
            }
        };
        let seconds = self.offset + best.seconds;
        println!("best: {score}/{} after {seconds:.3} s", self.instance.grid.max_score());
        if let Some(path) = &self.args.trace {
            let line = serde_json::json!({ "seconds": (seconds * 1000.0).round() / 1000.0, "score": score });
            let appended = std::fs::OpenOptions::new()
                .append(true)
                .open(path)
                .and_then(|mut f| f.write_all(format!("{line}\n").as_bytes()));
            if let Err(e) = appended {
                eprintln!("edgematch: {}: {e}", path.display());
            }
        }
    }

    /// Saves the checkpoint every `every` until `finished` is raised.
    fn save_every(&self, every: Duration, finished: &AtomicBool) {
        let mut next = Instant::now() + every;
        while !finished.load(Ordering::Relaxed) {
            std::thread::sleep(Duration::from_millis(50));
            if Instant::now() >= next {
                next += every;
                if let Err(e) = self.files.save() {
                    eprintln!("edgematch: {e}");
                }
            }
        }
    }
}

/// Runs `solver` for the best board: each new best is checked, printed with
/// the checker's score and its time, written whole to `out` and the
/// checkpoint (through one owner that never writes a worse board than they
/// hold), appended to the trace and shown on the page, so an interrupted or
/// killed run leaves its best verified board behind; a checkpoint given
/// resumes from its board. A board the checker rejects ends the run (`rejected`).
pub(crate) fn solve(
    args: &ScoreArgs,
    solver: &Solver,
    instance: &Instance,
    limits: &Limits,
    stop: &Stop,
    out: Option<&Path>,
) -> Result<Scored> {
    let resumed = resumed(args, instance)?;
    let before = resumed.as_ref().map_or(0.0, |r| r.seconds);
    let files = BestFiles::open(instance, out, args.checkpoint.as_deref(), before);
    let mut options = args.options(instance)?;
    if let Some(resumed) = resumed {
        // The resumed board is the run's incumbent, and --out holds it from the start.
        if let Ok(Offered::Better { unwritten: Some(error), .. }) = files.offer(&resumed.board) {
            eprintln!("edgematch: {error}");
        }
        options.incumbent = Some(resumed.board);
    }
    if let Some(trace) = &args.trace {
        // Created (or kept) up front, so a bad path fails before the run.
        std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(trace)
            .map_err(|source| edgematch::Error::Io { path: trace.clone(), source })?;
    }
    let run = stop.child();
    let settling = Instant::now();
    let (options, limits) = settle(options, solver, instance, limits, &run)?;
    let settled = settling.elapsed().as_secs_f64();
    let bests = Bests { args, instance, files, offset: before + settled, rejected: Mutex::new(None), run: &run };
    let every = Duration::from_secs_f64(args.checkpoint_every.unwrap_or(60.0));
    let finished = AtomicBool::new(false);
    let outcome = std::thread::scope(|scope| {
        if args.checkpoint.is_some() {
            let _ = scope.spawn(|| bests.save_every(every, &finished));
        }
        let outcome = solver.solve_score(instance, &options, &limits, &run, &|best| bests.offer(best));
        finished.store(true, Ordering::Relaxed);
        outcome
    })?;
    Ok(finish(bests, outcome, settled, options.incumbent))
}

/// The run's end: the seconds of settling counted, the best board of the
/// run (the solver's, or the incumbent when the solver ended with a worse
/// one) offered once more and kept, the checkpoint saved.
fn finish(bests: Bests<'_>, mut outcome: Outcome, settled: f64, incumbent: Option<Board>) -> Scored {
    outcome.seconds += settled;
    if let Stats::Score(stats) = &mut outcome.stats {
        stats.best_seconds = stats.best_seconds.map(|t| t + settled);
        if let Some(why) = &stats.repair_failed {
            eprintln!("edgematch: CP-SAT's repair failed ({why}); the walk's best board is kept");
        }
    }
    if let Some(board) = &outcome.board
        && board.placed() == board.cells.len()
    {
        bests.offer(&score::Best { board: board.clone(), score: 0, seconds: outcome.seconds - settled });
    }
    let score = |b: &Board| b.score(bests.instance);
    if let Some(incumbent) = incumbent
        && outcome.board.as_ref().is_none_or(|b| score(b) < score(&incumbent))
    {
        outcome.board = Some(incumbent);
    }
    if let Err(e) = bests.files.save() {
        eprintln!("edgematch: {e}");
    }
    Scored { outcome, rejected: bests.rejected.into_inner().unwrap_or_else(PoisonError::into_inner) }
}
