//! `bench external`: CP-SAT on puzzles nobody here wrote (the official clue
//! puzzles, Heule's 2008 instances, Brendan Owen's benchmarks), every board verified.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use super::records::round3;
use super::records::{ExternalRun, ListedSolution, Provenance};
use super::runs::{append_run, pending};
use crate::check::check;
use crate::cpsat;
use crate::error::Error;
use crate::formats::piece_list::{self, Columns};
use crate::formats::{brendan, read_text};
use crate::puzzle::{Grid, Instance};
use crate::solver::{self, Limits, Solver};
use crate::stop::Stop;

/// One puzzle to run.
#[derive(Clone, Debug, PartialEq)]
pub struct Puzzle {
    /// Collection and file stem, e.g. `brendan/pieces_06x06`.
    pub name: String,
    /// The piece list.
    pub path: PathBuf,
    /// Size when the file has no `W H` line and is not square.
    pub size: Option<Grid>,
    /// A known solution to compare scores with.
    pub listed_solution: Option<PathBuf>,
}

/// The puzzles under `data` (the repository's `data/` folder), in a fixed order.
pub fn catalogue(data: &Path) -> Result<Vec<Puzzle>, Error> {
    let list = |dir: &Path| -> Result<Vec<PathBuf>, Error> {
        let entries = std::fs::read_dir(dir).map_err(|source| Error::Io { path: dir.to_owned(), source })?;
        let mut files: Vec<PathBuf> = entries
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|e| e == "txt"))
            .collect();
        files.sort();
        Ok(files)
    };
    let stem = |p: &Path| p.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    let mut puzzles = Vec::new();
    for path in list(&data.join("clue-puzzles"))? {
        // clueK_RxC: R rows, C columns.
        let name = stem(&path);
        let size = name
            .rsplit('_')
            .next()
            .and_then(|rc| rc.split_once('x'))
            .and_then(|(r, c)| Some(Grid { width: c.parse().ok()?, height: r.parse().ok()? }));
        puzzles.push(Puzzle { name: format!("clue-puzzles/{name}"), path, size, listed_solution: None });
    }
    for path in list(&data.join("heule2008"))? {
        puzzles.push(Puzzle { name: format!("heule2008/{}", stem(&path)), path, size: None, listed_solution: None });
    }
    // The same eight with the piece order and turns shuffled (optional folder).
    let shuffled = data.join("heule2008-shuffled");
    if shuffled.is_dir() {
        for path in list(&shuffled)? {
            let name = format!("heule2008-shuffled/{}", stem(&path));
            puzzles.push(Puzzle { name, path, size: None, listed_solution: None });
        }
    }
    let brendan = data.join("brendan");
    for path in list(&brendan)? {
        let name = stem(&path);
        let Some(key) = name.strip_prefix("pieces_") else { continue };
        let solution = brendan.join(format!("solutions/solutions_{key}.txt"));
        let listed_solution = solution.is_file().then_some(solution);
        puzzles.push(Puzzle { name: format!("brendan/{name}"), path, size: None, listed_solution });
    }
    Ok(puzzles)
}

impl Puzzle {
    /// Reads the puzzle's pieces (column order from the file's header, else N E S W).
    pub fn read(&self) -> Result<(Instance, Columns), Error> {
        let text = read_text(&self.path)?;
        let columns = Columns::from_header(&text).unwrap_or(Columns::NESW);
        Ok((piece_list::parse(&self.path, &text, columns, self.size)?, columns))
    }

    /// The collection: `clue-puzzles`, `heule2008`, `heule2008-shuffled` or `brendan`.
    pub fn collection(&self) -> &str {
        self.name.split('/').next().unwrap_or("")
    }
}

