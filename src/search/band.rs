//! The break-band fill order: a row scan up to a band along the far edge, then the band filled so that its frontier stays short.
//!
//! This is the shape of the field's published score method (Blackwood's
//! solver), derived here for any board. Seen from its start corner, with rows
//! counted from the start edge (row 0) and columns from the start corner:
//!
//! 1. every row below the band, one after the other, each from column 0 (or,
//!    with strips of `strip` rows, each strip column by column, so that a
//!    cell's neighbour below is placed just before it: a clue in the strip's
//!    top row then meets the walk a few placements after the cells that fix
//!    its neighbours, not a whole row later);
//! 2. the band's left block (its first `left` columns), row by row;
//! 3. the band's middle columns, one column at a time, from the band's first
//!    row to the far edge;
//! 4. the right block (its last `right` columns), peeled from its near corner:
//!    its first row, then its first column, then the next row, the next
//!    column, … while more than two columns remain, then row by row.
//!
//! On the 16×16 board the band is 5 rows, the left block 5 columns and the
//! right block 4 (Blackwood's order, cells 176–255 of 256); here each is
//! `5/16`, `5/16` and `4/16` of the board, rounded. Every cell then has its
//! two neighbours towards the start corner placed before it (or on the rim),
//! and no other, so a walk reads exactly two known sides per cell: the
//! mismatches the score walk allows go in the band, late, where few pieces
//! are left.

/// The band's dimensions in the order's own frame (rows from the start edge, columns from the start corner).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BandShape {
    /// Columns of the frame (across the rows).
    pub width: usize,
    /// Rows of the frame.
    pub height: usize,
    /// Rows of the band, the last ones.
    pub rows: usize,
    /// Columns of the band's left block, filled row by row.
    pub left: usize,
    /// Columns of the band's right block, peeled last.
    pub right: usize,
    /// Rows of each strip below the band, filled column by column (1: row by row, the published order).
    pub strip: usize,
}

/// `n · num / 16`, rounded to the nearest.
fn sixteenths(n: usize, num: usize) -> usize {
    (n * num + 8) / 16
}

impl BandShape {
    /// The band of a frame `width` columns wide and `height` rows high.
    pub fn of(width: usize, height: usize) -> BandShape {
        let rows = sixteenths(height, 5).clamp(1, height.max(1));
        let right = sixteenths(width, 4).clamp(1, width.max(1));
        let left = sixteenths(width, 5).min(width - right);
        BandShape { width, height, rows, left, right, strip: 1 }
    }

    /// This band with the rows below it filled in strips of `strip` rows (at least 1).
    pub fn with_strip(self, strip: usize) -> BandShape {
        BandShape { strip: strip.max(1), ..self }
    }

    /// The first row of the band.
    fn first_row(&self) -> usize {
        self.height - self.rows
    }

    /// The cells in fill order, as (row, column) in this frame.
    pub fn cells(&self) -> Vec<(usize, usize)> {
        let (w, h, band) = (self.width, self.height, self.first_row());
        let mut cells = Vec::with_capacity(w * h);
        for first in (0..band).step_by(self.strip) {
            let strip = first..(first + self.strip).min(band);
            for c in 0..w {
                cells.extend(strip.clone().map(|r| (r, c)));
            }
        }
        for r in band..h {
            cells.extend((0..self.left).map(|c| (r, c)));
        }
        for c in self.left..w - self.right {
            cells.extend((band..h).map(|r| (r, c)));
        }
        // The right block, peeled: a row, a column, … while it is wider than two.
        let (mut r0, mut c0) = (band, w - self.right);
        while r0 < h && c0 < w {
            if w - c0 > 2 {
                cells.extend((c0..w).map(|c| (r0, c)));
                r0 += 1;
                cells.extend((r0..h).map(|r| (r, c0)));
                c0 += 1;
            } else {
                cells.extend((c0..w).map(|c| (r0, c)));
                r0 += 1;
            }
        }
        cells
    }

