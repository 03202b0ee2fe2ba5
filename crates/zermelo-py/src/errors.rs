//! Every library error as a Python exception, in one place.
//!
//! | library error | Python class | also a |
//! |---|---|---|
//! | `io::ParseError` of kind `io` | `ReadError` | `OSError` |
//! | `io::ParseError` of kind `syntax`, `out-of-range`, `truncated`, `inconsistent` | `ParseError` (`.source`, `.line`, `.kind`) | `ValueError` |
//! | `io::ParseError` of kind `corrupt`, `chess::TableError`, `ProbeError::Rule` (a DTZ table of another rule) | `CorruptError` | `ParseError` |
//! | `io::ParseError` of kind `too-big`, `GameError::TooManyPositions`, `GraphError::TooManyNodes`, `GraphError::TooManyPositions`, `memory::Limit::check` | `TooBig` | - |
//! | `GraphError`, `RulesError`, `ArenaError` | `GraphError` | `ValueError` |
//! | `solve::Cycle` (Grundy values of a cyclic graph) | `CycleError` (`.cycle`) | `ValueError` |
//! | `solve::Violation`, `parity::ParityViolation` | `VerifyError` (`.node`) | - |
//! | `chess::FenError`, `chess::PositionError` | `InvalidPosition` | `ValueError` |
//! | `chess::ProbeError::{MissingTable, NoTable, TooManyPieces}`, `SyzygyError::{MissingTable, TooManyPieces}` | `MissingTable` | `KeyError` (as python-chess) |
//! | `SyzygyError::{NotATable, Corrupt}` (a damaged or foreign Syzygy file) | `CorruptError` | `ParseError` |
//! | `SyzygyError::Io` | `ReadError` | `OSError` |
//!
//! All derive from `ZermeloError`. Wrong argument types and shapes are Python's own
//! `TypeError` / `ValueError`, raised where arguments are converted.

use pyo3::prelude::*;
use pyo3::types::PyType;

use zermelo::game::GameError;
use zermelo::graph::{GraphError, RulesError};
use zermelo::io::{ErrorKind, ParseError};
use zermelo::solve::{Cycle, Violation};
use zermelo_chess::{FenError, PositionError, ProbeError, TableError};
use zermelo_parity::{ArenaError, ParityViolation};

/// The exception classes, defined in Python (`zermelo/_errors.py`) because several have two
/// bases (`ReadError` is also an `OSError`, whose instance layout a Rust-made class cannot share).
#[derive(Clone, Copy)]
enum Class {
    ReadError,
    ParseError,
    CorruptError,
    TooBig,
    GraphError,
    CycleError,
    VerifyError,
    InvalidPosition,
    MissingTable,
}

impl Class {
    fn name(self) -> &'static str {
        match self {
            Class::ReadError => "ReadError",
            Class::ParseError => "ParseError",
            Class::CorruptError => "CorruptError",
            Class::TooBig => "TooBig",
            Class::GraphError => "GraphError",
            Class::CycleError => "CycleError",
            Class::VerifyError => "VerifyError",
            Class::InvalidPosition => "InvalidPosition",
            Class::MissingTable => "MissingTable",
        }
    }
}

/// A new exception of `class` with `message` and attributes.
fn raise(class: Class, message: String, attrs: Vec<(&str, Py<PyAny>)>) -> PyErr {
    Python::attach(|py| {
        let ty = match py
            .import("zermelo._errors")
            .and_then(|m| m.getattr(class.name()))
            .and_then(|c| c.cast_into::<PyType>().map_err(PyErr::from))
        {
            Ok(ty) => ty,
            Err(e) => return e,
        };
        let err = PyErr::from_type(ty, message);
        let value = err.value(py);
        for (name, v) in attrs {
            // Setting an attribute on a fresh exception instance cannot fail.
            let _ = value.setattr(name, v.bind(py));
        }
        err
    })
}

fn obj<'py, T: IntoPyObject<'py>>(py: Python<'py>, v: T) -> Py<PyAny> {
    use pyo3::IntoPyObjectExt;
    v.into_py_any(py).unwrap_or_else(|_| py.None())
}

