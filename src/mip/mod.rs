//! The MIP arm: the generic placement MIP, solved by HiGHS branch and bound.
//!
//! Binaries `x[cell, piece, rot]` for every placement the rim allows (see
//! [`Instance::rim_fits`]; clues leave one), with one row per cell and one per
//! piece summing to 1. For each inner join and each colour both sides can show,
//! a join variable `m[join, k]` in [0, 1] with `m ≤ Σ x showing k on one side`
//! and `m ≤ Σ x showing k on the other`; the objective maximizes `Σ m`, the
//! matched inner joins. It is the textbook formulation whose LP relaxation is
//! weak on these puzzles: the gap the cliff bench measures.

pub mod bridge;
pub mod policy;

use std::collections::BTreeMap;
use std::sync::mpsc;
use std::time::{Duration, Instant};

pub use self::bridge::MipEnv;
use self::bridge::{Incumbent, Incumbents, MipProblem};
use crate::error::Error;
use crate::outcome::{Limits, Outcome, Status};
use crate::puzzle::{Board, Instance, Placement, Side};
use crate::stop::Stop;

/// The MIP's own options; time and seed come from [`Limits`].
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Options {
    /// Show HiGHS' log.
    pub log: bool,
}

/// What HiGHS returned, with the size of the problem.
#[derive(Clone, Debug, PartialEq, Default, serde::Serialize)]
pub struct Stats {
    /// Columns (placement and join variables).
    pub columns: usize,
    /// Rows.
    pub rows: usize,
    /// Nonzeros of the matrix.
    pub nonzeros: usize,
    /// HiGHS' model status (7 optimal, 8 infeasible, 13 time limit, 17 interrupt).
    pub model_status: i32,
    /// Matched joins of the incumbent, if there is one.
    pub objective: Option<f64>,
    /// The best bound HiGHS proved.
    pub dual_bound: f64,
}

/// The MIP and what its columns stand for.
pub struct Model {
    /// The problem, column-wise.
    pub problem: MipProblem,
    /// (cell, placement) of each placement column; join columns follow.
    pub placements: Vec<(usize, Placement)>,
    /// (cell, side, colour) of each join column: the join from `cell` across
    /// `side`, matched in `colour`.
    pub joins: Vec<(usize, Side, u8)>,
}

/// Builds the placement MIP of `instance`.
pub fn build(instance: &Instance, options: &Options, limits: &Limits) -> Result<Model, Error> {
    policy::size(instance)?;
    let grid = instance.grid;
    let mut placements = Vec::new();
    // (cell, side, colour) -> placement columns showing that colour there.
    let mut showing: BTreeMap<(usize, usize, u8), Vec<usize>> = BTreeMap::new();
    for cell in 0..grid.cells() {
        for p in instance.rim_fits(cell) {
            let col = placements.len();
            for side in Side::ALL {
                if !grid.is_rim_side(cell, side) {
                    let colour = instance.pieces[p.piece].side(p.rotation, side);
                    showing.entry((cell, side.index(), colour)).or_default().push(col);
                }
            }
            placements.push((cell, p));
        }
    }
    let mut columns: Vec<Vec<(i32, f64)>> = vec![Vec::new(); placements.len()];
    let mut row_lower = Vec::new();
    let mut row_upper = Vec::new();
    let mut add_row = |entries: &[(usize, f64)], lower: f64, upper: f64, columns: &mut Vec<Vec<(i32, f64)>>| {
        let row = row_lower.len() as i32;
        for &(col, value) in entries {
            columns[col].push((row, value));
        }
        row_lower.push(lower);
        row_upper.push(upper);
    };
    // Each cell holds one placement; each piece is placed once.
    let mut by_piece = vec![Vec::new(); instance.pieces.len()];
    let mut by_cell = vec![Vec::new(); grid.cells()];
    for (col, &(cell, p)) in placements.iter().enumerate() {
        by_cell[cell].push((col, 1.0));
        by_piece[p.piece].push((col, 1.0));
    }
    for entries in by_cell.iter().chain(&by_piece) {
        add_row(entries, 1.0, 1.0, &mut columns);
    }
    // Join variables: m ≤ Σ x on each side.
    let mut joins = Vec::new();
    for (cell, side) in grid.joins() {
        let other = grid.neighbour(cell, side).expect("inner join");
        let colours = showing.range((cell, side.index(), 0)..=(cell, side.index(), u8::MAX));
        for (&(_, _, colour), here) in colours {
            let Some(there) = showing.get(&(other, side.opposite().index(), colour)) else { continue };
            let m = columns.len();
            columns.push(Vec::new());
            joins.push((cell, side, colour));
            for side_cols in [here, there] {
                let mut entries: Vec<(usize, f64)> = side_cols.iter().map(|&c| (c, -1.0)).collect();
                entries.push((m, 1.0));
                add_row(&entries, f64::NEG_INFINITY, 0.0, &mut columns);
            }
        }
    }
    let n = columns.len();
    let (a_start, a_index, a_value) = compressed(&columns);
    let placement_cols = placements.len();
    let problem = MipProblem {
        col_cost: (0..n).map(|c| if c < placement_cols { 0.0 } else { 1.0 }).collect(),
        col_lower: vec![0.0; n],
        col_upper: vec![1.0; n],
        integrality: (0..n).map(|c| i32::from(c < placement_cols)).collect(),
        row_lower,
        row_upper,
        a_start,
        a_index,
        a_value,
        start: Vec::new(),
        objective_floor: f64::NEG_INFINITY,
        time_limit: limits.time_limit.unwrap_or(0.0),
        seed: limits.seed_i32()?,
        log: options.log,
    };
    debug_assert_eq!(n, placement_cols + joins.len());
    Ok(Model { problem, placements, joins })
}

