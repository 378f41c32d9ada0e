//! How big each encoding is: the textbook formulas for an n×n board with c colours, and exact counts for an instance.
//!
//! The formulas (the same ones the HTML explorer evaluates in JavaScript):
//! - direct encoding: `4n⁴` placement variables `x[cell, piece, rot]` (n²
//!   cells × n² pieces × 4 rotations), exactly one per cell and per piece, and
//!   a binary clause per disagreeing pair of placements across each of the
//!   `2n(n−1)` inner seams: about `(4n²)²(1 − 1/c)` pairs per seam, the
//!   fraction `1/c` being the pairs that agree when colours are uniform;
//! - Heule's seam encoding: a colour variable per inner seam and colour,
//!   `2n(n−1)c`; at most one colour per seam, `c(c−1)/2` binary clauses a
//!   seam; each placement implies the colours it shows on its inner sides,
//!   one binary clause per placement and inner side, `4n²·4n(n−1)` in all.
//!
//! Exact counts build the encodings of an actual instance: class pruning (a
//! corner piece only in a corner, an edge piece only on the rim and only in the
//! rotation that turns its grey side out, then the seam fixpoint of
//! [`crate::sat::encode`](mod@crate::sat::encode)) keeps far fewer placements, and the conflicts are
//! the real disagreeing pairs.

use serde::Serialize;

use crate::puzzle::Instance;
use crate::sat::{self, Am1, EncodeOptions};

/// The board size reported as the practical ceiling of pure SAT encodings.
pub const SAT_CEILING: u64 = 10;

/// The formula sizes of both encodings for an n×n board with `colours` colours.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Estimate {
    /// Board side.
    pub n: u64,
    /// Colours c (the interior colours of the board).
    pub colours: u64,
    /// Inner joins: 2n(n−1).
    pub inner_joins: u64,
    /// Direct: placement variables, 4n⁴.
    pub placement_variables: u64,
    /// Direct: disagreeing pairs, 2n(n−1)·(4n²)²·(1 − 1/c).
    pub direct_conflict_clauses: f64,
    /// Seam: colour variables, 2n(n−1)·c.
    pub seam_variables: u64,
    /// Seam: at most one colour per seam, 2n(n−1)·c(c−1)/2.
    pub seam_exclusion_clauses: u64,
    /// Seam: placement ⇒ seam colour, 4n² placements × 4n(n−1) inner sides.
    pub seam_implication_clauses: u64,
}

impl Estimate {
    /// The formulas at side `n` and `colours` colours (at least 1).
    pub fn new(n: u64, colours: u64) -> Estimate {
        let colours = colours.max(1);
        let inner_joins = 2 * n * n.saturating_sub(1);
        let per_cell = 4 * n * n;
        Estimate {
            n,
            colours,
            inner_joins,
            placement_variables: per_cell * n * n,
            direct_conflict_clauses: inner_joins as f64 * (per_cell as f64).powi(2) * (1.0 - 1.0 / colours as f64),
            seam_variables: inner_joins * colours,
            seam_exclusion_clauses: inner_joins * colours * (colours - 1) / 2,
            seam_implication_clauses: per_cell * 2 * inner_joins,
        }
    }
}

/// Exact sizes of both encodings of one instance.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Exact {
    /// Board width.
    pub width: usize,
    /// Board height.
    pub height: usize,
    /// Pieces.
    pub pieces: usize,
    /// Clue cells.
    pub clues: usize,
    /// Frame colours (only on rim pieces).
    pub frame_colours: usize,
    /// Interior colours.
    pub interior_colours: usize,
    /// Every (cell, piece, rotation): cells × pieces × 4.
    pub all_placements: u64,
    /// Placements the rim and the clues allow (corner pieces in corners, edge
    /// pieces on the rim in their one rotation).
    pub rim_placements: u64,
    /// Placement variables after the seam fixpoint as well (the variables of both encodings).
    pub placement_variables: u64,
    /// Direct encoding: real disagreeing pairs across inner joins.
    pub direct_conflict_clauses: u64,
    /// Direct encoding: all variables with the ladder at-most-one.
    pub direct_variables: u64,
    /// Direct encoding: all clauses with the ladder at-most-one.
    pub direct_clauses: u64,
    /// Seam encoding: the sizes of the CNF the SAT backend solves.
    pub seam: sat::Sizes,
    /// Seam encoding: at most one colour per seam (pairwise).
    pub seam_exclusion_clauses: u64,
}

