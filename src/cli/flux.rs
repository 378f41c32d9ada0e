//! `edgematch flux`: the flux law of a piece set, written to a JSON document.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use clap::Args;
use edgematch::flux::report as flux_report;

use super::args::{InstanceSourceArgs, write_out};

#[derive(Args)]
pub(crate) struct FluxArgs {
    /// The piece set (e.g. data/official/pieces.txt; see --columns, --clues).
    instance: PathBuf,
    /// The JSON document to write.
    #[arg(long, default_value = "results/flux_invariants.json")]
    out: PathBuf,
    /// Sweep: planted boards in the pool.
    #[arg(long, default_value_t = 30)]
    boards: u64,
    /// Sweep: random placement orders per board and fill.
    #[arg(long, default_value_t = 30)]
    orders: u64,
    #[command(flatten)]
    source: InstanceSourceArgs,
}

pub(crate) fn run(args: FluxArgs) -> Result<ExitCode> {
    let loaded = args.source.load(&args.instance)?;
    // The sweep's pool: 8x8 planted boards with 13 colours (4 frame + 9 interior).
    let spec = flux_report::SweepSpec { boards: args.boards, size: 8, frame: 4, interior: 9, orders: args.orders };
    let mut document = flux_report::report(&loaded.instance, spec, &[0.5, 0.75, 0.9, 0.95]);
    document["command"] = serde_json::json!(format!(
        "edgematch flux {} {}--out {}",
        args.instance.display(),
        args.source.clues.as_ref().map_or(String::new(), |c| format!("--clues {} ", c.display())),
        args.out.display()
    ));
    write_out(&args.out, &(serde_json::to_string_pretty(&document)? + "\n"))?;
    Ok(ExitCode::SUCCESS)
}