/// The columns' entries in HiGHS' compressed column form: starts, rows, values.
fn compressed(columns: &[Vec<(i32, f64)>]) -> (Vec<i32>, Vec<i32>, Vec<f64>) {
    let mut a_start = Vec::with_capacity(columns.len() + 1);
    let mut a_index = Vec::new();
    let mut a_value = Vec::new();
    for column in columns {
        a_start.push(a_index.len() as i32);
        for &(row, value) in column {
            a_index.push(row);
            a_value.push(value);
        }
    }
    a_start.push(a_index.len() as i32);
    (a_start, a_index, a_value)
}

/// HiGHS model statuses used here.
const OPTIMAL: i32 = 7;
const INFEASIBLE: i32 = 8;
const INTERRUPTED: i32 = 17;

impl Model {
    /// Starts the MIP from the full `board` (a resumed run's): its placement
    /// (with its matched joins) as HiGHS' start, and its score as a floor on
    /// the objective. Returns false, changing nothing, when a placement of the
    /// board has no column (a board that breaks the rim or a clue).
    pub fn start_from(&mut self, instance: &Instance, board: &Board) -> bool {
        let mut start = vec![0.0; self.problem.col_cost.len()];
        for (col, &(cell, p)) in self.placements.iter().enumerate() {
            start[col] = f64::from(u8::from(board.cells[cell] == Some(p)));
        }
        if start.iter().sum::<f64>() as usize != instance.grid.cells() {
            return false;
        }
        let shows =
            |cell: usize, side: Side| board.cells[cell].map(|p| instance.pieces[p.piece].side(p.rotation, side));
        for (k, &(cell, side, colour)) in self.joins.iter().enumerate() {
            let other = instance.grid.neighbour(cell, side).expect("inner join");
            let matched = shows(cell, side) == Some(colour) && shows(other, side.opposite()) == Some(colour);
            start[self.placements.len() + k] = f64::from(u8::from(matched));
        }
        self.problem.start = start;
        self.problem.objective_floor = board.score(instance) as f64;
        true
    }
}

/// The board whose placement columns (`placements`, as in [`Model`]) are set above one half in `col_value`.
fn decode(instance: &Instance, placements: &[(usize, Placement)], col_value: &[f64]) -> Board {
    let mut board = Board::empty(instance.grid);
    for (col, &(cell, p)) in placements.iter().enumerate() {
        if col_value.get(col).is_some_and(|&v| v > 0.5) {
            board.cells[cell] = Some(p);
        }
    }
    board
}

/// Builds and solves the MIP. The board is HiGHS' incumbent (a full board,
/// maybe with mismatched joins): check it before trusting it.
///
/// # Errors
/// A MIP over the size policy, or HiGHS' failure.
pub fn solve(instance: &Instance, options: &Options, limits: &Limits, stop: &Stop) -> Result<Outcome<Stats>, Error> {
    solve_from(instance, options, (limits, stop), None, &mut |_, _, _| {})
}

