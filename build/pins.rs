//! Pinned SHA-256 digests of downloaded files: the pin file's reader and the check.
//!
//! Used by `build.rs` before it unpacks the OR-Tools wheel, and by the test
//! suite (`tests/reliability.rs`) to show a mismatch stops the build with a
//! message naming the file and both digests.

use std::fs;
use std::path::Path;

/// One pinned file: its lowercase hex SHA-256 and its file name.
pub(crate) struct Pin {
    /// The digest, 64 lowercase hex digits.
    pub(crate) digest: String,
    /// The file name, as pip saves it.
    pub(crate) name: String,
}

/// Reads a pin file: `digest  file-name` lines as `sha256sum` prints them; `#` starts a comment line.
pub(crate) fn read(path: &Path) -> Result<Vec<Pin>, String> {
    let text =
        fs::read_to_string(path).map_err(|e| format!("cannot read the pinned digests {}: {e}", path.display()))?;
    let mut pins = Vec::new();
    for (k, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        match line.split_once(char::is_whitespace) {
            Some((digest, name)) if digest.len() == 64 && digest.bytes().all(|b| b.is_ascii_hexdigit()) => {
                let name = name.trim().trim_start_matches('*').to_owned();
                pins.push(Pin { digest: digest.to_ascii_lowercase(), name });
            }
            _ => return Err(format!("{}: line {}: expected `sha256  file-name`", path.display(), k + 1)),
        }
    }
    Ok(pins)
}

/// The SHA-256 of a file, as lowercase hex.
pub(crate) fn sha256(file: &Path) -> Result<String, String> {
    use sha2::{Digest as _, Sha256};
    let mut hasher = Sha256::new();
    let mut input = fs::File::open(file).map_err(|e| format!("cannot read {}: {e}", file.display()))?;
    std::io::copy(&mut input, &mut hasher).map_err(|e| format!("cannot read {}: {e}", file.display()))?;
    Ok(hasher.finalize().iter().map(|b| format!("{b:02x}")).collect())
}

/// Checks a downloaded file against the digest pinned for its name in `pins`
/// (read from `pin_file`, named in messages); the error names the file and both digests.
pub(crate) fn check(file: &Path, pins: &[Pin], pin_file: &str) -> Result<(), String> {
    let name = file.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let actual = sha256(file)?;
    match pins.iter().find(|pin| pin.name == name) {
        Some(pin) if pin.digest == actual => Ok(()),
        Some(pin) => Err(format!(
            "{name}: SHA-256 mismatch: the downloaded file has {actual}, {pin_file} pins {}; \
             the file was not unpacked",
            pin.digest
        )),
        None => Err(format!(
            "{name}: no SHA-256 is pinned for this file in {pin_file} (the downloaded file has {actual}); \
             add that line only if you trust the file, or set EDGEMATCH_ORTOOLS_LIB_DIR"
        )),
    }
}
