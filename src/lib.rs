//! edgematch: constraint models of edge-matching puzzles (Eternity II and
//! boards of its kind), solved with OR-Tools CP-SAT through a C++ bridge, a
//! native complete search, CaDiCaL and HiGHS, and an independent checker for
//! every answer.
//!
//! # A tour
//!
//! Load an instance, solve it, and let the checker accept the board:
//!
//! ```
//! use std::path::Path;
//!
//! use edgematch::formats::load::{self, InstanceOptions};
//! use edgematch::solver::{Limits, Solver, SolverKind, Status, accept};
//! use edgematch::stop::Stop;
//!
//! // A planted 10×10 board with 5 frame and 17 interior colours, shipped in models/.
//! let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("models/planted-10x10-f5i17-s1.json");
//! let instance = load::instance(&path, &InstanceOptions::default())?.instance;
//!
//! // The native complete search, two threads, at most a minute; a Stop can end it early.
//! let limits = Limits { time_limit: Some(60.0), threads: 2, ..Limits::default() };
//! let outcome = Solver::new(SolverKind::Search).solve(&instance, &limits, &Stop::new())?;
//!
//! // A solver's board is a claim until the checker, which shares no code with
//! // the solvers, accepts it.
//! let accepted = accept(&instance, outcome.status, outcome.board.as_ref())?;
//! assert_eq!(outcome.status, Status::Solved);
//! assert!(accepted.solved);
//! assert_eq!(accepted.score, instance.grid.max_score()); // every inner join matched
//! # Ok::<(), edgematch::Error>(())
//! ```
//!
//! The same instance through CP-SAT's table model, with its own options:
//!
//! ```
//! # use std::path::Path;
//! # use edgematch::formats::load::{self, InstanceOptions};
//! # use edgematch::stop::Stop;
//! use edgematch::cpsat::{self, model::Formulation};
//! use edgematch::solver::{Limits, Solver, accept};
//!
//! # let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("models/planted-10x10-f5i17-s1.json");
//! # let instance = load::instance(&path, &InstanceOptions::default())?.instance;
//! let solver = Solver::Cpsat(cpsat::Options { formulation: Formulation::Table, ..cpsat::Options::default() });
//! let limits = Limits { time_limit: Some(120.0), threads: 2, ..Limits::default() };
//! let outcome = solver.solve(&instance, &limits, &Stop::new())?;
//! assert!(accept(&instance, outcome.status, outcome.board.as_ref())?.solved);
//! # Ok::<(), edgematch::Error>(())
//! ```
//!
//! # The layers
//!
//! The flow is one-directional: files ([`formats`]) → [`puzzle::Instance`] →
//! a solver → [`puzzle::Board`] → [`check`] → report. From the bottom up:
//! - the puzzle core ([`puzzle`], with [`puzzle::placements`]) and the
//!   independent checker ([`check`]), which reads only the core;
//! - readers and writers ([`formats`]), planted boards ([`generate`]);
//! - [`outcome`], the vocabulary every solver shares (limits, status, the
//!   answer and its acceptance);
//! - the solvers, each on its own: [`cpsat`], [`sat`], [`search`], [`dfs`],
//!   [`mip`], the [`score`] search (the best board where no solution is in
//!   reach, reading the search's fill orders), the [`portfolio`] that races any
//!   of them, and [`improve`], CP-SAT's exact repair of a board's regions;
//! - [`count`], every solution of a board, each checked, with its nodes;
//! - [`solver`], the dispatcher that names them, states their thread rules,
//!   chooses the portfolio's arms and composes them;
//! - analysis and benches above: [`flux`], [`encodings`], [`oracle`],
//!   [`cubes`], [`bench`](mod@bench); the command line is the binary's, over this library.
//!
//! `docs/ARCHITECTURE.md` draws the layers; a test fails on any import
//! circle between the files of `src/`.

pub mod bench;
pub mod best_file;
pub mod check;
pub mod count;
pub mod cpsat;
pub mod cpu;
pub mod crew;
pub mod cubes;
pub mod dfs;
pub mod encodings;
pub mod error;
pub mod fault;
pub mod flux;
pub mod formats;
pub mod generate;
pub mod improve;
pub mod input;
pub mod interrupt;
mod kernel;
pub mod live;
pub mod memory;
pub mod mip;
pub mod oracle;
pub mod outcome;
pub mod output;
pub mod pin;
pub mod portfolio;
pub mod puzzle;
pub mod render;
pub mod rng;
pub mod sat;
pub mod score;
pub mod score_run;
pub mod search;
pub mod solver;
pub mod stop;
pub mod verdict;
#[cfg(feature = "watch")]
pub mod watch;

pub use error::{Error, Result};
