//! The dispatcher: every solver behind one interface, an instance, limits and a stop handle in, one [`Outcome`] out.
//!
//! It sits above the backends (`cpsat`, `sat`, `search`, `dfs`, `mip`) and the
//! portfolio, which know nothing of it: each returns its own typed counters,
//! wrapped here in [`Stats`]. It names them ([`SolverKind`], with the list of
//! those that score, [`SolverKind::SCORING`]), states each one's thread rule
//! ([`SolverKind::threads`]) and chooses the portfolio's arms ([`default_arms`]).
//! Beside it, `compose` runs solvers one after another (the native search's
//! board as CP-SAT's hint; CP-SAT completing a board when the score walk has none) and
//! `describe` holds what `solve` prints of a solver and its counters. Adding a
//! solver: see the checklist in `docs/ARCHITECTURE.md`.

use serde::{Deserialize, Serialize};

use crate::error::Error;
pub use crate::outcome::{Accepted, Limits, Status, accept};
use crate::portfolio::{self, Answer, Arm, Entrant};
use crate::puzzle::{Board, Instance};
use crate::stop::Stop;
use crate::{cpsat, dfs, mip, sat, score, search};

mod compose;
mod describe;
mod kind;

pub use compose::{EXACT_SECONDS, EXACT_SHARE, SEARCH_SHARE};
pub use kind::{Outcome, SolverKind, Stats};

/// What a solve looks for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum Objective {
    /// A full solution, or a proof that there is none.
    #[default]
    Full,
    /// The best full board by matched inner joins, where no solution is in reach.
    Score,
}

/// A solver with its own options.
#[derive(Clone, Debug, PartialEq)]
pub enum Solver {
    /// CP-SAT.
    Cpsat(cpsat::Options),
    /// The DFS baseline.
    Dfs(dfs::Options),
    /// The placement MIP.
    Mip(mip::Options),
    /// CaDiCaL on the seam encoding.
    Sat(sat::Options),
    /// The native search (its time, node limit, seed and threads come from [`Limits`]).
    Search(search::Options),
    /// The portfolio.
    Auto(portfolio::Options<Solver>),
}

impl Solver {
    /// The solver of this kind with its default options.
    pub fn new(kind: SolverKind) -> Solver {
        match kind {
            SolverKind::Cpsat => Solver::Cpsat(cpsat::Options::default()),
            SolverKind::Dfs => Solver::Dfs(dfs::Options::default()),
            SolverKind::Mip => Solver::Mip(mip::Options::default()),
            SolverKind::Sat => Solver::Sat(sat::Options::default()),
            SolverKind::Search => Solver::Search(search::Options::default()),
            SolverKind::Auto => Solver::Auto(portfolio::Options::default()),
        }
    }

    /// Which solver this is.
    pub fn kind(&self) -> SolverKind {
        match self {
            Solver::Cpsat(_) => SolverKind::Cpsat,
            Solver::Dfs(_) => SolverKind::Dfs,
            Solver::Mip(_) => SolverKind::Mip,
            Solver::Sat(_) => SolverKind::Sat,
            Solver::Search(_) => SolverKind::Search,
            Solver::Auto(_) => SolverKind::Auto,
        }
    }

    /// Solves `instance` within `limits` until done or `stop` is raised. The
    /// board in the outcome is the solver's claim: [`accept`] it.
    ///
    /// # Errors
    /// A model too large for its solver, options it refuses, or a bridge's failure.
    pub fn solve(&self, instance: &Instance, limits: &Limits, stop: &Stop) -> Result<Outcome, Error> {
        let mut outcome = self.solve_unchecked(instance, limits, stop)?;
        crate::fault::inject(self.kind().name(), outcome.board.as_mut());
        Ok(outcome)
    }

    fn solve_unchecked(&self, instance: &Instance, limits: &Limits, stop: &Stop) -> Result<Outcome, Error> {
        match self {
            Solver::Cpsat(options) => compose::cpsat_after_search(instance, options, limits, stop),
            Solver::Dfs(options) => Ok(dfs::solve(instance, options, limits, stop).map_stats(Stats::Dfs)),
            Solver::Mip(options) => Ok(mip::solve(instance, options, limits, stop)?.map_stats(Stats::Mip)),
            Solver::Sat(options) => Ok(sat::solve(instance, options, limits, stop)?.map_stats(Stats::Sat)),
            Solver::Search(options) => Ok(search::solve(instance, options, limits, stop).map_stats(Stats::Search)),
            Solver::Auto(options) => {
                let arms = if options.arms.is_empty() {
                    default_arms(instance, limits.threads.max(2))
                } else {
                    options.arms.clone()
                };
                Ok(portfolio::race(instance, &arms, options.progress, limits, stop)?.map_stats(Stats::Auto))
            }
        }
    }

