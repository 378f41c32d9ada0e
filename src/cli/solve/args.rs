//! What `edgematch solve`'s flags say: the arguments, per solver, the table of which objective and solver take which flag, and the solver and limits they ask for.

use std::path::PathBuf;

use anyhow::{Result, bail};
use clap::Args;
use edgematch::cpsat::model::Formulation;
use edgematch::solver::{Limits, Objective, Solver, SolverKind};
use edgematch::{cpsat, dfs, mip, portfolio, sat, search};

use super::super::args::{InstanceSourceArgs, SEED_RANGE, cores, given_flags, seconds};
use super::super::score::ScoreArgs;
use super::super::watch::WatchArgs;

#[derive(Args)]
pub(crate) struct SolveArgs {
    /// The instance: instance JSON, or a piece list (see --columns).
    pub(super) instance: PathBuf,
    #[command(flatten)]
    pub(super) source: InstanceSourceArgs,
    /// Which solver: `auto` (a portfolio racing the arms that suit the board on
    /// every core; the first verified board wins), `search` (the native complete
    /// search), `sat` (CaDiCaL), `cpsat`, the `dfs` baseline, or the placement `mip` (HiGHS).
    #[arg(long, value_enum, default_value_t = SolverKind::Auto)]
    pub(super) solver: SolverKind,
    /// What to look for: `full` (a solution, or a proof that there is none) or
    /// `score` (the best full board by matched joins, for boards no solver completes).
    #[arg(long, value_enum, default_value_t = Objective::Full)]
    pub(super) objective: Objective,
    /// Wall-clock limit in seconds (default: none). For a score run with
    /// --checkpoint, the whole run's: a resumed run spends what its earlier
    /// segments left.
    #[arg(long, value_parser = seconds)]
    pub(super) time_limit: Option<f64>,
    /// Stop after about this many placements, for reproducible measurements
    /// (the DFS, the native search and the score walk count them; the score
    /// walk stops within 65 536 placements of each walk past it).
    #[arg(long)]
    pub(super) node_limit: Option<u64>,
    /// Threads, for the solvers that run several: the portfolio's arms divide
    /// them, the native search splits one tree over them, the score search runs
    /// one walk on each, CP-SAT one worker each (as --workers). Default: every
    /// core this process may use (its CPU affinity and cgroup quota counted).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=i64::from(MAX_THREADS)))]
    pub(super) threads: Option<u32>,
    /// Random seed (CP-SAT's `random_seed`, HiGHS' seed, the DFS shuffling
    /// stream, the score walks' attempts; a resumed score run keeps its checkpoint's).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(SEED_RANGE))]
    pub(super) seed: u64,
    /// Show the solver's own log (CP-SAT and HiGHS write it to standard output).
    #[arg(long)]
    pub(super) log: bool,
    /// Draw the verified board as SVG here.
    #[arg(long)]
    pub(super) svg: Option<PathBuf>,
    /// Write the verified board here (board JSON; the best partial board if unsolved).
    #[arg(long)]
    pub(super) out: Option<PathBuf>,
    /// Cube and conquer on this machine: split the instance into at least K
    /// cubes (as `split` does) and run them over the local cores, each cube's
    /// solve on one core, --time-limit per cube; the first board verified
    /// against the instance wins, infeasible only once every cube is refuted.
    /// (A cube file written by `split` is solved like an instance, with its
    /// result file written beside it.)
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u64).range(1..=edgematch::cubes::MAX_CUBES as u64))]
    pub(super) cubes: Option<u64>,
    #[command(flatten)]
    pub(super) cpsat: CpsatArgs,
    #[command(flatten)]
    pub(super) dfs: DfsArgs,
    #[command(flatten)]
    pub(super) search: SearchArgs,
    #[command(flatten)]
    pub(super) sat: SatArgs,
    #[command(flatten)]
    pub(super) score: ScoreArgs,
    #[command(flatten)]
    pub(super) watch: WatchArgs,
}

/// Flags that only the SAT backend takes.
#[derive(Args)]
#[command(next_help_heading = "SAT options (--solver sat)")]
pub(super) struct SatArgs {
    /// CaDiCaL's option set (default: default).
    #[arg(long, value_enum)]
    pub(super) sat_config: Option<sat::Config>,
    /// The at-most-one encoding of cells and pieces (default: ladder).
    #[arg(long, value_enum)]
    pub(super) am1: Option<sat::Am1>,
    /// Leave out the redundant support clauses (seam colour -> some placement showing it).
    #[arg(long)]
    pub(super) no_support: bool,
}

