//! Generation of one table by retrograde analysis on un-moves: no graph, two bytes per
//! index of the group being solved.
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
//! The working state of a group is one entry byte and one counter byte per index. The entry
//! byte is 0 (undecided or draw), `plies + 1` once decided, 255 illegal, and, before layer `d`,
//! any byte above `d` is *provisional*: the value of the position's best *exit* (the best, for
//! the mover, among the moves that leave the group: captures and promotions, probed from the
//! smaller tables; pawn moves, read from the groups already solved), set by the
//! initialisation pass. The counter holds the in-group moves not yet known to lose for the
//! mover, plus one while an exit that draws or loses may still decide the position.
//!
//! Each group is solved layer by layer, depth `d = 1, 2, ...`. First the provisional values
//! of depth `d`: a win is decided; a loss is decided if its exit was the last pending move,
//! otherwise the position is open again (0). Then a scan of the chunks that had a decision in
//! layer `d - 1` finds the positions decided at depth `d - 1`. At an odd `d` every open
//! predecessor (an un-move of a king or piece; open: undecided or provisional) of a position
//! lost in `d - 1` wins in `d`. At an even `d` an undecided predecessor of a position won in
//! `d - 1` loses in `d` when that was its last pending move (a provisional win never loses; a
//! provisional loss keeps its exit pending until its own depth). What stays undecided is a
//! draw. The layers give the same fast-win / slow-loss depths as
//! [`zermelo::solve::retrograde`] on the explicit graph. Cost per layer: one scan of the group
//! plus an un-move generation per position decided. Threads only write values that do not
//! depend on the order of the writes, so the result is the same for any thread count.

use std::fs::File;
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, AtomicU8, Ordering::Relaxed};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use rayon::prelude::*;

use crate::checkpoint::{self, Mark};
use crate::material::{Material, MAX_PIECES};
use crate::position::Position;
use crate::probe::{ProbeError, Tablebase};
use crate::slice::{Board, Child, SliceGame};
use crate::table::{Table, TableError, WriteOptions};
use crate::value::{Value, ILLEGAL, MAX_PLIES};

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
    /// A depth to mate does not fit in an entry byte.
    #[error(
        "generating {0}: a depth to mate exceeds {MAX_PLIES} plies, the most a table entry holds"
    )]
    TooDeep(Material),
}

/// Indices per unit of parallel work.
const CHUNK: usize = 1 << 14;
/// The most indices of pawn configurations solved together (a group holds at least one
/// configuration and its mirror image, whatever their size).
const GROUP_ENTRIES: u64 = 1 << 27;

/// How to run a generation.
#[derive(Clone, Debug)]
pub struct GenOptions {
    /// Where checkpoints go (`<material>.state`); `None`: no checkpoints. A checkpoint found
    /// there is resumed, and the result is byte-identical to an uninterrupted run.
    pub work_dir: Option<PathBuf>,
    /// The least time between two checkpoints (one is also written after each stage's
    /// initialisation pass).
    pub checkpoint_interval: Duration,
}

impl Default for GenOptions {
    fn default() -> GenOptions {
        GenOptions {
            work_dir: None,
            checkpoint_interval: Duration::from_secs(60),
        }
    }
}

/// Generates the table of the canonical `material`; every table it depends on must be
/// reachable through `tb`. `progress` counts indices initialised.
pub fn generate(
    material: &Material,
    tb: &Tablebase,
    progress: &AtomicU64,
) -> Result<Table, GenError> {
    generate_with(material, tb, progress, &GenOptions::default())
}

/// Deletes the checkpoint and the values file of `material` in `work_dir` (call it once the
/// table is written).
pub fn discard_checkpoint(work_dir: &Path, material: &Material) -> std::io::Result<()> {
    checkpoint::remove(work_dir, material)?;
    match std::fs::remove_file(values_path(work_dir, material)) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(e),
        _ => Ok(()),
    }
}

/// The file holding the values of the groups of a pawn table solved so far.
fn values_path(work_dir: &Path, material: &Material) -> PathBuf {
    work_dir.join(format!("{material}.values"))
}