/// Counts both encodings of `instance` exactly.
pub fn exact(instance: &Instance) -> Exact {
    let grid = instance.grid;
    let rim_placements = (0..grid.cells()).map(|cell| instance.rim_fits(cell).len() as u64).sum();
    let direct = sat::direct::encode_direct(instance, Am1::Ladder);
    let seam = sat::encode(instance, &EncodeOptions::default());
    let mut per_join = vec![0u64; grid.cells() * 4];
    for &(cell, side, _) in &seam.seams {
        per_join[cell * 4 + side.index()] += 1;
    }
    let (frame_colours, interior_colours) = instance.colour_classes();
    Exact {
        width: grid.width,
        height: grid.height,
        pieces: instance.pieces.len(),
        clues: instance.clues.len(),
        frame_colours,
        interior_colours,
        all_placements: (grid.cells() * instance.pieces.len() * 4) as u64,
        rim_placements,
        placement_variables: direct.placements.len() as u64,
        direct_conflict_clauses: direct.conflict_count(),
        direct_variables: u64::from(direct.variables()),
        direct_clauses: direct.clause_count(),
        seam: seam.sizes(),
        seam_exclusion_clauses: per_join.iter().map(|&k| k * k.saturating_sub(1) / 2).sum(),
    }
}

/// `1234567` as `1,234,567`.
pub fn thousands(x: u64) -> String {
    let digits = x.to_string();
    let mut out = String::new();
    for (i, d) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(d);
    }
    out
}

/// A large count both ways: `473,709,628 (4.7e8)`.
pub fn approx(x: f64) -> String {
    if x < 1e6 { thousands(x.round() as u64) } else { format!("{} ({:.1e})", thousands(x.round() as u64), x) }
}

/// The formula table, one row per side.
pub fn table(rows: &[Estimate]) -> String {
    let mut out = String::from(
        "| n | c | inner joins | direct: placement vars | direct: conflict clauses | seam: seam vars | seam: exclusion clauses | seam: implication clauses |\n|---:|---:|---:|---:|---:|---:|---:|---:|\n",
    );
    for e in rows {
        let ceiling = if e.n > SAT_CEILING { " †" } else { "" };
        out.push_str(&format!(
            "| {}{ceiling} | {} | {} | {} | {} | {} | {} | {} |\n",
            e.n,
            e.colours,
            thousands(e.inner_joins),
            thousands(e.placement_variables),
            approx(e.direct_conflict_clauses),
            thousands(e.seam_variables),
            thousands(e.seam_exclusion_clauses),
            thousands(e.seam_implication_clauses),
        ));
    }
    if rows.iter().any(|e| e.n > SAT_CEILING) {
        out.push_str(&format!("\n† beyond the ~{SAT_CEILING}×{SAT_CEILING} ceiling reported for pure SAT encodings\n"));
    }
    out
}

/// The exact counts of an instance, as a short table.
pub fn exact_table(e: &Exact) -> String {
    let s = &e.seam;
    let rows: [(&str, String); 11] = [
        ("board", format!("{}x{}, {} pieces, {} clues", e.width, e.height, e.pieces, e.clues)),
        ("colours", format!("{} frame + {} interior", e.frame_colours, e.interior_colours)),
        ("all placements (cells × pieces × 4)", thousands(e.all_placements)),
        ("placements the rim and clues allow", thousands(e.rim_placements)),
        ("placement variables after seam pruning", thousands(e.placement_variables)),
        ("direct: conflict clauses (real disagreeing pairs)", thousands(e.direct_conflict_clauses)),
        (
            "direct: variables / clauses (ladder)",
            format!("{} / {}", thousands(e.direct_variables), thousands(e.direct_clauses)),
        ),
        ("seam: seam variables", thousands(s.seam_variables as u64)),
        ("seam: exclusion clauses", thousands(e.seam_exclusion_clauses)),
        (
            "seam: variables / clauses (ladder)",
            format!("{} / {}", thousands(s.variables as u64), thousands(s.clauses as u64)),
        ),
        ("seam: literals", thousands(s.literals as u64)),
    ];
    let mut out = String::from("| exact count | value |\n|---|---:|\n");
    for (k, v) in rows {
        out.push_str(&format!("| {k} | {v} |\n"));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::{PlantedSpec, planted};

    #[test]
    fn the_published_figures_at_16_and_17() {
        let e = Estimate::new(16, 17);
        assert_eq!(e.placement_variables, 262_144);
        assert_eq!(e.seam_variables, 8_160);
        assert_eq!(e.seam_exclusion_clauses, 65_280);
        assert_eq!(e.inner_joins, 480);
        assert!((e.direct_conflict_clauses / 4.7e8 - 1.0).abs() < 0.01, "{}", e.direct_conflict_clauses);
    }

    #[test]
    fn exact_counts_match_the_built_encodings() {
        let instance = planted(&PlantedSpec::square(5, 3, 4, 1)).unwrap().instance;
        let e = exact(&instance);
        let direct = sat::direct::encode_direct(&instance, Am1::Ladder);
        let cnf = direct.to_cnf();
        assert_eq!(cnf.len() as u64, e.direct_clauses);
        // Every conflict clause joins two placements that disagree, and there are as many as counted.
        assert_eq!(direct.conflicts().count() as u64, e.direct_conflict_clauses);
        assert!(e.placement_variables <= e.rim_placements && e.rim_placements < e.all_placements);
        assert_eq!(e.seam.placement_variables as u64, e.placement_variables);
    }

    #[test]
    fn thousands_groups_digits() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
        assert_eq!(thousands(262_144), "262,144");
    }
}
