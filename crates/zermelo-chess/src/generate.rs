//! Generation of one table by retrograde analysis on un-moves, on zermelo's compact engine
//! ([`zermelo::game::compact`]): no graph, no stored moves, two bytes and one bit per index of
//! the group being solved.
//!
//! A pawnless table is solved as one group. A pawn table is solved one *group of pawn
//! configurations* at a time: pawn moves are irreversible and the index puts the pawn digits
//! first ([`Indexer`](crate::Indexer)), so each configuration (with each side to move) is a
//! contiguous block of indices. A group holds configurations of one *stage* (the sum of the
//! pawns' advancement), each with its left-right mirror image (a king crossing the board's
//! middle line mirrors the canonical position), and the stages are solved most advanced first.
//! A pawn push leads into a stage already solved; the finished groups' values wait in a file in
//! the work folder (`<material>.values`), or in memory when there is none, and only the blocks
//! a group's pushes reach are read back. The table is compressed from that file block by block.
//!
//! A group is an [`IndexedGame`] over its own dense range of indices: a hole for an illegal
//! index, a terminal for a mate or stalemate, every other position open with its distinct
//! in-group children (moves of kings and pieces) and its best *exit*: the best, for the mover,
//! among the moves that leave the group (captures and promotions, probed from the smaller
//! tables; pawn moves, read from the groups already solved). Its predecessors are the
//! bitboard un-moves of [`SliceGame`]. The engine solves it layer by layer with the same
//! fast-win / slow-loss depths as [`zermelo::solve::retrograde`] on the explicit graph, the
//! same result for any thread count, and checkpoints at layer boundaries in the work folder
//! (`<material>/`); `<material>.groups` records how many groups are in the values file.

use std::cell::RefCell;
use std::fs::File;
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU16, AtomicU64, Ordering::Relaxed};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use rayon::prelude::*;
pub use zermelo::game::compact::Lookahead;
use zermelo::game::compact::{
    self, CompactError, CompactOptions, CompactSolution, IndexedGame, Start,
};
use zermelo::Outcome;

use crate::checkpoint;
use crate::dtz::Wdl50;
use crate::material::{Material, MAX_PIECES};
use crate::position::Position;
use crate::probe::{ProbeError, Tablebase};
use crate::slice::{Board, Child, SliceGame};
use crate::starts::StartLog;
use crate::table::{Metric, Table, TableError, WriteOptions};
use crate::value::{Value, MAX_PLIES};

/// Why a table cannot be generated.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum GenError {
    /// A smaller table it depends on is missing or corrupt.
    #[error("generating {material}: {source}")]
    Dependency {
        /// The table being generated.
        material: Material,
        /// The probe failure.
        source: Box<ProbeError>,
    },
    /// The material is not supported (too many pieces, or not canonical).
    #[error("cannot generate {0}: {1}")]
    Unsupported(Material, String),
    /// The checkpoint in the work folder cannot be read or written.
    #[error("generating {material}: checkpoint: {source}")]
    Checkpoint {
        /// The table being generated.
        material: Material,
        /// The cause.
        source: std::io::Error,
    },
    /// A file of the work folder cannot be written or read: the disk is full, a permission,
    /// an I/O error (a damaged or foreign file is [`GenError::Checkpoint`]).
    #[error("generating {material}: {}: {source}", path.display())]
    WorkFile {
        /// The table being generated.
        material: Material,
        /// The file.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// The compact engine refused (a damaged or foreign checkpoint, a memory limit, threads).
    #[error("generating {material}: {source}")]
    Engine {
        /// The table being generated.
        material: Material,
        /// The engine's error.
        source: CompactError,
    },
    /// Stopped as [`GenOptions::stop_after_groups`] asked (a test's kill at a known point).
    #[error("generating {0}: stopped after {1} groups, as asked")]
    Stopped(Material, usize),
    /// A depth to mate does not fit in an entry byte.
    #[error(
        "generating {0}: a depth to mate exceeds {MAX_PLIES} plies, the most a table entry holds"
    )]
    TooDeep(Material),
}

/// The most indices of pawn configurations solved together (a group holds at least one
/// configuration and its mirror image, whatever their size).
const GROUP_ENTRIES: u64 = 1 << 27;

/// How to run a generation.
#[derive(Clone, Debug)]
pub struct GenOptions {
    /// The work folder: checkpoints (`<material>/`), the values of the finished groups of a pawn
    /// table (`<material>.values`, `<material>.groups`). `None`: no checkpoints, values in
    /// memory. A run started again with the same folder resumes, and the result is
    /// byte-identical to an uninterrupted run.
    pub work_dir: Option<PathBuf>,
    /// The least time between two checkpoints (taken at layer boundaries).
    pub checkpoint_interval: Duration,
    /// Keep the group's cells in a memory-mapped file in the work folder instead of on the heap.
    pub mapped: bool,
    /// With `mapped`: keep the mapped cells' pages resident in this process under about this
    /// many bytes ([`CompactOptions::resident_budget`]), so that the state streams from the
    /// work folder instead of filling memory.
    pub resident_budget: Option<u64>,
    /// Refuse a group whose engine state exceeds this many bytes.
    pub max_memory: Option<u64>,
    /// Set to the layer (depth in plies) being solved, for a progress display.
    pub layer: Option<Arc<AtomicU64>>,
    /// The table to generate: depth to mate, or DTZ under a rule (whose smaller tables must
    /// be DTZ tables of the same rule, and the tablebase's rule the same).
    pub metric: Metric,
    /// For tests: stop with [`GenError::Stopped`] once this many groups of a pawn table are in
    /// the work folder, leaving it as a kill at that point would.
    pub stop_after_groups: Option<usize>,
    /// How the engine finds the wins above a layer of lost positions (the same tables every
    /// way; [`Lookahead::Auto`], the default, chooses per layer).
    pub lookahead: Lookahead,
}

impl Default for GenOptions {
    fn default() -> GenOptions {
        GenOptions {
            work_dir: None,
            checkpoint_interval: Duration::from_secs(60),
            mapped: false,
            resident_budget: None,
            max_memory: None,
            layer: None,
            metric: Metric::Dtm,
            stop_after_groups: None,
            lookahead: Lookahead::Auto,
        }
    }
}

/// Generates the table of the canonical `material`; every table it depends on must be
/// reachable through `tb`. `progress` counts indices settled (decided, or in a finished group).
pub fn generate(
    material: &Material,
    tb: &Tablebase,
    progress: &Arc<AtomicU64>,
) -> Result<Table, GenError> {
    generate_with(material, tb, progress, &GenOptions::default())
}

/// Deletes the checkpoints, the values file and the group count of `material`'s table of
/// `metric` in `work_dir` (call it once the table is written).
pub fn discard_checkpoint(
    work_dir: &Path,
    material: &Material,
    metric: Metric,
) -> std::io::Result<()> {
    let name = work_name(material, metric);
    checkpoint::remove(work_dir, &name)?;
    for path in [
        values_path(work_dir, &name),
        checkpoint::finished_table_path(work_dir, &name),
    ] {
        match std::fs::remove_file(path) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(e),
            _ => {}
        }
    }
    Ok(())
}

/// Writes a finished DTM table to `path` in the work folder `dir` and gives it back mapped
/// from there; removes the DTM checkpoint it supersedes.
#[allow(unsafe_code)]
fn keep_table(table: Table, path: &Path, dir: &Path) -> Result<Table, GenError> {
    let material = table.material().clone();
    let name = work_name(&material, Metric::Dtm);
    // SAFETY: as in `kept_table`.
    let kept = unsafe { table.keep_mapped(path) }.map_err(|e| match e {
        TableError::Io { path, source } => work_error(&material, &path, source),
        e => GenError::Checkpoint {
            material: material.clone(),
            source: std::io::Error::other(e.to_string()),
        },
    })?;
    let engine = checkpoint::group_dir(dir, &name);
    checkpoint::remove_engine(dir, &name).map_err(|e| work_error(&material, &engine, e))?;
    Ok(kept)
}

