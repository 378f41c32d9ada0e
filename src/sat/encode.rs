//! Heule's seam encoding of an instance as a plain CNF over 1-based variables, with its decoder.
//!
//! Variables come in three blocks, numbered from 1 as in DIMACS:
//! - placement variables `x[cell, piece, rot]`, one for each placement that
//!   [`Instance::rim_fits`] allows at a cell and that class pruning keeps (a
//!   clue cell keeps its clue only);
//! - seam variables `c[join, colour]`, one for each inner join and each colour
//!   that both cells of the join can show there;
//! - auxiliary variables of the at-most-one encodings (from `rustsat`).
//!
//! Clauses: every cell holds exactly one placement, every piece is placed
//! exactly once, every seam shows exactly one colour, and every placement
//! implies the seam colours it shows on its inner sides. Optionally, support
//! clauses say that a seam colour needs, on each side, a placement showing it.
//!
//! Class pruning is a fixpoint: a seam keeps the colours that both of its
//! cells can show on it, and a placement that would show a colour its seam
//! cannot take is dropped, until nothing changes. It separates frame colours
//! (joins between two rim cells) from interior colours without being told
//! which are which.

use std::io::{self, Write};

use rustsat::encodings::CollectClauses;
use rustsat::encodings::am1::{Bitwise, Commander, Encode, Ladder, Pairwise};
use rustsat::instances::{BasicVarManager, ManageVars};
use rustsat::types::{Clause, Lit, Var};

use crate::puzzle::placements;
use crate::puzzle::{Board, Colour, Grid, Instance, Placement, Side};

/// How "at most one of these" is written as clauses, for cells and pieces.
/// Seams always use the pairwise form: they have few colours.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, serde::Serialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum Am1 {
    /// One binary clause per pair: quadratic, far too big for 16×16.
    Pairwise,
    /// The ladder (sequential) encoding: n − 1 auxiliaries, about 3n clauses.
    #[default]
    Ladder,
    /// The bitwise (binary) encoding: log₂ n auxiliaries, n·log₂ n clauses.
    Bitwise,
    /// The commander encoding over groups of 4, with ladders inside and on top.
    Commander,
}

impl Am1 {
    /// Every encoding, in declaration order.
    pub const ALL: [Am1; 4] = [Am1::Pairwise, Am1::Ladder, Am1::Bitwise, Am1::Commander];

    /// Its name in stats and messages.
    pub fn name(self) -> &'static str {
        match self {
            Am1::Pairwise => "pairwise",
            Am1::Ladder => "ladder",
            Am1::Bitwise => "bitwise",
            Am1::Commander => "commander",
        }
    }
}

/// What the encoder builds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct EncodeOptions {
    /// The at-most-one encoding for cells and pieces.
    pub am1: Am1,
    /// Add the support clauses `c[join, k] → ⋁ x showing k there`, one per
    /// seam colour and side (redundant, they strengthen propagation).
    pub support: bool,
}

impl Default for EncodeOptions {
    fn default() -> Self {
        EncodeOptions { am1: Am1::default(), support: true }
    }
}

/// A CNF in DIMACS numbering: variables 1..=`variables`, literal `-v` is "not v".
/// Clauses are stored flat, one after another.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Cnf {
    /// The highest variable used (or reserved).
    pub variables: u32,
    /// All literals of all clauses, clause after clause.
    literals: Vec<i32>,
    /// Where each clause starts in `literals`, plus one past the last.
    starts: Vec<usize>,
}

impl Cnf {
    /// An empty CNF over no variables.
    pub fn new() -> Cnf {
        Cnf { variables: 0, literals: Vec::new(), starts: vec![0] }
    }

    /// Appends a clause; an empty one makes the CNF unsatisfiable.
    pub fn push(&mut self, clause: &[i32]) {
        debug_assert!(clause.iter().all(|&l| l != 0 && l.unsigned_abs() <= self.variables));
        self.literals.extend_from_slice(clause);
        self.starts.push(self.literals.len());
    }

