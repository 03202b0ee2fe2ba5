//! # zermelo-py
//!
//! The Python extension module `zermelo._native`, glue only: it converts Python and numpy
//! values to the library's types, calls the library, and converts back. No algorithm lives
//! here (like the CLI). The Python package `zermelo` (`python/zermelo/`) re-exports it, adds
//! python-chess support, and carries the type stubs.
//!
//! * [`graph`] — `Graph`'s methods, `solve`, `load` ([`graph_data`]: the type and how one is
//!   made);
//! * [`grundy`] — `grundy`, `loopy_grundy` and `LoopyGrundy`;
//! * [`solution`] — `Solution` (numpy views), `Counts`, `Line`, `verify`;
//! * [`game`] — `solve_game`: games written in Python, explored by the library;
//! * [`parity`] — `zermelo.parity`: `Arena`, `solve`, `verify`, `load`;
//! * [`synth`] — `zermelo.synth` and `zermelo.synth_verify`: reactive synthesis from eHOA;
//! * [`chess`] — the tablebase prober behind `zermelo.chess.Tablebase`;
//! * [`cgt`] — `zermelo.cgt`: game values, thermographs, atomic weights;
//! * [`errors`] — every library error kind as one Python exception class, in one place;
//! * [`arrays`] — numpy in (dtype and shape checks) and out (read-only views of the library's
//!   columns, no copies): the crate's only `unsafe` code;
//! * [`wait`] — long calls without the GIL, interruptible by Ctrl-C.
//!
//! Built by maturin (`pip install ./crates/zermelo-py`), which sets
//! `PYO3_BUILD_EXTENSION_MODULE` so the module does not link libpython; as a workspace member
//! it is checked by `cargo clippy` and `cargo doc` and has no Rust tests (pytest tests it).

#![deny(missing_docs)]

pub mod arrays;
pub mod cgt;
pub mod chess;
pub mod errors;
pub mod game;
pub mod graph;
pub mod graph_data;
pub mod grundy;
pub mod parity;
pub mod solution;
pub mod synth;
pub mod wait;

use pyo3::prelude::*;

/// The native module.
#[pymodule]
#[pyo3(name = "_native")]
fn native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("WIN", zermelo::Outcome::Win as i8)?;
    m.add("LOSE", zermelo::Outcome::Lose as i8)?;
    m.add("DRAW", zermelo::Outcome::Draw as i8)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_class::<graph_data::Graph>()?;
    m.add_class::<solution::Solution>()?;
    m.add_class::<solution::Counts>()?;
    m.add_class::<solution::Line>()?;
    m.add_class::<game::GameSolution>()?;
    m.add_class::<parity::Arena>()?;
    m.add_class::<parity::ParitySolution>()?;
    m.add_class::<chess::NativeTablebase>()?;
    m.add_class::<chess::Probe>()?;
    m.add_class::<chess::NativeSyzygyTables>()?;
    m.add_function(wrap_pyfunction!(graph::solve_edges, m)?)?;
    m.add_function(wrap_pyfunction!(graph::load, m)?)?;
    m.add_class::<grundy::LoopyGrundy>()?;
    m.add_function(wrap_pyfunction!(grundy::grundy, m)?)?;
    m.add_function(wrap_pyfunction!(grundy::loopy_grundy, m)?)?;
    m.add_function(wrap_pyfunction!(solution::verify, m)?)?;
    m.add_function(wrap_pyfunction!(game::solve_game, m)?)?;
    m.add_function(wrap_pyfunction!(parity::solve, m)?)?;
    m.add_function(wrap_pyfunction!(parity::load, m)?)?;
    m.add_function(wrap_pyfunction!(parity::verify, m)?)?;
    m.add_class::<synth::Synthesis>()?;
    m.add_function(wrap_pyfunction!(synth::synth, m)?)?;
    m.add_function(wrap_pyfunction!(synth::synth_verify, m)?)?;
    m.add_function(wrap_pyfunction!(cgt::cgt_show, m)?)?;
    m.add_function(wrap_pyfunction!(cgt::cgt_value, m)?)?;
    m.add_function(wrap_pyfunction!(cgt::cgt_thermograph, m)?)?;
    m.add_function(wrap_pyfunction!(cgt::cgt_atomic_weight, m)?)?;
    parity::add_registry(m)?;
    Ok(())
}
