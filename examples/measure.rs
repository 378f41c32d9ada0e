//! Measurements that are not tests: each prints one line per run, for a note in `results/`.
//!
//! - `cargo run --release --example measure -- sat-sweep` runs the SAT backend's
//!   options named in `SAT_SWEEP` (e.g. `ladder+support/default,commander/sat`) on
//!   the files in `SAT_SWEEP_FILES` (comma-separated), each for `SAT_SWEEP_SECONDS`
//!   (default 20);
//! - `... -- sat-sizes` prints the seam encoding's sizes of `SAT_SWEEP_FILES` for
//!   every at-most-one encoding, with support clauses;
//! - `... -- references` runs the two reference tools (OR-Tools' Python element
//!   model, MiniZinc with Gecode) 60 s on three planted boards, as a Markdown table.

use std::path::Path;
use std::process::ExitCode;
use std::time::Instant;

use edgematch::bench::reference::{self, Reference};
use edgematch::check::check;
use edgematch::formats::load::{InstanceOptions, instance};
use edgematch::sat::{self, Am1, Config, EncodeOptions};
use edgematch::solver::{Limits, accept};
use edgematch::stop::Stop;

fn env(name: &str, default: &str) -> String {
    std::env::var(name).unwrap_or_else(|_| default.to_owned())
}

fn read(file: &str) -> edgematch::puzzle::Instance {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    instance(&root.join(file), &InstanceOptions::default()).unwrap_or_else(|e| panic!("{file}: {e}")).instance
}

fn sat_sweep() {
    let seconds: f64 = env("SAT_SWEEP_SECONDS", "20").parse().expect("SAT_SWEEP_SECONDS: seconds");
    let arms: Vec<sat::Options> = env("SAT_SWEEP", "ladder+support/default")
        .split(',')
        .map(|arm| {
            let (encoding, config) = arm.split_once('/').unwrap_or((arm, "default"));
            let am1 = Am1::ALL.into_iter().find(|a| encoding.starts_with(a.name())).expect("am1 name");
            let config = Config::ALL.into_iter().find(|c| c.name() == config).expect("config name");
            sat::Options { encoding: EncodeOptions { am1, support: encoding.ends_with("+support") }, config }
        })
        .collect();
    let limits = Limits { time_limit: Some(seconds), threads: 1, ..Limits::default() };
    for file in env("SAT_SWEEP_FILES", "data/heule2008/em_7_4_8.txt").split(',') {
        let instance = read(file);
        for options in &arms {
            let outcome = sat::solve(&instance, options, &limits, &Stop::new()).expect("solve");
            let verdict = match accept(&instance, outcome.status, outcome.board.as_ref()) {
                Ok(v) if v.solved => "valid solution".to_owned(),
                Ok(_) => "no board".to_owned(),
                Err(e) => format!("REJECTED {e}"),
            };
            let s = &outcome.stats;
            println!(
                "{file}\t{}{}/{}\t{}\t{:.2}\tvars {} clauses {} learned {}\t{verdict}",
                options.encoding.am1.name(),
                if options.encoding.support { "+support" } else { "" },
                options.config.name(),
                outcome.status,
                outcome.seconds,
                s.variables,
                s.clauses,
                s.learned
            );
        }
    }
}

fn sat_sizes() {
    for file in env("SAT_SWEEP_FILES", "models/planted-16x16-f5i17-s1.json").split(',') {
        let instance = read(file);
        for am1 in Am1::ALL {
            let start = Instant::now();
            let sizes = sat::encode(&instance, &EncodeOptions { am1, support: true }).sizes();
            println!("{file}\t{}\t{:.2} s\t{sizes:?}", am1.name(), start.elapsed().as_secs_f64());
        }
    }
}

fn references() {
    let boards = ["planted-13x13-f5i26-s1", "planted-14x14-f5i26-s1", "planted-12x12-f5i17-s1"];
    println!("| board | reference | status | seconds | verified |");
    println!("|---|---|---|---|---|");
    for r in Reference::ALL {
        match reference::version(r) {
            Ok(version) => eprintln!("{r}: {version}"),
            Err(reason) => {
                println!("| * | {r} | skipped: {reason} | | |");
                continue;
            }
        }
        for name in boards {
            let instance = read(&format!("models/{name}.json"));
            let out = reference::solve(r, &instance, 60.0, &Stop::new()).expect("runs");
            let verified = match &out.board {
                Some(board) => {
                    let report = check(&instance, board);
                    if report.is_solution() { "yes".to_owned() } else { format!("NO: {}", report.summary(3)) }
                }
                None => "-".to_owned(),
            };
            println!("| {name} | {r} | {} | {:.2} | {verified} |", out.status, out.seconds);
        }
    }
}

fn main() -> ExitCode {
    match std::env::args().nth(1).as_deref() {
        Some("sat-sweep") => sat_sweep(),
        Some("sat-sizes") => sat_sizes(),
        Some("references") => references(),
        _ => {
            eprintln!("usage: measure sat-sweep | sat-sizes | references");
            return ExitCode::from(2);
        }
    }
    ExitCode::SUCCESS
}
