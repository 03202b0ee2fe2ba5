//! `grundy` and `loopy_grundy`: Sprague-Grundy values of acyclic graphs (``uint32``), and the
//! generalized values of graphs with cycles (finite values and ``inf{K}``), as `zermelo grundy`
//! gives them.

use numpy::PyArray1;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use zermelo::solve::{self, LoopyValue, LoopyValues};
use zermelo::NodeId;

use crate::errors;
use crate::graph_data::{node_index, Graph, GraphData};

/// The acyclic Sprague-Grundy values of a graph; a cycle is a :class:`CycleError`, misère play
/// or verdicts a ValueError.
pub fn grundy_of<'py>(py: Python<'py>, g: &GraphData) -> PyResult<Bound<'py, PyArray1<u32>>> {
    solve::normal_play(&g.rules).map_err(|e| PyValueError::new_err(e.to_string()))?;
    let values = py.detach(|| solve::grundy(&g.csr)).map_err(errors::cycle)?;
    let plain: Vec<u32> = values.into_iter().map(|v| v.0).collect();
    Ok(PyArray1::from_vec(py, plain))
}

/// ``grundy(edges, nodes=None)``: the Sprague-Grundy value of every position of an acyclic
/// graph (a ``Graph`` or edges), as ``uint32``; on a graph with cycles see
/// :func:`zermelo.loopy_grundy`.
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

/// Generalized Sprague-Grundy values of every position of a graph that may have cycles.
///
/// A position's value is finite (it behaves in sums as a Nim heap of that size) or infinite,
/// ``inf{K}`` with ``K`` the finite values among its options: the player to move wins when 0 is
/// in ``K`` and otherwise draws (infinite play). Values are the ones ``zermelo grundy`` prints.
#[pyclass(frozen, module = "zermelo")]
pub struct LoopyGrundy {
    values: LoopyValues,
}

impl LoopyGrundy {
    fn value(&self, node: i64) -> PyResult<LoopyValue<'_>> {
        Ok(self.values.get(node_index(node, self.values.len())?))
    }
}

#[pymethods]
impl LoopyGrundy {
    /// The finite value of every position, ``-1`` where it is infinite (``int64``).
    #[getter]
    fn finite<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i64>> {
        let values: Vec<i64> = (0..self.values.len() as NodeId)
            .map(|u| self.values.get(u).finite().map_or(-1, |n| i64::from(n.0)))
            .collect();
        PyArray1::from_vec(py, values)
    }

    /// WIN, LOSE or DRAW for the player to move in the game alone (``int8``).
    #[getter]
    fn outcome<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i8>> {
        let outcomes: Vec<i8> = (0..self.values.len() as NodeId)
            .map(|u| self.values.get(u).outcome() as i8)
            .collect();
        PyArray1::from_vec(py, outcomes)
    }

    /// Whether any position has an infinite value.
    #[getter]
    fn has_infinite(&self) -> bool {
        self.values.has_infinite()
    }

    /// ``K`` of a position valued ``inf{K}`` (sorted), ``None`` for a finite value.
    fn infinite_options(&self, node: i64) -> PyResult<Option<Vec<u32>>> {
        Ok(match self.value(node)? {
            LoopyValue::Finite(_) => None,
            LoopyValue::Infinite(k) => Some(k.to_vec()),
        })
    }

    /// The value of a position as ``zermelo grundy`` writes it: ``3``, ``inf{0,2}``.
    fn text(&self, node: i64) -> PyResult<String> {
        Ok(self.value(node)?.to_string())
    }

    fn __len__(&self) -> usize {
        self.values.len()
    }

    fn __repr__(&self) -> String {
        let infinite = (0..self.values.len() as NodeId)
            .filter(|&u| self.values.get(u).finite().is_none())
            .count();
        format!(
            "LoopyGrundy(nodes={}, infinite={infinite})",
            self.values.len()
        )
    }
}

/// The loopy values of a graph (a ValueError under misère play or with verdicts).
pub fn loopy_of(py: Python<'_>, g: &GraphData) -> PyResult<LoopyGrundy> {
    let values = py
        .detach(|| solve::grundy_values(&g.csr, &g.rules))
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    Ok(LoopyGrundy { values })
}

/// ``loopy_grundy(edges, nodes=None)``: generalized Sprague-Grundy values of every position of
/// a graph (a ``Graph`` or edges) that may have cycles (:class:`LoopyGrundy`).
#[pyfunction]
#[pyo3(signature = (edges, nodes = None))]
pub fn loopy_grundy(
    py: Python<'_>,
    edges: &Bound<'_, PyAny>,
    nodes: Option<i128>,
) -> PyResult<LoopyGrundy> {
    let g = Graph::coerce(py, edges, nodes)?;
    loopy_of(py, &g)
}
