//! Fuzzes the reader of SAT solvers' answers (`decode`'s DIMACS model reader):
//! the first two bytes give the CNF's variable count, the rest is the answer file.
#![no_main]

use edgematch::sat::dimacs::{Answer, read_answer};
use edgematch_fuzz::text;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let [hi, lo, rest @ ..] = data else { return };
    let Some(text) = text(rest) else { return };
    let max_var = u32::from(u16::from_be_bytes([*hi, *lo]));
    if let Ok(Answer::Satisfiable(vars)) = read_answer(text, max_var) {
        assert!(vars.iter().all(|&v| (1..=max_var).contains(&v)));
    }
});
