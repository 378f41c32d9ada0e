//! edgematch: constraint models of edge-matching puzzles (Eternity II and
//! boards of its kind), solved with OR-Tools CP-SAT through a C++ bridge, and
//! an independent checker for every answer.
//!
//! The flow is one-directional: files ([`formats`]) → [`puzzle::Instance`] →
//! a solver ([`cpsat`], [`dfs`], [`mip`]) → [`puzzle::Board`] → [`check`] → report.

pub mod bench;
pub mod check;
pub mod cpsat;
pub mod cubes;
pub mod dfs;
pub mod encodings;
pub mod error;
pub mod fault;
pub mod flux;
pub mod formats;
pub mod generate;
pub mod input;
pub mod interrupt;
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
pub mod search;
pub mod solver;
pub mod stop;
pub mod verdict;

pub use error::{Error, Result};
