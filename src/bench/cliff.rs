//! `bench cliff`: the DFS baseline and CP-SAT, one after the other, on identical planted boards.
//!
//! Jobs are enumerated in a fixed order (colours, size, seed, then the DFS
//! budgets and CP-SAT), so `--shard k/N` (job i belongs to shard i mod N) and
//! resuming are deterministic. Each finished run is appended at once as one
//! JSON line to the runs file; jobs already in it are skipped, so a killed
//! bench loses at most the run in flight.

use std::collections::HashSet;
use std::path::PathBuf;

use serde_json::{Value, json};

use super::round3;
use super::runs::{append_line, read_runs};
use crate::cpsat::model::Formulation;
use crate::cpsat::{self, SolveEnv};
use crate::error::Error;
use crate::formats::instance_json;
use crate::generate::{PlantedSpec, planted};
use crate::puzzle::Instance;
use crate::solver::Outcome;
use crate::{dfs, interrupt, mip, solver};

/// Which solver a run used.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Arm {
    /// The randomized restarting DFS.
    Dfs,
    /// CP-SAT.
    Cpsat,
    /// The placement MIP, by HiGHS.
    Mip,
}

impl Arm {
    /// The name in runs files and tables.
    pub fn name(self) -> &'static str {
        match self {
            Arm::Dfs => "dfs",
            Arm::Cpsat => "cpsat",
            Arm::Mip => "mip",
        }
    }
}

/// A frame + interior colour setting, written `5+17`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Colours {
    /// Frame colours.
    pub frame: u32,
    /// Interior colours.
    pub interior: u32,
}

impl std::str::FromStr for Colours {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        let (f, i) = s.split_once('+').ok_or_else(|| format!("{s:?}: expected FRAME+INTERIOR such as 5+17"))?;
        let parse = |x: &str| x.trim().parse::<u32>().map_err(|e| format!("{s:?}: {e}"));
        Ok(Colours { frame: parse(f)?, interior: parse(i)? })
    }
}

impl std::fmt::Display for Colours {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}+{}", self.frame, self.interior)
    }
}

/// What `bench cliff` runs.
#[derive(Clone, Debug)]
pub struct CliffConfig {
    /// Board sides.
    pub sizes: Vec<usize>,
    /// Colour settings.
    pub colours: Vec<Colours>,
    /// Generator seeds.
    pub seeds: Vec<u64>,
    /// Seeds for sizes listed here replace `seeds` (e.g. 16 with seed 1 only).
    pub seeds_at: Vec<(usize, Vec<u64>)>,
    /// Arms to run, in this order for each instance.
    pub arms: Vec<Arm>,
    /// DFS budgets in seconds; the first runs at every size.
    pub dfs_budgets: Vec<f64>,
    /// Sizes at which the DFS budgets after the first run (empty: every size).
    pub dfs_long_sizes: Vec<usize>,
    /// DFS placements between restarts.
    pub restart_nodes: u64,
    /// CP-SAT limit in seconds, unless `cpsat_limit_at` names the size.
    pub cpsat_limit: f64,
    /// Per-size CP-SAT limits.
    pub cpsat_limit_at: Vec<(usize, f64)>,
    /// MIP limit in seconds.
    pub mip_limit: f64,
    /// CP-SAT workers.
    pub workers: u32,
    /// CP-SAT formulation.
    pub formulation: Formulation,
    /// Where instances are read from (generated in memory when absent).
    pub models_dir: PathBuf,
    /// The runs file (JSON lines), appended to.
    pub runs: PathBuf,
    /// This shard and the shard count (1-based k of N).
    pub shard: (usize, usize),
}

/// One run to make.
#[derive(Clone, Debug, PartialEq)]
pub struct Job {
    /// Solver.
    pub arm: Arm,
    /// Board side.
    pub size: usize,
    /// Colour setting.
    pub colours: Colours,
    /// Generator seed.
    pub seed: u64,
    /// Time budget in seconds.
    pub budget: f64,
}

impl Job {
    /// The instance name, as in `models/`.
    pub fn instance(&self) -> String {
        self.spec().name()
    }

    fn spec(&self) -> PlantedSpec {
        PlantedSpec::square(self.size, self.colours.frame, self.colours.interior, self.seed)
    }

    /// What identifies a run in the runs file.
    pub fn key(&self) -> String {
        format!("{}|{}|{}", self.arm.name(), self.instance(), self.budget)
    }
}

/// The fields that identify a run.
pub const KEY_FIELDS: [&str; 3] = ["arm", "instance", "budget"];