/// A failure on the work file `path`: damaged or foreign contents (whose message names the
/// file) are [`GenError::Checkpoint`], the rest (the disk full, a permission)
/// [`GenError::WorkFile`].
fn work_error(material: &Material, path: &Path, source: std::io::Error) -> GenError {
    use std::io::ErrorKind::{InvalidData, InvalidInput};
    match source.kind() {
        InvalidData | InvalidInput => GenError::Checkpoint {
            material: material.clone(),
            source,
        },
        _ => GenError::WorkFile {
            material: material.clone(),
            path: path.to_path_buf(),
            source,
        },
    }
}

/// A damaged checkpoint of the engine with what to do about it: delete the checkpoints of the
/// group (`dir`, the engine's work folder) and run again, the group then starting over. A
/// reason that says what to do already is left as it is.
fn with_remedy(e: CompactError, dir: Option<&Path>) -> CompactError {
    match (e, dir) {
        (CompactError::Checkpoint { path, reason }, Some(dir)) if !reason.contains("remove it") => {
            CompactError::Checkpoint {
                reason: format!(
                    "{reason}; delete {} (the checkpoints of the group being solved) and run the \
                     same command again: the group starts over",
                    dir.display()
                ),
                path,
            }
        }
        (e, _) => e,
    }
}

/// The DTM table of a pawnless pair kept in the work folder by a run killed while it solved
/// the DTZ table: mapped, after every block's checksum is checked. A damaged or foreign file
/// is removed (the table is made again); a path that is not a regular file is refused.
#[allow(unsafe_code)]
fn kept_table(path: &Path, material: &Material) -> Result<Option<Table>, GenError> {
    let ck = |source| work_error(material, path, source);
    match std::fs::symlink_metadata(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(ck(e)),
        Ok(m) if !m.file_type().is_file() => {
            return Err(ck(std::io::Error::new(
                std::io::ErrorKind::InvalidData,
                format!("{} is not a regular file", path.display()),
            )))
        }
        Ok(_) => {}
    }
    // SAFETY: the work folder's file is this run's own: never rewritten while the table
    // lives (only removed once the table is written out).
    match unsafe { Table::open_mapped(path) } {
        Ok(t) if t.material() == material && t.metric() == Metric::Dtm => Ok(Some(t)),
        _ => {
            std::fs::remove_file(path).map_err(ck)?;
            Ok(None)
        }
    }
}

/// What a table's files in the work folder are named after: `KRPvKR`, `KRPvKR.dtz`.
fn work_name(material: &Material, metric: Metric) -> String {
    match metric {
        Metric::Dtm => material.to_string(),
        Metric::Dtz { .. } => format!("{material}.dtz"),
    }
}

/// The file holding the values of the groups of a pawn table solved so far.
fn values_path(work_dir: &Path, name: &str) -> PathBuf {
    work_dir.join(format!("{name}.values"))
}

/// Names group `k` of `material`'s table of `metric` in the engine's checkpoints.
fn fingerprint(material: &Material, metric: Metric, k: usize, len: u64) -> u64 {
    let name = material.to_string();
    let rule = match metric {
        Metric::Dtm => 0u32,
        Metric::Dtz { rule } => rule,
    };
    compact::fingerprint(&[
        b"zermelo-chess group v5",
        name.as_bytes(),
        metric.name().as_bytes(),
        &rule.to_le_bytes(),
        &(k as u64).to_le_bytes(),
        &len.to_le_bytes(),
    ])
}

/// [`generate`] with checkpoints in a work folder (see [`GenOptions`]).
pub fn generate_with(
    material: &Material,
    tb: &Tablebase,
    progress: &Arc<AtomicU64>,
    options: &GenOptions,
) -> Result<Table, GenError> {
    let mut run = Run::new(material, tb, progress, options)?;
    for k in run.done()..run.groups.len() {
        run.solve_group(k, Seeding::Plain)?;
    }
    run.finish()
}

/// The DTM and the DTZ table of a material, from [`generate_pair`].
#[derive(Debug)]
pub struct Pair {
    /// The depth-to-mate table.
    pub dtm: Table,
    /// The DTZ table under the tablebase's rule.
    pub dtz: Table,
    /// The time spent solving the DTM groups (their seeding probes the DTZ exits too).
    pub dtm_time: Duration,
    /// The time spent solving the DTZ groups.
    pub dtz_time: Duration,
    /// How the DTZ seeding got its starts: read from the starts the DTM seeding recorded,
    /// or computed (what a resumed run could not find recorded).
    pub dtz_starts: StartCounts,
}

/// How many starts of a DTZ seeding in a [`generate_pair`] were read from the recorded ones
/// and how many computed (board, moves, exits probed). An uninterrupted run computes almost
/// none (a start the log cannot hold: more than 255 moves); a resumed run reads the starts
/// the killed one recorded in the work folder.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StartCounts {
    /// Starts read from the log.
    pub replayed: u64,
    /// Starts computed.
    pub computed: u64,
}

/// Generates the DTM and the DTZ table (of the tablebase's rule) of the canonical `material`
/// together: each DTM group is seeded with the DTZ exits probed too and the DTZ starts
/// recorded (two bytes per index), and the DTZ group is solved right after it from those starts
/// without generating a move. The tables are the same as [`generate_with`]'s, one metric at a
/// time. `options.metric` is not read; `options.stop_after_groups` counts DTZ groups. A run
/// resumed from the work folder goes on where each metric stopped, and seeds its DTZ group from
/// the starts the killed run recorded there (`<material>.dtz.starts`, checked run by run: what
/// is missing or damaged is computed again). `progress` counts the indices of both tables.
pub fn generate_pair(
    material: &Material,
    tb: &Tablebase,
    progress: &Arc<AtomicU64>,
    options: &GenOptions,
) -> Result<Pair, GenError> {
    let rule = tb.rule();
    let dtm_options = GenOptions {
        metric: Metric::Dtm,
        stop_after_groups: None,
        ..options.clone()
    };
    let dtz_options = GenOptions {
        metric: Metric::Dtz { rule },
        ..options.clone()
    };
    let t0 = Instant::now();
    let dtz = Run::new(material, tb, progress, &dtz_options)?;
    // A pawnless DTM table is kept in the work folder once finished: a run killed during the
    // DTZ solve finds it there.
    let kept_path = (options.work_dir.as_deref())
        .filter(|_| !dtz.pawns)
        .map(|d| checkpoint::finished_table_path(d, &work_name(material, Metric::Dtm)));
    let mut dtm_table = match &kept_path {
        Some(p) => kept_table(p, material)?,
        None => None,
    };
    let mut dtm = match &dtm_table {
        Some(t) => {
            progress.fetch_add(t.size(), Relaxed);
            None
        }
        None => Some(Run::new(material, tb, progress, &dtm_options)?),
    };
    let mut dtz = dtz;
    let (mut dtm_time, mut dtz_time) = (t0.elapsed(), Duration::ZERO);
    let mut dtz_starts = StartCounts::default();
    for k in 0..dtz.groups.len() {
        let len = Window::new(dtz.game.indexer(), &dtz.groups[k]).len() as u64;
        let print = fingerprint(material, dtz.metric, k, len);
        let path = dtz
            .dir
            .as_deref()
            .map(|d| checkpoint::starts_path(d, &dtz.name));
        let mut log = None;
        if let Some(run) = dtm.as_mut().filter(|r| k >= r.done()) {
            let t0 = Instant::now();
            let recorded = match &path {
                Some(p) => StartLog::open(p, len, rule, print).map_err(|e| run.file(p, e))?,
                None => StartLog::in_memory(len, rule),
            };
            run.solve_group(
                k,
                Seeding::Record {
                    log: &recorded,
                    twin: &dtz,
                },
            )?;
            log = Some(recorded);
            dtm_time += t0.elapsed();
        } else if let Some(p) = path.as_deref().filter(|_| k >= dtz.done()) {
            // The DTM group was finished before a kill: its starts may be in the work folder.
            log = StartLog::existing(p, len, rule, print).map_err(|e| dtz.file(p, e))?;
        }
        if !dtz.pawns {
            // A pawnless table is one group: its DTM state is freed before the DTZ solve, the
            // table kept in the work folder (mapped: its entries need not stay in memory) and
            // the DTM checkpoint it supersedes removed.
            if let Some(run) = dtm.take() {
                let t0 = Instant::now();
                let table = run.finish()?;
                dtm_table = Some(match (&kept_path, dtz.dir.as_deref()) {
                    (Some(p), Some(d)) => keep_table(table, p, d)?,
                    _ => table,
                });
                dtm_time += t0.elapsed();
            }
        }
        if k >= dtz.done() {
            let t0 = Instant::now();
            let counts =
                dtz.solve_group(k, log.as_ref().map_or(Seeding::Plain, Seeding::Replay))?;
            dtz_starts.replayed += counts.replayed;
            dtz_starts.computed += counts.computed;
            dtz_time += t0.elapsed();
        }
    }
    if let Some(run) = dtm.take() {
        let t0 = Instant::now();
        dtm_table = Some(run.finish()?);
        dtm_time += t0.elapsed();
    }
    let t0 = Instant::now();
    let dtz_table = dtz.finish()?;
    dtz_time += t0.elapsed();
    Ok(Pair {
        dtm: dtm_table.expect("every table has a group"),
        dtz: dtz_table,
        dtm_time,
        dtz_time,
        dtz_starts,
    })
}

