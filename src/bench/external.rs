//! `bench external`: CP-SAT on puzzles nobody here wrote (the official clue
//! puzzles, Heule's 2008 instances, Brendan Owen's benchmarks), every board verified.

use std::collections::HashSet;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use super::round3;
use super::runs::{append_line, read_runs};
use crate::check::check;
use crate::cpsat::{self, SolveEnv};
use crate::error::Error;
use crate::formats::piece_list::{self, Columns};
use crate::formats::{brendan, read_text};
use crate::puzzle::{GREY, Grid, Instance};
use crate::{interrupt, solver};

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

/// The puzzles under `data` (the `e2` folder), in a fixed order.
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
    for path in list(&data.join("benchmarks/heule2008"))? {
        puzzles.push(Puzzle { name: format!("heule2008/{}", stem(&path)), path, size: None, listed_solution: None });
    }
    let brendan = data.join("benchmarks/brendan");
    for path in list(&brendan)? {
        let name = stem(&path);
        let Some(key) = name.strip_prefix("pieces_") else { continue };
        let solution = brendan.join(format!("solutions/solutions_{key}.txt"));
        let listed_solution = solution.is_file().then_some(solution);
        puzzles.push(Puzzle { name: format!("brendan/{name}"), path, size: None, listed_solution });
    }
    Ok(puzzles)
}

/// Frame colours (never on a piece without grey) and interior colours, counted.
fn colour_classes(instance: &Instance) -> (usize, usize) {
    let mut on_frame = HashSet::new();
    let mut inside = HashSet::new();
    for p in &instance.pieces {
        let target = if p.grey_sides() == 0 { &mut inside } else { &mut on_frame };
        target.extend(p.0.iter().copied().filter(|&c| c != GREY));
    }
    (on_frame.difference(&inside).count(), inside.len())
}

/// Runs CP-SAT on each puzzle not yet in `runs` and appends one JSON line per
/// finished run; returns how many ran. Stops on Ctrl-C, keeping what finished.
pub fn run(puzzles: &[Puzzle], options: &cpsat::Options, runs: &Path, provenance: &Value) -> Result<usize, Error> {
    let (done, _) = read_runs(runs, &["puzzle"])?;
    let done: HashSet<String> = done.iter().filter_map(|r| r["puzzle"].as_str().map(str::to_owned)).collect();
    let todo: Vec<&Puzzle> = puzzles.iter().filter(|p| !done.contains(&p.name)).collect();
    eprintln!("external: {} puzzles, {} to run", puzzles.len(), todo.len());
    for (i, puzzle) in todo.iter().enumerate() {
        if interrupt::raised() {
            break;
        }
        let text = read_text(&puzzle.path)?;
        let columns = Columns::from_header(&text).unwrap_or(Columns::NESW);
        let instance = piece_list::parse(&puzzle.path, &text, columns, puzzle.size)?;
        let (frame, interior) = colour_classes(&instance);
        eprint!("external: [{}/{}] {} ({}) ... ", i + 1, todo.len(), puzzle.name, instance.grid);
        let env = SolveEnv::new()?;
        let _guard = interrupt::watch({
            let stopper = env.stopper();
            move || stopper.stop()
        });
        let outcome = cpsat::solve(&instance, options, &env)?;
        if interrupt::raised() {
            eprintln!("interrupted (not recorded)");
            break;
        }
        let verified = solver::verify(&instance, &outcome)?;
        let verdict = verified.report.as_ref().map_or("no board", |r| r.verdict());
        eprintln!("{} in {:.1} s, {verdict}", outcome.status, outcome.seconds);
        let listed = match &puzzle.listed_solution {
            Some(path) => {
                let board = brendan::read(path, &instance)?;
                let report = check(&instance, &board);
                json!({"score": report.score, "verdict": report.verdict()})
            }
            None => Value::Null,
        };
        let record = json!({
            "puzzle": puzzle.name,
            "width": instance.grid.width,
            "height": instance.grid.height,
            "frame_colours": frame,
            "interior_colours": interior,
            "columns": columns.to_string(),
            "status": outcome.status.to_string(),
            "seconds": round3(outcome.seconds),
            "time_limit": options.time_limit,
            "verdict": verdict,
            "verified_score": verified.score,
            "max_score": instance.grid.max_score(),
            "listed_solution": listed,
            "model": options.formulation.name(),
            "workers": options.workers,
            "cores": provenance["cores"],
            "commit": provenance["commit"],
            "ortools": provenance["ortools"],
        });
        append_line(runs, &record.to_string())?;
    }
    Ok(todo.len())
}

/// The markdown table of the runs, in catalogue order.
pub fn markdown(puzzles: &[Puzzle], runs: &[Value]) -> String {
    let mut out = String::from(
        "| puzzle | size | colours (frame + interior) | status | seconds | verdict | score | listed solution |\n\
         |---|---|---|---|---|---|---|---|\n",
    );
    for puzzle in puzzles {
        let Some(run) = runs.iter().rev().find(|r| r["puzzle"] == puzzle.name.as_str()) else {
            let _ = writeln!(out, "| {} | | | not run | | | | |", puzzle.name);
            continue;
        };
        let listed = match &run["listed_solution"] {
            Value::Null => "—".to_owned(),
            l => format!("{} ({})", l["score"], l["verdict"].as_str().unwrap_or("?")),
        };
        let _ = writeln!(
            out,
            "| {} | {}×{} | {} + {} | {} | {:.1} | {} | {}/{} | {listed} |",
            puzzle.name,
            run["width"],
            run["height"],
            run["frame_colours"],
            run["interior_colours"],
            run["status"].as_str().unwrap_or("?"),
            run["seconds"].as_f64().unwrap_or(f64::NAN),
            run["verdict"].as_str().unwrap_or("?"),
            run["verified_score"],
            run["max_score"],
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::Piece;

    #[test]
    fn frame_colours_are_those_never_inside() {
        let instance = Instance {
            grid: Grid { width: 3, height: 3 },
            pieces: vec![Piece([0, 1, 5, 0]), Piece([0, 2, 5, 1]), Piece([5, 6, 5, 6])],
            clues: vec![],
        };
        assert_eq!(colour_classes(&instance), (2, 2));
    }
}
