//! `bench report --compare`: one arm against reference tools, rung by rung, on the boards all of them ran at one budget.

use std::cmp::Reverse;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt::Write as _;

use super::records::{BenchArm, Run};
use super::report::{budget, latest};
use crate::error::Error;

/// The records' resolution: seconds are rounded to milliseconds.
const RESOLUTION: f64 = 0.001;

/// A rung at one budget: the runs compared with each other.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct RungAt {
    /// Colour setting or collection, e.g. `5+17` or `brendan`.
    pub colours: String,
    /// Board side (the longest, for a collection).
    pub size: u64,
    /// Budget in milliseconds.
    pub budget_ms: u64,
}

impl std::fmt::Display for RungAt {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {}×{}", self.colours, self.size, self.size)
    }
}

/// What one arm's runs on the boards of a row add up to.
#[derive(Clone, Debug, PartialEq)]
pub struct Tally {
    /// The arm.
    pub arm: BenchArm,
    /// Boards it solved (verified full solutions).
    pub solved: usize,
    /// Median seconds over the boards, an unsolved run counting at its budget
    /// (for an even count, the mean of the two middle runs).
    pub median: f64,
}

/// The best reference's median over the compared arm's.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Ratio {
    /// No reference solved a board of the row.
    NoReference,
    /// The quotient.
    Times(f64),
    /// The compared arm's median is below the records' resolution (1 ms): the
    /// quotient is at least this (the best reference's median over 1 ms).
    AtLeast(f64),
}

/// One row: a rung at one budget.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// The rung and budget.
    pub rung: RungAt,
    /// The boards that the compared arm and every reference ran there.
    pub boards: usize,
    /// The compared arm.
    pub arm: Tally,
    /// Each reference, in the order given.
    pub references: Vec<Tally>,
    /// The best arm that is neither the compared arm nor a reference, among
    /// those that ran every board of the row; `None` when there is none.
    pub best_other: Option<Tally>,
    /// The best reference's median over the compared arm's.
    pub ratio: Ratio,
}

/// The comparison: its rows, and the rungs it had to leave out.
#[derive(Clone, Debug, PartialEq)]
pub struct Comparison {
    /// The compared arm.
    pub arm: BenchArm,
    /// The references.
    pub references: Vec<BenchArm>,
    /// One row per rung and budget with at least one common board, by colour setting, size and budget.
    pub rows: Vec<Row>,
    /// Rungs and budgets with runs but no board that the compared arm and every reference ran.
    pub left_out: Vec<RungAt>,
}

/// The median, the mean of the two middle values for an even count; `xs` sorted and not empty.
fn median(xs: &[f64]) -> f64 {
    let n = xs.len();
    if n % 2 == 1 { xs[n / 2] } else { (xs[n / 2 - 1] + xs[n / 2]) / 2.0 }
}

/// The best of `tallies` by boards solved, then median; ties go to the first.
fn best<'a>(tallies: impl IntoIterator<Item = &'a Tally>) -> Option<&'a Tally> {
    tallies.into_iter().min_by(|a, b| Reverse(a.solved).cmp(&Reverse(b.solved)).then(a.median.total_cmp(&b.median)))
}