/// How a group's positions get their starts.
#[derive(Clone, Copy)]
enum Seeding<'b, 'a> {
    /// Computed: board, moves, exits.
    Plain,
    /// Computed, and the DTZ starts recorded in the log (a DTM group): `twin` is the DTZ
    /// run, whose finished groups and smaller tables give the DTZ exits.
    Record {
        log: &'b StartLog,
        twin: &'b Run<'a>,
    },
    /// Read from the log where recorded (a DTZ group after its DTM group).
    Replay(&'b StartLog),
}

/// The generation of one table of one metric, group by group.
struct Run<'a> {
    material: &'a Material,
    tb: &'a Tablebase,
    progress: &'a Arc<AtomicU64>,
    options: GenOptions,
    metric: Metric,
    game: SliceGame,
    /// DTZ: the material's DTM table, whose draws are the DTZ table's.
    draws_from: Option<Arc<Table>>,
    groups: Vec<Vec<u64>>,
    dir: Option<PathBuf>,
    pawns: bool,
    name: String,
    table_print: u64,
    kept: checkpoint::Finished,
    store: Store,
    /// A pawnless table's solved group.
    last: Option<CompactSolution>,
    /// The deepest value of the groups solved, if this run solved them all (not resumed past
    /// a finished group): below `Lose(254)`, a DTM table's filler entry marks only holes.
    deepest: Option<u32>,
}

