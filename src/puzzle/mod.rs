//! The puzzle core: colours, pieces, rotations, instances, boards and scoring.
//!
//! Conventions every other module shares:
//! - sides are N = 0, E = 1, S = 2, W = 3;
//! - rotation `r` turns a piece `r` quarter turns clockwise, so
//!   `rotated(p, r)[side] = p[(side - r) mod 4]`;
//! - cells are numbered row-major from the top-left: `cell = row * width + col`;
//! - colour 0 is the grey rim;
//! - pieces are numbered from 0 inside the library and from 1 in every file and
//!   message a person reads.

pub mod placements;

use std::fmt;

/// A side colour; 0 is the grey rim.
pub type Colour = u8;

/// The grey rim colour.
pub const GREY: Colour = 0;

/// Largest board side accepted anywhere.
pub const MAX_SIDE: usize = 64;

/// A side of a square: N, E, S, W in this order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Side {
    /// Up.
    N = 0,
    /// Right.
    E = 1,
    /// Down.
    S = 2,
    /// Left.
    W = 3,
}

impl Side {
    /// All four sides, in index order.
    pub const ALL: [Side; 4] = [Side::N, Side::E, Side::S, Side::W];

    /// The side facing this one across a join.
    pub fn opposite(self) -> Side {
        Side::ALL[(self as usize + 2) % 4]
    }

    /// The side's index 0..4.
    pub fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Side::N => "N",
            Side::E => "E",
            Side::S => "S",
            Side::W => "W",
        })
    }
}

/// A number of clockwise quarter turns, 0..4.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Rotation(u8);

impl Rotation {
    /// All four rotations.
    pub const ALL: [Rotation; 4] = [Rotation(0), Rotation(1), Rotation(2), Rotation(3)];

    /// The rotation of `turns` quarter turns, or `None` if `turns >= 4`.
    pub fn new(turns: u8) -> Option<Rotation> {
        (turns < 4).then_some(Rotation(turns))
    }

    /// Quarter turns, 0..4.
    pub fn turns(self) -> u8 {
        self.0
    }

    /// Reduces any number of quarter turns modulo 4.
    pub fn wrapping(turns: usize) -> Rotation {
        Rotation((turns % 4) as u8)
    }
}

/// A number read from a file or a solver that is not a rotation (0..=3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("rotation {0} is not in 0..=3")]
pub struct BadRotation(pub i64);

impl TryFrom<i64> for Rotation {
    type Error = BadRotation;
    fn try_from(turns: i64) -> Result<Rotation, BadRotation> {
        u8::try_from(turns).ok().and_then(Rotation::new).ok_or(BadRotation(turns))
    }
}

/// A piece: its colours on sides N, E, S, W in its reference orientation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Piece(pub [Colour; 4]);

impl Piece {
    /// The colours shown on N, E, S, W after rotating by `r`.
    pub fn rotated(self, r: Rotation) -> [Colour; 4] {
        let t = r.turns() as usize;
        std::array::from_fn(|side| self.0[(side + 4 - t) % 4])
    }

    /// The colour shown on `side` after rotating by `r`.
    pub fn side(self, r: Rotation, side: Side) -> Colour {
        self.0[(side.index() + 4 - r.turns() as usize) % 4]
    }

    /// Number of grey sides: 2 for a corner, 1 for an edge piece, 0 inside.
    pub fn grey_sides(self) -> usize {
        self.0.iter().filter(|&&c| c == GREY).count()
    }

    /// The smallest of the four rotations, as a rotation-free identity.
    pub fn canonical(self) -> [Colour; 4] {
        Rotation::ALL.iter().map(|&r| self.rotated(r)).min().expect("four rotations")
    }

    /// True if some quarter or half turn maps the piece onto itself.
    pub fn is_rotationally_symmetric(self) -> bool {
        let [n, e, s, w] = self.0;
        n == s && e == w
    }
}

/// A piece's place on a board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Placement {
    /// Index into the instance's pieces (0-based).
    pub piece: usize,
    /// How the piece is turned.
    pub rotation: Rotation,
}

/// A cell fixed in advance: this piece, in this rotation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Clue {
    /// Row-major cell index.
    pub cell: usize,
    /// The piece placed there.
    pub placement: Placement,
}

/// Board geometry: width, height and the cell/side arithmetic that goes with them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Grid {
    /// Columns.
    pub width: usize,
    /// Rows.
    pub height: usize,
}

