//! The flux law: a conservation law on the rotations of a valid board, its exact ranks, and
//! the GF(2) endgame certificate it yields.
//!
//! Give colour k the indicator weight w(c) = 1 if c = k else 0 (grey is never a k here).
//! A placed piece showing colours N, E, S, W reads as the Gaussian integer
//! `(w(E) − w(W)) + i·(w(S) − w(N))`: a vector pointing east for k on its east side, south
//! for k on its south side, and so on. Summed over a block of placed pieces, every matched
//! inner seam cancels (an east side against a west side of the same colour), so only the
//! block's boundary survives; over a full valid board the boundary is grey and the sum is
//! exactly 0 for every colour.
//!
//! With `rotated(p, r)[side] = p[(side − r) mod 4]` a clockwise quarter turn carries what
//! was north to east, east to south, and so on; the directions N, E, S, W are −i, 1, i, −1
//! = i^(side − 1), so the turn multiplies a piece's number by **i**: with f(k, p) the number
//! of piece p in its reference orientation, a valid board satisfies, for every colour k,
//! `Σ_p f(k, p) · i^(r_p) = 0`.

pub mod report;

use num_bigint::BigInt;
use num_traits::Zero as _;

use crate::puzzle::{Board, Colour, GREY, Instance, Piece, Rotation, Side};

/// A Gaussian integer `re + im·i`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Gauss {
    /// Real part (east minus west).
    pub re: i64,
    /// Imaginary part (south minus north).
    pub im: i64,
}

impl Gauss {
    /// Multiplies by i^r: one factor i per clockwise quarter turn.
    pub fn turned(self, r: Rotation) -> Gauss {
        (0..r.turns()).fold(self, |z, _| Gauss { re: -z.im, im: z.re })
    }

    /// True for 0.
    pub fn is_zero(self) -> bool {
        self.re == 0 && self.im == 0
    }
}

impl std::ops::Add for Gauss {
    type Output = Gauss;
    fn add(self, o: Gauss) -> Gauss {
        Gauss { re: self.re + o.re, im: self.im + o.im }
    }
}

/// The number of a piece showing `shown` (N, E, S, W) for colour `k`.
pub fn shown_flux(shown: [Colour; 4], k: Colour) -> Gauss {
    let w = |s: Side| i64::from(shown[s.index()] == k && k != GREY);
    Gauss { re: w(Side::E) - w(Side::W), im: w(Side::S) - w(Side::N) }
}

/// f(k, p): the number of a piece in its reference orientation.
pub fn piece_flux(piece: Piece, k: Colour) -> Gauss {
    shown_flux(piece.0, k)
}

/// The colours the law is about: every non-grey colour some piece shows, ascending.
pub fn colours(instance: &Instance) -> Vec<Colour> {
    let mut seen = [false; 256];
    for p in &instance.pieces {
        for c in p.0 {
            seen[usize::from(c)] = true;
        }
    }
    (1..=255u8).filter(|&c| seen[usize::from(c)]).collect()
}

/// Σ over the placed cells of each colour's number, in the order of [`colours`].
pub fn board_flux(instance: &Instance, board: &Board) -> Vec<(Colour, Gauss)> {
    colours(instance)
        .into_iter()
        .map(|k| {
            let sum = board
                .cells
                .iter()
                .flatten()
                .fold(Gauss::default(), |acc, p| acc + piece_flux(instance.pieces[p.piece], k).turned(p.rotation));
            (k, sum)
        })
        .collect()
}

/// True if every colour's flux sums to exactly zero (always so on a full valid board).
pub fn law_holds(instance: &Instance, board: &Board) -> bool {
    board_flux(instance, board).iter().all(|(_, z)| z.is_zero())
}

/// Rank over the rationals of an integer matrix, by fraction-free (Bareiss)
/// elimination on big integers: exact, whatever the size of the minors.
pub fn rational_rank(rows: &[Vec<i64>]) -> usize {
    let mut m: Vec<Vec<BigInt>> = rows.iter().map(|r| r.iter().map(|&x| BigInt::from(x)).collect()).collect();
    let cols = m.first().map_or(0, Vec::len);
    let mut rank = 0;
    let mut previous = BigInt::from(1);
    for col in 0..cols {
        let Some(pivot) = (rank..m.len()).find(|&r| !m[r][col].is_zero()) else { continue };
        m.swap(rank, pivot);
        for r in rank + 1..m.len() {
            for c in col + 1..cols {
                let value = (&m[rank][col] * &m[r][c] - &m[r][col] * &m[rank][c]) / &previous;
                m[r][c] = value;
            }
            m[r][col] = BigInt::zero();
        }
        // Bareiss divides by the previous pivot itself, sign included: every entry stays a minor.
        previous = m[rank][col].clone();
        rank += 1;
    }
    rank
}

