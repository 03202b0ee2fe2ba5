//! `POST /api/solve`: parse the body (JSON graph or edge list), check it against the [`Limits`],
//! solve by retrograde analysis and answer outcomes, depths, best moves and, on request, the
//! trace of the wave.

use serde::{Deserialize, Serialize};
use zermelo::graph::{Csr, Rules};
use zermelo::io::{self, InputFormat, LoadOptions, LoadedGraph, Source};
use zermelo::report::SolveReport;
use zermelo::solve::{self, solve_observed};
use zermelo::Solution;

use crate::error::ApiError;
use crate::limits::Limits;
use crate::trace::{CappedTrace, TraceEvent};

/// The name parse errors give the body, as in `request body:3: expected an edge`.
const SOURCE: &str = "request body";

/// Query options of `/api/solve`.
#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct SolveOptions {
    /// Add the ordered events of the backward wave.
    #[serde(default)]
    pub trace: bool,
    /// Misère play for an edge-list body (a JSON body says `"misere": true` itself).
    #[serde(default)]
    pub misere: bool,
}

/// The answer of `/api/solve`: the counts and one row per node (outcome, depth, best move) —
/// the same [`SolveReport`] `zermelo solve --format json` prints — and, on request, the trace.
#[derive(Debug, Serialize)]
pub struct SolveResponse {
    #[serde(flatten)]
    report: SolveReport,
    #[serde(skip_serializing_if = "Option::is_none")]
    trace: Option<Vec<TraceEvent>>,
}

/// Solves one request body: the whole of `/api/solve` without HTTP, for tests and embedders.
///
/// # Errors
/// 400 for a malformed body (with the line of an edge list), 413 when the graph or its trace is
/// over `limits`.
pub fn solve_request(
    body: &[u8],
    options: SolveOptions,
    limits: &Limits,
) -> Result<SolveResponse, ApiError> {
    let (graph, rules) = parse(body, options.misere, limits)?;
    let (solution, trace) = if options.trace {
        let mut observer = CappedTrace::new(limits.max_trace_events);
        let s = solve_observed(&graph, &rules, &mut observer);
        if observer.overflowed {
            return Err(ApiError::too_large(format!(
                "the trace has more than {} events; send a smaller graph or leave out trace=true",
                observer.cap
            )));
        }
        (s, Some(observer.events))
    } else {
        (solve::retrograde_auto(&graph, &rules), None)
    };
    Ok(respond(&graph, &rules, &solution, trace))
}

fn respond(
    graph: &Csr,
    rules: &Rules,
    solution: &Solution,
    trace: Option<Vec<TraceEvent>>,
) -> SolveResponse {
    let best = solve::best_moves(graph, rules, solution);
    SolveResponse {
        report: SolveReport::new(graph.edge_count(), solution, &best),
        trace,
    }
}

/// Reads a JSON graph (the body starts with `{`) or an edge list through [`io::open`], refusing
/// oversized graphs from their declared size (wherever an edge list's header is) before
/// anything is built.
fn parse(body: &[u8], misere: bool, limits: &Limits) -> Result<(Csr, Rules), ApiError> {
    let first = body.iter().find(|b| !b.is_ascii_whitespace());
    let format = if first == Some(&b'{') {
        InputFormat::Json
    } else {
        InputFormat::Edges
    };
    if let Some((nodes, edges)) = io::declared_size(body, format)? {
        check_size(nodes, edges, limits)?;
    }
    let options = LoadOptions {
        format: Some(format),
        misere,
        ..LoadOptions::default()
    };
    let loaded = io::open(
        Source::Bytes {
            name: SOURCE,
            bytes: body,
        },
        &options,
    )?;
    match loaded.graph {
        LoadedGraph::Full(graph) => Ok((graph, loaded.rules)),
        _ => Err(ApiError::new(
            axum::http::StatusCode::INTERNAL_SERVER_ERROR,
            "the loader returned no forward rows",
        )),
    }
}

fn check_size(nodes: u64, edges: u64, limits: &Limits) -> Result<(), ApiError> {
    if nodes > limits.max_nodes {
        return Err(ApiError::too_large(format!(
            "the graph has {nodes} nodes; this server accepts at most {} (--max-nodes)",
            limits.max_nodes
        )));
    }
    if edges > limits.max_edges {
        return Err(ApiError::too_large(format!(
            "the graph has {edges} edges; this server accepts at most {} (--max-edges)",
            limits.max_edges
        )));
    }
    Ok(())
}
