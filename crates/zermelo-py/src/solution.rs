//! `Solution`, `Counts`, `Line`, `verify`: solutions out, as numpy views of the library's
//! columns, with the library's strategies (`solve::best_move`, `solve::principal_line`) and
//! certificate verifier (`solve::verify`).

use std::sync::{Arc, OnceLock};

use numpy::PyArray1;
use pyo3::exceptions::{PyIndexError, PyValueError};
use pyo3::prelude::*;

use zermelo::solve::{self, LineEnd};
use zermelo::{NodeId, Outcome};

use crate::arrays;
use crate::errors;
use crate::graph_data::{node_index, Graph, GraphData};
use crate::wait::interruptible;

/// How many positions have each outcome, and the largest depth.
#[pyclass(frozen, eq, get_all, module = "zermelo")]
#[derive(PartialEq, Eq, Clone, Copy)]
pub struct Counts {
    /// Positions won for the player to move.
    pub win: u64,
    /// Positions lost for the player to move.
    pub lose: u64,
    /// Drawn positions.
    pub draw: u64,
    /// The largest depth of a decided position (``None`` if all are draws).
    pub max_depth: Option<u32>,
}

#[pymethods]
impl Counts {
    fn __repr__(&self) -> String {
        let max = self.max_depth.map_or("None".into(), |d| d.to_string());
        format!(
            "Counts(win={}, lose={}, draw={}, max_depth={max})",
            self.win, self.lose, self.draw
        )
    }
}

impl From<solve::Counts> for Counts {
    fn from(c: solve::Counts) -> Counts {
        Counts {
            win: c.win,
            lose: c.lose,
            draw: c.draw,
            max_depth: c.max_depth.map(|d| d.0),
        }
    }
}

/// Optimal play from a position: the positions visited and, for a draw, where it repeats.
#[pyclass(frozen, get_all, module = "zermelo")]
pub struct Line {
    /// The positions, the start first.
    pub nodes: Vec<u32>,
    /// For a line that cycles (a draw): the index in ``nodes`` that the last move returns to;
    /// ``None`` when the line ends at a terminal.
    pub repeats_from: Option<usize>,
}

#[pymethods]
impl Line {
    fn __len__(&self) -> usize {
        self.nodes.len()
    }

    fn __iter__(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        Ok(self
            .nodes
            .clone()
            .into_pyobject(py)?
            .try_iter()?
            .into_any()
            .unbind())
    }

    fn __getitem__(&self, i: isize) -> PyResult<u32> {
        let n = self.nodes.len() as isize;
        let j = if i < 0 { i + n } else { i };
        if !(0..n).contains(&j) {
            return Err(PyIndexError::new_err("line index out of range"));
        }
        Ok(self.nodes[j as usize])
    }

    fn __repr__(&self) -> String {
        let nodes = self
            .nodes
            .iter()
            .map(u32::to_string)
            .collect::<Vec<_>>()
            .join(" -> ");
        match self.repeats_from {
            Some(i) => format!("Line({nodes} -> {} ...)", self.nodes[i]),
            None => format!("Line({nodes})"),
        }
    }
}

/// A solved game: an outcome and a depth for every position, best moves and lines derived on
/// demand. Arrays are read-only numpy views of the library's own memory.
#[pyclass(frozen, module = "zermelo")]
pub struct Solution {
    /// The graph solved.
    pub graph: Arc<GraphData>,
    /// Outcomes and depths.
    pub solution: zermelo::Solution,
    best: OnceLock<Vec<i64>>,
}

impl Solution {
    /// Solves `graph` (GIL released, interruptible).
    pub fn solve(py: Python<'_>, graph: Arc<GraphData>) -> PyResult<Solution> {
        let work = graph.csr.node_count() as u64 + graph.csr.edge_count();
        let g = graph.clone();
        let solution = interruptible(py, work, move || solve::retrograde_auto(&g.csr, &g.rules))?;
        Ok(Solution {
            graph,
            solution,
            best: OnceLock::new(),
        })
    }

    /// A solution already computed for `graph`.
    pub fn from_parts(graph: Arc<GraphData>, solution: zermelo::Solution) -> Solution {
        Solution {
            graph,
            solution,
            best: OnceLock::new(),
        }
    }

    fn node(&self, node: i64) -> PyResult<NodeId> {
        node_index(node, self.solution.len())
    }

    /// Best moves, computed once. Not in `get_or_init`: the computation releases the GIL, and
    /// a second thread blocked in `get_or_init` while holding the GIL would deadlock with it.
    fn best_moves(&self, py: Python<'_>) -> &[i64] {
        if let Some(moves) = self.best.get() {
            return moves;
        }
        let g = &self.graph;
        let moves: Vec<i64> = py.detach(|| {
            g.csr
                .nodes()
                .map(|u| {
                    solve::best_move(&g.csr, &g.rules, &self.solution, u).map_or(-1, i64::from)
                })
                .collect()
        });
        // Another thread may have finished first: its moves are the same.
        let _ = self.best.set(moves);
        self.best.get().expect("set just above")
    }
}

#[pymethods]
impl Solution {
    /// The outcome of every position for the player to move: ``int8`` codes ``WIN`` (0),
    /// ``LOSE`` (1), ``DRAW`` (2). Read-only, shares memory with the solution.
    #[getter]
    fn outcome<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyArray1<i8>>> {
        arrays::outcome_view(slf.get().solution.outcomes(), slf.clone().into_any())
    }

