//! `bench dfs-speed` (the DFS baseline's placements per second on one thread) and
//! `bench flux-prune` (the DFS with and without the flux certificate).

use std::path::PathBuf;

use serde_json::{Value, json};

use super::round3;
use crate::dfs;
use crate::error::Error;
use crate::formats::instance_json;
use crate::{interrupt, solver};

/// Runs the randomized DFS on each instance for `seconds` and returns the JSON
/// record: nodes, seconds, nodes per second and the verified best score.
pub fn dfs_speed(instances: &[PathBuf], seconds: f64, provenance: Value) -> Result<String, Error> {
    let mut runs = Vec::new();
    for path in instances {
        if interrupt::raised() {
            break;
        }
        let file = instance_json::read(path)?;
        eprintln!("bench: dfs on {} for {seconds} s ...", path.display());
        let options = dfs::Options { time_limit: Some(seconds), ..dfs::Options::default() };
        let (outcome, stats) = dfs::solve(&file.instance, &options);
        let verified = solver::verify(&file.instance, &outcome)?;
        runs.push(json!({
            "instance": path.display().to_string(),
            "status": outcome.status.to_string(),
            "nodes": stats.nodes,
            "restarts": stats.restarts,
            "seconds": round3(outcome.seconds),
            "nodes_per_second": (stats.nodes as f64 / outcome.seconds).round(),
            "verified_score": verified.score,
            "max_score": file.instance.grid.max_score(),
        }));
    }
    let mut rates: Vec<f64> = runs.iter().filter_map(|r| r["nodes_per_second"].as_f64()).collect();
    rates.sort_by(f64::total_cmp);
    let record = json!({
        "benchmark": "dfs-speed",
        "command": format!("edgematch bench dfs-speed --seconds {seconds}"),
        "threads": 1,
        "provenance": provenance,
        "interrupted": interrupt::raised(),
        "median_nodes_per_second": rates.get(rates.len().saturating_sub(1) / 2),
        "target_nodes_per_second": 30_000_000,
        "runs": runs,
    });
    Ok(serde_json::to_string_pretty(&record).expect("JSON values serialize") + "\n")
}

/// DFS with and without the flux certificate (applied from `fill` of the
/// cells on) on planted boards of the given sizes and seeds, each verified;
/// returns the JSON record.
pub fn flux_prune(sizes: &[usize], seeds: &[u64], fill: f64, seconds: f64, provenance: Value) -> Result<String, Error> {
    use crate::generate::{PlantedSpec, planted};
    let mut runs = Vec::new();
    for &size in sizes {
        for &seed in seeds {
            let spec = PlantedSpec::square(size, 5, 17, seed);
            let p = planted(&spec)?;
            let threshold = (fill * (size * size) as f64).ceil() as usize;
            for prune in [None, Some(threshold)] {
                if interrupt::raised() {
                    break;
                }
                let options =
                    dfs::Options { time_limit: Some(seconds), seed, flux_prune: prune, ..dfs::Options::default() };
                let (outcome, stats) = dfs::solve(&p.instance, &options);
                let verified = solver::verify(&p.instance, &outcome)?;
                eprintln!(
                    "bench: {} flux-prune {:?}: {} in {:.2} s, {} nodes, {} pruned",
                    spec.name(),
                    prune,
                    outcome.status,
                    outcome.seconds,
                    stats.nodes,
                    stats.flux_pruned
                );
                runs.push(json!({
                    "instance": spec.name(),
                    "flux_prune_from_cells": prune,
                    "status": outcome.status.to_string(),
                    "solved": verified.solved,
                    "verified_score": verified.score,
                    "seconds": round3(outcome.seconds),
                    "nodes": stats.nodes,
                    "flux_pruned": stats.flux_pruned,
                    "restarts": stats.restarts,
                }));
            }
        }
    }
    let record = json!({
        "benchmark": "dfs-flux-prune",
        "command": format!("edgematch bench flux-prune --fill {fill} --seconds {seconds}"),
        "threads": 1,
        "provenance": provenance,
        "interrupted": interrupt::raised(),
        "runs": runs,
    });
    Ok(serde_json::to_string_pretty(&record).expect("JSON values serialize") + "\n")
}