impl<'a> Run<'a> {
    fn new(
        material: &'a Material,
        tb: &'a Tablebase,
        progress: &'a Arc<AtomicU64>,
        options: &GenOptions,
    ) -> Result<Run<'a>, GenError> {
        if !material.is_canonical()
            || material.piece_count() > MAX_PIECES
            || material.piece_count() < 3
        {
            return Err(GenError::Unsupported(
                material.clone(),
                format!("supported: canonical materials of 3 to {MAX_PIECES} pieces"),
            ));
        }
        let dep = |source| GenError::Dependency {
            material: material.clone(),
            source: Box::new(source),
        };
        let metric = options.metric;
        if let Metric::Dtz { rule } = metric {
            if rule != tb.rule() || !(1..=crate::dtz::MAX_RULE).contains(&rule) {
                return Err(GenError::Unsupported(
                    material.clone(),
                    format!(
                        "a rule of {rule} plies with a tablebase of rule {} (expected the same, 1 to {})",
                        tb.rule(),
                        crate::dtz::MAX_RULE
                    ),
                ));
            }
        }
        for m in material.successors() {
            tb.table_for(&m, metric).map_err(dep)?;
        }
        let game = SliceGame::new(material, tb, metric).map_err(dep)?;
        // A DTZ table's draws are the DTM table's (both are retrograde analysis of the same
        // moves with exits of the same outcomes): where the DTM table is there, its draws
        // start as finished draws and are never asked for their moves and exits (77% of
        // KRBvKR).
        let draws_from = match metric {
            Metric::Dtz { .. } if tb.has(material) => Some(tb.table(material).map_err(dep)?),
            _ => None,
        };
        let ix = game.indexer();
        let groups = plan_groups(ix);
        let dir = options.work_dir.clone();
        let pawns = ix.has_pawns();
        let name = work_name(material, metric);
        let table_print = fingerprint(material, metric, usize::MAX, ix.size());
        let kept = match dir.as_deref() {
            Some(d) if pawns => checkpoint::groups_done(d, &name, table_print, groups.len())
                .map_err(|e| work_error(material, &checkpoint::groups_path(d, &name), e))?,
            _ => checkpoint::Finished::default(),
        };
        let done = kept.crcs.len();
        let illegal = metric.encode_illegal();
        let store = match (pawns, dir.as_deref()) {
            (false, _) => Store::None,
            (true, None) => Store::Memory(
                (0..ix.size())
                    .into_par_iter()
                    .map(|_| AtomicU16::new(illegal))
                    .collect(),
            ),
            (true, Some(d)) => {
                let path = values_path(d, &name);
                Store::file(&path, &game, metric, done > 0)
                    .map_err(|e| work_error(material, &path, e))?
            }
        };
        // The values of the finished groups are checked before anything is built on them.
        for (k, &crc) in kept.crcs.iter().enumerate() {
            store
                .check(&Window::new(ix, &groups[k]), k, crc, &name)
                .map_err(|e| store.error(material, e))?;
        }
        if pawns {
            // Configurations that hold no position are never solved: count them as done.
            let invalid = (0..ix.pawn_configs())
                .filter(|&c| !ix.config_is_valid(c))
                .count() as u64;
            progress.fetch_add(invalid * 2 * ix.block_len(), Relaxed);
        }
        let group_len = |g: &Vec<u64>| g.len() as u64 * 2 * ix.block_len();
        let finished: u64 = groups[..done.min(groups.len())].iter().map(group_len).sum();
        progress.fetch_add(finished, Relaxed);
        Ok(Run {
            material,
            tb,
            progress,
            options: options.clone(),
            metric,
            game,
            draws_from,
            groups,
            dir,
            pawns,
            name,
            table_print,
            kept,
            store,
            last: None,
            deepest: (done == 0).then_some(0),
        })
    }

    /// The groups already solved (in the work folder).
    fn done(&self) -> usize {
        self.kept.crcs.len()
    }

    fn dep(&self, source: ProbeError) -> GenError {
        GenError::Dependency {
            material: self.material.clone(),
            source: Box::new(source),
        }
    }

    /// A failure on the work file `path` ([`work_error`]).
    fn file(&self, path: &Path, source: std::io::Error) -> GenError {
        work_error(self.material, path, source)
    }

    /// Solves group `k` and keeps its values (a pawnless table's solution stays in `last`);
    /// returns how its starts were found when they were replayed.
    fn solve_group(&mut self, k: usize, seeding: Seeding<'_, 'a>) -> Result<StartCounts, GenError> {
        let (material, metric, tb) = (self.material, self.metric, self.tb);
        let window = Window::new(self.game.indexer(), &self.groups[k]);
        let (twin, replay) = match seeding {
            Seeding::Plain => (None, None),
            Seeding::Record { log, twin } => (
                Some((
                    Side {
                        metric: twin.metric,
                        game: &twin.game,
                        store: &twin.store,
                    },
                    log,
                )),
                None,
            ),
            Seeding::Replay(log) => (None, Some(log)),
        };
        let group = GroupGame {
            material,
            main: Side {
                metric,
                game: &self.game,
                store: &self.store,
            },
            twin,
            replay,
            draws_from: self.draws_from.as_deref(),
            tb,
            window: &window,
            failure: Mutex::new(None),
            released: Mutex::new(Instant::now()),
            replayed: AtomicU64::new(0),
            computed: AtomicU64::new(0),
        };
        let progress = self.progress;
        let before = progress.load(Relaxed);
        let bar = Arc::clone(progress);
        let layer = self.options.layer.clone();
        let dir = self.dir.as_deref();
        let engine_options = CompactOptions {
            work_dir: dir.map(|d| checkpoint::group_dir(d, &self.name)),
            mapped: self.options.mapped && dir.is_some(),
            resident_budget: self.options.resident_budget,
            checkpoint_every: Some(self.options.checkpoint_interval),
            // A pawnless table is written from the engine's cells after the solve: its last
            // state stays on disk until the table is (`discard_checkpoint`).
            keep_checkpoint: !self.pawns,
            fingerprint: fingerprint(material, metric, k, window.len() as u64),
            max_memory: self.options.max_memory,
            lookahead: self.options.lookahead,
            progress: Some(Arc::new(move |p: &compact::LayerProgress| {
                bar.store(before + p.decided, Relaxed);
                if let Some(l) = &layer {
                    l.store(u64::from(p.layer) + 1, Relaxed);
                }
            })),
            ..CompactOptions::default()
        };
        let solved = compact::solve(&group, &engine_options)
            .map_err(|e| with_remedy(e, engine_options.work_dir.as_deref()));
        let counts = StartCounts {
            replayed: group.replayed.load(Relaxed),
            computed: group.computed.load(Relaxed),
        };
        match group
            .failure
            .into_inner()
            .unwrap_or_else(|e| e.into_inner())
        {
            Some(Failure::Probe(e)) => return Err(self.dep(e)),
            Some(Failure::Log(path, e)) => return Err(self.file(&path, e)),
            None => {}
        }
        let solution = solved.map_err(|source| match source {
            CompactError::TooDeep => GenError::TooDeep(material.clone()),
            source => GenError::Engine {
                material: material.clone(),
                source,
            },
        })?;
        let deepest = solution.counts().max_depth.map_or(0, |d| d.0);
        if metric == Metric::Dtm && deepest > MAX_PLIES {
            return Err(GenError::TooDeep(material.clone()));
        }
        self.deepest = self.deepest.map(|d| d.max(deepest));
        if let Seeding::Record { log, .. } = seeding {
            log.mark_draws_then(
                |l| !solution.is_hole(l) && solution.value(l) == Value::Draw,
                |first, len| solution.release_pages(first, len),
            )
            .map_err(|e| self.file(&log.path(), e))?;
        }
        progress.store(before + window.len() as u64, Relaxed);
        // The blocks of the mapped tables read for this group need not stay resident.
        tb.release_pages();
        if let Some(t) = self.draws_from.as_deref() {
            t.release_pages();
        }
        if self.pawns {
            let crc = self
                .store
                .keep(&window, &solution, metric)
                .map_err(|e| self.store.error(material, e))?;
            if let Some(d) = dir {
                self.kept.crcs.push(crc);
                checkpoint::set_groups_done(d, &self.name, self.table_print, &self.kept)
                    .map_err(|e| self.file(&checkpoint::groups_path(d, &self.name), e))?;
            }
            if self.options.stop_after_groups == Some(k + 1) {
                return Err(GenError::Stopped(material.clone(), k + 1));
            }
        } else {
            self.last = Some(solution);
        }
        Ok(counts)
    }

    /// The table, once every group is solved.
    fn finish(self) -> Result<Table, GenError> {
        let (material, metric) = (self.material, self.metric);
        let ck = |source| GenError::Checkpoint {
            material: material.clone(),
            source,
        };
        let ix = self.game.indexer();
        let illegal = metric.encode_illegal();
        let filler_is_hole = self.deepest.is_some_and(|d| d < MAX_PLIES);
        match self.store {
            Store::None => {
                let solution = self.last.expect("a pawnless table is one group");
                let w = metric.width();
                Table::from_fill(
                    material,
                    metric,
                    &WriteOptions::for_metric(metric),
                    filler_is_hole,
                    |first, out| {
                        out.par_chunks_mut(w).enumerate().for_each(|(j, b)| {
                            put(b, entry(&solution, metric, first + j as u64));
                        });
                        // Out of core: the state's pages read are not needed again.
                        solution.release_pages(first, (out.len() / w) as u64);
                        Ok(())
                    },
                )
                .map_err(ck)
            }
            Store::Memory(values) => {
                let w = metric.width();
                let mut entries = vec![0u8; values.len() * w];
                entries
                    .par_chunks_mut(w)
                    .zip(values.par_iter())
                    .for_each(|(b, v)| put(b, v.load(Relaxed)));
                Ok(Table::from_entries(material, metric, entries))
            }
            Store::File { file, path, .. } => {
                let bl = ix.block_len();
                let w = metric.width() as u64;
                let configs = ix.pawn_configs();
                let valid: Vec<bool> = (0..configs).map(|c| ix.config_is_valid(c)).collect();
                Table::from_fill(
                    material,
                    metric,
                    &WriteOptions::for_metric(metric),
                    filler_is_hole,
                    |first, out| {
                        // `out` starts at a block boundary and spans whole blocks.
                        for (j, part) in out.chunks_mut((bl * w) as usize).enumerate() {
                            let at = first + j as u64 * bl;
                            if valid[((at / bl) % configs) as usize] {
                                file.read_exact_at(part, at * w)?;
                            } else {
                                part.chunks_mut(w as usize).for_each(|b| put(b, illegal));
                            }
                        }
                        Ok(())
                    },
                )
                .map_err(|e| work_error(material, &path, e))
            }
        }
    }
}

/// The entry of index `i` of a solved group (DTM depths checked against [`MAX_PLIES`]; DTZ
/// entries hold every depth the engine does).
#[inline]
fn entry(solution: &CompactSolution, metric: Metric, i: u64) -> u16 {
    if solution.is_hole(i) {
        return metric.encode_illegal();
    }
    metric
        .encode(solution.value(i))
        .expect("depths checked against what an entry holds")
}

/// Writes entry `e` into its bytes (one, or two little-endian).
#[inline]
fn put(bytes: &mut [u8], e: u16) {
    if bytes.len() == 2 {
        bytes.copy_from_slice(&e.to_le_bytes());
    } else {
        bytes[0] = e as u8;
    }
}

/// The resident memory [`generate_with`] needs for the canonical `material`, in bytes: the
/// engine's state for its largest group (2.25 bytes per index, the two bitmaps alone when
/// `mapped`), the compressed table (estimated at a quarter of its entries), the smaller tables
/// small enough to be decoded into memory, the threads' caches of decoded blocks of those
/// probed block by block (their files are mapped, not counted) and, for a pawn table, the
/// buffers that read the values file back.
pub fn estimate_memory(material: &Material, options: &GenOptions) -> u64 {
    estimate(material, options, &[options.metric])
}

/// The resident memory [`generate_pair`] needs for the canonical `material`, in bytes: as
/// [`estimate_memory`], with the smaller tables of both metrics decoded into memory side by
/// side, both compressed tables and, without a work folder, the DTZ starts (two bytes per
/// index of the largest group).
pub fn estimate_pair_memory(material: &Material, options: &GenOptions, rule: u32) -> u64 {
    estimate(material, options, &[Metric::Dtm, Metric::Dtz { rule }])
}

/// The indices of the largest group of the canonical `material`'s table (the whole table
/// without pawns): what the engine's state and the DTZ starts are sized by.
pub(crate) fn largest_group(material: &Material) -> u64 {
    let ix = crate::Indexer::new(material);
    plan_groups(&ix)
        .iter()
        .map(|g| g.len() as u64 * 2 * ix.block_len())
        .max()
        .unwrap_or(0)
}