impl SatArgs {
    /// The flags given, by name.
    fn given(&self) -> Vec<&'static str> {
        given_flags(&[
            ("--sat-config", self.sat_config.is_some()),
            ("--am1", self.am1.is_some()),
            ("--no-support", self.no_support),
        ])
    }

    /// The SAT backend's options these flags ask for.
    fn options(&self) -> sat::Options {
        let (config, am1) = (self.sat_config.unwrap_or_default(), self.am1.unwrap_or_default());
        sat::Options { encoding: sat::EncodeOptions { am1, support: !self.no_support }, config }
    }
}

/// Flags that only the native search takes.
#[derive(Args)]
#[command(next_help_heading = "Search options (--solver search)")]
pub(super) struct SearchArgs {
    /// The fill order: `auto` (the smallest tree by Knuth's estimate; with
    /// `--parallel race`, the two smallest from different corners) or a name such as `row-scan`,
    /// `corner-square-nw`, `fail-first-sw-t` (see --explain for the list).
    #[arg(long)]
    pub(super) order: Option<search::OrderChoice>,
    /// Print each order's estimated tree size and the choice, on stderr.
    #[arg(long)]
    pub(super) explain: bool,
    /// How the threads share the work (default: split).
    #[arg(long, value_enum)]
    pub(super) parallel: Option<search::Parallel>,
    /// Test each strip of the fill order for completion (with pieces'
    /// reuse allowed) when the search enters it, and place only candidates
    /// it admits (default: auto).
    #[arg(long, value_enum)]
    pub(super) strip_test: Option<search::StripTest>,
    /// Look ahead: place a piece only if every later cell it gives a second
    /// known side (the cells beside clues, in most orders) still has a
    /// fitting unused piece (default: on).
    #[arg(long, value_enum)]
    pub(super) look_ahead: Option<search::LookAhead>,
}

impl SearchArgs {
    /// The flags given, by name.
    fn given(&self) -> Vec<&'static str> {
        given_flags(&[
            ("--order", self.order.is_some()),
            ("--explain", self.explain),
            ("--parallel", self.parallel.is_some()),
            ("--strip-test", self.strip_test.is_some()),
            ("--look-ahead", self.look_ahead.is_some()),
        ])
    }
}

/// Flags that only CP-SAT takes.
#[derive(Args)]
#[command(next_help_heading = "CP-SAT options (--solver cpsat)")]
pub(super) struct CpsatArgs {
    /// CP-SAT workers (default: the number of cores).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=10_000))]
    pub(super) workers: Option<u32>,
    /// The formulation (default: table, the fastest).
    #[arg(long, value_enum)]
    pub(super) model: Option<Formulation>,
    /// A decision strategy in the model (default: solver); `clues` is followed
    /// by CP-SAT's fixed-search worker, or by every worker with
    /// `--cpsat-param search_branching=fixed`.
    #[arg(long, value_enum)]
    pub(super) strategy: Option<cpsat::tuning::Strategy>,
    /// Run the native search this many seconds first and give CP-SAT its
    /// deepest board as a solution hint (the seconds count in --time-limit).
    #[arg(long, value_parser = seconds, value_name = "S")]
    pub(super) hint_seconds: Option<f64>,
    /// A CP-SAT parameter, NAME=VALUE (repeatable): search_branching
    /// (automatic, fixed, portfolio, lp, pseudo_cost, quick_restart, hint,
    /// partial_fixed, randomized), linearization_level (0-2), symmetry_level
    /// (0-4), cp_model_presolve, use_lns (true/false).
    #[arg(long = "cpsat-param", value_name = "NAME=VALUE")]
    pub(super) cpsat_params: Vec<cpsat::tuning::Param>,
    /// Write the CpModelProto here (binary protobuf), before solving.
    #[arg(long)]
    pub(super) dump_model: Option<PathBuf>,
}

/// Flags that only the DFS takes.
#[derive(Args)]
#[command(next_help_heading = "DFS options (--solver dfs)")]
pub(super) struct DfsArgs {
    /// Placements between restarts (default: 100000).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub(super) restart_nodes: Option<u64>,
    /// Apply the flux endgame certificate once the board holds at least N cells.
    #[arg(long, value_name = "N")]
    pub(super) flux_prune: Option<usize>,
    /// Exhaustive search without restarts (proves unsolvable, or finds a solution).
    #[arg(long)]
    pub(super) complete: bool,
    /// Count solutions exhaustively, stopping at CAP (implies --complete).
    #[arg(long, value_name = "CAP")]
    pub(super) count: Option<u64>,
}

