//! Cube and conquer: one hard board cut into sub-instances (cubes) that
//! together hold every solution exactly once, solved apart (on local cores or
//! as a cluster's array job) and collected, every board verified against the
//! original instance.
//!
//! - `split.rs`: the cover (prefixes of a fill order) and why it is exact;
//! - `balance.rs`: the heaviest cubes, by the estimator, cut again;
//! - `file.rs`: the cube files and the manifest, each embedding the original instance;
//! - `result.rs`: the per-cube result file that `solve` writes on a cube;
//! - `collect.rs`: a folder's verdict: a verified board, refuted, or open;
//! - `count_file.rs`: a cube's count (`edgematch count` on a cube file), and a folder's counts summed;
//! - `local.rs`: the cubes over this machine's cores.

pub mod balance;
pub mod collect;
pub mod count_file;
pub mod file;
pub mod local;
pub mod result;
pub mod split;

pub use balance::{Balanced, Target, balance};
pub use file::{Cube, CubeSet};
pub use split::{MAX_CUBES, Split, split};
