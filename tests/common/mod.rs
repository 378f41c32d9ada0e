//! Helpers the integration tests share: run the real binary, read its output, make scratch folders.
#![allow(dead_code)] // each test crate uses its own subset

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The `edgematch` binary cargo built for these tests.
pub(crate) fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_edgematch"))
}

/// Runs the binary with `args` and waits for it.
pub(crate) fn run(args: &[&str]) -> Output {
    bin().args(args).output().expect("the binary runs")
}

/// Standard output and standard error, one after the other.
pub(crate) fn text(output: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr))
}

/// A fresh, empty folder under the target directory.
pub(crate) fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}
