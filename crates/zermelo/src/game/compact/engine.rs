//! The layer loop: seeding, one pass per depth layer over the frontier bitmap, and the cell
//! updates (compare-and-swap) that make the result independent of the thread count.
//!
//! One frontier bitmap serves two layers: while layer `d` is processed it holds the cells
//! decided at `d` (processed, then cleared) and those decided at `d + 1` (left for the next
//! pass); the cell's depth tells them apart. Values set ahead of their layer (exits, and
//! losses that an exit makes last longer) are listed by depth as the 16 K-index pieces that
//! hold them, and join the frontier when their layer comes (a scan of those pieces only).

use std::collections::{BTreeMap, HashMap};
use std::sync::atomic::{AtomicBool, AtomicU16, AtomicU64, Ordering::Relaxed};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use rayon::prelude::*;

use super::checkpoint::{self, Restored, Resume, Snapshot};
use super::seeding::{self, SeedLog};
use super::store::{Bits, Cells, PIECE_BITS};
use super::{
    estimate_memory, CompactError, CompactOptions, CounterMode, IndexedGame, LayerProgress,
    Lookahead, Start, MAX_DEPTH,
};
use crate::game::Value;
use crate::graph::MAX_NODES;
use crate::outcome::Outcome;
use crate::solve::Solution;

// The cell: two tag bits, then a depth (WIN, LOSE) or the open state.
const TAG: u16 = 0b11 << 14;
const OPEN: u16 = 0;
const WIN: u16 = 1 << 14;
const LOSE: u16 = 2 << 14;
const DRAW: u16 = 3 << 14;
const DEPTH: u16 = 0x3FFF;
/// Open: the position has an exit that loses; look it up again when every move is lost.
const LOSE_EXIT: u16 = 1 << 13;
/// Open, counter mode: the move counter; `SPILL` means "in the side map".
const COUNT: u16 = 0x1FFF;
const SPILL: u16 = COUNT;
/// Open, recompute mode: the position has a drawing exit, so it is never lost.
const DRAW_EXIT: u16 = 1 << 12;
/// Open with a losing exit, counter mode, small numbers: the DRAW tag with bit 13 set, then
/// the move counter (6 bits) and the exit's depth (7 bits), so that the exit need not be
/// asked for again when every move is lost. Larger ones use `OPEN | LOSE_EXIT`.
const PACKED: u16 = DRAW | 1 << 13;
const PACKED_SHIFT: u32 = 7;
const PACKED_DEPTH: u16 = (1 << PACKED_SHIFT) - 1;
const PACKED_COUNT_MAX: u64 = 63;

/// Whether `code` is an open position (undecided, maybe with a packed losing exit).
#[inline]
fn is_open(code: u16) -> bool {
    code & TAG == OPEN || code & PACKED == PACKED
}

/// Bitmap words per parallel work item (16 384 indices: a layer's frontier often sits in a
/// few places, and a small group of chess positions has only some hundreds of thousands).
const CHUNK_WORDS: usize = 256;
/// A hole: a draw that nothing reaches, told apart from a drawn position by the low bit.
const HOLE: u16 = DRAW | 1;
/// Indices seeded between two chances of a seeding checkpoint (64 work items).
const SEED_SLICE: u64 = (CHUNK_WORDS * 64 * 64) as u64;

/// Layered checkpoints cost the solver about this share of its time at most: each one's cost
/// (compressing the cells on the pool's threads and writing them; the sync runs behind) is
/// measured, and the next comes after that many times the cost, but never later than
/// `checkpoint_every` nor sooner than an eighth of it. A killed run loses at most the gap: a
/// small state (KQQQQvK's 1 GB of cells, half a second) is kept every ten seconds, a large
/// one (KQQvKRR's 6 GB) once a minute. In memory only: out of core the gap is
/// `checkpoint_every`.
const CHECKPOINT_OVERHEAD: u32 = 20;
/// Bytes of cells one thread compresses and writes per second, for the gap before the first
/// layered checkpoint of a run (zstd level 1 over the cells: well above this on the machines
/// measured); the gaps after it use the measured cost.
const SAVE_BYTES_PER_THREAD_SECOND: f64 = 1e9;

/// How far [`Lookahead::Auto`] trusts the predecessors per lost position measured in earlier
/// layers: pushing is chosen on that figure alone only where it stays cheaper at this many
/// times the figure; otherwise the frontier is sampled ([`FrontierSample`]).
const PER_LOST_DOUBT: f64 = 4.0;
/// One lost position in this many of a frontier lists its predecessors for the estimate.
const SAMPLE_ONE_IN: u64 = 256;
/// [`SAMPLE_ONE_IN`] as a bound on the top 32 bits of an index's hash.
const SAMPLE_THRESHOLD: u64 = (1 << 32) / SAMPLE_ONE_IN;
/// Sampled lost positions below which the measured ratio is used instead of the sample's.
const MIN_SAMPLE: u64 = 256;

/// A frontier's lost positions and a sample's predecessors ([`Engine::sample_frontier`]).
#[derive(Clone, Copy, Default)]
struct FrontierSample {
    lost: u64,
    sampled: u64,
    preds: u64,
}

/// The gap before the next layered checkpoint, given `every` (the user's longest gap) and what
/// the last checkpoint cost (see [`CHECKPOINT_OVERHEAD`]).
fn layered_gap(every: Duration, cost: Duration) -> Duration {
    (cost * CHECKPOINT_OVERHEAD).clamp(every / 8, every)
}

/// A layered checkpoint's cost before one is measured: the cells' bytes at
/// [`SAVE_BYTES_PER_THREAD_SECOND`] on every thread of the pool.
fn estimated_save_cost(n: u64) -> Duration {
    let threads = rayon::current_num_threads().max(1) as f64;
    Duration::from_secs_f64(2.0 * n as f64 / (SAVE_BYTES_PER_THREAD_SECOND * threads))
}

#[inline]
fn decided(tag: u16, depth: u32) -> u16 {
    debug_assert!(depth <= MAX_DEPTH);
    tag | depth as u16
}

