//! `solve --objective score`: its flags, and the lines it prints of a run (the run itself is the library's `score_run`).

use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::Result;
use clap::Args;
use edgematch::puzzle::Instance;
use edgematch::score::{self, Schedule};
use edgematch::score_run::{self, Heartbeat, Resumed, Run, Sink, Verified};
use edgematch::solver::{Limits, Outcome, Solver, Stats};
use edgematch::stop::Stop;

/// Flags of the score objective.
#[derive(Args)]
#[command(next_help_heading = "Score options (--objective score)")]
pub(crate) struct ScoreArgs {
    /// Stop once a board scores at least this many matched joins (default: a full solution).
    #[arg(long, value_name = "SCORE")]
    target: Option<usize>,
    /// The break schedule: `band[:B]` (the default: B breaks over the band's
    /// break span, or from where the exact walk stops short of it; with
    /// `+pinned`, e.g. `band:12+pinned`, one break more from each cell past
    /// the span that a clue pins on a third side; not pinned by default),
    /// `ramp:UNLOCK[:BUDGET]` (no break before UNLOCK of the free cells are
    /// placed, then linear up to BUDGET breaks by the last cell, one per four
    /// cells without BUDGET) or `DEPTH:BREAKS,...` (the breaks allowed in all
    /// from each depth on).
    #[arg(long, value_name = "SCHEDULE")]
    breaks: Option<Schedule>,
    /// Placements per attempt before a restart with reshuffled candidates
    /// (default 250000000, the published 5 × 10⁸ loop turns).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    attempt_nodes: Option<u64>,
    /// The fill order (a name such as `band-sw`, `band-sw-s3` or `row-scan`).
    /// Default: the band order from the bottom-left corner, its rows below the
    /// band in strips up to a clue in the 2nd-4th row (the `plan:` line names it).
    #[arg(long, value_name = "ORDER")]
    fill_order: Option<edgematch::search::Order>,
    /// The colour quota of the scan walk: `auto[:F+I]` (the default, auto:1+2: pilot walks
    /// choose among the most concentrated sets of F frame and I interior colours and no
    /// quota), `concentrated[:F+I]`, `rarest[:F+I]`, `commonest[:F+I]`, `none`, or colour
    /// numbers `C,C,...`; optionally `@X:Y,...`, the curve's points (fraction of the
    /// order, fraction of the colours' sides; default the published curve).
    #[arg(long, value_name = "QUOTA")]
    quota: Option<score::Quota>,
    /// CP-SAT completes the scan walk's partial boards: those reaching a new depth of
    /// their attempt within CELLS free cells of the end, and every one within EVERY,
    /// SECONDS each at most: `[ENGINE:]CELLS[:EVERY[:SECONDS]]`, or `none`; ENGINE is
    /// `cpsat` (the default) or `native` (the native branch and bound). Default: read from the
    /// measured table for the board's size (results/score/completion-times.json; the
    /// `plan:` line names it).
    #[arg(long, value_name = "COMPLETION")]
    completion: Option<score::Completion>,
    /// CP-SAT completion workers beside the walks, each on a thread of its own,
    /// fixed (default: one for every two walks to start, then every 30 s as
    /// many as the run's figures ask, up to one per walk: the `split:` line
    /// says why; the `completions:` line counts what they did).
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u32).range(1..=4096))]
    completers: Option<u32>,
    /// Append one JSON line per new best board here: {"seconds", "score"}.
    #[arg(long, value_name = "FILE")]
    trace: Option<PathBuf>,
    /// Keep the run's state in this file (its best board, seconds, seed, plan
    /// and the walks' attempt counts), written whole at each new best and
    /// every --checkpoint-every seconds; a run given an existing checkpoint
    /// resumes it: from the better board of it and --out, with its seed and
    /// plan (no pilot walks), attempts it never walked, and the time left.
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
    /// Seconds between two heartbeat lines on stderr (placements/s per walk,
    /// attempts, the deepest depth, completions done/queued/dropped, the
    /// best), also shown on the --watch page; 0: none (default 60).
    #[arg(long, value_name = "S", value_parser = super::args::seconds_or_zero)]
    heartbeat: Option<f64>,
}