fn estimate(material: &Material, options: &GenOptions, metrics: &[Metric]) -> u64 {
    let ix = crate::Indexer::new(material);
    let largest = largest_group(material);
    let engine = compact::estimate_memory(
        largest,
        &CompactOptions {
            mapped: options.mapped && options.work_dir.is_some(),
            ..CompactOptions::default()
        },
    );
    // The smaller tables decoded into memory for the captures and promotions.
    let resident: u64 = metrics
        .iter()
        .flat_map(|metric| {
            material
                .successors()
                .into_iter()
                .map(|m| crate::Indexer::new(&m).size() * metric.width() as u64)
        })
        .filter(|&b| b <= crate::slice::RESIDENT_LIMIT)
        .sum();
    // The worker threads' and the main thread's caches of decoded blocks.
    let probed_by_blocks = metrics.iter().any(|metric| {
        material.successors().iter().any(|m| {
            crate::Indexer::new(m).size() * metric.width() as u64 > crate::slice::RESIDENT_LIMIT
        })
    });
    let caches = if probed_by_blocks {
        (rayon::current_num_threads() as u64 + 1) * crate::table::BLOCK_CACHE_BYTES
    } else {
        0
    };
    let pawn_buffers = if ix.has_pawns() { 64 << 20 } else { 0 };
    // A pair without a work folder keeps the DTZ starts of its group in memory (two bytes
    // per index; with one, they are a file).
    let starts = if metrics.len() == 2 && options.work_dir.is_none() {
        2 * largest
    } else {
        0
    };
    engine + metrics.len() as u64 * ix.size() / 4 + resident + caches + pawn_buffers + starts
}

/// The groups of pawn configurations of a material, in the order they are solved (each a
/// list of configurations; a pawnless material is one group of configuration 0).
fn plan_groups(ix: &crate::Indexer) -> Vec<Vec<u64>> {
    if !ix.has_pawns() {
        return vec![vec![0]];
    }
    let per_config = 2 * ix.block_len();
    let mut by_stage: Vec<Vec<Vec<u64>>> = vec![Vec::new(); 64];
    for c in 0..ix.pawn_configs() {
        let m = ix.mirror_config(c);
        if !ix.config_is_valid(c) || m < c {
            continue;
        }
        let pair = if m == c { vec![c] } else { vec![c, m] };
        by_stage[ix.config_stage(c) as usize].push(pair);
    }
    let mut groups = Vec::new();
    for pairs in by_stage.into_iter().rev() {
        let mut group: Vec<u64> = Vec::new();
        for pair in pairs {
            if !group.is_empty() && (group.len() + pair.len()) as u64 * per_config > GROUP_ENTRIES {
                groups.push(std::mem::take(&mut group));
            }
            group.extend(pair);
        }
        if !group.is_empty() {
            groups.push(group);
        }
    }
    groups
}

/// The indices of one group: whole blocks of one pawn configuration and side to move, mapped
/// to a dense local range.
///
/// A group with a pawn one step from promotion has its blocks interleaved [`PROMOTION_RUN`]
/// indices at a time (the squares of the last two kings or pieces): local order is run by
/// run, each run through every block of the group. Positions that differ only in their pawns
/// are then solved close together, so the promotions from the 7th rank's squares into a
/// 5-piece table reuse the blocks of that table the block cache holds: where the promoted
/// piece is a more significant digit of the target than the pieces that move (a bishop or
/// knight next to a rook), each pawn square decoded every block of the target again. Other
/// groups keep whole blocks (interleaving them measured slower).
#[derive(Clone)]
struct Window {
    block_len: u64,
    /// Indices of one block taken in a row before the next block's.
    run: u64,
    /// The first global index of each block, in local order.
    starts: Vec<u64>,
    /// Per global block (`index / block_len`): its local slot, or `u32::MAX`.
    slot: Vec<u32>,
    /// Local and global indices are the same (a pawnless table's one group): no lookups.
    identity: bool,
    /// `log2(block_len)` and `log2(run)` when both are powers of two (pawn tables: the
    /// kings' and pieces' digits are 32 and 64 squares), so that the lookups on the hot path
    /// (every predecessor) shift instead of dividing.
    shifts: Option<(u32, u32)>,
}

/// Indices of a block taken in a row in an interleaved group ([`Window`]): the last two
/// digits, 64 squares each.
const PROMOTION_RUN: u64 = 64 * 64;

impl Window {
    fn new(ix: &crate::Indexer, configs: &[u64]) -> Window {
        let block_len = ix.block_len();
        let per_side = ix.pawn_configs();
        let mut slot = vec![u32::MAX; 2 * per_side as usize];
        let mut starts = Vec::new();
        for side in 0..2 {
            for &c in configs {
                let block = side * per_side + c;
                slot[block as usize] = starts.len() as u32;
                starts.push(block * block_len);
            }
        }
        let promotes = |c: u64| {
            let (_, sq) = ix.decode(c * block_len);
            ix.slots().iter().zip(sq).any(|(p, s)| {
                p.role == crate::square::Role::Pawn
                    && s / 8
                        == if p.color == crate::square::Color::White {
                            6
                        } else {
                            1
                        }
            })
        };
        let interleave = ix.has_pawns()
            && block_len % PROMOTION_RUN == 0
            && block_len > PROMOTION_RUN
            && configs.len() > 1
            && configs.iter().any(|&c| promotes(c));
        let run = if interleave { PROMOTION_RUN } else { block_len };
        let identity = run == block_len
            && starts
                .iter()
                .enumerate()
                .all(|(k, &start)| start == k as u64 * block_len);
        let shifts = (block_len.is_power_of_two() && run.is_power_of_two())
            .then(|| (block_len.trailing_zeros(), run.trailing_zeros()));
        Window {
            block_len,
            run,
            starts,
            slot,
            identity,
            shifts,
        }
    }

    fn len(&self) -> usize {
        self.starts.len() * self.block_len as usize
    }

    /// The local index of the `j`-th index of the `k`-th block.
    #[inline]
    fn local_at(&self, k: usize, j: u64) -> usize {
        let (round, off) = match self.shifts {
            Some((_, r)) => (j >> r, j & (self.run - 1)),
            None => (j / self.run, j % self.run),
        };
        ((round * self.starts.len() as u64 + k as u64) * self.run + off) as usize
    }

    #[inline]
    fn global(&self, local: usize) -> u64 {
        if self.identity {
            return local as u64;
        }
        let local = local as u64;
        let (runs, off) = match self.shifts {
            Some((_, r)) => (local >> r, local & (self.run - 1)),
            None => (local / self.run, local % self.run),
        };
        let blocks = self.starts.len() as u64;
        let (round, k) = (runs / blocks, runs % blocks);
        self.starts[k as usize] + round * self.run + off
    }

    #[inline]
    fn local(&self, global: u64) -> Option<usize> {
        if self.identity {
            return Some(global as usize);
        }
        let (block, j) = match self.shifts {
            Some((b, _)) => (global >> b, global & (self.block_len - 1)),
            None => (global / self.block_len, global % self.block_len),
        };
        let s = *self.slot.get(block as usize)?;
        (s != u32::MAX).then(|| self.local_at(s as usize, j))
    }
}

/// Where the values of the groups already solved are kept.
enum Store {
    /// A pawnless table: one group, nothing to keep.
    None,
    /// Every index's entry, in memory (no work folder).
    Memory(Vec<AtomicU16>),
    /// Every index, in the work folder's values file; the blocks read back are cached until
    /// the next group starts.
    File {
        file: File,
        path: PathBuf,
        block_len: u64,
        metric: Metric,
        cache: Vec<OnceLock<Result<Box<[u8]>, String>>>,
    },
}