/// `io::ParseError` by its kind.
pub fn parse(e: ParseError) -> PyErr {
    let message = e.to_string();
    let attrs = Python::attach(|py| {
        vec![
            ("source", obj(py, e.source.as_str())),
            ("line", obj(py, e.line)),
            ("kind", obj(py, e.kind.as_str())),
            ("message", obj(py, e.message.as_str())),
        ]
    });
    match e.kind {
        ErrorKind::Io => raise(Class::ReadError, message, attrs),
        ErrorKind::TooBig => raise(Class::TooBig, message, attrs),
        ErrorKind::Corrupt => raise(Class::CorruptError, message, attrs),
        _ => raise(Class::ParseError, message, attrs),
    }
}

/// A job over the memory limit (`memory::Limit::check`'s message).
pub fn too_big(message: String) -> PyErr {
    raise(Class::TooBig, message, Vec::new())
}

/// `GraphError`: too many nodes is `TooBig`, the rest `GraphError`.
pub fn graph(e: GraphError) -> PyErr {
    match e {
        GraphError::TooManyNodes(_) | GraphError::TooManyPositions(_) => {
            raise(Class::TooBig, e.to_string(), Vec::new())
        }
        _ => raise(Class::GraphError, e.to_string(), Vec::new()),
    }
}

/// `RulesError` (verdicts that do not fit the graph).
pub fn rules(e: RulesError) -> PyErr {
    raise(Class::GraphError, e.to_string(), Vec::new())
}

/// `ArenaError` (a parity arena that cannot be built).
pub fn arena(e: ArenaError) -> PyErr {
    match e {
        ArenaError::Graph(g) => graph(g),
        other => raise(Class::GraphError, other.to_string(), Vec::new()),
    }
}

/// `GameError` from exploring a game.
pub fn game(e: GameError) -> PyErr {
    match e {
        GameError::Graph(g) => graph(g),
        other => raise(Class::TooBig, other.to_string(), Vec::new()),
    }
}

/// `Cycle`: names the cycle.
pub fn cycle(c: Cycle) -> PyErr {
    let nodes: Vec<u32> = c.nodes.clone();
    let attrs = Python::attach(|py| vec![("cycle", obj(py, nodes))]);
    raise(
        Class::CycleError,
        format!("the graph has a cycle ({c}); Grundy values need an acyclic graph"),
        attrs,
    )
}

/// A retrograde certificate violation.
pub fn violation(v: Violation) -> PyErr {
    let attrs = Python::attach(|py| vec![("node", obj(py, v.node))]);
    raise(Class::VerifyError, v.to_string(), attrs)
}

/// A parity certificate violation.
pub fn parity_violation(v: ParityViolation) -> PyErr {
    raise(Class::VerifyError, v.to_string(), Vec::new())
}

/// A FEN that does not parse or is illegal.
pub fn fen(e: FenError) -> PyErr {
    raise(Class::InvalidPosition, e.to_string(), Vec::new())
}

/// A set-up position that is illegal.
pub fn position(e: PositionError) -> PyErr {
    raise(Class::InvalidPosition, e.to_string(), Vec::new())
}

/// A chess table that cannot be read.
pub fn table(e: TableError) -> PyErr {
    match e {
        TableError::Io { .. } => raise(Class::ReadError, e.to_string(), Vec::new()),
        _ => raise(Class::CorruptError, e.to_string(), Vec::new()),
    }
}

/// A position that cannot be probed.
pub fn probe(e: ProbeError) -> PyErr {
    match e {
        ProbeError::Table(t) => table(t),
        ProbeError::Illegal(_) => raise(Class::InvalidPosition, e.to_string(), Vec::new()),
        ProbeError::Rule { .. } => raise(Class::CorruptError, e.to_string(), Vec::new()),
        ProbeError::Syzygy(s) => syzygy(s),
        _ => raise(Class::MissingTable, e.to_string(), Vec::new()),
    }
}

/// A Syzygy table that is missing, unreadable or damaged.
pub fn syzygy(e: zermelo_chess::SyzygyError) -> PyErr {
    use zermelo_chess::SyzygyError;
    let class = match e {
        SyzygyError::Io { .. } => Class::ReadError,
        SyzygyError::NotATable { .. } | SyzygyError::Corrupt { .. } => Class::CorruptError,
        _ => Class::MissingTable,
    };
    raise(class, e.to_string(), Vec::new())
}
