//! `--watch[=ADDR]`: serves the live page of a run, and keeps it up after the run until Ctrl-C.

use std::net::{SocketAddr, ToSocketAddrs as _};
use std::process::ExitCode;
use std::time::Duration;

use anyhow::Result;
use clap::Args;
use edgematch::stop::Stop;
use edgematch::{interrupt, live, watch};

use super::show::unless_interrupted;

/// The `--watch` flag, for `solve` and the benches that run solvers.
#[derive(Args)]
pub(crate) struct WatchArgs {
    /// Follow the run on a local web page (the best verified board, the score
    /// over time, nodes per second, the arms): `--watch` serves 127.0.0.1 on a
    /// free port, `--watch=ADDR` serves ADDR (`HOST:PORT` or a port; the `=` is
    /// needed), prints its address on stderr, and keeps serving after the run
    /// until Ctrl-C. Read-only; at most 64 connections at once.
    #[arg(
        long,
        value_name = "ADDR",
        num_args = 0..=1,
        require_equals = true,
        default_missing_value = watch::DEFAULT_ADDRESS,
        value_parser = address
    )]
    watch: Option<SocketAddr>,
}

/// `PORT` (on 127.0.0.1) or `HOST:PORT`.
fn address(s: &str) -> Result<SocketAddr, String> {
    if let Ok(port) = s.parse::<u16>() {
        return Ok(SocketAddr::from(([127, 0, 0, 1], port)));
    }
    s.to_socket_addrs().map_err(|e| format!("{s}: {e}"))?.next().ok_or_else(|| format!("{s}: no address"))
}

/// The page's server while it runs.
pub(crate) struct Watching(Option<SocketAddr>);

impl WatchArgs {
    /// Starts the page when asked, titled `title`; prints its address.
    pub(crate) fn start(&self, title: &str) -> Result<Watching> {
        let Some(address) = self.watch else { return Ok(Watching(None)) };
        let bound = watch::serve(address)?;
        live::title(title);
        eprintln!("watch: http://{bound}/");
        Ok(Watching(Some(bound)))
    }
}

impl WatchArgs {
    /// Runs `work` with Ctrl-C handled and, when asked, the page up (titled
    /// `title`) during it and after it until Ctrl-C: success, or 130 when interrupted.
    pub(crate) fn around(&self, title: &str, work: impl FnOnce(&Stop) -> Result<()>) -> Result<ExitCode> {
        let watching = self.start(title)?;
        let stop = interrupt::install().map_err(anyhow::Error::msg)?;
        work(&stop)?;
        let code = unless_interrupted(ExitCode::SUCCESS);
        watching.linger(&stop);
        Ok(code)
    }
}

impl Watching {
    /// After the run: keeps the page up until Ctrl-C (at once if it was pressed during the run).
    pub(crate) fn linger(&self, stop: &Stop) {
        let Some(bound) = self.0 else { return };
        if stop.is_raised() {
            return;
        }
        eprintln!("watch: the run is over; the page stays at http://{bound}/ until Ctrl-C");
        while !stop.is_raised() {
            std::thread::sleep(Duration::from_millis(100));
        }
    }
}