/// [`generate`] with checkpoints in a work folder (see [`GenOptions`]).
pub fn generate_with(
    material: &Material,
    tb: &Tablebase,
    progress: &AtomicU64,
    options: &GenOptions,
) -> Result<Table, GenError> {
    if !material.is_canonical() || material.piece_count() > MAX_PIECES || material.piece_count() < 3
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
    let ck = |source| GenError::Checkpoint {
        material: material.clone(),
        source,
    };
    for m in material.successors() {
        tb.table(&m).map_err(dep)?;
    }
    let game = SliceGame::new(material, tb).map_err(dep)?;
    let groups = plan_groups(game.indexer());
    let dir = options.work_dir.as_deref();
    let resume = match dir {
        Some(d) => checkpoint::peek(d, material).map_err(ck)?,
        None => None,
    };
    let pawns = game.indexer().has_pawns();
    let mut store = match (pawns, dir) {
        (false, _) => Store::None,
        (true, None) => Store::Memory(
            (0..game.indexer().size())
                .into_par_iter()
                .map(|_| AtomicU8::new(ILLEGAL))
                .collect(),
        ),
        (true, Some(d)) => {
            Store::file(&values_path(d, material), &game, resume.is_some()).map_err(ck)?
        }
    };
    if pawns {
        // Configurations that hold no position are never solved: count them as done.
        let ix = game.indexer();
        let invalid = (0..ix.pawn_configs())
            .filter(|&c| !ix.config_is_valid(c))
            .count() as u64;
        progress.fetch_add(invalid * 2 * ix.block_len(), Relaxed);
    }
    let mut last_save = Instant::now();
    let start = resume.unwrap_or(Mark {
        stage: 0,
        layer: 0,
        max_exit: 0,
    });
    let mut last_values = None;
    let done: u64 = groups[..(start.stage as usize).min(groups.len())]
        .iter()
        .map(|g| g.len() as u64 * 2 * game.indexer().block_len())
        .sum();
    progress.fetch_add(done, Relaxed);
    for (k, configs) in groups.iter().enumerate().skip(start.stage as usize) {
        let window = Window::new(game.indexer(), configs);
        let n = window.len();
        let run = Run {
            material,
            tb,
            game: &game,
            values: (0..n).into_par_iter().map(|_| AtomicU8::new(0)).collect(),
            counters: (0..n).into_par_iter().map(|_| AtomicU8::new(0)).collect(),
            fresh: [0, 1].map(|_| {
                (0..n.div_ceil(CHUNK))
                    .map(|_| AtomicBool::new(false))
                    .collect()
            }),
            provisional: OnceLock::new(),
            window,
            store: &store,
            progress,
        };
        let arrays = &[&run.values[..], &run.counters[..]][..];
        let mut save = |mark: Mark, force: bool| -> Result<(), GenError> {
            if let Some(d) = dir {
                if force || last_save.elapsed() >= options.checkpoint_interval {
                    checkpoint::save(d, material, mark, arrays).map_err(ck)?;
                    last_save = Instant::now();
                }
            }
            Ok(())
        };
        let resumed = match (k == start.stage as usize && start.layer > 0, dir) {
            (true, Some(d)) => checkpoint::load(d, material, arrays).map_err(ck)?,
            _ => None,
        };
        let mut mark = match resumed {
            Some(mark) => {
                run.progress.fetch_add(n as u64, Relaxed);
                // Which chunks hold positions decided in the layer before is not saved.
                let before = &run.fresh[(mark.layer as usize + 1) % 2];
                before.iter().for_each(|f| f.store(true, Relaxed));
                mark
            }
            None => {
                let max_exit = run.init().map_err(dep)?;
                let mark = Mark {
                    stage: k as u32,
                    layer: 1,
                    max_exit,
                };
                save(mark, true)?;
                mark
            }
        };
        run.note_provisional(mark.layer);
        while run.layer_step(&mut mark)? {
            save(mark, false)?;
        }
        let Run { window, values, .. } = run;
        store.keep(&window, &values).map_err(ck)?;
        if !pawns {
            last_values = Some(values);
        }
    }
    match store {
        Store::None => {
            let values = last_values.expect("a pawnless table is one group");
            let entries = values.into_par_iter().map(AtomicU8::into_inner).collect();
            Ok(Table::from_entries(material, entries))
        }
        Store::Memory(values) => {
            let entries = values.into_par_iter().map(AtomicU8::into_inner).collect();
            Ok(Table::from_entries(material, entries))
        }
        Store::File { file, .. } => {
            let ix = game.indexer();
            let bl = ix.block_len();
            let configs = ix.pawn_configs();
            let valid: Vec<bool> = (0..configs).map(|c| ix.config_is_valid(c)).collect();
            Table::from_fill(material, &WriteOptions::default(), |first, out| {
                // `out` starts at a block boundary and spans whole blocks.
                for (j, part) in out.chunks_mut(bl as usize).enumerate() {
                    let at = first + j as u64 * bl;
                    if valid[((at / bl) % configs) as usize] {
                        file.read_exact_at(part, at)?;
                    } else {
                        part.fill(ILLEGAL);
                    }
                }
                Ok(())
            })
            .map_err(ck)
        }
    }
}