    /// Number of clauses.
    pub fn len(&self) -> usize {
        self.starts.len() - 1
    }

    /// True if there are no clauses.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Number of literal occurrences over all clauses.
    pub fn literal_count(&self) -> usize {
        self.literals.len()
    }

    /// The `i`-th clause.
    pub fn clause(&self, i: usize) -> &[i32] {
        &self.literals[self.starts[i]..self.starts[i + 1]]
    }

    /// The clauses in order.
    pub fn clauses(&self) -> impl Iterator<Item = &[i32]> {
        self.starts.windows(2).map(|w| &self.literals[w[0]..w[1]])
    }

    /// Writes the CNF in DIMACS format (`p cnf V C`, one clause a line, each ending in 0).
    pub fn write_dimacs(&self, mut out: impl Write) -> io::Result<()> {
        writeln!(out, "p cnf {} {}", self.variables, self.len())?;
        for clause in self.clauses() {
            for lit in clause {
                write!(out, "{lit} ")?;
            }
            writeln!(out, "0")?;
        }
        Ok(())
    }
}

impl CollectClauses for Cnf {
    fn n_clauses(&self) -> usize {
        self.len()
    }

    fn extend_clauses<T>(&mut self, cl_iter: T) -> Result<(), rustsat::OutOfMemory>
    where
        T: IntoIterator<Item = Clause>,
    {
        for clause in cl_iter {
            self.literals.extend(clause.iter().map(|lit| lit.to_ipasir()));
            self.starts.push(self.literals.len());
        }
        Ok(())
    }
}

/// What a variable of an [`Encoding`] stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Meaning {
    /// The cell holds this placement.
    Placement {
        /// Row-major cell.
        cell: usize,
        /// Piece and rotation.
        placement: Placement,
    },
    /// The inner join on `side` (E or S) of `cell` shows `colour`.
    Seam {
        /// Row-major cell west of or above the join.
        cell: usize,
        /// E or S.
        side: Side,
        /// The colour on both sides of the join.
        colour: Colour,
    },
    /// An auxiliary variable of an at-most-one encoding.
    Auxiliary,
}

/// The sizes of an encoding.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Sizes {
    /// All variables.
    pub variables: usize,
    /// Placement variables.
    pub placement_variables: usize,
    /// Seam colour variables.
    pub seam_variables: usize,
    /// Auxiliary variables of the at-most-one encodings.
    pub auxiliary_variables: usize,
    /// Clauses.
    pub clauses: usize,
    /// Literal occurrences.
    pub literals: usize,
    /// Placements allowed by the rim that class pruning removed.
    pub pruned_placements: usize,
}

/// An instance's CNF and the meaning of its variables.
#[derive(Clone, Debug)]
pub struct Encoding {
    /// Board geometry of the encoded instance.
    pub grid: Grid,
    /// The clauses.
    pub cnf: Cnf,
    /// Variable `i + 1` is `placements[i]`: (cell, placement).
    pub placements: Vec<(usize, Placement)>,
    /// Variable `placements.len() + i + 1` is `seams[i]`: (cell, side E or S, colour).
    pub seams: Vec<(usize, Side, Colour)>,
    /// Placements the rim allowed and class pruning removed.
    pub pruned_placements: usize,
}

impl Encoding {
    /// What variable `var` (1-based) stands for, or `None` past the last variable.
    pub fn meaning(&self, var: u32) -> Option<Meaning> {
        let i = (var as usize).checked_sub(1)?;
        if i < self.placements.len() {
            let (cell, placement) = self.placements[i];
            return Some(Meaning::Placement { cell, placement });
        }
        let j = i - self.placements.len();
        if let Some(&(cell, side, colour)) = self.seams.get(j) {
            return Some(Meaning::Seam { cell, side, colour });
        }
        (var <= self.cnf.variables).then_some(Meaning::Auxiliary)
    }

