//! What every subcommand shows the same way: the instance line, the exit code after Ctrl-C, the library's log.

use std::path::Path;
use std::process::ExitCode;

use edgematch::formats::load;

/// The `instance:` line: path, size, pieces, clues, and how a piece list was read.
pub(crate) fn describe(path: &Path, loaded: &load::Loaded) -> String {
    let instance = &loaded.instance;
    let columns = loaded.columns.map_or(String::new(), |c| format!(", columns {c}"));
    format!(
        "instance: {} ({}, {} pieces, {} clues{columns})",
        path.display(),
        instance.grid,
        instance.pieces.len(),
        instance.clues.len()
    )
}

/// Exit code 130 after Ctrl-C, else `code`.
pub(crate) fn unless_interrupted(code: ExitCode) -> ExitCode {
    if edgematch::interrupt::raised() {
        eprintln!("interrupted");
        ExitCode::from(130)
    } else {
        code
    }
}

/// Prints the library's `log` records on stderr as `TARGET: MESSAGE` (the
/// search's `--explain` lines, for one). Without it they go nowhere.
struct Stderr;

impl log::Log for Stderr {
    fn enabled(&self, metadata: &log::Metadata<'_>) -> bool {
        metadata.level() <= log::max_level()
    }

    fn log(&self, record: &log::Record<'_>) {
        if self.enabled(record.metadata()) {
            eprintln!("{}: {}", record.target(), record.args());
        }
    }

    fn flush(&self) {}
}

/// Shows the library's log records up to `level` on stderr (once per process).
pub(crate) fn log_to_stderr(level: log::LevelFilter) {
    if log::set_logger(&Stderr).is_ok() {
        log::set_max_level(level);
    }
}
