//! Shared fixtures of the fuzz targets: the instances boards are read against,
//! and the byte-to-text step every reader starts from.

use std::path::Path;
use std::sync::OnceLock;

use edgematch::generate::{PlantedSpec, planted};
use edgematch::puzzle::{Board, Instance};

/// The file name every reader is given (only used in its messages).
pub const PATH: &str = "fuzz-input";

/// The file name as a path.
pub fn path() -> &'static Path {
    Path::new(PATH)
}

/// A planted 4×4 board with 2 frame and 3 interior colours (colours ≤ 22, so
/// bucas links can show it), with its solution: the instance every board
/// reader and the clue reader are fuzzed against.
pub fn fixture() -> &'static (Instance, Board) {
    static FIXTURE: OnceLock<(Instance, Board)> = OnceLock::new();
    FIXTURE.get_or_init(|| {
        let spec = PlantedSpec::square(4, 2, 3, 1);
        let p = planted(&spec).expect("the 4x4 fixture is generated");
        (p.instance, p.solution)
    })
}

/// The readers take text, as the files are read with `read_to_string`: input
/// that is not UTF-8 never reaches them.
pub fn text(data: &[u8]) -> Option<&str> {
    std::str::from_utf8(data).ok()
}

/// A file of this process's own under the temporary folder, for the targets
/// whose code under test reads and writes files (the same path every call).
pub fn scratch_file(name: &str) -> std::path::PathBuf {
    std::env::temp_dir().join(format!("edgematch-fuzz-{}-{name}", std::process::id()))
}
