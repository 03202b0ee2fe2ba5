//! [`Tablebase`]: directories of tables (opened lazily, read or memory-mapped) and what to ask
//! them: zermelo's own tables here, Syzygy's beside them in `sources.rs`.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, RwLock};
use std::time::{Duration, Instant};

use crate::dtz::{Wdl50, DEFAULT_RULE};
use crate::material::{Material, MAX_PIECES};
use crate::position::{Move, Position};
use crate::syzygy::{SyzygyError, SyzygyTables};
use crate::table::{Metric, Table, TableError};
use crate::value::Value;

/// Why a position cannot be probed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ProbeError {
    /// The table of this material is not available.
    #[error("no {metric} table for {material} ({pieces} pieces) in {place}; generate it with `zermelo tb gen {material}`")]
    MissingTable {
        /// `DTM` or `DTZ`.
        metric: &'static str,
        /// The material (canonical).
        material: Material,
        /// Its piece count.
        pieces: usize,
        /// Where it was looked for.
        place: String,
    },
    /// More pieces than any table holds ([`MAX_PIECES`] for zermelo's; Syzygy's hold 7).
    #[error("{pieces} pieces ({material}): zermelo's tables exist for at most {MAX_PIECES} pieces, Syzygy's for 7")]
    TooManyPieces {
        /// The material (canonical).
        material: Material,
        /// Its piece count.
        pieces: usize,
    },
    /// The table marks this position illegal (should not happen for a validated position).
    #[error("position {0} is not in its table (illegal)")]
    Illegal(String),
    /// A table file is unusable.
    #[error(transparent)]
    Table(#[from] TableError),
    /// A DTZ table generated for another rule length than the tablebase's.
    #[error("{path}: a DTZ table for a rule of {found} plies, expected {expected}; probe it with that rule (`--rule {found}`) or regenerate it with `zermelo tb gen {material} --rule {expected}`")]
    Rule {
        /// The file.
        path: String,
        /// The material.
        material: Material,
        /// The table's rule.
        found: u32,
        /// The tablebase's rule.
        expected: u32,
    },
    /// A Syzygy table (`.rtbw`, `.rtbz`) is missing or unusable; the error names the file.
    #[error(transparent)]
    Syzygy(#[from] SyzygyError),
    /// No table of either kind holds this position.
    #[error("no table for {material} ({pieces} pieces) in {place}: neither zermelo's ({}) nor Syzygy's ({syzygy}.rtbw, .rtbz)", zermelo_files(material, *pieces))]
    NoTable {
        /// The material (canonical).
        material: Material,
        /// As Syzygy names its files.
        syzygy: String,
        /// Its piece count.
        pieces: usize,
        /// Where they were looked for.
        place: String,
    },
}

/// How [`ProbeError::NoTable`] names zermelo's files of `material`: with the command that
/// writes them where `tb gen` can, and past [`MAX_PIECES`] without it.
fn zermelo_files(material: &Material, pieces: usize) -> String {
    if pieces <= MAX_PIECES {
        format!("{material}.zct, .zdz; `zermelo tb gen {material}` writes them")
    } else {
        format!("which hold at most {MAX_PIECES} pieces")
    }
}

/// One legal move under the 50-move rule: what it leads to in both metrics.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveDtz {
    /// The move.
    pub mv: Move,
    /// Whether it zeroes the clock (a capture or a pawn move).
    pub zeroing: bool,
    /// The value of the position after it, for its side to move, in the zeroing scale
    /// ([`crate::dtz`]).
    pub after: Value,
    /// The move's value for the mover in the zeroing scale: the exit value of a zeroing move
    /// ([`Wdl50::zeroing_exit`]), one ply more than `after` otherwise.
    pub value: Value,
    /// Whether `after`'s depth is exact: always from zermelo's tables; a Syzygy DTZ may be
    /// one ply short of the truth (see [`crate::SyzygyDtz`]). A zeroing move's value is its
    /// class's, exact either way.
    pub precise: bool,
}

/// Which kind of table a lookup wants.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Kind {
    Dtm,
    Dtz,
}

