//! `solve_game(game, start)`: a game written in Python (``moves(state)``, optionally
//! ``terminal_value(state)``) explored breadth-first by the library (`game::explore_limited`)
//! and solved by retrograde analysis; states are any hashable Python values.

use std::cell::RefCell;
use std::hash::{Hash, Hasher};
use std::sync::{Arc, OnceLock};

use pyo3::exceptions::{PyKeyError, PyTypeError};
use pyo3::prelude::*;

use zermelo::game::{explore_limited, Game, Solved};
use zermelo::graph::{Convention, MAX_NODES};
use zermelo::Outcome;

use crate::arrays;
use crate::errors;
use crate::graph_data::GraphData;
use crate::solution::{Counts, Solution};

/// A Python state with its hash computed once. Equality asks Python (`==`) only when hashes
/// match, as a `dict` does.
#[derive(Debug)]
pub struct State {
    hash: isize,
    obj: Py<PyAny>,
}

impl State {
    fn new(obj: &Bound<'_, PyAny>) -> PyResult<State> {
        Ok(State {
            hash: obj
                .hash()
                .map_err(|e| PyTypeError::new_err(format!("game states must be hashable: {e}")))?,
            obj: obj.clone().unbind(),
        })
    }
}

impl Clone for State {
    fn clone(&self) -> State {
        State {
            hash: self.hash,
            obj: Python::attach(|py| self.obj.clone_ref(py)),
        }
    }
}

impl PartialEq for State {
    fn eq(&self, other: &State) -> bool {
        self.hash == other.hash
            && (self.obj.is(&other.obj)
                || Python::attach(|py| self.obj.bind(py).eq(other.obj.bind(py)).unwrap_or(false)))
    }
}

impl Eq for State {}

impl Hash for State {
    fn hash<H: Hasher>(&self, h: &mut H) {
        self.hash.hash(h);
    }
}

/// Check for Ctrl-C every this many states.
const SIGNAL_EVERY: u64 = 4096;

/// The Python game behind the library's `Game` trait. A Python exception stops the
/// exploration: it is kept, later calls return nothing, and `solve_game` raises it.
struct PyGame<'py> {
    moves: Bound<'py, PyAny>,
    terminal: Option<Bound<'py, PyAny>>,
    convention: Convention,
    error: RefCell<Option<PyErr>>,
    calls: std::cell::Cell<u64>,
}

impl PyGame<'_> {
    fn fail(&self, e: PyErr) {
        self.error.borrow_mut().get_or_insert(e);
    }

    fn failed(&self) -> bool {
        self.error.borrow().is_some()
    }

    fn children(&self, state: &State, out: &mut Vec<State>) -> PyResult<()> {
        let n = self.calls.get() + 1;
        self.calls.set(n);
        if n % SIGNAL_EVERY == 0 {
            self.moves.py().check_signals()?;
        }
        let py = self.moves.py();
        let result = self.moves.call1((state.obj.bind(py),))?;
        for child in result
            .try_iter()
            .map_err(|_| PyTypeError::new_err("moves(state) must return an iterable of states"))?
        {
            out.push(State::new(&child?)?);
        }
        Ok(())
    }

    fn verdict_of(&self, state: &State) -> PyResult<Option<Outcome>> {
        let Some(f) = &self.terminal else {
            return Ok(None);
        };
        let v = f.call1((state.obj.bind(f.py()),))?;
        if v.is_none() {
            return Ok(None);
        }
        arrays::outcome(&v).map(Some)
    }
}

impl Game for PyGame<'_> {
    type Position = State;

    fn moves(&self, position: &State, out: &mut Vec<State>) {
        if self.failed() {
            return;
        }
        if let Err(e) = self.children(position, out) {
            out.clear();
            self.fail(e);
        }
    }

    fn verdict(&self, position: &State) -> Option<Outcome> {
        if self.failed() {
            return None;
        }
        self.verdict_of(position).unwrap_or_else(|e| {
            self.fail(e);
            None
        })
    }

    fn convention(&self) -> Convention {
        self.convention
    }
}

/// A game written in Python, explored and solved: query it by state.
#[pyclass(frozen, module = "zermelo")]
pub struct GameSolution {
    solved: Solved<State>,
    solution: OnceLock<Py<Solution>>,
}

impl GameSolution {
    fn id(&self, state: &Bound<'_, PyAny>) -> PyResult<u32> {
        self.solved
            .explored()
            .id(&State::new(state)?)
            .ok_or_else(|| {
                PyKeyError::new_err(format!(
                    "state {} was not reached from the start",
                    repr(state)
                ))
            })
    }
}

fn repr(obj: &Bound<'_, PyAny>) -> String {
    obj.repr()
        .map(|r| r.to_string())
        .unwrap_or_else(|_| "?".into())
}