    /// The encoding's sizes.
    pub fn sizes(&self) -> Sizes {
        let variables = self.cnf.variables as usize;
        Sizes {
            variables,
            placement_variables: self.placements.len(),
            seam_variables: self.seams.len(),
            auxiliary_variables: variables - self.placements.len() - self.seams.len(),
            clauses: self.cnf.len(),
            literals: self.cnf.literal_count(),
            pruned_placements: self.pruned_placements,
        }
    }

    /// The board a model describes: each cell gets the first placement whose
    /// variable is true (a model of the CNF has exactly one per cell); a cell
    /// with none stays empty. `value(v)` is the model's value of variable `v`.
    pub fn decode(&self, value: impl Fn(i32) -> bool) -> Board {
        let mut board = Board::empty(self.grid);
        for (i, &(cell, placement)) in self.placements.iter().enumerate() {
            if board.cells[cell].is_none() && value(var_number(i)) {
                board.cells[cell] = Some(placement);
            }
        }
        board
    }
}

/// The DIMACS number of the variable with 0-based index `i`.
pub(crate) fn var_number(i: usize) -> i32 {
    i32::try_from(i + 1).expect("fewer than 2^31 variables")
}

/// The rustsat literal of DIMACS variable `v`.
fn lit(v: i32) -> Lit {
    Var::new(v.unsigned_abs() - 1).lit(v < 0)
}

/// The join on a cell's side as (cell, E or S), or `None` on the rim.
fn join_of(grid: Grid, cell: usize, side: Side) -> Option<(usize, Side)> {
    let other = grid.neighbour(cell, side)?;
    Some(match side {
        Side::E | Side::S => (cell, side),
        Side::W | Side::N => (other, side.opposite()),
    })
}

/// Adds "at most one of `lits`" in the chosen encoding.
pub(crate) fn at_most_one(kind: Am1, lits: &[i32], cnf: &mut Cnf, vars: &mut BasicVarManager) {
    if lits.len() <= 1 {
        return;
    }
    let lits: Vec<Lit> = lits.iter().map(|&l| lit(l)).collect();
    let result = match kind {
        Am1::Pairwise => Pairwise::from(lits).encode(cnf, vars),
        Am1::Ladder => Ladder::from(lits).encode(cnf, vars),
        Am1::Bitwise => Bitwise::from(lits).encode(cnf, vars),
        Am1::Commander => Commander::<4, Ladder>::from(lits).encode(cnf, vars),
    };
    // The collector is a plain Vec and never reports running out of memory.
    result.expect("the CNF collector does not fail");
    cnf.variables = vars.n_used();
}

/// Builds the seam encoding of `instance`.
pub fn encode(instance: &Instance, options: &EncodeOptions) -> Encoding {
    let grid = instance.grid;
    let (fits, allowed, pruned_placements) = placements::prune(instance);
    let vars = Variables::number(instance, &fits, &allowed);
    let fixed = u32::try_from(vars.placements.len() + vars.seams.len()).expect("fewer than 2^32 variables");
    let mut cnf = Cnf::new();
    cnf.variables = fixed;
    let mut auxiliaries = BasicVarManager::from_next_free(Var::new(fixed));
    // Exactly one placement per cell and per piece.
    for group in vars.by_cell.iter().chain(&vars.by_piece) {
        cnf.push(group);
        at_most_one(options.am1, group, &mut cnf, &mut auxiliaries);
    }
    one_colour_per_seam(grid, &vars.seam_vars, &mut cnf);
    vars.channel(instance, options.support, &mut cnf);
    let Variables { placements, seams, .. } = vars;
    Encoding { grid, cnf, placements, seams, pruned_placements }
}