fn key_of(run: &Value) -> Option<String> {
    Some(format!("{}|{}|{}", run["arm"].as_str()?, run["instance"].as_str()?, run["budget"].as_f64()?))
}

/// Every job of the configuration, in the fixed order, before sharding.
pub fn jobs(config: &CliffConfig) -> Vec<Job> {
    let mut jobs = Vec::new();
    for &colours in &config.colours {
        for &size in &config.sizes {
            let seeds = config.seeds_at.iter().find(|(s, _)| *s == size).map_or(&config.seeds, |(_, seeds)| seeds);
            for &seed in seeds {
                for &arm in &config.arms {
                    let budgets: Vec<f64> = match arm {
                        Arm::Dfs => {
                            let long = config.dfs_long_sizes.is_empty() || config.dfs_long_sizes.contains(&size);
                            config.dfs_budgets.iter().take(if long { usize::MAX } else { 1 }).copied().collect()
                        }
                        Arm::Cpsat => vec![
                            config.cpsat_limit_at.iter().find(|(s, _)| *s == size).map_or(config.cpsat_limit, |x| x.1),
                        ],
                        Arm::Mip => vec![config.mip_limit],
                    };
                    jobs.extend(budgets.into_iter().map(|budget| Job { arm, size, colours, seed, budget }));
                }
            }
        }
    }
    jobs
}

fn load_instance(config: &CliffConfig, job: &Job) -> Result<Instance, Error> {
    let path = config.models_dir.join(format!("{}.json", job.instance()));
    if path.is_file() { Ok(instance_json::read(&path)?.instance) } else { Ok(planted(&job.spec())?.instance) }
}

/// Shard `k` of `n` (1-based): job i belongs to shard i mod n + 1.
pub fn shard(jobs: Vec<Job>, k: usize, n: usize) -> Vec<Job> {
    jobs.into_iter().enumerate().filter(|(i, _)| i % n == k - 1).map(|(_, job)| job).collect()
}

/// Runs the jobs of this shard that the runs file does not hold yet; returns
/// how many ran. Stops on Ctrl-C without recording the run in flight.
pub fn run(config: &CliffConfig, provenance: &Value) -> Result<usize, Error> {
    let (done, broken) = read_runs(&config.runs, &KEY_FIELDS)?;
    if broken > 0 {
        eprintln!("cliff: {} has {broken} unreadable line(s), ignored", config.runs.display());
    }
    let done: HashSet<String> = done.iter().filter_map(key_of).collect();
    let (k, n) = config.shard;
    let mine = shard(jobs(config), k, n);
    let todo: Vec<&Job> = mine.iter().filter(|j| !done.contains(&j.key())).collect();
    eprintln!(
        "cliff: shard {k}/{n}: {} jobs, {} already done, {} to run",
        mine.len(),
        mine.len() - todo.len(),
        todo.len()
    );

    let env_workers = config.workers;
    for (i, job) in todo.iter().enumerate() {
        if interrupt::raised() {
            break;
        }
        let instance = load_instance(config, job)?;
        eprint!("cliff: [{}/{}] {} {} s {} ... ", i + 1, todo.len(), job.arm.name(), job.budget, job.instance());
        let (outcome, nodes, restarts, workers) = match job.arm {
            Arm::Dfs => {
                let options = dfs::Options {
                    time_limit: Some(job.budget),
                    restart_nodes: config.restart_nodes,
                    seed: job.seed,
                    ..dfs::Options::default()
                };
                let (outcome, stats) = dfs::solve(&instance, &options);
                (outcome, Some(stats.nodes), Some(stats.restarts), 1)
            }
            Arm::Cpsat => {
                let options = cpsat::Options {
                    time_limit: Some(job.budget),
                    workers: env_workers,
                    formulation: config.formulation,
                    ..cpsat::Options::default()
                };
                let env = SolveEnv::new()?;
                let _guard = interrupt::watch({
                    let stopper = env.stopper();
                    move || stopper.stop()
                });
                (cpsat::solve(&instance, &options, &env)?, None, None, env_workers)
            }
            Arm::Mip => {
                let options = mip::Options { time_limit: Some(job.budget), ..mip::Options::default() };
                let env = mip::MipEnv::new();
                let _guard = interrupt::watch({
                    let env = env.clone();
                    move || env.stop()
                });
                (mip::solve(&instance, &options, &env)?, None, None, 1)
            }
        };
        if interrupt::raised() {
            eprintln!("interrupted (not recorded)");
            break;
        }
        let verified = solver::verify(&instance, &outcome)?;
        let score = match verified.report {
            Some(_) => format!("score {}/{}", verified.score, instance.grid.max_score()),
            None => "no board".to_owned(),
        };
        eprintln!("{}, {score} in {:.1} s", if verified.solved { "solved" } else { "not solved" }, outcome.seconds);
        let record = record(job, &instance, &outcome, &verified, nodes, restarts, workers, config, provenance);
        append_line(&config.runs, &record.to_string())?;
    }
    Ok(todo.len())
}

