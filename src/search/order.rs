//! Fill orders: the sequence of cells the search fills, as plain data.
//!
//! Every order lists every cell of the board exactly once; the plan (see
//! `plan.rs`) drops the clue cells, which are placed before the search starts.

use std::fmt;
use std::str::FromStr;

use super::band::BandShape;
use crate::puzzle::{GREY, Grid, Instance, Side};

/// A board corner, where a corner-square order starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Corner {
    /// Top-left.
    Nw,
    /// Top-right.
    Ne,
    /// Bottom-right.
    Se,
    /// Bottom-left.
    Sw,
}

impl Corner {
    /// All four corners.
    pub const ALL: [Corner; 4] = [Corner::Nw, Corner::Ne, Corner::Se, Corner::Sw];

    fn name(self) -> &'static str {
        match self {
            Corner::Nw => "nw",
            Corner::Ne => "ne",
            Corner::Se => "se",
            Corner::Sw => "sw",
        }
    }
}

/// A named fill order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Order {
    /// Row-major from the top-left: each cell has its north and west
    /// neighbours placed (or rim).
    RowScan,
    /// The inner cells row-major first, then the frame clockwise from the
    /// top-left corner.
    RimLast,
    /// A square grown from a corner: for k = 1, 2, … add row k then column k
    /// (or, transposed, column k then row k), so the open boundary stays
    /// about two sides of the square long.
    CornerSquare {
        /// Where the square starts.
        corner: Corner,
        /// Column before row at each step.
        transposed: bool,
    },
    /// Static fail-first: starting from the clues, repeatedly the cell with the
    /// fewest expected candidates given its fixed neighbours (pieces of its
    /// class times rotations, divided by the number of colours of each known
    /// side), ties broken by nearness to a corner, then row (or, transposed,
    /// column). It grows a square from the corner like `CornerSquare` but takes
    /// the cells next to clues as soon as they become tight.
    FailFirst {
        /// Where ties lean.
        corner: Corner,
        /// Break ties by column before row.
        transposed: bool,
    },
    /// The break-band order of the score walk ([`BandShape`]): rows from the
    /// corner's edge up to a band along the far edge, then the band in
    /// blocks and columns (or, transposed, columns first and a band of
    /// columns).
    Band {
        /// Where the order starts.
        corner: Corner,
        /// Columns for rows.
        transposed: bool,
        /// Rows below the band filled in strips of this many rows, column by
        /// column (1: row by row, the published order; see [`BandShape`]).
        strip: u8,
    },
}

impl Order {
    /// Every named order: the estimated ones and the eight band orders.
    pub fn all() -> Vec<Order> {
        let mut orders = Order::estimated();
        for corner in Corner::ALL {
            for transposed in [false, true] {
                orders.push(Order::Band { corner, transposed, strip: 1 });
            }
        }
        orders
    }

    /// The orders the exact search's estimator compares: row-scan, rim-last,
    /// the eight corner squares and the eight fail-first orders.
    pub fn estimated() -> Vec<Order> {
        let mut orders = vec![Order::RowScan, Order::RimLast];
        for corner in Corner::ALL {
            for transposed in [false, true] {
                orders.push(Order::CornerSquare { corner, transposed });
            }
        }
        for corner in Corner::ALL {
            for transposed in [false, true] {
                orders.push(Order::FailFirst { corner, transposed });
            }
        }
        orders
    }

    /// The order's name, e.g. `row-scan`, `corner-square-se-t`.
    pub fn name(self) -> String {
        match self {
            Order::RowScan => "row-scan".to_string(),
            Order::RimLast => "rim-last".to_string(),
            Order::CornerSquare { corner, transposed } => {
                format!("corner-square-{}{}", corner.name(), if transposed { "-t" } else { "" })
            }
            Order::FailFirst { corner, transposed } => {
                format!("fail-first-{}{}", corner.name(), if transposed { "-t" } else { "" })
            }
            Order::Band { corner, transposed, strip } => {
                let strips = if strip > 1 { format!("-s{strip}") } else { String::new() };
                format!("band-{}{}{strips}", corner.name(), if transposed { "-t" } else { "" })
            }
        }
    }

    /// The corner the order grows from or leans on (`RowScan` and `RimLast` start top-left).
    pub fn corner(self) -> Corner {
        match self {
            Order::RowScan | Order::RimLast => Corner::Nw,
            Order::CornerSquare { corner, .. } | Order::FailFirst { corner, .. } | Order::Band { corner, .. } => corner,
        }
    }

