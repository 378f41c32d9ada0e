//! The sizes edgematch accepts, in one place, and the bounded file read every reader starts from.
//!
//! Every number read from a file or the command line is checked against
//! these before anything proportional to it is allocated: board sides by
//! [`crate::puzzle::Grid::new`], colours by their `u8` type, piece and clue
//! counts against the board's cells, and whole files against
//! [`MAX_FILE_BYTES`] before they are read.

use std::io::Read as _;
use std::path::Path;

use crate::error::Error;

pub use crate::puzzle::MAX_SIDE;

/// The largest colour number (colours are bytes; 0 is the grey rim).
pub const MAX_COLOUR: u8 = u8::MAX;
/// The most cells (and so pieces and clues) a board can have.
pub const MAX_CELLS: usize = MAX_SIDE * MAX_SIDE;
/// The largest input file read, in bytes (16 MiB). The largest legitimate
/// input, a 64×64 decoded board with comments, is about 150 KB.
pub const MAX_FILE_BYTES: u64 = 16 << 20;

/// Reads a whole text file of at most [`MAX_FILE_BYTES`], naming it in the error.
/// The size is checked before reading (and again while reading, for pipes and
/// special files whose size is not known in advance).
pub fn read_text(path: &Path) -> Result<String, Error> {
    let io = |source| Error::Io { path: path.to_owned(), source };
    let file = std::fs::File::open(path).map_err(io)?;
    let too_big = || {
        io(std::io::Error::other(format!(
            "larger than {MAX_FILE_BYTES} bytes ({} MiB), the most edgematch reads",
            MAX_FILE_BYTES >> 20
        )))
    };
    let declared = file.metadata().map_err(io)?.len();
    if declared > MAX_FILE_BYTES {
        return Err(too_big());
    }
    let mut bytes = Vec::with_capacity(declared as usize);
    file.take(MAX_FILE_BYTES + 1).read_to_end(&mut bytes).map_err(io)?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(too_big());
    }
    String::from_utf8(bytes).map_err(|e| io(std::io::Error::new(std::io::ErrorKind::InvalidData, e.utf8_error())))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_above_the_limit_is_refused_before_reading() {
        let dir = std::env::temp_dir().join(format!("edgematch-limits-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let big = dir.join("big.json");
        let file = std::fs::File::create(&big).unwrap();
        file.set_len(MAX_FILE_BYTES + 1).unwrap(); // sparse: no disk used
        let message = read_text(&big).unwrap_err().to_string();
        assert!(message.contains("big.json") && message.contains("larger than"), "{message}");
        std::fs::write(dir.join("small.txt"), "1 2\n").unwrap();
        assert_eq!(read_text(&dir.join("small.txt")).unwrap(), "1 2\n");
        std::fs::write(dir.join("bad.txt"), [0xff, 0xfe]).unwrap();
        assert!(read_text(&dir.join("bad.txt")).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
