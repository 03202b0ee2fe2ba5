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
//! | `Folder`, `Lock`, `Write`, `Work`, `DiskFull`, a work file that cannot be read or written | `ReadError` (an `OSError`) |
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
use zermelo_chess::dtz::Wdl50;
use zermelo_chess::{
    Category, GenError, GenerationJob, JobError, Material, Position, ProbeError, SyzygyTables,
    TableError, Tablebase as LibTablebase, Targets,
};

use crate::errors;
use crate::wait::interruptible;

/// Directories of tables, zermelo's (``zermelo tb gen MATERIAL --tables DIR``) and Syzygy's
/// (``.rtbw``, ``.rtbz``), opened lazily and memory-mapped.
#[pyclass(frozen, module = "zermelo.chess")]
pub struct NativeTablebase {
    tb: LibTablebase,
    directories: Vec<PathBuf>,
}

/// One probe: [`LibTablebase::answer`] for a FEN with its halfmove clock.
#[pyclass(frozen, get_all, module = "zermelo.chess")]
pub struct Probe {
    /// ``WIN``, ``LOSE`` or ``DRAW`` for the side to move (the rule aside: a cursed win is a
    /// win).
    pub outcome: i8,
    /// Plies to mate under optimal play (fast win, slow loss); ``None`` for a draw or without
    /// zermelo's DTM table (Syzygy's tables hold none).
    pub depth: Option<u32>,
    /// As ``probe_wdl`` (a fresh clock): Syzygy's classes under the 50-move rule (2 win, 1
    /// cursed win, 0 draw, -1 blessed loss, -2 loss) from a DTZ or Syzygy WDL table, else 2,
    /// 0 or -2 from the DTM table.
    pub wdl: i8,
    /// The class under the rule with the FEN's halfmove clock (``win``, ``maybe-win``,
    /// ``cursed-win``, ``draw``, ``blessed-loss``, ``maybe-loss``, ``loss``: lichess's words,
    /// ``maybe-`` where a rounded Syzygy DTZ leaves it open), ``None`` without DTZ or WDL table.
    pub category: Option<String>,
    /// Syzygy-signed plies to the next capture or pawn move (or mate) under the rule: positive
    /// in a win, negative in a loss, 0 drawn, -1 mated; ``None`` without a DTZ table.
    pub dtz: Option<i32>,
    /// Whether ``dtz`` is exact: ``False`` where a Syzygy table stores moves, so that the
    /// truth may be one ply further from zero (lichess's ``precise_dtz`` is then null).
    pub dtz_precise: bool,
    /// Signed plies to mate, as ``probe_dtm``: positive when the side to move mates, negative
    /// when it is mated, 0 for a draw (and a position already mated); ``None`` without
    /// zermelo's DTM table.
    pub dtm: Option<i64>,
    /// The best move in UCI notation, first as ``zermelo tb probe --stdin`` lists them: the
    /// rule's order, equal classes and DTZ by depth to mate (``None`` without legal moves).
    pub best_move: Option<String>,
}