/// A set of tables: directories searched in order and opened lazily, plus tables inserted in
/// memory. The directories may hold zermelo's tables (`.zct`, `.zdz`), Syzygy's (`.rtbw`,
/// `.rtbz`) or both: [`Tablebase::answer`] and the probes of `sources.rs`
/// ([`Tablebase::dtz_of`], [`Tablebase::wdl_of`]) take a material's WDL and DTZ from zermelo's
/// table when there is one and from Syzygy's otherwise (under the 50-move rule only: Syzygy's
/// tables know no other), DTM from zermelo's only. The other probes here read zermelo's
/// tables only.
pub struct Tablebase {
    dirs: Vec<PathBuf>,
    mapped: bool,
    /// The rule every DTZ table must have been generated for.
    rule: u32,
    tables: RwLock<HashMap<(Material, Kind), Arc<Table>>>,
    /// Whether zermelo's table of a material (by [`material_key`], both orientations apart)
    /// and kind is there: `None` found, `Some(when)` found missing then, looked for again a
    /// second later (a table `tb gen` writes while a server runs is found), not on every
    /// probe.
    presence: RwLock<HashMap<(u64, Kind), Option<Instant>>>,
    syzygy: SyzygyTables,
}

/// How long a table found missing is taken to stay missing.
const ABSENT_FOR: Duration = Duration::from_secs(1);

fn kind_of(metric: Metric) -> Kind {
    match metric {
        Metric::Dtm => Kind::Dtm,
        Metric::Dtz { .. } => Kind::Dtz,
    }
}

impl Tablebase {
    fn with_dirs(dirs: &[PathBuf], mapped: bool) -> Tablebase {
        Tablebase {
            dirs: dirs.to_vec(),
            mapped,
            rule: DEFAULT_RULE,
            tables: RwLock::default(),
            presence: RwLock::default(),
            syzygy: SyzygyTables::unchecked(dirs, mapped),
        }
    }

    /// Tables read from `dir` into memory on first use ([`Table::open`]).
    pub fn open(dir: &Path) -> Tablebase {
        Tablebase::open_all(&[dir.to_path_buf()])
    }

    /// Tables of `dirs`, searched in order (the first directory holding a file wins), read
    /// into memory on first use.
    pub fn open_all(dirs: &[PathBuf]) -> Tablebase {
        Tablebase::with_dirs(dirs, false)
    }

    /// Tables of `dir` memory-mapped on first use ([`Table::open_mapped`]): only the blocks
    /// probed are read, which suits large tables and few probes.
    ///
    /// # Safety
    ///
    /// No table file in `dir` may be modified or truncated while this tablebase lives
    /// (replacing one by rename, as `zermelo tb gen` does, is fine).
    #[allow(unsafe_code)]
    pub unsafe fn open_mapped(dir: &Path) -> Tablebase {
        // SAFETY: forwarded to the caller.
        unsafe { Tablebase::open_mapped_all(&[dir.to_path_buf()]) }
    }

    /// Tables of `dirs`, searched in order, memory-mapped on first use, zermelo's and
    /// Syzygy's alike ([`SyzygyTables::open_mapped`]).
    ///
    /// # Safety
    ///
    /// As [`open_mapped`](Self::open_mapped), for every file in `dirs`.
    #[allow(unsafe_code)]
    pub unsafe fn open_mapped_all(dirs: &[PathBuf]) -> Tablebase {
        Tablebase::with_dirs(dirs, true)
    }

    /// The directories searched, in order (none for [`in_memory`](Self::in_memory)).
    pub fn dirs(&self) -> &[PathBuf] {
        &self.dirs
    }

    /// Syzygy's tables in the same directories, as the probes of `sources.rs` read them.
    pub fn syzygy(&self) -> &SyzygyTables {
        &self.syzygy
    }

    /// Lets the kernel take the pages of every mapped table opened so far out of the
    /// resident set ([`Table::release_pages`]): a generation calls it between groups, so
    /// that the blocks of its smaller tables read for one group do not stay counted.
    pub fn release_pages(&self) {
        let tables = self.tables.read().unwrap_or_else(|e| e.into_inner());
        tables.values().for_each(|t| t.release_pages());
    }

    /// No directory: only tables given to [`insert`](Self::insert).
    pub fn in_memory() -> Tablebase {
        Tablebase::with_dirs(&[], false)
    }

    /// The same tablebase for DTZ tables generated under a rule of `rule` plies (default
    /// 100); a DTZ table of another rule is refused ([`ProbeError::Rule`]).
    pub fn with_rule(mut self, rule: u32) -> Tablebase {
        self.rule = rule;
        self
    }

    /// The rule DTZ tables must have.
    pub fn rule(&self) -> u32 {
        self.rule
    }

    /// Adds (or replaces) a table (DTM or DTZ, by its metric).
    pub fn insert(&self, table: Table) {
        // A table found missing before is there now.
        self.presence
            .write()
            .unwrap_or_else(|e| e.into_inner())
            .clear();
        let mut map = self.tables.write().unwrap_or_else(|e| e.into_inner());
        map.insert(
            (table.material().clone(), kind_of(table.metric())),
            Arc::new(table),
        );
    }