fn decode(code: u16) -> Value {
    let depth = u32::from(code & DEPTH);
    match code & TAG {
        WIN => Value::Win(depth),
        LOSE => Value::Lose(depth),
        _ => Value::Draw,
    }
}

/// Solves `game` with the compact engine.
///
/// # Errors
/// [`CompactError`]: a game that breaks the [`IndexedGame`] contract (an open position without
/// moves or exit, a bad exit value, a predecessor out of range), values deeper than
/// [`MAX_DEPTH`], a memory estimate above `max_memory`, or a work folder that cannot be used.
pub fn solve<G: IndexedGame + ?Sized>(
    game: &G,
    options: &CompactOptions,
) -> Result<CompactSolution, CompactError> {
    let n = game.index_count();
    let needed = estimate_memory(n, options);
    if let Some(limit) = options.max_memory {
        if needed > limit {
            return Err(CompactError::TooBig { needed, limit });
        }
    }
    if options.mapped && options.work_dir.is_none() {
        return Err(CompactError::MappedNeedsWorkDir);
    }
    // Pending pieces are numbered in a u32 (2^46 indices, far beyond any memory).
    if n > usize::MAX as u64 / 2 || n >> PIECE_BITS > u64::from(u32::MAX) {
        return Err(CompactError::TooBig {
            needed,
            limit: usize::MAX as u64,
        });
    }
    match options.threads {
        None => run(game, options),
        Some(threads) => rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .map_err(|e| CompactError::Threads {
                threads,
                reason: e.to_string(),
            })?
            .install(|| run(game, options)),
    }
}

fn run<G: IndexedGame + ?Sized>(
    game: &G,
    options: &CompactOptions,
) -> Result<CompactSolution, CompactError> {
    let n = game.index_count();
    if options.counters == CounterMode::Recompute && n > 0 && !game.successors(0, &mut Vec::new()) {
        return Err(CompactError::NoSuccessors);
    }
    let resume = match &options.work_dir {
        Some(dir) => checkpoint::open(dir, n, options, seeding::in_place(dir)?)?,
        None => Resume::fresh(Cells::heap(n as usize)),
    };
    let mut engine = Engine {
        game,
        n,
        mode: options.counters,
        cells: resume.cells,
        frontier: Bits::new(n),
        ahead: Bits::new(n),
        pending: Mutex::new(BTreeMap::new()),
        spill: Mutex::new(HashMap::new()),
        decided: AtomicU64::new(0),
        next_count: AtomicU64::new(0),
        error: Mutex::new(None),
        lookahead: options.lookahead,
        costs: Costs::default(),
    };
    let resumed_from = resume.snapshot.as_ref().map(|s| s.layer);
    let started = Instant::now();
    let due = |since: Instant| {
        options
            .checkpoint_every
            .is_none_or(|every| since.elapsed() >= every)
    };
    // Whether this run's work is on disk (resumed, or a checkpoint taken).
    let mut kept = resumed_from.is_some();
    // The checkpoint being synced behind the solver; the seeding checkpoint it supersedes
    // goes once it is the work folder's.
    let mut saving: Option<checkpoint::Saving> = None;
    let settle = |saving: &mut Option<checkpoint::Saving>| -> Result<(), CompactError> {
        if let (Some(s), Some(dir)) = (saving.take(), &options.work_dir) {
            s.wait()?;
            seeding::discard(dir)?;
        }
        Ok(())
    };
    let mut layer = match resume.snapshot {
        Some(s) => {
            if let Some(dir) = &options.work_dir {
                seeding::discard(dir)?; // superseded by the layered checkpoint
            }
            engine.restore(s)
        }
        None => {
            // Seeding asks the game about every index (for chess: every move, every exit
            // probed), often the longest phase: keep it if it took a checkpoint's interval.
            let often = |since: Instant| {
                options
                    .checkpoint_every
                    .is_none_or(|every| since.elapsed() >= every / 4)
            };
            if engine.seed_with_checkpoints(options, &due, &often)? {
                if let Some(dir) = &options.work_dir {
                    saving = Some(checkpoint::save(dir, options, &engine.snapshot(0))?);
                    kept = true;
                    if engine.cells.is_mapped() {
                        // A seeding checkpoint taken in place describes the cells the first
                        // layer changes: the layered one supersedes it before that.
                        settle(&mut saving)?;
                        engine.cells.set_keep(false);
                    }
                }
            }
            0
        }
    };
    // In memory, the first layered gap counts from the start when the seeding was not kept
    // (it is redone after a kill, so its time is at stake too), and the gaps follow the cost.
    // Out of core (a mapped state) they keep the user's interval from the seeding's end: each
    // checkpoint reads the whole state back from the disk and holds its compressed copy in a
    // memory that is short already (sooner ones took a 144 MiB test run over its limit).
    let adaptive = !engine.cells.is_mapped();
    let mut last_checkpoint = if saving.is_some() || !adaptive {
        Instant::now()
    } else {
        started
    };
    let gap_after = |cost: Duration| {
        options.checkpoint_every.map(|every| {
            if adaptive {
                layered_gap(every, cost)
            } else {
                every
            }
        })
    };
    let mut gap = gap_after(estimated_save_cost(n));
    if engine.lookahead != Lookahead::Never {
        engine.census();
    }
    loop {
        let frontier = engine.next_count.swap(0, Relaxed) + engine.absorb_pending(layer);
        if frontier == 0 && engine.pending_is_empty() {
            break;
        }
        if frontier > 0 {
            if layer >= MAX_DEPTH {
                return Err(CompactError::TooDeep);
            }
            let ahead = engine.look_ahead(layer, frontier);
            engine.take_error()?;
            engine.process(layer, ahead);
            engine.take_error()?;
        }
        layer += 1;
        if let Some(progress) = &options.progress {
            progress(&LayerProgress {
                layer: layer - 1,
                decided: engine.decided.load(Relaxed),
                index_count: n,
            });
        }
        if saving.as_ref().is_some_and(checkpoint::Saving::is_done) {
            settle(&mut saving)?; // the seeding checkpoint it supersedes goes now
        }
        if game.failed() {
            return Err(CompactError::GameFailed);
        }
        if let Some(dir) = &options.work_dir {
            if gap.is_none_or(|gap| last_checkpoint.elapsed() >= gap) {
                settle(&mut saving)?;
                let t0 = Instant::now();
                saving = Some(checkpoint::save(dir, options, &engine.snapshot(layer))?);
                gap = gap_after(t0.elapsed());
                last_checkpoint = Instant::now();
                kept = true;
            }
        }
    }
    settle(&mut saving)?;
    if let Some(dir) = &options.work_dir {
        if options.keep_checkpoint && (kept || due(started)) {
            // The caller's work after the solve resumes from here after a kill.
            checkpoint::save(dir, options, &engine.snapshot(layer))?.wait()?;
        } else {
            checkpoint::finished(dir)?;
        }
        seeding::discard(dir)?;
    }
    engine.finish();
    Ok(CompactSolution {
        cells: engine.cells,
        len: n,
        resumed_from,
    })
}

