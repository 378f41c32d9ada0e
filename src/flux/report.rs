//! `edgematch flux`: the official set's facts, the flux ranks, the fourth member, and the
//! certificate sweep, as one deterministic JSON document.
//!
//! The fourth member: weight each cell by its checkerboard sign (−1)^(row + col) and each
//! piece by g(k, p) = w(E) + w(W) − w(N) − w(S) (colour k on its horizontal pair minus on
//! its vertical pair). Across a horizontal join the two cells have opposite signs and the
//! matched colour counts once on each side, so it cancels; across a vertical join the
//! colour counts negatively on both sides of opposite sign, and cancels too. A quarter turn
//! swaps which pair is horizontal and negates g, so a valid board satisfies, for every
//! colour, Σ_p (−1)^(row_p + col_p + r_p) g(k, p) = 0: a sign character coupling which
//! pair of opposite sides ends up horizontal with the checkerboard colour of the cell.

use std::collections::BTreeMap;

use serde_json::{Value, json};

use crate::flux;
use crate::generate::{PlantedSpec, planted};
use crate::puzzle::{Board, Colour, GREY, Grid, Instance, Placement, Rotation, Side};
use crate::rng::Rng;

/// g(k, p): colour k on the horizontal pair (E, W) minus on the vertical pair (N, S).
pub fn axis_weight(shown: [Colour; 4], k: Colour) -> i64 {
    let w = |s: Side| i64::from(shown[s.index()] == k && k != GREY);
    w(Side::E) + w(Side::W) - w(Side::N) - w(Side::S)
}

/// Per colour, Σ over placed cells of (−1)^(row + col) · g(k, shown piece): zero on a valid board.
pub fn fourth_member(instance: &Instance, board: &Board) -> Vec<(Colour, i64)> {
    flux::colours(instance)
        .into_iter()
        .map(|k| {
            let sum = board
                .cells
                .iter()
                .enumerate()
                .filter_map(|(cell, p)| p.map(|p| (cell, p)))
                .map(|(cell, p)| {
                    let (row, col) = board.grid.row_col(cell);
                    let sign = if (row + col) % 2 == 0 { 1 } else { -1 };
                    sign * axis_weight(instance.pieces[p.piece].rotated(p.rotation), k)
                })
                .sum();
            (k, sum)
        })
        .collect()
}

/// The facts of a piece set: classes, grey half-edges, frame and interior colour counts.
pub fn instance_facts(instance: &Instance) -> Value {
    let class = |g: usize| instance.pieces.iter().filter(|p| p.grey_sides() == g).count();
    let mut half_edges: BTreeMap<Colour, usize> = BTreeMap::new();
    let mut inside = [false; 256];
    for p in &instance.pieces {
        for c in p.0 {
            *half_edges.entry(c).or_default() += 1;
            if p.grey_sides() == 0 {
                inside[usize::from(c)] = true;
            }
        }
    }
    let grey = half_edges.get(&GREY).copied().unwrap_or(0);
    let frame: BTreeMap<String, usize> = half_edges
        .iter()
        .filter(|(c, _)| **c != GREY && !inside[usize::from(**c)])
        .map(|(c, n)| (c.to_string(), *n))
        .collect();
    let interior: BTreeMap<String, usize> = half_edges
        .iter()
        .filter(|(c, _)| **c != GREY && inside[usize::from(**c)])
        .map(|(c, n)| (c.to_string(), *n))
        .collect();
    let clues_on_interior = instance.clues.iter().all(|c| instance.pieces[c.placement.piece].grey_sides() == 0);
    json!({
        "pieces": instance.pieces.len(),
        "corners": class(2),
        "edges": class(1),
        "interior": class(0),
        "grey_half_edges": grey,
        "frame_colours": frame.len(),
        "frame_colour_half_edges": frame,
        "interior_colours": interior.len(),
        "interior_colour_half_edges": interior,
        "all_counts_even": half_edges.values().all(|n| n % 2 == 0),
        "clues": instance.clues.len(),
        "all_clues_on_interior_pieces": clues_on_interior,
    })
}

/// The certificate sweep's settings.
#[derive(Clone, Copy, Debug)]
pub struct SweepSpec {
    /// Planted boards in the pool.
    pub boards: u64,
    /// Board side.
    pub size: usize,
    /// Frame colours of the pool.
    pub frame: u32,
    /// Interior colours of the pool.
    pub interior: u32,
    /// Random placement orders per board and fill.
    pub orders: u64,
}

