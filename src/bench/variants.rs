//! The CP-SAT variants `bench reach` can run as arms (`cpsat-boolean`, `cpsat-hint`, ...), each a fixed set of options.
//!
//! The plain `cpsat` arm is the table model with CP-SAT's defaults; each
//! variant changes one or two things, so a table of variants reads as a set of
//! ablations. Every variant measured stays here, the losers included.

use crate::cpsat::model::Formulation;
use crate::cpsat::tuning::{Param, Strategy};
use crate::cpsat::{self, proto::sat_parameters::SearchBranching};

/// A named CP-SAT configuration.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, strum::IntoStaticStr, strum::VariantArray)]
#[strum(serialize_all = "kebab-case", prefix = "cpsat-")]
pub enum CpsatVariant {
    /// The Element (structured) model.
    Element,
    /// The Boolean placement model.
    Boolean,
    /// The table model with the decision strategy grown from the clues.
    Clues,
    /// As `Clues`, with every worker on the fixed search.
    CluesFixed,
    /// The table model hinted with the native search's deepest board after 2 s.
    Hint,
    /// The Boolean model, hinted likewise.
    BooleanHint,
    /// The table model without linearization (`linearization_level=0`).
    Lin0,
    /// The table model with full linearization (`linearization_level=2`).
    Lin2,
    /// The table model without symmetry detection (`symmetry_level=0`).
    #[strum(serialize = "nosym")]
    NoSymmetry,
    /// The table model with quick restarts on every worker.
    QuickRestart,
}

impl CpsatVariant {
    /// Every variant, in the order of reports.
    pub const ALL: &'static [CpsatVariant] = <CpsatVariant as strum::VariantArray>::VARIANTS;

    /// The arm's name in runs files and tables.
    pub fn name(self) -> &'static str {
        self.into()
    }

    /// The variant named `name`, if there is one.
    pub fn from_name(name: &str) -> Option<CpsatVariant> {
        CpsatVariant::ALL.iter().copied().find(|v| v.name() == name)
    }

    /// Its CP-SAT options.
    pub fn options(self) -> cpsat::Options {
        let table = cpsat::Options::default();
        let boolean = cpsat::Options { formulation: Formulation::Boolean, ..cpsat::Options::default() };
        match self {
            CpsatVariant::Element => cpsat::Options { formulation: Formulation::Element, ..table },
            CpsatVariant::Boolean => boolean,
            CpsatVariant::Clues => cpsat::Options { strategy: Strategy::Clues, ..table },
            CpsatVariant::CluesFixed => cpsat::Options {
                strategy: Strategy::Clues,
                params: vec![Param::SearchBranching(SearchBranching::FixedSearch)],
                ..table
            },
            CpsatVariant::Hint => cpsat::Options { hint_seconds: Some(2.0), ..table },
            CpsatVariant::BooleanHint => cpsat::Options { hint_seconds: Some(2.0), ..boolean },
            CpsatVariant::Lin0 => cpsat::Options { params: vec![Param::LinearizationLevel(0)], ..table },
            CpsatVariant::Lin2 => cpsat::Options { params: vec![Param::LinearizationLevel(2)], ..table },
            CpsatVariant::NoSymmetry => cpsat::Options { params: vec![Param::SymmetryLevel(0)], ..table },
            CpsatVariant::QuickRestart => cpsat::Options {
                params: vec![Param::SearchBranching(SearchBranching::PortfolioWithQuickRestartSearch)],
                ..table
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_read_back() {
        for &v in CpsatVariant::ALL {
            assert_eq!(CpsatVariant::from_name(v.name()), Some(v));
            assert!(v.options() != cpsat::Options::default(), "{} differs from plain cpsat", v.name());
        }
    }

    /// The names the derive gives are the ones the committed runs files under
    /// `results/` carry: catches a renamed variant or a changed `strum` rule
    /// that would orphan every measured run of an arm.
    #[test]
    fn names_are_those_of_the_runs_files() {
        let names: Vec<&str> = CpsatVariant::ALL.iter().map(|v| v.name()).collect();
        assert_eq!(
            names,
            [
                "cpsat-element",
                "cpsat-boolean",
                "cpsat-clues",
                "cpsat-clues-fixed",
                "cpsat-hint",
                "cpsat-boolean-hint",
                "cpsat-lin0",
                "cpsat-lin2",
                "cpsat-nosym",
                "cpsat-quick-restart"
            ]
        );
    }
}
