//! `zermelo.chess.Tablebase`: zermelo's endgame tables (WDL + DTM) probed by FEN, and generated
//! by the library's [`GenerationJob`] (what `zermelo tb gen` runs); the Python wrapper
//! (`zermelo/chess.py`) accepts python-chess boards and names the methods like
//! `chess.syzygy.Tablebase`.
//!
//! A generation's errors ([`JobError`]) reach Python as the package's exception classes:
//!
//! | `JobError` | Python class |
//! |---|---|
//! | a material or `all` no table holds, an unsupported material | `ValueError` |
//! | `Memory`, the engine's `TooBig` | `TooBig` |
//! | `Folder`, `Lock`, `Write`, `Work`, a work file that cannot be read | `ReadError` (an `OSError`) |
//! | a damaged or foreign work folder | `CorruptError` |
//! | `Table`, `Stats`, a smaller table missing or damaged | as a probe's error (`MissingTable`, `CorruptError`, ...) |
//! | `Held` (another process generates it, `wait=False`) and the rest | `ZermeloError` |

use std::path::PathBuf;
use std::time::Duration;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyType;

use zermelo::game::compact::CompactError;
use zermelo::Value;
use zermelo_chess::dtz::{syzygy_dtz, Wdl50};
use zermelo_chess::{
    GenError, GenerationJob, JobError, Material, Position, ProbeError, SyzygyTables, TableError,
    Tablebase as LibTablebase, Targets,
};

use crate::errors;
use crate::wait::interruptible;

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
    /// As ``probe_wdl``: Syzygy's classes under the 50-move rule (2 win, 1 cursed win, 0 draw,
    /// -1 blessed loss, -2 loss) with the DTZ table, else 2, 0 or -2 from the DTM table.
    pub wdl: i8,
    /// The class under the 50-move rule (``win``, ``cursed-win``, ``draw``, ``blessed-loss``,
    /// ``loss``), ``None`` without the DTZ table.
    pub category: Option<String>,
    /// Syzygy-signed plies to the next capture or pawn move (or mate) under the rule: positive
    /// in a win, negative in a loss, 0 drawn, -1 mated; ``None`` without the DTZ table.
    pub dtz: Option<i32>,
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
        let dtz = self.dtz.map_or("None".into(), |d| d.to_string());
        format!(
            "Probe({outcome}, depth={depth}, wdl={}, dtm={}, dtz={dtz}, best_move={best})",
            self.wdl, self.dtm
        )
    }
}

/// WDL without the 50-move rule, from a DTM value.
fn wdl(v: Value) -> i8 {
    match v {
        Value::Win(_) => 2,
        Value::Lose(_) => -2,
        Value::Draw => 0,
    }
}

