//! Fuzzes the board loader that picks a reader by content (as `verify` and
//! `render` read a board), then runs the checker on what it read.
#![no_main]

use edgematch::check;
use edgematch::formats::load;
use edgematch_fuzz::{fixture, path, text};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some(text) = text(data) else { return };
    let (instance, _) = fixture();
    if let Ok(loaded) = load::board_from_text(path(), text, instance) {
        let _ = check::check(instance, &loaded.board);
    }
});
