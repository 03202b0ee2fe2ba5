//! # zermelo-server
//!
//! The HTTP face of zermelo: a JSON API that solves game graphs (with the ordered trace of the
//! backward wave on request), a tablebase API in the style of lichess's, and an interactive
//! visualiser of retrograde analysis, all served by one [`axum`] router. The `zermelo serve`
//! subcommand is a thin wrapper around [`serve`].
//!
//! ## Endpoints
//!
//! | route | what |
//! |---|---|
//! | `GET /` | the visualiser (embedded HTML/CSS/JS, no CDN) |
//! | `GET /tb` | the tablebase page |
//! | `POST /api/solve[?trace=true][&misere=true]` | JSON graph or edge-list text -> outcomes, depths, best moves (and the trace) |
//! | `GET /api/tb?fen=...` | outcome, DTM and every move best first |
//! | `POST /api/tb/batch` | `{"fens": [...]}` -> one probe per FEN |
//! | `GET /api/tb/mainline?fen=...` | optimal play to the end |
//! | `GET /standard?fen=...` | lichess's tablebase JSON: classes under the 50-move rule, DTZ, DTM, moves |
//! | `GET /standard/mainline?fen=...` | lichess's main line: best moves by DTZ until mate or a claimable draw, and the winner |
//! | `GET /values` | the values page: a thermograph for a value typed in |
//! | `GET /api/cgt/thermograph?value=...` | mean, temperature, walls and the SVG picture of a value (CGSuite notation) |
//! | `GET /api/health` | `{"status": "ok"}` |
//!
//! Errors are JSON `{"error": "..."}` with 400 (malformed input), 404 (unknown route, no table),
//! 405 (wrong method) or 413 (body, nodes, edges or trace over the configured [`Limits`]).
//!
//! ## Example
//!
//! ```
//! use zermelo_server::{router, AppState, Limits};
//! let app = router(AppState::new(Limits::default(), None));
//! # let _ = app;
//! ```
//!
//! The trace comes from [`zermelo::solve::solve_observed`], the code path of every other
//! sequential solve, so what the visualiser animates is what the CLI computes.

#![deny(missing_docs)]

mod assets;
mod conn;
mod error;
mod limits;
mod routes;
mod solve;
pub mod tablebase;
mod trace;
pub mod values;

use std::net::SocketAddr;
use std::sync::Arc;

pub use conn::Connections;
pub use error::ApiError;
pub use limits::Limits;
pub use routes::router;
pub use solve::{solve_request, SolveOptions, SolveResponse};
pub use tablebase::{MoveProbe, PositionProbe, Tablebase, TablebaseError};
pub use trace::TraceEvent;
pub use values::{Values, ValuesError};

/// What every handler shares: the limits, the tablebase and the game values, if any.
#[derive(Clone)]
pub struct AppState {
    /// Request limits.
    pub limits: Limits,
    /// The served tablebases; `None` makes the `/api/tb` endpoints answer 404.
    pub tables: Option<Arc<dyn Tablebase>>,
    /// The game values; `None` makes `/api/cgt/thermograph` answer 404.
    pub values: Option<Arc<dyn Values>>,
}

impl AppState {
    /// State with the given limits and tablebase (and no game values).
    pub fn new(limits: Limits, tables: Option<Arc<dyn Tablebase>>) -> AppState {
        AppState {
            limits,
            tables,
            values: None,
        }
    }

    /// The same state serving game values.
    pub fn with_values(mut self, values: Arc<dyn Values>) -> AppState {
        self.values = Some(values);
        self
    }
}

/// Serves `state` on `bind` until SIGINT or SIGTERM, then finishes the requests in flight
/// (within [`Connections::shutdown_grace`]). `ready` is called with the bound address (useful
/// with port 0).
///
/// # Errors
/// The address cannot be bound, or the server fails.
pub async fn serve(
    bind: SocketAddr,
    state: AppState,
    ready: impl FnOnce(SocketAddr),
) -> std::io::Result<()> {
    serve_until(
        bind,
        state,
        Connections::default(),
        shutdown_signal(),
        ready,
    )
    .await
}

/// As [`serve`], with explicit connection limits.
///
/// # Errors
/// The address cannot be bound, or the server fails.
pub async fn serve_with(
    bind: SocketAddr,
    state: AppState,
    connections: Connections,
    ready: impl FnOnce(SocketAddr),
) -> std::io::Result<()> {
    serve_until(bind, state, connections, shutdown_signal(), ready).await
}

/// As [`serve`], with explicit connection limits and a shutdown trigger of the caller's.
///
/// # Errors
/// The address cannot be bound, or the server fails.
pub async fn serve_until(
    bind: SocketAddr,
    state: AppState,
    connections: Connections,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
    ready: impl FnOnce(SocketAddr),
) -> std::io::Result<()> {
    let listener = tokio::net::TcpListener::bind(bind).await?;
    ready(listener.local_addr()?);
    let (stop_tx, stop_rx) = tokio::sync::oneshot::channel::<()>();
    let graceful = async move {
        shutdown.await;
        let _ = stop_tx.send(());
    };
    let app = router(state).into_make_service_with_connect_info::<conn::Phase>();
    let server =
        axum::serve(conn::Capped::new(listener, connections), app).with_graceful_shutdown(graceful);
    // In-flight requests get a deadline: a client stalled mid-body must not hold the exit.
    let deadline = async move {
        if stop_rx.await.is_ok() {
            tokio::time::sleep(connections.shutdown_grace).await;
        } else {
            std::future::pending::<()>().await;
        }
    };
    tokio::select! {
        result = server => result,
        () = deadline => Ok(()),
    }
}

/// Resolves on the first SIGINT or SIGTERM.
async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {},
        () = term => {},
    }
}