    /// Whether the DTM table of `material` is loaded or on disk (anything at its path counts:
    /// a FIFO or a dangling link there is reported when the table is opened, not taken for a
    /// missing table).
    pub fn has(&self, material: &Material) -> bool {
        self.has_kind(material, Kind::Dtm)
    }

    /// Whether the DTZ table of `material` is loaded or on disk (as [`has`](Self::has)).
    pub fn has_dtz(&self, material: &Material) -> bool {
        self.has_kind(material, Kind::Dtz)
    }

    fn has_kind(&self, material: &Material, kind: Kind) -> bool {
        let loaded = self
            .tables
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .contains_key(&(material.clone(), kind));
        loaded
            || self
                .paths_of(material, kind)
                .any(|p| std::fs::symlink_metadata(p).is_ok())
    }

    /// Whether zermelo's own table of `pos`'s material (`dtz`: its DTZ table, else its DTM
    /// table) is loaded or on disk, a table found missing taken as missing for a second
    /// ([`has`](Self::has) looks every time): what the probes of `sources.rs` ask before each
    /// lookup, so it costs a hash lookup, not a `Material`.
    pub(crate) fn has_own(&self, pos: &Position, dtz: bool) -> bool {
        let kind = if dtz { Kind::Dtz } else { Kind::Dtm };
        let key = (material_key(pos), kind);
        let known = self
            .presence
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .get(&key)
            .copied();
        match known {
            Some(None) => return true,
            Some(Some(t)) if t.elapsed() < ABSENT_FOR => return false,
            _ => {}
        }
        let m = Material::of(pos);
        let here = m.piece_count() <= MAX_PIECES && self.has_kind(&m.canonical().0, kind);
        let mut presence = self.presence.write().unwrap_or_else(|e| e.into_inner());
        presence.insert(key, (!here).then(Instant::now));
        here
    }

    fn metric_of(&self, kind: Kind) -> Metric {
        match kind {
            Kind::Dtm => Metric::Dtm,
            Kind::Dtz => Metric::Dtz { rule: self.rule },
        }
    }

