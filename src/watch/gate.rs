//! The cap on the page's connections: past [`MAX_CONNECTIONS`] open at once, a new one gets a 503 and is closed.
//!
//! The cap is kept where connections are accepted: each accepted connection
//! holds a permit until it closes (a server-sent event stream holds its
//! permit as long as the browser listens). A connection over the cap is
//! answered by a task of its own, never by the router.

use std::io;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use axum::serve::Listener;
use tokio::io::{AsyncRead, AsyncReadExt as _, AsyncWrite, AsyncWriteExt as _, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// Connections the page serves at once (each browser tab holds one or two).
pub const MAX_CONNECTIONS: usize = 64;

/// The longest a refused connection is read before its 503 is sent.
const REFUSAL_READ: Duration = Duration::from_secs(1);

/// A listener that lets at most [`MAX_CONNECTIONS`] connections through at once.
pub(crate) struct Capped {
    listener: TcpListener,
    permits: Arc<Semaphore>,
}

impl Capped {
    /// Caps `listener` at `cap` connections at once.
    pub(crate) fn new(listener: TcpListener, cap: usize) -> Capped {
        Capped { listener, permits: Arc::new(Semaphore::new(cap)) }
    }
}

impl Listener for Capped {
    type Io = Counted;
    type Addr = SocketAddr;

    async fn accept(&mut self) -> (Counted, SocketAddr) {
        loop {
            let (stream, remote) = match self.listener.accept().await {
                Ok(accepted) => accepted,
                Err(e) => {
                    pause_after(&e).await;
                    continue;
                }
            };
            match Arc::clone(&self.permits).try_acquire_owned() {
                Ok(permit) => return (Counted { stream, _permit: permit }, remote),
                Err(_) => drop(tokio::spawn(refuse(stream))),
            }
        }
    }

    fn local_addr(&self) -> io::Result<SocketAddr> {
        self.listener.local_addr()
    }
}

/// After a failed accept: at once for a connection that went away, after a
/// pause for the rest (out of file descriptors, say), so the loop does not spin.
async fn pause_after(error: &io::Error) {
    use io::ErrorKind::{ConnectionAborted, ConnectionRefused, ConnectionReset};
    if !matches!(error.kind(), ConnectionAborted | ConnectionRefused | ConnectionReset) {
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Answers a connection over the cap: reads its request head (so the client
/// reads the answer rather than a reset), sends 503 with a short body, closes.
async fn refuse(mut stream: TcpStream) {
    let mut head = Vec::with_capacity(1024);
    let mut buffer = [0u8; 1024];
    let _ = tokio::time::timeout(REFUSAL_READ, async {
        while head.len() < 8192 && !head.windows(4).any(|w| w == b"\r\n\r\n") {
            match stream.read(&mut buffer).await {
                Ok(0) | Err(_) => break,
                Ok(n) => head.extend_from_slice(&buffer[..n]),
            }
        }
    })
    .await;
    let body = format!("edgematch --watch: too many connections (at most {MAX_CONNECTIONS}); try again later\n");
    let answer = format!(
        "HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: {}\r\nRetry-After: 5\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    let _ = stream.write_all(answer.as_bytes()).await;
    let _ = stream.shutdown().await;
}

/// An accepted connection and its permit, given back when the connection closes.
pub(crate) struct Counted {
    stream: TcpStream,
    _permit: OwnedSemaphorePermit,
}

impl AsyncRead for Counted {
    fn poll_read(self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().stream).poll_read(cx, buf)
    }
}

impl AsyncWrite for Counted {
    fn poll_write(self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().stream).poll_write(cx, buf)
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().stream).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().stream).poll_shutdown(cx)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().stream).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }
}