impl Store {
    /// Opens the values file (`resume`: as a checkpoint left it; otherwise new).
    fn file(path: &Path, game: &SliceGame, metric: Metric, resume: bool) -> std::io::Result<Store> {
        let ix = game.indexer();
        let size = ix.size() * metric.width() as u64;
        if let Some(d) = path.parent() {
            std::fs::create_dir_all(d)?;
        }
        checkpoint::regular_or_absent(path)?;
        let file = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(!resume)
            .open(path)?;
        if resume && file.metadata()?.len() != size {
            return Err(std::io::Error::new(
                std::io::ErrorKind::InvalidData,
                format!(
                    "{}: {} bytes, expected {}; delete the work folder's files of this table to start over",
                    path.display(),
                    file.metadata()?.len(),
                    size
                ),
            ));
        }
        file.set_len(size)?;
        Ok(Store::File {
            file,
            path: path.to_path_buf(),
            block_len: ix.block_len(),
            metric,
            cache: (0..2 * ix.pawn_configs())
                .map(|_| OnceLock::new())
                .collect(),
        })
    }

    /// The entry of global index `idx`, of a group already solved.
    fn get(&self, idx: u64) -> Result<u16, ProbeError> {
        match self {
            Store::None => unreachable!("a pawnless table reads no other group"),
            Store::Memory(v) => Ok(v[idx as usize].load(Relaxed)),
            Store::File {
                file,
                path,
                block_len,
                metric,
                cache,
            } => {
                let block = idx / block_len;
                let w = metric.width() as u64;
                let bytes = cache[block as usize].get_or_init(|| {
                    let mut buf = vec![0u8; (*block_len * w) as usize].into_boxed_slice();
                    file.read_exact_at(&mut buf, block * block_len * w)
                        .map(|()| buf)
                        .map_err(|e| e.to_string())
                });
                match bytes {
                    Ok(b) => {
                        let at = ((idx % block_len) * w) as usize;
                        Ok(if w == 2 {
                            u16::from_le_bytes([b[at], b[at + 1]])
                        } else {
                            u16::from(b[at])
                        })
                    }
                    Err(e) => Err(ProbeError::Table(TableError::Io {
                        path: path.clone(),
                        source: std::io::Error::other(e.clone()),
                    })),
                }
            }
        }
    }

    /// A failure on the values file ([`work_error`]).
    fn error(&self, material: &Material, source: std::io::Error) -> GenError {
        match self {
            Store::File { path, .. } => work_error(material, path, source),
            _ => GenError::Checkpoint {
                material: material.clone(),
                source,
            },
        }
    }

    /// Checks that the finished group `k` (`window`) still has the CRC `crc` in the values
    /// file (a store in memory holds no earlier groups).
    fn check(&self, window: &Window, k: usize, crc: u32, name: &str) -> std::io::Result<()> {
        let Store::File {
            file,
            path,
            block_len,
            metric,
            ..
        } = self
        else {
            return Ok(());
        };
        let bytes = block_len * metric.width() as u64;
        let ranges = window
            .starts
            .iter()
            .map(|&s| (s * metric.width() as u64, bytes));
        let found = checkpoint::crc_of_ranges(file, ranges)?;
        checkpoint::check_group(path, name, k, crc, found)
    }

    /// Keeps a solved group's values (and forgets the blocks read back for it); returns the
    /// CRC-32 of the values as written (0 in memory).
    fn keep(
        &mut self,
        window: &Window,
        solution: &CompactSolution,
        metric: Metric,
    ) -> std::io::Result<u32> {
        let bl = window.block_len as usize;
        let w = metric.width();
        match self {
            Store::None => Ok(0),
            Store::Memory(all) => {
                for (k, &start) in window.starts.iter().enumerate() {
                    all[start as usize..start as usize + bl]
                        .par_iter()
                        .enumerate()
                        .for_each(|(j, d)| {
                            let local = window.local_at(k, j as u64);
                            d.store(entry(solution, metric, local as u64), Relaxed)
                        });
                }
                Ok(0)
            }
            Store::File { file, cache, .. } => {
                cache.iter_mut().for_each(|c| drop(c.take()));
                // Block by block in parallel, each written by the thread that fills it (one
                // thread writing while the others waited was 4-8% of a pawn table), the
                // blocks' CRCs combined in order.
                let crcs: Vec<crc32fast::Hasher> = window
                    .starts
                    .par_iter()
                    .enumerate()
                    .map(|(k, &start)| {
                        let mut buf = vec![0u8; bl * w];
                        for (j, b) in buf.chunks_mut(w).enumerate() {
                            let local = window.local_at(k, j as u64);
                            put(b, entry(solution, metric, local as u64));
                        }
                        file.write_all_at(&buf, start * w as u64)?;
                        let mut crc = crc32fast::Hasher::new();
                        crc.update(&buf);
                        Ok(crc)
                    })
                    .collect::<std::io::Result<_>>()?;
                let mut crc = crc32fast::Hasher::new();
                crcs.iter().for_each(|c| crc.combine(c));
                // The group count written next implies that these values are on disk.
                file.sync_data()?;
                Ok(crc.finalize())
            }
        }
    }
}

/// A metric's side of a group: what its exits are valued with.
#[derive(Clone, Copy)]
struct Side<'a> {
    metric: Metric,
    game: &'a SliceGame,
    /// The values of the finished groups.
    store: &'a Store,
}

/// One group of a table as the compact engine sees it: local indices `0..window.len()`.
struct GroupGame<'a> {
    material: &'a Material,
    /// The metric solved.
    main: Side<'a>,
    /// DTM seeding in a pair: the DTZ side, whose starts are recorded in the log.
    twin: Option<(Side<'a>, &'a StartLog)>,
    /// DTZ seeding in a pair: the starts recorded by the DTM seeding.
    replay: Option<&'a StartLog>,
    /// DTZ: the material's DTM table, whose draws are the DTZ table's.
    draws_from: Option<&'a Table>,
    tb: &'a Tablebase,
    window: &'a Window,
    /// The first failed probe of a smaller table or of a finished group (the trait has no
    /// error path: the position is given as a hole, and the engine, told by `failed`, stops
    /// before a checkpoint keeps it).
    failure: Mutex<Option<Failure>>,
    /// When the pages of the mapped smaller tables were last released
    /// ([`release_now_and_then`](Self::release_now_and_then)).
    released: Mutex<Instant>,
    /// Replaying: the starts read from the log, and those computed (not recorded there).
    replayed: AtomicU64,
    computed: AtomicU64,
}

/// What stopped a group's seeding.
enum Failure {
    /// A probe of a smaller table or of a finished group.
    Probe(ProbeError),
    /// Reading or writing the DTZ start log (its file, the error): the disk full.
    Log(PathBuf, std::io::Error),
}

/// How often seeding lets the pages of the mapped smaller tables go (see
/// [`GroupGame::release_now_and_then`]).
const RELEASE_EVERY: Duration = Duration::from_secs(1);