/// A board side outside 1..=[`MAX_SIDE`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{axis} {value} is not in 1..={MAX_SIDE}")]
pub struct BadSide {
    /// `width` or `height`.
    pub axis: &'static str,
    /// The value given, as written.
    pub value: String,
}

impl Grid {
    /// A board of `width` columns and `height` rows, each in 1..=[`MAX_SIDE`].
    /// The one place where a size read from a file or typed on the command
    /// line becomes a grid.
    pub fn new<T>(width: T, height: T) -> Result<Grid, BadSide>
    where
        T: TryInto<usize> + Copy + fmt::Display,
    {
        let side = |axis: &'static str, value: T| {
            value
                .try_into()
                .ok()
                .filter(|v| (1..=MAX_SIDE).contains(v))
                .ok_or_else(|| BadSide { axis, value: value.to_string() })
        };
        Ok(Grid { width: side("width", width)?, height: side("height", height)? })
    }

    /// Number of cells.
    pub fn cells(self) -> usize {
        self.width * self.height
    }

    /// Row and column of a cell.
    pub fn row_col(self, cell: usize) -> (usize, usize) {
        (cell / self.width, cell % self.width)
    }

    /// The cell at a row and column.
    pub fn cell(self, row: usize, col: usize) -> usize {
        row * self.width + col
    }

    /// The neighbouring cell across `side`, or `None` past the rim.
    pub fn neighbour(self, cell: usize, side: Side) -> Option<usize> {
        let (r, c) = self.row_col(cell);
        match side {
            Side::N => (r > 0).then(|| cell - self.width),
            Side::E => (c + 1 < self.width).then(|| cell + 1),
            Side::S => (r + 1 < self.height).then(|| cell + self.width),
            Side::W => (c > 0).then(|| cell - 1),
        }
    }

    /// True if the cell's `side` faces the outside of the board.
    pub fn is_rim_side(self, cell: usize, side: Side) -> bool {
        self.neighbour(cell, side).is_none()
    }

    /// True if the cell touches the rim.
    pub fn is_rim_cell(self, cell: usize) -> bool {
        Side::ALL.iter().any(|&s| self.is_rim_side(cell, s))
    }

    /// Number of inner joins: (W−1)·H + W·(H−1), 480 on a 16×16 board.
    pub fn max_score(self) -> usize {
        (self.width - 1) * self.height + self.width * (self.height - 1)
    }

    /// Every inner join as (cell, side) with side E or S, row-major.
    pub fn joins(self) -> impl Iterator<Item = (usize, Side)> {
        (0..self.cells()).flat_map(move |cell| {
            [Side::E, Side::S].into_iter().filter(move |&s| self.neighbour(cell, s).is_some()).map(move |s| (cell, s))
        })
    }
}

impl fmt::Display for Grid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.width, self.height)
    }
}

/// How many colours of each class a generated instance uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ColourCounts {
    /// Colours on joins between two rim cells.
    pub frame: u32,
    /// Colours on every other inner join.
    pub interior: u32,
}

/// A puzzle: the board size, the pieces, and the clue cells.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Instance {
    /// Board geometry.
    pub grid: Grid,
    /// One piece per cell, in reference orientation.
    pub pieces: Vec<Piece>,
    /// Cells whose piece and rotation are given.
    pub clues: Vec<Clue>,
}

impl Instance {
    /// The board holding the clues only.
    pub fn clue_board(&self) -> Board {
        let mut board = Board::empty(self.grid);
        for clue in &self.clues {
            board.cells[clue.cell] = Some(clue.placement);
        }
        board
    }

    /// The placements a cell may hold in a solution, by what the rim alone
    /// allows: the clue's if the cell has one, else every (piece, rotation)
    /// that shows grey exactly on the cell's rim sides. Ordered by piece, then
    /// rotation.
    pub fn rim_fits(&self, cell: usize) -> Vec<Placement> {
        if let Some(clue) = self.clues.iter().find(|c| c.cell == cell) {
            return vec![clue.placement];
        }
        let rim: [bool; 4] = Side::ALL.map(|s| self.grid.is_rim_side(cell, s));
        self.turns().filter(|(_, shown)| (0..4).all(|s| (shown[s] == GREY) == rim[s])).map(|(p, _)| p).collect()
    }

