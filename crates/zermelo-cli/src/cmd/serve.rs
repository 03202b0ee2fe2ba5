//! `zermelo serve`: the HTTP API and the visualiser (see the `zermelo-server` crate).

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;

use anyhow::Context;
use clap::Args;
use zermelo_chess::{insufficient_material, Category, Color, Dtz, Position, ProbeError, Value};
use zermelo_server::{AppState, Limits, PositionProbe, TablebaseError};

use crate::error::CliResult;

/// Arguments of `zermelo serve`.
#[derive(Debug, Args)]
pub struct ServeArgs {
    /// Address to listen on.
    #[arg(long, default_value = "127.0.0.1:8080", value_name = "ADDR")]
    bind: SocketAddr,
    /// Serve the chess tablebases in DIR on /api/tb, /standard and /standard/mainline:
    /// zermelo's tables (`.zct`, `.zdz`) and Syzygy's (`.rtbw`, `.rtbz`), WDL and DTZ from
    /// zermelo's table of a material when there is one, else Syzygy's. Repeat the flag or
    /// separate directories with `:`; searched in order.
    #[arg(long, value_name = "DIR", value_delimiter = ':', action = clap::ArgAction::Append)]
    tables: Vec<PathBuf>,
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
    let tables = if args.tables.is_empty() {
        None
    } else {
        let tables = crate::cmd::tables::ProbeTablesArg {
            tables: args.tables.clone(),
        };
        Some(Arc::new(ChessTables(tables.open(args.rule.rule)?)) as _)
    };
    let state = AppState::new(limits, tables).with_values(Arc::new(
        super::cgt_thermograph::ServedValues::with_memory_limit(),
    ));
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

/// The chess tables behind the server's `Tablebase` seam (tables open lazily, memory-mapped;
/// a missing or damaged table fails the request that needs it, naming the file, and the
/// server goes on).
struct ChessTables(zermelo_chess::Tablebase);

impl zermelo_server::Tablebase for ChessTables {
    fn probe(&self, fen: &str) -> Result<PositionProbe, TablebaseError> {
        let (pos, clock) = Position::from_fen_with_clock(fen)
            .map_err(|e| TablebaseError::BadFen(e.to_string()))?;
        let answer = self.0.answer(&pos, clock).map_err(probe_error)?;
        Ok(crate::cmd::tb::probe_row(&answer))
    }

    fn standard(&self, fen: &str) -> Result<serde_json::Value, TablebaseError> {
        let (pos, clock) = Position::from_fen_with_clock(fen)
            .map_err(|e| TablebaseError::BadFen(e.to_string()))?;
        lichess_standard(&self.0, &pos, clock).map_err(probe_error)
    }