impl CpsatArgs {
    /// The flags given, by name.
    fn given(&self) -> Vec<&'static str> {
        given_flags(&[
            ("--workers", self.workers.is_some()),
            ("--model", self.model.is_some()),
            ("--dump-model", self.dump_model.is_some()),
            ("--strategy", self.strategy.is_some()),
            ("--hint-seconds", self.hint_seconds.is_some()),
            ("--cpsat-param", !self.cpsat_params.is_empty()),
        ])
    }
}

impl DfsArgs {
    /// The flags given, by name.
    fn given(&self) -> Vec<&'static str> {
        given_flags(&[
            ("--restart-nodes", self.restart_nodes.is_some()),
            ("--flux-prune", self.flux_prune.is_some()),
            ("--complete", self.complete),
            ("--count", self.count.is_some()),
        ])
    }
}

impl SolveArgs {
    /// The solver and limits the flags ask for; a flag that belongs to
    /// another solver is refused rather than ignored.
    pub(super) fn solver(&self) -> Result<(Solver, Limits)> {
        self.refuse_unused()?;
        let threads = self.threads()?;
        let limits = Limits { time_limit: self.time_limit, node_limit: self.node_limit, seed: self.seed, threads };
        let solver = match self.solver {
            SolverKind::Cpsat => Solver::Cpsat(cpsat::Options {
                log: self.log,
                formulation: self.cpsat.model.unwrap_or_default(),
                strategy: self.cpsat.strategy.unwrap_or_default(),
                hint_seconds: self.cpsat.hint_seconds,
                params: self.cpsat.cpsat_params.clone(),
            }),
            SolverKind::Dfs => Solver::Dfs(dfs::Options {
                restart_nodes: self.dfs.restart_nodes.unwrap_or(dfs::Options::default().restart_nodes),
                complete: self.dfs.complete || self.dfs.count.is_some(),
                count_cap: self.dfs.count.unwrap_or(1),
                collect: false,
                flux_prune: self.dfs.flux_prune,
            }),
            SolverKind::Mip => Solver::Mip(mip::Options { log: self.log }),
            SolverKind::Sat => Solver::Sat(self.sat.options()),
            SolverKind::Search => Solver::Search(search::Options {
                order: self.search.order.unwrap_or_default(),
                explain: self.search.explain,
                parallel: self.search.parallel.unwrap_or_default(),
                strips: self.search.strip_test.unwrap_or_default(),
                look_ahead: self.search.look_ahead.unwrap_or_default(),
            }),
            SolverKind::Auto => Solver::Auto(portfolio::Options { arms: Vec::new(), progress: true }),
        };
        Ok((solver, limits))
    }
}

/// Flags that only some objectives and solvers take: (flag, objectives, solvers).
/// Every other flag of `solve` (the instance's reading, --time-limit, --seed,
/// --out, --svg, --watch) is taken by all. `solve --help` lists this table.
pub(super) const TAKEN_BY: &[(&str, &[Objective], &[SolverKind])] = {
    use Objective::{Full, Score};
    use SolverKind::{Auto, Cpsat, Dfs, Mip, Sat, Search};
    &[
        ("--log", &[Full], &[Cpsat, Mip]),
        ("--threads", &[Full, Score], &[Auto, Search, Cpsat]),
        ("--cubes", &[Full], &[Auto, Search, Cpsat, Dfs, Mip, Sat]),
        ("--workers", &[Full, Score], &[Cpsat]),
        ("--model", &[Full], &[Cpsat]),
        ("--strategy", &[Full], &[Cpsat]),
        ("--hint-seconds", &[Full], &[Cpsat]),
        ("--cpsat-param", &[Full], &[Cpsat]),
        ("--dump-model", &[Full], &[Cpsat]),
        ("--restart-nodes", &[Full], &[Dfs]),
        ("--node-limit", &[Full, Score], &[Dfs, Search]),
        ("--flux-prune", &[Full], &[Dfs]),
        ("--complete", &[Full], &[Dfs]),
        ("--count", &[Full], &[Dfs]),
        ("--order", &[Full], &[Search]),
        ("--explain", &[Full], &[Search]),
        ("--parallel", &[Full], &[Search]),
        ("--strip-test", &[Full], &[Search]),
        ("--sat-config", &[Full], &[Sat]),
        ("--am1", &[Full], &[Sat]),
        ("--no-support", &[Full], &[Sat]),
        ("--target", &[Score], &[Auto, Search]),
        ("--breaks", &[Score], &[Auto, Search]),
        ("--attempt-nodes", &[Score], &[Auto, Search]),
        ("--fill-order", &[Score], &[Auto, Search]),
        ("--quota", &[Score], &[Auto, Search]),
        ("--completion", &[Score], &[Auto, Search]),
        ("--completers", &[Score], &[Auto, Search]),
        ("--trace", &[Score], SolverKind::SCORING),
        ("--checkpoint", &[Score], SolverKind::SCORING),
        ("--checkpoint-every", &[Score], SolverKind::SCORING),
        ("--heartbeat", &[Score], SolverKind::SCORING),
        ("--save-boards", &[Score], &[Auto, Search]),
        ("--save-from", &[Score], &[Auto, Search]),
    ]
};

