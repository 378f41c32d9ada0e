//! CP-SAT models of an instance, as `CpModelProto`s.
//!
//! Two formulations share the piece and rotation variables of every cell
//! (`piece[c]` all different, `rot[c]` in 0..=3) and differ in how colours
//! are tied to them.
//!
//! **Element** (the structured model), per cell `c`:
//! - `piece[c]` over the piece ids, all different across cells;
//! - `rot[c]` in 0..=3;
//! - `index[c] = 4·piece[c] + rot[c]` (a linear equality);
//! - `side[c][s] = table_s[index[c]]` for s in N, E, S, W, four Element
//!   constraints over constant tables (`linear_index`, `linear_target`, `exprs`);
//! - `side[c][s] = side[c'][s']` across each inner join, with domain 1..=max
//!   (non-grey); rim sides have the domain {0};
//! - clues fix `piece` and `rot`.
//!
//! Domains are pre-filtered with facts any solution obeys: a cell's index only
//! ranges over (piece, rotation) pairs that show grey exactly on its rim sides.
//!
//! **Table** (the faster variant): one colour variable per inner join, shared
//! by the two cells it separates (domain 1..=max, so never grey), and per cell
//! one Table constraint over (piece, rot, colours of its inner sides) whose
//! rows are the (piece, rotation) pairs that show grey exactly on the cell's
//! rim sides. The table propagates the four sides together, where four
//! Elements propagate each side alone.
//!
//! A third, the Boolean placement model, is in `boolean.rs`. Each formulation is
//! one file; `builder.rs` holds what they share.
//!
//! None has an objective: this is a decision problem.

mod boolean;
mod builder;
mod element;
mod region;
mod table;

pub use boolean::boolean;
pub use builder::{CellVars, Derived, Model, domain_of};
pub use element::element;
pub use region::{RegionModel, region};
pub use table::table;

use crate::puzzle::Instance;

/// Which formulation to build.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, clap::ValueEnum)]
pub enum Formulation {
    /// Index = 4·piece + rotation, four Element constraints per cell.
    Element,
    /// One Table constraint per cell over piece, rotation and join colours.
    #[default]
    Table,
    /// Boolean placement and seam-colour literals with linear channelling.
    Boolean,
}

impl Formulation {
    /// The name used on the command line and in reports.
    pub fn name(self) -> &'static str {
        match self {
            Formulation::Element => "element",
            Formulation::Table => "table",
            Formulation::Boolean => "boolean",
        }
    }
}

/// Builds the model of `instance` in the given formulation.
pub fn build(instance: &Instance, formulation: Formulation) -> Model {
    match formulation {
        Formulation::Element => element(instance),
        Formulation::Table => table(instance),
        Formulation::Boolean => boolean(instance),
    }
}
