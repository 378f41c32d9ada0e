//! The Host check: the page answers only requests addressed to it by its own address or by `localhost`, which blocks DNS rebinding.
//!
//! A page on another site can make the browser send requests to this port
//! under a name it controls (DNS rebinding): such requests carry that name in
//! `Host`, and are refused with 403.

use std::net::SocketAddr;
use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::{StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

/// The `Host` values the page answers.
#[derive(Debug)]
pub(crate) struct Hosts {
    /// The bound address and the loopback names, each with the port (lower case).
    names: Vec<String>,
    /// Bound to every interface (`0.0.0.0`, `::`): any IP address with this
    /// port is the page's own (only names can be rebound).
    any_ip: Option<u16>,
}

impl Hosts {
    /// The hosts of a page bound at `bound`.
    pub(crate) fn new(bound: SocketAddr) -> Hosts {
        let port = bound.port();
        let mut names =
            vec![bound.to_string(), format!("localhost:{port}"), format!("127.0.0.1:{port}"), format!("[::1]:{port}")];
        if port == 80 {
            // Browsers leave the default port out of `Host`.
            let bare: Vec<String> = names.iter().map(|n| n.trim_end_matches(":80").to_owned()).collect();
            names.extend(bare);
        }
        Hosts { names, any_ip: bound.ip().is_unspecified().then_some(port) }
    }

    /// Whether a request with this `Host` is answered.
    pub(crate) fn allow(&self, host: &str) -> bool {
        let host = host.trim().to_ascii_lowercase();
        self.names.contains(&host)
            || self.any_ip.is_some_and(|port| host.parse::<SocketAddr>().is_ok_and(|a| a.port() == port))
    }
}

/// The middleware: passes requests whose `Host` is allowed, refuses the others (and those without one) with 403.
pub(crate) async fn check(State(hosts): State<Arc<Hosts>>, request: Request, next: Next) -> Response {
    let host = request.headers().get(header::HOST).and_then(|h| h.to_str().ok());
    if host.is_some_and(|h| hosts.allow(h)) {
        return next.run(request).await;
    }
    let body = "edgematch --watch: this page answers only to its own address or localhost (Host header)\n";
    (StatusCode::FORBIDDEN, body).into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_bound_address_and_localhost_with_the_port_pass() {
        let hosts = Hosts::new("127.0.0.1:8765".parse().unwrap());
        for host in ["127.0.0.1:8765", "localhost:8765", "LocalHost:8765", "[::1]:8765"] {
            assert!(hosts.allow(host), "{host}");
        }
        for host in ["evil.example:8765", "localhost", "127.0.0.1:80", "localhost:8766", "10.0.0.2:8765", ""] {
            assert!(!hosts.allow(host), "{host}");
        }
    }

    #[test]
    fn bound_to_every_interface_any_ip_with_the_port_passes_but_no_other_name() {
        let hosts = Hosts::new("0.0.0.0:8765".parse().unwrap());
        assert!(hosts.allow("192.168.1.20:8765") && hosts.allow("[fe80::1]:8765") && hosts.allow("localhost:8765"));
        assert!(!hosts.allow("rebound.example:8765") && !hosts.allow("192.168.1.20:8080"));
    }
}
