//! `Graph`, `solve`, `load`, `grundy`: game graphs in, each a call of the library
//! (`GraphBuilder`, `io::open`, `solve::retrograde_auto`, `solve::grundy`).

use std::path::PathBuf;
use std::sync::Arc;

use numpy::{PyArray1, PyArray2, PyArrayMethods};
use pyo3::exceptions::{PyIndexError, PyTypeError, PyValueError};
use pyo3::prelude::*;

use zermelo::graph::{Csr, GraphBuilder, Rules};
use zermelo::io::{self, LoadOptions, Source};
use zermelo::solve;
use zermelo::NodeId;

use crate::arrays::{self, NodeIds};
use crate::errors;
use crate::solution::Solution;
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

#[pymethods]
impl Graph {
    #[new]
    #[pyo3(signature = (edges, nodes = None, *, misere = false, verdicts = None))]
    fn new(
        py: Python<'_>,
        edges: &Bound<'_, PyAny>,
        nodes: Option<i128>,
        misere: bool,
        verdicts: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Graph> {
        Graph::from_args(py, edges, nodes, misere, verdicts)
    }

    /// Number of positions.
    #[getter]
    fn node_count(&self) -> usize {
        self.data.csr.node_count()
    }

    /// Number of moves (multi-edges and self-loops counted).
    #[getter]
    fn edge_count(&self) -> u64 {
        self.data.csr.edge_count()
    }

    /// True under misère play (a position without moves is won).
    #[getter]
    fn misere(&self) -> bool {
        self.data.rules.convention() == zermelo::graph::Convention::Misere
    }

    /// The explicit verdicts as ``{node: outcome code}``.
    #[getter]
    fn verdicts(&self) -> Vec<(u32, i8)> {
        self.data
            .rules
            .verdicts()
            .iter()
            .map(|&(u, o)| (u, o as i8))
            .collect()
    }

    /// The input's name (a path, or ``<edges>``).
    #[getter]
    fn name(&self) -> &str {
        &self.data.name
    }

    /// The format it was read as: ``edges``, ``json``, ``two-player``, ``binary`` or ``array``.
    #[getter]
    fn format(&self) -> &'static str {
        self.data.format
    }

    /// The positions one move from ``node``, in input order.
    fn successors<'py>(&self, py: Python<'py>, node: i64) -> PyResult<Bound<'py, PyArray1<u32>>> {
        let u = self.node(node)?;
        Ok(PyArray1::from_slice(py, self.data.csr.successors(u)))
    }

    /// The positions with a move to ``node``.
    fn predecessors<'py>(&self, py: Python<'py>, node: i64) -> PyResult<Bound<'py, PyArray1<u32>>> {
        let u = self.node(node)?;
        Ok(PyArray1::from_slice(py, self.data.csr.predecessors(u)))
    }

    /// All moves as an ``(m, 2)`` ``uint32`` array (a copy), grouped by source.
    fn edges<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<u32>>> {
        let flat: Vec<u32> = self.data.csr.edges().flat_map(|(u, v)| [u, v]).collect();
        let a = PyArray1::from_vec(py, flat);
        Ok(a.reshape([self.data.csr.edge_count() as usize, 2])?
            .into_any()
            .cast_into()?)
    }

    /// Solves the game by retrograde analysis (GIL released; Ctrl-C interrupts).
    fn solve(&self, py: Python<'_>) -> PyResult<Solution> {
        Solution::solve(py, self.data.clone())
    }

    /// Sprague-Grundy values (``uint32``); :class:`CycleError` on a cyclic graph.
    fn grundy<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<u32>>> {
        grundy_of(py, &self.data)
    }

    fn __len__(&self) -> usize {
        self.data.csr.node_count()
    }

    fn __repr__(&self) -> String {
        let d = &self.data;
        let mut s = format!(
            "Graph(nodes={}, edges={}",
            d.csr.node_count(),
            d.csr.edge_count()
        );
        if self.misere() {
            s.push_str(", misere=True");
        }
        if !d.rules.verdicts().is_empty() {
            s.push_str(&format!(", verdicts={}", d.rules.verdicts().len()));
        }
        if d.format != "array" {
            s.push_str(&format!(", name={:?}, format={:?}", d.name, d.format));
        }
        s.push(')');
        s
    }
}