#[pymethods]
impl Probe {
    fn __repr__(&self) -> String {
        let outcome = zermelo::Outcome::ALL[self.outcome as usize]
            .as_str()
            .to_uppercase();
        let none = |v: Option<String>| v.unwrap_or_else(|| "None".into());
        let depth = none(self.depth.map(|d| d.to_string()));
        let best = none(self.best_move.as_deref().map(|m| format!("{m:?}")));
        let dtz = none(self.dtz.map(|d| d.to_string()));
        let dtm = none(self.dtm.map(|d| d.to_string()));
        format!(
            "Probe({outcome}, depth={depth}, wdl={}, dtm={dtm}, dtz={dtz}, best_move={best})",
            self.wdl
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

/// Python's `Outcome` number of a class (a cursed win is a win).
fn outcome_of(c: Category) -> i8 {
    let o = match c {
        Category::Win | Category::MaybeWin | Category::CursedWin => zermelo::Outcome::Win,
        Category::Draw => zermelo::Outcome::Draw,
        _ => zermelo::Outcome::Lose,
    };
    o as i8
}

impl NativeTablebase {
    /// The class on a fresh clock from a DTZ or Syzygy WDL table, else from the DTM table (no
    /// rule); a missing table when none holds the position.
    fn wdl_of(&self, pos: &Position) -> Result<i8, ProbeError> {
        if let Some(c) = self.tb.wdl_of(pos)? {
            return Ok(c.syzygy());
        }
        match self.tb.dtm_of(pos)? {
            Some(v) => Ok(wdl(v)),
            None => Err(self.tb.no_table(pos)),
        }
    }
}

#[pymethods]
impl NativeTablebase {
    #[new]
    #[pyo3(signature = (directories, rule = 100))]
    fn new(directories: Vec<PathBuf>, rule: u32) -> PyResult<NativeTablebase> {
        if directories.is_empty() {
            return Err(PyValueError::new_err("no directory of tables given"));
        }
        if !(1..=zermelo_chess::dtz::MAX_RULE).contains(&rule) {
            return Err(pyo3::exceptions::PyValueError::new_err(format!(
                "rule = {rule}: expected 1 to {} plies",
                zermelo_chess::dtz::MAX_RULE
            )));
        }
        // SAFETY: zermelo writes its tables by renaming a finished file into place, and
        // Syzygy's published files are not rewritten in place: a mapped file stays as it is
        // (the contract `Tablebase::open_mapped_all` asks of its caller, as the command line).
        #[allow(unsafe_code)]
        let tb = unsafe { LibTablebase::open_mapped_all(&directories) };
        Ok(NativeTablebase {
            tb: tb.with_rule(rule),
            directories,
        })
    }

    /// The drawing rule in plies (100: the 50-move rule) the DTZ tables are read for.
    #[getter]
    fn rule(&self) -> u32 {
        self.tb.rule()
    }

    /// The directories, searched in order.
    #[getter]
    fn directories(&self) -> Vec<String> {
        let dirs = &self.directories;
        dirs.iter().map(|d| d.display().to_string()).collect()
    }

    /// WDL of a FEN on a fresh clock: Syzygy's classes under the 50-move rule from zermelo's
    /// DTZ table or Syzygy's WDL table, else 2, 0 or -2 from the DTM table.
    fn probe_wdl(&self, py: Python<'_>, fen: &str) -> PyResult<i8> {
        let pos = position(fen)?;
        py.detach(|| self.wdl_of(&pos)).map_err(errors::probe)
    }

    /// Signed plies to mate of a FEN (see :attr:`Probe.dtm`); needs zermelo's DTM table.
    fn probe_dtm(&self, py: Python<'_>, fen: &str) -> PyResult<i64> {
        let pos = position(fen)?;
        py.detach(|| self.tb.probe(&pos))
            .map(dtm)
            .map_err(errors::probe)
    }

    /// Syzygy-signed DTZ of a FEN and whether it is exact, from zermelo's DTZ table or
    /// Syzygy's (as python-chess's ``probe_dtz``).
    fn probe_dtz(&self, py: Python<'_>, fen: &str) -> PyResult<(i32, bool)> {
        let pos = position(fen)?;
        let d = py.detach(|| self.tb.dtz_of(&pos)).map_err(errors::probe)?;
        match d {
            Some(d) => Ok((d.syzygy(), d.precise)),
            None => Err(errors::probe(self.tb.missing_dtz(&pos))),
        }
    }

    /// The answer for a FEN with its halfmove clock (:meth:`zermelo_chess::Tablebase::answer`,
    /// what ``zermelo tb probe`` prints).
    fn probe(&self, py: Python<'_>, fen: &str) -> PyResult<Probe> {
        let (pos, clock) = Position::from_fen_with_clock(fen).map_err(errors::fen)?;
        let a = py
            .detach(|| self.tb.answer(&pos, clock))
            .map_err(errors::probe)?;
        // On a fresh clock, as `probe_wdl`.
        let wdl = match a.dtz {
            Some(d) => Wdl50::of(d.value, self.tb.rule()).syzygy(),
            None => py.detach(|| self.wdl_of(&pos)).map_err(errors::probe)?,
        };
        Ok(Probe {
            outcome: a
                .dtm
                .map(|v| v.outcome() as i8)
                .or(a.dtz.map(|d| d.value.outcome() as i8))
                .or(a.class.map(outcome_of))
                .unwrap_or(zermelo::Outcome::Draw as i8),
            depth: a.dtm.and_then(Value::plies),
            wdl,
            category: a.class.map(|c| c.as_str().to_string()),
            dtz: a.dtz.map(|d| d.syzygy()),
            dtz_precise: a.dtz.is_none_or(|d| d.precise),
            dtm: a.dtm.map(dtm),
            best_move: a.moves_as_shown().first().map(|m| m.mv.to_string()),
        })
    }

    /// Every legal move of a FEN with the signed DTM of the position it leads to, for the
    /// side that moved (best first); needs zermelo's DTM tables.
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
        let mut job = GenerationJob::new(targets, &self.directories[0]);
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
        format!("Tablebase({:?})", self.directories())
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
        | JobError::Work { .. }
        | JobError::DiskFull(_) => "ReadError",
        JobError::Generate(g) => match g {
            GenError::Dependency { source, .. } => probe_class(&source),
            GenError::Unsupported(..) => return value_error(message),
            GenError::Engine {
                source: CompactError::TooBig { .. },
                ..
            } => return errors::too_big(message),
            GenError::WorkFile { .. } => "ReadError",
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
