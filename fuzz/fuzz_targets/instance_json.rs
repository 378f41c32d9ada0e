//! Fuzzes the instance JSON reader; a valid instance must round-trip through its writer.
#![no_main]

use edgematch::formats::instance_json;
use edgematch_fuzz::{path, text};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some(text) = text(data) else { return };
    if let Ok(file) = instance_json::parse(path(), text) {
        let written = instance_json::to_string(&file);
        let again = instance_json::parse(path(), &written).expect("a written instance reads back");
        assert_eq!(again, file);
    }
});