/// The encoding's fixed variables: placements cell by cell, then seams join by join.
struct Variables {
    placements: Vec<(usize, Placement)>,
    by_cell: Vec<Vec<i32>>,
    by_piece: Vec<Vec<i32>>,
    seams: Vec<(usize, Side, Colour)>,
    /// `seam_vars[cell * 4 + side]` lists (colour, var) of the join to the E and S.
    seam_vars: Vec<Vec<(Colour, i32)>>,
}

impl Variables {
    /// Numbers the placements that survived pruning (`fits`) and the seam colours `allowed`.
    fn number(instance: &Instance, fits: &[Vec<Placement>], allowed: &[[placements::Colours; 4]]) -> Variables {
        let grid = instance.grid;
        let mut placements = Vec::new();
        let mut by_cell: Vec<Vec<i32>> = vec![Vec::new(); grid.cells()];
        let mut by_piece: Vec<Vec<i32>> = vec![Vec::new(); instance.pieces.len()];
        for (cell, ps) in fits.iter().enumerate() {
            for &p in ps {
                let v = var_number(placements.len());
                placements.push((cell, p));
                by_cell[cell].push(v);
                by_piece[p.piece].push(v);
            }
        }
        let mut seams = Vec::new();
        let mut seam_vars: Vec<Vec<(Colour, i32)>> = vec![Vec::new(); grid.cells() * 4];
        for (cell, side) in grid.joins() {
            for colour in allowed[cell][side.index()].iter() {
                let v = var_number(placements.len() + seams.len());
                seams.push((cell, side, colour));
                seam_vars[cell * 4 + side.index()].push((colour, v));
            }
        }
        Variables { placements, by_cell, by_piece, seams, seam_vars }
    }

    /// The seam variable of the join from `cell` across `side` in `colour`, if that colour may show there.
    fn seam(&self, grid: Grid, cell: usize, side: Side, colour: Colour) -> Option<i32> {
        let (c, s) = join_of(grid, cell, side)?;
        self.seam_vars[c * 4 + s.index()].iter().find(|&&(k, _)| k == colour).map(|&(_, v)| v)
    }

    /// Each placement shows its colours on its inner sides; with `support`,
    /// each seam colour needs a placement showing it on each side.
    fn channel(&self, instance: &Instance, support: bool, cnf: &mut Cnf) {
        let grid = instance.grid;
        let mut showing: Vec<Vec<i32>> = vec![Vec::new(); if support { self.seams.len() * 2 } else { 0 }];
        for (i, &(cell, p)) in self.placements.iter().enumerate() {
            let x = var_number(i);
            for side in Side::ALL.into_iter().filter(|&side| !grid.is_rim_side(cell, side)) {
                let colour = instance.pieces[p.piece].side(p.rotation, side);
                let c = self
                    .seam(grid, cell, side, colour)
                    .expect("pruning keeps only placements whose seam colours exist");
                cnf.push(&[-x, c]);
                if support {
                    let seam_index = c as usize - self.placements.len() - 1;
                    let near = usize::from(matches!(side, Side::W | Side::N));
                    showing[seam_index * 2 + near].push(x);
                }
            }
        }
        for (k, showing) in showing.iter_mut().enumerate() {
            let c = var_number(self.placements.len() + k / 2);
            showing.insert(0, -c);
            cnf.push(showing);
        }
    }
}

/// Exactly one colour per seam (pairwise: few colours); a join whose cells
/// share no colour has no seam variable, so no model: an empty clause.
fn one_colour_per_seam(grid: Grid, seam_vars: &[Vec<(Colour, i32)>], cnf: &mut Cnf) {
    for group in seam_vars.iter().filter(|group| !group.is_empty()) {
        let lits: Vec<i32> = group.iter().map(|&(_, v)| v).collect();
        cnf.push(&lits);
        for (i, &a) in lits.iter().enumerate() {
            for &b in &lits[i + 1..] {
                cnf.push(&[-a, -b]);
            }
        }
    }
    for (cell, side) in grid.joins() {
        if seam_vars[cell * 4 + side.index()].is_empty() {
            cnf.push(&[]);
        }
    }
}
