//! `zermelo serve`: the HTTP API and the visualiser (see the `zermelo-server` crate).

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;

use anyhow::Context;
use clap::Args;
use zermelo_chess::{Position, ProbeError};
use zermelo_server::{AppState, Limits, PositionProbe, TablebaseError};

use crate::error::{CliResult, Failure};

/// Arguments of `zermelo serve`.
#[derive(Debug, Args)]
pub struct ServeArgs {
    /// Address to listen on.
    #[arg(long, default_value = "127.0.0.1:8080", value_name = "ADDR")]
    bind: SocketAddr,
    /// Serve the chess tablebases in DIR on /api/tb.
    #[arg(long, value_name = "DIR")]
    tables: Option<PathBuf>,
    #[command(flatten)]
    rule: crate::cmd::tb::RuleArg,
    /// Refuse graphs with more nodes (413).
    #[arg(long, default_value_t = Limits::default().max_nodes, value_name = "N")]
    max_nodes: u64,
    /// Refuse graphs with more edges (413).
    #[arg(long, default_value_t = Limits::default().max_edges, value_name = "N")]
    max_edges: u64,
    /// Refuse request bodies larger than SIZE (e.g. 64K, 16M) (413).
    #[arg(long, default_value = "16M", value_name = "SIZE", value_parser = crate::parse_size)]
    max_body: u64,
    /// Refuse `?trace=true` answers with more events (413).
    #[arg(long, default_value_t = Limits::default().max_trace_events, value_name = "N")]
    max_trace: usize,
    /// Close a connection whose request (headers and body) takes longer than SECS to arrive.
    #[arg(long, default_value_t = 10, value_name = "SECS",
          value_parser = clap::value_parser!(u64).range(1..=86_400))]
    request_timeout: u64,
}

/// Runs `zermelo serve` until SIGINT or SIGTERM.
pub fn run(args: ServeArgs) -> CliResult {
    let limits = Limits {
        max_nodes: args.max_nodes,
        max_edges: args.max_edges,
        max_body: usize::try_from(args.max_body).unwrap_or(usize::MAX),
        max_trace_events: args.max_trace,
        ..Limits::default()
    };
    let tables = match &args.tables {
        Some(dir) if !dir.is_dir() => {
            return Err(Failure::input(format!(
                "{}: not a directory",
                dir.display()
            )))
        }
        Some(dir) => Some(Arc::new(ChessTables(
            zermelo_chess::Tablebase::open(dir).with_rule(args.rule.rule),
        )) as _),
        None => None,
    };
    let state = AppState::new(limits, tables);
    let connections = zermelo_server::Connections {
        request_timeout: std::time::Duration::from_secs(args.request_timeout),
        ..zermelo_server::Connections::default()
    };
    let runtime = tokio::runtime::Runtime::new().context("starting the async runtime")?;
    runtime
        .block_on(zermelo_server::serve_with(
            args.bind,
            state,
            connections,
            |addr| {
                crate::note!("zermelo: serving on http://{addr}/ (Ctrl-C to stop)");
            },
        ))
        .with_context(|| format!("serving on {}", args.bind))?;
    crate::note!("zermelo: server stopped");
    Ok(())
}

/// The chess tables behind the server's `Tablebase` seam (tables open lazily, memory-mapped).
struct ChessTables(zermelo_chess::Tablebase);

impl zermelo_server::Tablebase for ChessTables {
    fn probe(&self, fen: &str) -> Result<PositionProbe, TablebaseError> {
        let (pos, clock) = Position::from_fen_with_clock(fen)
            .map_err(|e| TablebaseError::BadFen(e.to_string()))?;
        crate::cmd::tb::position_probe(&self.0, &pos, clock).map_err(probe_error)
    }

    fn standard(&self, fen: &str) -> Result<serde_json::Value, TablebaseError> {
        let (pos, clock) = Position::from_fen_with_clock(fen)
            .map_err(|e| TablebaseError::BadFen(e.to_string()))?;
        crate::cmd::tb::lichess_standard(&self.0, &pos, clock).map_err(probe_error)
    }

    fn standard_mainline(&self, fen: &str) -> Result<serde_json::Value, TablebaseError> {
        let (pos, clock) = Position::from_fen_with_clock(fen)
            .map_err(|e| TablebaseError::BadFen(e.to_string()))?;
        crate::cmd::tb::lichess_mainline(&self.0, &pos, clock).map_err(probe_error)
    }
}

/// A probe's failure as the server answers it: more pieces than any table is the request's
/// fault (400); a missing, damaged or foreign table is the server's side (404).
fn probe_error(e: ProbeError) -> TablebaseError {
    match e {
        ProbeError::TooManyPieces { .. } => TablebaseError::Unsupported(e.to_string()),
        _ => TablebaseError::NoTable(e.to_string()),
    }
}
