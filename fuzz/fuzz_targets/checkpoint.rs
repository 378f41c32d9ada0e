//! Fuzzes the checkpoint reader and the resume: a checkpoint parsed with the
//! instance it embeds must write back and read back the same; then a score
//! run is opened on it as `solve --objective score --checkpoint FILE` opens
//! one (its board checked, its seed and plan checked as flags are). None of it
//! may panic; the run is opened, not solved.
#![no_main]

use edgematch::formats::checkpoint;
use edgematch::outcome::Limits;
use edgematch::score;
use edgematch::score_run::{Run, Setup};
use edgematch::solver::{Solver, SolverKind};
use edgematch_fuzz::{path, scratch_file, text};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some(text) = text(data) else { return };
    let Ok((instance, read)) = checkpoint::parse_alone(path(), text) else { return };
    let file = scratch_file("checkpoint.json");
    checkpoint::write(&file, &instance, &read).expect("a checkpoint read is written");
    let (own, again) = checkpoint::read_alone(&file).expect("a checkpoint written reads back");
    assert_eq!(checkpoint::instance_sha256(&own), checkpoint::instance_sha256(&instance));
    assert_eq!((&again.board, &again.run), (&read.board, &read.run));
    assert!((again.seconds - read.seconds).abs() <= 1e-3 * read.seconds.max(1.0), "{} {}", read.seconds, again.seconds);
    // The resume, from the bytes as they came.
    std::fs::write(&file, text).expect("the scratch file is written");
    let setup = Setup { checkpoint: Some(file), ..Setup::default() };
    let solver = Solver::new(SolverKind::Auto);
    let _ = Run::open(&instance, &solver, score::Options::default(), &Limits::default(), setup);
});