/// The resident memory [`generate`] needs for the canonical `material`, in bytes: two bytes
/// per index of its largest group, plus (for a pawn table, whose finished groups wait on disk)
/// the compressed table (estimated at a quarter of its entries) and the buffers that read the
/// values file back. The smaller tables it probes are not included.
pub fn estimate_memory(material: &Material) -> u64 {
    let ix = crate::Indexer::new(material);
    let largest = plan_groups(&ix)
        .iter()
        .map(|g| g.len() as u64 * 2 * ix.block_len())
        .max()
        .unwrap_or(0);
    if ix.has_pawns() {
        2 * largest + ix.size() / 4 + (64 << 20)
    } else {
        2 * largest
    }
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
struct Window {
    block_len: u64,
    /// The first global index of each block, in local order.
    starts: Vec<u64>,
    /// Per global block (`index / block_len`): its local slot, or `u32::MAX`.
    slot: Vec<u32>,
}

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
        Window {
            block_len,
            starts,
            slot,
        }
    }

    fn len(&self) -> usize {
        self.starts.len() * self.block_len as usize
    }

    #[inline]
    fn global(&self, local: usize) -> u64 {
        let bl = self.block_len as usize;
        self.starts[local / bl] + (local % bl) as u64
    }

    #[inline]
    fn local(&self, global: u64) -> Option<usize> {
        let s = *self.slot.get((global / self.block_len) as usize)?;
        (s != u32::MAX)
            .then(|| s as usize * self.block_len as usize + (global % self.block_len) as usize)
    }
}

/// Where the values of the groups already solved are kept.
enum Store {
    /// A pawnless table: one group, nothing to keep.
    None,
    /// Every index, in memory (no work folder).
    Memory(Vec<AtomicU8>),
    /// Every index, in the work folder's values file; the blocks read back are cached until
    /// the next group starts.
    File {
        file: File,
        path: PathBuf,
        block_len: u64,
        cache: Vec<OnceLock<Result<Box<[u8]>, String>>>,
    },
}

impl Store {
    /// Opens the values file (`resume`: as a checkpoint left it; otherwise new).
    fn file(path: &Path, game: &SliceGame, resume: bool) -> std::io::Result<Store> {
        let ix = game.indexer();
        if let Some(d) = path.parent() {
            std::fs::create_dir_all(d)?;
        }
        let file = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(!resume)
            .open(path)?;
        if resume && file.metadata()?.len() != ix.size() {
            return Err(std::io::Error::new(
                std::io::ErrorKind::InvalidData,
                format!(
                    "{}: {} bytes, expected {}; delete the work folder's files of this table to start over",
                    path.display(),
                    file.metadata()?.len(),
                    ix.size()
                ),
            ));
        }
        file.set_len(ix.size())?;
        Ok(Store::File {
            file,
            path: path.to_path_buf(),
            block_len: ix.block_len(),
            cache: (0..2 * ix.pawn_configs())
                .map(|_| OnceLock::new())
                .collect(),
        })
    }

    /// The value byte of global index `idx`, of a group already solved.
    fn get(&self, idx: u64) -> Result<u8, ProbeError> {
        match self {
            Store::None => unreachable!("a pawnless table reads no other group"),
            Store::Memory(v) => Ok(v[idx as usize].load(Relaxed)),
            Store::File {
                file,
                path,
                block_len,
                cache,
            } => {
                let block = idx / block_len;
                let bytes = cache[block as usize].get_or_init(|| {
                    let mut buf = vec![0u8; *block_len as usize].into_boxed_slice();
                    file.read_exact_at(&mut buf, block * block_len)
                        .map(|()| buf)
                        .map_err(|e| e.to_string())
                });
                match bytes {
                    Ok(b) => Ok(b[(idx % block_len) as usize]),
                    Err(e) => Err(ProbeError::Table(TableError::Io {
                        path: path.clone(),
                        source: std::io::Error::other(e.clone()),
                    })),
                }
            }
        }
    }

