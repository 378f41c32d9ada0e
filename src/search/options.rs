//! What a caller asks of the native search and what it tells back: the options (fill order, thread sharing, strip test) and the counters.

use std::fmt;
use std::str::FromStr;

use super::order::Order;

/// How the search threads share the work.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum Parallel {
    /// All walk the best order's tree, claiming its subtrees at a shallow
    /// depth one at a time: the tree is searched once, by every thread.
    #[default]
    Split,
    /// Each walks its own order (the best by estimate, the second from
    /// another corner, then the rest by estimate; a fixed order once per
    /// thread with different candidate orders), and the first to finish stops the others.
    Race,
}

impl fmt::Display for Parallel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Parallel::Split => "split",
            Parallel::Race => "race",
        })
    }
}

/// Whether to test, at the first cell of each strip, that the strip can
/// still be completed (see `chain.rs`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum StripTest {
    /// When the estimator says it shrinks the chosen order's tree at least
    /// 2.5 times (`STRIP_TEST_GAIN`; below that, its cost outweighs the nodes it saves).
    #[default]
    Auto,
    /// Always.
    On,
    /// Never.
    Off,
}

impl fmt::Display for StripTest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            StripTest::Auto => "auto",
            StripTest::On => "on",
            StripTest::Off => "off",
        })
    }
}

/// Whether a placement must leave a fitting unused piece for each later
/// cell it gives a second known side (see `Plan::watches`): in row scan, the
/// cells beside the clues, from the rim row on. On by default. Measured in
/// results/reach/README.md ("Pruning", the look-ahead rows): fewer nodes
/// wherever counted (12×12 5+17 1.2–3.1×; 13×13 5+17 1.5–2.4× by the
/// estimator; 15×15 5+26 1.06–1.09×; 16×16 5+26 s4 1.12×). Wall time, off
/// over on: level or faster on the 12×12 5+17 boards (1.00–2.87×) and two
/// 13×13 5+17 cubes (1.16×, 1.36×); slower on 4 of the 5 15×15 5+26 boards
/// (0.87–0.98×, and 1.08× on the fifth; walls of 1.6–2.3 s, mostly
/// estimating, read there as noise); 0.94× and 1.02× on 16×16 5+26 s4, run
/// twice each way.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum LookAhead {
    /// Test the watched cells.
    #[default]
    On,
    /// Do not: the tree of the plain walk (what `split --tasks` weighs).
    Off,
}

impl fmt::Display for LookAhead {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            LookAhead::On => "on",
            LookAhead::Off => "off",
        })
    }
}

/// Which fill order to use.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum OrderChoice {
    /// The order with the smallest estimated tree (racing threads take the
    /// next best ones too, the second from another corner).
    #[default]
    Auto,
    /// This order.
    Fixed(Order),
}

impl fmt::Display for OrderChoice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OrderChoice::Auto => f.write_str("auto"),
            OrderChoice::Fixed(order) => order.fmt(f),
        }
    }
}

impl FromStr for OrderChoice {
    type Err = String;

    /// `auto` or an order name such as `row-scan` or `corner-square-nw-t`.
    fn from_str(s: &str) -> Result<OrderChoice, String> {
        if s == "auto" { Ok(OrderChoice::Auto) } else { s.parse().map(OrderChoice::Fixed) }
    }
}

/// How to run the search; its time, node limit, seed and threads come from [`Limits`](crate::outcome::Limits)
/// (the seed permutes every candidate list once, keeping the search complete, and
/// seeds the estimator's probes; 0 tries candidates in table order).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Options {
    /// The fill order, or automatic choice.
    pub order: OrderChoice,
    /// Estimate every order, even a fixed one, and report each estimate and the
    /// choice through the `log` facade (target `search`; `solve --explain` prints them).
    pub explain: bool,
    /// How the threads share the work.
    pub parallel: Parallel,
    /// Whether strips are tested for completion before they are walked.
    pub strips: StripTest,
    /// Whether placements look ahead at the later cells they constrain.
    pub look_ahead: LookAhead,
}

/// Counters of a search.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct Stats {
    /// Placements made by the search threads, summed (estimation probes not counted).
    pub nodes: u64,
    /// Wall-clock seconds, estimation included.
    pub seconds: f64,
    /// Most cells filled at once by any thread, clues included.
    pub best_placed: usize,
    /// The order of the thread that finished (or got deepest).
    pub order: String,
    /// Estimated tree size (nodes) of each order, when estimates were made.
    pub estimates: Vec<(String, f64)>,
    /// Whether the strips were tested for completion (see [`StripTest`]).
    pub strip_test: bool,
}
