//! Generation of one table by retrograde analysis on un-moves: no graph, two bytes per index.
//!
//! The working state is the table itself (one entry byte per index: 0 undecided or draw,
//! `plies + 1` once decided, 255 illegal) plus one *exit* byte per index: the best value, for
//! the mover, among the moves that leave the stage (captures and promotions, probed from the
//! smaller tables; pawn moves, read from the stages of this table already solved).
//!
//! Each stage (see [`slice`](crate::slice)) is solved layer by layer, depth `d = 1, 2, ...`:
//! a scan finds the positions decided at depth `d - 1` and the positions whose exit has depth
//! `d`. At an odd `d` every undecided predecessor (an in-stage un-move) of a position lost in
//! `d - 1` wins in `d`, as does every undecided position whose exit wins in `d`. At an even `d`
//! an undecided predecessor of a position won in `d - 1` (or a position whose exit loses in
//! `d`) loses in `d` when its exit loses in at most `d` and every in-stage move leads to a
//! decided win: the out-degree counter is recomputed by move generation instead of stored.
//! What stays undecided is a draw. The layers give the same fast-win / slow-loss depths as
//! [`zermelo::solve::retrograde`] on the explicit graph. Cost per layer: one scan of the state
//! plus an un-move generation per position decided and a move generation per loss candidate.
//! Threads only write values that do not depend on the order of the writes, so the result is
//! the same for any thread count.

use std::path::PathBuf;
use std::sync::atomic::{AtomicU32, AtomicU64, AtomicU8, Ordering::Relaxed};
use std::time::{Duration, Instant};

use rayon::prelude::*;

use crate::checkpoint::{self, Mark};
use crate::material::{Material, MAX_PIECES};
use crate::position::Position;
use crate::probe::{ProbeError, Tablebase};
use crate::slice::{Board, Child, SliceGame};
use crate::table::Table;
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
/// reachable through `tb`. `progress` counts indices initialised (scaled so that all stage
/// passes together count each index once).
pub fn generate(
    material: &Material,
    tb: &Tablebase,
    progress: &AtomicU64,
) -> Result<Table, GenError> {
    generate_with(material, tb, progress, &GenOptions::default())
}

/// Deletes the checkpoint of `material` in `work_dir` (call it once the table is written).
pub fn discard_checkpoint(work_dir: &std::path::Path, material: &Material) -> std::io::Result<()> {
    checkpoint::remove(work_dir, material)
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
    for m in material.successors() {
        tb.table(&m).map_err(dep)?;
    }
    let game = SliceGame::new(material, tb).map_err(dep)?;
    let n = game.indexer().size() as usize;
    let run = Run {
        material,
        tb,
        values: (0..n).into_par_iter().map(|_| AtomicU8::new(0)).collect(),
        exits: (0..n).into_par_iter().map(|_| AtomicU8::new(0)).collect(),
        counters: (0..n).into_par_iter().map(|_| AtomicU8::new(0)).collect(),
        game,
        progress,
    };
    let ck = |source| GenError::Checkpoint {
        material: material.clone(),
        source,
    };
    let arrays = &[&run.values[..], &run.exits[..], &run.counters[..]][..];
    let dir = options.work_dir.as_deref();
    let resume = match dir {
        Some(d) => checkpoint::load(d, material, arrays).map_err(ck)?,
        None => None,
    };
    let mut last_save = Instant::now();
    let mut save = |mark: Mark, force: bool| -> Result<(), GenError> {
        if let Some(d) = dir {
            if force || last_save.elapsed() >= options.checkpoint_interval {
                checkpoint::save(d, material, mark, arrays).map_err(ck)?;
                last_save = Instant::now();
            }
        }
        Ok(())
    };
    let stages = run.game.stages();
    let start = resume.unwrap_or(Mark {
        stage: 0,
        layer: 0,
        max_exit: 0,
    });
    for (k, &stage) in stages.iter().enumerate().skip(start.stage as usize) {
        let mut mark = if k == start.stage as usize && start.layer > 0 {
            start
        } else {
            let max_exit = run.init_stage(stage, k == 0, stages.len()).map_err(dep)?;
            let mark = Mark {
                stage: k as u32,
                layer: 1,
                max_exit,
            };
            save(mark, true)?;
            mark
        };
        while run.layer_step(stage, &mut mark)? {
            save(mark, false)?;
        }
    }
    let Run {
        values,
        exits,
        counters,
        ..
    } = run;
    drop((exits, counters));
    let entries = values.into_par_iter().map(AtomicU8::into_inner).collect();
    Ok(Table::from_entries(material, entries))
}

/// Exit byte: 0 none, 1 draw, `plies + 2` otherwise.
fn encode_exit(v: Option<Value>) -> Option<u8> {
    match v {
        None => Some(0),
        Some(Value::Draw) => Some(1),
        Some(Value::Win(d) | Value::Lose(d)) => (d + 2 <= 255).then(|| d as u8 + 2),
    }
}

/// The working state of one generation.
struct Run<'a> {
    material: &'a Material,
    tb: &'a Tablebase,
    game: SliceGame,
    values: Vec<AtomicU8>,
    exits: Vec<AtomicU8>,
    /// Per undecided index: its distinct in-stage children not yet known to be won, plus
    /// one while a losing exit is deeper than the current layer.
    counters: Vec<AtomicU8>,
    progress: &'a AtomicU64,
}

