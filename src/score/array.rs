//! A score array's tasks, one checkpoint each (`deploy/slurm/score.sbatch`): the best verified board over them.

use std::path::{Path, PathBuf};

use crate::check::{Report, check};
use crate::error::Error;
use crate::formats::checkpoint::{self, Checkpoint};
use crate::puzzle::{Board, Instance};

/// The file name every task's checkpoint ends with.
pub const SUFFIX: &str = ".checkpoint.json";

/// One task's checkpoint, as read.
#[derive(Clone, Debug)]
pub struct Task {
    /// The checkpoint file.
    pub path: PathBuf,
    /// Its best board and seconds, or why it does not count (unreadable, another instance, a bad board).
    pub state: Result<Checkpoint, String>,
}

/// The tasks of a folder and the best board over them.
#[derive(Clone, Debug)]
pub struct Collected {
    /// The instance the tasks ran (embedded in their checkpoints).
    pub instance: Instance,
    /// Every checkpoint, in task order.
    pub tasks: Vec<Task>,
    /// The task (index into `tasks`) with the best score (the earliest on a
    /// tie), its board and the checker's report on it.
    pub best: Option<(usize, Board, Report)>,
}

/// The checkpoints of `dir` (`*.checkpoint.json`), shorter names first, then by
/// name (so `task-2` comes before `task-10`).
fn checkpoints(dir: &Path) -> Result<Vec<PathBuf>, Error> {
    let io = |source| Error::Io { path: dir.to_owned(), source };
    let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(io)?
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|p| p.file_name().is_some_and(|n| n.to_string_lossy().ends_with(SUFFIX)))
        .collect();
    paths.sort_by_key(|p| {
        let name = p.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        (name.len(), name)
    });
    Ok(paths)
}

/// Reads every checkpoint of `dir` and picks the best board, re-verified by
/// the checker against the instance the checkpoints embed. A checkpoint that
/// does not read, or belongs to another instance than the first readable one,
/// is listed with the reason and left out.
///
/// # Errors
/// A folder that cannot be listed, or one without a readable checkpoint.
pub fn collect(dir: &Path) -> Result<Collected, Error> {
    // The first readable task's instance and its digest, against which the others are compared.
    let mut first: Option<(Instance, String)> = None;
    let mut tasks = Vec::new();
    for path in checkpoints(dir)? {
        let state = match checkpoint::read_alone(&path) {
            Ok((own, state)) => {
                let sha = checkpoint::instance_sha256(&own);
                match &first {
                    None => {
                        first = Some((own, sha));
                        Ok(state)
                    }
                    Some((_, first_sha)) if *first_sha == sha => Ok(state),
                    Some(_) => Err("a checkpoint of another instance than the first task's".to_owned()),
                }
            }
            Err(e) => Err(e.to_string()),
        };
        tasks.push(Task { path, state });
    }
    let Some((instance, _)) = first else {
        return Err(Error::Options(format!(
            "{}: no readable score checkpoint (*{SUFFIX}) among {} file(s)",
            dir.display(),
            tasks.len()
        )));
    };
    let mut best: Option<(usize, Board, Report)> = None;
    for (i, task) in tasks.iter().enumerate() {
        // A task that has no board yet (its plan settled, nothing found) counts for nothing.
        let Ok(Checkpoint { board: Some(board), seconds: own_seconds, .. }) = &task.state else { continue };
        let report = check(&instance, board);
        let seconds = |j: usize| tasks[j].state.as_ref().map_or(f64::INFINITY, |s| s.seconds);
        let better = match &best {
            None => true,
            Some((j, _, top)) => report.score > top.score || (report.score == top.score && *own_seconds < seconds(*j)),
        };
        if better && report.placed == instance.grid.cells() && report.only_joins_mismatch() {
            best = Some((i, board.clone(), report));
        }
    }
    Ok(Collected { instance, tasks, best })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::{PlantedSpec, planted};

    #[test]
    fn the_best_task_wins_and_strangers_are_left_out() {
        let dir = std::env::temp_dir().join(format!("edgematch-array-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = planted(&PlantedSpec::square(5, 2, 3, 1)).unwrap();
        let mut worse = p.solution.clone();
        worse.cells.swap(6, 8);
        let write = |name: &str, instance: &Instance, board: &Board, seconds: f64| {
            let state = Checkpoint { seconds, board: Some(board.clone()), run: None };
            checkpoint::write(&dir.join(format!("{name}{SUFFIX}")), instance, &state).unwrap();
        };
        write("task-1", &p.instance, &worse, 3.0);
        write("task-10", &p.instance, &p.solution, 9.0);
        write("task-2", &p.instance, &p.solution, 5.0);
        let other = planted(&PlantedSpec::square(5, 2, 3, 2)).unwrap();
        write("task-3", &other.instance, &other.solution, 1.0);
        std::fs::write(dir.join(format!("task-4{SUFFIX}")), "{").unwrap();
        let collected = collect(&dir).unwrap();
        let names: Vec<String> =
            collected.tasks.iter().map(|t| t.path.file_name().unwrap().to_string_lossy().into_owned()).collect();
        assert_eq!(names[..3], ["task-1.checkpoint.json", "task-2.checkpoint.json", "task-3.checkpoint.json"]);
        let (index, board, report) = collected.best.unwrap();
        assert_eq!((index, &board), (1, &p.solution), "the full score, found first");
        assert!(report.is_solution());
        assert!(collected.tasks[2].state.as_ref().unwrap_err().contains("another instance"));
        assert!(collected.tasks[3].state.is_err());
        std::fs::remove_dir_all(&dir).unwrap();
        assert!(collect(&dir).is_err());
    }
}
