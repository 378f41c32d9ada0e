//! Writes the seed corpus of every fuzz target into `corpus/<target>/`: files
//! from the repository's `models/` and `data/`, and the 4×4 fixture written by
//! each format's writer. Run from `fuzz/`: `cargo run --example seeds`.

use std::fs;
use std::path::{Path, PathBuf};

use edgematch::formats::checkpoint::{self, Asked, Checkpoint, RunState, SavedPlan};
use edgematch::formats::{board_json, board_text, brendan, bucas, instance_json, piece_list};
use edgematch::puzzle::{Board, Instance};
use edgematch_fuzz::fixture;

/// Repository files, relative to the repository root.
const INSTANCES: &[&str] = &["models/planted-10x10-f5i17-s1.json"];
const BOARDS: &[&str] = &[
    "models/planted-10x10-f5i17-s1.solution.json",
    "data/boards/Joshua_Blackwood_470.url",
    "data/boards/Joshua_Blackwood_470.txt",
    "data/brendan/solutions/solutions_04x04.txt",
];
const PIECES: &[&str] = &["data/official/pieces.txt", "data/brendan/pieces_04x04.txt"];
const CLUES: &[&str] = &["data/official/clues.txt"];

fn main() -> std::io::Result<()> {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let corpus = PathBuf::from(std::env::args().nth(1).unwrap_or_else(|| "corpus".to_owned()));
    let (instance, solution) = fixture();
    let read = |name: &str| fs::read(repo.join(name));
    let mut partial = solution.clone();
    partial.cells[5] = None;

    let write = |target: &str, name: &str, bytes: &[u8]| -> std::io::Result<()> {
        let dir = corpus.join(target);
        fs::create_dir_all(&dir)?;
        fs::write(dir.join(name), bytes)
    };

    let file = instance_json::InstanceFile { instance: instance.clone(), name: Some("fixture".into()), colours: None };
    write("instance_json", "fixture.json", instance_json::to_string(&file).as_bytes())?;
    for name in INSTANCES {
        write("instance_json", &seed_name(name), &read(name)?)?;
    }

    let fixture_boards = [
        ("fixture.board.json", board_json::to_string(solution)),
        ("partial.board.json", board_json::to_string(&partial)),
        ("fixture.url", bucas::to_link(solution, instance, "fixture")),
        ("partial.url", bucas::to_link(&partial, instance, "partial")),
        ("fixture.txt", board_text::to_string(solution, instance)),
        ("partial.txt", board_text::to_string(&partial, instance)),
        ("fixture.brendan", brendan::to_string(solution).expect("a full board")),
    ];
    for (name, text) in &fixture_boards {
        let target = match name.rsplit('.').next() {
            Some("json") => "board_json",
            Some("url") => "bucas",
            Some("txt") => "board_text",
            _ => "brendan",
        };
        write(target, name, text.as_bytes())?;
        write("board_any", name, text.as_bytes())?;
    }
    for name in BOARDS {
        let target = match Path::new(name).extension().and_then(|e| e.to_str()) {
            Some("json") => "board_json",
            Some("url") => "bucas",
            _ if name.contains("brendan") => "brendan",
            _ => "board_text",
        };
        write(target, &seed_name(name), &read(name)?)?;
        write("board_any", &seed_name(name), &read(name)?)?;
    }

    // Piece lists: byte 0 picks the column order (24 = from the header), byte 1 the size (0 = none).
    let mut own = vec![0u8, 0];
    own.extend_from_slice(piece_list::to_string(instance).as_bytes());
    write("piece_list", "fixture.txt", &own)?;
    for name in PIECES {
        let mut bytes = vec![24u8, 0];
        bytes.extend_from_slice(&read(name)?);
        write("piece_list", &seed_name(name), &bytes)?;
    }

    // A clue list for the fixture: its solution's first cells, with the colours they show.
    let mut clues = String::from("# name piece cell y x rot rot_nesw N E S W\n");
    for cell in [0, 5, 15] {
        let p = solution.cells[cell].expect("a full board");
        let (y, x) = instance.grid.row_col(cell);
        let [n, e, s, w] = instance.pieces[p.piece].rotated(p.rotation);
        let r = p.rotation.turns();
        clues.push_str(&format!("c{cell} {} {cell} {y} {x} {r} {r} {n} {e} {s} {w}\n", p.piece + 1));
    }
    write("clue_list", "fixture.txt", clues.as_bytes())?;
    for name in CLUES {
        write("clue_list", &seed_name(name), &read(name)?)?;
    }
    write_checkpoints(&corpus.join("checkpoint"), instance, solution)?;
    // SAT answers for a CNF of 300 variables: bytes 0-1 are the variable count.
    for (name, answer) in [
        ("competition.txt", "c comment\ns SATISFIABLE\nv 1 -2 3 -4 300\nv -299 0\n"),
        ("minisat.txt", "SAT\n1 -2 3 0\n"),
        ("unsat.txt", "s UNSATISFIABLE\n"),
        ("unknown.txt", "s UNKNOWN\n"),
    ] {
        let mut bytes = 300u16.to_be_bytes().to_vec();
        bytes.extend_from_slice(answer.as_bytes());
        write("dimacs_answer", name, &bytes)?;
    }
    Ok(())
}

/// The fixture's checkpoints into `dir`, one of each version: 4 with a board
/// and without one (a run whose plan settled before its first board), and 3
/// and 2 as their writers wrote them (the same fields, less what they did not
/// have: 3 kept no `asked`, 2 no run state). The corpus also holds files the
/// binaries of those versions wrote (see results/fuzz.md).
fn write_checkpoints(dir: &Path, instance: &Instance, solution: &Board) -> std::io::Result<()> {
    fs::create_dir_all(dir)?;
    let plan = SavedPlan {
        order: "row-scan".to_owned(),
        breaks: "0:1".to_owned(),
        quota: "none".to_owned(),
        completion: "none".to_owned(),
    };
    let asked = Asked { breaks: Some("0:1".to_owned()), ..Asked::default() };
    let run = RunState { seed: 1, generation: 1, attempts: vec![3, 2], placements: 1000, plan: Some(plan), asked: Some(asked) };
    let full = Checkpoint { seconds: 2.5, board: Some(solution.clone()), run: Some(run.clone()) };
    let written = |name: &str, state: &Checkpoint| -> std::io::Result<String> {
        checkpoint::write(&dir.join(name), instance, state).map_err(std::io::Error::other)?;
        fs::read_to_string(dir.join(name))
    };
    let _ = written("fixture-v4.json", &full)?;
    let _ = written("fixture-v4-no-board.json", &Checkpoint { board: None, ..full.clone() })?;
    let three = written("fixture-v3.json", &Checkpoint { run: Some(RunState { asked: None, ..run }), ..full.clone() })?;
    fs::write(dir.join("fixture-v3.json"), three.replace(checkpoint::FORMAT, "edgematch-score-checkpoint/3"))?;
    let two = written("fixture-v2.json", &Checkpoint { run: None, ..full })?;
    fs::write(dir.join("fixture-v2.json"), two.replace(checkpoint::FORMAT, "edgematch-score-checkpoint/2"))
}

/// A corpus file name for a repository path.
fn seed_name(path: &str) -> String {
    path.replace('/', "_")
}
