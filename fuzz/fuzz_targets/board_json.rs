//! Fuzzes the board JSON reader; a board read is also scored and checked
//! against the fixture, as `verify` would.
#![no_main]

use edgematch::check;
use edgematch::formats::board_json;
use edgematch_fuzz::{fixture, path, text};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some(text) = text(data) else { return };
    if let Ok(board) = board_json::parse(path(), text) {
        let written = board_json::to_string(&board);
        assert_eq!(board_json::parse(path(), &written).expect("a written board reads back"), board);
        let (instance, _) = fixture();
        if board.grid == instance.grid {
            let _ = check::check(instance, &board);
        }
    }
});