/// [`solve`] from `incumbent` when given (a resumed run's full board): it is
/// HiGHS' start and its score a floor on the objective
/// ([`Model::start_from`]), so no worse board comes back. Each improving
/// incumbent HiGHS finds goes to `on_best` (board, its score, seconds since
/// the start) as HiGHS reports it.
///
/// # Errors
/// As [`solve`].
pub fn solve_from(
    instance: &Instance,
    options: &Options,
    (limits, stop): (&Limits, &Stop),
    incumbent: Option<&Board>,
    on_best: &mut dyn FnMut(&Board, usize, f64),
) -> Result<Outcome<Stats>, Error> {
    let start = Instant::now();
    let mut model = build(instance, options, limits)?;
    let started = incumbent.is_some_and(|board| model.start_from(instance, board));
    let env = MipEnv::new();
    let _hook = stop.on_raise({
        let env = env.clone();
        move || env.stop()
    });
    let (columns, rows, nonzeros) =
        (model.problem.col_cost.len(), model.problem.row_lower.len(), model.problem.a_index.len());
    // HiGHS counts its limit from its own start: give it what building left.
    let deadline = limits.time_limit.map(|t| start + Duration::from_secs_f64(t));
    if let Some(deadline) = deadline {
        model.problem.time_limit = deadline.saturating_duration_since(Instant::now()).as_secs_f64().max(0.01);
    }
    let mut floor = started.then_some(model.problem.objective_floor as usize);
    let Model { problem, placements, .. } = model;
    let mut offer = |found: Incumbent| {
        let board = decode(instance, &placements, &found.col_value);
        let score = board.score(instance);
        if board.placed() == instance.grid.cells() && floor.is_none_or(|f| score > f) {
            floor = Some(score);
            on_best(&board, score, start.elapsed().as_secs_f64());
        }
    };
    let result = {
        let _watchdog = deadline.map(|d| Watchdog::start(&env, d + Duration::from_millis(500)));
        solve_or_abandon(&env, problem, (stop, deadline), &mut offer)?
    };
    let seconds = start.elapsed().as_secs_f64();
    let Some(result) = result else {
        let status = if stop.is_raised() { Status::Interrupted } else { Status::Unknown };
        let stats = Stats { columns, rows, nonzeros, model_status: INTERRUPTED, objective: None, dual_bound: f64::NAN };
        return Ok(Outcome { status, board: None, seconds, stats });
    };
    let board = result.has_solution.then(|| decode(instance, &placements, &result.col_value));
    let max = instance.grid.max_score() as f64;
    let status = match result.model_status {
        _ if result.has_solution && result.objective > max - 0.5 => Status::Solved,
        // Proved optimal below the maximum, or no assignment at all: no
        // solution exists (with a floor, none at least as good as the start,
        // and the start is one: HiGHS then keeps it, so has_solution holds).
        OPTIMAL | INFEASIBLE => Status::Infeasible,
        INTERRUPTED if stop.is_raised() => Status::Interrupted,
        _ => Status::Unknown,
    };
    let stats = Stats {
        columns,
        rows,
        nonzeros,
        model_status: result.model_status,
        objective: result.has_solution.then_some(result.objective),
        dual_bound: result.dual_bound,
    };
    Ok(Outcome { status, board, seconds, stats })
}

/// How long HiGHS may take to return after a stop or its deadline before it is abandoned.
pub const ABANDON_AFTER: Duration = Duration::from_secs(1);

/// What the HiGHS thread sends: improving incumbents while it runs, then its answer.
enum Message {
    Incumbent(Incumbent),
    Done(Result<bridge::MipResult, Error>),
}

/// Runs HiGHS on its own thread and waits for it, handing each improving
/// incumbent to `offer` on this thread as it arrives. Returns `None` when HiGHS
/// did not return within [`ABANDON_AFTER`] of `stop` being raised or of the
/// deadline: HiGHS runs no interrupt callback inside the MIP's root LP (minutes
/// on a 16×16 board) and may overrun its own limit there, so it is then left to
/// finish on its thread (its own time limit ends it; a stopped process ends it
/// sooner) while the caller gets its answer on time.
fn solve_or_abandon(
    env: &MipEnv,
    problem: MipProblem,
    (stop, deadline): (&Stop, Option<Instant>),
    offer: &mut dyn FnMut(Incumbent),
) -> Result<Option<bridge::MipResult>, Error> {
    let (tx, rx) = mpsc::channel();
    let solver_env = env.clone();
    // Incumbents reach this thread through the answer's channel, before the answer.
    let relay = tx.clone();
    let incumbents = Incumbents::new(move |found| drop(relay.send(Message::Incumbent(found))));
    let _detached = std::thread::Builder::new()
        .name("highs".to_owned())
        .spawn(move || {
            let result = solver_env.solve(&problem, &incumbents);
            let _ = tx.send(Message::Done(result));
        })
        .map_err(|e| Error::Bridge(format!("cannot start the HiGHS thread: {e}")))?;
    let mut stopped_at: Option<Instant> = None;
    loop {
        match rx.recv_timeout(Duration::from_millis(50)) {
            Ok(Message::Incumbent(incumbent)) => offer(incumbent),
            Ok(Message::Done(result)) => return result.map(Some),
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                return Err(Error::Bridge("the HiGHS thread ended without an answer".to_owned()));
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {
                let now = Instant::now();
                let stopped = stop.is_raised() && now - *stopped_at.get_or_insert(now) >= ABANDON_AFTER;
                if stopped || deadline.is_some_and(|d| now >= d + ABANDON_AFTER) {
                    env.stop();
                    return Ok(None);
                }
            }
        }
    }
}

/// A thread that stops HiGHS through its interrupt callbacks at an instant (half a
/// second after the deadline), should HiGHS overlook its own limit in branch and
/// bound; dropping it ends the thread.
struct Watchdog {
    done: Option<mpsc::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Watchdog {
    fn start(env: &MipEnv, at: Instant) -> Watchdog {
        let (done, wait) = mpsc::channel::<()>();
        let env = env.clone();
        let after = at.saturating_duration_since(Instant::now());
        let thread = std::thread::spawn(move || {
            if let Err(mpsc::RecvTimeoutError::Timeout) = wait.recv_timeout(after) {
                env.stop();
            }
        });
        Watchdog { done: Some(done), thread: Some(thread) }
    }
}

impl Drop for Watchdog {
    fn drop(&mut self) {
        drop(self.done.take());
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}
