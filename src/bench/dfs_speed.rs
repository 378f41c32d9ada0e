//! `bench dfs-speed` (the DFS baseline's placements per second on one thread) and
//! `bench flux-prune` (the DFS with and without the flux certificate).

use std::path::PathBuf;

use super::records::round3;
use super::records::{DfsSpeed, DfsSpeedRun, FluxPrune, FluxPruneRun, Record};
use crate::dfs;
use crate::error::Error;
use crate::formats::instance_json;
use crate::generate::{PlantedSpec, planted};
use crate::solver::{self, Limits, Solver, Stats};
use crate::stop::Stop;

/// Runs the DFS with `options` and returns the outcome, its verification and its counters.
fn run_dfs(
    instance: &crate::puzzle::Instance,
    options: dfs::Options,
    limits: &Limits,
    stop: &Stop,
) -> Result<(solver::Outcome, solver::Accepted, dfs::Stats), Error> {
    let (outcome, verified) = solver::solve_accepted(&Solver::Dfs(options), instance, limits, stop)?;
    let Stats::Dfs(stats) = outcome.stats.clone() else { unreachable!("the DFS returns DFS stats") };
    Ok((outcome, verified, stats))
}

/// Runs the randomized DFS on each instance for `seconds`: nodes, seconds,
/// nodes per second and the verified best score.
pub fn dfs_speed(instances: &[PathBuf], seconds: f64, stop: &Stop) -> Result<Record<DfsSpeed>, Error> {
    let mut runs = Vec::new();
    for path in instances {
        if stop.is_raised() {
            break;
        }
        let file = instance_json::read(path)?;
        eprintln!("bench: dfs on {} for {seconds} s ...", path.display());
        let limits = Limits { time_limit: Some(seconds), ..Limits::default() };
        let (outcome, verified, stats) = run_dfs(&file.instance, dfs::Options::default(), &limits, stop)?;
        runs.push(DfsSpeedRun {
            instance: path.display().to_string(),
            status: outcome.status,
            nodes: stats.nodes,
            restarts: stats.restarts,
            seconds: round3(outcome.seconds),
            nodes_per_second: (stats.nodes as f64 / outcome.seconds).round(),
            verified_score: verified.score,
            max_score: file.instance.grid.max_score(),
        });
    }
    let mut rates: Vec<f64> = runs.iter().map(|r| r.nodes_per_second).collect();
    rates.sort_by(f64::total_cmp);
    Ok(Record::new(
        "dfs-speed",
        format!("edgematch bench dfs-speed --seconds {seconds}"),
        Some(1),
        Some(stop.is_raised()),
        DfsSpeed {
            median_nodes_per_second: rates.get(rates.len().saturating_sub(1) / 2).copied(),
            target_nodes_per_second: 30_000_000,
            runs,
        },
    ))
}

/// DFS with and without the flux certificate (applied from `fill` of the
/// cells on) on planted boards of the given sizes and seeds, each verified.
pub fn flux_prune(
    sizes: &[usize],
    seeds: &[u64],
    fill: f64,
    seconds: f64,
    stop: &Stop,
) -> Result<Record<FluxPrune>, Error> {
    let mut runs = Vec::new();
    for &size in sizes {
        for &seed in seeds {
            let spec = PlantedSpec::square(size, 5, 17, seed);
            let p = planted(&spec)?;
            let threshold = (fill * (size * size) as f64).ceil() as usize;
            for prune in [None, Some(threshold)] {
                if stop.is_raised() {
                    break;
                }
                let options = dfs::Options { flux_prune: prune, ..dfs::Options::default() };
                let limits = Limits { time_limit: Some(seconds), seed, ..Limits::default() };
                let (outcome, verified, stats) = run_dfs(&p.instance, options, &limits, stop)?;
                eprintln!(
                    "bench: {} flux-prune {:?}: {} in {:.2} s, {} nodes, {} pruned",
                    spec.name(),
                    prune,
                    outcome.status,
                    outcome.seconds,
                    stats.nodes,
                    stats.flux_pruned
                );
                runs.push(FluxPruneRun {
                    instance: spec.name(),
                    flux_prune_from_cells: prune,
                    status: outcome.status,
                    solved: verified.solved,
                    verified_score: verified.score,
                    seconds: round3(outcome.seconds),
                    nodes: stats.nodes,
                    flux_pruned: stats.flux_pruned,
                    restarts: stats.restarts,
                });
            }
        }
    }
    Ok(Record::new(
        "dfs-flux-prune",
        format!("edgematch bench flux-prune --fill {fill} --seconds {seconds}"),
        Some(1),
        Some(stop.is_raised()),
        FluxPrune { runs },
    ))
}