/// The solver's state during a run.
pub(super) struct Engine<'g, G: ?Sized> {
    game: &'g G,
    n: u64,
    mode: CounterMode,
    pub(super) cells: Cells,
    /// The frontier: indices decided at the current layer's depth (processed and cleared in
    /// this layer) and at the next depth (found while processing this one).
    pub(super) frontier: Bits,
    /// The indices that may hold a value set ahead of its layer (every one that does is
    /// marked), so that absorbing a depth's pending values visits those, not whole pieces.
    ahead: Bits,
    /// Values set ahead of their layer (exits), by depth: the pieces (`index >> PIECE_BITS`)
    /// that hold some, maybe listed twice.
    pub(super) pending: Mutex<BTreeMap<u32, Vec<u32>>>,
    /// Counters of 8191 moves or more.
    pub(super) spill: Mutex<HashMap<u64, u64>>,
    pub(super) decided: AtomicU64,
    next_count: AtomicU64,
    error: Mutex<Option<CompactError>>,
    lookahead: Lookahead,
    /// What each direction has cost so far, for [`Lookahead::Auto`].
    costs: Costs,
}

/// The figures behind [`Lookahead::Auto`]'s choice, gathered as the solve goes.
#[derive(Default)]
struct Costs {
    /// The game cannot look ahead ([`IndexedGame::any_successor`] gave `None`).
    unsupported: AtomicBool,
    /// Open cells and `decided` at the census: open cells now are `open - (decided - base)`.
    open: AtomicU64,
    base: AtomicU64,
    /// Moves per open cell at the census (times 16): the first guess of both costs.
    moves_x16: AtomicU64,
    /// Lost positions pushed from, and the predecessors they listed.
    pushed: AtomicU64,
    preds: AtomicU64,
    /// Positions that looked ahead, and the successors they looked at.
    looked: AtomicU64,
    succs: AtomicU64,
}