    /// Keeps a solved group's values (and forgets the blocks read back for it).
    fn keep(&mut self, window: &Window, values: &[AtomicU8]) -> std::io::Result<()> {
        let bl = window.block_len as usize;
        match self {
            Store::None => Ok(()),
            Store::Memory(all) => {
                for (k, &start) in window.starts.iter().enumerate() {
                    let dst = &all[start as usize..start as usize + bl];
                    dst.par_iter()
                        .zip(&values[k * bl..(k + 1) * bl])
                        .for_each(|(d, v)| d.store(v.load(Relaxed), Relaxed));
                }
                Ok(())
            }
            Store::File { file, cache, .. } => {
                cache.iter_mut().for_each(|c| drop(c.take()));
                let mut buf = vec![0u8; bl];
                for (k, &start) in window.starts.iter().enumerate() {
                    buf.par_iter_mut()
                        .zip(&values[k * bl..(k + 1) * bl])
                        .for_each(|(b, v)| *b = v.load(Relaxed));
                    file.write_all_at(&buf, start)?;
                }
                // A checkpoint of a later group implies that this one is on disk.
                file.sync_data()
            }
        }
    }
}

/// The working state of one group.
struct Run<'a> {
    material: &'a Material,
    tb: &'a Tablebase,
    game: &'a SliceGame,
    window: Window,
    store: &'a Store,
    /// Per local index: entry byte; before layer `d`, a byte above `d` is *provisional*: the
    /// value of the position's best exit (a win or loss in that many plies minus one), which
    /// an earlier in-group win may still replace and which a loss only keeps if every
    /// in-group move turns out to lose for the mover.
    values: Vec<AtomicU8>,
    /// Per undecided local index: its distinct in-group children not yet known to be won,
    /// plus one while an exit that draws or loses may still decide it.
    counters: Vec<AtomicU8>,
    /// Per chunk of [`CHUNK`] local indices, by the parity of the layer: whether a position
    /// of the chunk was decided in that layer (layer `d` scans only the chunks that had a
    /// decision in `d - 1`).
    fresh: [Vec<AtomicBool>; 2],
    /// Per chunk: the provisional bytes present, as a 256-bit set.
    provisional: OnceLock<Vec<[u64; 4]>>,
    progress: &'a AtomicU64,
}

