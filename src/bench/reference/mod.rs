//! Reference solvers run as child processes beside our own: OR-Tools' Python CP-SAT and MiniZinc with Gecode.
//!
//! Each reference is a model written independently of ours, run by a tool we
//! do not build, and its board goes through [`crate::check::check`] like any
//! other:
//!
//! - [`Reference::PythonElement`]: the seed's Element model (`element.py`,
//!   embedded here) in OR-Tools' own Python package, `ortools==9.15.6755`,
//!   with 2 workers. Python is `$EDGEMATCH_REFERENCE_PYTHON` if set, else
//!   `target/reach-venv/bin/python` under the current directory, made by
//!   `python3 -m venv target/reach-venv && target/reach-venv/bin/pip install ortools==9.15.6755`.
//! - [`Reference::MinizincGecode`]: a plain table model (`table.mzn`, embedded
//!   here) run by `minizinc --solver gecode` on one core, searching the cells
//!   row-major (piece, then rotation, smallest value first; Debian: `apt-get
//!   install minizinc`).
//!
//! Timing is the wall time of the child process, startup (interpreter, model
//! building, flattening) included: what a user of the tool pays. The child runs
//! in its own process group; when the [`Stop`] handle is raised or the limit
//! plus [`GRACE`] passes, the group gets SIGTERM, then SIGKILL, and so does
//! every process the child started (MiniZinc runs its solver in a group of its
//! own). Scratch files, MiniZinc's FlatZinc included, go to a temporary
//! directory removed after the run.

pub mod blackwood;
mod process;

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use self::process::{Ended, Scratch, run};

use crate::error::Error;
use crate::formats::instance_json::{self, InstanceFile};
use crate::puzzle::{Board, Instance, Placement, Rotation};
use crate::solver::Status;
use crate::stop::Stop;

/// The Element model for OR-Tools' Python CP-SAT.
const ELEMENT_PY: &str = include_str!("element.py");

/// The table model for MiniZinc.
const TABLE_MZN: &str = include_str!("table.mzn");

/// The OR-Tools version the Python reference is meant to run.
pub const ORTOOLS_VERSION: &str = "9.15.6755";

/// Environment variable naming the Python interpreter of [`Reference::PythonElement`].
pub const PYTHON_ENV: &str = "EDGEMATCH_REFERENCE_PYTHON";

/// The default interpreter, relative to the current directory.
pub const DEFAULT_PYTHON: &str = "target/reach-venv/bin/python";

/// CP-SAT workers of [`Reference::PythonElement`].
pub const PYTHON_WORKERS: u32 = 2;

/// How long past its limit a child may run before it is killed.
pub const GRACE: Duration = Duration::from_secs(5);

/// A reference solver.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reference {
    /// The Element model in OR-Tools' Python CP-SAT, 2 workers.
    PythonElement,
    /// The table model in MiniZinc with Gecode, one core.
    MinizincGecode,
}

impl Reference {
    /// Both references.
    pub const ALL: [Reference; 2] = [Reference::PythonElement, Reference::MinizincGecode];

    /// The name in reports: `python-element` or `minizinc-gecode`.
    pub fn name(self) -> &'static str {
        match self {
            Reference::PythonElement => "python-element",
            Reference::MinizincGecode => "minizinc-gecode",
        }
    }
}