    /// Where the table of `material` of `kind` would be, in each directory in order.
    fn paths_of(&self, material: &Material, kind: Kind) -> impl Iterator<Item = PathBuf> + '_ {
        let name = self.metric_of(kind).file_name(material);
        self.dirs.iter().map(move |d| d.join(&name))
    }

    /// The directories, as errors name them (`memory` without any).
    pub fn place_names(&self) -> String {
        self.place()
    }

    /// The directories, as errors name them.
    pub(crate) fn place(&self) -> String {
        if self.dirs.is_empty() {
            return "memory".to_string();
        }
        let names: Vec<String> = self.dirs.iter().map(|d| d.display().to_string()).collect();
        names.join(", ")
    }

    /// The DTM table of a canonical `material`, opened on first use.
    pub fn table(&self, material: &Material) -> Result<Arc<Table>, ProbeError> {
        self.table_of(material, Kind::Dtm)
    }

    /// The DTZ table of a canonical `material`, opened on first use.
    pub fn dtz_table(&self, material: &Material) -> Result<Arc<Table>, ProbeError> {
        self.table_of(material, Kind::Dtz)
    }

    /// The table of `material` of `metric` (DTM, or DTZ of this tablebase's rule).
    pub fn table_for(&self, material: &Material, metric: Metric) -> Result<Arc<Table>, ProbeError> {
        self.table_of(material, kind_of(metric))
    }

    fn table_of(&self, material: &Material, kind: Kind) -> Result<Arc<Table>, ProbeError> {
        let key = (material.clone(), kind);
        if let Some(t) = self
            .tables
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .get(&key)
        {
            return Ok(t.clone());
        }
        let missing = || ProbeError::MissingTable {
            metric: self.metric_of(kind).name(),
            material: material.clone(),
            pieces: material.piece_count(),
            place: self.place(),
        };
        if material.piece_count() > MAX_PIECES {
            return Err(ProbeError::TooManyPieces {
                material: material.clone(),
                pieces: material.piece_count(),
            });
        }
        let mut found = None;
        for path in self.paths_of(material, kind) {
            if table_file_present(&path)? {
                found = Some(path);
                break;
            }
        }
        let path = found.ok_or_else(missing)?;
        let table = if self.mapped {
            // SAFETY: the caller of `open_mapped` promised the files stay as they are.
            #[allow(unsafe_code)]
            unsafe {
                Table::open_mapped(&path)?
            }
        } else {
            Table::open(&path)?
        };
        if table.material() != material {
            return Err(ProbeError::Table(TableError::Corrupt {
                source_name: path.display().to_string(),
                reason: format!("holds {}, expected {material}", table.material()),
            }));
        }
        match (kind, table.metric()) {
            (Kind::Dtm, Metric::Dtm) => {}
            (Kind::Dtz, Metric::Dtz { rule }) if rule == self.rule => {}
            (Kind::Dtz, Metric::Dtz { rule }) => {
                return Err(ProbeError::Rule {
                    path: path.display().to_string(),
                    material: material.clone(),
                    found: rule,
                    expected: self.rule,
                })
            }
            (_, found) => {
                return Err(ProbeError::Table(TableError::Corrupt {
                    source_name: path.display().to_string(),
                    reason: format!(
                        "a {} table where a {} table is expected",
                        found.name(),
                        self.metric_of(kind).name()
                    ),
                }))
            }
        }
        let table = Arc::new(table);
        let mut map = self.tables.write().unwrap_or_else(|e| e.into_inner());
        Ok(map.entry(key).or_insert(table).clone())
    }

    /// The value of `pos` for the side to move.
    pub fn probe(&self, pos: &Position) -> Result<Value, ProbeError> {
        if pos.ep_square().is_some() {
            // Tables hold positions without en passant rights: look one ply ahead.
            return self.best_of_moves(pos);
        }
        self.lookup(pos, Kind::Dtm)
    }

    /// The stored value of `pos` (no en passant rights) in its table of `kind`; bare kings
    /// are a draw.
    fn lookup(&self, pos: &Position, kind: Kind) -> Result<Value, ProbeError> {
        let material = Material::of(pos);
        if material.piece_count() == 2 {
            return Ok(Value::Draw);
        }
        let (canonical, flipped) = material.canonical();
        let table = self.table_of(&canonical, kind)?;
        let oriented = if flipped { pos.flip_colors() } else { *pos };
        let idx = table
            .indexer()
            .rank(&oriented)
            .ok_or_else(|| ProbeError::Illegal(pos.fen()))?;
        Ok(table.value_of_legal(idx)?)
    }

    /// The value of `pos` in the zeroing scale ([`crate::dtz`]): its class under the rule
    /// and its DTZ, for the side to move, on the clock's first ply (apply a clock with
    /// [`Wdl50::with_clock`]). Needs the DTZ tables of `pos`'s material and, with en passant
    /// rights, of what the captures lead to.
    pub fn probe_dtz(&self, pos: &Position) -> Result<Value, ProbeError> {
        if pos.ep_square().is_some() {
            let moves = self.probe_moves_dtz(pos)?;
            return Ok(match moves.first() {
                Some(m) => m.value,
                None if pos.is_check() => Value::Lose(0),
                None => Value::Draw,
            });
        }
        self.lookup(pos, Kind::Dtz)
    }

    /// The class of `pos` under the rule when `clock` plies have passed since the last
    /// capture or pawn move.
    pub fn probe_wdl50(&self, pos: &Position, clock: u32) -> Result<Wdl50, ProbeError> {
        Ok(Wdl50::with_clock(self.probe_dtz(pos)?, self.rule, clock))
    }

    /// Every legal move with its zeroing-scale values, best first for the rule (the fastest
    /// zeroing that keeps a win, the longest resistance in a loss); moves of equal value by
    /// depth to mate when the DTM table is there (a mate in one before a capture that zeroes
    /// as soon), then by UCI.
    pub fn probe_moves_dtz(&self, pos: &Position) -> Result<Vec<MoveDtz>, ProbeError> {
        let mut out = Vec::new();
        for m in pos.legal_moves() {
            let child = pos.play(m);
            let after = self.probe_dtz(&child)?;
            let zeroing = pos.is_zeroing(m);
            let value = if zeroing {
                Wdl50::of(after, self.rule).zeroing_exit(self.rule)
            } else {
                after.for_parent()
            };
            out.push(MoveDtz {
                mv: m,
                zeroing,
                after,
                value,
                precise: true,
            });
        }
        self.order_moves(pos, &mut out)?;
        Ok(out)
    }

    /// Sorts moves best first for the rule, as [`probe_moves_dtz`](Self::probe_moves_dtz)
    /// lists them.
    pub(crate) fn order_moves(
        &self,
        pos: &Position,
        moves: &mut [MoveDtz],
    ) -> Result<(), ProbeError> {
        moves.sort_by(|a, b| {
            b.value
                .cmp(&a.value)
                .then_with(|| a.mv.to_string().cmp(&b.mv.to_string()))
        });
        self.mates_first_among_equals(pos, moves)
    }

    /// Orders each run of moves of equal (decisive) zeroing-scale value by depth to mate, best
    /// for the mover first; a run stays in UCI order when a DTM table is missing. Drawn runs
    /// are left alone: a DTZ draw is a DTM draw.
    fn mates_first_among_equals(
        &self,
        pos: &Position,
        moves: &mut [MoveDtz],
    ) -> Result<(), ProbeError> {
        let mut start = 0;
        while start < moves.len() {
            let value = moves[start].value;
            let end = start
                + moves[start..]
                    .iter()
                    .take_while(|m| m.value == value)
                    .count();
            if end - start > 1 && value != Value::Draw {
                let mut keyed = Vec::with_capacity(end - start);
                let mut complete = true;
                for m in &moves[start..end] {
                    match self.probe(&pos.play(m.mv)) {
                        Ok(v) => keyed.push((v.for_parent(), *m)),
                        Err(
                            ProbeError::MissingTable { metric: "DTM", .. }
                            | ProbeError::TooManyPieces { .. },
                        ) => {
                            complete = false;
                            break;
                        }
                        Err(e) => return Err(e),
                    }
                }
                if complete {
                    // Stable: equal depths keep their UCI order.
                    keyed.sort_by_key(|k| std::cmp::Reverse(k.0));
                    for (slot, (_, m)) in moves[start..end].iter_mut().zip(keyed) {
                        *slot = m;
                    }
                }
            }
            start = end;
        }
        Ok(())
    }

    fn best_of_moves(&self, pos: &Position) -> Result<Value, ProbeError> {
        let moves = self.probe_moves(pos)?;
        Ok(match moves.first() {
            Some(&(_, v)) => v,
            None if pos.is_check() => Value::Lose(0),
            None => Value::Draw,
        })
    }

    /// Every legal move with its value for the side to move, best first (ties by UCI).
    pub fn probe_moves(&self, pos: &Position) -> Result<Vec<(Move, Value)>, ProbeError> {
        let mut out = Vec::new();
        for m in pos.legal_moves() {
            out.push((m, self.probe(&pos.play(m))?.for_parent()));
        }
        out.sort_by(|a, b| {
            b.1.cmp(&a.1)
                .then_with(|| a.0.to_string().cmp(&b.0.to_string()))
        });
        Ok(out)
    }

    /// The principal line from `pos`: best moves until mate, at most `max_plies` moves.
    pub fn principal_line(
        &self,
        pos: &Position,
        max_plies: usize,
    ) -> Result<Vec<Move>, ProbeError> {
        let mut line = Vec::new();
        let mut cur = *pos;
        while line.len() < max_plies {
            let Some(&(m, _)) = self.probe_moves(&cur)?.first() else {
                break;
            };
            line.push(m);
            cur = cur.play(m);
        }
        Ok(line)
    }
}

