//! `bench cliff`: the DFS baseline and CP-SAT, one after the other, on identical planted boards.
//!
//! Jobs are enumerated in a fixed order (colours, size, seed, then the DFS
//! budgets and CP-SAT), so `--shard k/N` (job i belongs to shard i mod N) and
//! resuming are deterministic. Each finished run is appended at once as one
//! JSON line to the runs file; jobs already in it are skipped, so a killed
//! bench loses at most the run in flight.

use std::path::PathBuf;

use super::records::round3;
use super::records::{BenchArm, Provenance, Run, job_key};
#[cfg(test)]
use super::runs::shard;
use super::runs::{append_run, pending};
use crate::cpsat::{self, model::Formulation};
use crate::dfs;
use crate::error::Error;
use crate::formats::instance_json;
use crate::generate::{PlantedSpec, planted};
use crate::puzzle::Instance;
use crate::solver::{self, Limits, Solver, SolverKind};
use crate::stop::Stop;

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
    pub arms: Vec<SolverKind>,
    /// DFS budgets in seconds; the first runs at every size.
    pub dfs_budgets: Vec<f64>,
    /// Sizes at which the DFS budgets after the first run (empty: every size).
    pub dfs_long_sizes: Vec<usize>,
    /// DFS placements between restarts.
    pub restart_nodes: u64,
    /// Limit in seconds of CP-SAT and every other arm but the DFS and the MIP,
    /// unless `cpsat_limit_at` names the size.
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
    pub arm: SolverKind,
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

    /// What identifies a run in the runs file (see [`Run::key`]).
    pub fn key(&self) -> String {
        job_key(BenchArm::Solver(self.arm), &self.instance(), self.budget)
    }

    /// The solver of this job, with the configuration's options.
    fn solver(&self, config: &CliffConfig) -> Solver {
        match Solver::new(self.arm) {
            Solver::Cpsat(options) => Solver::Cpsat(cpsat::Options { formulation: config.formulation, ..options }),
            Solver::Dfs(options) => Solver::Dfs(dfs::Options { restart_nodes: config.restart_nodes, ..options }),
            other => other,
        }
    }

    /// The job's limits: its budget, its seed, and the configuration's CP-SAT workers.
    fn limits(&self, config: &CliffConfig) -> Limits {
        // CP-SAT gets the configured workers, the other arms one core each.
        let threads = if self.arm == SolverKind::Cpsat { config.workers } else { self.arm.threads(1) };
        // The DFS's shuffling stream follows the board's seed; CP-SAT (1) and
        // HiGHS (0) keep the seeds the published runs used.
        let seed = match self.arm {
            SolverKind::Dfs => self.seed,
            SolverKind::Mip => 0,
            _ => 1,
        };
        Limits { time_limit: Some(self.budget), node_limit: None, seed, threads }
    }
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
                        SolverKind::Dfs => {
                            let long = config.dfs_long_sizes.is_empty() || config.dfs_long_sizes.contains(&size);
                            config.dfs_budgets.iter().take(if long { usize::MAX } else { 1 }).copied().collect()
                        }
                        SolverKind::Mip => vec![config.mip_limit],
                        _ => vec![
                            config.cpsat_limit_at.iter().find(|(s, _)| *s == size).map_or(config.cpsat_limit, |x| x.1),
                        ],
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

/// Runs the jobs of this shard that the runs file does not hold yet; returns
/// how many ran. Stops when `stop` is raised, without recording the run in flight.
pub fn run(config: &CliffConfig, provenance: &Provenance, stop: &Stop) -> Result<usize, Error> {
    let todo = pending(&config.runs, "cliff", jobs(config), config.shard, Run::key, Job::key)?;
    for (i, job) in todo.iter().enumerate() {
        if stop.is_raised() {
            break;
        }
        let instance = load_instance(config, job)?;
        eprint!("cliff: [{}/{}] {} {} s {} ... ", i + 1, todo.len(), job.arm, job.budget, job.instance());
        let limits = job.limits(config);
        let (outcome, verified) = solver::solve_accepted(&job.solver(config), &instance, &limits, stop)?;
        if stop.is_raised() {
            eprintln!("interrupted (not recorded)");
            break;
        }
        let score = match verified.report {
            Some(_) => format!("score {}/{}", verified.score, instance.grid.max_score()),
            None => "no board".to_owned(),
        };
        eprintln!("{}, {score} in {:.1} s", if verified.solved { "solved" } else { "not solved" }, outcome.seconds);
        let (nodes, restarts) = outcome.stats.nodes().unzip();
        let run = Run {
            arm: BenchArm::Solver(job.arm),
            instance: job.instance(),
            size: job.size,
            colours: job.colours.to_string(),
            seed: job.seed,
            budget: job.budget,
            status: outcome.status,
            solved: verified.solved,
            board: Some(verified.report.is_some()),
            verified_score: verified.score,
            target: instance.grid.max_score(),
            seconds: round3(outcome.seconds),
            nodes,
            restarts,
            model: (job.arm == SolverKind::Cpsat).then(|| config.formulation.name().to_owned()),
            provenance: provenance.with_workers(limits.threads),
        };
        append_run(&config.runs, &run)?;
    }
    Ok(todo.len())
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
            arms: vec![SolverKind::Dfs, SolverKind::Cpsat],
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
}