/// A linear system over GF(2), rows as bitsets.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Gf2 {
    unknowns: usize,
    words: usize,
    /// Each row: coefficient bits, then the right-hand side as bit `unknowns`.
    rows: Vec<Vec<u64>>,
}

impl Gf2 {
    /// An empty system in `unknowns` unknowns.
    pub fn new(unknowns: usize) -> Gf2 {
        Gf2 { unknowns, words: unknowns / 64 + 1, rows: Vec::new() }
    }

    /// Adds the equation `Σ coefficient·x = rhs`, with the unknowns whose coefficient is 1.
    pub fn push(&mut self, ones: impl IntoIterator<Item = usize>, rhs: bool) {
        let mut row = vec![0u64; self.words];
        for j in ones {
            row[j / 64] ^= 1 << (j % 64);
        }
        if rhs {
            row[self.unknowns / 64] ^= 1 << (self.unknowns % 64);
        }
        self.rows.push(row);
    }

    /// (rank of the coefficients, rank of the augmented system): equal iff consistent.
    pub fn ranks(&self) -> (usize, usize) {
        let mut rows = self.rows.clone();
        let bit = |row: &Vec<u64>, j: usize| row[j / 64] >> (j % 64) & 1 == 1;
        let mut rank = 0;
        for j in 0..=self.unknowns {
            let Some(p) = (rank..rows.len()).find(|&r| bit(&rows[r], j)) else { continue };
            rows.swap(rank, p);
            let pivot = rows[rank].clone();
            for (r, row) in rows.iter_mut().enumerate() {
                if r != rank && bit(row, j) {
                    row.iter_mut().zip(&pivot).for_each(|(a, b)| *a ^= b);
                }
            }
            if j == self.unknowns {
                // A pivot in the right-hand side column: 0 = 1, inconsistent.
                return (rank, rank + 1);
            }
            rank += 1;
        }
        (rank, rank)
    }

    /// True if some assignment satisfies every equation.
    pub fn solvable(&self) -> bool {
        let (a, b) = self.ranks();
        a == b
    }
}

/// The ranks of the official set's flux system (see `edgematch flux`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ranks {
    /// Colours in the system (rows of F).
    pub colours: usize,
    /// Pieces (columns of F).
    pub pieces: usize,
    /// Rank of F over Q(i): half the rank of the real-linear system.
    pub complex: usize,
    /// Rank over Q of the 2C×P real matrix stacking Re F on Im F.
    pub stacked_real: usize,
    /// Rank over Q of the real-linear system in z_p = a_p + i·b_p (2C equations, 2P unknowns).
    pub real_linear_system: usize,
    /// Rank over GF(2) of the parity system in t_p = r_p mod 2.
    pub mod2: usize,
    /// Its augmented rank (equal: consistent).
    pub mod2_augmented: usize,
    /// Per colour: Σ_p (Re f + Im f)(k, p) mod 2, the colour's count mod 2.
    pub census_shadow: Vec<u8>,
}

/// Computes [`Ranks`] for an instance, exactly.
pub fn ranks(instance: &Instance) -> Ranks {
    let ks = colours(instance);
    let f: Vec<Vec<Gauss>> = ks.iter().map(|&k| instance.pieces.iter().map(|&p| piece_flux(p, k)).collect()).collect();
    let re: Vec<Vec<i64>> = f.iter().map(|row| row.iter().map(|z| z.re).collect()).collect();
    let im: Vec<Vec<i64>> = f.iter().map(|row| row.iter().map(|z| z.im).collect()).collect();
    let stacked: Vec<Vec<i64>> = re.iter().chain(&im).cloned().collect();
    // Σ f z = 0 with z = a + ib: real part Re f·a − Im f·b, imaginary part Im f·a + Re f·b.
    let neg = |row: &Vec<i64>| row.iter().map(|x| -x).collect::<Vec<_>>();
    let system: Vec<Vec<i64>> = re
        .iter()
        .zip(&im)
        .map(|(r, i)| r.iter().copied().chain(neg(i)).collect())
        .chain(re.iter().zip(&im).map(|(r, i)| i.iter().chain(r).copied().collect()))
        .collect();
    let real_linear_system = rational_rank(&system);
    let mut gf2 = Gf2::new(instance.pieces.len());
    let mut census = Vec::new();
    for (r, i) in re.iter().zip(&im) {
        let c: Vec<usize> = (0..r.len()).filter(|&p| (r[p] + i[p]).rem_euclid(2) == 1).collect();
        census.push((c.len() % 2) as u8);
        let parity = |row: &Vec<i64>| row.iter().sum::<i64>().rem_euclid(2) == 1;
        gf2.push(c.iter().copied(), parity(r));
        gf2.push(c.iter().copied(), parity(i));
    }
    let (mod2, mod2_augmented) = gf2.ranks();
    Ranks {
        colours: ks.len(),
        pieces: instance.pieces.len(),
        complex: real_linear_system / 2,
        stacked_real: rational_rank(&stacked),
        real_linear_system,
        mod2,
        mod2_augmented,
        census_shadow: census,
    }
}

