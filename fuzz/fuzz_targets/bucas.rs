//! Fuzzes the e2.bucas.name link reader and its piece matching against the 4×4 fixture.
#![no_main]

use edgematch::formats::bucas;
use edgematch_fuzz::{fixture, path, text};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some(text) = text(data) else { return };
    let (instance, _) = fixture();
    if let Ok(link) = bucas::first_link(path(), text) {
        let _ = bucas::to_board(path(), &link, instance);
    }
});
