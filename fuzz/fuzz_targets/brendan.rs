//! Fuzzes the reader of Brendan Owen's solution files against the 4×4 fixture.
#![no_main]

use edgematch::formats::brendan;
use edgematch_fuzz::{fixture, path, text};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some(text) = text(data) else { return };
    let (instance, _) = fixture();
    let _ = brendan::sniff(text);
    if let Ok(board) = brendan::parse(path(), text, instance) {
        assert_eq!(board.grid, instance.grid);
    }
});
