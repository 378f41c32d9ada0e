//! Fuzzes the clue-list reader against the 4×4 fixture.
#![no_main]

use edgematch::formats::clue_list;
use edgematch_fuzz::{fixture, path, text};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some(text) = text(data) else { return };
    let (instance, _) = fixture();
    if let Ok(clues) = clue_list::parse(path(), text, instance) {
        assert!(clues.len() <= instance.grid.cells());
    }
});
