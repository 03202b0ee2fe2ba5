//! Connection limits: a cap on open connections, an idle timeout on reads and a deadline for
//! receiving a whole request, so that clients that connect and stall (half-sent headers or
//! bodies) or send a byte now and then (slow loris) can neither hold every connection slot nor
//! keep a shutdown waiting forever.
//!
//! The request deadline runs from the first byte of a request until its body has been received
//! ([`Phase::received`], called by the router's body middleware), so computing the answer is
//! not counted; it starts again with the next request after the response is written.

use std::future::Future;
use std::io;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::atomic::{AtomicU8, Ordering};
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
    /// A request whose headers and body take longer than this to arrive is cut off and its
    /// connection closed, however often its bytes trickle in.
    pub request_timeout: Duration,
    /// After SIGINT/SIGTERM, requests in flight get this long to finish.
    pub shutdown_grace: Duration,
}

impl Default for Connections {
    fn default() -> Connections {
        Connections {
            max: 256,
            idle_timeout: Duration::from_secs(30),
            request_timeout: Duration::from_secs(10),
            shutdown_grace: Duration::from_secs(10),
        }
    }
}

/// A TCP listener that holds one permit per open connection and times out idle reads.
pub(crate) struct Capped {
    listener: TcpListener,
    permits: Arc<Semaphore>,
    idle: Duration,
    request: Duration,
}

impl Capped {
    pub(crate) fn new(listener: TcpListener, limits: Connections) -> Capped {
        Capped {
            listener,
            permits: Arc::new(Semaphore::new(limits.max.max(1))),
            idle: limits.idle_timeout,
            request: limits.request_timeout,
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
        let now = Instant::now();
        let guarded = Guarded {
            io,
            _permit: permit,
            idle: self.idle,
            request: self.request,
            phase: Phase::default(),
            last_read: now,
            since: now,
            timer: Box::pin(tokio::time::sleep(self.idle)),
        };
        (guarded, addr)
    }

    fn local_addr(&self) -> io::Result<SocketAddr> {
        self.listener.local_addr()
    }
}

/// Where a connection is in its current request, shared by its transport ([`Guarded`]) and the
/// router's body middleware (through axum's `ConnectInfo`).
#[derive(Clone, Debug, Default)]
pub(crate) struct Phase(Arc<AtomicU8>);

/// Between requests: only the idle timeout applies.
const IDLE: u8 = 0;
/// A request has begun to arrive: the request deadline runs.
const RECEIVING: u8 = 1;
/// The request has arrived and is being answered: only the idle timeout applies.
const ANSWERING: u8 = 2;

impl Phase {
    /// The request's body has been received in full: its deadline stops.
    pub(crate) fn received(&self) {
        let _ = self
            .0
            .compare_exchange(RECEIVING, ANSWERING, Ordering::AcqRel, Ordering::Acquire);
    }

    fn get(&self) -> u8 {
        self.0.load(Ordering::Acquire)
    }

    fn set(&self, phase: u8) {
        self.0.store(phase, Ordering::Release);
    }
}

impl axum::extract::connect_info::Connected<axum::serve::IncomingStream<'_, Capped>> for Phase {
    fn connect_info(stream: axum::serve::IncomingStream<'_, Capped>) -> Phase {
        stream.io().phase.clone()
    }
}

/// A connection: its permit is released when it closes; a read that waits longer than the idle
/// timeout, or a request that takes longer than the request timeout to arrive, fails with
/// `TimedOut`, which makes hyper close the connection.
pub(crate) struct Guarded {
    io: TcpStream,
    _permit: OwnedSemaphorePermit,
    idle: Duration,
    request: Duration,
    phase: Phase,
    /// When bytes last arrived.
    last_read: Instant,
    /// When the request being received began to arrive.
    since: Instant,
    timer: Pin<Box<Sleep>>,
}

impl Guarded {
    /// The next moment a timeout can strike.
    fn deadline(&self) -> Instant {
        let idle = self.last_read + self.idle;
        if self.phase.get() == RECEIVING {
            idle.min(self.since + self.request)
        } else {
            idle
        }
    }

    /// The timeout that has struck at `now`, if any.
    fn expired(&self, now: Instant) -> Option<io::Error> {
        let message = if self.phase.get() == RECEIVING && now >= self.since + self.request {
            "the client took too long to send its request"
        } else if now >= self.last_read + self.idle {
            "the client sent nothing for too long"
        } else {
            return None;
        };
        Some(io::Error::new(io::ErrorKind::TimedOut, message))
    }
}

impl AsyncRead for Guarded {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let before = buf.filled().len();
        match Pin::new(&mut this.io).poll_read(cx, buf) {
            Poll::Ready(Ok(())) => {
                let now = Instant::now();
                if buf.filled().len() > before && this.phase.get() == IDLE {
                    this.phase.set(RECEIVING);
                    this.since = now;
                }
                // A slow sender keeps the idle timer from striking: the request deadline does.
                if let Some(e) = this.expired(now).filter(|_| this.phase.get() == RECEIVING) {
                    return Poll::Ready(Err(e));
                }
                this.last_read = now;
                let next = this.deadline();
                this.timer.as_mut().reset(next);
                Poll::Ready(Ok(()))
            }
            Poll::Ready(Err(e)) => Poll::Ready(Err(e)),
            Poll::Pending => loop {
                if this.timer.as_mut().poll(cx).is_pending() {
                    return Poll::Pending;
                }
                // The phase may have changed since the timer was set: strike only if due.
                if let Some(e) = this.expired(Instant::now()) {
                    return Poll::Ready(Err(e));
                }
                let next = this.deadline();
                this.timer.as_mut().reset(next);
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
        let this = self.get_mut();
        // A response is going out: the next bytes read begin the next request.
        this.phase.set(IDLE);
        Pin::new(&mut this.io).poll_write(cx, buf)
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().io).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().io).poll_shutdown(cx)
    }
}
