//! Benchmarks whose records go to `results/`: each run solved, verified and timed, with its provenance.

pub mod chart;
pub mod cliff;
pub mod compare;
pub mod completion;
pub mod count_speed;
pub mod dfs_speed;
pub mod external;
pub mod reach;
pub mod records;
pub mod reference;
pub mod replay;
pub mod report;
pub mod runs;
pub mod score;
pub mod score_record;
pub mod score_report;
pub mod score_speed;
pub mod search_speed;
pub mod spine;
pub mod threads;
pub mod variants;

pub use dfs_speed::dfs_speed;
pub use records::Provenance;
pub use spine::{SpineConfig, spine};
