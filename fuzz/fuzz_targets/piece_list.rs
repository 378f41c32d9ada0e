//! Fuzzes the piece-list reader in every column order: the first byte picks one
//! of the 24 orders (or the file's header), the second an optional board size.
#![no_main]

use edgematch::formats::piece_list::{self, Columns};
use edgematch::puzzle::Grid;
use edgematch_fuzz::{path, text};
use libfuzzer_sys::fuzz_target;

/// The 24 orders of the four sides, as `Columns` parses them.
fn order(k: u8) -> Columns {
    let mut sides = vec!['n', 'e', 's', 'w'];
    let mut k = usize::from(k) % 24;
    let mut name = String::new();
    for radix in (1..=4).rev() {
        name.push(sides.remove(k % radix));
        k /= radix;
    }
    name.parse().expect("a permutation of nesw is a column order")
}

fuzz_target!(|data: &[u8]| {
    let [pick, size, rest @ ..] = data else { return };
    let Some(text) = text(rest) else { return };
    let columns = if *pick >= 24 { Columns::from_header(text).unwrap_or(Columns::NESW) } else { order(*pick) };
    let size = (*size != 0).then(|| Grid::new(usize::from(size >> 4) + 1, usize::from(size & 15) + 1).unwrap());
    if let Ok(instance) = piece_list::parse(path(), text, columns, size) {
        assert_eq!(instance.pieces.len(), instance.grid.cells());
        let written = piece_list::to_string(&instance);
        let again = piece_list::parse(path(), &written, Columns::NESW, None).expect("a written list reads back");
        assert_eq!(again, instance);
    }
});