/// The endgame certificate: false when no choice of rotation parities for the
/// pieces not on `board` can pay the flux the placed pieces owe, mod 2 — then
/// the partial board cannot be completed. Sound: it never rejects a partial
/// board that has a completion.
pub fn certificate_passes(instance: &Instance, board: &Board) -> bool {
    let mut placed = vec![false; instance.pieces.len()];
    for p in board.cells.iter().flatten() {
        placed[p.piece] = true;
    }
    let unplaced: Vec<usize> = (0..instance.pieces.len()).filter(|&p| !placed[p]).collect();
    let mut system = Gf2::new(unplaced.len());
    for (k, owed) in board_flux(instance, board) {
        let f: Vec<Gauss> = unplaced.iter().map(|&p| piece_flux(instance.pieces[p], k)).collect();
        let ones = (0..f.len()).filter(|&j| (f[j].re + f[j].im).rem_euclid(2) == 1);
        let sum_re: i64 = f.iter().map(|z| z.re).sum();
        let sum_im: i64 = f.iter().map(|z| z.im).sum();
        system.push(ones.clone(), (owed.re + sum_re).rem_euclid(2) == 1);
        system.push(ones, (owed.im + sum_im).rem_euclid(2) == 1);
    }
    system.solvable()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::{PlantedSpec, planted};
    use crate::puzzle::{Grid, Placement};
    use crate::rng::Rng;

    #[test]
    fn a_quarter_turn_multiplies_by_i() {
        let p = Piece([3, 5, 3, 7]);
        for k in [3, 5, 7] {
            for r in Rotation::ALL {
                assert_eq!(shown_flux(p.rotated(r), k), piece_flux(p, k).turned(r), "k {k} r {r:?}");
            }
        }
        assert_eq!(piece_flux(Piece([0, 5, 0, 0]), 5), Gauss { re: 1, im: 0 });
        assert_eq!(Gauss { re: 1, im: 0 }.turned(Rotation::ALL[1]), Gauss { re: 0, im: 1 });
    }

    #[test]
    fn the_law_holds_on_planted_boards_and_breaks_on_a_wrong_turn() {
        for seed in 1..=20 {
            let spec = PlantedSpec {
                grid: Grid { width: 7, height: 6 },
                frame_colours: 3,
                interior_colours: 8,
                clues: 5,
                seed,
            };
            let p = planted(&spec).unwrap();
            assert!(law_holds(&p.instance, &p.solution));
            let mut rng = Rng::new(seed);
            let cell = rng.below(p.solution.cells.len());
            let placed = p.solution.cells[cell].unwrap();
            let nonzero =
                colours(&p.instance).iter().any(|&k| !piece_flux(p.instance.pieces[placed.piece], k).is_zero());
            for extra in 1..4 {
                let mut board = p.solution.clone();
                board.cells[cell] = Some(Placement {
                    rotation: Rotation::wrapping(placed.rotation.turns() as usize + extra),
                    ..placed
                });
                assert_eq!(law_holds(&p.instance, &board), !nonzero, "seed {seed} extra {extra}");
            }
            assert!(certificate_passes(&p.instance, &p.solution));
        }
    }

    #[test]
    fn gf2_agrees_with_brute_force() {
        let mut rng = Rng::new(11);
        for _ in 0..300 {
            let n = 1 + rng.below(8);
            let m = 1 + rng.below(8);
            let mut system = Gf2::new(n);
            let mut rows = Vec::new();
            for _ in 0..m {
                let mask = rng.next_u64() & ((1 << n) - 1);
                let rhs = rng.below(2) == 1;
                system.push((0..n).filter(|j| mask >> j & 1 == 1), rhs);
                rows.push((mask, rhs));
            }
            let brute =
                (0u64..1 << n).any(|x| rows.iter().all(|&(mask, rhs)| ((mask & x).count_ones() % 2 == 1) == rhs));
            assert_eq!(system.solvable(), brute);
        }
    }

    #[test]
    fn rational_rank_is_exact() {
        assert_eq!(rational_rank(&[vec![1, 2], vec![2, 4]]), 1);
        assert_eq!(rational_rank(&[vec![0, 1, 1], vec![1, 0, 1], vec![1, 1, 0]]), 3);
        // Rank 2 over Q although rank 1 mod 2.
        assert_eq!(rational_rank(&[vec![1, 1], vec![1, -1]]), 2);
        assert_eq!(rational_rank(&[vec![0, 0], vec![0, 0]]), 0);
    }
}