/// The material of `pos` as one number: a 4-bit count per colour and role.
fn material_key(pos: &Position) -> u64 {
    pos.pieces().fold(0, |key, (_, p)| {
        key + (1u64 << (4 * (p.color.index() * 6 + p.role as usize)))
    })
}

/// Whether a table file is at `path`: `false` when nothing is there, an error naming what is
/// there when it is not a regular file (opening a FIFO would wait for a writer forever; a
/// directory or a device is no table) or a symbolic link to nothing.
///
/// # Errors
/// [`ProbeError::Table`] ([`TableError::Io`]) naming what is at `path`.
pub fn table_file_present(path: &Path) -> Result<bool, ProbeError> {
    let refuse = |what: &str| {
        ProbeError::Table(TableError::Io {
            path: path.to_path_buf(),
            source: std::io::Error::new(std::io::ErrorKind::InvalidInput, what.to_string()),
        })
    };
    match std::fs::metadata(path) {
        Ok(m) if m.is_file() => Ok(true),
        Ok(m) if m.is_dir() => Err(refuse("a directory, not a table file")),
        Ok(_) => Err(refuse(
            "not a regular file (a FIFO, socket or device): tables are read from regular files",
        )),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => match std::fs::read_link(path) {
            Ok(target) => Err(refuse(&format!(
                "a symbolic link to {}, which does not exist",
                target.display()
            ))),
            Err(_) => Ok(false),
        },
        Err(e) => Err(ProbeError::Table(TableError::Io {
            path: path.to_path_buf(),
            source: e,
        })),
    }
}
