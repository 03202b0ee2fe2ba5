//! `zermelo.synth(path)`: reactive synthesis from an extended-HOA specification, as `zermelo
//! synth` runs it (the library's `zermelo_synth::synthesize`), and `zermelo.synth_verify`, the
//! closed-loop check of a circuit.

use std::path::PathBuf;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use zermelo::io::ParseError;
use zermelo_parity::Solver;
use zermelo_synth::{
    check_closed_loop, parse_aiger, synthesize, write_aiger, Options, Spec, Verdict,
};

use crate::errors;

/// The answer of `zermelo.synth`: realizability, and the controller as ASCII AIGER text.
#[pyclass(module = "zermelo._native", frozen, get_all)]
pub struct Synthesis {
    /// Whether a controller exists.
    pub realizable: bool,
    /// The controller as ASCII AIGER 1.9 text (`None` when unrealizable or not asked for).
    pub circuit: Option<String>,
    /// The controller's AND gates.
    pub ands: Option<usize>,
    /// The controller's latches.
    pub latches: Option<u32>,
}

#[pymethods]
impl Synthesis {
    fn __repr__(&self) -> String {
        match (self.ands, self.latches) {
            (Some(a), Some(l)) => format!("Synthesis(realizable=True, ands={a}, latches={l})"),
            _ => format!(
                "Synthesis(realizable={})",
                if self.realizable { "True" } else { "False" }
            ),
        }
    }
}

fn read_spec(path: &PathBuf) -> Result<Spec, ParseError> {
    let name = path.display().to_string();
    let bytes = std::fs::read(path).map_err(|e| ParseError::io(&name, &e))?;
    Spec::parse(&bytes, &name)
}

/// ``synth(path, *, solver=None, realizability=False)``.
#[pyfunction]
#[pyo3(signature = (path, *, solver = None, realizability = false))]
pub fn synth(
    py: Python<'_>,
    path: PathBuf,
    solver: Option<&str>,
    realizability: bool,
) -> PyResult<Synthesis> {
    let solver = match solver {
        None => Solver::DEFAULT,
        Some(name) => Solver::from_name(name).ok_or_else(|| {
            let known: Vec<&str> = Solver::names().collect();
            PyValueError::new_err(format!(
                "unknown solver {name:?}: expected one of {}",
                known.join(", ")
            ))
        })?,
    };
    let options = Options {
        solver,
        realizability_only: realizability,
    };
    let (realizable, aig) = py
        .detach(|| {
            let mut spec = read_spec(&path)?;
            let result = synthesize(&mut spec, &options)?;
            Ok::<_, ParseError>((result.realizable, result.controller))
        })
        .map_err(errors::parse)?;
    let circuit = aig.as_ref().map(|a| {
        let mut text = Vec::new();
        // Writing to memory cannot fail.
        let _ = write_aiger(&mut text, a, false, "zermelo.synth");
        String::from_utf8_lossy(&text).into_owned()
    });
    Ok(Synthesis {
        realizable,
        circuit,
        ands: aig.as_ref().map(|a| a.ands.len()),
        latches: aig.as_ref().map(|a| a.latch_count()),
    })
}

/// ``synth_verify(spec, circuit)``: ``None`` when every run is accepted; the rejected run's
/// description otherwise (``circuit`` is the path of an ASCII or binary AIGER file).
#[pyfunction]
pub fn synth_verify(py: Python<'_>, spec: PathBuf, circuit: PathBuf) -> PyResult<Option<String>> {
    py.detach(|| {
        let mut s = read_spec(&spec)?;
        let name = circuit.display().to_string();
        let bytes = std::fs::read(&circuit).map_err(|e| ParseError::io(&name, &e))?;
        let aig = parse_aiger(&bytes, &name)?;
        Ok(match check_closed_loop(&mut s, &aig, &name)? {
            Verdict::Correct { .. } => None,
            Verdict::Wrong(lasso) => Some(format!(
                "{name} lets the environment force a rejected run: a prefix of {} steps, then a \
                 cycle of {} steps",
                lasso.prefix.len(),
                lasso.cycle.len()
            )),
        })
    })
    .map_err(errors::parse)
}
