//! DIMACS in and out: CNF files with a comment block naming every variable, and SAT solvers' answers read back.
//!
//! The comment block before the `p cnf` line says what each variable stands
//! for, one line each, so the file can be read without edgematch:
//!
//! ```text
//! c x VAR CELL ROW COL PIECE ROT      placement (pieces from 1, ROT quarter turns clockwise)
//! c s VAR CELL ROW COL SIDE COLOUR    seam colour on the E or S side of CELL
//! c aux FIRST LAST                    auxiliary variables of at-most-one encodings
//! ```
//!
//! Answers are read in the SAT competition format (`s SATISFIABLE`, then `v`
//! lines of literals ending in 0; `s UNSATISFIABLE`; `s UNKNOWN`) and in
//! MiniSat's result-file format (`SAT` then one line of literals; `UNSAT`;
//! `INDET`).

use std::collections::BTreeSet;
use std::io::{self, Write};

use super::encode::{Encoding, Meaning};
use crate::puzzle::{Grid, Placement};

/// Writes one clause as a DIMACS line.
pub fn write_clause(out: &mut impl Write, clause: &[i32]) -> io::Result<()> {
    for lit in clause {
        write!(out, "{lit} ")?;
    }
    writeln!(out, "0")
}

/// Writes the `c x` lines for the placement variables `1..=placements.len()`.
pub fn write_placement_comments(out: &mut impl Write, grid: Grid, placements: &[(usize, Placement)]) -> io::Result<()> {
    for (i, &(cell, p)) in placements.iter().enumerate() {
        let (row, col) = grid.row_col(cell);
        writeln!(out, "c x {} {cell} {row} {col} {} {}", i + 1, p.piece + 1, p.rotation.turns())?;
    }
    Ok(())
}

/// Writes the seam encoding with its comment block; `title` lines come first.
pub fn write_seam(out: &mut impl Write, encoding: &Encoding, title: &[String]) -> io::Result<()> {
    for line in title {
        writeln!(out, "c {line}")?;
    }
    write_placement_comments(out, encoding.grid, &encoding.placements)?;
    let first_seam = encoding.placements.len() as u32 + 1;
    for v in first_seam..first_seam + encoding.seams.len() as u32 {
        if let Some(Meaning::Seam { cell, side, colour }) = encoding.meaning(v) {
            let (row, col) = encoding.grid.row_col(cell);
            writeln!(out, "c s {v} {cell} {row} {col} {side:?} {colour}")?;
        }
    }
    write_aux(out, first_seam + encoding.seams.len() as u32, encoding.cnf.variables)?;
    encoding.cnf.write_dimacs(out)
}

/// Writes the `c aux` line if `first..=last` is not empty.
pub fn write_aux(out: &mut impl Write, first: u32, last: u32) -> io::Result<()> {
    if first <= last {
        writeln!(out, "c aux {first} {last}")?;
    }
    Ok(())
}

/// A SAT solver's verdict on a CNF.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// A model: the variables it sets true (every other variable is false).
    Satisfiable(BTreeSet<u32>),
    /// The solver proved there is no model.
    Unsatisfiable,
    /// The solver gave up (time limit, memory).
    Unknown,
}