    /// Every piece in every turn, with the colours it then shows (N E S W),
    /// ordered by piece, then rotation: the one walk over the placements
    /// that the rim rule and every candidate table start from.
    pub fn turns(&self) -> impl Iterator<Item = (Placement, [Colour; 4])> + '_ {
        self.pieces.iter().enumerate().flat_map(|(piece, p)| {
            Rotation::ALL.into_iter().map(move |rotation| (Placement { piece, rotation }, p.rotated(rotation)))
        })
    }

    /// Frame colours (never on a piece without grey) and interior colours
    /// (on pieces without grey), counted.
    pub fn colour_classes(&self) -> (usize, usize) {
        let mut on_frame = std::collections::HashSet::new();
        let mut inside = std::collections::HashSet::new();
        for p in &self.pieces {
            let target = if p.grey_sides() == 0 { &mut inside } else { &mut on_frame };
            target.extend(p.0.iter().copied().filter(|&c| c != GREY));
        }
        (on_frame.difference(&inside).count(), inside.len())
    }

    /// The largest colour number used by any piece.
    pub fn max_colour(&self) -> Colour {
        self.pieces.iter().flat_map(|p| p.0).max().unwrap_or(GREY)
    }
}

/// One optional placement per cell, row-major.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    /// Board geometry.
    pub grid: Grid,
    /// What each cell holds; `None` is an empty cell.
    pub cells: Vec<Option<Placement>>,
}

impl Board {
    /// An empty board.
    pub fn empty(grid: Grid) -> Board {
        Board { grid, cells: vec![None; grid.cells()] }
    }

    /// Number of occupied cells.
    pub fn placed(&self) -> usize {
        self.cells.iter().flatten().count()
    }

    /// The colour shown on a cell's side, or `None` for an empty cell (or one
    /// naming a piece the instance does not have: the checker reports those).
    pub fn colour(&self, instance: &Instance, cell: usize, side: Side) -> Option<Colour> {
        self.cells[cell].and_then(|p| instance.pieces.get(p.piece).map(|piece| piece.side(p.rotation, side)))
    }

    /// The first cell naming a piece the instance does not have, with that
    /// (0-based) piece. Readers keep such boards for the checker to report;
    /// writers that show colours refuse them.
    pub fn unknown_piece(&self, instance: &Instance) -> Option<(usize, usize)> {
        self.cells
            .iter()
            .enumerate()
            .find_map(|(cell, p)| p.filter(|p| p.piece >= instance.pieces.len()).map(|p| (cell, p.piece)))
    }

    /// A full board that honours the clues and the grey rim, with no thought
    /// for the inner joins: each cell in row-major order takes the first
    /// unused piece that fits its rim. A start for searches that improve full
    /// boards (CP-SAT maximizing matched joins). `None` when this greedy fill
    /// runs out of fitting pieces.
    pub fn rim_filled(instance: &Instance) -> Option<Board> {
        let mut board = Board::empty(instance.grid);
        let mut used = vec![false; instance.pieces.len()];
        for clue in &instance.clues {
            *used.get_mut(clue.placement.piece)? = true;
        }
        for cell in 0..instance.grid.cells() {
            let fit = instance
                .rim_fits(cell)
                .into_iter()
                .find(|p| !used[p.piece] || instance.clues.iter().any(|c| c.cell == cell))?;
            used[fit.piece] = true;
            board.cells[cell] = Some(fit);
        }
        Some(board)
    }

