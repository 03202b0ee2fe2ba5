//! `zermelo.chess.Tablebase`: zermelo's endgame tables (WDL + DTM) probed by FEN; the Python
//! wrapper (`zermelo/chess.py`) accepts python-chess boards and names the methods like
//! `chess.syzygy.Tablebase`.

use std::path::PathBuf;

use pyo3::prelude::*;

use zermelo::Value;
use zermelo_chess::{Position, Tablebase as LibTablebase};

use crate::errors;

/// A directory of tables (``zermelo tb gen MATERIAL --tables DIR``), opened lazily.
#[pyclass(frozen, module = "zermelo.chess")]
pub struct NativeTablebase {
    tb: LibTablebase,
    directory: PathBuf,
}

/// One probe: the value for the side to move and the best move.
#[pyclass(frozen, get_all, module = "zermelo.chess")]
pub struct Probe {
    /// ``WIN``, ``LOSE`` or ``DRAW`` for the side to move.
    pub outcome: i8,
    /// Plies to mate under optimal play (fast win, slow loss); ``None`` for a draw.
    pub depth: Option<u32>,
    /// 2 (win), 0 (draw) or -2 (loss), as ``probe_wdl``.
    pub wdl: i8,
    /// Signed plies to mate, as ``probe_dtm``: positive when the side to move mates, negative
    /// when it is mated, 0 for a draw (and a position already mated).
    pub dtm: i64,
    /// The best move in UCI notation (``None`` without legal moves).
    pub best_move: Option<String>,
}

#[pymethods]
impl Probe {
    fn __repr__(&self) -> String {
        let outcome = zermelo::Outcome::ALL[self.outcome as usize]
            .as_str()
            .to_uppercase();
        let depth = self.depth.map_or("None".into(), |d| d.to_string());
        let best = self
            .best_move
            .as_deref()
            .map_or("None".into(), |m| format!("{m:?}"));
        format!(
            "Probe({outcome}, depth={depth}, wdl={}, dtm={}, best_move={best})",
            self.wdl, self.dtm
        )
    }
}

fn wdl(v: Value) -> i8 {
    match v {
        Value::Win(_) => 2,
        Value::Lose(_) => -2,
        Value::Draw => 0,
    }
}

fn dtm(v: Value) -> i64 {
    match v {
        Value::Win(d) => i64::from(d),
        Value::Lose(d) => -i64::from(d),
        Value::Draw => 0,
    }
}

fn position(fen: &str) -> PyResult<Position> {
    Position::from_fen(fen).map_err(errors::fen)
}

#[pymethods]
impl NativeTablebase {
    #[new]
    fn new(directory: PathBuf) -> NativeTablebase {
        NativeTablebase {
            tb: LibTablebase::open(&directory),
            directory,
        }
    }

    /// The directory.
    #[getter]
    fn directory(&self) -> String {
        self.directory.display().to_string()
    }

    /// WDL of a FEN: 2, 0 or -2.
    fn probe_wdl(&self, py: Python<'_>, fen: &str) -> PyResult<i8> {
        let pos = position(fen)?;
        py.detach(|| self.tb.probe(&pos))
            .map(wdl)
            .map_err(errors::probe)
    }

    /// Signed plies to mate of a FEN (see :attr:`Probe.dtm`).
    fn probe_dtm(&self, py: Python<'_>, fen: &str) -> PyResult<i64> {
        let pos = position(fen)?;
        py.detach(|| self.tb.probe(&pos))
            .map(dtm)
            .map_err(errors::probe)
    }

    /// Value and best move of a FEN.
    fn probe(&self, py: Python<'_>, fen: &str) -> PyResult<Probe> {
        let pos = position(fen)?;
        let (value, moves) = py
            .detach(|| Ok((self.tb.probe(&pos)?, self.tb.probe_moves(&pos)?)))
            .map_err(errors::probe)?;
        Ok(Probe {
            outcome: value.outcome() as i8,
            depth: value.plies(),
            wdl: wdl(value),
            dtm: dtm(value),
            best_move: moves.first().map(|(m, _)| m.to_string()),
        })
    }

    /// Every legal move of a FEN with the signed DTM of the position it leads to, for the
    /// side that moved (best first).
    fn probe_moves(&self, py: Python<'_>, fen: &str) -> PyResult<Vec<(String, i64)>> {
        let pos = position(fen)?;
        let moves = py
            .detach(|| self.tb.probe_moves(&pos))
            .map_err(errors::probe)?;
        Ok(moves
            .into_iter()
            .map(|(m, v)| (m.to_string(), dtm(v)))
            .collect())
    }

    fn __repr__(&self) -> String {
        format!("Tablebase({:?})", self.directory.display().to_string())
    }
}
