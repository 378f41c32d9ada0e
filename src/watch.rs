//! `--watch`: a local, read-only web page that follows a run live, served from the [`live`] feed.
//!
//! Three routes, all `GET`: `/` (the page, [`PAGE`]), `/state.json` (the
//! feed's [`snapshot`](live::Feed::snapshot)) and `/events` (the same object
//! pushed as server-sent events: at once, within [`POLL`] of every change,
//! and every [`HEARTBEAT`] for the clock). Any other method or path is
//! refused by the router: the page accepts no command. The server runs on a
//! thread of its own with a one-thread tokio runtime, and lives as long as the
//! process.

use std::convert::Infallible;
use std::net::{SocketAddr, TcpListener};
use std::time::{Duration, Instant};

use axum::Router;
use axum::http::header;
use axum::response::sse::{Event, Sse};
use axum::response::{Html, IntoResponse};
use axum::routing::get;

use crate::error::Error;
use crate::live::{self, Feed};

/// The page: one HTML file, its script and style inline, nothing fetched from elsewhere.
pub const PAGE: &str = include_str!("watch.html");

/// How often the event stream looks for a change.
pub const POLL: Duration = Duration::from_millis(50);

/// The longest gap between two events (the page's clock and nodes per second move with them).
pub const HEARTBEAT: Duration = Duration::from_secs(1);

/// The address `--watch` binds when given none: this machine only, a free port.
pub const DEFAULT_ADDRESS: &str = "127.0.0.1:0";

/// Binds `address` and serves the page from a thread of its own; turns the
/// live feed on. Returns the address bound (with the port chosen, when 0 was asked).
///
/// # Errors
/// The address cannot be bound (in use, not this machine's, no permission):
/// the message names it.
pub fn serve(address: SocketAddr) -> Result<SocketAddr, Error> {
    let refused = |e: std::io::Error| Error::Options(format!("--watch {address}: cannot listen there: {e}"));
    let listener = TcpListener::bind(address).map_err(refused)?;
    listener.set_nonblocking(true).map_err(refused)?;
    let bound = listener.local_addr().map_err(refused)?;
    let feed = live::enable();
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().map_err(refused)?;
    let _ = std::thread::Builder::new()
        .name("edgematch-watch".to_owned())
        .spawn(move || {
            let served = runtime.block_on(async move {
                let listener = tokio::net::TcpListener::from_std(listener)?;
                axum::serve(listener, router(feed)).await
            });
            if let Err(e) = served {
                eprintln!("edgematch: --watch {bound}: the page's server stopped: {e}");
            }
        })
        .map_err(refused)?;
    Ok(bound)
}

/// The three routes, over `feed`.
fn router(feed: &'static Feed) -> Router {
    Router::new()
        .route("/", get(|| async { Html(PAGE) }))
        .route(
            "/state.json",
            get(move || async move {
                ([(header::CONTENT_TYPE, "application/json"), (header::CACHE_CONTROL, "no-store")], {
                    feed.snapshot().to_string()
                })
                    .into_response()
            }),
        )
        .route("/events", get(move || async move { Sse::new(events(feed)) }))
}

/// The snapshots as events: one at once, then one within [`POLL`] of each
/// change and at least every [`HEARTBEAT`].
fn events(feed: &'static Feed) -> impl futures_util::Stream<Item = Result<Event, Infallible>> {
    futures_util::stream::unfold(None, move |last: Option<(u64, Instant)>| async move {
        if let Some((seen, at)) = last {
            while feed.version() == seen && at.elapsed() < HEARTBEAT {
                tokio::time::sleep(POLL).await;
            }
        }
        let version = feed.version();
        let event = Event::default().data(feed.snapshot().to_string());
        Some((Ok(event), Some((version, Instant::now()))))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_port_in_use_is_an_error_naming_it() {
        let taken = TcpListener::bind("127.0.0.1:0").unwrap();
        let address = taken.local_addr().unwrap();
        let message = serve(address).unwrap_err().to_string();
        assert!(message.contains(&address.to_string()), "{message}");
    }
}
