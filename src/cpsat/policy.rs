//! The size policy of CP-SAT models: how large a model edgematch builds, decided from the instance before anything is allocated.
//!
//! A policy, not a safety check: the bridge's checks are in `validate.rs`.

use super::model::Formulation;
use crate::error::Error;
use crate::puzzle::{Instance, Side};

/// The most constants (table values, element expressions, Boolean terms) a
/// model may hold: 32 Mi. Building and serializing a model costs about 60 bytes
/// per constant (the 32×32 element model: 16.8 M constants, 1.0 GB peak), so
/// about 2 GB at the limit; the 64×64 boards would need 8 to 13 times more and
/// are refused before anything is allocated (`results/model-build-64.md`).
pub const MAX_MODEL_VALUES: u64 = 32 << 20;

/// The constants the model of `instance` would hold in `formulation`, counted
/// from the instance alone, before anything is built: the table formulation's
/// rows (piece, rotation and each inner side per fitting placement); the
/// element formulation's four side tables of 4 × pieces expressions per cell;
/// for the Boolean formulation an upper bound, the terms each fitting
/// placement's literal has (cell, piece, piece id, rotation and one per inner
/// side; its class pruning only removes placements).
pub fn model_values(instance: &Instance, formulation: Formulation) -> u64 {
    let grid = instance.grid;
    let per_placement = |extra: u64| {
        let inner = |cell| Side::ALL.iter().filter(|&&s| !grid.is_rim_side(cell, s)).count() as u64;
        let per_cell = crate::puzzle::placements::per_cell(instance);
        per_cell.iter().enumerate().map(|(cell, &count)| count * (extra + inner(cell))).sum()
    };
    match formulation {
        Formulation::Element => grid.cells() as u64 * 4 * 4 * instance.pieces.len() as u64,
        Formulation::Table => per_placement(2),
        Formulation::Boolean => per_placement(4),
    }
}

/// Refuses, before it is built, a model larger than [`MAX_MODEL_VALUES`].
pub fn model_size(instance: &Instance, formulation: Formulation) -> Result<(), Error> {
    match model_values(instance, formulation) {
        values if values > MAX_MODEL_VALUES => Err(Error::Options(format!(
            "the {} model of this {} board would hold {values} constants, more than the {MAX_MODEL_VALUES} \
             edgematch builds (about 2 GB); use --solver search, sat or dfs",
            formulation.name(),
            instance.grid
        ))),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cpsat::model::build;
    use crate::cpsat::proto::constraint_proto::Constraint;
    use crate::generate::{PlantedSpec, planted};

    #[test]
    fn model_sizes_are_counted_before_building() {
        let instance = planted(&PlantedSpec::square(6, 3, 6, 1)).unwrap().instance;
        for formulation in [Formulation::Table, Formulation::Element] {
            let built = build(&instance, formulation).proto;
            let actual: usize = built
                .constraints
                .iter()
                .map(|c| match &c.constraint {
                    Some(Constraint::Table(t)) => t.values.len(),
                    Some(Constraint::Element(e)) => e.exprs.len(),
                    _ => 0,
                })
                .sum();
            assert_eq!(model_values(&instance, formulation), actual as u64, "{formulation:?}");
        }
        let big = planted(&PlantedSpec::square(64, 5, 17, 1)).unwrap().instance;
        for formulation in [Formulation::Table, Formulation::Element, Formulation::Boolean] {
            let message = model_size(&big, formulation).unwrap_err().to_string();
            assert!(message.contains("64×64") || message.contains("64x64"), "{message}");
        }
        model_size(&planted(&PlantedSpec::square(32, 5, 17, 1)).unwrap().instance, Formulation::Table).unwrap();
    }
}
