//! Runs files: one JSON record per line, appended and synced as each run finishes, resumed by key.

use std::collections::HashSet;
use std::fs::OpenOptions;
use std::io::{Read as _, Seek as _, SeekFrom, Write as _};
use std::path::Path;

use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::error::Error;

/// Reads a runs file: the records, skipping (and counting) lines that do not
/// parse as `T`, such as a line cut short by a kill. A missing file has none.
pub fn read_runs<T: DeserializeOwned>(path: &Path) -> Result<(Vec<T>, usize), Error> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok((Vec::new(), 0)),
        Err(source) => return Err(Error::Io { path: path.to_owned(), source }),
    };
    let mut runs = Vec::new();
    let mut broken = 0;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        match serde_json::from_str::<T>(line) {
            Ok(run) => runs.push(run),
            Err(_) => broken += 1,
        }
    }
    Ok((runs, broken))
}

/// Appends one record as a line, starting a fresh line if a killed writer left half of one.
pub fn append_run<T: Serialize>(path: &Path, run: &T) -> Result<(), Error> {
    append_line(path, &serde_json::to_string(run).expect("records serialize"))
}

/// Appends one line, starting a fresh line if a killed writer left half of one.
pub fn append_line(path: &Path, line: &str) -> Result<(), Error> {
    let io = |source| Error::Io { path: path.to_owned(), source };
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(io)?;
    }
    let mut file = OpenOptions::new().create(true).read(true).append(true).open(path).map_err(io)?;
    let len = file.metadata().map_err(io)?.len();
    let mut text = String::new();
    if len > 0 {
        file.seek(SeekFrom::Start(len - 1)).map_err(io)?;
        let mut last = [0u8; 1];
        file.read_exact(&mut last).map_err(io)?;
        if last[0] != b'\n' {
            text.push('\n');
        }
    }
    text.push_str(line);
    text.push('\n');
    file.write_all(text.as_bytes()).map_err(io)?;
    file.sync_data().map_err(io)
}

/// Shard `k` of `n` (1-based): job i belongs to shard i mod n + 1.
pub fn shard<J>(jobs: Vec<J>, k: usize, n: usize) -> Vec<J> {
    jobs.into_iter().enumerate().filter(|(i, _)| i % n == k - 1).map(|(_, job)| job).collect()
}

/// The placeholder in a runs path that a sharded bench replaces with its shard number.
pub const SHARD_PLACEHOLDER: &str = "{shard}";

/// The shard of a Slurm array task, read through `var` (the process
/// environment in the CLI): shard k = (`SLURM_ARRAY_TASK_ID` −
/// `SLURM_ARRAY_TASK_MIN`) / `SLURM_ARRAY_TASK_STEP` + 1 of
/// `SLURM_ARRAY_TASK_COUNT`, so `--array=0-3` and `--array=1-4` both give
/// shards 1/4 … 4/4. `None` outside an array job (no `SLURM_ARRAY_TASK_ID`).
/// `SLURM_ARRAY_TASK_MIN` defaults to 0 and the step to 1 when absent.
pub fn slurm_shard(var: impl Fn(&str) -> Option<String>) -> Result<Option<(usize, usize)>, Error> {
    let Some(id) = var("SLURM_ARRAY_TASK_ID") else { return Ok(None) };
    let number = |name: &str, default: Option<usize>| -> Result<usize, Error> {
        match var(name) {
            Some(v) => v.trim().parse().map_err(|_| Error::Options(format!("{name}={v:?} is not a number"))),
            None => default.ok_or_else(|| Error::Options(format!("SLURM_ARRAY_TASK_ID is set but {name} is not"))),
        }
    };
    let id: usize =
        id.trim().parse().map_err(|_| Error::Options(format!("SLURM_ARRAY_TASK_ID={id:?} is not a number")))?;
    let (min, step, count) = (
        number("SLURM_ARRAY_TASK_MIN", Some(0))?,
        number("SLURM_ARRAY_TASK_STEP", Some(1))?.max(1),
        number("SLURM_ARRAY_TASK_COUNT", None)?,
    );
    let k = id.checked_sub(min).map(|d| d / step + 1).filter(|k| (1..=count).contains(k)).ok_or_else(|| {
        Error::Options(format!(
            "array task {id} is not one of the {count} tasks from {min} in steps of {step}: use a plain range such as --array=1-{count}"
        ))
    })?;
    Ok(Some((k, count)))
}