    fn standard_mainline(&self, fen: &str) -> Result<serde_json::Value, TablebaseError> {
        let (pos, clock) = Position::from_fen_with_clock(fen)
            .map_err(|e| TablebaseError::BadFen(e.to_string()))?;
        lichess_mainline(&self.0, &pos, clock).map_err(probe_error)
    }
}

/// A probe's failure as the server answers it: more pieces than any table is the request's
/// fault (400); a missing, damaged or foreign table (zermelo's or Syzygy's, named) is the
/// server's side (404).
fn probe_error(e: ProbeError) -> TablebaseError {
    match e {
        ProbeError::TooManyPieces { .. }
        | ProbeError::Syzygy(zermelo_chess::SyzygyError::TooManyPieces { .. }) => {
            TablebaseError::Unsupported(e.to_string())
        }
        _ => TablebaseError::NoTable(e.to_string()),
    }
}

/// `pos` (with `clock`) in the JSON shape of lichess's tablebase server (`GET /standard`,
/// lichess-org/lila-tablebase): the position's `category` (the clock applied; `maybe-win` or
/// `maybe-loss` where a rounded DTZ leaves it open), `dtz` and `precise_dtz` (Syzygy's signs;
/// `precise_dtz` is `null` where a Syzygy DTZ is rounded, zermelo's never are), `dtm` (plies,
/// negative when the side to move loses, 0 for a draw and `null` for a position already mated,
/// as lichess keeps 0 for draws, and `null` without zermelo's DTM table, as lichess answers
/// 6-7-piece positions), the end-of-game flags, and every legal move in lichess's order
/// ([`zermelo_chess::Answer::moves_as_lichess`]) with the same keys for the position it leads
/// to plus `uci`, `san`, `zeroing` and `conversion`. `dtz` and `category` need DTZ tables
/// (`null` and `unknown` without them).
fn lichess_standard(
    tb: &zermelo_chess::Tablebase,
    pos: &Position,
    clock: u32,
) -> Result<serde_json::Value, ProbeError> {
    let a = tb.answer(pos, clock)?;
    let mut out = lichess_values(&a.position, a.dtm, a.dtz, a.class);
    let mut rows = Vec::new();
    for m in a.moves_as_lichess() {
        let mut row = serde_json::Map::new();
        row.insert("uci".into(), m.mv.to_string().into());
        row.insert("san".into(), m.san.clone().into());
        row.insert("zeroing".into(), m.zeroing.into());
        row.insert(
            "conversion".into(),
            (m.mv.capture || m.mv.promotion.is_some()).into(),
        );
        row.extend(lichess_values(&m.after, m.dtm, m.dtz_after, m.class));
        rows.push(serde_json::Value::Object(row));
    }
    out.insert("moves".into(), rows.into());
    Ok(serde_json::Value::Object(out))
}

/// The keys lichess gives a position and each move's position.
fn lichess_values(
    p: &Position,
    mate: Option<Value>,
    dtz: Option<Dtz>,
    class: Option<Category>,
) -> serde_json::Map<String, serde_json::Value> {
    let no_moves = p.legal_moves().is_empty();
    let dtm = match mate {
        Some(Value::Win(d)) => serde_json::Value::from(d),
        Some(Value::Lose(0)) | None => serde_json::Value::Null,
        Some(Value::Lose(d)) => serde_json::Value::from(-i64::from(d)),
        Some(Value::Draw) => serde_json::Value::from(0),
    };
    let mut m = serde_json::Map::new();
    m.insert("checkmate".into(), (no_moves && p.is_check()).into());
    m.insert("stalemate".into(), (no_moves && !p.is_check()).into());
    m.insert("variant_win".into(), false.into());
    m.insert("variant_loss".into(), false.into());
    m.insert(
        "insufficient_material".into(),
        insufficient_material(p).into(),
    );
    m.insert("dtz".into(), dtz.map(Dtz::syzygy).into());
    m.insert(
        "precise_dtz".into(),
        dtz.and_then(Dtz::precise_syzygy).into(),
    );
    m.insert("dtc".into(), serde_json::Value::Null);
    m.insert("dtm".into(), dtm);
    m.insert("dtw".into(), serde_json::Value::Null);
    let category = class.map_or("unknown", Category::as_str);
    m.insert("category".into(), category.into());
    m
}

/// The line from `pos` (with `clock`) in the JSON shape of lichess's tablebase server (`GET
/// /standard/mainline`): `dtz` and `precise_dtz` of the position (Syzygy's signs;
/// `precise_dtz` `null` where a Syzygy DTZ is rounded), `mainline`, the moves of [`zermelo_chess::Tablebase::dtz_mainline`] as
/// `{uci, san, dtz, precise_dtz}` (the DTZ of the position each move leads to), empty when the
/// position is drawn, and `winner`: `"w"` or `"b"` when the line ends in mate, `null`
/// otherwise.
fn lichess_mainline(
    tb: &zermelo_chess::Tablebase,
    pos: &Position,
    clock: u32,
) -> Result<serde_json::Value, ProbeError> {
    let line = tb.dtz_mainline(pos, clock)?;
    let mainline: Vec<serde_json::Value> = line
        .steps
        .iter()
        .map(|step| {
            let dtz = step.dtz.after_dtz();
            serde_json::json!({
                "uci": step.dtz.mv.to_string(),
                "san": step.san,
                "dtz": dtz.syzygy(),
                "precise_dtz": dtz.precise_syzygy(),
            })
        })
        .collect();
    // The side to move in a checkmate lost.
    let winner = line.end.is_checkmate().then(|| match line.end.turn() {
        Color::White => "b",
        Color::Black => "w",
    });
    Ok(serde_json::json!({
        "dtz": line.start.syzygy(),
        "precise_dtz": line.start.precise_syzygy(),
        "mainline": mainline,
        "winner": winner,
    }))
}