    /// Looks for the best full board by matched joins within `limits`, handing
    /// `events` each board that beats the earlier ones (the native search's
    /// checked already; CP-SAT's and the MIP's still to be checked by the
    /// caller, as [`crate::score_run`] does) and the search's plan and counters. The native
    /// search (`search`, and `auto`) runs the scan walk, its breaks allowed by depth under a
    /// [`score::Schedule`], with CP-SAT completing its deep partial boards ([`score`]); CP-SAT
    /// ([`cpsat::maximize::maximize_from`], in time slices) and the MIP ([`mip::solve_from`],
    /// through HiGHS' incumbent callback) maximize the matched joins of the whole board. All
    /// three start from `options.incumbent` (a resumed run's board) and return nothing worse.
    ///
    /// # Errors
    /// A solver with no score mode (`dfs`, `sat`), or the solver's own error.
    pub fn solve_score(
        &self,
        instance: &Instance,
        options: &score::Options,
        limits: &Limits,
        stop: &Stop,
        events: &dyn score::Events,
    ) -> Result<Outcome, Error> {
        let mut outcome = match self {
            Solver::Search(_) => {
                compose::score_search(instance, options, limits, stop, &compose::injected("search", events))?
                    .map_stats(Stats::Score)
            }
            Solver::Auto(_) => {
                compose::score_or_complete(instance, options, limits, stop, events)?.map_stats(Stats::Score)
            }
            Solver::Cpsat(_) => {
                let report = compose::injected("cpsat", events);
                let mut found = |board: &Board, score: usize, seconds: f64| {
                    score::Events::best(&report, &score::Best { board: board.clone(), score, seconds });
                };
                let incumbent = options.incumbent.as_ref();
                cpsat::maximize::maximize_from(instance, incumbent, limits, stop, &mut found)?.map_stats(Stats::Cpsat)
            }
            Solver::Mip(mip_options) => {
                let report = compose::injected("mip", events);
                let mut found = |board: &Board, score: usize, seconds: f64| {
                    score::Events::best(&report, &score::Best { board: board.clone(), score, seconds });
                };
                let incumbent = options.incumbent.as_ref();
                mip::solve_from(instance, mip_options, (limits, stop), incumbent, &mut found)?.map_stats(Stats::Mip)
            }
            Solver::Dfs(_) | Solver::Sat(_) => {
                let scoring: Vec<&str> = SolverKind::SCORING.iter().map(|k| k.name()).collect();
                return Err(Error::Options(format!(
                    "--objective score: --solver {} has no score mode; use {}",
                    self.kind(),
                    scoring.join(", ")
                )));
            }
        };
        crate::fault::inject(self.kind().name(), outcome.board.as_mut());
        Ok(outcome)
    }
}

/// Boards with at most this many interior colours go to CDCL SAT.
pub const FEW_COLOURS: usize = 10;

/// The portfolio's arms for `instance` on `cores` cores, chosen by its interior colours
/// (measured: see the README's "Reach" section and `results/reach/`):
/// - few colours (at most [`FEW_COLOURS`], Heule's and Brendan's boards):
///   CaDiCaL on the seam encoding beside the native search, one core each;
///   SAT solves Heule's eight in under 0.3 s where the search or CP-SAT may
///   need seconds or fail;
/// - many colours (the planted 5+17 and 5+26 boards): the native search on
///   every core, its threads sharing the tree of the order with the smallest
///   estimate; it solves 12×12 5+17 and 15×15 5+26 boards in
///   about a second where CP-SAT and SAT need minutes or fail.
pub fn default_arms(instance: &Instance, cores: u32) -> Vec<Arm<Solver>> {
    let (_, interior) = instance.colour_classes();
    let arm = |kind: SolverKind, cores: u32| Arm { solver: Solver::new(kind), threads: kind.threads(cores) };
    if interior <= FEW_COLOURS && cores >= 2 {
        vec![arm(SolverKind::Sat, 1), arm(SolverKind::Search, cores - 1)]
    } else if interior <= FEW_COLOURS {
        vec![arm(SolverKind::Sat, 1)]
    } else {
        vec![arm(SolverKind::Search, cores)]
    }
}

impl Entrant for Solver {
    fn name(&self) -> &'static str {
        self.kind().name()
    }

    fn enter(&self, instance: &Instance, limits: &Limits, stop: &Stop) -> Result<Answer, Error> {
        let outcome = self.solve(instance, limits, stop)?;
        Ok(Answer { status: outcome.status, board: outcome.board, seconds: outcome.seconds })
    }
}

/// Solves and accepts in one call: what every bench does for each run.
///
/// # Errors
/// The solver's error, or the checker's rejection of its board.
pub fn solve_accepted(
    solver: &Solver,
    instance: &Instance,
    limits: &Limits,
    stop: &Stop,
) -> Result<(Outcome, Accepted), Error> {
    let running = crate::live::begin(&format!("{} on a {} board", solver.kind(), instance.grid), instance);
    let outcome = solver.solve(instance, limits, stop)?;
    let accepted = accept(instance, outcome.status, outcome.board.as_ref())?;
    running.end(&outcome.status.to_string());
    Ok((outcome, accepted))
}

#[cfg(test)]
mod tests {
    use clap::ValueEnum as _;
    use strum::VariantArray as _;

    use super::*;

    /// The name `strum` gives (records, tables, `Display`) is the one clap
    /// parses on the command line and serde writes: catches a variant renamed
    /// in one table and not the others, which would leave `--solver NAME`
    /// unable to read back a runs file's arm.
    #[test]
    fn a_solvers_name_is_the_same_in_every_table() {
        for &kind in SolverKind::VARIANTS {
            assert_eq!(kind.to_possible_value().unwrap().get_name(), kind.name());
            assert_eq!(serde_json::to_value(kind).unwrap(), kind.name());
            assert_eq!(kind.to_string(), kind.name());
        }
    }

    /// Every solver outside [`SolverKind::SCORING`] refuses the score objective
    /// with an error naming the ones that score: catches a solver added to the
    /// list without a score mode, or one dropped from the message.
    #[test]
    fn solvers_without_a_score_mode_name_those_with_one() {
        let instance = crate::generate::planted(&crate::generate::PlantedSpec::square(4, 2, 4, 1)).unwrap().instance;
        for &kind in SolverKind::VARIANTS.iter().filter(|k| !k.scores()) {
            let error = Solver::new(kind)
                .solve_score(
                    &instance,
                    &score::Options::default(),
                    &Limits::default(),
                    &Stop::new(),
                    &|_: &score::Best| {},
                )
                .unwrap_err()
                .to_string();
            assert!(SolverKind::SCORING.iter().all(|k| error.contains(k.name())), "{error}");
        }
    }
}
