//! The `Graph` type and how one is made: from an edge array or pairs (with `nodes`, misère
//! play and verdicts), or shared by a solution; `node_index` checks a Python node id. Its
//! Python methods are in `graph.rs`, which solves it into a `Solution` (`solution.rs`): both
//! stand on this file.

use std::sync::Arc;

use pyo3::exceptions::{PyIndexError, PyValueError};
use pyo3::prelude::*;

use zermelo::graph::{Csr, GraphBuilder, Rules};
use zermelo::NodeId;

use crate::arrays::{self, NodeIds};
use crate::errors;
use crate::wait::interruptible;

/// The shared part of a graph: rows, rules, where it came from.
pub struct GraphData {
    /// Forward and reverse rows.
    pub csr: Csr,
    /// Convention and verdicts.
    pub rules: Rules,
    /// The input's name.
    pub name: String,
    /// The format it was read as.
    pub format: &'static str,
}

/// A validated game graph and its terminal rules (normal or misère play, explicit verdicts).
///
/// Made by ``Graph(edges, nodes=None, *, misere=False, verdicts=None)`` from an ``(m, 2)``
/// integer array or a sequence of ``(u, v)`` pairs, or by :func:`zermelo.load` from a file.
#[pyclass(frozen, module = "zermelo")]
pub struct Graph {
    /// Shared with the solutions of the graph.
    pub data: Arc<GraphData>,
}

/// The node count: given, or one more than the largest id.
fn node_count(ids: NodeIds<'_>, nodes: Option<u64>) -> u64 {
    match nodes {
        Some(n) => n,
        None => ids.max().map_or(0, |m| m + 1),
    }
}

/// The edges copied into a builder (the one copy of the edges; the CSR build follows).
fn collect(ids: NodeIds<'_>, n: u64) -> Result<GraphBuilder, zermelo::graph::GraphError> {
    let mut b = GraphBuilder::new(n)?;
    let m = ids.len() / 2;
    b.reserve(m);
    for i in 0..m {
        b.add_edge(ids.get(2 * i), ids.get(2 * i + 1))?;
    }
    Ok(b)
}

fn nodes_arg(nodes: Option<i128>) -> PyResult<Option<u64>> {
    nodes
        .map(|n| {
            u64::try_from(n)
                .map_err(|_| PyValueError::new_err(format!("nodes = {n}: must be >= 0")))
        })
        .transpose()
}

impl Graph {
    /// A graph from Python arguments (see the class docs).
    pub fn from_args(
        py: Python<'_>,
        edges: &Bound<'_, PyAny>,
        nodes: Option<i128>,
        misere: bool,
        verdicts: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Graph> {
        let nodes = nodes_arg(nodes)?;
        let input = arrays::ints(edges, Some(2), "edges")?;
        let values = input.values();
        let ids = arrays::check_ids(&values, "edges")?;
        let n = node_count(ids, nodes);
        if n > zermelo::graph::MAX_NODES {
            return Err(errors::graph(zermelo::graph::GraphError::TooManyNodes(n)));
        }
        // The memory check the library's loaders make, before anything sized by the input.
        let m = (ids.len() / 2) as u64;
        zermelo::memory::Limit::Available
            .check(zermelo::memory::estimate_in_memory(n, m, 0))
            .map_err(errors::too_big)?;
        let builder = py.detach(|| collect(ids, n)).map_err(errors::graph)?;
        // The counting sort is the long part (seconds at 10^7 edges): interruptible.
        let csr = interruptible(py, m, move || builder.build())?.map_err(errors::graph)?;
        let extra = verdicts
            .map(arrays::verdicts)
            .transpose()?
            .unwrap_or_default();
        let rules = Rules::normal()
            .combined(misere, csr.node_count(), extra)
            .map_err(errors::rules)?;
        Ok(Graph {
            data: Arc::new(GraphData {
                csr,
                rules,
                name: "<edges>".into(),
                format: "array",
            }),
        })
    }

    /// The graph of any argument that stands for one: a `Graph` or edges.
    pub fn coerce(
        py: Python<'_>,
        obj: &Bound<'_, PyAny>,
        nodes: Option<i128>,
    ) -> PyResult<Arc<GraphData>> {
        match obj.cast::<Graph>() {
            Ok(g) => Ok(g.get().data.clone()),
            Err(_) => Ok(Graph::from_args(py, obj, nodes, false, None)?.data),
        }
    }
}

impl Graph {
    /// `node` as an id of this graph (an IndexError past its end).
    pub fn node(&self, node: i64) -> PyResult<NodeId> {
        node_index(node, self.data.csr.node_count())
    }
}

/// `node` as an id of a graph of `n` nodes.
pub fn node_index(node: i64, n: usize) -> PyResult<NodeId> {
    if node < 0 || node as u64 >= n as u64 {
        return Err(PyIndexError::new_err(format!(
            "node {node} is not in the graph (ids 0..{n})"
        )));
    }
    Ok(node as NodeId)
}