/// Runs CP-SAT on each puzzle of shard `k/n` not yet in `runs` and appends one
/// record per finished run; returns how many ran. Stops when `stop` is raised, keeping what finished.
pub fn run(
    puzzles: &[Puzzle],
    options: &cpsat::Options,
    limits: &Limits,
    runs: &Path,
    shard: (usize, usize),
    provenance: &Provenance,
    stop: &Stop,
) -> Result<usize, Error> {
    let todo = pending(
        runs,
        "external",
        puzzles.iter().collect(),
        shard,
        |r: &ExternalRun| r.puzzle.clone(),
        |p| p.name.clone(),
    )?;
    let solver = Solver::Cpsat(options.clone());
    for (i, puzzle) in todo.iter().enumerate() {
        if stop.is_raised() {
            break;
        }
        let (instance, columns) = puzzle.read()?;
        let (frame, interior) = instance.colour_classes();
        eprint!("external: [{}/{}] {} ({}) ... ", i + 1, todo.len(), puzzle.name, instance.grid);
        let (outcome, verified) = solver::solve_accepted(&solver, &instance, limits, stop)?;
        if stop.is_raised() {
            eprintln!("interrupted (not recorded)");
            break;
        }
        let verdict = verified.report.as_ref().map_or("no board", |r| r.verdict());
        eprintln!("{} in {:.1} s, {verdict}", outcome.status, outcome.seconds);
        let listed_solution = match &puzzle.listed_solution {
            Some(path) => {
                let report = check(&instance, &brendan::read(path, &instance)?);
                Some(ListedSolution { score: report.score, verdict: report.verdict().to_owned() })
            }
            None => None,
        };
        let record = ExternalRun {
            puzzle: puzzle.name.clone(),
            width: instance.grid.width,
            height: instance.grid.height,
            frame_colours: frame,
            interior_colours: interior,
            columns: columns.to_string(),
            status: outcome.status,
            seconds: round3(outcome.seconds),
            time_limit: limits.time_limit,
            verdict: verdict.to_owned(),
            verified_score: verified.score,
            max_score: instance.grid.max_score(),
            listed_solution,
            model: options.formulation.name().to_owned(),
            provenance: provenance.with_workers(limits.threads),
        };
        append_run(runs, &record)?;
    }
    Ok(todo.len())
}

/// `results/external-puzzles.md`: how the runs were made, then the table.
pub fn document(
    puzzles: &[Puzzle],
    runs: &[ExternalRun],
    options: &cpsat::Options,
    limits: &Limits,
    provenance: &Provenance,
) -> String {
    let commits: std::collections::BTreeSet<&str> = runs.iter().map(|r| r.provenance.commit.as_str()).collect();
    format!(
        "# CP-SAT on published puzzles\n\n\
         Command: `edgematch bench external --time-limit {}` ({} model, {} workers, {} cores, OR-Tools {}, \
         commits {}). Every board returned was re-verified by the checker; `score` is the checker's count \
         of matched inner joins. For Brendan's puzzles, `listed solution` is the checker's score of the \
         solution published with the puzzle (both full solutions when both say `solution`; the boards may \
         differ). Raw runs: `external-puzzles.jsonl`.\n\n{}",
        limits.time_limit.unwrap_or(f64::INFINITY),
        options.formulation.name(),
        limits.threads,
        provenance.cores,
        cpsat::ORTOOLS_VERSION,
        commits.into_iter().collect::<Vec<_>>().join(", "),
        markdown(puzzles, runs)
    )
}

/// The markdown table of the runs, in catalogue order.
pub fn markdown(puzzles: &[Puzzle], runs: &[ExternalRun]) -> String {
    let mut out = String::from(
        "| puzzle | size | colours (frame + interior) | status | seconds | verdict | score | listed solution |\n\
         |---|---|---|---|---|---|---|---|\n",
    );
    for puzzle in puzzles {
        let Some(run) = runs.iter().rev().find(|r| r.puzzle == puzzle.name) else {
            let _ = writeln!(out, "| {} | | | not run | | | | |", puzzle.name);
            continue;
        };
        let listed = run.listed_solution.as_ref().map_or("—".to_owned(), |l| format!("{} ({})", l.score, l.verdict));
        let _ = writeln!(
            out,
            "| {} | {}×{} | {} + {} | {} | {:.1} | {} | {}/{} | {listed} |",
            puzzle.name,
            run.width,
            run.height,
            run.frame_colours,
            run.interior_colours,
            run.status,
            run.seconds,
            run.verdict,
            run.verified_score,
            run.max_score,
        );
    }
    out
}