impl<G: IndexedGame + ?Sized> Engine<'_, G> {
    #[inline]
    fn cell(&self, i: u64) -> &AtomicU16 {
        &self.cells.slice()[i as usize]
    }

    fn fail(&self, e: CompactError) {
        let mut slot = self.error.lock().expect("no panics while holding the lock");
        slot.get_or_insert(e);
    }

    fn take_error(&self) -> Result<(), CompactError> {
        match self.error.lock().expect("no panics").take() {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }

    /// Seeds every index in slices of [`SEED_SLICE`], with a seeding checkpoint (see
    /// [`seeding`]) whenever one is `often` since the last, resuming from one if the work
    /// folder has it; returns whether the finished seeding should be kept (it is partly on
    /// disk already, or took a checkpoint's interval: `due`).
    ///
    /// A seeding checkpoint appends only the cells seeded since the last, so its cost is in
    /// the bytes, not in how many there are: they come four times as often as layered ones (a
    /// 6-piece table killed 20 s into its DTZ seeding lost those 20 s: its rerun took 0.42 of
    /// a run).
    fn seed_with_checkpoints(
        &mut self,
        options: &CompactOptions,
        due: &dyn Fn(Instant) -> bool,
        often: &dyn Fn(Instant) -> bool,
    ) -> Result<bool, CompactError> {
        let started = Instant::now();
        let (mut log, mut from) = match &options.work_dir {
            None => (None, 0),
            Some(dir) => match SeedLog::open(dir, self.n, options, &self.cells)? {
                Some((log, spill)) => {
                    let from = log.saved;
                    self.cells.set_keep(log.is_in_place());
                    self.restore_seeded(from, spill);
                    (Some(log), from)
                }
                None => (Some(SeedLog::new(dir, &self.cells)), 0),
            },
        };
        let mut last = Instant::now();
        while from < self.n {
            let to = (from + SEED_SLICE).min(self.n);
            self.seed(from, to)?;
            if self.game.failed() {
                return Err(CompactError::GameFailed);
            }
            self.cells
                .release_range(from as usize, (to - from) as usize);
            from = to;
            if let Some(log) = log.as_mut().filter(|_| from < self.n && often(last)) {
                let spill = self.spill.lock().expect("no panics").clone();
                log.save(options, &self.cells, from, &spill)?;
                // The state file now backs the checkpoint: it outlives a failure.
                self.cells.set_keep(log.is_in_place());
                last = Instant::now();
            }
        }
        Ok(log.is_some_and(|log| log.saved > 0 || due(started)))
    }

    /// Takes back the state of the first `seeded` indices from their cells (loaded from a
    /// seeding checkpoint): a WIN or LOSE of depth 0 is a terminal (frontier of layer 0), a
    /// deeper one an exit pending at its depth.
    fn restore_seeded(&mut self, seeded: u64, spill: HashMap<u64, u64>) {
        let chunk = (CHUNK_WORDS * 64) as u64;
        let joined: u64 = (0..seeded.div_ceil(chunk))
            .into_par_iter()
            .map(|c| {
                let (lo, hi) = (c * chunk, ((c + 1) * chunk).min(seeded));
                let (mut decided, mut joined, mut pend) = (0, 0, Vec::new());
                for i in lo..hi {
                    let code = self.cell(i).load(Relaxed);
                    if !matches!(code & TAG, WIN | LOSE) {
                        continue;
                    }
                    decided += 1;
                    match code & DEPTH {
                        0 => joined += u64::from(self.frontier.insert(i)),
                        d => {
                            self.ahead.insert(i);
                            pend.push((u32::from(d), (i >> PIECE_BITS) as u32));
                        }
                    }
                }
                self.decided.fetch_add(decided, Relaxed);
                self.list_pending(pend);
                joined
            })
            .sum();
        self.next_count.fetch_add(joined, Relaxed);
        *self.spill.get_mut().expect("no panics") = spill;
    }

    /// Writes the starting cells of indices `from..to` (`from` a multiple of the chunk);
    /// terminals join the frontier of layer 0, exits are listed as pending at their depth.
    fn seed(&mut self, from: u64, to: u64) -> Result<(), CompactError> {
        let chunk = (CHUNK_WORDS * 64) as u64;
        debug_assert_eq!(from % chunk, 0);
        let joined: u64 = (from / chunk..to.div_ceil(chunk))
            .into_par_iter()
            .map_init(Vec::new, |starts, c| {
                let lo = c * chunk;
                let hi = (lo + chunk).min(to);
                let mut tally = Tally::default();
                let mut pend = Vec::new();
                starts.clear();
                starts.resize((hi - lo) as usize, Start::Hole);
                self.game.start_range(lo, starts);
                for (i, &start) in (lo..hi).zip(starts.iter()) {
                    if let Err(e) = self.seed_one(i, start, &mut tally, &mut pend) {
                        self.fail(e);
                        break;
                    }
                }
                self.decided.fetch_add(tally.decided, Relaxed);
                self.list_pending(pend);
                tally.next
            })
            .sum();
        self.take_error()?;
        self.next_count.fetch_add(joined, Relaxed);
        Ok(())
    }

    fn seed_one(
        &self,
        i: u64,
        start: Start,
        tally: &mut Tally,
        pend: &mut Vec<(u32, u32)>,
    ) -> Result<(), CompactError> {
        let code = match start {
            Start::Hole => HOLE,
            Start::Terminal(Outcome::Draw) => DRAW,
            Start::Terminal(o) => {
                self.frontier.insert(i);
                tally.next += 1;
                tally.decided += 1;
                if o == Outcome::Win {
                    WIN
                } else {
                    LOSE
                }
            }
            Start::Open { moves, exit } => {
                let code = self.seed_open(i, u64::from(moves), exit)?;
                if !is_open(code) && code != DRAW {
                    tally.decided += 1;
                    self.ahead.insert(i);
                    pend.push((u32::from(code & DEPTH), (i >> PIECE_BITS) as u32));
                }
                code
            }
        };
        self.cell(i).store(code, Relaxed);
        Ok(())
    }

    fn seed_open(&self, i: u64, moves: u64, exit: Option<Value>) -> Result<u16, CompactError> {
        let exit = match exit {
            None if moves == 0 => return Err(CompactError::NoMoves { index: i }),
            None => None,
            Some(v) => Some(checked_exit(i, v)?),
        };
        let open = |extra: u64, flags: u16| match self.mode {
            CounterMode::Counter => self.open_counter(i, moves + extra, flags),
            CounterMode::Recompute => OPEN | flags | if extra > 0 { DRAW_EXIT } else { 1 },
        };
        Ok(match exit {
            None => open(0, 0),
            Some((Outcome::Win, e)) => decided(WIN, e),
            Some((Outcome::Lose, e)) if moves == 0 => decided(LOSE, e),
            Some((Outcome::Lose, e))
                if self.mode == CounterMode::Counter
                    && moves <= PACKED_COUNT_MAX
                    && e <= u32::from(PACKED_DEPTH) =>
            {
                PACKED | (moves as u16) << PACKED_SHIFT | e as u16
            }
            Some((Outcome::Lose, _)) => open(0, LOSE_EXIT),
            Some((Outcome::Draw, _)) if moves == 0 => DRAW,
            // A drawing exit is a move that never counts down: the position is never lost.
            Some((Outcome::Draw, _)) => open(1, 0),
        })
    }

    fn open_counter(&self, i: u64, count: u64, flags: u16) -> u16 {
        if count < u64::from(SPILL) {
            return OPEN | flags | count as u16;
        }
        self.spill.lock().expect("no panics").insert(i, count);
        OPEN | flags | SPILL
    }

    /// Lists pieces holding values set ahead of their layer: `(depth, piece)` pairs.
    fn list_pending(&self, mut pend: Vec<(u32, u32)>) {
        if pend.is_empty() {
            return;
        }
        pend.sort_unstable();
        pend.dedup();
        let mut lists = self.pending.lock().expect("no panics");
        for (depth, piece) in pend {
            lists.entry(depth).or_default().push(piece);
        }
    }

    fn pending_is_empty(&self) -> bool {
        self.pending.lock().expect("no panics").is_empty()
    }

    /// Moves the pending values of depth `layer` into the frontier; returns how many joined.
    /// Only the marked indices ([`Engine::ahead`]) of the pieces listed at this depth are
    /// looked at; a mark is cleared once its value has joined or was overtaken by a faster
    /// decision.
    fn absorb_pending(&self, layer: u32) -> u64 {
        let Some(mut pieces) = self.pending.lock().expect("no panics").remove(&layer) else {
            return 0;
        };
        pieces.sort_unstable();
        pieces.dedup();
        const PIECE_WORDS: usize = 1 << (PIECE_BITS - 6);
        let words = self.ahead.words();
        pieces
            .par_iter()
            .map(|&piece| {
                let first = piece as usize * PIECE_WORDS;
                let mut joined = 0;
                for (k, w) in words[first..(first + PIECE_WORDS).min(words.len())]
                    .iter()
                    .enumerate()
                {
                    let marked = w.load(Relaxed);
                    // Out of core, each cell read here counts against the resident budget.
                    self.cells.touched(u64::from(marked.count_ones()));
                    let mut bits = marked;
                    let mut keep = marked;
                    while bits != 0 {
                        let bit = bits.trailing_zeros();
                        bits &= bits - 1;
                        let i = ((first + k) * 64) as u64 + u64::from(bit);
                        if i >= self.n {
                            keep &= !(1 << bit); // marked whole by a restore
                            continue;
                        }
                        let code = self.cell(i).load(Relaxed);
                        let decided = matches!(code & TAG, WIN | LOSE);
                        let depth = u32::from(code & DEPTH);
                        if decided && depth > layer {
                            continue; // pending at a later depth
                        }
                        keep &= !(1 << bit);
                        // Overtaken by a faster win, the value joined at its own depth already.
                        joined += u64::from(decided && depth == layer && self.frontier.insert(i));
                    }
                    if keep != marked {
                        w.fetch_and(keep | !marked, Relaxed);
                    }
                }
                joined
            })
            .sum()
    }

    /// Processes the frontier of depth `layer`: decides predecessors at `layer + 1` (they join
    /// the same bitmap; the bits of depth `layer` are cleared once processed).
    ///
    /// With `ahead`, the wins above this layer's lost positions were found by looking ahead
    /// ([`Engine::look_ahead`]): their bits are cleared without a push.
    fn process(&self, layer: u32, ahead: bool) {
        let next_depth = layer + 1;
        self.frontier
            .words()
            .par_chunks(CHUNK_WORDS)
            .enumerate()
            .for_each_init(
                || (Vec::new(), Vec::new()),
                |(preds, scratch), (chunk, words)| {
                    // Counted locally and added once per range: shared counters bumped for
                    // every decision would bounce their cache line between the cores.
                    let mut tally = Tally::default();
                    let mut reported = 0;
                    for (k, w) in words.iter().enumerate() {
                        let mut bits = w.load(Relaxed);
                        self.cells.touched(u64::from(bits.count_ones()));
                        let mut done = 0u64;
                        while bits != 0 {
                            let bit = bits.trailing_zeros();
                            bits &= bits - 1;
                            let v = ((chunk * CHUNK_WORDS + k) * 64) as u64 + u64::from(bit);
                            let code = self.cell(v).load(Relaxed);
                            if u32::from(code & DEPTH) != layer {
                                continue; // decided at the next depth during this pass
                            }
                            done |= 1 << bit;
                            let lost = code & TAG == LOSE;
                            if lost && ahead {
                                continue;
                            }
                            self.visit(v, lost, next_depth, preds, scratch, &mut tally);
                        }
                        if done != 0 {
                            w.fetch_and(!done, Relaxed);
                        }
                        // Out of core, the cells touched count against the resident budget.
                        self.cells.touched(tally.preds + tally.succs - reported);
                        reported = tally.preds + tally.succs;
                    }
                    self.add(&mut tally);
                },
            );
    }

    /// A work item's decisions and costs into the shared counters.
    fn add(&self, tally: &mut Tally) {
        self.decided.fetch_add(tally.decided, Relaxed);
        self.next_count.fetch_add(tally.next, Relaxed);
        if !tally.pending.is_empty() {
            self.list_pending(std::mem::take(&mut tally.pending));
        }
        let costs = &self.costs;
        for (sum, add) in [
            (&costs.pushed, tally.pushed),
            (&costs.preds, tally.preds),
            (&costs.looked, tally.looked),
            (&costs.succs, tally.succs),
        ] {
            if add > 0 {
                sum.fetch_add(add, Relaxed);
            }
        }
    }

    /// Counts the open cells and their moves (after seeding or a restore), for
    /// [`Lookahead::Auto`]'s estimates.
    fn census(&self) {
        let (open, moves) = self
            .cells
            .slice()
            .par_chunks(CHUNK_WORDS * 64)
            .enumerate()
            .map(|(k, part)| {
                let (mut open, mut moves) = (0u64, 0u64);
                for c in part {
                    let code = c.load(Relaxed);
                    if code & PACKED == PACKED {
                        open += 1;
                        moves += u64::from((code >> PACKED_SHIFT) & 0x3F);
                    } else if code & TAG == OPEN {
                        open += 1;
                        moves += match self.mode {
                            CounterMode::Counter => u64::from(code & COUNT),
                            CounterMode::Recompute => 8,
                        };
                    }
                }
                self.cells.release_range(k * CHUNK_WORDS * 64, part.len());
                (open, moves)
            })
            .reduce(|| (0, 0), |a, b| (a.0 + b.0, a.1 + b.1));
        self.costs.open.store(open, Relaxed);
        self.costs.base.store(self.decided.load(Relaxed), Relaxed);
        self.costs.moves_x16.store(
            (16 * moves).checked_div(open).unwrap_or(16).max(16),
            Relaxed,
        );
    }

    /// Decides how layer `layer` (a frontier of `frontier` cells) finds the wins above its
    /// lost positions and, when looking ahead is the cheaper way, finds them: every cell that
    /// is open or holds a win slower than `layer + 1` looks for a successor lost at `layer`.
    /// Returns whether it did (then [`process`](Self::process) pushes only from the wins).
    fn look_ahead(&self, layer: u32, frontier: u64) -> bool {
        let costs = &self.costs;
        if costs.unsupported.load(Relaxed) {
            return false;
        }
        let decided = self.decided.load(Relaxed) - costs.base.load(Relaxed);
        let open = costs.open.load(Relaxed).saturating_sub(decided);
        match self.lookahead {
            Lookahead::Never => return false,
            Lookahead::Always => {}
            Lookahead::Auto => {
                // Both costs in predecessors listed and updated (measured on chess tables: a
                // predecessor pushed ~14 ns, a position looking ahead ~60 ns and ~17 ns per
                // successor it looks at, a cell scanned ~1 ns, 2 threads, Zen 3). Until a
                // direction has been measured, its figure is a guess from the moves counted
                // at seeding (a position that finds a lost successor stops early).
                let guess = costs.moves_x16.load(Relaxed) as f64 / 16.0;
                let ratio = |n: &AtomicU64, d: &AtomicU64, guess: f64| {
                    let d = d.load(Relaxed);
                    if d < 1024 {
                        guess
                    } else {
                        n.load(Relaxed) as f64 / d as f64
                    }
                };
                let per_lost = ratio(&costs.preds, &costs.pushed, guess);
                let per_open = 4.0 + 1.2 * ratio(&costs.succs, &costs.looked, 0.6 * guess);
                let scan = if open == 0 { 512.0 } else { 14.0 };
                let pull = open as f64 * per_open + self.n as f64 / scan;
                // Only when clearly cheaper (the estimates are rough, and a wrong choice costs
                // more than a right one saves). The frontier bounds its lost positions, and
                // the ratio measured so far decides alone only far from the line: a layer's
                // lost positions may have several times the predecessors of the last ones'
                // (KQQQQvK: 4 in its first two layers, 12 in its third, where pushing took
                // 40 s and looking ahead 6). Near it, the frontier's lost positions are
                // counted and a sample of them lists its predecessors.
                let pull = 1.25 * pull;
                if frontier as f64 * per_lost * PER_LOST_DOUBT <= pull {
                    return false;
                }
                let sample = self.sample_frontier(layer);
                let per_lost = if sample.sampled >= MIN_SAMPLE {
                    sample.preds as f64 / sample.sampled as f64
                } else {
                    per_lost
                };
                if sample.lost as f64 * per_lost <= pull {
                    return false;
                }
            }
        }
        let next_depth = layer + 1;
        let look = |u: u64, tally: &mut Tally| -> bool {
            let mut looked = 0;
            let found = self.game.any_successor(u, &mut |v| {
                looked += 1;
                if v >= self.n {
                    self.fail(CompactError::OutOfRange {
                        index: v,
                        from: u,
                        count: self.n,
                    });
                    return true;
                }
                let child = self.cell(v).load(Relaxed);
                child & TAG == LOSE && u32::from(child & DEPTH) == layer
            });
            tally.looked += 1;
            tally.succs += looked;
            match found {
                Some(true) => self.win(u, next_depth, tally),
                Some(false) => {}
                None => {
                    costs.unsupported.store(true, Relaxed);
                    return false;
                }
            }
            true
        };
        // Open cells, and wins that may get faster (set ahead by an exit, so marked).
        let candidate = |code: u16| {
            is_open(code) || (code & TAG == WIN && u32::from(code & DEPTH) > next_depth)
        };
        if open == 0 {
            self.ahead
                .words()
                .par_chunks(CHUNK_WORDS)
                .enumerate()
                .for_each(|(chunk, words)| {
                    let mut tally = Tally::default();
                    'words: for (k, w) in words.iter().enumerate() {
                        let mut bits = w.load(Relaxed);
                        self.cells.touched(u64::from(bits.count_ones()));
                        while bits != 0 {
                            let bit = bits.trailing_zeros();
                            bits &= bits - 1;
                            let u = ((chunk * CHUNK_WORDS + k) * 64) as u64 + u64::from(bit);
                            if u < self.n
                                && candidate(self.cell(u).load(Relaxed))
                                && !look(u, &mut tally)
                            {
                                break 'words;
                            }
                        }
                    }
                    self.cells.touched(tally.succs);
                    self.add(&mut tally);
                });
        } else {
            let chunk = CHUNK_WORDS * 64;
            self.cells
                .slice()
                .par_chunks(chunk)
                .enumerate()
                .for_each(|(c, part)| {
                    if costs.unsupported.load(Relaxed) {
                        return;
                    }
                    let mut tally = Tally::default();
                    let mut reported = 0;
                    for (k, cell) in part.iter().enumerate() {
                        if candidate(cell.load(Relaxed))
                            && !look((c * chunk + k) as u64, &mut tally)
                        {
                            break;
                        }
                        if tally.succs - reported >= 64 {
                            self.cells.touched(tally.succs - reported);
                            reported = tally.succs;
                        }
                    }
                    self.cells.touched(tally.succs - reported);
                    self.cells.release_range(c * chunk, part.len());
                    self.add(&mut tally);
                });
        }
        // A game that cannot look ahead is pushed from as usual (a win found meanwhile is
        // found again, which changes nothing).
        !costs.unsupported.load(Relaxed)
    }

    /// The lost positions of depth `layer` in the frontier, and the predecessors of a sample
    /// of them (one in [`SAMPLE_ONE_IN`], chosen by a hash of the index so that no stride of
    /// the index's layout is favoured): what pushing from them costs, before it is chosen.
    fn sample_frontier(&self, layer: u32) -> FrontierSample {
        self.frontier
            .words()
            .par_chunks(CHUNK_WORDS)
            .enumerate()
            .map_init(Vec::new, |preds, (chunk, words)| {
                let mut sample = FrontierSample::default();
                for (k, w) in words.iter().enumerate() {
                    let mut bits = w.load(Relaxed);
                    self.cells.touched(u64::from(bits.count_ones()));
                    while bits != 0 {
                        let bit = bits.trailing_zeros();
                        bits &= bits - 1;
                        let v = ((chunk * CHUNK_WORDS + k) * 64) as u64 + u64::from(bit);
                        let code = self.cell(v).load(Relaxed);
                        if code & TAG != LOSE || u32::from(code & DEPTH) != layer {
                            continue;
                        }
                        sample.lost += 1;
                        if v.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32 < SAMPLE_THRESHOLD {
                            preds.clear();
                            self.game.predecessors(v, preds);
                            sample.sampled += 1;
                            sample.preds += preds.len() as u64;
                        }
                    }
                }
                sample
            })
            .reduce(FrontierSample::default, |a, b| FrontierSample {
                lost: a.lost + b.lost,
                sampled: a.sampled + b.sampled,
                preds: a.preds + b.preds,
            })
    }

    fn visit(
        &self,
        v: u64,
        lost: bool,
        next_depth: u32,
        preds: &mut Vec<u64>,
        scratch: &mut Vec<u64>,
        tally: &mut Tally,
    ) {
        preds.clear();
        self.game.predecessors(v, preds);
        if lost {
            tally.pushed += 1;
            tally.preds += preds.len() as u64;
        }
        for &u in preds.iter() {
            if u >= self.n {
                self.fail(CompactError::OutOfRange {
                    index: u,
                    from: v,
                    count: self.n,
                });
                return;
            }
            if lost {
                self.win(u, next_depth, tally);
            } else {
                match self.mode {
                    CounterMode::Counter => self.count_down(u, next_depth, tally),
                    CounterMode::Recompute => self.recompute(u, next_depth, scratch, tally),
                }
            }
        }
    }

    /// `u` has a LOSE child of depth `depth - 1`: an open `u`, or one whose exit wins later,
    /// becomes WIN at `depth`.
    fn win(&self, u: u64, depth: u32, tally: &mut Tally) {
        let cell = self.cell(u);
        let mut code = cell.load(Relaxed);
        loop {
            let improves = match code & TAG {
                _ if is_open(code) => true,
                WIN => u32::from(code & DEPTH) > depth,
                _ => false,
            };
            if !improves {
                return;
            }
            match cell.compare_exchange_weak(code, decided(WIN, depth), Relaxed, Relaxed) {
                Ok(_) => break,
                Err(now) => code = now,
            }
        }
        if is_open(code) {
            tally.decided += 1;
            if self.mode == CounterMode::Counter && code & TAG == OPEN && code & COUNT == SPILL {
                self.spill.lock().expect("no panics").remove(&u);
            }
        }
        if self.frontier.insert(u) {
            tally.next += 1;
        }
    }

    /// Counter mode: `u` has one more WIN child; when none is left, `u` is lost.
    fn count_down(&self, u: u64, depth: u32, tally: &mut Tally) {
        let cell = self.cell(u);
        let mut code = cell.load(Relaxed);
        loop {
            let new = if code & PACKED == PACKED {
                if (code >> PACKED_SHIFT) & 0x3F == 1 {
                    decided(LOSE, depth.max(u32::from(code & PACKED_DEPTH)))
                } else {
                    code - (1 << PACKED_SHIFT)
                }
            } else if code & TAG != OPEN {
                return;
            } else if code & COUNT == SPILL {
                let mut spill = self.spill.lock().expect("no panics");
                let Some(count) = spill.get_mut(&u) else {
                    return; // decided meanwhile
                };
                *count -= 1;
                if *count > 0 {
                    return;
                }
                spill.remove(&u);
                self.lost(u, code, depth)
            } else if code & COUNT == 1 {
                self.lost(u, code, depth)
            } else {
                code - 1
            };
            match cell.compare_exchange_weak(code, new, Relaxed, Relaxed) {
                Ok(_) if is_open(new) => return,
                Ok(_) => break self.after_lost(u, new, depth, tally),
                Err(now) => code = now,
            }
        }
    }

    /// Recompute mode: `u` has a WIN child; it is lost if every move leads to a WIN of depth
    /// below `depth` (decided by now) and it has no drawing exit.
    fn recompute(&self, u: u64, depth: u32, scratch: &mut Vec<u64>, tally: &mut Tally) {
        let cell = self.cell(u);
        let code = cell.load(Relaxed);
        if code & TAG != OPEN || code & DRAW_EXIT != 0 {
            return;
        }
        scratch.clear();
        self.game.successors(u, scratch);
        for &c in scratch.iter() {
            if c >= self.n {
                return self.fail(CompactError::OutOfRange {
                    index: c,
                    from: u,
                    count: self.n,
                });
            }
            let child = self.cell(c).load(Relaxed);
            if child & TAG != WIN || u32::from(child & DEPTH) >= depth {
                return;
            }
        }
        let new = self.lost(u, code, depth);
        if cell.compare_exchange(code, new, Relaxed, Relaxed).is_ok() {
            self.after_lost(u, new, depth, tally);
        }
    }

    /// The code of `u` (open as `code`) once every move is lost: LOSE at `depth`, or later if
    /// its losing exit lasts longer.
    fn lost(&self, u: u64, code: u16, depth: u32) -> u16 {
        if code & LOSE_EXIT == 0 {
            return decided(LOSE, depth);
        }
        let exit = match self.game.start(u) {
            Start::Open {
                exit: Some(exit), ..
            } => exit,
            _ => {
                self.fail(CompactError::Unstable { index: u });
                return decided(LOSE, depth);
            }
        };
        decided(LOSE, depth.max(exit.depth().map_or(0, |d| d.0)))
    }

    fn after_lost(&self, u: u64, code: u16, depth: u32, tally: &mut Tally) {
        tally.decided += 1;
        let d = u32::from(code & DEPTH);
        if d > depth {
            self.ahead.insert(u);
            tally.pending.push((d, (u >> PIECE_BITS) as u32));
        } else if self.frontier.insert(u) {
            tally.next += 1;
        }
    }

    /// Open cells left at the end are draws.
    fn finish(&self) {
        const PART: usize = CHUNK_WORDS * 64;
        self.cells
            .slice()
            .par_chunks(PART)
            .enumerate()
            .for_each(|(k, part)| {
                for c in part {
                    if is_open(c.load(Relaxed)) {
                        c.store(DRAW, Relaxed);
                    }
                }
                self.cells.release_range(k * PART, part.len());
            });
    }

    /// The state at a layer boundary, for a checkpoint.
    fn snapshot(&self, layer: u32) -> Snapshot<'_> {
        let mut pending: Vec<(u32, u32)> = self
            .pending
            .lock()
            .expect("no panics")
            .iter()
            .flat_map(|(&d, pieces)| pieces.iter().map(move |&p| (d, p)))
            .collect();
        pending.sort_unstable();
        pending.dedup();
        Snapshot {
            layer,
            decided: self.decided.load(Relaxed),
            cells: &self.cells,
            frontier: &self.frontier,
            pending,
            spill: self.spill.lock().expect("no panics").clone(),
        }
    }

    /// Takes back the counters of a checkpoint (its cells and bitmaps are loaded already);
    /// returns the layer to go on with.
    fn restore(&mut self, s: Restored) -> u32 {
        self.frontier.restore(&s.frontier);
        self.next_count.store(
            self.frontier
                .words()
                .par_iter()
                .map(|w| u64::from(w.load(Relaxed).count_ones()))
                .sum(),
            Relaxed,
        );
        // A checkpoint keeps the pending pieces, not the marks: every index of those
        // pieces is marked again (absorbing clears the marks that hold nothing).
        const PIECE_WORDS: usize = 1 << (PIECE_BITS - 6);
        let words = self.ahead.words();
        for &(_, piece) in &s.pending {
            let first = piece as usize * PIECE_WORDS;
            for w in &words[first.min(words.len())..(first + PIECE_WORDS).min(words.len())] {
                w.store(u64::MAX, Relaxed);
            }
        }
        self.list_pending(s.pending);
        self.decided.store(s.decided, Relaxed);
        *self.spill.get_mut().expect("no panics") = s.spill;
        s.layer
    }
}

