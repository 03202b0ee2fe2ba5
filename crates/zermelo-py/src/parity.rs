//! `zermelo.parity`: parity games from PGSolver files or arrays, solved by the library's
//! pipeline (`parity::solve_with`) and checked by its certificate verifier (`parity::verify`).

use std::path::PathBuf;
use std::sync::Arc;

use numpy::PyArray1;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;

use zermelo::{NodeId, Player};
use zermelo_parity::{
    self as parity, Arena as LibArena, ParitySolution as LibSolution, SolveOptions, Solver,
};

use crate::arrays;
use crate::errors;
use crate::graph_data::node_index;
use crate::wait::interruptible;

/// A parity game: a graph, an owner (0 = Even, 1 = Odd) and a priority per vertex; every
/// vertex has a successor. ``Arena(edges, owner, priority, start=None)``, or
/// :func:`zermelo.parity.load` for a PGSolver file.
#[pyclass(frozen, module = "zermelo.parity")]
pub struct Arena {
    /// Shared with its solutions.
    pub arena: Arc<LibArena>,
}

fn player(code: i128, i: usize, what: &str) -> PyResult<Player> {
    u64::try_from(code)
        .ok()
        .and_then(Player::from_index)
        .ok_or_else(|| {
            PyValueError::new_err(format!(
                "{what}[{i}] = {code}: expected 0 (Even) or 1 (Odd)"
            ))
        })
}

#[pymethods]
impl Arena {
    #[new]
    #[pyo3(signature = (edges, owner, priority, start = None))]
    fn new(
        py: Python<'_>,
        edges: &Bound<'_, PyAny>,
        owner: &Bound<'_, PyAny>,
        priority: &Bound<'_, PyAny>,
        start: Option<u32>,
    ) -> PyResult<Arena> {
        let owner_in = arrays::ints(owner, None, "owner")?;
        let priority_in = arrays::ints(priority, None, "priority")?;
        let (o, p) = (owner_in.values(), priority_in.values());
        let owners = (0..o.len())
            .map(|i| player(o.get(i), i, "owner"))
            .collect::<PyResult<Vec<_>>>()?;
        let priorities = (0..p.len())
            .map(|i| {
                u32::try_from(p.get(i)).map_err(|_| {
                    PyValueError::new_err(format!(
                        "priority[{i}] = {}: expected 0 <= p < 2^32",
                        p.get(i)
                    ))
                })
            })
            .collect::<PyResult<Vec<_>>>()?;
        let graph = crate::graph_data::Graph::from_args(
            py,
            edges,
            Some(owners.len() as i128),
            false,
            None,
        )?;
        let csr = Arc::try_unwrap(graph.data).map_or_else(|d| d.csr.clone(), |d| d.csr);
        let arena = LibArena::new(csr, owners, priorities)
            .and_then(|a| a.with_start(start))
            .map_err(errors::arena)?;
        Ok(Arena {
            arena: Arc::new(arena),
        })
    }

    /// Number of vertices.
    #[getter]
    fn vertex_count(&self) -> usize {
        self.arena.vertex_count()
    }

    /// Number of edges.
    #[getter]
    fn edge_count(&self) -> u64 {
        self.arena.edge_count()
    }

    /// The owner of every vertex (``int8``: 0 Even, 1 Odd).
    #[getter]
    fn owner<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i8>> {
        PyArray1::from_vec(
            py,
            self.arena
                .vertices()
                .map(|v| self.arena.owner(v).index() as i8)
                .collect(),
        )
    }

    /// The priority of every vertex (``uint32``).
    #[getter]
    fn priority<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<u32>> {
        PyArray1::from_slice(py, self.arena.priorities())
    }

    /// The start vertex, if the game names one.
    #[getter]
    fn start(&self) -> Option<u32> {
        self.arena.start()
    }

    /// Solves the game (see :func:`zermelo.parity.solve`).
    #[pyo3(signature = (*, solver = None, scc = false))]
    fn solve(&self, py: Python<'_>, solver: Option<&str>, scc: bool) -> PyResult<ParitySolution> {
        solve_arena(py, self.arena.clone(), solver, scc)
    }

    fn __len__(&self) -> usize {
        self.arena.vertex_count()
    }

    fn __repr__(&self) -> String {
        format!(
            "Arena(vertices={}, edges={}, max_priority={})",
            self.arena.vertex_count(),
            self.arena.edge_count(),
            self.arena.max_priority()
        )
    }
}

/// Winning regions and positional winning strategies.
#[pyclass(frozen, module = "zermelo.parity")]
pub struct ParitySolution {
    arena: Arc<LibArena>,
    solution: LibSolution,
    solver: &'static str,
}

#[pymethods]
impl ParitySolution {
    /// The winner of every vertex (``int8``: 0 Even, 1 Odd).
    #[getter]
    fn winner<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i8>> {
        let n = self.solution.len() as NodeId;
        PyArray1::from_vec(
            py,
            (0..n)
                .map(|v| self.solution.winner(v).index() as i8)
                .collect(),
        )
    }

    /// The winner's move at every vertex it owns (``int64``), -1 elsewhere.
    #[getter]
    fn strategy<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i64>> {
        let n = self.solution.len() as NodeId;
        PyArray1::from_vec(
            py,
            (0..n)
                .map(|v| self.solution.strategy(v).map_or(-1, i64::from))
                .collect(),
        )
    }

    /// The arena solved.
    #[getter]
    fn arena(&self) -> Arena {
        Arena {
            arena: self.arena.clone(),
        }
    }

