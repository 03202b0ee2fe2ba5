//! `zermelo.cgt`: game values as `zermelo cgt` gives them: a value written in CGSuite's notation
//! (short or loopy), positions and sums of a two-player file, thermographs and atomic weights.
//! Each answer is a dict the Python module (`python/zermelo/cgt.py`) turns into plain objects.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use zermelo::graph::TwoPlayerGraph;
use zermelo::NodeId;
use zermelo_cgt::loopy::{
    is_loopy_text, loopy_value, parse_loopy, LoopyExpr, LoopyGraph, LoopyOutcome,
};
use zermelo_cgt::{graph_values, CgtError, OutcomeClass, Value};

use crate::errors;

fn cgt_error(e: CgtError) -> PyErr {
    match e {
        CgtError::TooBig(m) => errors::too_big(m),
        CgtError::NumberTooLarge | CgtError::TooMuchWork(_) => errors::too_big(e.to_string()),
        e => PyValueError::new_err(e.to_string()),
    }
}

fn parse_short(text: &str, max_work: u64) -> PyResult<Value> {
    Value::parse_with_work_limit(text, Some(max_work)).map_err(|e| {
        let message = format!("value {text:?}: {e}");
        if e.message == CgtError::TooMuchWork(max_work).to_string() {
            errors::too_big(message)
        } else {
            PyValueError::new_err(message)
        }
    })
}

fn results(class: OutcomeClass) -> (&'static str, &'static str) {
    let win = |b: bool| if b { "win" } else { "loss" };
    (win(class.left_first_wins()), win(!class.right_first_wins()))
}

/// What a game is worth, as the dict's keys say.
struct Answer {
    value: Option<String>,
    /// The sides of a game that is not a stopper (`None` for a stopper).
    sides: Option<(String, String)>,
    outcome: Option<&'static str>,
    left_first: &'static str,
    right_first: &'static str,
    mean: Option<String>,
    temperature: Option<String>,
    note: Option<String>,
}

impl Answer {
    fn short(v: Value) -> Result<Answer, CgtError> {
        let class = v.outcome();
        let (left_first, right_first) = results(class);
        let (m, t) = v.mean_and_temperature()?;
        Ok(Answer {
            value: Some(v.to_string()),
            sides: None,
            outcome: Some(class.as_str()),
            left_first,
            right_first,
            mean: Some(m.to_string()),
            temperature: Some(t.to_string()),
            note: None,
        })
    }

    /// Node `node` of a loopy graph: its outcome, and its value (a stopper, or its sides) where
    /// it is found, else the reason.
    fn loopy(g: &LoopyGraph, node: u32, outcome: LoopyOutcome) -> Result<Answer, CgtError> {
        let (value, sides, note) = match loopy_value(g, node)? {
            Ok(s) if s.is_stopper() => (Some(s.to_string()), None, None),
            Ok(s) => (
                Some(s.to_string()),
                Some((s.onside().to_string(), s.offside().to_string())),
                None,
            ),
            Err(why) => (None, None, Some(why)),
        };
        Ok(Answer {
            value,
            sides,
            outcome: outcome.class().map(|c| c.as_str()),
            left_first: outcome.left_first.as_str(),
            right_first: outcome.right_first.as_str(),
            mean: None,
            temperature: None,
            note,
        })
    }

    fn dict(self, py: Python<'_>) -> PyResult<Bound<'_, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("value", self.value)?;
        let (onside, offside) = self.sides.unzip();
        d.set_item("onside", onside)?;
        d.set_item("offside", offside)?;
        d.set_item("outcome", self.outcome)?;
        d.set_item("left_first", self.left_first)?;
        d.set_item("right_first", self.right_first)?;
        d.set_item("mean", self.mean)?;
        d.set_item("temperature", self.temperature)?;
        d.set_item("note", self.note)?;
        Ok(d)
    }
}

/// A game read in the loopy notation: its answer (short games as short).
fn loopy_game(graph: &LoopyGraph, node: u32) -> Result<Answer, CgtError> {
    let g = graph.restricted(node);
    if g.is_loopfree(0) {
        let mut memo = std::collections::HashMap::new();
        return Answer::short(short_of(&g, 0, &mut memo)?);
    }
    let outcome = g.outcomes()[0];
    Answer::loopy(&g, 0, outcome)
}

/// ``cgt_show(text, max_work)``: a value in the notation (a dict; for a comparison
/// ``{"holds": bool, ...}``).
#[pyfunction]
pub fn cgt_show<'py>(py: Python<'py>, text: &str, max_work: u64) -> PyResult<Bound<'py, PyDict>> {
    if !is_loopy_text(text) {
        let v = parse_short(text, max_work)?;
        return zermelo_cgt::on_deep_stack(|| Answer::short(v))
            .map_err(cgt_error)?
            .dict(py);
    }
    let parsed = zermelo_cgt::on_deep_stack(|| parse_loopy(text))
        .map_err(|e| PyValueError::new_err(format!("value {text:?}: {e}")))?;
    match parsed {
        LoopyExpr::Game { graph, node } => zermelo_cgt::on_deep_stack(|| loopy_game(&graph, node))
            .map_err(cgt_error)?
            .dict(py),
        LoopyExpr::Sides(sides) => {
            let outcome = sides.outcome().map_err(cgt_error)?;
            let split = (!sides.is_stopper())
                .then(|| (sides.onside().to_string(), sides.offside().to_string()));
            Answer {
                value: Some(sides.to_string()),
                sides: split,
                outcome: outcome.class().map(|c| c.as_str()),
                left_first: outcome.left_first.as_str(),
                right_first: outcome.right_first.as_str(),
                mean: None,
                temperature: None,
                note: None,
            }
            .dict(py)
        }
        LoopyExpr::Relation {
            left,
            op,
            right,
            holds,
        } => {
            let d = PyDict::new(py);
            d.set_item("left", left.to_string())?;
            d.set_item("relation", op)?;
            d.set_item("right", right.to_string())?;
            d.set_item("holds", holds)?;
            Ok(d)
        }
    }
}

