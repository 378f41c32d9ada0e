//! Board pictures as SVG: four triangles per cell coloured by side colour,
//! mismatched joins marked, clue cells outlined, piece numbers optional.

use std::fmt::Write as _;

use crate::puzzle::{Board, Colour, Instance, Placement, Side};

/// Side of a cell in pixels.
const CELL: usize = 40;
/// Margin around the board.
const MARGIN: usize = 12;

/// 32 distinct colours; colour 0 (the rim) is grey. Colours beyond the
/// palette reuse it with a darker shade, so every number still gets a fill.
const PALETTE: [&str; 32] = [
    "#7f7f7f", "#e6194b", "#3cb44b", "#ffe119", "#4363d8", "#f58231", "#911eb4", "#46f0f0", "#f032e6", "#bcf60c",
    "#fabebe", "#008080", "#e6beff", "#9a6324", "#fffac8", "#800000", "#aaffc3", "#808000", "#ffd8b1", "#000075",
    "#0a5c36", "#ff6f91", "#2f4b7c", "#6b8e23", "#d2691e", "#00ced1", "#9370db", "#ff1493", "#1e90ff", "#adff2f",
    "#b22222", "#20b2aa",
];

/// The fill of a colour.
pub fn fill(colour: Colour) -> String {
    let c = usize::from(colour);
    if c < PALETTE.len() {
        PALETTE[c].to_owned()
    } else {
        // Past the palette: the same hues, darker, so distinct numbers stay distinguishable.
        let base = PALETTE[1 + (c - 1) % (PALETTE.len() - 1)];
        let v = u32::from_str_radix(&base[1..], 16).unwrap_or(0);
        let dark = |shift: u32| ((v >> shift) & 0xff) * 3 / 5;
        format!("#{:02x}{:02x}{:02x}", dark(16), dark(8), dark(0))
    }
}

/// What to draw besides the colours.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Style {
    /// Write each cell's piece number (1-based) in its centre.
    pub numbers: bool,
}

/// Draws `board` of `instance` as an SVG document.
pub fn svg(instance: &Instance, board: &Board, title: &str, style: Style) -> String {
    let grid = board.grid;
    let (w, h) = (grid.width * CELL + 2 * MARGIN, grid.height * CELL + 2 * MARGIN + 20);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" \
         font-family=\"sans-serif\" shape-rendering=\"crispEdges\">"
    );
    let _ = writeln!(out, "<title>{}</title>", escape(title));
    let _ = writeln!(out, "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>");
    let origin = |cell: usize| {
        let (r, c) = grid.row_col(cell);
        (MARGIN + c * CELL, MARGIN + r * CELL)
    };
    for (cell, placement) in board.cells.iter().enumerate() {
        let (x, y) = origin(cell);
        match placement {
            Some(p) => draw_piece(&mut out, instance, *p, (x, y), style),
            None => {
                let _ = writeln!(
                    out,
                    "<rect x=\"{x}\" y=\"{y}\" width=\"{CELL}\" height=\"{CELL}\" fill=\"#f4f4f4\" stroke=\"#cccccc\"/>"
                );
            }
        }
    }
    let mismatches = draw_mismatches(&mut out, instance, board, origin);
    for clue in &instance.clues {
        let (x, y) = origin(clue.cell);
        let _ = writeln!(
            out,
            "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"black\" stroke-width=\"3\"/>",
            x + 1,
            y + 1,
            CELL - 2,
            CELL - 2
        );
    }
    let score = board.score(instance);
    let _ = writeln!(
        out,
        "<text x=\"{MARGIN}\" y=\"{}\" font-size=\"11\">{}: {score}/{}, {mismatches} mismatched (red), clues boxed</text>",
        h - 8,
        escape(title),
        grid.max_score()
    );
    out.push_str("</svg>\n");
    out
}

/// One placed piece: four triangles in its side colours, and its number if asked.
fn draw_piece(out: &mut String, instance: &Instance, p: Placement, (x, y): (usize, usize), style: Style) {
    let Some(shown) = instance.pieces.get(p.piece).map(|piece| piece.rotated(p.rotation)) else { return };
    let (cx, cy) = (x as f64 + CELL as f64 / 2.0, y as f64 + CELL as f64 / 2.0);
    let (x0, y0, x1, y1) = (x as f64, y as f64, (x + CELL) as f64, (y + CELL) as f64);
    let triangles = [
        [(x0, y0), (x1, y0)], // N
        [(x1, y0), (x1, y1)], // E
        [(x1, y1), (x0, y1)], // S
        [(x0, y1), (x0, y0)], // W
    ];
    for (side, [a, b]) in triangles.iter().enumerate() {
        let _ = writeln!(
            out,
            "<polygon points=\"{},{} {},{} {cx},{cy}\" fill=\"{}\" stroke=\"#333333\" stroke-width=\"0.5\" \
             shape-rendering=\"geometricPrecision\"/>",
            a.0,
            a.1,
            b.0,
            b.1,
            fill(shown[side])
        );
    }
    if style.numbers {
        let _ = writeln!(
            out,
            "<text x=\"{cx}\" y=\"{}\" font-size=\"10\" text-anchor=\"middle\" fill=\"black\" \
             stroke=\"white\" stroke-width=\"2\" paint-order=\"stroke\">{}</text>",
            cy + 3.5,
            p.piece + 1
        );
    }
}

/// A red bar across each mismatched join; returns how many there are.
fn draw_mismatches(
    out: &mut String,
    instance: &Instance,
    board: &Board,
    origin: impl Fn(usize) -> (usize, usize),
) -> usize {
    let grid = board.grid;
    let mut mismatches = 0;
    for (cell, side) in grid.joins() {
        let other = grid.neighbour(cell, side).expect("inner join");
        let (Some(a), Some(b)) = (board.colour(instance, cell, side), board.colour(instance, other, side.opposite()))
        else {
            continue;
        };
        if a == b {
            continue;
        }
        mismatches += 1;
        let (x, y) = origin(cell);
        let (x1, y1, x2, y2) = match side {
            Side::E => (x + CELL, y + 4, x + CELL, y + CELL - 4),
            _ => (x + 4, y + CELL, x + CELL - 4, y + CELL),
        };
        let _ = writeln!(
            out,
            "<line x1=\"{x1}\" y1=\"{y1}\" x2=\"{x2}\" y2=\"{y2}\" stroke=\"red\" stroke-width=\"5\" \
             stroke-linecap=\"round\"><title>mismatch</title></line>"
        );
    }
    mismatches
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::{Grid, Piece, Placement, Rotation};

    #[test]
    fn mismatches_are_marked_and_palette_is_distinct() {
        let grid = Grid { width: 2, height: 1 };
        let instance = Instance { grid, pieces: vec![Piece([0, 5, 0, 0]), Piece([0, 0, 0, 6])], clues: vec![] };
        let place = |piece| Some(Placement { piece, rotation: Rotation::ALL[0] });
        let bad = Board { grid, cells: vec![place(0), place(1)] };
        let picture = svg(&instance, &bad, "t", Style { numbers: true });
        assert_eq!(picture.matches("<title>mismatch</title>").count(), 1);
        assert_eq!(picture.matches("<polygon").count(), 8);
        assert!(picture.contains(">2</text>"));
        let mut fills: Vec<String> = (0..=60).map(fill).collect();
        fills.sort();
        fills.dedup();
        assert_eq!(fills.len(), 61);
    }
}
