//! `bench spine` (CP-SAT on the planted 12×12 boards) and `bench model-build`
//! (the time to build and serialize a model).

use std::path::{Path, PathBuf};
use std::time::Instant;

use prost::Message as _;

use super::records::round3;
use super::records::{ModelBuild, ModelBuilds, Record, Spine, SpineRun};
use crate::cpsat::{self, model::Formulation};
use crate::error::Error;
use crate::formats::instance_json;
use crate::solver::{self, Limits, Solver};
use crate::stop::Stop;

/// What `bench spine` runs.
#[derive(Clone, Debug)]
pub struct SpineConfig {
    /// Instances to solve with CP-SAT.
    pub instances: Vec<PathBuf>,
    /// Instance whose model is built and serialized repeatedly.
    pub model_instance: PathBuf,
    /// Formulations to run (each on every instance) and to time.
    pub formulations: Vec<Formulation>,
    /// Limits of every solve.
    pub limits: Limits,
}

/// Solves each instance once, verifies each board, and times the model build.
/// Stops early (keeping what finished) when `stop` is raised.
pub fn spine(config: &SpineConfig, stop: &Stop) -> Result<Record<Spine>, Error> {
    let mut runs = Vec::new();
    for (&formulation, path) in config.formulations.iter().flat_map(|f| config.instances.iter().map(move |p| (f, p))) {
        if stop.is_raised() {
            break;
        }
        let file = instance_json::read(path)?;
        eprintln!("bench: solving {} with the {} model ...", path.display(), formulation.name());
        let solver = Solver::Cpsat(cpsat::Options { formulation, ..cpsat::Options::default() });
        let (outcome, verified) = solver::solve_accepted(&solver, &file.instance, &config.limits, stop)?;
        eprintln!(
            "bench: {} {} in {:.2} s (verified solution: {})",
            path.display(),
            outcome.status,
            outcome.seconds,
            verified.solved
        );
        runs.push(SpineRun {
            instance: path.display().to_string(),
            model: formulation.name().to_owned(),
            status: outcome.status,
            verified: verified.solved,
            verified_score: verified.score,
            max_score: file.instance.grid.max_score(),
            seconds: round3(outcome.seconds),
            workers: config.limits.threads,
            time_limit: config.limits.time_limit,
        });
    }
    let model_build = model_build(&config.model_instance, &config.formulations)?;
    Ok(Record::new(
        "spine",
        "edgematch bench spine".to_owned(),
        None,
        Some(stop.is_raised()),
        Spine { cpsat_runs: runs, model_build },
    ))
}

/// The `bench model-build` record for `instance`.
pub fn model_build_record(instance: &Path) -> Result<Record<ModelBuilds>, Error> {
    Ok(Record::new(
        "model-build",
        format!("edgematch bench model-build {}", instance.display()),
        None,
        None,
        ModelBuilds { builds: model_build(instance, &[Formulation::Element, Formulation::Table])? },
    ))
}

/// Times building and serializing the model of `instance` in each formulation
/// (median of 21), with the serialized size.
pub fn model_build(instance: &Path, formulations: &[Formulation]) -> Result<Vec<ModelBuild>, Error> {
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
        builds.push(ModelBuild {
            model: formulation.name().to_owned(),
            instance: instance.display().to_string(),
            repetitions: millis.len(),
            median_ms: round3(millis[millis.len() / 2]),
            min_ms: round3(millis[0]),
            max_ms: round3(millis[millis.len() - 1]),
            serialized_bytes: bytes,
            target_ms: 50,
        });
    }
    Ok(builds)
}