impl std::fmt::Display for Reference {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// What a reference run gave back.
#[derive(Clone, Debug, PartialEq)]
pub struct RefOutcome {
    /// How the run ended: `Solved` only with a board, `Infeasible` when the
    /// tool proved there is none, `Unknown` at the limit, `Interrupted` on stop.
    pub status: Status,
    /// The tool's board (still to be checked), present exactly when solved.
    pub board: Option<Board>,
    /// Wall seconds of the child process, startup included.
    pub seconds: f64,
}

/// The Python interpreter of [`Reference::PythonElement`], or how to make one.
fn python() -> Result<PathBuf, String> {
    if let Some(p) = std::env::var_os(PYTHON_ENV).filter(|p| !p.is_empty()) {
        return Ok(PathBuf::from(p));
    }
    let default = Path::new(DEFAULT_PYTHON);
    if default.exists() {
        return Ok(default.to_owned());
    }
    Err(format!(
        "no Python with OR-Tools: set {PYTHON_ENV}, or run `python3 -m venv target/reach-venv && \
         target/reach-venv/bin/pip install ortools=={ORTOOLS_VERSION}`"
    ))
}

/// Runs a short command and returns its stdout, or why it failed.
fn probe(program: &Path, args: &[&str]) -> Result<String, String> {
    let out = Command::new(program)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("cannot run {}: {e}", program.display()))?;
    if !out.status.success() {
        let stderr = String::from_utf8_lossy(&out.stderr);
        return Err(format!("{} failed ({}): {}", program.display(), out.status, last_line(&stderr)));
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// The last non-empty line of a text, trimmed.
fn last_line(text: &str) -> &str {
    text.lines().rev().map(str::trim).find(|l| !l.is_empty()).unwrap_or("")
}

/// The tool's version, e.g. `OR-Tools 9.15.6755, Python 3.11.7` or
/// `MiniZinc 2.6.4, Gecode 6.2.0`; `Err(reason)` when the tool is not there.
pub fn version(r: Reference) -> Result<String, String> {
    match r {
        Reference::PythonElement => {
            let python = python()?;
            if python.components().count() > 1 && !python.exists() {
                return Err(format!(
                    "{}: no such file; set {PYTHON_ENV} to a Python with OR-Tools, or run `python3 -m venv \
                     target/reach-venv && target/reach-venv/bin/pip install ortools=={ORTOOLS_VERSION}`",
                    python.display()
                ));
            }
            let code = "import sys, ortools\nfrom ortools.sat.python import cp_model\n\
                        print(ortools.__version__, sys.version.split()[0])";
            let out = probe(&python, &["-c", code]).map_err(|e| {
                format!("{e} (install it: {} -m pip install ortools=={ORTOOLS_VERSION})", python.display())
            })?;
            let mut words = out.split_whitespace();
            let (ortools, py) = (words.next().unwrap_or("?"), words.next().unwrap_or("?"));
            Ok(format!("OR-Tools {ortools}, Python {py}"))
        }
        Reference::MinizincGecode => {
            let minizinc = Path::new("minizinc");
            let hint = " (Debian: apt-get install minizinc)";
            let solvers = probe(minizinc, &["--solvers"]).map_err(|e| format!("{e}{hint}"))?;
            let gecode = solvers
                .lines()
                .find(|l| l.contains("org.gecode.gecode"))
                .ok_or_else(|| format!("minizinc has no Gecode solver{hint}"))?;
            let gecode_version = gecode.split_whitespace().nth(1).unwrap_or("?");
            let banner = probe(minizinc, &["--version"]).map_err(|e| format!("{e}{hint}"))?;
            let mzn_version = banner
                .split_whitespace()
                .skip_while(|w| *w != "version")
                .nth(1)
                .unwrap_or("?")
                .trim_end_matches(',')
                .to_owned();
            Ok(format!("MiniZinc {mzn_version}, Gecode {gecode_version}"))
        }
    }
}

/// `Ok(())` when the tool is there and runs, `Err(reason)` otherwise (the
/// reason says how to install it).
pub fn available(r: Reference) -> Result<(), String> {
    version(r).map(|_| ())
}

/// An error naming the tool, for output it should not have produced.
fn tool_error(program: &Path, message: String) -> Error {
    Error::Io { path: program.to_owned(), source: std::io::Error::other(message) }
}

/// Builds a board from (0-based piece, rotation) pairs, row-major.
fn board_from(instance: &Instance, cells: &[(i64, i64)]) -> Result<Board, String> {
    let grid = instance.grid;
    if cells.len() != grid.cells() {
        return Err(format!("{} cells for a {grid} board", cells.len()));
    }
    let mut board = Board::empty(grid);
    for (cell, &(piece, rotation)) in cells.iter().enumerate() {
        let piece = usize::try_from(piece)
            .ok()
            .filter(|&p| p < instance.pieces.len())
            .ok_or_else(|| format!("cell {cell}: no piece {piece} (0-based)"))?;
        let rotation = Rotation::try_from(rotation).map_err(|e| format!("cell {cell}: {e}"))?;
        board.cells[cell] = Some(Placement { piece, rotation });
    }
    Ok(board)
}

/// Reads the Python script's JSON line: its status and board.
fn parse_python(instance: &Instance, stdout: &str) -> Result<(Status, Option<Board>), String> {
    #[derive(serde::Deserialize)]
    struct Line {
        status: String,
        cells: Option<Vec<(i64, i64)>>,
    }
    let line = stdout.lines().rev().find(|l| l.trim_start().starts_with('{')).ok_or("no result line on stdout")?;
    let line: Line = serde_json::from_str(line).map_err(|e| format!("result line: {e}"))?;
    match (line.status.as_str(), line.cells) {
        ("OPTIMAL" | "FEASIBLE", Some(cells)) => Ok((Status::Solved, Some(board_from(instance, &cells)?))),
        ("INFEASIBLE", _) => Ok((Status::Infeasible, None)),
        ("UNKNOWN", _) => Ok((Status::Unknown, None)),
        (status, _) => Err(format!("status {status}")),
    }
}

/// Reads MiniZinc's output: a `BOARD p r p r …` line then `----------`, or
/// `=====UNSATISFIABLE=====`, or `=====UNKNOWN=====`.
fn parse_minizinc(instance: &Instance, stdout: &str) -> Result<(Status, Option<Board>), String> {
    for line in stdout.lines().map(str::trim) {
        if let Some(rest) = line.strip_prefix("BOARD") {
            let numbers: Vec<i64> = rest
                .split_whitespace()
                .map(|w| w.parse::<i64>().map_err(|e| format!("BOARD line: {w:?}: {e}")))
                .collect::<Result<_, _>>()?;
            if !numbers.len().is_multiple_of(2) {
                return Err("BOARD line: odd count of numbers".to_owned());
            }
            let cells: Vec<(i64, i64)> = numbers.chunks(2).map(|pr| (pr[0], pr[1])).collect();
            return Ok((Status::Solved, Some(board_from(instance, &cells)?)));
        }
        match line {
            "=====UNSATISFIABLE=====" => return Ok((Status::Infeasible, None)),
            "=====UNKNOWN=====" => return Ok((Status::Unknown, None)),
            "=====ERROR=====" => return Err("=====ERROR=====".to_owned()),
            _ => {}
        }
    }
    Err("neither a board nor a verdict on stdout".to_owned())
}

/// The instance as MiniZinc data for `table.mzn` (pieces and clues 1-based there).
fn dzn(instance: &Instance) -> String {
    let grid = instance.grid;
    let mut out = String::new();
    let _ = writeln!(out, "W = {};\nH = {};\nN = {};", grid.width, grid.height, instance.pieces.len());
    let _ = writeln!(out, "C = {};", instance.max_colour());
    out.push_str("P = [|");
    for (i, p) in instance.pieces.iter().enumerate() {
        if i > 0 {
            out.push_str("\n   |");
        }
        let _ = write!(out, " {}, {}, {}, {}", p.0[0], p.0[1], p.0[2], p.0[3]);
    }
    out.push_str(" |];\n");
    let list = |f: &dyn Fn(&crate::puzzle::Clue) -> usize| {
        instance.clues.iter().map(|c| f(c).to_string()).collect::<Vec<_>>().join(", ")
    };
    let _ = writeln!(out, "K = {};", instance.clues.len());
    let _ = writeln!(out, "clue_cell = [{}];", list(&|c| c.cell));
    let _ = writeln!(out, "clue_piece = [{}];", list(&|c| c.placement.piece + 1));
    let _ = writeln!(out, "clue_rot = [{}];", list(&|c| usize::from(c.placement.rotation.turns())));
    out
}

/// Runs reference `r` on `instance` for at most `time_limit` wall seconds
/// (`f64::INFINITY` for none), killing the child when `stop` is raised or the
/// limit plus [`GRACE`] passes. The board is the tool's claim: check it.
pub fn solve(r: Reference, instance: &Instance, time_limit: f64, stop: &Stop) -> Result<RefOutcome, Error> {
    if time_limit.is_nan() || time_limit <= 0.0 {
        return Err(Error::Options(format!("{r}: time limit {time_limit} is not a positive number of seconds")));
    }
    let limited = time_limit.is_finite();
    let kill_after = limited.then(|| Duration::from_secs_f64(time_limit) + GRACE);
    if stop.is_raised() {
        return Ok(RefOutcome { status: Status::Interrupted, board: None, seconds: 0.0 });
    }
    let scratch = Scratch::new()?;
    let (program, mut command) = match r {
        Reference::PythonElement => {
            let python = python().map_err(|reason| Error::Options(format!("{r}: {reason}")))?;
            let script = scratch.write("element.py", ELEMENT_PY)?;
            let file = InstanceFile { instance: instance.clone(), name: None, colours: None };
            let data = scratch.write("instance.json", &instance_json::to_string(&file))?;
            let mut command = Command::new(&python);
            let limit = if limited { time_limit.to_string() } else { "0".to_owned() };
            command.arg(script).arg(data).arg(limit).arg(PYTHON_WORKERS.to_string());
            (python, command)
        }
        Reference::MinizincGecode => {
            let model = scratch.write("edgematch_table.mzn", TABLE_MZN)?;
            let data = scratch.write("instance.dzn", &dzn(instance))?;
            let program = PathBuf::from("minizinc");
            let mut command = Command::new(&program);
            command.args(["--solver", "gecode", "-p", "1"]);
            if limited {
                let ms = (time_limit * 1000.0).round().max(1.0);
                command.arg("--time-limit").arg(format!("{ms:.0}"));
            }
            command.arg(model).arg(data);
            (program, command)
        }
    };
    // MiniZinc's FlatZinc file goes to the scratch directory too, so even a killed run leaves nothing behind.
    let _ = command.env("TMPDIR", &scratch.0);
    let run = run(command, kill_after, stop)?;
    let seconds = run.seconds;
    let exit = match run.ended {
        Ended::Stopped => return Ok(RefOutcome { status: Status::Interrupted, board: None, seconds }),
        Ended::TimedOut => return Ok(RefOutcome { status: Status::Unknown, board: None, seconds }),
        Ended::Exited(exit) => exit,
    };
    let parsed = match r {
        Reference::PythonElement => parse_python(instance, &run.stdout),
        Reference::MinizincGecode => parse_minizinc(instance, &run.stdout),
    };
    match parsed {
        Ok((status, board)) => Ok(RefOutcome { status, board, seconds }),
        Err(message) => {
            Err(tool_error(&program, format!("{r} ({exit}): {message}; stderr: {}", last_line(&run.stderr))))
        }
    }
}

#[cfg(test)]
mod tests;