impl Graph {
    fn node(&self, node: i64) -> PyResult<NodeId> {
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

/// ``solve(edges, nodes=None, *, misere=False, verdicts=None)``: builds the graph and solves
/// it by retrograde analysis.
#[pyfunction]
#[pyo3(name = "solve", signature = (edges, nodes = None, *, misere = false, verdicts = None))]
pub fn solve_edges(
    py: Python<'_>,
    edges: &Bound<'_, PyAny>,
    nodes: Option<i128>,
    misere: bool,
    verdicts: Option<&Bound<'_, PyAny>>,
) -> PyResult<Solution> {
    if let Ok(g) = edges.cast::<Graph>() {
        if nodes.is_some() || misere || verdicts.is_some() {
            return Err(PyTypeError::new_err(
                "solve(graph) takes no other arguments: the graph has its rules",
            ));
        }
        return Solution::solve(py, g.get().data.clone());
    }
    let graph = Graph::from_args(py, edges, nodes, misere, verdicts)?;
    Solution::solve(py, graph.data)
}

/// ``load(path, *, misere=False, verdicts=None, max_memory=None)``: reads a game graph in any
/// format the command line reads (edge list, JSON, two-player, ``.zg``) through the library's
/// ``io::open``.
///
/// ``input`` is the format as the command line's ``--input``: ``auto`` (JSON or edge list by
/// name and contents, ``.zg`` by its magic number), ``edges``, ``json``, ``two-player`` (the
/// state graph: node ``2 p + i`` is position ``p`` with player ``i`` to move) or ``binary``.
#[pyfunction]
#[pyo3(signature = (path, *, input = "auto", misere = false, verdicts = None, max_memory = None))]
pub fn load(
    py: Python<'_>,
    path: PathBuf,
    input: &str,
    misere: bool,
    verdicts: Option<&Bound<'_, PyAny>>,
    max_memory: Option<u64>,
) -> PyResult<Graph> {
    let format = match input {
        "auto" => None,
        "edges" => Some(io::InputFormat::Edges),
        "json" => Some(io::InputFormat::Json),
        "two-player" => Some(io::InputFormat::TwoPlayer),
        "binary" => Some(io::InputFormat::Binary),
        other => {
            return Err(PyValueError::new_err(format!(
                "input = {other:?}: expected 'auto', 'edges', 'json', 'two-player' or 'binary'"
            )))
        }
    };
    // A verdicts file (`node outcome` lines) goes to the library's parser, as `--verdicts`;
    // a mapping or pairs are added after loading.
    let file = verdicts.and_then(|v| v.extract::<PathBuf>().ok());
    let extra = match (&file, verdicts) {
        (None, Some(v)) => arrays::verdicts(v)?,
        _ => Vec::new(),
    };
    let size = std::fs::metadata(&path).map_or(0, |m| m.len());
    let loaded = interruptible(py, size, move || {
        let text = match &file {
            Some(f) => Some((
                f.display().to_string(),
                std::fs::read(f).map_err(|e| io::ParseError::io(&f.display().to_string(), &e))?,
            )),
            None => None,
        };
        let mut options = LoadOptions {
            format,
            misere,
            verdicts: text
                .as_ref()
                .map(|(name, text)| io::Verdicts { name, text }),
            ..LoadOptions::default()
        };
        if let Some(bytes) = max_memory {
            options.memory = zermelo::memory::Limit::Bytes(bytes);
        }
        io::open(Source::Path(&path), &options)
    })?
    .map_err(errors::parse)?;
    let n = loaded.node_count();
    let rules = loaded
        .rules
        .combined(false, n, extra)
        .map_err(errors::rules)?;
    let format = match loaded.format {
        io::InputFormat::Edges => "edges",
        io::InputFormat::Json => "json",
        io::InputFormat::TwoPlayer => "two-player",
        io::InputFormat::Binary => "binary",
    };
    let name = loaded.name.clone();
    let csr = match loaded.graph {
        io::LoadedGraph::Full(g) => g,
        io::LoadedGraph::TwoPlayer(g) => g.states().clone(),
        io::LoadedGraph::Reverse(_) => unreachable!("io::open loads both rows by default"),
    };
    Ok(Graph {
        data: Arc::new(GraphData {
            csr,
            rules,
            name,
            format,
        }),
    })
}

fn grundy_of<'py>(py: Python<'py>, g: &GraphData) -> PyResult<Bound<'py, PyArray1<u32>>> {
    let values = py.detach(|| solve::grundy(&g.csr)).map_err(errors::cycle)?;
    let plain: Vec<u32> = values.into_iter().map(|v| v.0).collect();
    Ok(PyArray1::from_vec(py, plain))
}

/// ``grundy(edges, nodes=None)``: the Sprague-Grundy value of every position of an acyclic
/// graph (a ``Graph`` or edges), as ``uint32``.
#[pyfunction]
#[pyo3(signature = (edges, nodes = None))]
pub fn grundy<'py>(
    py: Python<'py>,
    edges: &Bound<'py, PyAny>,
    nodes: Option<i128>,
) -> PyResult<Bound<'py, PyArray1<u32>>> {
    let g = Graph::coerce(py, edges, nodes)?;
    grundy_of(py, &g)
}