/// The table of [`TAKEN_BY`] for `solve --help`: which flags each objective and solver take.
pub(crate) fn flags_help() -> String {
    let mut text = String::from("Flags taken only by some objectives and solvers (any other is refused, exit 2):\n");
    for (flag, objectives, solvers) in TAKEN_BY {
        let objectives: Vec<&str> = objectives.iter().map(|&o| objective_name(o)).collect();
        let solvers: Vec<String> = solvers.iter().map(ToString::to_string).collect();
        text += &format!("  {flag:<20} --objective {:<11} --solver {}\n", objectives.join(","), solvers.join(","));
    }
    text
}

/// Whether `flag` is used by `objective` with `solver` (by [`TAKEN_BY`]; a flag not listed is used by all).
pub(crate) fn taken(flag: &str, objective: Objective, solver: SolverKind) -> bool {
    TAKEN_BY
        .iter()
        .find(|(name, _, _)| *name == flag)
        .is_none_or(|(_, o, k)| o.contains(&objective) && k.contains(&solver))
}

impl SolveArgs {
    /// Every flag given, by name, that [`TAKEN_BY`] lists.
    fn given(&self) -> Vec<&'static str> {
        let mut given = given_flags(&[
            ("--log", self.log),
            ("--threads", self.threads.is_some()),
            ("--cubes", self.cubes.is_some()),
            ("--node-limit", self.node_limit.is_some()),
        ]);
        given.extend(self.cpsat.given());
        given.extend(self.dfs.given());
        given.extend(self.search.given());
        given.extend(self.sat.given());
        given.extend(self.score.given());
        given
    }

    /// Refuses, naming it, a flag that the objective and solver would not use
    /// (rather than run as if it were not given).
    fn refuse_unused(&self) -> Result<()> {
        let (objective, solver) = (self.objective, self.solver);
        for flag in self.given() {
            if !taken(flag, objective, solver) {
                let (_, objectives, solvers) = TAKEN_BY.iter().find(|(name, _, _)| *name == flag).expect("listed");
                let names = |list: Vec<String>| list.join(", ");
                bail!(
                    "{flag} is not used by --objective {} --solver {solver}: it is taken by --objective {} with --solver {}",
                    objective_name(objective),
                    names(objectives.iter().map(|&o| objective_name(o).to_owned()).collect()),
                    names(solvers.iter().map(ToString::to_string).collect())
                );
            }
        }
        Ok(())
    }

    /// The threads to run: the count given (--threads, or CP-SAT's --workers),
    /// else the solver's own rule on every core. Refuses --threads for a
    /// solver that runs one thread, and two counts for CP-SAT.
    fn threads(&self) -> Result<u32> {
        let single = matches!(self.solver, SolverKind::Dfs | SolverKind::Mip | SolverKind::Sat);
        if self.threads.is_some() && single {
            bail!("--threads: --solver {} runs one thread", self.solver);
        }
        if self.threads.is_some() && self.cpsat.workers.is_some() {
            bail!("--threads and --workers both count CP-SAT's workers: give one");
        }
        let given = self.threads.or(self.cpsat.workers);
        Ok(given.unwrap_or_else(|| self.solver.threads(cores())))
    }
}

pub(super) fn objective_name(objective: Objective) -> &'static str {
    match objective {
        Objective::Full => "full",
        Objective::Score => "score",
    }
}

/// Most threads `--threads` takes (far above any machine's cores: a count
/// above the cores still runs, the threads taking turns).
const MAX_THREADS: u32 = 4096;
