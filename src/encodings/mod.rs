//! Encodings of an instance for other solvers (CNF, XCC, LP), their sizes, and their charts.
//!
//! The CNF encoders live with the SAT backend ([`crate::sat::encode`](mod@crate::sat::encode) for the
//! seam encoding, [`crate::sat::direct`] for the direct one, [`crate::sat::dimacs`]
//! for the files); this module adds the other formats and the size report. All
//! exports share one placement table ([`crate::puzzle::placements::table`]),
//! so a placement has the same meaning in every file.

pub mod chart;
pub mod explorer;
pub mod lp;
pub mod sizes;
pub mod xcc;