#[allow(clippy::too_many_arguments)]
fn record(
    job: &Job,
    instance: &Instance,
    outcome: &Outcome,
    verified: &solver::Verified,
    nodes: Option<u64>,
    restarts: Option<u64>,
    workers: u32,
    config: &CliffConfig,
    provenance: &Value,
) -> Value {
    json!({
        "arm": job.arm.name(),
        "instance": job.instance(),
        "size": job.size,
        "colours": job.colours.to_string(),
        "seed": job.seed,
        "budget": job.budget,
        "status": outcome.status.to_string(),
        "solved": verified.solved,
        "board": verified.report.is_some(),
        "verified_score": verified.score,
        "target": instance.grid.max_score(),
        "seconds": round3(outcome.seconds),
        "nodes": nodes,
        "restarts": restarts,
        "model": (job.arm == Arm::Cpsat).then(|| config.formulation.name()),
        "workers": workers,
        "cores": provenance["cores"],
        "commit": provenance["commit"],
        "dirty": provenance["dirty"],
        "ortools": provenance["ortools"],
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config() -> CliffConfig {
        CliffConfig {
            sizes: vec![10, 12, 16],
            colours: vec!["5+17".parse().unwrap()],
            seeds: vec![1, 2],
            seeds_at: vec![(16, vec![1])],
            arms: vec![Arm::Dfs, Arm::Cpsat],
            dfs_budgets: vec![20.0, 45.0],
            dfs_long_sizes: vec![12],
            restart_nodes: 100_000,
            cpsat_limit: 300.0,
            cpsat_limit_at: vec![(16, 120.0)],
            mip_limit: 300.0,
            workers: 2,
            formulation: Formulation::Table,
            models_dir: PathBuf::from("models"),
            runs: PathBuf::from("runs.jsonl"),
            shard: (1, 1),
        }
    }

    #[test]
    fn jobs_follow_budgets_seeds_and_limits() {
        let jobs = jobs(&config());
        // 10: 2 seeds × (dfs 20 + cpsat); 12: 2 × (dfs 20, 45 + cpsat); 16: 1 × (dfs 20 + cpsat).
        assert_eq!(jobs.len(), 4 + 6 + 2);
        assert_eq!(jobs[0].key(), "dfs|planted-10x10-f5i17-s1|20");
        assert!(jobs.iter().any(|j| j.size == 12 && j.budget == 45.0));
        assert!(!jobs.iter().any(|j| j.size == 10 && j.budget == 45.0));
        assert_eq!(jobs.last().unwrap().budget, 120.0);
        assert!("5-17".parse::<Colours>().is_err());
    }

    #[test]
    fn shards_partition_the_jobs() {
        let all = jobs(&config());
        let parts: Vec<Vec<Job>> = (1..=3).map(|k| shard(all.clone(), k, 3)).collect();
        assert_eq!(parts.iter().map(Vec::len).sum::<usize>(), all.len());
        let mut keys: Vec<String> = parts.iter().flatten().map(Job::key).collect();
        keys.sort();
        let mut expected: Vec<String> = all.iter().map(Job::key).collect();
        expected.sort();
        assert_eq!(keys, expected);
    }

    #[test]
    fn appending_after_a_cut_line_starts_a_new_line() {
        let dir = std::env::temp_dir().join(format!("edgematch-cliff-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("runs.jsonl");
        let job = &jobs(&config())[0];
        let run = json!({"arm": "dfs", "instance": job.instance(), "budget": 20.0});
        std::fs::write(&path, format!("{run}\n{{\"arm\": \"dfs\", \"inst")).unwrap();
        append_line(&path, &json!({"arm": "cpsat", "instance": "x", "budget": 1.0}).to_string()).unwrap();
        let (runs, broken) = read_runs(&path, &KEY_FIELDS).unwrap();
        assert_eq!((runs.len(), broken), (2, 1));
        assert_eq!(key_of(&runs[0]).unwrap(), job.key());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
