//! The SAT backend: the seam encoding of an instance, solved in-process by CaDiCaL.
//!
//! [`encode::encode`] builds Heule's seam encoding once as a plain CNF; this
//! module hands it to CaDiCaL 1.9.5 (vendored and compiled by the `cadical`
//! crate), stops it through CaDiCaL's terminate callback when the time limit
//! passes or the [`Stop`] is raised, and decodes a model into a [`Board`].
//!
//! CaDiCaL runs on one thread; `Limits::threads`, `Limits::seed` and
//! `Limits::node_limit` are not used (the `cadical` crate does not expose
//! CaDiCaL's `seed` option).

pub mod dimacs;
pub mod direct;
pub mod encode;

#[cfg(test)]
mod tests;

use std::time::{Duration, Instant};

pub use self::encode::{Am1, Cnf, EncodeOptions, Encoding, Meaning, Sizes, encode};
use crate::error::Error;
use crate::outcome::{Limits, Outcome, Status};
use crate::puzzle::{Board, Instance};
use crate::stop::Stop;

/// CaDiCaL's predefined option sets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, serde::Serialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum Config {
    /// CaDiCaL's defaults.
    #[default]
    Default,
    /// No preprocessing or inprocessing.
    Plain,
    /// Tuned for satisfiable formulas.
    Sat,
    /// Tuned for unsatisfiable formulas.
    Unsat,
}

impl Config {
    /// Every configuration, in declaration order.
    pub const ALL: [Config; 4] = [Config::Default, Config::Plain, Config::Sat, Config::Unsat];

    /// CaDiCaL's name for it.
    pub fn name(self) -> &'static str {
        match self {
            Config::Default => "default",
            Config::Plain => "plain",
            Config::Sat => "sat",
            Config::Unsat => "unsat",
        }
    }
}

/// The SAT backend's own options; the time limit comes from [`Limits`].
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Options {
    /// How the CNF is built.
    pub encoding: EncodeOptions,
    /// CaDiCaL's option set.
    pub config: Config,
}

/// What the SAT run counted.
#[derive(Clone, Debug, PartialEq, Default, serde::Serialize)]
pub struct Stats {
    /// Variables of the encoding.
    pub variables: usize,
    /// Clauses of the encoding.
    pub clauses: usize,
    /// Placement variables (after class pruning).
    pub placement_variables: usize,
    /// Seam colour variables.
    pub seam_variables: usize,
    /// Auxiliary variables of the at-most-one encodings.
    pub auxiliary_variables: usize,
    /// Literal occurrences in the clauses.
    pub literals: usize,
    /// Placements the rim allowed that class pruning removed.
    pub pruned_placements: usize,
    /// The at-most-one encoding used for cells and pieces.
    pub am1: Am1,
    /// Whether the support clauses were added.
    pub support: bool,
    /// CaDiCaL's option set.
    pub config: Config,
    /// Seconds spent encoding.
    pub encode_seconds: f64,
    /// Seconds spent in CaDiCaL (loading the clauses and solving).
    pub solve_seconds: f64,
    /// Clauses CaDiCaL learned (one per conflict).
    pub learned: u64,
}

impl Stats {
    /// Name and value of each counter, as `solve` prints them.
    pub fn lines(&self) -> Vec<(&'static str, String)> {
        vec![
            ("variables", self.variables.to_string()),
            ("clauses", self.clauses.to_string()),
            ("placement_variables", self.placement_variables.to_string()),
            ("seam_variables", self.seam_variables.to_string()),
            ("auxiliary_variables", self.auxiliary_variables.to_string()),
            ("literals", self.literals.to_string()),
            ("pruned_placements", self.pruned_placements.to_string()),
            ("encoding", format!("{} at-most-one, support {}", self.am1.name(), self.support)),
            ("cadical_config", self.config.name().to_owned()),
            ("encode_seconds", format!("{:.3}", self.encode_seconds)),
            ("solve_seconds", format!("{:.3}", self.solve_seconds)),
            ("learned", self.learned.to_string()),
        ]
    }