impl Run<'_> {
    fn board(&self, idx: u64) -> Board {
        let (turn, sq) = self.game.indexer().decode(idx);
        Board { turn, sq }
    }

    /// Marks illegal indices (on the first pass), mates, and the exits of every position of
    /// `stage`. Returns the deepest exit.
    fn init_stage(&self, stage: u32, first: bool, stages: usize) -> Result<u32, ProbeError> {
        let max_exit = AtomicU32::new(0);
        let n = self.values.len();
        (0..n.div_ceil(CHUNK))
            .into_par_iter()
            .try_for_each(|c| -> Result<(), ProbeError> {
                let range = c * CHUNK..((c + 1) * CHUNK).min(n);
                let mut children = Vec::new();
                self.progress
                    .fetch_add((range.len() / stages) as u64, Relaxed);
                for idx in range {
                    let Some(b) = self.game.legal_board(idx as u64) else {
                        if first {
                            self.values[idx].store(ILLEGAL, Relaxed);
                        }
                        continue;
                    };
                    if self.game.stage(&b) != stage {
                        continue;
                    }
                    let (any_move, exit) = self.exit_of(&b, &mut children)?;
                    if !any_move {
                        if self.game.in_check(&b) {
                            self.values[idx].store(1, Relaxed); // checkmated: Loss(0)
                        }
                        continue;
                    }
                    let byte = encode_exit(exit).ok_or_else(|| {
                        ProbeError::Illegal(format!(
                            "{}: an exit deeper than {MAX_PLIES} plies",
                            self.game.position(&b, None).fen()
                        ))
                    })?;
                    self.exits[idx].store(byte, Relaxed);
                    let pending =
                        children.len() + usize::from(matches!(exit, Some(Value::Lose(_))));
                    let pending = u8::try_from(pending).map_err(|_| {
                        ProbeError::Illegal(format!(
                            "{}: more than 255 moves",
                            self.game.position(&b, None).fen()
                        ))
                    })?;
                    self.counters[idx].store(pending, Relaxed);
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

    fn own_value(&self, idx: u64) -> Result<Value, ProbeError> {
        // `idx` ranks a legal position, so 255 here is a loss in 254 plies, not the filler.
        Ok(crate::value::decode(
            self.values[idx as usize].load(Relaxed),
        ))
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

    /// Runs layer `mark.layer` of `stage` and advances the mark; returns whether the stage
    /// has more layers (what stays undecided at the end is drawn).
    fn layer_step(&self, stage: u32, mark: &mut Mark) -> Result<bool, GenError> {
        let d = mark.layer;
        let dry = d > MAX_PLIES;
        let decided = self.layer(stage, d, dry);
        if decided > 0 && dry {
            return Err(GenError::TooDeep(self.material.clone()));
        }
        mark.layer += 1;
        Ok(decided > 0 || d <= mark.max_exit)
    }

    /// One layer: decides the positions of depth `d`; returns how many. `dry`: only count.
    fn layer(&self, stage: u32, d: u32, dry: bool) -> u64 {
        let n = self.values.len();
        let trigger = d as u8; // entry byte of depth d - 1
        let exit_trigger = (d + 2).min(255) as u8;
        let decided = AtomicU64::new(0);
        (0..n.div_ceil(CHUNK)).into_par_iter().for_each(|c| {
            let mut preds = Vec::new();
            let mut count = 0;
            for idx in c * CHUNK..((c + 1) * CHUNK).min(n) {
                let v = self.values[idx].load(Relaxed);
                if v == trigger && d <= 254 {
                    let b = self.board(idx as u64);
                    if self.game.stage(&b) == stage {
                        preds.clear();
                        self.game.unmoves(&b, &mut preds);
                        // Each predecessor once: its counter counts distinct children.
                        preds.sort_unstable();
                        preds.dedup();
                        for &q in &preds {
                            count += u64::from(self.step(q, d, dry));
                        }
                    }
                }
                if v == 0 && d + 2 <= 255 && self.exits[idx].load(Relaxed) == exit_trigger {
                    let b = self.board(idx as u64);
                    if self.game.stage(&b) == stage {
                        count += u64::from(self.step(idx as u64, d, dry));
                    }
                }
            }
            decided.fetch_add(count, Relaxed);
        });
        decided.into_inner()
    }

    /// One child (or the exit) of undecided `q` has just been resolved at depth `d - 1`
    /// (resp. `d`): at an odd `d` `q` wins in `d`; at an even `d` it loses in `d` if that was
    /// its last pending move and its exit does not draw or win. Returns whether `q` was
    /// decided.
    fn step(&self, q: u64, d: u32, dry: bool) -> bool {
        let cell = &self.values[q as usize];
        if cell.load(Relaxed) != 0 {
            return false;
        }
        if d % 2 == 0 {
            let last = self.counters[q as usize].fetch_sub(1, Relaxed) == 1;
            let exit = self.exits[q as usize].load(Relaxed);
            let exit_loses = exit == 0 || (exit >= 2 && (exit - 2) % 2 == 0);
            if !(last && exit_loses) {
                return false;
            }
        }
        dry || cell
            .compare_exchange(0, d as u8 + 1, Relaxed, Relaxed)
            .is_ok()
    }
}