/// `path` with every `{shard}` replaced by `k`: each array task appends to its own runs file.
pub fn shard_path(path: &Path, k: usize) -> std::path::PathBuf {
    let text = path.to_string_lossy();
    if text.contains(SHARD_PLACEHOLDER) {
        text.replace(SHARD_PLACEHOLDER, &k.to_string()).into()
    } else {
        path.to_owned()
    }
}

/// Resuming a bench: the jobs of shard `k/n` whose key no finished run in
/// `path` has yet. `what` names the bench in the messages on stderr.
pub fn pending<R, J>(
    path: &Path,
    what: &str,
    jobs: Vec<J>,
    (k, n): (usize, usize),
    run_key: impl Fn(&R) -> String,
    job_key: impl Fn(&J) -> String,
) -> Result<Vec<J>, Error>
where
    R: DeserializeOwned,
{
    let (done, broken) = read_runs::<R>(path)?;
    if broken > 0 {
        eprintln!("{what}: {} has {broken} unreadable line(s), ignored", path.display());
    }
    let done: HashSet<String> = done.iter().map(run_key).collect();
    let mine = shard(jobs, k, n);
    let total = mine.len();
    let todo: Vec<J> = mine.into_iter().filter(|job| !done.contains(&job_key(job))).collect();
    eprintln!("{what}: shard {k}/{n}: {total} jobs, {} already done, {} to run", total - todo.len(), todo.len());
    Ok(todo)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(serde::Serialize, serde::Deserialize, PartialEq, Debug)]
    struct Run {
        key: String,
    }

    #[test]
    fn slurm_array_tasks_become_shards_from_one() {
        fn env<'a>(pairs: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<String> + 'a {
            move |name: &str| pairs.iter().find(|(n, _)| *n == name).map(|(_, v)| v.to_string())
        }
        assert_eq!(slurm_shard(env(&[])).unwrap(), None);
        let from_zero = [("SLURM_ARRAY_TASK_ID", "0"), ("SLURM_ARRAY_TASK_MIN", "0"), ("SLURM_ARRAY_TASK_COUNT", "4")];
        assert_eq!(slurm_shard(env(&from_zero)).unwrap(), Some((1, 4)));
        let from_one = [("SLURM_ARRAY_TASK_ID", "4"), ("SLURM_ARRAY_TASK_MIN", "1"), ("SLURM_ARRAY_TASK_COUNT", "4")];
        assert_eq!(slurm_shard(env(&from_one)).unwrap(), Some((4, 4)));
        let stepped = [
            ("SLURM_ARRAY_TASK_ID", "5"),
            ("SLURM_ARRAY_TASK_MIN", "1"),
            ("SLURM_ARRAY_TASK_STEP", "2"),
            ("SLURM_ARRAY_TASK_COUNT", "3"),
        ];
        assert_eq!(slurm_shard(env(&stepped)).unwrap(), Some((3, 3)));
        assert!(slurm_shard(env(&[("SLURM_ARRAY_TASK_ID", "9"), ("SLURM_ARRAY_TASK_COUNT", "4")])).is_err());
        assert!(slurm_shard(env(&[("SLURM_ARRAY_TASK_ID", "1")])).is_err());
        assert!(slurm_shard(env(&[("SLURM_ARRAY_TASK_ID", "x"), ("SLURM_ARRAY_TASK_COUNT", "4")])).is_err());
        assert_eq!(shard_path(Path::new("r/runs-{shard}.jsonl"), 3), Path::new("r/runs-3.jsonl"));
        assert_eq!(shard_path(Path::new("r/runs.jsonl"), 3), Path::new("r/runs.jsonl"));
    }

    #[test]
    fn appending_after_a_cut_line_starts_a_new_line_and_resumes() {
        let dir = std::env::temp_dir().join(format!("edgematch-runs-{}", std::process::id()));
        let path = dir.join("sub").join("runs.jsonl");
        append_run(&path, &Run { key: "a".into() }).unwrap();
        let mut text = std::fs::read_to_string(&path).unwrap();
        text.push_str("{\"key\": \"b");
        std::fs::write(&path, text).unwrap();
        append_run(&path, &Run { key: "c".into() }).unwrap();
        let (runs, broken) = read_runs::<Run>(&path).unwrap();
        assert_eq!((runs.len(), broken), (2, 1));
        let todo =
            pending::<Run, &str>(&path, "test", vec!["a", "b", "c"], (1, 1), |r| r.key.clone(), |j| j.to_string());
        assert_eq!(todo.unwrap(), vec!["b"]);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