    /// The counters of an encoding, before solving.
    fn of(encoding: &Encoding, options: &Options, encode_seconds: f64) -> Stats {
        let sizes = encoding.sizes();
        Stats {
            variables: sizes.variables,
            clauses: sizes.clauses,
            placement_variables: sizes.placement_variables,
            seam_variables: sizes.seam_variables,
            auxiliary_variables: sizes.auxiliary_variables,
            literals: sizes.literals,
            pruned_placements: sizes.pruned_placements,
            am1: options.encoding.am1,
            support: options.encoding.support,
            config: options.config,
            encode_seconds,
            solve_seconds: 0.0,
            learned: 0,
        }
    }
}

/// CaDiCaL's callbacks: stop at the deadline or on a raised [`Stop`]; count learned clauses.
struct Watch {
    stop: Stop,
    deadline: Option<Instant>,
    learned: u64,
}

impl cadical::Callbacks for Watch {
    fn terminate(&mut self) -> bool {
        self.stop.is_raised() || self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    fn max_length(&self) -> i32 {
        // Every learned clause is reported, so that `learn` counts conflicts.
        i32::MAX
    }

    fn learn(&mut self, _clause: &[i32]) {
        self.learned += 1;
    }
}

/// Encodes `instance`, solves it until done or `stop` is raised, and decodes the board.
pub fn solve(instance: &Instance, options: &Options, limits: &Limits, stop: &Stop) -> Result<Outcome<Stats>, Error> {
    let start = Instant::now();
    let deadline = match limits.time_limit {
        Some(t) if !(t >= 0.0 && t.is_finite()) => {
            return Err(Error::Options(format!("time limit {t} is not a finite number of seconds")));
        }
        Some(t) => Some(start + Duration::from_secs_f64(t)),
        None => None,
    };
    let encoding = encode(instance, &options.encoding);
    let encode_seconds = start.elapsed().as_secs_f64();
    let mut stats = Stats::of(&encoding, options, encode_seconds);
    let finish = |status: Status, board: Option<Board>, stats: Stats| Outcome {
        status,
        board,
        seconds: start.elapsed().as_secs_f64(),
        stats,
    };
    if stop.is_raised() {
        return Ok(finish(Status::Interrupted, None, stats));
    }
    if deadline.is_some_and(|d| Instant::now() >= d) {
        return Ok(finish(Status::Unknown, None, stats));
    }

    let solve_start = Instant::now();
    let mut cadical: cadical::Solver<Watch> = cadical::Solver::with_config(options.config.name())
        .map_err(|e| Error::Options(format!("CaDiCaL configuration {}: {}", options.config.name(), e.msg)))?;
    let max_var = i32::try_from(encoding.cnf.variables).expect("fewer than 2^31 variables");
    cadical.reserve(max_var);
    for clause in encoding.cnf.clauses() {
        cadical.add_clause(clause.iter().copied());
    }
    // Loading a large CNF takes a while and CaDiCaL cannot be stopped during it.
    let result = if stop.is_raised() || deadline.is_some_and(|d| Instant::now() >= d) {
        None
    } else {
        cadical.set_callbacks(Some(Watch { stop: stop.clone(), deadline, learned: 0 }));
        cadical.solve()
    };
    stats.solve_seconds = solve_start.elapsed().as_secs_f64();
    stats.learned = cadical.get_callbacks().map_or(0, |w| w.learned);

    Ok(match result {
        Some(true) => {
            let board = encoding.decode(|v| cadical.value(v) == Some(true));
            finish(Status::Solved, Some(board), stats)
        }
        Some(false) => finish(Status::Infeasible, None, stats),
        None if stop.is_raised() => finish(Status::Interrupted, None, stats),
        None => finish(Status::Unknown, None, stats),
    })
}