/// The short value of a loop-free node.
fn short_of(
    g: &LoopyGraph,
    v: u32,
    memo: &mut std::collections::HashMap<u32, Value>,
) -> Result<Value, CgtError> {
    if let Some(&x) = memo.get(&v) {
        return Ok(x);
    }
    let mut sides = [Vec::new(), Vec::new()];
    for (side, left) in [(0, true), (1, false)] {
        for &w in g.options(v, left) {
            sides[side].push(short_of(g, w, memo)?);
        }
    }
    let x = Value::from_options(&sides[0], &sides[1])?;
    memo.insert(v, x);
    Ok(x)
}

/// ``cgt_value(path, at, max_memory)``: the sum of the positions ``at`` of a two-player file
/// (one position for its value). The header is checked against ``max_memory`` bytes (else the
/// memory available) before anything it sizes is allocated, as by ``zermelo cgt value``:
/// ``TooBig`` with what it needs and the limit.
#[pyfunction]
#[pyo3(signature = (path, at, max_memory=None))]
pub fn cgt_value(
    py: Python<'_>,
    path: std::path::PathBuf,
    at: Vec<u64>,
    max_memory: Option<u64>,
) -> PyResult<Bound<'_, PyDict>> {
    let name = path.display().to_string();
    let bytes =
        std::fs::read(&path).map_err(|e| errors::parse(zermelo::io::ParseError::io(&name, &e)))?;
    let limit = max_memory.map_or(zermelo::memory::Limit::Available, |b| {
        zermelo::memory::Limit::Option(b, "max_memory")
    });
    zermelo_cgt::check_two_player_header(&bytes, limit).map_err(|e| match e {
        CgtError::TooBig(m) => errors::too_big(format!("{name}: {m}")),
        e => cgt_error(e),
    })?;
    let game: TwoPlayerGraph =
        zermelo::io::parse_two_player(&bytes, &name).map_err(errors::parse)?;
    let n = game.position_count() as u64;
    if let Some(&p) = at.iter().find(|&&p| p >= n) {
        return Err(PyValueError::new_err(format!(
            "{name}: position {p} is out of range: the game has {n} positions"
        )));
    }
    if at.is_empty() {
        return Err(PyValueError::new_err("give at least one position"));
    }
    let g = LoopyGraph::from_two_player(&game);
    let starts: Vec<u32> = at.iter().map(|&p| p as u32).collect();
    let answer = zermelo_cgt::on_deep_stack(|| {
        if starts.iter().all(|&s| g.is_loopfree(s)) {
            let nodes: Vec<NodeId> = at.iter().map(|&p| p as NodeId).collect();
            let values = graph_values(&game, &nodes)?;
            let picked: Vec<Value> = nodes
                .iter()
                .map(|&s| values[s as usize].expect("every start is valued"))
                .collect();
            return Answer::short(Value::sum(&picked)?);
        }
        let product = g.sum(&starts, 1 << 22)?;
        let outcome = product.outcomes()[0];
        Answer::loopy(&product, 0, outcome)
    })
    .map_err(cgt_error)?;
    answer.dict(py)
}

/// ``cgt_thermograph(text, max_work)``: value, mean, temperature, walls (lists of
/// ``(t, value)`` strings) and the SVG picture of a short value.
#[pyfunction]
pub fn cgt_thermograph<'py>(
    py: Python<'py>,
    text: &str,
    max_work: u64,
) -> PyResult<Bound<'py, PyDict>> {
    let v = parse_short(text, max_work)?;
    let th = zermelo_cgt::on_deep_stack(|| v.thermograph()).map_err(cgt_error)?;
    let wall = |w: &zermelo_cgt::Trajectory| -> Vec<(String, String)> {
        w.points()
            .into_iter()
            .map(|(t, x)| (t.to_string(), x.to_string()))
            .collect()
    };
    let d = PyDict::new(py);
    d.set_item("value", v.to_string())?;
    d.set_item("mean", th.mean().to_string())?;
    d.set_item("temperature", th.temperature().to_string())?;
    d.set_item("left_wall", wall(th.left_wall()))?;
    d.set_item("right_wall", wall(th.right_wall()))?;
    d.set_item("svg", th.to_svg(&format!("thermograph of {v}")))?;
    Ok(d)
}

/// ``cgt_atomic_weight(text, max_work)``: the atomic weight of an all-small value.
#[pyfunction]
pub fn cgt_atomic_weight(text: &str, max_work: u64) -> PyResult<String> {
    let v = parse_short(text, max_work)?;
    let w = zermelo_cgt::on_deep_stack(|| v.atomic_weight()).map_err(cgt_error)?;
    Ok(w.to_string())
}
