//! `Graph`, `solve`, `load`, `grundy`: game graphs in, each a call of the library
//! (`GraphBuilder`, `io::open`, `solve::retrograde_auto`, `solve::grundy`).

use std::path::PathBuf;
use std::sync::Arc;

use numpy::{PyArray1, PyArray2, PyArrayMethods};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;

use zermelo::io::{self, LoadOptions, Source};

use crate::arrays;
use crate::errors;
use crate::graph_data::{Graph, GraphData};
use crate::grundy::LoopyGrundy;
use crate::solution::Solution;
use crate::wait::interruptible;

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
        crate::grundy::grundy_of(py, &self.data)
    }

    /// Generalized Sprague-Grundy values (Smith; Fraenkel-Yesha) of every position, cycles
    /// allowed: see :func:`zermelo.loopy_grundy`.
    fn loopy_grundy(&self, py: Python<'_>) -> PyResult<LoopyGrundy> {
        crate::grundy::loopy_of(py, &self.data)
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