/// The zeroing-scale value (DTZ table), `None` when the tables for it are missing.
fn dtz_value(tb: &LibTablebase, pos: &Position) -> Result<Option<Value>, ProbeError> {
    match tb.probe_dtz(pos) {
        Ok(v) => Ok(Some(v)),
        Err(ProbeError::MissingTable { .. }) => Ok(None),
        Err(e) => Err(e),
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
    #[pyo3(signature = (directory, rule = 100))]
    fn new(directory: PathBuf, rule: u32) -> PyResult<NativeTablebase> {
        if !(1..=zermelo_chess::dtz::MAX_RULE).contains(&rule) {
            return Err(pyo3::exceptions::PyValueError::new_err(format!(
                "rule = {rule}: expected 1 to {} plies",
                zermelo_chess::dtz::MAX_RULE
            )));
        }
        Ok(NativeTablebase {
            tb: LibTablebase::open(&directory).with_rule(rule),
            directory,
        })
    }

    /// The drawing rule in plies (100: the 50-move rule) the DTZ tables are read for.
    #[getter]
    fn rule(&self) -> u32 {
        self.tb.rule()
    }

    /// The directory.
    #[getter]
    fn directory(&self) -> String {
        self.directory.display().to_string()
    }

    /// WDL of a FEN: Syzygy's classes under the 50-move rule (clock 0) with the DTZ table,
    /// else 2, 0 or -2 from the DTM table.
    fn probe_wdl(&self, py: Python<'_>, fen: &str) -> PyResult<i8> {
        let pos = position(fen)?;
        py.detach(|| match dtz_value(&self.tb, &pos)? {
            Some(v) => Ok(Wdl50::of(v, self.tb.rule()).syzygy()),
            None => self.tb.probe(&pos).map(wdl),
        })
        .map_err(errors::probe)
    }

    /// Signed plies to mate of a FEN (see :attr:`Probe.dtm`).
    fn probe_dtm(&self, py: Python<'_>, fen: &str) -> PyResult<i64> {
        let pos = position(fen)?;
        py.detach(|| self.tb.probe(&pos))
            .map(dtm)
            .map_err(errors::probe)
    }

    /// Syzygy-signed DTZ of a FEN (see :attr:`Probe.dtz`); needs the DTZ table.
    fn probe_dtz(&self, py: Python<'_>, fen: &str) -> PyResult<i32> {
        let pos = position(fen)?;
        py.detach(|| self.tb.probe_dtz(&pos))
            .map(syzygy_dtz)
            .map_err(errors::probe)
    }

    /// Value, 50-move class and best move of a FEN.
    fn probe(&self, py: Python<'_>, fen: &str) -> PyResult<Probe> {
        let pos = position(fen)?;
        let (value, zeroing, moves) = py
            .detach(|| {
                Ok((
                    self.tb.probe(&pos)?,
                    dtz_value(&self.tb, &pos)?,
                    self.tb.probe_moves(&pos)?,
                ))
            })
            .map_err(errors::probe)?;
        let class = zeroing.map(|v| Wdl50::of(v, self.tb.rule()));
        Ok(Probe {
            outcome: value.outcome() as i8,
            depth: value.plies(),
            wdl: class.map_or(wdl(value), Wdl50::syzygy),
            category: class.map(|c| c.as_str().to_string()),
            dtz: zeroing.map(syzygy_dtz),
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

    /// Generates the tables of `material` (and the smaller ones it depends on), or of every
    /// material of 3 to `all` pieces, into the directory under its rule; the paths written.
    #[pyo3(signature = (material = None, *, all = None, work_dir = None, max_memory = None,
                        wait = true, checkpoint_every = 60.0, mapped = false))]
    #[allow(clippy::too_many_arguments)]
    fn generate(
        &self,
        py: Python<'_>,
        material: Option<&str>,
        all: Option<usize>,
        work_dir: Option<PathBuf>,
        max_memory: Option<u64>,
        wait: bool,
        checkpoint_every: f64,
        mapped: bool,
    ) -> PyResult<Vec<String>> {
        let targets = match (material, all) {
            (Some(m), None) => {
                let m = Material::parse_table(m).map_err(value_error)?;
                Targets::of(&[m]).map_err(value_error)?
            }
            (None, Some(n)) => Targets::all_up_to(n).map_err(|_| {
                PyValueError::new_err(format!(
                    "all = {n}: tables exist for 3 to {} pieces",
                    zermelo_chess::MAX_PIECES
                ))
            })?,
            _ => {
                return Err(PyValueError::new_err(
                    "name a material or give all = N, not both",
                ))
            }
        };
        let interval = Duration::try_from_secs_f64(checkpoint_every).map_err(|_| {
            PyValueError::new_err(format!(
                "checkpoint_every = {checkpoint_every}: expected seconds, 0 or more"
            ))
        })?;
        let mut job = GenerationJob::new(targets, &self.directory);
        job.work_dir = work_dir;
        job.rule = self.tb.rule();
        job.checkpoint_interval = interval;
        job.mapped = mapped;
        job.wait = wait;
        if let Some(bytes) = max_memory {
            job.memory = zermelo::memory::Limit::Bytes(bytes);
        }
        // Always long enough for a thread of its own, so that Ctrl-C is seen while it runs.
        let report =
            interruptible(py, u64::MAX, move || job.run(&mut |_| {}))?.map_err(job_error)?;
        Ok(report
            .written
            .iter()
            .map(|w| w.path.display().to_string())
            .collect())
    }

    fn __repr__(&self) -> String {
        format!("Tablebase({:?})", self.directory.display().to_string())
    }
}

fn value_error(e: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// A new exception of the class `name` of `zermelo._errors` (the classes `errors.rs` maps the
/// library's other errors to).
fn zermelo_error(name: &str, message: String) -> PyErr {
    Python::attach(|py| {
        match py
            .import("zermelo._errors")
            .and_then(|m| m.getattr(name))
            .and_then(|c| c.cast_into::<PyType>().map_err(PyErr::from))
        {
            Ok(ty) => PyErr::from_type(ty, message),
            Err(e) => e,
        }
    })
}

/// The class of a probe's error, as [`errors::probe`] chooses it.
fn probe_class(e: &ProbeError) -> &'static str {
    match e {
        ProbeError::Table(TableError::Io { .. }) => "ReadError",
        ProbeError::Table(_) | ProbeError::Rule { .. } => "CorruptError",
        ProbeError::Illegal(_) => "InvalidPosition",
        _ => "MissingTable",
    }
}

/// A generation job's failure as the package's exception classes (the table in the module
/// docs).
fn job_error(e: JobError) -> PyErr {
    let message = e.to_string();
    let class = match e {
        JobError::Table(p) => return errors::probe(p),
        JobError::Stats(t) => return errors::table(t),
        JobError::Memory { .. } => return errors::too_big(message),
        JobError::Folder(_)
        | JobError::Lock { .. }
        | JobError::Write { .. }
        | JobError::Work { .. } => "ReadError",
        JobError::Generate(g) => match g {
            GenError::Dependency { source, .. } => probe_class(&source),
            GenError::Unsupported(..) => return value_error(message),
            GenError::Engine {
                source: CompactError::TooBig { .. },
                ..
            } => return errors::too_big(message),
            GenError::Checkpoint { source, .. }
                if source.kind() != std::io::ErrorKind::InvalidData =>
            {
                "ReadError"
            }
            GenError::Checkpoint { .. }
            | GenError::Engine {
                source: CompactError::Checkpoint { .. },
                ..
            } => "CorruptError",
            _ => "ZermeloError",
        },
        _ => "ZermeloError",
    };
    zermelo_error(class, message)
}

/// Syzygy's published tables (``.rtbw``/``.rtbz``) in one or more directories, read by
/// zermelo (``zermelo_chess::SyzygyTables``).
#[pyclass(frozen, module = "zermelo.chess")]
pub struct NativeSyzygyTables {
    tables: SyzygyTables,
}

#[pymethods]
impl NativeSyzygyTables {
    #[new]
    fn new(directories: Vec<PathBuf>) -> PyResult<NativeSyzygyTables> {
        let tables = SyzygyTables::open(&directories).map_err(errors::syzygy)?;
        Ok(NativeSyzygyTables { tables })
    }

    /// The directories searched, in order.
    #[getter]
    fn directories(&self) -> Vec<String> {
        let dirs = self.tables.dirs();
        dirs.iter().map(|d| d.display().to_string()).collect()
    }

    /// Syzygy's class of a FEN (-2..=2) at halfmove clock 0, as python-chess's ``probe_wdl``.
    fn probe_wdl(&self, py: Python<'_>, fen: &str) -> PyResult<i8> {
        let pos = position(fen)?;
        py.detach(|| self.tables.probe_wdl(&pos))
            .map(Wdl50::syzygy)
            .map_err(errors::syzygy)
    }

    /// Python-chess's ``probe_dtz`` of a FEN, and whether it is exact (not rounded).
    fn probe_dtz(&self, py: Python<'_>, fen: &str) -> PyResult<(i32, bool)> {
        let pos = position(fen)?;
        py.detach(|| self.tables.probe_dtz(&pos))
            .map(|d| (d.plies, d.precise))
            .map_err(errors::syzygy)
    }

    fn __repr__(&self) -> String {
        format!("SyzygyTables({:?})", self.directories())
    }
}