impl ScoreArgs {
    /// The flags given, by name.
    pub(crate) fn given(&self) -> Vec<&'static str> {
        super::args::given_flags(&[
            ("--target", self.target.is_some()),
            ("--breaks", self.breaks.is_some()),
            ("--attempt-nodes", self.attempt_nodes.is_some()),
            ("--fill-order", self.fill_order.is_some()),
            ("--quota", self.quota.is_some()),
            ("--completion", self.completion.is_some()),
            ("--completers", self.completers.is_some()),
            ("--trace", self.trace.is_some()),
            // Before --checkpoint, which it needs: a refusal names the flag the user added last.
            ("--checkpoint-every", self.checkpoint_every.is_some()),
            ("--checkpoint", self.checkpoint.is_some()),
            ("--save-from", self.save_from.is_some()),
            ("--save-boards", self.save_boards.is_some()),
            ("--heartbeat", self.heartbeat.is_some()),
        ])
    }

    /// The score search's options (checked against the instance when the run opens).
    fn options(&self) -> score::Options {
        score::Options {
            quota: self.quota.clone().unwrap_or_default(),
            completion: self.completion,
            order: self.fill_order,
            schedule: self.breaks.clone().unwrap_or_default(),
            target: self.target,
            attempt_nodes: self.attempt_nodes,
            save: self.save_boards.clone().map(|dir| score::Save { dir, from: self.save_from }),
            completers: self.completers.map(|k| k as usize),
            ..score::Options::default()
        }
    }

    /// The run's files and clocks.
    fn setup(&self, out: Option<&Path>) -> score_run::Setup {
        let heartbeat = self.heartbeat.unwrap_or(score_run::HEARTBEAT_EVERY);
        score_run::Setup {
            out: out.map(Path::to_owned),
            checkpoint: self.checkpoint.clone(),
            checkpoint_every: Duration::from_secs_f64(self.checkpoint_every.unwrap_or(score_run::CHECKPOINT_EVERY)),
            trace: self.trace.clone(),
            heartbeat: (heartbeat > 0.0).then(|| Duration::from_secs_f64(heartbeat)),
        }
    }
}

/// What `solve` prints of a score run: stdout for what a user reads back
/// (resumed, plan, each best), stderr for the heartbeat and the warnings.
struct Printed<'a> {
    instance: &'a Instance,
}

impl Sink for Printed<'_> {
    fn resumed(&self, resumed: &Resumed) {
        let max = self.instance.grid.max_score();
        match resumed.score {
            Some(score) => print!("resumed: {} scores {score}/{max}", resumed.from.display()),
            None => print!("resumed: {} holds no board yet", resumed.from.display()),
        }
        print!(" after {:.3} s", resumed.seconds);
        match resumed.generation {
            Some(generation) => print!(" (segment {generation} of the run: its seed, plan and attempts go on)"),
            None => print!(" (no run state: its seeds start afresh)"),
        }
        match resumed.left {
            Some(left) => println!("; {left:.3} s of the time limit left"),
            None => println!(),
        }
    }

    fn plan(&self, plan: &str) {
        println!("plan: {plan}");
    }

    fn split(&self, split: &str) {
        println!("split: {split}");
    }

    fn best(&self, best: &Verified<'_>) {
        if let Some(error) = &best.unwritten {
            eprintln!("edgematch: {error}");
        }
        println!("best: {}/{} after {:.3} s", best.score, self.instance.grid.max_score(), best.seconds);
    }

    fn heartbeat(&self, beat: &Heartbeat) {
        eprintln!("{beat}");
    }

    fn warning(&self, message: &str) {
        eprintln!("edgematch: {message}");
    }
}

/// Runs `solver` for the best board through the library's score run, printing
/// as it goes: each new best is checked, written whole to `out` and the
/// checkpoint, appended to the trace and printed; a checkpoint given resumes
/// the run. A board the checker rejects ends the run with
/// [`edgematch::Error::Rejected`].
pub(crate) fn solve(
    args: &ScoreArgs,
    solver: &Solver,
    instance: &Instance,
    limits: &Limits,
    stop: &Stop,
    out: Option<&Path>,
) -> Result<Outcome> {
    let run = Run::open(instance, solver, args.options(), limits, args.setup(out))?;
    let outcome = run.solve(stop, &Printed { instance })?;
    if let Stats::Score(stats) = &outcome.stats
        && let Some(why) = &stats.completion_failed
    {
        eprintln!("edgematch: the walk had no full board and CP-SAT's completion of one failed ({why})");
    }
    Ok(outcome)
}