/// Decisions counted by one work item of a layer.
#[derive(Default)]
struct Tally {
    decided: u64,
    next: u64,
    /// Costs for [`Lookahead::Auto`] (see [`Costs`]).
    pushed: u64,
    preds: u64,
    looked: u64,
    succs: u64,
    /// `(depth, piece)` of losses that an exit makes last longer than the layer.
    pending: Vec<(u32, u32)>,
}

/// An exit value as (outcome, depth), checked.
fn checked_exit(i: u64, v: Value) -> Result<(Outcome, u32), CompactError> {
    match (v.outcome(), v.depth()) {
        (Outcome::Draw, None) => Ok((Outcome::Draw, 0)),
        (Outcome::Win | Outcome::Lose, Some(d)) if (1..=MAX_DEPTH).contains(&d.0) => {
            Ok((v.outcome(), d.0))
        }
        _ => Err(CompactError::BadExit { index: i, value: v }),
    }
}

/// The values of a solved index space, two bytes per index (on the heap, or in the work
/// folder's memory-mapped state file).
pub struct CompactSolution {
    cells: Cells,
    len: u64,
    resumed_from: Option<u32>,
}

impl CompactSolution {
    /// Lets the pages of indices `first..first + count` of a mapped state with a resident
    /// budget leave this process's resident set, for a caller that reads the solution in
    /// index order (writing a table from it): what it is done with need not wait for the
    /// guard. Nothing for a state on the heap, or mapped without a budget.
    pub fn release_pages(&self, first: u64, count: u64) {
        self.cells.release_range(first as usize, count as usize);
    }

