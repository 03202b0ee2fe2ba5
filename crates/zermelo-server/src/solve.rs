//! `POST /api/solve`: parse the body (JSON graph or edge list), check it against the [`Limits`],
//! solve by retrograde analysis and answer outcomes, depths, best moves and, on request, the
//! trace of the wave.

use serde::de::{IgnoredAny, SeqAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize};
use zermelo::graph::{Convention, Csr, Rules};
use zermelo::io::{edge_list_header, parse_edge_list, parse_json_graph};
use zermelo::solve::{self, solve_observed};
use zermelo::{NodeId, Solution};

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

/// The answer of `/api/solve`: sizes, counts, one row per node (outcome, depth, best move) and,
/// on request, the trace.
#[derive(Debug, Serialize)]
pub struct SolveResponse {
    nodes: usize,
    edges: u64,
    counts: CountsJson,
    solution: Vec<NodeRow>,
    #[serde(skip_serializing_if = "Option::is_none")]
    trace: Option<Vec<TraceEvent>>,
}

#[derive(Debug, Serialize)]
struct CountsJson {
    win: u64,
    lose: u64,
    draw: u64,
    max_depth: Option<u32>,
}

#[derive(Debug, Serialize)]
struct NodeRow {
    node: NodeId,
    outcome: &'static str,
    depth: Option<u32>,
    best_move: Option<NodeId>,
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
        (solve::retrograde(&graph, &rules), None)
    };
    Ok(respond(&graph, &rules, &solution, trace))
}

fn respond(
    graph: &Csr,
    rules: &Rules,
    solution: &Solution,
    trace: Option<Vec<TraceEvent>>,
) -> SolveResponse {
    let c = solution.counts();
    let best = solve::best_moves(graph, rules, solution);
    let rows = graph
        .nodes()
        .map(|u| NodeRow {
            node: u,
            outcome: solution.outcome(u).as_str(),
            depth: solution.depth(u).map(|d| d.plies()),
            best_move: best[u as usize],
        })
        .collect();
    SolveResponse {
        nodes: graph.node_count(),
        edges: graph.edge_count(),
        counts: CountsJson {
            win: c.win,
            lose: c.lose,
            draw: c.draw,
            max_depth: c.max_depth.map(|d| d.plies()),
        },
        solution: rows,
        trace,
    }
}

/// Reads a JSON graph (the body starts with `{`) or an edge list, refusing oversized graphs
/// before they are built.
fn parse(body: &[u8], misere: bool, limits: &Limits) -> Result<(Csr, Rules), ApiError> {
    let first = body.iter().find(|b| !b.is_ascii_whitespace());
    if first == Some(&b'{') {
        // Malformed JSON fails here too; the library parser below then names the problem.
        if let Ok(size) = serde_json::from_slice::<DeclaredSize>(body) {
            check_size(size.nodes, size.edges.0, limits)?;
        }
        let game =
            parse_json_graph(body, SOURCE).map_err(|e| ApiError::bad_request(e.to_string()))?;
        let rules = if misere && game.rules.convention() == Convention::Normal {
            Rules::misere()
                .with_verdicts(
                    game.graph.node_count(),
                    game.rules
                        .verdicts()
                        .iter()
                        .map(|&(u, o)| (u64::from(u), o)),
                )
                .map_err(|e| ApiError::bad_request(e.to_string()))?
        } else {
            game.rules
        };
        return Ok((game.graph, rules));
    }
    if let Ok(Some((n, m))) = edge_list_header(body) {
        check_size(n, m, limits)?;
    }
    let graph = parse_edge_list(body, SOURCE).map_err(|e| ApiError::bad_request(e.to_string()))?;
    let rules = if misere {
        Rules::misere()
    } else {
        Rules::normal()
    };
    Ok((graph, rules))
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

/// The size a JSON graph declares, read without building anything.
#[derive(Deserialize)]
struct DeclaredSize {
    nodes: u64,
    edges: Count,
}

/// The length of a JSON array, counted without storing its elements.
struct Count(u64);

impl<'de> Deserialize<'de> for Count {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Count, D::Error> {
        struct Counter;
        impl<'de> Visitor<'de> for Counter {
            type Value = Count;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("an array")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Count, A::Error> {
                let mut n = 0;
                while seq.next_element::<IgnoredAny>()?.is_some() {
                    n += 1;
                }
                Ok(Count(n))
            }
        }
        d.deserialize_seq(Counter)
    }
}