#[pymethods]
impl GameSolution {
    /// The outcome code (``WIN``, ``LOSE``, ``DRAW``) of ``state`` for the player to move;
    /// ``KeyError`` if it was not reached.
    fn outcome(&self, state: &Bound<'_, PyAny>) -> PyResult<i8> {
        let u = self.id(state)?;
        Ok(self.solved.solution().outcome(u) as i8)
    }

    /// Plies to the end under optimal play, -1 for a draw.
    fn depth(&self, state: &Bound<'_, PyAny>) -> PyResult<i64> {
        let u = self.id(state)?;
        Ok(self
            .solved
            .solution()
            .depth(u)
            .map_or(-1, |d| i64::from(d.0)))
    }

    /// The optimal move from ``state`` (a state), ``None`` at a terminal.
    fn best_move(&self, py: Python<'_>, state: &Bound<'_, PyAny>) -> PyResult<Option<Py<PyAny>>> {
        self.id(state)?;
        Ok(self
            .solved
            .best_move(&State::new(state)?)
            .map(|s| s.obj.clone_ref(py)))
    }

    /// Optimal play from ``state``: the states visited until a terminal or a repetition.
    fn line(&self, py: Python<'_>, state: &Bound<'_, PyAny>) -> PyResult<Vec<Py<PyAny>>> {
        self.id(state)?;
        let line = self
            .solved
            .principal_line(&State::new(state)?)
            .expect("the state was reached");
        Ok(line.positions.iter().map(|s| s.obj.clone_ref(py)).collect())
    }

    /// The explored states; state ``i`` is node ``i`` of :attr:`solution`.
    #[getter]
    fn states(&self, py: Python<'_>) -> Vec<Py<PyAny>> {
        self.solved
            .explored()
            .positions()
            .iter()
            .map(|s| s.obj.clone_ref(py))
            .collect()
    }

    /// The node id of ``state`` in :attr:`solution` (breadth-first order, the start is 0).
    fn index(&self, state: &Bound<'_, PyAny>) -> PyResult<u32> {
        self.id(state)
    }

    /// The solution of the explored graph, with numpy arrays indexed like :attr:`states`.
    #[getter]
    fn solution(&self, py: Python<'_>) -> PyResult<Py<Solution>> {
        if let Some(s) = self.solution.get() {
            return Ok(s.clone_ref(py));
        }
        let e = self.solved.explored();
        let s = Py::new(
            py,
            Solution::from_parts(
                Arc::new(GraphData {
                    csr: e.graph().clone(),
                    rules: e.rules().clone(),
                    name: "<game>".into(),
                    format: "game",
                }),
                self.solved.solution().clone(),
            ),
        )?;
        Ok(self.solution.get_or_init(|| s).clone_ref(py))
    }

    /// Positions per outcome and the largest depth.
    #[getter]
    fn counts(&self) -> Counts {
        self.solved.solution().counts().into()
    }

    fn __len__(&self) -> usize {
        self.solved.explored().len()
    }

    fn __contains__(&self, state: &Bound<'_, PyAny>) -> PyResult<bool> {
        Ok(self.solved.explored().id(&State::new(state)?).is_some())
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        let c = self.solved.solution().counts();
        let start = self
            .solved
            .explored()
            .positions()
            .first()
            .map_or("None".into(), |s| repr(s.obj.bind(py)));
        let outcome = match self.solved.solution().outcomes().first() {
            Some(o) => o.as_str().to_uppercase(),
            None => "-".into(),
        };
        format!(
            "GameSolution(states={}, start={start}: {outcome}, win={}, lose={}, draw={})",
            self.solved.explored().len(),
            c.win,
            c.lose,
            c.draw
        )
    }
}

/// ``solve_game(game, start, *, misere=False, max_states=None)``.
#[pyfunction]
#[pyo3(signature = (game, start, *, misere = false, max_states = None))]
pub fn solve_game(
    py: Python<'_>,
    game: &Bound<'_, PyAny>,
    start: &Bound<'_, PyAny>,
    misere: bool,
    max_states: Option<u64>,
) -> PyResult<GameSolution> {
    let moves = game.getattr("moves").map_err(|_| {
        PyTypeError::new_err("a game needs a moves(state) method returning the next states")
    })?;
    let terminal = match game.getattr("terminal_value") {
        Ok(f) if !f.is_none() => Some(f),
        _ => None,
    };
    let g = PyGame {
        moves,
        terminal,
        convention: if misere {
            Convention::Misere
        } else {
            Convention::Normal
        },
        error: RefCell::new(None),
        calls: std::cell::Cell::new(0),
    };
    let explored = explore_limited(&g, [State::new(start)?], max_states.unwrap_or(MAX_NODES));
    if let Some(e) = g.error.into_inner() {
        return Err(e);
    }
    let explored = explored.map_err(errors::game)?;
    let solved = py.detach(|| explored.solve());
    Ok(GameSolution {
        solved,
        solution: OnceLock::new(),
    })
}
