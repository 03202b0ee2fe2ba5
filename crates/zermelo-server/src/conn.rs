//! Connection limits: a cap on open connections and an idle timeout on reads, so that clients
//! that connect and stall (half-sent headers or bodies) can neither exhaust file descriptors nor
//! keep a shutdown waiting forever.

use std::future::Future;
use std::io;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio::time::{Instant, Sleep};

/// How connections are bounded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Connections {
    /// Most connections open at once; further clients wait in the kernel's accept queue.
    pub max: usize,
    /// A connection that sends nothing for this long is closed (a stalled request included).
    pub idle_timeout: Duration,
    /// After SIGINT/SIGTERM, requests in flight get this long to finish.
    pub shutdown_grace: Duration,
}

impl Default for Connections {
    fn default() -> Connections {
        Connections {
            max: 256,
            idle_timeout: Duration::from_secs(30),
            shutdown_grace: Duration::from_secs(10),
        }
    }
}

/// A TCP listener that holds one permit per open connection and times out idle reads.
pub(crate) struct Capped {
    listener: TcpListener,
    permits: Arc<Semaphore>,
    idle: Duration,
}

impl Capped {
    pub(crate) fn new(listener: TcpListener, limits: Connections) -> Capped {
        Capped {
            listener,
            permits: Arc::new(Semaphore::new(limits.max.max(1))),
            idle: limits.idle_timeout,
        }
    }
}

impl axum::serve::Listener for Capped {
    type Io = Guarded;
    type Addr = SocketAddr;

    async fn accept(&mut self) -> (Guarded, SocketAddr) {
        // The semaphore is never closed, so acquiring only waits.
        let permit = loop {
            if let Ok(p) = self.permits.clone().acquire_owned().await {
                break p;
            }
        };
        let (io, addr) = axum::serve::Listener::accept(&mut self.listener).await;
        let guarded = Guarded {
            io,
            _permit: permit,
            idle: self.idle,
            timer: Box::pin(tokio::time::sleep(self.idle)),
        };
        (guarded, addr)
    }

    fn local_addr(&self) -> io::Result<SocketAddr> {
        self.listener.local_addr()
    }
}

/// A connection: its permit is released when it closes; a read that waits longer than the idle
/// timeout fails with `TimedOut`, which makes hyper close the connection.
pub(crate) struct Guarded {
    io: TcpStream,
    _permit: OwnedSemaphorePermit,
    idle: Duration,
    timer: Pin<Box<Sleep>>,
}

impl AsyncRead for Guarded {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        match Pin::new(&mut this.io).poll_read(cx, buf) {
            Poll::Ready(result) => {
                let next = Instant::now() + this.idle;
                this.timer.as_mut().reset(next);
                Poll::Ready(result)
            }
            Poll::Pending => match this.timer.as_mut().poll(cx) {
                Poll::Ready(()) => Poll::Ready(Err(io::Error::new(
                    io::ErrorKind::TimedOut,
                    "the client sent nothing for too long",
                ))),
                Poll::Pending => Poll::Pending,
            },
        }
    }
}

impl AsyncWrite for Guarded {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().io).poll_write(cx, buf)
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().io).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().io).poll_shutdown(cx)
    }
}
