//! Runs the native backtracking search on one instance file and prints what happened.
//!
//! `cargo run --release --example search_probe -- FILE [--order NAME|auto]
//! [--threads N] [--time S] [--nodes N] [--seed N] [--explain]`

use std::path::PathBuf;
use std::process::ExitCode;

use edgematch::check::check;
use edgematch::formats::instance_json;
use edgematch::search::{Options, solve};
use edgematch::solver::Limits;
use edgematch::stop::Stop;

fn usage() -> ExitCode {
    eprintln!(
        "usage: search_probe FILE [--order NAME|auto] [--threads N] [--time S] [--nodes N] [--seed N] [--explain]"
    );
    ExitCode::from(2)
}

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let mut file: Option<PathBuf> = None;
    let mut options = Options::default();
    // Candidates in table order (seed 0) on one thread unless asked otherwise.
    let mut limits = Limits { time_limit: Some(60.0), seed: 0, threads: 1, node_limit: None };
    while let Some(arg) = args.next() {
        let mut value = || args.next().ok_or_else(|| format!("{arg} needs a value"));
        let parsed: Result<(), String> = match arg.as_str() {
            "--order" => value().and_then(|v| v.parse().map(|o| options.order = o)),
            "--threads" => value().and_then(|v| v.parse().map(|t| limits.threads = t).map_err(|e| format!("{e}"))),
            "--time" => {
                value().and_then(|v| v.parse().map(|t| limits.time_limit = Some(t)).map_err(|e| format!("{e}")))
            }
            "--nodes" => {
                value().and_then(|v| v.parse().map(|n| limits.node_limit = Some(n)).map_err(|e| format!("{e}")))
            }
            "--seed" => value().and_then(|v| v.parse().map(|s| limits.seed = s).map_err(|e| format!("{e}"))),
            "--explain" => {
                options.explain = true;
                Ok(())
            }
            _ if file.is_none() && !arg.starts_with("--") => {
                file = Some(PathBuf::from(&arg));
                Ok(())
            }
            _ => Err(format!("unexpected argument {arg}")),
        };
        if let Err(e) = parsed {
            eprintln!("search_probe: {e}");
            return usage();
        }
    }
    let Some(file) = file else { return usage() };
    let instance = match instance_json::read(&file) {
        Ok(f) => f.instance,
        Err(e) => {
            eprintln!("search_probe: {e}");
            return ExitCode::FAILURE;
        }
    };
    let answer = solve(&instance, &options, &limits, &Stop::new());
    let s = &answer.stats;
    let verified = answer.board.as_ref().map_or("no board".to_string(), |b| {
        let report = check(&instance, b);
        format!("{} ({} placed, score {}/{})", report.verdict(), report.placed, report.score, report.max_score)
    });
    println!("file:      {}", file.display());
    println!("status:    {}", answer.status);
    println!("seconds:   {:.3}", s.seconds);
    println!("nodes:     {}", s.nodes);
    println!("nodes/s:   {:.3e}", s.nodes as f64 / s.seconds.max(1e-9));
    println!("order:     {}", s.order);
    println!("best:      {} cells", s.best_placed);
    println!("verified:  {verified}");
    let estimates: Vec<String> = s.estimates.iter().map(|(name, e)| format!("{name}={e:.2e}")).collect();
    println!("estimates: {}", estimates.join(" "));
    ExitCode::SUCCESS
}
