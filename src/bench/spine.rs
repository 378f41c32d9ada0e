//! `bench spine`: CP-SAT on the planted 12×12 boards, and the time to build and serialize a model.

use std::path::{Path, PathBuf};
use std::time::Instant;

use prost::Message as _;
use serde_json::{Value, json};

use super::{provenance, round3};

use crate::cpsat::model::Formulation;
use crate::cpsat::{self, SolveEnv};
use crate::error::Error;
use crate::formats::instance_json;
use crate::{interrupt, solver};

/// What `bench spine` runs.
#[derive(Clone, Debug)]
pub struct SpineConfig {
    /// Instances to solve with CP-SAT.
    pub instances: Vec<PathBuf>,
    /// Instance whose model is built and serialized repeatedly.
    pub model_instance: PathBuf,
    /// Formulations to run (each on every instance) and to time.
    pub formulations: Vec<Formulation>,
    /// CP-SAT options for every solve (the formulation is overridden).
    pub options: cpsat::Options,
}

/// Solves each instance once, verifies each board, and times the model build;
/// returns the JSON record. Stops early (keeping what finished) on Ctrl-C.
pub fn spine(config: &SpineConfig) -> Result<String, Error> {
    let mut runs = Vec::new();
    for (&formulation, path) in config.formulations.iter().flat_map(|f| config.instances.iter().map(move |p| (f, p))) {
        if interrupt::raised() {
            break;
        }
        let file = instance_json::read(path)?;
        eprintln!("bench: solving {} with the {} model ...", path.display(), formulation.name());
        let env = SolveEnv::new()?;
        let guard = interrupt::watch({
            let stopper = env.stopper();
            move || stopper.stop()
        });
        let options = cpsat::Options { formulation, ..config.options.clone() };
        let outcome = cpsat::solve(&file.instance, &options, &env)?;
        drop(guard);
        let verified = solver::verify(&file.instance, &outcome)?;
        eprintln!(
            "bench: {} {} in {:.2} s (verified solution: {})",
            path.display(),
            outcome.status,
            outcome.seconds,
            verified.solved
        );
        runs.push(json!({
            "instance": path.display().to_string(),
            "model": formulation.name(),
            "status": outcome.status.to_string(),
            "verified": verified.solved,
            "verified_score": verified.score,
            "max_score": file.instance.grid.max_score(),
            "seconds": round3(outcome.seconds),
            "workers": config.options.workers,
            "time_limit": config.options.time_limit,
        }));
    }

    let builds = model_build(&config.model_instance, &config.formulations)?;
    let record = json!({
        "benchmark": "spine",
        "command": "edgematch bench spine",
        "provenance": provenance(),
        "interrupted": interrupt::raised(),
        "cpsat_runs": runs,
        "model_build": builds,
    });
    Ok(serde_json::to_string_pretty(&record).expect("JSON values serialize") + "\n")
}

/// Times building and serializing the model of `instance` in each formulation
/// (median of 21), with the serialized size.
pub fn model_build(instance: &Path, formulations: &[Formulation]) -> Result<Vec<Value>, Error> {
    let file = instance_json::read(instance)?;
    let mut builds = Vec::new();
    for &formulation in formulations {
        let mut millis = Vec::new();
        let mut bytes = 0;
        for _ in 0..21 {
            let start = Instant::now();
            let model = cpsat::model::build(&file.instance, formulation);
            let encoded = model.proto.encode_to_vec();
            millis.push(start.elapsed().as_secs_f64() * 1e3);
            bytes = encoded.len();
        }
        millis.sort_by(f64::total_cmp);
        builds.push(json!({
            "model": formulation.name(),
            "instance": instance.display().to_string(),
            "repetitions": millis.len(),
            "median_ms": round3(millis[millis.len() / 2]),
            "min_ms": round3(millis[0]),
            "max_ms": round3(millis[millis.len() - 1]),
            "serialized_bytes": bytes,
            "target_ms": 50,
        }));
    }
    Ok(builds)
}