impl IndexedGame for GroupGame<'_> {
    fn index_count(&self) -> u64 {
        self.window.len() as u64
    }

    fn start(&self, local: u64) -> Start {
        self.release_now_and_then();
        if let Some(log) = self.replay {
            match log.get(local) {
                Ok(Some(start)) => {
                    self.replayed.fetch_add(1, Relaxed);
                    return start;
                }
                Ok(None) => self.computed.fetch_add(1, Relaxed),
                Err(e) => return self.fail(Failure::Log(log.path(), e)),
            };
        }
        thread_local! {
            // Reused: an allocation per position made the threads queue on malloc's lock.
            static CHILDREN: RefCell<Vec<u64>> = const { RefCell::new(Vec::new()) };
        }
        let (start, twin) = CHILDREN.with_borrow_mut(|children| self.starts(local, children));
        if let (Some((_, log)), Some(t)) = (self.twin, twin) {
            if let Err(e) = log.record(local, t) {
                return self.fail(Failure::Log(log.path(), e));
            }
        }
        start
    }

    fn start_range(&self, first: u64, out: &mut [Start]) {
        self.release_if_due();
        let mut entries = Vec::new();
        if let Some(log) = self.replay {
            if let Err(e) = log.entries(first, out.len(), &mut entries) {
                out.fill(self.fail(Failure::Log(log.path(), e)));
                return;
            }
        }
        // Scratch for the children of positions with two moves to one child, and the DTZ
        // starts to record, for the whole range: no thread-local lookups per index.
        let mut children = Vec::new();
        let mut twins = Vec::with_capacity(if self.twin.is_some() { out.len() } else { 0 });
        let mut replayed = 0;
        for (k, s) in out.iter_mut().enumerate() {
            let recorded = match (self.replay, entries.get(k)) {
                (Some(log), Some(&e)) => log.decode_entry(e),
                _ => None,
            };
            if let Some(start) = recorded {
                *s = start;
                replayed += 1;
                continue;
            }
            let (start, twin) = self.starts(first + k as u64, &mut children);
            *s = start;
            if self.twin.is_some() {
                twins.push(twin);
            }
        }
        if self.replay.is_some() {
            self.replayed.fetch_add(replayed, Relaxed);
            self.computed
                .fetch_add(out.len() as u64 - replayed, Relaxed);
        }
        if let Some((_, log)) = self.twin {
            if let Err(e) = log.record_range(first, &twins) {
                out.fill(self.fail(Failure::Log(log.path(), e)));
            }
        }
    }

    fn predecessors(&self, local: u64, out: &mut Vec<u64>) {
        // The engine asks only for decided positions: legal ones.
        let game = self.main.game;
        let b = game.board(self.window.global(local as usize));
        game.unmoves(&b, out);
        // Un-moves of kings and pieces keep the pawns: every predecessor is in the group.
        if !self.window.identity {
            out.retain_mut(|q| match self.window.local(*q) {
                Some(l) => {
                    *q = l as u64;
                    true
                }
                None => false,
            });
        }
        // Each predecessor once, as `start` counts distinct children (two un-moves from
        // here reach one index exactly where two moves from it reach this one; both tests
        // say yes wherever that can happen).
        if game.parents_may_coincide(&b) {
            out.sort_unstable();
            out.dedup();
        }
    }

    fn any_successor(&self, local: u64, found: &mut dyn FnMut(u64) -> bool) -> Option<bool> {
        // The engine asks only about open positions (legal ones). Moves of kings and pieces
        // keep the pawns, so their children are in the group; captures, promotions and pawn
        // moves leave it (their values are the exit, already in the cell) and are not listed.
        let game = self.main.game;
        let b = game.board(self.window.global(local as usize));
        let ran_out = game.successors(&b, |child| match self.window.local(child) {
            Some(l) => !found(l as u64),
            None => true,
        });
        Some(!ran_out)
    }

    fn failed(&self) -> bool {
        self.failure
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .is_some()
    }
}

impl GroupGame<'_> {
    /// Releases the pages of the mapped smaller tables read so far (they stay in the page
    /// cache) about once a second while a group is seeded: one group of a pawn table can
    /// read most of several 5-piece tables through its promotions, and those pages would
    /// otherwise count in the resident set until the group ends (KPPvKB: 1.5 GB, against
    /// an engine state of 0.36 GB). Checked every 65,536 starts a thread computes.
    #[inline]
    fn release_now_and_then(&self) {
        thread_local! {
            static STARTS: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
        }
        let n = STARTS.get().wrapping_add(1);
        STARTS.set(n);
        if n % (1 << 16) != 0 {
            return;
        }
        self.release_if_due();
    }

    /// Releases the pages (see [`release_now_and_then`](Self::release_now_and_then)) if
    /// [`RELEASE_EVERY`] has passed since they last were and no other thread is at it.
    fn release_if_due(&self) {
        if let Ok(mut last) = self.released.try_lock() {
            if last.elapsed() >= RELEASE_EVERY {
                self.tb.release_pages();
                if let Some(t) = self.draws_from {
                    t.release_pages();
                }
                *last = Instant::now();
            }
        }
    }

    /// Keeps the first failure and gives the position as a hole (the engine stops before a
    /// checkpoint keeps it, and the solve is discarded).
    fn fail(&self, e: Failure) -> Start {
        let mut slot = self.failure.lock().unwrap_or_else(|e| e.into_inner());
        slot.get_or_insert(e);
        Start::Hole
    }

    /// The start of `local` for the metric solved and, when recording, for the twin
    /// (`children`: scratch space).
    fn starts(&self, local: u64, children: &mut Vec<u64>) -> (Start, Option<Start>) {
        let global = self.window.global(local as usize);
        if let Some(dtm) = self.draws_from {
            // A DTM draw is a finished draw, known without decoding the board. (The filler
            // entry marks holes, and losses in 254 plies: `legal_board` tells them apart.)
            match dtm.entry(global) {
                Ok(e)
                    if e != Metric::Dtm.encode_illegal()
                        && Metric::Dtm.decode_entry(e) == Value::Draw =>
                {
                    return (Start::Terminal(Outcome::Draw), None)
                }
                Ok(_) => {}
                Err(e) => return (self.fail(Failure::Probe(ProbeError::Table(e))), None),
            }
        }
        let game = self.main.game;
        let Some(b) = game.legal_board(global) else {
            return (Start::Hole, Some(Start::Hole));
        };
        match self.exit_of(&b, children) {
            Err(e) => (self.fail(Failure::Probe(e)), None),
            Ok(Exits { any: false, .. }) => {
                let end = Start::Terminal(if game.in_check(&b) {
                    Outcome::Lose
                } else {
                    Outcome::Draw
                });
                (end, Some(end))
            }
            Ok(Exits {
                best,
                twin_best,
                moves,
                ..
            }) => (
                Start::Open { moves, exit: best },
                self.twin.map(|_| Start::Open {
                    moves,
                    exit: twin_best,
                }),
            ),
        }
    }

    /// Whether `b` has a legal move, the best exit for the side to move (and for the twin)
    /// and the number of distinct in-group children (`children` is scratch space for their
    /// indices, ranked only when two moves can reach the same one:
    /// [`SliceGame::children_may_coincide`]).
    fn exit_of(&self, b: &Board, children: &mut Vec<u64>) -> Result<Exits, ProbeError> {
        children.clear();
        let game = self.main.game;
        let twin = self.twin.map(|(side, _)| side);
        let rank = game.children_may_coincide(b);
        let mut any = false;
        let mut best: Option<Value> = None;
        let mut twin_best: Option<Value> = None;
        let mut err = None;
        let mut exit = |child| {
            any = true;
            // Pawn moves, captures and promotions all zero the clock. The child is placed
            // once for both metrics (their games index each material alike).
            let mut take =
                |side: Side, v: Result<Value, ProbeError>, best: &mut Option<Value>| match v {
                    Ok(v) => {
                        let v = through_zeroing(side.metric, v);
                        *best = Some(best.map_or(v, |w| w.max(v)));
                        true
                    }
                    Err(e) => {
                        err = Some(e);
                        false
                    }
                };
            match child {
                Child::InSlice(c) => {
                    children.push(game.rank(&c));
                    true
                }
                // A draw of one metric is a draw of the other (both tables are retrograde
                // analysis of the same moves and outcomes; `draws_from` relies on it too), so
                // the twin's table is probed only for a win or a loss.
                Child::PawnPush { board, double } => {
                    let place = self.push_place(b, &board, double);
                    let v = self.push_value(self.main, &place);
                    let drawn = matches!(v, Ok(Value::Draw));
                    take(self.main, v, &mut best)
                        && twin.is_none_or(|t| {
                            let w = if drawn {
                                Ok(Value::Draw)
                            } else {
                                self.push_value(t, &place)
                            };
                            take(t, w, &mut twin_best)
                        })
                }
                Child::Exit {
                    board,
                    victim,
                    promoted,
                } => {
                    let at = game.exit_index(&board, victim, promoted);
                    let value = |side: Side| side.game.exit_value_at(at, &board, victim, promoted);
                    let v = value(self.main);
                    let drawn = matches!(v, Ok(Value::Draw));
                    take(self.main, v, &mut best)
                        && twin.is_none_or(|t| {
                            take(
                                t,
                                if drawn { Ok(Value::Draw) } else { value(t) },
                                &mut twin_best,
                            )
                        })
                }
            }
        };
        let moves = if rank {
            game.moves(b, &mut exit);
            // A position symmetric to itself can reach one child by two moves: the engine
            // counts children, as the un-moves list each predecessor once.
            children.sort_unstable();
            children.dedup();
            children.len() as u32
        } else {
            let (_, quiet) = game.count_and_exits(b, &mut exit);
            any |= quiet > 0;
            quiet
        };
        match err {
            Some(e) => Err(e),
            None => Ok(Exits {
                any,
                best,
                twin_best,
                moves,
            }),
        }
    }

    /// Where a pawn push leads: an index of this material (a stage already solved), or a
    /// position with en passant rights (for the slow path).
    fn push_place(&self, parent: &Board, child: &Board, double: Option<u8>) -> PushPlace {
        let game = self.main.game;
        // En passant needs a pawn of the side to move beside the pushed pawn: without one
        // (nearly always) the child is a position of this table as it stands.
        if double.is_some_and(|passed| game.ep_possible(child, passed)) {
            let pos = game.position(parent, None);
            let m = pos.legal_moves().into_iter().find(|m| {
                m.promotion.is_none() && game.position(child, None).same_board(&pos.play(*m))
            });
            if let Some(next) = m.map(|m| pos.play(m)).filter(|p| p.ep_square().is_some()) {
                return PushPlace::EnPassant(Box::new(next));
            }
        }
        PushPlace::Index(game.rank(child))
    }

    /// The value of a pawn push's child, for its side to move, in `side`'s metric.
    fn push_value(&self, side: Side, place: &PushPlace) -> Result<Value, ProbeError> {
        match place {
            PushPlace::Index(idx) => self.own_value(side, *idx),
            PushPlace::EnPassant(pos) => self.slow_value(side, pos),
        }
    }

    /// The value of index `idx` of this material in a group already solved.
    fn own_value(&self, side: Side, idx: u64) -> Result<Value, ProbeError> {
        debug_assert!(
            self.window.local(idx).is_none(),
            "pawn moves leave the group"
        );
        // `idx` ranks a legal position, so a DTM 255 here is a loss in 254 plies, not the
        // filler.
        Ok(side.metric.decode_entry(side.store.get(idx)?))
    }

    /// The value of any position whose table or stage is solved, en passant rights included
    /// (one ply ahead, as [`Tablebase::probe`] does).
    fn slow_value(&self, side: Side, pos: &Position) -> Result<Value, ProbeError> {
        if pos.ep_square().is_some() {
            let mut best: Option<Value> = None;
            for m in pos.legal_moves() {
                let child = self.slow_value(side, &pos.play(m))?;
                let v = if pos.is_zeroing(m) {
                    through_zeroing(side.metric, child)
                } else {
                    child.for_parent()
                };
                best = Some(best.map_or(v, |b| b.max(v)));
            }
            return Ok(best.unwrap_or(if pos.is_check() {
                Value::Lose(0)
            } else {
                Value::Draw
            }));
        }
        if Material::of(pos) == *self.material {
            let idx = side
                .game
                .indexer()
                .rank(pos)
                .ok_or_else(|| ProbeError::Illegal(pos.fen()))?;
            return self.own_value(side, idx);
        }
        match side.metric {
            Metric::Dtm => self.tb.probe(pos),
            Metric::Dtz { .. } => self.tb.probe_dtz(pos),
        }
    }
}