    /// ``(vertices won by Even, vertices won by Odd)``.
    #[getter]
    fn counts(&self) -> (usize, usize) {
        let [even, odd] = self.solution.counts();
        (even, odd)
    }

    /// Checks the certificate against the arena (``VerifyError`` if it fails).
    fn verify(&self, py: Python<'_>) -> PyResult<()> {
        py.detach(|| parity::verify(&self.arena, &self.solution))
            .map_err(errors::parity_violation)
    }

    fn __len__(&self) -> usize {
        self.solution.len()
    }

    fn __repr__(&self) -> String {
        let [even, odd] = self.solution.counts();
        format!(
            "ParitySolution(vertices={}, even={even}, odd={odd}, solver={:?})",
            self.solution.len(),
            self.solver
        )
    }
}

fn solve_arena(
    py: Python<'_>,
    arena: Arc<LibArena>,
    solver: Option<&str>,
    scc: bool,
) -> PyResult<ParitySolution> {
    let chosen = match solver {
        None => Solver::DEFAULT,
        Some(name) => Solver::from_name(name).ok_or_else(|| {
            let known: Vec<&str> = Solver::names().collect();
            PyValueError::new_err(format!(
                "unknown parity solver {name:?}: expected one of {}",
                known.join(", ")
            ))
        })?,
    };
    let options = SolveOptions {
        scc,
        ..SolveOptions::default()
    };
    let work = arena.vertex_count() as u64 + arena.edge_count();
    let a = arena.clone();
    // Normalised: moves only where the winner owns the vertex, as the CLI writes them.
    let solution = interruptible(py, work, move || {
        parity::solve_with(&a, chosen, options).normalised(&a)
    })?;
    Ok(ParitySolution {
        arena,
        solution,
        solver: chosen.name(),
    })
}

/// ``parity.load(path)``: a PGSolver file (``parity N;`` + one line per vertex) or a SYNTCOMP
/// extended-HOA automaton (``HOA:`` first), read as ``zermelo parity`` reads them.
#[pyfunction]
#[pyo3(name = "parity_load")]
pub fn load(py: Python<'_>, path: PathBuf) -> PyResult<Arena> {
    let name = path.display().to_string();
    let arena = py
        .detach(|| {
            let bytes = std::fs::read(&path).map_err(|e| zermelo::io::ParseError::io(&name, &e))?;
            zermelo_parity::io::parse_game(&bytes, &name)
        })
        .map_err(errors::parse)?;
    Ok(Arena {
        arena: Arc::new(arena),
    })
}

/// An `Arena`, or a path to a PGSolver file.
fn arena_of(py: Python<'_>, game: &Bound<'_, PyAny>) -> PyResult<Arc<LibArena>> {
    if let Ok(a) = game.cast::<Arena>() {
        return Ok(a.get().arena.clone());
    }
    match game.extract::<PathBuf>() {
        Ok(path) => Ok(load(py, path)?.arena),
        Err(_) => Err(PyTypeError::new_err(
            "a parity game is a zermelo.parity.Arena or the path of a PGSolver or extended-HOA file",
        )),
    }
}

/// ``parity.solve(game, *, solver=None, scc=False)``: ``None`` is the library's default
/// (:data:`zermelo.parity.DEFAULT_SOLVER`).
#[pyfunction]
#[pyo3(name = "parity_solve", signature = (game, *, solver = None, scc = false))]
pub fn solve(
    py: Python<'_>,
    game: &Bound<'_, PyAny>,
    solver: Option<&str>,
    scc: bool,
) -> PyResult<ParitySolution> {
    solve_arena(py, arena_of(py, game)?, solver, scc)
}

/// ``parity.verify(game, winner, strategy)``: checks a claimed solution (arrays as
/// :attr:`ParitySolution.winner` / :attr:`ParitySolution.strategy`).
#[pyfunction]
#[pyo3(name = "parity_verify")]
pub fn verify(
    py: Python<'_>,
    game: &Bound<'_, PyAny>,
    winner: &Bound<'_, PyAny>,
    strategy: &Bound<'_, PyAny>,
) -> PyResult<()> {
    let arena = arena_of(py, game)?;
    let w_in = arrays::ints(winner, None, "winner")?;
    let s_in = arrays::ints(strategy, None, "strategy")?;
    let (w, s) = (w_in.values(), s_in.values());
    if w.len() != s.len() {
        return Err(PyValueError::new_err(format!(
            "winner has {} entries, strategy {}",
            w.len(),
            s.len()
        )));
    }
    let mut claim = LibSolution::new(w.len());
    for i in 0..w.len() {
        let who = player(w.get(i), i, "winner")?;
        let to = match s.get(i) {
            -1 => None,
            m => Some(
                node_index(i64::try_from(m).unwrap_or(-2), u32::MAX as usize).map_err(|_| {
                    PyValueError::new_err(format!("strategy[{i}] = {m}: expected a vertex or -1"))
                })?,
            ),
        };
        claim.set(i as NodeId, who, to);
    }
    py.detach(|| parity::verify(&arena, &claim))
        .map_err(errors::parity_violation)
}

/// The parity solvers' names as the library's registry lists them (the command line's
/// ``--solver`` choices, ``auto`` last), and the default.
pub fn add_registry(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let names: Vec<&'static str> = Solver::names().collect();
    m.add("parity_solvers", pyo3::types::PyTuple::new(m.py(), names)?)?;
    m.add("parity_default_solver", Solver::DEFAULT.name())?;
    Ok(())
}
