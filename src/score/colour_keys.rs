//! The scan lists' colour keys: the board's colours numbered densely, so that every key, and the key of a missing side, fits a byte.

use crate::puzzle::{Colour, GREY, Instance, Piece};

/// `instance` and `quota` with their colours numbered densely, in their
/// order: grey stays 0, the others become 1, 2, ... A list's key is a colour
/// and one more key means a missing side, all in a byte: the reader accepts
/// any colour up to 255 (a board showing colour 255 would need key 256),
/// while the keys only need as many values as the board shows colours.
/// Quota colours no piece shows are dropped (they cannot be counted).
///
/// # Errors
/// More than 254 colours besides grey.
pub(crate) fn dense_colours(instance: &Instance, quota: &[Colour]) -> Result<(Instance, Vec<Colour>), String> {
    let mut shown = [false; 256];
    for piece in &instance.pieces {
        for &c in &piece.0 {
            shown[usize::from(c)] = true;
        }
    }
    let mut key = [GREY; 256];
    let mut colours: usize = 0;
    for c in 1..256 {
        if shown[c] {
            colours += 1;
            key[c] = colours as Colour;
        }
    }
    if colours > usize::from(u8::MAX) - 1 {
        return Err(format!("the pieces show {colours} colours besides grey; the scan walk keys at most 254"));
    }
    let pieces = instance.pieces.iter().map(|p| Piece(p.0.map(|c| key[usize::from(c)]))).collect();
    let quota = quota.iter().filter(|&&c| shown[usize::from(c)]).map(|&c| key[usize::from(c)]).collect();
    Ok((Instance { pieces, ..instance.clone() }, quota))
}

/// A planted 6×6 whose highest colour is renamed 255 (the reader accepts
/// it), and the colour it was: the board the tests of colour 255 run on.
#[cfg(test)]
pub(crate) fn planted_showing_255() -> (Instance, Colour) {
    let p = crate::generate::planted(&crate::generate::PlantedSpec::square(6, 3, 5, 1)).unwrap();
    let top = p.instance.max_colour();
    let mut instance = p.instance;
    for piece in &mut instance.pieces {
        piece.0 = piece.0.map(|c| if c == top { 255 } else { c });
    }
    (instance, top)
}

#[cfg(test)]
mod tests {
    use super::super::lists::{Lists, Rec};
    use super::planted_showing_255;
    use crate::search::Order;

    /// A board whose pieces show colour 255 (the reader accepts it) gets
    /// lists whose keys fit a byte, and the records turn back into the
    /// pieces as the instance numbers them. Fails if the keys are the raw
    /// colour numbers (257 keys: the scan's byte keys would wrap).
    #[test]
    fn colour_255_is_keyed_within_a_byte() {
        let (instance, top) = planted_showing_255();
        let order = Order::RowScan.cells(&instance);
        let free = instance.grid.cells() - instance.clues.len();
        let lists = Lists::new(&instance, &order, &vec![0; free + 1], &vec![0; free + 1], &[255]).unwrap();
        assert_eq!(lists.keys, usize::from(top) + 2);
        for rec in lists.recs.iter().filter(|&&r| r != Rec::SENTINEL) {
            let rotation = lists.rotation(*rec);
            let shown = instance.pieces[usize::from(rec.piece())].rotated(rotation);
            let keyed = rec.shown().to_le_bytes();
            assert!(shown.iter().zip(keyed).all(|(&c, k)| (c == 255) == (k == top)), "{shown:?} keyed {keyed:?}");
        }
    }
}
