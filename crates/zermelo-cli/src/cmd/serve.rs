//! `zermelo serve`: the HTTP API and the visualiser (see the `zermelo-server` crate).

use std::net::SocketAddr;
use std::path::PathBuf;

use anyhow::Context;
use clap::Args;
use zermelo_server::{AppState, Limits};

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
    if let Some(dir) = &args.tables {
        // The seam: `zermelo_server::Tablebase` is what a chess table reader plugs into.
        return Err(Failure::input(format!(
            "{}: chess tablebases are not wired into this build yet",
            dir.display()
        )));
    }
    let state = AppState::new(limits, None);
    let runtime = tokio::runtime::Runtime::new().context("starting the async runtime")?;
    runtime
        .block_on(zermelo_server::serve(args.bind, state, |addr| {
            eprintln!("zermelo: serving on http://{addr}/ (Ctrl-C to stop)");
        }))
        .with_context(|| format!("serving on {}", args.bind))?;
    eprintln!("zermelo: server stopped");
    Ok(())
}