    /// Positions in [`BandShape::cells`] of the first cell of the middle
    /// columns and of the last cell of the right block's first row: the span
    /// where the field's method allows its breaks (201 and 239 on 16×16).
    pub fn break_span(&self) -> (usize, usize) {
        let start = self.first_row() * self.width + self.rows * self.left;
        let middle = self.rows * (self.width - self.left - self.right);
        (start, start + middle + self.right - 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Blackwood's order of the 16×16 band (cells 176–255), row by row from the far edge.
    #[test]
    fn on_16x16_it_is_the_published_order() {
        let shape = BandShape::of(16, 16);
        assert_eq!((shape.rows, shape.left, shape.right), (5, 5, 4));
        let mut index = [[0usize; 16]; 16];
        for (i, (r, c)) in shape.cells().into_iter().enumerate() {
            index[r][c] = i;
        }
        assert_eq!(index[15], [196, 197, 198, 199, 200, 205, 210, 215, 220, 225, 230, 235, 243, 249, 254, 255]);
        assert_eq!(index[14], [191, 192, 193, 194, 195, 204, 209, 214, 219, 224, 229, 234, 242, 248, 252, 253]);
        assert_eq!(index[13], [186, 187, 188, 189, 190, 203, 208, 213, 218, 223, 228, 233, 241, 247, 250, 251]);
        assert_eq!(index[12], [181, 182, 183, 184, 185, 202, 207, 212, 217, 222, 227, 232, 240, 244, 245, 246]);
        assert_eq!(index[11], [176, 177, 178, 179, 180, 201, 206, 211, 216, 221, 226, 231, 236, 237, 238, 239]);
        assert!((0..11).all(|r| (0..16).all(|c| index[r][c] == 16 * r + c)));
        assert_eq!(shape.break_span(), (201, 239));
    }

    /// Each cell once, and every cell's neighbours towards the start corner
    /// placed before it: a walk never reads more than two known sides. Fails
    /// if a size leaves a cell out, repeats one, or breaks the staircase.
    #[test]
    fn every_size_is_a_staircase_permutation() {
        for (width, height) in (1..=20).flat_map(|w| (1..=20).map(move |h| (w, h))) {
            for strip in 1..=4 {
                let shape = BandShape::of(width, height).with_strip(strip);
                let at = format!("{width}x{height} strip {strip}");
                let cells = shape.cells();
                let mut rank = vec![usize::MAX; width * height];
                for (i, &(r, c)) in cells.iter().enumerate() {
                    assert_eq!(rank[r * width + c], usize::MAX, "{at}: ({r}, {c}) twice");
                    rank[r * width + c] = i;
                }
                assert_eq!(cells.len(), width * height, "{at}");
                for (i, &(r, c)) in cells.iter().enumerate() {
                    assert!(r == 0 || rank[(r - 1) * width + c] < i, "{at}: below ({r}, {c})");
                    assert!(c == 0 || rank[r * width + c - 1] < i, "{at}: left of ({r}, {c})");
                    assert!(r + 1 == height || rank[(r + 1) * width + c] > i, "{at}: above ({r}, {c})");
                    assert!(c + 1 == width || rank[r * width + c + 1] > i, "{at}: right of ({r}, {c})");
                }
                let (start, end) = shape.break_span();
                assert!(start <= end + 1 && end < width * height, "{at}: {start}..{end}");
                // The band itself is the published one whatever the strips: the break span holds.
                assert_eq!(shape.break_span(), BandShape::of(width, height).break_span());
            }
        }
    }

    /// Strips of three rows fill the rows below the band column by column:
    /// on 13×13 the cell below a clue in the third row is placed right after
    /// the cell below it and before the rest of the strip's row.
    #[test]
    fn strips_fill_columns_of_their_rows() {
        let shape = BandShape::of(13, 13).with_strip(3);
        let cells = shape.cells();
        assert_eq!(&cells[..7], &[(0, 0), (1, 0), (2, 0), (0, 1), (1, 1), (2, 1), (0, 2)]);
        assert_eq!(cells[39], (3, 0), "the second strip starts after 13 columns of three");
        let one = BandShape::of(13, 13).cells();
        assert_eq!(&cells[shape.break_span().0..], &one[one.len() - cells.len() + shape.break_span().0..]);
    }
}
