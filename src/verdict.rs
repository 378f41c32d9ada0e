//! The full verdict on a given board: the checker's report, the clues honoured, and the flux law.

use std::fmt::Write as _;

use serde::Serialize;

use crate::check::{self, Report, Violation};
use crate::flux;
use crate::puzzle::{Board, Instance};

/// One clue of the instance and whether the board honours it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ClueStatus {
    /// The clue's name (from the clue list, else `clue K`).
    pub name: String,
    /// Row from the top.
    pub row: usize,
    /// Column from the left.
    pub col: usize,
    /// True when the board holds the clue's piece in the clue's rotation.
    pub honoured: bool,
}

/// A colour whose flux over the board is not zero.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct NonzeroColour {
    /// The colour.
    pub colour: u8,
    /// Real part of its flux.
    pub re: i64,
    /// Imaginary part of its flux.
    pub im: i64,
}

/// The flux law on the board (see [`crate::flux`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FluxStatus {
    /// False when the board names pieces the instance lacks (the law is then not computed).
    pub checked: bool,
    /// True when every colour's flux sums to zero.
    pub law_holds: bool,
    /// The colours that do not.
    pub nonzero_colours: Vec<NonzeroColour>,
    /// On a partial board: whether the unplaced pieces can pay the flux owed (mod 2).
    pub certificate_passes: Option<bool>,
}

/// One violation, named and described.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ViolationLine {
    /// Its kind, e.g. `mismatch`.
    pub kind: &'static str,
    /// In words.
    pub message: String,
}

/// What `edgematch verify` reports, as text or JSON.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Verdict {
    /// The instance, as named by the user.
    pub instance: String,
    /// The board, as named by the user.
    pub board: String,
    /// Board width.
    pub width: usize,
    /// Board height.
    pub height: usize,
    /// `solution`, `partial`, `imperfect` or `invalid`.
    pub verdict: &'static str,
    /// True for a full valid solution.
    pub solution: bool,
    /// Matched inner joins.
    pub score: usize,
    /// Inner joins of a full board.
    pub max_score: usize,
    /// Occupied cells.
    pub placed: usize,
    /// All cells.
    pub cells: usize,
    /// Empty cells.
    pub empty_cells: usize,
    /// Each clue and whether it is honoured.
    pub clues: Vec<ClueStatus>,
    /// The flux law.
    pub flux: FluxStatus,
    /// Everything wrong.
    pub violations: Vec<ViolationLine>,
    /// The checker's report, for the text form.
    #[serde(skip)]
    pub report: Report,
}

impl Verdict {
    /// Checks `board` against `instance` (whose clues are named `clue_names`).
    pub fn new(
        instance: &Instance,
        clue_names: &[String],
        board: &Board,
        instance_name: String,
        board_name: String,
    ) -> Verdict {
        let report = check::check(instance, board);
        let flux = flux_status(instance, board, &report);
        let broken: Vec<usize> = report
            .violations
            .iter()
            .filter_map(|v| match v {
                Violation::ClueBroken { cell, .. } => Some(*cell),
                _ => None,
            })
            .collect();
        let clues = instance
            .clues
            .iter()
            .zip(clue_names)
            .map(|(c, name)| {
                let (row, col) = instance.grid.row_col(c.cell);
                ClueStatus { name: name.clone(), row, col, honoured: !broken.contains(&c.cell) }
            })
            .collect();
        let violations =
            report.violations.iter().map(|v| ViolationLine { kind: v.kind(), message: report.describe(v) }).collect();
        Verdict {
            instance: instance_name,
            board: board_name,
            width: instance.grid.width,
            height: instance.grid.height,
            verdict: report.verdict(),
            solution: report.is_solution(),
            score: report.score,
            max_score: report.max_score,
            placed: report.placed,
            cells: report.cells,
            empty_cells: report.cells - report.placed,
            clues,
            flux,
            violations,
            report,
        }
    }

    /// The human-readable form (after the `instance:` line).
    pub fn text(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(out, "board: {}", self.board);
        let _ = writeln!(out, "score: {}/{}", self.score, self.max_score);
        if self.empty_cells > 0 {
            let _ = writeln!(out, "partial board: {} of {} cells empty", self.empty_cells, self.cells);
        }
        if !self.clues.is_empty() {
            let names = |honoured: bool| -> Vec<&str> {
                self.clues.iter().filter(|c| c.honoured == honoured).map(|c| c.name.as_str()).collect()
            };
            let (kept, broken) = (names(true), names(false));
            let _ = writeln!(
                out,
                "clues honoured: {} of {}{}{}",
                kept.len(),
                self.clues.len(),
                if kept.is_empty() { String::new() } else { format!(" ({})", kept.join(", ")) },
                if broken.is_empty() { String::new() } else { format!("; not honoured: {}", broken.join(", ")) }
            );
        }
        if self.flux.checked {
            let what = if self.empty_cells > 0 { "over the placed pieces" } else { "over the board" };
            if self.flux.nonzero_colours.is_empty() {
                let _ = writeln!(out, "flux law: every colour sums to 0 {what}");
            } else {
                let list: Vec<String> =
                    self.flux.nonzero_colours.iter().map(|z| format!("{}: {}{:+}i", z.colour, z.re, z.im)).collect();
                let _ = writeln!(out, "flux law: {} colours do not sum to 0 {what} ({})", list.len(), list.join(", "));
            }
        }
        if let Some(passes) = self.flux.certificate_passes {
            let _ = writeln!(
                out,
                "flux certificate (mod 2, over the unplaced pieces): {}",
                if passes { "passes" } else { "fails: no completion exists" }
            );
        }
        out.push_str(&self.report.to_string());
        out
    }
}

/// The flux law on the board; not computed when the board names unknown pieces.
fn flux_status(instance: &Instance, board: &Board, report: &Report) -> FluxStatus {
    let checked = !report.violations.iter().any(|v| matches!(v, Violation::UnknownPiece { .. }));
    if !checked {
        return FluxStatus { checked, law_holds: false, nonzero_colours: Vec::new(), certificate_passes: None };
    }
    let nonzero_colours: Vec<NonzeroColour> = flux::board_flux(instance, board)
        .into_iter()
        .filter(|(_, z)| !z.is_zero())
        .map(|(colour, z)| NonzeroColour { colour, re: z.re, im: z.im })
        .collect();
    let certificate_passes = (report.placed < report.cells).then(|| flux::certificate_passes(instance, board));
    FluxStatus { checked, law_holds: nonzero_colours.is_empty(), nonzero_colours, certificate_passes }
}