    /// How many times the pages of a mapped state were taken out of this process's resident
    /// set to keep it under [`CompactOptions::resident_budget`](super::CompactOptions) (so
    /// far: the budget holds while the solution lives).
    pub fn resident_releases(&self) -> u64 {
        self.cells.releases()
    }

    /// The layer this run resumed from, when it started from a checkpoint.
    pub fn resumed_from(&self) -> Option<u32> {
        self.resumed_from
    }

    /// The size of the index space.
    pub fn index_count(&self) -> u64 {
        self.len
    }

    /// The value of `index` (holes are draws).
    ///
    /// # Panics
    /// If `index` is not below [`index_count`](CompactSolution::index_count).
    #[inline]
    pub fn value(&self, index: u64) -> Value {
        decode(self.code(index))
    }

    /// The outcome of `index`.
    #[inline]
    pub fn outcome(&self, index: u64) -> Outcome {
        self.value(index).outcome()
    }

    /// The raw cell of `index`: the two top bits are the outcome (`01` win, `10` lose, `11`
    /// draw), the other 14 the depth in plies (0 for a draw). Table writers may repack it.
    #[inline]
    pub fn code(&self, index: u64) -> u16 {
        let code = self.cells.slice()[index as usize].load(Relaxed);
        if code == HOLE {
            DRAW
        } else {
            code
        }
    }

