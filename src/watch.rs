//! `--watch`: a local, read-only web page that follows a run live, served from the [`live`] feed.
//!
//! Three routes, all `GET`: `/` (the page, [`PAGE`]), `/state.json` (the
//! state as one JSON object) and `/events` (server-sent events: a `state`
//! event at once and after each change, a `tick` event with the clock alone
//! every [`HEARTBEAT`]). Any other method or path is refused by the router:
//! the page accepts no command. The state is rendered once per change by one
//! publisher (`watch/publish.rs`) and shared by every client; at most
//! [`MAX_CONNECTIONS`] connections are served at once (`watch/gate.rs`);
//! requests not addressed to the page's own address or `localhost` are
//! refused (`watch/host.rs`). The server runs on a thread of its own with a one-thread tokio
//! runtime, and lives as long as the process.

mod gate;
mod host;
mod publish;

use std::convert::Infallible;
use std::net::{SocketAddr, TcpListener};
use std::sync::Arc;

use axum::Router;
use axum::http::header;
use axum::response::sse::{Event, Sse};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::get;
use tokio::sync::watch;

use crate::error::Error;
use crate::live;
pub use gate::MAX_CONNECTIONS;
pub use publish::{HEARTBEAT, POLL};
use publish::{Published, Publisher};

/// The page: one HTML file, its script and style inline, nothing fetched from elsewhere.
pub const PAGE: &str = include_str!("watch.html");

/// The address `--watch` binds when given none: this machine only, a free port.
pub const DEFAULT_ADDRESS: &str = "127.0.0.1:0";

/// What the routes read: the latest publication.
type Latest = watch::Receiver<Arc<Published>>;

/// Binds `address` and serves the page from a thread of its own; turns the
/// live feed on. Returns the address bound (with the port chosen, when 0 was asked).
///
/// # Errors
/// The address cannot be bound (in use, not this machine's, no permission):
/// the message names it.
pub fn serve(address: SocketAddr) -> Result<SocketAddr, Error> {
    let refused = |e: std::io::Error| Error::Options(format!("--watch={address}: cannot listen there: {e}"));
    let listener = TcpListener::bind(address).map_err(refused)?;
    listener.set_nonblocking(true).map_err(refused)?;
    let bound = listener.local_addr().map_err(refused)?;
    let feed = live::enable();
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().map_err(refused)?;
    let _ = std::thread::Builder::new()
        .name("edgematch-watch".to_owned())
        .spawn(move || {
            let served = runtime.block_on(async move {
                let (publisher, first) = Publisher::start(feed);
                let (sender, latest) = watch::channel(Arc::new(first));
                drop(tokio::spawn(publisher.run(sender)));
                let listener = gate::Capped::new(tokio::net::TcpListener::from_std(listener)?, MAX_CONNECTIONS);
                axum::serve(listener, router(latest, bound)).await
            });
            if let Err(e) = served {
                eprintln!("edgematch: --watch={bound}: the page's server stopped: {e}");
            }
        })
        .map_err(refused)?;
    Ok(bound)
}

/// The three routes over the latest publication, behind the Host check for a page bound at `bound`.
fn router(latest: Latest, bound: SocketAddr) -> Router {
    let state_latest = latest.clone();
    Router::new()
        .route("/", get(|| async { Html(PAGE) }))
        .route("/state.json", get(move || async move { state_json(&state_latest) }))
        .route("/events", get(move || async move { Sse::new(events(latest.clone())) }))
        .layer(axum::middleware::from_fn_with_state(Arc::new(host::Hosts::new(bound)), host::check))
}

/// `GET /state.json`: the state with the latest clock.
fn state_json(latest: &Latest) -> Response {
    let whole = Arc::clone(&latest.borrow().whole);
    ([(header::CONTENT_TYPE, "application/json"), (header::CACHE_CONTROL, "no-store")], whole.to_string())
        .into_response()
}

/// The publications as events: `state` at once and at each new state, `tick`
/// (the clock alone) at each heartbeat between two states.
fn events(latest: Latest) -> impl futures_util::Stream<Item = Result<Event, Infallible>> {
    futures_util::stream::unfold((latest, None), |(mut latest, sent): (Latest, Option<u64>)| async move {
        if sent.is_some() && latest.changed().await.is_err() {
            return None;
        }
        let published = Arc::clone(&latest.borrow_and_update());
        let event = if sent == Some(published.serial) {
            Event::default().event("tick").data(&*published.tick)
        } else {
            Event::default().event("state").data(&*published.state)
        };
        Some((Ok(event), (latest, Some(published.serial))))
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
