//! Fuzzes the decoded-board reader (`A1 y x piece rot N E S W`) against the 4×4 fixture.
#![no_main]

use edgematch::formats::board_text;
use edgematch_fuzz::{fixture, path, text};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some(text) = text(data) else { return };
    let (instance, _) = fixture();
    if let Ok(board) = board_text::parse(path(), text, instance) {
        let written = board_text::to_string(&board, instance);
        assert_eq!(board_text::parse(path(), &written, instance).expect("a written board reads back"), board);
    }
});
