//! A second count of a small board's solutions, by CaDiCaL on the SAT encoding: solve, rule the board found out, solve again until none is left.
//!
//! It shares nothing with the row scan but the instance and the checker, so
//! where the two agree neither has lost or doubled a solution. It places a
//! piece once per distinct look, as the count does: a turn that shows the
//! same colours as an earlier turn of the same piece is ruled out up front.

use crate::error::Error;
use crate::puzzle::{Instance, Placement, Rotation};
use crate::sat::encode::{EncodeOptions, encode, var_number};

/// The solutions of `instance`, each passed by the checker, found by
/// CaDiCaL one after another; more than `most` is an error (the witness is
/// for boards small enough to hold them all).
///
/// # Errors
/// A board the checker rejects (a bug), or more than `most` solutions.
pub fn count_by_sat(instance: &Instance, most: u64) -> Result<u64, Error> {
    let encoding = encode(instance, &EncodeOptions::default());
    let mut sat: cadical::Solver = cadical::Solver::new();
    for clause in encoding.cnf.clauses() {
        sat.add_clause(clause.iter().copied());
    }
    for (i, &(_, placement)) in encoding.placements.iter().enumerate() {
        if !first_look(instance, placement) {
            sat.add_clause([-var_number(i)]);
        }
    }
    let mut found = 0;
    while sat.solve() == Some(true) {
        let board = encoding.decode(|v| sat.value(v) == Some(true));
        let report = crate::check::check(instance, &board);
        if !report.is_solution() {
            return Err(Error::Rejected(format!("the SAT witness's board failed the checker: {report}")));
        }
        found += 1;
        if found > most {
            return Err(Error::Options(format!("more than {most} solutions: too many for the SAT witness")));
        }
        let chosen = (0..encoding.placements.len()).map(var_number).filter(|&v| sat.value(v) == Some(true));
        let block: Vec<i32> = chosen.map(|v| -v).collect();
        sat.add_clause(block);
    }
    Ok(found)
}

/// True when no earlier turn of the piece shows the colours `placement` shows.
fn first_look(instance: &Instance, placement: Placement) -> bool {
    let piece = instance.pieces[placement.piece];
    let shown = piece.rotated(placement.rotation);
    Rotation::ALL.iter().take_while(|&&r| r != placement.rotation).all(|&r| piece.rotated(r) != shown)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::count::{Options, count};
    use crate::stop::Stop;

    /// The row scan and CaDiCaL count the same solutions on planted boards
    /// of 4×4 to 6×6 with few colours (so they have many solutions: 8 and
    /// 1,040 without their clues, 1 to 4,020 with them): catches a solution
    /// either one loses or counts twice.
    #[test]
    fn the_scan_and_cadical_count_alike() {
        // (side, frame colours, interior colours, seed, clues kept)
        let boards =
            [(4, 2, 3, 1, false), (5, 2, 4, 2, false), (4, 2, 3, 1, true), (5, 2, 4, 2, true), (6, 2, 4, 4, true)];
        for (side, frame, interior, seed, clued) in boards {
            let spec = crate::generate::PlantedSpec::square(side, frame, interior, seed);
            let planted = crate::generate::planted(&spec).unwrap();
            let clues = if clued { planted.instance.clues.clone() } else { Vec::new() };
            let instance = Instance { clues, ..planted.instance };
            let scan = count(&instance, &Options { threads: 2, ..Options::default() }, &Stop::new()).unwrap();
            let sat = count_by_sat(&instance, 100_000).unwrap();
            assert_eq!(scan.solutions, sat, "{}, {} clues", spec.name(), instance.clues.len());
            assert!(scan.solutions >= 1, "the planted board is one");
        }
    }
}