    /// Whether `index` is a hole ([`Start::Hole`]: not a position; its value is a draw).
    #[inline]
    pub fn is_hole(&self, index: u64) -> bool {
        self.cells.slice()[index as usize].load(Relaxed) == HOLE
    }

    /// How many indices have each outcome, and the largest depth.
    pub fn counts(&self) -> crate::solve::Counts {
        let cells = self.cells.slice();
        cells
            .par_chunks(1 << 16)
            .enumerate()
            .map(|(k, chunk)| {
                let mut c = crate::solve::Counts::default();
                for code in chunk {
                    let v = decode(code.load(Relaxed));
                    match v.outcome() {
                        Outcome::Win => c.win += 1,
                        Outcome::Lose => c.lose += 1,
                        Outcome::Draw => c.draw += 1,
                    }
                    c.max_depth = c.max_depth.max(v.depth());
                }
                self.cells.release_range(k << 16, chunk.len());
                c
            })
            .reduce(crate::solve::Counts::default, |a, b| crate::solve::Counts {
                win: a.win + b.win,
                lose: a.lose + b.lose,
                draw: a.draw + b.draw,
                max_depth: a.max_depth.max(b.max_depth),
            })
    }

    /// The same values as a [`Solution`] (node `i` = index `i`), for verification and CSV.
    ///
    /// # Errors
    /// [`CompactError::TooManyForSolution`] past [`MAX_NODES`] indices.
    pub fn to_solution(&self) -> Result<Solution, CompactError> {
        if self.len > MAX_NODES {
            return Err(CompactError::TooManyForSolution {
                count: self.len,
                limit: MAX_NODES,
            });
        }
        let (outcomes, depths) = (0..self.len)
            .map(|i| {
                let v = self.value(i);
                (v.outcome(), v.depth())
            })
            .unzip();
        Ok(Solution::from_parts(outcomes, depths))
    }
}

impl std::fmt::Debug for CompactSolution {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CompactSolution")
            .field("index_count", &self.len)
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The gap between layered checkpoints: twenty times the last one's cost, within a
    /// eighth of `every` and `every`; `every` of zero checkpoints every layer.
    #[test]
    fn layered_gaps_follow_the_cost_within_bounds() {
        let every = Duration::from_secs(60);
        let s = Duration::from_secs;
        let s_f = Duration::from_secs_f64;
        assert_eq!(layered_gap(every, Duration::from_millis(100)), s_f(7.5));
        assert_eq!(layered_gap(every, Duration::from_millis(500)), s(10));
        assert_eq!(layered_gap(every, s(1)), s(20));
        assert_eq!(layered_gap(every, s(6)), s(60));
        assert_eq!(layered_gap(Duration::ZERO, s(6)), Duration::ZERO);
        // A billion cells on two threads: 1 s estimated, so every 20 s at first.
        let cost = 2.0 * 1e9 / (SAVE_BYTES_PER_THREAD_SECOND * 2.0);
        assert_eq!(layered_gap(every, Duration::from_secs_f64(cost)), s(20));
    }
}