/// For each fill fraction: clean prefixes of planted solutions must pass the
/// certificate (soundness), and the same prefix with one piece turned to a
/// wrong rotation is caught at some rate.
pub fn sweep(spec: SweepSpec, fills: &[f64]) -> Value {
    let pool: Vec<_> = (1..=spec.boards)
        .map(|seed| {
            planted(&PlantedSpec {
                grid: Grid { width: spec.size, height: spec.size },
                frame_colours: spec.frame,
                interior_colours: spec.interior,
                clues: 0,
                seed,
            })
            .expect("the sweep's pool is generated with enough colours")
        })
        .collect();
    let mut rows = Vec::new();
    for (f, &fill) in fills.iter().enumerate() {
        let mut rng = Rng::new(1000 + f as u64);
        let (mut trials, mut clean_rejected, mut caught, mut law_broken) = (0u64, 0u64, 0u64, 0u64);
        for p in &pool {
            let cells = p.solution.cells.len();
            let placed = ((fill * cells as f64).round() as usize).clamp(1, cells);
            for _ in 0..spec.orders {
                let mut order: Vec<usize> = (0..cells).collect();
                rng.shuffle(&mut order);
                let mut board = Board::empty(p.solution.grid);
                for &cell in &order[..placed] {
                    board.cells[cell] = p.solution.cells[cell];
                }
                trials += 1;
                if !flux::certificate_passes(&p.instance, &board) {
                    clean_rejected += 1;
                }
                let cell = order[rng.below(placed)];
                let right = board.cells[cell].expect("placed");
                // A quarter turn either way: it flips the piece's rotation parity. (A half
                // turn keeps every parity, so no mod-2 certificate can see it.)
                let wrong = Rotation::wrapping(right.rotation.turns() as usize + 1 + 2 * rng.below(2));
                board.cells[cell] = Some(Placement { rotation: wrong, ..right });
                if !flux::certificate_passes(&p.instance, &board) {
                    caught += 1;
                }
                let full_law = flux::board_flux(&p.instance, &board);
                let clean_law = {
                    let mut clean = board.clone();
                    clean.cells[cell] = Some(right);
                    flux::board_flux(&p.instance, &clean)
                };
                if full_law != clean_law {
                    law_broken += 1;
                }
            }
        }
        rows.push(json!({
            "fill": fill,
            "trials": trials,
            "clean_rejected": clean_rejected,
            "injected_caught": caught,
            "catch_rate": (caught as f64 / trials as f64 * 10000.0).round() / 10000.0,
            "injected_changing_exact_flux": law_broken,
        }));
    }
    json!({
        "pool": {
            "boards": spec.boards,
            "size": format!("{}x{}", spec.size, spec.size),
            "colours": format!("{}+{}", spec.frame, spec.interior),
            "seeds": format!("1-{}", spec.boards),
            "clues": 0,
        },
        "orders_per_board": spec.orders,
        "injection": "one placed piece turned a quarter turn clockwise or anticlockwise (uniformly); half turns keep every rotation parity and are invisible to any mod-2 certificate",
        "fills": rows,
    })
}

/// The whole `flux` document for an instance.
pub fn report(instance: &Instance, spec: SweepSpec, fills: &[f64]) -> Value {
    let r = flux::ranks(instance);
    let ks = flux::colours(instance);
    let g: Vec<Vec<i64>> = ks.iter().map(|&k| instance.pieces.iter().map(|p| axis_weight(p.0, k)).collect()).collect();
    let planted_ok = (1..=20).all(|seed| {
        let p = planted(&PlantedSpec::square(8, spec.frame, spec.interior, seed)).expect("generated");
        flux::law_holds(&p.instance, &p.solution) && fourth_member(&p.instance, &p.solution).iter().all(|x| x.1 == 0)
    });
    json!({
        "law": "for every colour k: sum over pieces of f(k,p) * i^(r_p) = 0, f = (w_E - w_W) + i (w_S - w_N), r clockwise quarter turns",
        "instance": instance_facts(instance),
        "ranks": {
            "flux_matrix": format!("{} colours x {} pieces, Gaussian integer entries", r.colours, r.pieces),
            "complex_rank_of_F": r.complex,
            "stacked_real_rank": r.stacked_real,
            "stacked_real_rank_is": "rank over Q of the (2C x P) matrix [Re F; Im F]",
            "real_linear_system_rank": r.real_linear_system,
            "real_linear_system_is": "rank over Q of the 2C equations in the 2P unknowns a_p, b_p of z_p = a_p + i b_p (twice the complex rank)",
            "mod2_rank": r.mod2,
            "mod2_augmented_rank": r.mod2_augmented,
            "mod2_consistent": r.mod2 == r.mod2_augmented,
            "mod2_system_is": "sum_p (Re f + Im f)(k,p) t_p = sum_p Re f(k,p) and = sum_p Im f(k,p) (mod 2), t_p = r_p mod 2",
            "census_shadow": r.census_shadow,
        },
        "fourth_member": {
            "law": "for every colour k: sum over pieces of (-1)^(row_p + col_p + r_p) g(k,p) = 0, g = w_E + w_W - w_N - w_S",
            "rank_over_Q_of_G": flux::rational_rank(&g),
            "holds_on_planted_8x8_boards_seeds_1_to_20": planted_ok,
        },
        "certificate_sweep": sweep(spec, fills),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fourth_member_holds_on_planted_boards_and_the_sweep_is_sound() {
        for seed in 1..=10 {
            let p = planted(&PlantedSpec {
                grid: Grid { width: 6, height: 7 },
                frame_colours: 3,
                interior_colours: 7,
                clues: 5,
                seed,
            })
            .unwrap();
            assert!(fourth_member(&p.instance, &p.solution).iter().all(|x| x.1 == 0));
        }
        let result = sweep(SweepSpec { boards: 3, size: 6, frame: 3, interior: 7, orders: 5 }, &[0.5, 0.9]);
        for row in result["fills"].as_array().unwrap() {
            assert_eq!(row["clean_rejected"], 0);
            assert_eq!(row["trials"], 15);
        }
    }
}