/// Compares `arm` with `references` on `runs`: for each rung (colour setting
/// and size) and budget, on the boards that `arm` and every reference ran
/// there, the boards each solved and its median seconds, the best of the other
/// arms, and the ratio of the best reference's median to `arm`'s ("best": most
/// boards solved, then lowest median; a tie goes to the arm run first). Only
/// the latest run of each job counts, as in [`super::report::summarize`]; runs
/// of different budgets are never compared.
pub fn compare(runs: &[Run], arm: BenchArm, references: &[BenchArm]) -> Result<Comparison, Error> {
    if references.is_empty() {
        return Err(Error::Options("a comparison needs at least one reference".to_owned()));
    }
    if references.contains(&arm) {
        return Err(Error::Options(format!("{arm} is both compared and a reference")));
    }
    if let Some(twice) = references.iter().enumerate().find(|(i, r)| references[..*i].contains(r)) {
        return Err(Error::Options(format!("reference {} given twice", twice.1)));
    }
    let mut first_seen: HashMap<BenchArm, usize> = HashMap::new();
    for (i, run) in runs.iter().enumerate() {
        let _ = first_seen.entry(run.arm).or_insert(i);
    }
    let latest = latest(runs);
    let mut rungs: BTreeMap<RungAt, HashMap<BenchArm, BTreeMap<&str, &Run>>> = BTreeMap::new();
    for ((a, instance, budget_ms), run) in &latest {
        let rung = RungAt { colours: run.colours.clone(), size: run.size as u64, budget_ms: *budget_ms };
        let _ = rungs.entry(rung).or_default().entry(*a).or_default().insert(instance.as_str(), *run);
    }
    let mut rows = Vec::new();
    let mut left_out = Vec::new();
    for (rung, arms) in rungs {
        let instances = |a: &BenchArm| arms.get(a).map(|runs| runs.keys().copied().collect::<BTreeSet<&str>>());
        let mut boards = instances(&arm).unwrap_or_default();
        for reference in references {
            let theirs = instances(reference).unwrap_or_default();
            boards.retain(|b| theirs.contains(b));
        }
        if boards.is_empty() {
            left_out.push(rung);
            continue;
        }
        // An arm's tally over the boards, if it ran all of them.
        let tally = |a: BenchArm| -> Option<Tally> {
            let runs = arms.get(&a)?;
            let runs: Vec<&Run> = boards.iter().map(|b| runs.get(b).copied()).collect::<Option<_>>()?;
            let mut seconds: Vec<f64> = runs.iter().map(|r| if r.solved { r.seconds } else { r.budget }).collect();
            seconds.sort_by(f64::total_cmp);
            Some(Tally { arm: a, solved: runs.iter().filter(|r| r.solved).count(), median: median(&seconds) })
        };
        let ours = tally(arm).expect("the arm ran every board");
        let theirs: Vec<Tally> =
            references.iter().map(|&r| tally(r).expect("each reference ran every board")).collect();
        let mut others: Vec<BenchArm> = arms.keys().copied().filter(|a| *a != arm && !references.contains(a)).collect();
        others.sort_by_key(|a| first_seen[a]);
        let others: Vec<Tally> = others.into_iter().filter_map(tally).collect();
        let ratio = match best(theirs.iter().filter(|t| t.solved > 0)) {
            None => Ratio::NoReference,
            Some(r) if ours.median < RESOLUTION => Ratio::AtLeast(r.median / RESOLUTION),
            Some(r) => Ratio::Times(r.median / ours.median),
        };
        rows.push(Row {
            rung,
            boards: boards.len(),
            arm: ours,
            references: theirs,
            best_other: best(&others).cloned(),
            ratio,
        });
    }
    Ok(Comparison { arm, references: references.to_vec(), rows, left_out })
}