impl Run<'_> {
    fn board(&self, local: usize) -> Board {
        let (turn, sq) = self.game.indexer().decode(self.window.global(local));
        Board { turn, sq }
    }

    /// Marks illegal indices and mates, and sets the provisional value (the best exit) and
    /// the counter of every other position of the group. Returns the deepest exit.
    fn init(&self) -> Result<u32, ProbeError> {
        let max_exit = AtomicU32::new(0);
        let n = self.values.len();
        (0..n.div_ceil(CHUNK))
            .into_par_iter()
            .try_for_each(|c| -> Result<(), ProbeError> {
                let range = c * CHUNK..((c + 1) * CHUNK).min(n);
                let mut children = Vec::new();
                self.progress.fetch_add(range.len() as u64, Relaxed);
                for local in range {
                    let Some(b) = self.game.legal_board(self.window.global(local)) else {
                        self.values[local].store(ILLEGAL, Relaxed);
                        continue;
                    };
                    let (any_move, exit) = self.exit_of(&b, &mut children)?;
                    if !any_move {
                        if self.game.in_check(&b) {
                            self.values[local].store(1, Relaxed); // checkmated: Loss(0)
                            self.fresh[0][c].store(true, Relaxed);
                        }
                        continue;
                    }
                    let provisional = match exit {
                        Some(Value::Win(d) | Value::Lose(d)) => u8::try_from(d + 1)
                            .ok()
                            .filter(|&b| b < ILLEGAL)
                            .ok_or_else(|| {
                                ProbeError::Illegal(format!(
                                    "{}: an exit deeper than {} plies",
                                    self.game.position(&b, None).fen(),
                                    ILLEGAL - 2
                                ))
                            })?,
                        _ => 0,
                    };
                    self.values[local].store(provisional, Relaxed);
                    let pending = children.len()
                        + usize::from(matches!(exit, Some(Value::Lose(_) | Value::Draw)));
                    let pending = u8::try_from(pending).map_err(|_| {
                        ProbeError::Illegal(format!(
                            "{}: more than 255 moves",
                            self.game.position(&b, None).fen()
                        ))
                    })?;
                    self.counters[local].store(pending, Relaxed);
                    if let Some(d) = exit.and_then(Value::plies) {
                        max_exit.fetch_max(d, Relaxed);
                    }
                }
                Ok(())
            })?;
        Ok(max_exit.into_inner())
    }

    /// Whether `b` has a legal move, and the best exit for the side to move; `children` gets
    /// the distinct indices of its in-stage children.
    fn exit_of(
        &self,
        b: &Board,
        children: &mut Vec<u64>,
    ) -> Result<(bool, Option<Value>), ProbeError> {
        children.clear();
        let mut any = false;
        let mut best: Option<Value> = None;
        let mut err = None;
        self.game.moves(b, |child| {
            any = true;
            let v = match child {
                Child::InSlice(c) => {
                    children.push(self.game.rank(&c));
                    return true;
                }
                Child::PawnPush { board, double } => self.push_value(b, &board, double),
                Child::Exit {
                    board,
                    victim,
                    promoted,
                } => self.game.exit_value(&board, victim, promoted),
            };
            match v {
                Ok(v) => {
                    let v = v.for_parent();
                    best = Some(best.map_or(v, |w| w.max(v)));
                    true
                }
                Err(e) => {
                    err = Some(e);
                    false
                }
            }
        });
        // A position symmetric to itself can reach one child by two moves: the solver
        // counts children, as the un-moves list each predecessor once (see `layer`).
        children.sort_unstable();
        children.dedup();
        match err {
            Some(e) => Err(e),
            None => Ok((any, best)),
        }
    }

    /// The value of a pawn push's child (a stage already solved), for its side to move.
    fn push_value(
        &self,
        parent: &Board,
        child: &Board,
        double: Option<u8>,
    ) -> Result<Value, ProbeError> {
        if double.is_some() {
            let pos = self.game.position(parent, None);
            let m = pos.legal_moves().into_iter().find(|m| {
                m.promotion.is_none() && self.game.position(child, None).same_board(&pos.play(*m))
            });
            if let Some(next) = m.map(|m| pos.play(m)).filter(|p| p.ep_square().is_some()) {
                return self.slow_value(&next);
            }
        }
        self.own_value(self.game.rank(child))
    }

    /// The value of index `idx` of this material in a group already solved.
    fn own_value(&self, idx: u64) -> Result<Value, ProbeError> {
        debug_assert!(
            self.window.local(idx).is_none(),
            "pawn moves leave the group"
        );
        // `idx` ranks a legal position, so 255 here is a loss in 254 plies, not the filler.
        Ok(crate::value::decode(self.store.get(idx)?))
    }

    /// The value of any position whose table or stage is solved, en passant rights included
    /// (one ply ahead, as [`Tablebase::probe`] does).
    fn slow_value(&self, pos: &Position) -> Result<Value, ProbeError> {
        if pos.ep_square().is_some() {
            let mut best: Option<Value> = None;
            for m in pos.legal_moves() {
                let v = self.slow_value(&pos.play(m))?.for_parent();
                best = Some(best.map_or(v, |b| b.max(v)));
            }
            return Ok(best.unwrap_or(if pos.is_check() {
                Value::Lose(0)
            } else {
                Value::Draw
            }));
        }
        if Material::of(pos) == *self.material {
            let idx = self
                .game
                .indexer()
                .rank(pos)
                .ok_or_else(|| ProbeError::Illegal(pos.fen()))?;
            return self.own_value(idx);
        }
        self.tb.probe(pos)
    }

    /// Runs layer `mark.layer` and advances the mark; returns whether the group has more
    /// layers (what stays undecided at the end is drawn).
    fn layer_step(&self, mark: &mut Mark) -> Result<bool, GenError> {
        let d = mark.layer;
        let dry = d > MAX_PLIES;
        let decided = self.layer(d, dry);
        if decided > 0 && dry {
            return Err(GenError::TooDeep(self.material.clone()));
        }
        mark.layer += 1;
        Ok(decided > 0 || d <= mark.max_exit)
    }

    /// Notes, per chunk, the provisional bytes its positions hold before layer `layer` (after
    /// the initialisation pass or a resume): the bytes above `layer`.
    fn note_provisional(&self, layer: u32) {
        let n = self.values.len();
        let sets = (0..n.div_ceil(CHUNK))
            .into_par_iter()
            .map(|c| {
                let mut set = [0u64; 4];
                for v in &self.values[c * CHUNK..((c + 1) * CHUNK).min(n)] {
                    let v = v.load(Relaxed);
                    if u32::from(v) > layer && v != ILLEGAL {
                        set[usize::from(v / 64)] |= 1 << (v % 64);
                    }
                }
                set
            })
            .collect();
        // Called once per group; a resumed group has a fresh `Run`.
        let _ = self.provisional.set(sets);
    }

    /// One layer: decides the positions of depth `d`; returns how many. `dry`: only count.
    fn layer(&self, d: u32, dry: bool) -> u64 {
        let n = self.values.len();
        let chunks = n.div_ceil(CHUNK);
        let now = &self.fresh[d as usize % 2];
        let before = &self.fresh[(d as usize + 1) % 2];
        let provisional = self.provisional.get().expect("noted before the layers");
        let decided = AtomicU64::new(0);
        // First the provisional values of depth `d`: a win is decided now; a loss only if
        // its exit was the last pending move, otherwise the position is open again.
        let due = (d + 1 < u32::from(ILLEGAL)).then_some((d + 1) as u8);
        if let Some(due) = due.filter(|_| !dry) {
            (0..chunks).into_par_iter().for_each(|c| {
                if provisional[c][usize::from(due / 64)] & (1 << (due % 64)) == 0 {
                    return;
                }
                if d % 2 == 1 {
                    now[c].store(true, Relaxed);
                    return;
                }
                let mut count = 0;
                for local in c * CHUNK..((c + 1) * CHUNK).min(n) {
                    if self.values[local].load(Relaxed) != due {
                        continue;
                    }
                    if self.counters[local].fetch_sub(1, Relaxed) == 1 {
                        count += 1;
                        now[c].store(true, Relaxed);
                    } else {
                        self.values[local].store(0, Relaxed);
                    }
                }
                decided.fetch_add(count, Relaxed);
            });
        }
        // Entry byte of depth d - 1; the entries of depth 254 (byte 255) have no successor
        // layer, and 255 also marks illegal indices.
        let Some(trigger) = (d <= 254).then_some(d as u8) else {
            return decided.into_inner();
        };
        (0..chunks).into_par_iter().for_each(|c| {
            if !before[c].swap(false, Relaxed) {
                return;
            }
            let mut preds = Vec::new();
            let mut count = 0;
            let range = c * CHUNK..((c + 1) * CHUNK).min(n);
            for (k, v) in self.values[range.clone()].iter().enumerate() {
                if v.load(Relaxed) != trigger {
                    continue;
                }
                let b = self.board(range.start + k);
                preds.clear();
                self.game.unmoves(&b, &mut preds);
                // Each predecessor once: its counter counts distinct children.
                preds.sort_unstable();
                preds.dedup();
                for &q in &preds {
                    // Un-moves of kings and pieces keep the pawns: `q` is in the group.
                    if let Some(q) = self.window.local(q) {
                        count += u64::from(self.step(q, d, dry));
                    }
                }
            }
            decided.fetch_add(count, Relaxed);
        });
        decided.into_inner()
    }

    /// A child of open local index `q` (undecided, or holding a provisional value deeper than
    /// `d`) has just been decided at depth `d - 1`: at an odd `d` `q` wins in `d`; at an even
    /// `d` it loses in `d` if that was its last pending move. Returns whether `q` was decided.
    fn step(&self, q: usize, d: u32, dry: bool) -> bool {
        let cell = &self.values[q];
        let cur = cell.load(Relaxed);
        let open = cur == 0 || (u32::from(cur) > d + 1 && cur != ILLEGAL);
        if !open {
            return false;
        }
        if d % 2 == 0 {
            // A provisional win (an even byte: odd plies) never loses; a provisional loss
            // or a drawing exit keeps one pending move until its depth, so only an
            // undecided position without such an exit reaches zero here.
            if cur != 0 && cur % 2 == 0 {
                return false;
            }
            if self.counters[q].fetch_sub(1, Relaxed) != 1 {
                return false;
            }
        }
        if dry {
            return true;
        }
        let won = cell
            .compare_exchange(cur, d as u8 + 1, Relaxed, Relaxed)
            .is_ok();
        if won {
            let flag = &self.fresh[d as usize % 2][q / CHUNK];
            if !flag.load(Relaxed) {
                flag.store(true, Relaxed);
            }
        }
        won
    }
}