    /// Plies to the end under optimal play (fast win, slow loss), -1 for a draw. ``int32``
    /// sharing memory with the solution (``int64`` copy if a depth exceeds 2^31 - 1).
    #[getter]
    fn depth<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
        let column = slf.get().solution.depth_column();
        match arrays::depth_view(column, slf.clone().into_any())? {
            Some(a) => Ok(a.into_any()),
            None => {
                let wide: Vec<i64> = column
                    .iter()
                    .map(|&d| if d == u32::MAX { -1 } else { i64::from(d) })
                    .collect();
                Ok(PyArray1::from_vec(slf.py(), wide).into_any())
            }
        }
    }

    /// The optimal move of every position (``int64``, -1 at terminals): a losing child of
    /// least depth for a WIN, a child of greatest depth for a LOSE, a drawn child for a DRAW,
    /// ties to the lowest id. Computed once, on first use.
    #[getter]
    fn best_move<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyArray1<i64>>> {
        let moves = slf.get().best_moves(slf.py());
        arrays::i64_view(moves, slf.clone().into_any())
    }

    /// Positions per outcome and the largest depth.
    #[getter]
    fn counts(&self) -> Counts {
        self.solution.counts().into()
    }

    /// The graph this solves.
    #[getter]
    fn graph(&self) -> Graph {
        Graph {
            data: self.graph.clone(),
        }
    }

    /// Optimal play from ``node`` until a terminal, or until a position repeats (a draw).
    fn line(&self, py: Python<'_>, node: i64) -> PyResult<Line> {
        let u = self.node(node)?;
        let g = &self.graph;
        let line = py.detach(|| solve::principal_line(&g.csr, &g.rules, &self.solution, u));
        Ok(Line {
            nodes: line.nodes,
            repeats_from: match line.end {
                LineEnd::Terminal => None,
                LineEnd::Repeats(i) => Some(i),
            },
        })
    }

    /// Checks this solution (outcomes, depths and best moves) against ``graph`` (by default
    /// the graph it solves) with the library's certificate verifier; :class:`VerifyError`
    /// names the first position that breaks a rule.
    #[pyo3(signature = (graph = None))]
    fn verify(&self, py: Python<'_>, graph: Option<&Bound<'_, PyAny>>) -> PyResult<()> {
        let g = match graph {
            Some(g) => Graph::coerce(py, g, None)?,
            None => self.graph.clone(),
        };
        let moves: Vec<Option<NodeId>> = self
            .best_moves(py)
            .iter()
            .map(|&m| (m >= 0).then_some(m as NodeId))
            .collect();
        py.detach(|| solve::verify(&g.csr, &g.rules, &self.solution, Some(&moves)))
            .map_err(errors::violation)
    }

    fn __len__(&self) -> usize {
        self.solution.len()
    }

    fn __repr__(&self) -> String {
        let c = self.solution.counts();
        let max = c.max_depth.map_or("None".into(), |d| d.to_string());
        format!(
            "Solution(nodes={}, win={}, lose={}, draw={}, max_depth={max})",
            self.solution.len(),
            c.win,
            c.lose,
            c.draw
        )
    }
}

/// ``verify(graph, outcome, depth, best_move=None)``: checks a claimed solution (arrays, e.g.
/// from another solver) with the library's certificate verifier.
#[pyfunction]
#[pyo3(signature = (graph, outcome, depth, best_move = None))]
pub fn verify(
    py: Python<'_>,
    graph: &Bound<'_, PyAny>,
    outcome: &Bound<'_, PyAny>,
    depth: &Bound<'_, PyAny>,
    best_move: Option<&Bound<'_, PyAny>>,
) -> PyResult<()> {
    let g = Graph::coerce(py, graph, None)?;
    let outcome_in = arrays::ints(outcome, None, "outcome")?;
    let depth_in = arrays::ints(depth, None, "depth")?;
    let (o, d) = (outcome_in.values(), depth_in.values());
    if o.len() != d.len() {
        return Err(PyValueError::new_err(format!(
            "outcome has {} entries, depth {}",
            o.len(),
            d.len()
        )));
    }
    let mut outcomes = Vec::with_capacity(o.len());
    let mut depths = Vec::with_capacity(o.len());
    for i in 0..o.len() {
        let code = i64::try_from(o.get(i)).unwrap_or(-1);
        let out = arrays::outcome_code(code).ok_or_else(|| {
            PyValueError::new_err(format!("outcome[{i}] = {code}: expected WIN, LOSE or DRAW"))
        })?;
        let dep = d.get(i);
        let ok = match out {
            Outcome::Draw => dep == -1,
            _ => (0..i128::from(u32::MAX)).contains(&dep),
        };
        if !ok {
            return Err(PyValueError::new_err(format!(
                "depth[{i}] = {dep}: a draw has depth -1, a win or loss a depth >= 0"
            )));
        }
        outcomes.push(out);
        depths.push(if dep < 0 { u32::MAX } else { dep as u32 });
    }
    let claimed = zermelo::Solution::from_depths(outcomes, depths);
    let moves = best_move
        .map(|b| -> PyResult<Vec<Option<NodeId>>> {
            let input = arrays::ints(b, None, "best_move")?;
            let v = input.values();
            (0..v.len())
                .map(|i| match v.get(i) {
                    -1 => Ok(None),
                    m if (0..i128::from(u32::MAX)).contains(&m) => Ok(Some(m as NodeId)),
                    m => Err(PyValueError::new_err(format!(
                        "best_move[{i}] = {m}: expected a node id or -1"
                    ))),
                })
                .collect()
        })
        .transpose()?;
    py.detach(|| solve::verify(&g.csr, &g.rules, &claimed, moves.as_deref()))
        .map_err(errors::violation)
}
