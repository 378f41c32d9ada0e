//! Running the cubes of a split on this machine: worker threads take cubes
//! from one queue, the first verified board stops them all.
//!
//! A cube that ends without a board or a proof (its limit, a stop) is
//! `unknown` or `interrupted`, never refuted: the instance is reported
//! infeasible only when every cube was refuted.

use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use super::split::Split;
use crate::check::check;
use crate::cpu;
use crate::error::Error;
use crate::puzzle::{Board, Instance};
use crate::solver::{self, Limits, Solver, Status};
use crate::stop::Stop;

/// How one cube's run ended.
#[derive(Clone, Debug, PartialEq)]
pub struct CubeRun {
    /// How the solve ended.
    pub status: Status,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// CPU seconds of the worker thread.
    pub cpu_seconds: f64,
}

/// What [`solve`] returns.
#[derive(Clone, Debug)]
pub struct Summary {
    /// `Solved` (a board verified against the original instance), `Infeasible`
    /// (every cube refuted), `Interrupted` (stopped from outside) or `Unknown`.
    pub status: Status,
    /// The verified board, when solved.
    pub board: Option<Board>,
    /// The cube (0-based) whose run found the board.
    pub cube: Option<usize>,
    /// Each cube's run; `None` for a cube never started.
    pub runs: Vec<Option<CubeRun>>,
    /// Wall-clock seconds of the whole run.
    pub seconds: f64,
    /// CPU seconds of the whole process during the run.
    pub cpu_seconds: f64,
}

/// Runs every cube of `split` with `solver` within `limits` (per cube; its
/// threads are the threads of each cube's solve) on `workers` threads, until a
/// board is verified against `instance` itself, every cube has ended, or `stop`
/// is raised. With `progress`, a line on stderr as each cube ends. A board
/// the checker rejects is an error ([`Error::Rejected`]).
pub fn solve(
    instance: &Instance,
    split: &Split,
    solver: &Solver,
    limits: &Limits,
    workers: usize,
    progress: bool,
    stop: &Stop,
) -> Result<Summary, Error> {
    let start = Instant::now();
    let cpu_start = cpu::process_seconds();
    let next = AtomicUsize::new(0);
    let found = stop.child();
    let runs: Mutex<Vec<Option<CubeRun>>> = Mutex::new(vec![None; split.cubes.len()]);
    let winner: Mutex<Option<(usize, Board)>> = Mutex::new(None);
    let work = || -> Result<(), Error> {
        loop {
            let i = next.fetch_add(1, Ordering::SeqCst);
            if i >= split.cubes.len() || found.is_raised() {
                return Ok(());
            }
            let sub = split.sub_instance(instance, i);
            let (cpu0, t0) = (cpu::thread_seconds(), Instant::now());
            let outcome = solver.solve(&sub, limits, &found.child())?;
            solver::accept(&sub, outcome.status, outcome.board.as_ref())?;
            let mut status = outcome.status;
            if status == Status::Solved {
                let board = outcome.board.clone().ok_or_else(|| Error::Rejected("solved without a board".into()))?;
                let report = check(instance, &board);
                if !report.is_solution() {
                    return Err(Error::Rejected(format!(
                        "cube {}: the board fails the original instance: {report}",
                        i + 1
                    )));
                }
                let mut winner = winner.lock().unwrap_or_else(|e| e.into_inner());
                if winner.is_none() {
                    *winner = Some((i, board));
                }
                found.raise();
            } else if found.is_raised() && status != Status::Infeasible {
                status = Status::Interrupted;
            }
            let run =
                CubeRun { status, seconds: t0.elapsed().as_secs_f64(), cpu_seconds: cpu::thread_seconds() - cpu0 };
            if progress {
                eprintln!("cube {}/{}: {} in {:.2} s", i + 1, split.cubes.len(), run.status, run.seconds);
            }
            runs.lock().unwrap_or_else(|e| e.into_inner())[i] = Some(run);
        }
    };
    let results: Vec<Result<(), Error>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..workers.max(1)).map(|_| scope.spawn(work)).collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|_| Err(Error::Options("a cube worker panicked".into()))))
            .collect()
    });
    if let Some(error) = results.into_iter().find_map(Result::err) {
        return Err(error);
    }
    let runs = runs.into_inner().unwrap_or_else(|e| e.into_inner());
    let winner = winner.into_inner().unwrap_or_else(|e| e.into_inner());
    let all_refuted = runs.iter().all(|r| r.as_ref().is_some_and(|r| r.status == Status::Infeasible));
    let status = match &winner {
        Some(_) => Status::Solved,
        None if all_refuted => Status::Infeasible,
        None if stop.is_raised() => Status::Interrupted,
        None => Status::Unknown,
    };
    let (cube, board) = winner.unzip();
    Ok(Summary {
        status,
        board,
        cube,
        runs,
        seconds: start.elapsed().as_secs_f64(),
        cpu_seconds: cpu::process_seconds() - cpu_start,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::{PlantedSpec, planted};
    use crate::solver::SolverKind;

    #[test]
    fn a_planted_board_is_solved_and_a_broken_one_refuted_through_its_cubes() {
        let instance = planted(&PlantedSpec::square(5, 2, 3, 2)).unwrap().instance;
        let split = super::super::split::split(&instance, "row-scan".parse().unwrap(), 6).unwrap();
        let limits = Limits { threads: 1, ..Limits::default() };
        let solver = Solver::new(SolverKind::Search);
        let answer = solve(&instance, &split, &solver, &limits, 2, false, &Stop::new()).unwrap();
        assert_eq!(answer.status, Status::Solved);
        assert!(check(&instance, answer.board.as_ref().unwrap()).is_solution());

        // An interior piece with one side recoloured to a colour no other
        // piece shows: no board can match it.
        let mut broken = instance.clone();
        let inner = broken.pieces.iter().position(|p| p.grey_sides() == 0).unwrap();
        broken.pieces[inner].0[0] = 200;
        broken.clues.retain(|c| c.placement.piece != inner);
        let split = super::super::split::split(&broken, "row-scan".parse().unwrap(), 6).unwrap();
        let answer = solve(&broken, &split, &solver, &limits, 2, false, &Stop::new()).unwrap();
        assert_eq!(answer.status, Status::Infeasible);
        assert!(answer.runs.iter().all(|r| r.as_ref().unwrap().status == Status::Infeasible));
    }
}
