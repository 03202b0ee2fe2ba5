//! Request limits: what the server refuses with 413 before doing the work.

/// Upper bounds on one request. A request over any of them is answered 413 with a message
/// naming the limit, before the graph is built.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Most nodes a graph may declare.
    pub max_nodes: u64,
    /// Most edges a graph may have.
    pub max_edges: u64,
    /// Most bytes in a request body.
    pub max_body: usize,
    /// Most events a `?trace=true` answer may hold.
    pub max_trace_events: usize,
    /// Most FENs in one `/api/tb/batch` request.
    pub max_batch: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_nodes: 100_000,
            max_edges: 1_000_000,
            max_body: 16 << 20,
            max_trace_events: 10_000,
            max_batch: 1_000,
        }
    }
}