/// The comparison as a markdown table, with a note on what it counts and what it left out.
pub fn markdown(comparison: &Comparison) -> String {
    let arm = comparison.arm;
    let mut out = format!("| rung | budget s | boards | {arm} solved | {arm} median s |");
    for reference in &comparison.references {
        let _ = write!(out, " {reference} solved / median s |");
    }
    let _ = writeln!(out, " best other arm (solved, median s) | ratio (best reference median / {arm} median) |");
    out.push_str(&"|---".repeat(7 + comparison.references.len()));
    out.push_str("|\n");
    for row in &comparison.rows {
        let _ = write!(
            out,
            "| {} | {} | {} | {}/{} | {:.3} |",
            row.rung,
            budget(row.rung.budget_ms),
            row.boards,
            row.arm.solved,
            row.boards,
            row.arm.median
        );
        for reference in &row.references {
            let _ = write!(out, " {}/{} / {:.2} |", reference.solved, row.boards, reference.median);
        }
        let best =
            row.best_other.as_ref().map_or("—".to_owned(), |t| format!("{} ({}, {:.2})", t.arm, t.solved, t.median));
        let ratio = match row.ratio {
            Ratio::NoReference => "—".to_owned(),
            Ratio::Times(x) => format!("{x:.1}×"),
            Ratio::AtLeast(x) => format!("> {x:.0}×"),
        };
        let _ = writeln!(out, " {best} | {ratio} |");
    }
    let references: Vec<&str> = comparison.references.iter().map(|r| r.name()).collect();
    let _ = write!(
        out,
        "\nEach row is a rung at one budget, on the boards that {arm} and every reference ({}) ran there \
         (the latest run of each). Medians are over those boards, an unsolved run counting at its budget \
         (for an even count, the mean of the two middle runs). \"Best\" is by boards solved, then median; \
         a tie goes to the arm run first. The ratio is \"—\" when no reference solved a board, and \"> N×\" \
         when {arm}'s median is below the records' 1 ms resolution.",
        references.join(", ")
    );
    if !comparison.left_out.is_empty() {
        let left: Vec<String> =
            comparison.left_out.iter().map(|r| format!("{r} at {} s", budget(r.budget_ms))).collect();
        let _ = write!(out, " Left out, for want of a board they all ran: {}.", left.join(", "));
    }
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::Provenance;
    use crate::solver::{SolverKind, Status};

    const AUTO: BenchArm = BenchArm::Solver(SolverKind::Auto);
    const SEARCH: BenchArm = BenchArm::Solver(SolverKind::Search);
    const SAT: BenchArm = BenchArm::Solver(SolverKind::Sat);
    const CPSAT: BenchArm = BenchArm::Solver(SolverKind::Cpsat);
    const PY: BenchArm = BenchArm::PythonElement;
    const MZN: BenchArm = BenchArm::MinizincGecode;

    /// A run of `arm` on board `instance` of rung `colours` `size`; `None` seconds for an unsolved run,
    /// which records a little more than its budget, as the references do.
    fn run(arm: BenchArm, colours: &str, size: usize, instance: &str, budget: f64, seconds: Option<f64>) -> Run {
        Run {
            arm,
            instance: instance.to_owned(),
            size,
            colours: colours.to_owned(),
            seed: 0,
            budget,
            status: if seconds.is_some() { Status::Solved } else { Status::Unknown },
            solved: seconds.is_some(),
            board: Some(seconds.is_some()),
            verified_score: 0,
            target: 0,
            seconds: seconds.unwrap_or(budget + 0.6),
            nodes: None,
            restarts: None,
            model: None,
            provenance: Provenance {
                commit: "test".to_owned(),
                dirty: false,
                ortools: "9.15.6755".to_owned(),
                cores: 2,
                workers: None,
                load: None,
            },
        }
    }

    /// A rung where auto, search and sat solve some boards, and the references
    /// solve some; auto also ran a board the references did not, and one auto
    /// run was made again.
    fn planted() -> Vec<Run> {
        let r = |arm, instance, seconds| run(arm, "5+17", 10, instance, 20.0, seconds);
        vec![
            r(AUTO, "a", Some(1.0)),
            r(AUTO, "b", None),
            r(AUTO, "c", None),
            r(AUTO, "d", Some(0.1)),
            r(SEARCH, "a", Some(0.5)),
            r(SEARCH, "b", Some(1.5)),
            r(SEARCH, "c", None),
            r(SAT, "a", Some(6.0)),
            r(SAT, "b", Some(7.0)),
            r(SAT, "c", Some(8.0)),
            r(CPSAT, "a", Some(0.1)),
            r(PY, "a", Some(5.0)),
            r(PY, "b", None),
            r(PY, "c", None),
            r(MZN, "a", Some(3.0)),
            r(MZN, "b", Some(4.0)),
            r(MZN, "c", None),
            // The latest run of a job counts.
            r(AUTO, "b", Some(2.0)),
        ]
    }

    #[test]
    fn rows_count_unsolved_runs_at_their_budget_on_the_common_boards() {
        let comparison = compare(&planted(), AUTO, &[PY, MZN]).unwrap();
        assert_eq!(comparison.left_out, vec![]);
        let [row] = &comparison.rows[..] else { panic!("{comparison:?}") };
        assert_eq!(row.rung, RungAt { colours: "5+17".to_owned(), size: 10, budget_ms: 20_000 });
        // Board d has no reference runs; cpsat did not run b and c.
        assert_eq!(row.boards, 3);
        assert_eq!(row.arm, Tally { arm: AUTO, solved: 2, median: 2.0 });
        // Unsolved: at the 20 s budget, not the 20.6 s recorded.
        assert_eq!(
            row.references,
            vec![Tally { arm: PY, solved: 1, median: 20.0 }, Tally { arm: MZN, solved: 2, median: 4.0 }]
        );
        // sat solves more than search, though search's median is lower.
        assert_eq!(row.best_other, Some(Tally { arm: SAT, solved: 3, median: 7.0 }));
        // The best reference is MiniZinc (2 solved), not the Python model.
        assert_eq!(row.ratio, Ratio::Times(2.0));
        let table = markdown(&comparison);
        assert!(table.starts_with(
            "| rung | budget s | boards | auto solved | auto median s | python-element solved / median s | \
             minizinc-gecode solved / median s | best other arm (solved, median s) | \
             ratio (best reference median / auto median) |\n|---|---|---|---|---|---|---|---|---|\n"
        ));
        assert!(
            table.contains("| 5+17 10×10 | 20 | 3 | 2/3 | 2.000 | 1/3 / 20.00 | 2/3 / 4.00 | sat (3, 7.00) | 2.0× |\n"),
            "{table}"
        );
        assert!(!table.contains("Left out"), "{table}");
    }

    #[test]
    fn budgets_are_rows_of_their_own_and_rungs_without_common_boards_are_left_out() {
        let mut runs = planted();
        // At 300 s only auto ran: no comparison there.
        runs.push(run(AUTO, "5+17", 10, "a", 300.0, Some(1.0)));
        // At 60 s auto and both references ran board a, and none of them solved it.
        for arm in [AUTO, PY, MZN] {
            runs.push(run(arm, "5+17", 10, "a", 60.0, None));
        }
        let comparison = compare(&runs, AUTO, &[PY, MZN]).unwrap();
        let budgets: Vec<u64> = comparison.rows.iter().map(|r| r.rung.budget_ms).collect();
        assert_eq!(budgets, vec![20_000, 60_000]);
        let row = &comparison.rows[1];
        assert_eq!(
            (row.boards, row.arm.median, row.best_other.as_ref(), row.ratio),
            (1, 60.0, None, Ratio::NoReference)
        );
        assert_eq!(comparison.left_out, vec![RungAt { colours: "5+17".to_owned(), size: 10, budget_ms: 300_000 }]);
        let table = markdown(&comparison);
        assert!(
            table.contains("| 5+17 10×10 | 60 | 1 | 0/1 | 60.000 | 0/1 / 60.00 | 0/1 / 60.00 | — | — |\n"),
            "{table}"
        );
        assert!(table.contains("Left out, for want of a board they all ran: 5+17 10×10 at 300 s."), "{table}");
    }

    #[test]
    fn a_median_below_a_millisecond_gives_a_lower_bound_and_ties_go_to_the_arm_run_first() {
        let r = |arm, instance, seconds| run(arm, "brendan", 4, instance, 30.0, Some(seconds));
        let runs = vec![
            r(AUTO, "x", 0.0),
            r(SEARCH, "x", 0.0),
            r(SAT, "x", 0.0),
            r(PY, "x", 0.351),
            r(MZN, "x", 0.058),
            r(AUTO, "y", 0.001),
            r(SEARCH, "y", 0.0),
            r(SAT, "y", 0.0),
            r(PY, "y", 0.373),
            r(MZN, "y", 0.064),
        ];
        let comparison = compare(&runs, AUTO, &[PY, MZN]).unwrap();
        let row = &comparison.rows[0];
        assert_eq!(row.arm.median, 0.0005);
        assert_eq!(row.best_other.as_ref().map(|t| t.arm), Some(SEARCH));
        let table = markdown(&comparison);
        assert!(
            table.contains(
                "| brendan 4×4 | 30 | 2 | 2/2 | 0.001 | 2/2 / 0.36 | 2/2 / 0.06 | search (2, 0.00) | > 61× |"
            ),
            "{table}"
        );
    }

    #[test]
    fn the_compared_arm_is_not_a_reference() {
        assert!(compare(&planted(), AUTO, &[AUTO, PY]).is_err());
        assert!(compare(&planted(), AUTO, &[]).is_err());
        assert!(compare(&planted(), AUTO, &[PY, PY]).is_err());
        // Search against the references: auto is then one of the other arms.
        let comparison = compare(&planted(), SEARCH, &[PY, MZN]).unwrap();
        assert_eq!(comparison.rows[0].arm, Tally { arm: SEARCH, solved: 2, median: 1.5 });
        assert_eq!(comparison.rows[0].best_other.as_ref().map(|t| t.arm), Some(SAT));
    }
}