    /// Matched inner joins: both cells occupied and showing the same colour.
    pub fn score(&self, instance: &Instance) -> usize {
        self.grid
            .joins()
            .filter(|&(cell, side)| {
                let other = self.grid.neighbour(cell, side).expect("inner join");
                match (self.colour(instance, cell, side), self.colour(instance, other, side.opposite())) {
                    (Some(a), Some(b)) => a == b,
                    _ => false,
                }
            })
            .count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frame_colours_are_those_never_inside() {
        let instance = Instance {
            grid: Grid { width: 3, height: 3 },
            pieces: vec![Piece([0, 1, 5, 0]), Piece([0, 2, 5, 1]), Piece([5, 6, 5, 6])],
            clues: vec![],
        };
        assert_eq!(instance.colour_classes(), (2, 2));
    }

    #[test]
    fn a_rim_filled_board_is_full_and_breaks_only_inner_joins() {
        for seed in 1..=5 {
            let p = crate::generate::planted(&crate::generate::PlantedSpec::square(7, 3, 4, seed)).unwrap();
            let board = Board::rim_filled(&p.instance).unwrap();
            let report = crate::check::check(&p.instance, &board);
            assert_eq!(report.placed, 49);
            assert!(report.only_joins_mismatch(), "{}", report.summary(3));
        }
    }

    #[test]
    fn rotation_follows_the_convention() {
        let p = Piece([1, 2, 3, 4]);
        assert_eq!(p.rotated(Rotation::ALL[0]), [1, 2, 3, 4]);
        // One clockwise quarter turn: what was on W comes to N.
        assert_eq!(p.rotated(Rotation::ALL[1]), [4, 1, 2, 3]);
        assert_eq!(p.rotated(Rotation::ALL[2]), [3, 4, 1, 2]);
        assert_eq!(p.rotated(Rotation::ALL[3]), [2, 3, 4, 1]);
        for r in Rotation::ALL {
            for s in Side::ALL {
                assert_eq!(p.side(r, s), p.rotated(r)[s.index()]);
                assert_eq!(p.side(r, s), p.0[(s.index() + 4 - r.turns() as usize) % 4]);
            }
        }
    }

    #[test]
    fn four_quarter_turns_compose_to_identity() {
        let p = Piece([5, 0, 7, 9]);
        let once = Piece(p.rotated(Rotation::ALL[1]));
        let twice = Piece(once.rotated(Rotation::ALL[1]));
        assert_eq!(twice.0, p.rotated(Rotation::ALL[2]));
        let four = Piece(Piece(twice.rotated(Rotation::ALL[1])).rotated(Rotation::ALL[1]));
        assert_eq!(four, p);
        assert_eq!(Rotation::new(4), None);
        assert_eq!(Rotation::wrapping(7), Rotation::ALL[3]);
    }

    #[test]
    fn symmetry_and_canonical_form() {
        assert!(Piece([1, 2, 1, 2]).is_rotationally_symmetric());
        assert!(Piece([3, 3, 3, 3]).is_rotationally_symmetric());
        assert!(!Piece([1, 2, 2, 1]).is_rotationally_symmetric());
        assert_eq!(Piece([3, 1, 2, 0]).canonical(), [0, 3, 1, 2]);
        assert_eq!(Piece([0, 3, 1, 2]).canonical(), Piece([1, 2, 0, 3]).canonical());
    }

    #[test]
    fn max_score_counts_inner_joins() {
        assert_eq!(Grid { width: 16, height: 16 }.max_score(), 480);
        assert_eq!(Grid { width: 12, height: 12 }.max_score(), 264);
        assert_eq!(Grid { width: 6, height: 12 }.max_score(), 5 * 12 + 6 * 11);
        let g = Grid { width: 6, height: 12 };
        assert_eq!(g.joins().count(), g.max_score());
    }

    #[test]
    fn neighbours_and_rim() {
        let g = Grid { width: 3, height: 2 };
        assert_eq!(g.neighbour(0, Side::N), None);
        assert_eq!(g.neighbour(0, Side::E), Some(1));
        assert_eq!(g.neighbour(0, Side::S), Some(3));
        assert_eq!(g.neighbour(5, Side::E), None);
        assert_eq!(g.neighbour(5, Side::W), Some(4));
        assert!(g.is_rim_side(2, Side::E));
        assert!(!g.is_rim_side(1, Side::S));
    }

    #[test]
    fn score_counts_matched_joins_only() {
        // 2x1 board: one inner join (cell 0 E against cell 1 W).
        let grid = Grid { width: 2, height: 1 };
        let instance = Instance { grid, pieces: vec![Piece([0, 5, 0, 0]), Piece([0, 0, 0, 5])], clues: vec![] };
        let place = |piece, r| Some(Placement { piece, rotation: Rotation::ALL[r] });
        let good = Board { grid, cells: vec![place(0, 0), place(1, 0)] };
        assert_eq!(good.score(&instance), 1);
        let bad = Board { grid, cells: vec![place(0, 1), place(1, 0)] };
        assert_eq!(bad.score(&instance), 0);
        let partial = Board { grid, cells: vec![place(0, 0), None] };
        assert_eq!(partial.score(&instance), 0);
    }
}