/// Where a pawn push leads ([`GroupGame::push_place`]).
enum PushPlace {
    /// An index of this material.
    Index(u64),
    /// A position with en passant rights.
    EnPassant(Box<Position>),
}

/// What [`GroupGame::exit_of`] finds.
struct Exits {
    /// A legal move exists.
    any: bool,
    /// The best exit for the mover, in the metric solved.
    best: Option<Value>,
    /// The same in the twin's metric (recording).
    twin_best: Option<Value>,
    /// The distinct in-group children.
    moves: u32,
}

/// The value, for the mover, of a zeroing move into a position of value `child` (for its
/// side to move): one ply more of depth to mate, or the exit of its class under the rule
/// ([`Wdl50::zeroing_exit`]).
#[inline]
fn through_zeroing(metric: Metric, child: Value) -> Value {
    match metric {
        Metric::Dtm => child.for_parent(),
        Metric::Dtz { rule } => Wdl50::of(child, rule).zeroing_exit(rule),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A work file that cannot be written (the disk full) is named as such, not as a table
    /// that cannot be read; damaged contents stay a damaged work folder.
    #[test]
    fn work_file_failures_name_the_file() {
        let m = Material::parse_table("KQvKR").unwrap();
        let path = Path::new("t/.work/KQvKR.dtz.starts");
        let full = work_error(&m, path, std::io::Error::from_raw_os_error(28));
        assert!(matches!(&full, GenError::WorkFile { path: p, .. } if p == path));
        assert_eq!(
            full.to_string(),
            "generating KQvKR: t/.work/KQvKR.dtz.starts: No space left on device (os error 28)"
        );
        let damaged = std::io::Error::new(std::io::ErrorKind::InvalidData, "x: damaged");
        assert!(matches!(
            work_error(&m, path, damaged),
            GenError::Checkpoint { .. }
        ));
    }

    /// A group's local and global indices are inverse bijections, block by block: interleaved
    /// where a pawn can promote (and the blocks are long enough), whole blocks elsewhere.
    #[test]
    fn windows_map_local_and_global_indices_one_to_one() {
        for (material, promotion_groups) in [
            ("KRPvKR", true),
            ("KQPvK", true),
            ("KPvK", false),
            ("KQvKR", false),
        ] {
            let ix = crate::Indexer::new(&material.parse().unwrap());
            let groups = plan_groups(&ix);
            let mut interleaved = 0;
            for configs in groups.iter().take(2).chain(groups.last()) {
                let window = Window::new(&ix, configs);
                // The fast paths: a pawnless table's one group is the identity, a pawn
                // table's blocks and runs are powers of two (shifts for divisions).
                assert_eq!(window.identity, !ix.has_pawns(), "{material}");
                assert_eq!(window.shifts.is_some(), ix.has_pawns(), "{material}");
                // The same mapping computed with divisions only.
                let slow = Window {
                    identity: false,
                    shifts: None,
                    ..window.clone()
                };
                interleaved += usize::from(window.run == PROMOTION_RUN);
                let mut seen = vec![false; window.len()];
                for (k, &start) in window.starts.iter().enumerate() {
                    for j in 0..ix.block_len() {
                        let local = window.local_at(k, j);
                        assert!(!seen[local], "{material}: local {local} twice");
                        seen[local] = true;
                        assert_eq!(slow.local_at(k, j), local, "{material}");
                        assert_eq!(window.global(local), start + j, "{material}");
                        assert_eq!(slow.global(local), start + j, "{material}");
                        assert_eq!(window.local(start + j), Some(local), "{material}");
                        assert_eq!(slow.local(start + j), Some(local), "{material}");
                    }
                }
                assert!(seen.iter().all(|&s| s), "{material}");
                // An index of a block outside the group has no local index.
                if let Some(outside) = (0..ix.size() / ix.block_len())
                    .find(|&b| !window.starts.contains(&(b * ix.block_len())))
                {
                    let global = outside * ix.block_len() + 1;
                    assert_eq!(window.local(global), None, "{material}");
                    assert_eq!(slow.local(global), None, "{material}");
                }
            }
            // Only the most advanced groups (pawns on the 7th rank) of a table whose blocks
            // hold several runs are interleaved.
            assert_eq!(interleaved > 0, promotion_groups, "{material}");
            let last = Window::new(&ix, groups.last().unwrap());
            assert_eq!(last.run, ix.block_len(), "{material}");
        }
    }
}