/// What is wrong with an answer file, and on which line (1-based; 0 for the file as a whole).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {message}")]
pub struct AnswerError {
    /// 1-based line, 0 when the file as a whole is at fault.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

/// Reads a SAT solver's answer: competition (`s`/`v` lines) or MiniSat format.
/// Literals must be within ±`max_var` (the CNF's variable count), and a
/// variable may not be both true and false.
pub fn read_answer(text: &str, max_var: u32) -> Result<Answer, AnswerError> {
    let error = |line: usize, message: String| AnswerError { line, message };
    let mut status: Option<(usize, &str)> = None;
    let mut true_vars = BTreeSet::new();
    let mut false_vars = BTreeSet::new();
    let mut saw_literals = false;
    for (i, raw) in text.lines().enumerate() {
        let line_no = i + 1;
        let line = raw.trim();
        let (head, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let literals = match head {
            "" | "c" => continue,
            "s" | "SAT" | "UNSAT" | "INDET" => {
                let word = if head == "s" { rest.trim() } else { head };
                let verdict = match word {
                    "SATISFIABLE" | "SAT" => "sat",
                    "UNSATISFIABLE" | "UNSAT" => "unsat",
                    "UNKNOWN" | "INDET" => "unknown",
                    other => return Err(error(line_no, format!("unknown status `{other}`"))),
                };
                if let Some((first, _)) = status {
                    return Err(error(line_no, format!("a second status line (the first is on line {first})")));
                }
                status = Some((line_no, verdict));
                if head == "s" || rest.trim().is_empty() {
                    continue;
                }
                rest
            }
            "v" => rest,
            _ if status.is_some_and(|(_, v)| v == "sat") && head.parse::<i64>().is_ok() => line,
            _ => return Err(error(line_no, format!("expected a `c`, `s` or `v` line, found `{}`", clip(line)))),
        };
        if status.is_none_or(|(_, v)| v != "sat") {
            return Err(error(line_no, "literals without a preceding SATISFIABLE status".to_owned()));
        }
        for word in literals.split_whitespace() {
            let lit: i64 = word.parse().map_err(|_| error(line_no, format!("`{}` is not a literal", clip(word))))?;
            if lit == 0 {
                continue;
            }
            let var = lit.unsigned_abs();
            if var > u64::from(max_var) {
                return Err(error(line_no, format!("literal {lit} names a variable above {max_var}, the CNF's last")));
            }
            let var = var as u32;
            let (this, other) = if lit > 0 { (&mut true_vars, &false_vars) } else { (&mut false_vars, &true_vars) };
            if other.contains(&var) {
                return Err(error(line_no, format!("variable {var} is given both values")));
            }
            this.insert(var);
            saw_literals = true;
        }
    }
    match status {
        None => Err(error(0, "no status line (`s SATISFIABLE`, `s UNSATISFIABLE`, `SAT`, `UNSAT`)".to_owned())),
        Some((line, "sat")) if !saw_literals => {
            Err(error(line, "SATISFIABLE without a model (no `v` lines)".to_owned()))
        }
        Some((_, "sat")) => Ok(Answer::Satisfiable(true_vars)),
        Some((_, "unsat")) => Ok(Answer::Unsatisfiable),
        Some(_) => Ok(Answer::Unknown),
    }
}

/// At most 40 characters of `s`, for messages.
fn clip(s: &str) -> String {
    let mut out: String = s.chars().take(40).collect();
    if out.len() < s.len() {
        out.push('…');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_competition_and_minisat_answers() {
        let sat = "c a comment\ns SATISFIABLE\nv 1 -2 3\nv -4 0\n";
        assert_eq!(read_answer(sat, 4), Ok(Answer::Satisfiable([1, 3].into())));
        assert_eq!(read_answer("SAT\n1 -2 3 -4 0\n", 4), Ok(Answer::Satisfiable([1, 3].into())));
        assert_eq!(read_answer("s UNSATISFIABLE\n", 4), Ok(Answer::Unsatisfiable));
        assert_eq!(read_answer("UNSAT\n", 4), Ok(Answer::Unsatisfiable));
        assert_eq!(read_answer("s UNKNOWN\n", 4), Ok(Answer::Unknown));
    }

    #[test]
    fn refuses_what_is_not_an_answer_naming_the_line() {
        let line = |text: &str| read_answer(text, 4).unwrap_err().line;
        assert_eq!(line("s SATISFIABLE\nv 1 x 0\n"), 2);
        assert_eq!(line("s SATISFIABLE\nv 1 5 0\n"), 2, "above the last variable");
        assert_eq!(line("s SATISFIABLE\nv 1 -1 0\n"), 2, "both values");
        assert_eq!(line("v 1 0\n"), 1, "literals before the status");
        assert_eq!(line("s SATISFIABLE\ns UNSATISFIABLE\n"), 2);
        assert_eq!(line("s MAYBE\n"), 1);
        assert_eq!(line("hello\n"), 1);
        assert_eq!(line(""), 0);
        assert_eq!(line("s SATISFIABLE\n"), 1, "no model");
        assert!(read_answer("s SATISFIABLE\nv 99999999999999999999 0", 4).is_err());
    }
}
