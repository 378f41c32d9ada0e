//! Writing output files whole or not at all: a temporary file beside the target, then a rename.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use crate::error::Error;

/// Writes `bytes` to `path` through a temporary file in the same folder, so a
/// reader (or a crash) never sees a half-written file.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), Error> {
    write_atomic_with(path, |out| out.write_all(bytes))
}

/// Like [`write_atomic`], for output too large to hold in memory: `write`
/// streams it into a buffered temporary file, renamed onto `path` only if
/// every write succeeded.
pub fn write_atomic_with(
    path: &Path,
    write: impl FnOnce(&mut std::io::BufWriter<std::fs::File>) -> std::io::Result<()>,
) -> Result<(), Error> {
    let io = |source| Error::Io { path: path.to_owned(), source };
    // A device or a pipe (`-o /dev/null`, `-o /dev/stdout`) is written in place:
    // renaming a file onto it would replace the device itself.
    if std::fs::metadata(path).is_ok_and(|m| !m.is_file() && !m.is_dir()) {
        let mut out = std::io::BufWriter::new(std::fs::OpenOptions::new().write(true).open(path).map_err(io)?);
        return write(&mut out).and_then(|()| out.flush()).map_err(io);
    }
    let tmp = temporary_beside(path).map_err(io)?;
    let result = (|| {
        // `create_new`: never open a file another writer is filling.
        let mut out = std::io::BufWriter::new(std::fs::OpenOptions::new().write(true).create_new(true).open(&tmp)?);
        write(&mut out)?;
        let file = out.into_inner().map_err(|e| e.into_error())?;
        file.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result.map_err(io)
}

/// A temporary name beside `path`, unique among this process's writes and
/// other processes' (`.NAME.PID.N.tmp`, N counting this process's writes), so
/// that two writes of one path, on two threads or by two runs, never share a file.
fn temporary_beside(path: &Path) -> std::io::Result<PathBuf> {
    static WRITES: AtomicU64 = AtomicU64::new(0);
    let name = path.file_name().ok_or_else(|| std::io::Error::other("not a file path"))?;
    let mut tmp_name = std::ffi::OsString::from(".");
    tmp_name.push(name);
    tmp_name.push(format!(".{}.{}.tmp", std::process::id(), WRITES.fetch_add(1, Ordering::Relaxed)));
    Ok(path.with_file_name(tmp_name))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_device_is_written_in_place_not_replaced() {
        let null = Path::new("/dev/null");
        if !std::fs::metadata(null).is_ok_and(|m| !m.is_file()) {
            return; // not a Unix-like system with a null device
        }
        write_atomic(null, b"discarded").unwrap();
        assert!(!std::fs::metadata(null).unwrap().is_file(), "/dev/null is still a device");
        assert!(
            std::fs::read_dir("/dev").unwrap().flatten().all(|e| !e.file_name().to_string_lossy().ends_with(".tmp"))
        );
    }

    /// Sixteen threads write one path at once, each its own contents many
    /// times: every write succeeds and the file always holds one writer's
    /// contents whole. Catches a temporary name shared by two writes (one
    /// truncates the other's file, or a rename moves a half-written one).
    #[test]
    fn concurrent_writes_of_one_path_never_mix() {
        let dir = std::env::temp_dir().join(format!("edgematch-output-race-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("a.json");
        let contents: Vec<Vec<u8>> = (0..16u8).map(|t| vec![b'a' + t; 16 * 1024]).collect();
        std::thread::scope(|scope| {
            for bytes in &contents {
                let (path, contents) = (&path, &contents);
                let _ = scope.spawn(move || {
                    for _ in 0..5 {
                        write_atomic(path, bytes).unwrap();
                        let read = std::fs::read(path).unwrap();
                        assert!(contents.contains(&read), "a mixed or cut file");
                    }
                });
            }
        });
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1, "no temporary left");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn writes_whole_file_and_leaves_no_temporary() {
        let dir = std::env::temp_dir().join(format!("edgematch-output-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("a.json");
        write_atomic(&path, b"one").unwrap();
        write_atomic(&path, b"two").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"two");
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1);
        assert!(write_atomic(&dir.join("missing").join("x"), b"").is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