    /// Every cell of the instance's grid, once each, in this order.
    pub fn cells(self, instance: &Instance) -> Vec<usize> {
        let grid = instance.grid;
        match self {
            Order::RowScan => (0..grid.cells()).collect(),
            Order::RimLast => rim_last(grid),
            Order::CornerSquare { corner, transposed } => corner_square(grid, corner, transposed),
            Order::FailFirst { corner, transposed } => fail_first(instance, corner, transposed),
            Order::Band { corner, transposed, strip } => band(grid, corner, transposed, strip),
        }
    }
}

impl fmt::Display for Order {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

impl FromStr for Order {
    type Err = String;

    /// A name of [`Order::all`], or a band order with strips: `band-sw-s3`.
    fn from_str(s: &str) -> Result<Order, String> {
        let unknown = || {
            let names: Vec<String> = Order::all().into_iter().map(Order::name).collect();
            format!(
                "unknown order {s:?}; expected auto or one of {} (a band order may end in -sN: strips of N rows)",
                names.join(", ")
            )
        };
        if let Some((base, strip)) = s.rsplit_once("-s").filter(|(b, _)| b.starts_with("band-")) {
            let strip: u8 = strip.parse().ok().filter(|&n| n >= 1).ok_or_else(unknown)?;
            return match base.parse::<Order>()? {
                Order::Band { corner, transposed, .. } => Ok(Order::Band { corner, transposed, strip }),
                _ => Err(unknown()),
            };
        }
        Order::all().into_iter().find(|o| o.name() == s).ok_or_else(unknown)
    }
}

fn rim_last(grid: Grid) -> Vec<usize> {
    let (w, h) = (grid.width, grid.height);
    let mut cells: Vec<usize> = (0..grid.cells()).filter(|&c| !grid.is_rim_cell(c)).collect();
    // Clockwise around the frame from the top-left corner.
    let mut frame = Vec::new();
    frame.extend((0..w).map(|c| grid.cell(0, c)));
    frame.extend((1..h).map(|r| grid.cell(r, w - 1)));
    if h > 1 {
        frame.extend((0..w - 1).rev().map(|c| grid.cell(h - 1, c)));
    }
    if w > 1 {
        frame.extend((1..h - 1).rev().map(|r| grid.cell(r, 0)));
    }
    cells.extend(frame);
    cells
}

/// Row and column of `cell` seen from `corner` (the corner becomes (0, 0)).
fn from_corner(grid: Grid, cell: usize, corner: Corner) -> (usize, usize) {
    let (r, c) = grid.row_col(cell);
    let r = if matches!(corner, Corner::Se | Corner::Sw) { grid.height - 1 - r } else { r };
    let c = if matches!(corner, Corner::Ne | Corner::Se) { grid.width - 1 - c } else { c };
    (r, c)
}

fn fail_first(instance: &Instance, corner: Corner, transposed: bool) -> Vec<usize> {
    let grid = instance.grid;
    let cells = grid.cells();
    let class_of =
        |cell: usize| Side::ALL.iter().fold(0, |m, &s| m | (usize::from(grid.is_rim_side(cell, s)) << s.index()));
    // (piece, rotation) pairs showing grey exactly on each class's rim sides.
    let mut class_count = [0usize; 16];
    // Distinct colours on frame sides (next to a grey side) and on the others.
    let (mut frame, mut inner) = ([false; 256], [false; 256]);
    for p in &instance.pieces {
        for r in crate::puzzle::Rotation::ALL {
            let shown = p.rotated(r);
            class_count[(0..4).fold(0, |m, s| m | (usize::from(shown[s] == GREY) << s))] += 1;
        }
        let c = p.0;
        for s in 0..4 {
            if c[s] != GREY {
                let beside_grey = c[(s + 1) % 4] == GREY || c[(s + 3) % 4] == GREY;
                if beside_grey { frame[usize::from(c[s])] = true } else { inner[usize::from(c[s])] = true }
            }
        }
    }
    let count = |set: &[bool; 256]| set.iter().filter(|&&b| b).count().max(1) as f64;
    let (frame, inner) = (count(&frame), count(&inner));
    let mut fixed = vec![false; cells];
    for clue in &instance.clues {
        fixed[clue.cell] = true;
    }
    let expected = |cell: usize, fixed: &[bool]| {
        let mut b = class_count[class_of(cell)] as f64;
        for side in Side::ALL {
            if let Some(n) = grid.neighbour(cell, side).filter(|&n| fixed[n]) {
                b /= if grid.is_rim_cell(cell) && grid.is_rim_cell(n) { frame } else { inner };
            }
        }
        b
    };
    let tie = |cell: usize| {
        let (r, c) = from_corner(grid, cell, corner);
        let (a, b) = if transposed { (c, r) } else { (r, c) };
        (r.max(c), a, b)
    };
    // Only cells touching a fixed one (the frontier) compete, except for the
    // first pick: a cell with no fixed neighbour, such as a far corner, only
    // multiplies the tree.
    let mut frontier: Vec<usize> = Vec::new();
    let mut listed = vec![false; cells];
    let mut widen = |cell: usize, frontier: &mut Vec<usize>| {
        for side in Side::ALL {
            if let Some(n) = grid.neighbour(cell, side).filter(|&n| !std::mem::replace(&mut listed[n], true)) {
                frontier.push(n);
            }
        }
    };
    for clue in &instance.clues {
        widen(clue.cell, &mut frontier);
    }
    let mut order = Vec::with_capacity(cells);
    loop {
        frontier.retain(|&c| !fixed[c]);
        let pool: Vec<usize> = if order.is_empty() || frontier.is_empty() {
            (0..cells).filter(|&c| !fixed[c]).collect()
        } else {
            frontier.clone()
        };
        let best = pool
            .into_iter()
            .min_by(|&x, &y| expected(x, &fixed).total_cmp(&expected(y, &fixed)).then_with(|| tie(x).cmp(&tie(y))));
        let Some(best) = best else { break };
        fixed[best] = true;
        order.push(best);
        widen(best, &mut frontier);
    }
    // The clue cells, which the plan skips, complete the permutation.
    order.extend(instance.clues.iter().map(|c| c.cell));
    order
}

/// Rows and columns of the grid seen from `corner`, swapped when `transposed`:
/// the frame an order is built in before [`onto_grid`] maps it back.
pub(crate) fn frame(grid: Grid, transposed: bool) -> (usize, usize) {
    if transposed { (grid.width, grid.height) } else { (grid.height, grid.width) }
}

/// Maps (row, column) of the frame seen from `corner` (its row 0 along the
/// corner's edge; rows and columns swapped when `transposed`) onto the grid.
pub(crate) fn onto_grid(grid: Grid, corner: Corner, transposed: bool, (r, c): (usize, usize)) -> usize {
    let (r, c) = if transposed { (c, r) } else { (r, c) };
    let r = if matches!(corner, Corner::Se | Corner::Sw) { grid.height - 1 - r } else { r };
    let c = if matches!(corner, Corner::Ne | Corner::Se) { grid.width - 1 - c } else { c };
    grid.cell(r, c)
}

fn corner_square(grid: Grid, corner: Corner, transposed: bool) -> Vec<usize> {
    // Build the order for the top-left corner of the frame, then map it onto the grid.
    let (rows, cols) = frame(grid, transposed);
    let mut local = Vec::with_capacity(grid.cells());
    for k in 0..rows.max(cols) {
        if k < rows {
            local.extend((0..k.min(cols)).map(|c| (k, c)));
        }
        if k < cols {
            local.extend((0..(k + 1).min(rows)).map(|r| (r, k)));
        }
    }
    local.into_iter().map(|rc| onto_grid(grid, corner, transposed, rc)).collect()
}

fn band(grid: Grid, corner: Corner, transposed: bool, strip: u8) -> Vec<usize> {
    let (rows, cols) = frame(grid, transposed);
    let shape = BandShape::of(cols, rows).with_strip(usize::from(strip));
    shape.cells().into_iter().map(|rc| onto_grid(grid, corner, transposed, rc)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn blank(width: usize, height: usize) -> Instance {
        Instance { grid: Grid { width, height }, pieces: Vec::new(), clues: Vec::new() }
    }

    #[test]
    fn every_order_is_a_permutation() {
        let planted = crate::generate::planted(&crate::generate::PlantedSpec::square(6, 2, 4, 1)).unwrap();
        let sizes = [(1, 1), (2, 3), (5, 5), (7, 4), (3, 9)];
        let instances = sizes.iter().map(|&(w, h)| blank(w, h)).chain([planted.instance]);
        for instance in instances {
            let grid = instance.grid;
            for order in Order::all() {
                let mut cells = order.cells(&instance);
                cells.sort_unstable();
                assert_eq!(cells, (0..grid.cells()).collect::<Vec<_>>(), "{order} on {grid}");
                assert_eq!(order.name().parse::<Order>(), Ok(order));
            }
        }
    }

    #[test]
    fn corner_square_grows_a_square() {
        let grid = blank(3, 3);
        let nw = Order::CornerSquare { corner: Corner::Nw, transposed: false }.cells(&grid);
        // (0,0); row 1: (1,0); column 1: (0,1),(1,1); row 2: (2,0),(2,1); column 2.
        assert_eq!(nw, vec![0, 3, 1, 4, 6, 7, 2, 5, 8]);
        let nw_t = Order::CornerSquare { corner: Corner::Nw, transposed: true }.cells(&grid);
        assert_eq!(nw_t, vec![0, 1, 3, 4, 2, 5, 6, 7, 8]);
        let se = Order::CornerSquare { corner: Corner::Se, transposed: false }.cells(&grid);
        assert_eq!(se[0], 8);
    }
}
