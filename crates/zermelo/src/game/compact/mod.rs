//! The compact retrograde engine: a dense index space solved at two bytes and a bit per index,
//! with no stored edges and no queue of ids.
//!
//! A game shows itself to the engine as an [`IndexedGame`]: how each index starts (a hole, a
//! finished position, or an open one with its number of in-space moves and the best value of
//! its *exits*, moves that leave the space into positions already solved), and the predecessors
//! of an index. Every `Ranked + Unmoves` game is one through [`RankedGame`]; chess implements
//! the trait directly, with exits into smaller tables.
//!
//! Semantics: those of [`solve::retrograde`](crate::solve::retrograde) on the explicit graph,
//! exits included: a position's value is the best, for the mover, of its in-space moves and its
//! exit (faster win > slower win > draw > longer loss > shorter loss); terminal = depth 0, a WIN
//! is 1 + the shallowest LOSE child, a LOSE is 1 + the deepest WIN child.
//!
//! Memory layout (see ARCHITECTURE.md): one `u16` cell per index that holds either the open
//! move counter (13 bits, a flag "has a losing exit", the rare count of 8191 moves or more in a
//! side map) or the decided value (2-bit tag + 14-bit depth); plus one frontier bitmap (one
//! bit per index) that holds layer `d` and the layer `d + 1` found while processing it (the
//! cell's depth tells them apart), and lists, by depth, of the 16 K-index pieces that hold
//! values set ahead of their layer (exits), with a second bitmap marking those values. Layer
//! `d` is processed in index order, in parallel over ranges of the bitmap, with
//! compare-and-swap on the cells; every update of a layer commutes with the others, so the
//! result is the same for every thread count. Cost: O(V + E) predecessor generations, one scan
//! of the frontier bitmap per layer, and per depth, a scan of the marks of the pieces holding
//! exits of that depth.

mod adapter;
mod checkpoint;
mod engine;
mod seeding;
mod store;

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

pub use adapter::RankedGame;
pub use engine::{solve, CompactSolution};

use crate::game::Value;
use crate::outcome::Outcome;

/// A game over a dense index space, as the compact engine sees it.
pub trait IndexedGame: Sync {
    /// The size of the index space (holes included).
    fn index_count(&self) -> u64;

    /// How `index` starts: a hole, a finished position with its verdict, or an open position
    /// with the number of its moves that stay inside the index space and the best value, for the
    /// player to move, among its moves that leave it ("exits": e.g. chess captures and
    /// promotions into tables already solved).
    fn start(&self, index: u64) -> Start;

    /// How each index of `first..first + out.len()` starts, into `out`: the engine seeds
    /// ranges of 16,384 consecutive indices (the last one shorter), one thread each. The
    /// default asks [`start`](Self::start) for each; a game overrides it to share work
    /// between neighbouring indices (chess: scratch space and the DTZ start log, per range).
    fn start_range(&self, first: u64, out: &mut [Start]) {
        for (k, s) in out.iter_mut().enumerate() {
            *s = self.start(first + k as u64);
        }
    }

    /// Appends every index with a move to `index` inside the space, once per such move (the
    /// caller passes an empty buffer). May list holes and finished positions.
    fn predecessors(&self, index: u64, out: &mut Vec<u64>);

    /// Appends the in-space successors of `index`, once per move (the caller passes an empty
    /// buffer), and returns `true`; or returns `false` when the game does not generate them
    /// (the default). Only [`CounterMode::Recompute`] needs them.
    fn successors(&self, _index: u64, _out: &mut Vec<u64>) -> bool {
        false
    }

    /// Calls `found` with the in-space successors of the open position `index`, once per
    /// move, until it returns `true`; returns `Some(true)` if it did, `Some(false)` if no
    /// successor did, and `None` when the game does not generate successors. The engine asks
    /// only about open positions (and positions whose win may still get faster), to find wins
    /// by looking forward when a layer has many more lost positions than open ones are left
    /// ([`Lookahead`]). The default returns `None`, and the engine pushes from the lost
    /// positions as always: a game opts in where looking ahead was measured to pay (chess
    /// does), since [`Lookahead::Auto`]'s estimates are calibrated on chess.
    fn any_successor(&self, _index: u64, _found: &mut dyn FnMut(u64) -> bool) -> Option<bool> {
        None
    }

    /// Whether the game has met an error that [`start`](Self::start) cannot return (chess: a
    /// smaller table unreadable, the disk full under its log of starts) and gave some other
    /// start in its place. The engine asks after every slice of its seeding and before every
    /// checkpoint, and stops with [`CompactError::GameFailed`] rather than go on or keep a
    /// checkpoint that holds those starts: the game reports its own error, and a run started
    /// again resumes from the checkpoints taken before the failure. The default: never.
    fn failed(&self) -> bool {
        false
    }
}

/// How a layer of lost positions finds the wins one ply above them.
///
/// Pushing ("un-moves"): every lost position lists its predecessors and each becomes a win,
/// which costs the predecessors of every lost position however few of them are still open.
/// Looking ahead: every position still open (or whose win may still get faster) looks for a
/// successor lost at this depth and stops at the first, which costs the moves of the open
/// positions left. Late in a solve, when most positions are decided and a layer has many
/// lost positions, looking ahead is much cheaper (the idea of direction-optimizing
/// breadth-first search, Beamer, Asanović and Patterson, SC 2012). Both give the same values.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Lookahead {
    /// Per layer, the cheaper direction by an estimate of both costs (the default): the lost
    /// positions of the layer times their average predecessors, against the open positions
    /// left times the average successors looked at (both measured as the solve goes).
    #[default]
    Auto,
    /// Always push from the lost positions.
    Never,
    /// Look ahead at every layer with a lost position (for tests and measurements).
    Always,
}

/// How an index starts (see [`IndexedGame::start`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Start {
    /// Not a position (illegal or unused index): a draw without depth that nothing reaches.
    Hole,
    /// A finished position: win / lose at depth 0, or draw (a tie that never propagates).
    Terminal(Outcome),
    /// `moves` moves inside the space; `exit` = the best value among the moves that leave it
    /// (`None` when there are none), as the value of the *mover* after taking the exit: an exit
    /// into a position the opponent loses in d plies is a win in d+1 for the mover. An open
    /// position needs at least one move or an exit.
    Open {
        /// Moves that stay inside the index space.
        moves: u32,
        /// The best exit for the mover, if any (a decided exit has a depth of at least 1).
        exit: Option<Value>,
    },
}

/// How the engine finds out that every move of a position leads to a WIN.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum CounterMode {
    /// A move counter packed into the cell, decremented by each WIN child (the default).
    #[default]
    Counter,
    /// No counter: when a child becomes WIN, the position's moves are generated again
    /// ([`IndexedGame::successors`]) to see whether all lead to a WIN decided by now.
    Recompute,
}

/// Progress at the end of a layer, for a progress bar.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LayerProgress {
    /// The layer (depth in plies) just processed.
    pub layer: u32,
    /// Indices decided (WIN or LOSE) so far, pending exits included.
    pub decided: u64,
    /// The size of the index space.
    pub index_count: u64,
}

/// A progress callback, called at the end of every layer.
pub type ProgressFn = Arc<dyn Fn(&LayerProgress) + Send + Sync>;

/// How to run [`solve`].
#[derive(Clone, Default)]
pub struct CompactOptions {
    /// Worker threads; `None` runs on the current rayon pool (all cores by default).
    pub threads: Option<usize>,
    /// A work folder for checkpoints (and the state file with `mapped`); a run started again
    /// with the same game and `fingerprint` resumes from the last checkpoint there.
    pub work_dir: Option<PathBuf>,
    /// Keep the state in a memory-mapped file in `work_dir` instead of on the heap, so that a
    /// state larger than the memory available still solves.
    pub mapped: bool,
    /// With `mapped`: keep the state's pages resident in this process under about this many
    /// bytes (all of the process's file-backed resident pages are counted), by letting the
    /// kernel take them out of the resident set whenever they exceed it (they stay in the page
    /// cache, or go back to the file, and fault back in when touched). `None`: the kernel
    /// decides alone, and a mapped state counts in full in the resident set once touched.
    pub resident_budget: Option<u64>,
    /// Longest time between two checkpoints: layered ones (at layer boundaries) come sooner
    /// with the cells on the heap, down to an eighth of it, where one costs less than a
    /// twentieth of the gap (a mapped state keeps this gap); seeding ones every quarter of it.
    /// `None` takes one at every layer. Only with `work_dir`.
    pub checkpoint_every: Option<Duration>,
    /// Leave the final state as a checkpoint when the run ends (if the run took a checkpoint's
    /// interval) instead of removing it, for a caller whose own work after the solve (writing
    /// a table) would otherwise start over from nothing after a kill; it removes the work
    /// folder once done. Resuming from it finishes at once.
    pub keep_checkpoint: bool,
    /// Identifies the game in checkpoints: a checkpoint with another fingerprint is refused.
    pub fingerprint: u64,
    /// Refuse up front when the estimate ([`estimate_memory`]) exceeds this many bytes.
    pub max_memory: Option<u64>,
    /// Counter or recompute.
    pub counters: CounterMode,
    /// How layers of lost positions find the wins above them (the same values either way).
    pub lookahead: Lookahead,
    /// Called at the end of every layer.
    pub progress: Option<ProgressFn>,
}

impl std::fmt::Debug for CompactOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CompactOptions")
            .field("threads", &self.threads)
            .field("work_dir", &self.work_dir)
            .field("mapped", &self.mapped)
            .field("resident_budget", &self.resident_budget)
            .field("checkpoint_every", &self.checkpoint_every)
            .field("keep_checkpoint", &self.keep_checkpoint)
            .field("fingerprint", &self.fingerprint)
            .field("max_memory", &self.max_memory)
            .field("counters", &self.counters)
            .field("lookahead", &self.lookahead)
            .field("progress", &self.progress.is_some())
            .finish()
    }
}

/// A fingerprint for [`CompactOptions::fingerprint`] from the parts that name a game (FNV-1a
/// over each part followed by a separator byte), so that a work folder is not resumed for
/// another game.
pub fn fingerprint(parts: &[&[u8]]) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    for part in parts {
        for &b in part.iter().chain(&[0xff]) {
            h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    }
    h
}

/// The deepest WIN or LOSE the engine stores (14 bits of the cell); a deeper game is refused
/// with [`CompactError::TooDeep`].
pub const MAX_DEPTH: u32 = (1 << 14) - 1;

/// Resident bytes a solve of `index_count` indices needs: the cells (unless mapped) and two
/// bitmaps (the frontier, the values set ahead of their layer), 2.25 bytes per index. The side
/// map of counters of 8191 moves or more and the pending lists (8 bytes per piece of 16 K
/// indices and depth of the exits in it) are not included.
pub fn estimate_memory(index_count: u64, options: &CompactOptions) -> u64 {
    let cells = if options.mapped { 0 } else { 2 * index_count };
    let bitmaps = 2 * index_count.div_ceil(64) * 8;
    cells + bitmaps
}

/// Why the compact engine could not solve a game.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum CompactError {
    /// An open position without moves and without an exit.
    #[error("index {index} is open but has no moves and no exit")]
    NoMoves {
        /// The index.
        index: u64,
    },
    /// An exit value that is not a draw, a win or a loss in 1 to `MAX_DEPTH` plies.
    #[error("index {index} has an exit value {value:?} (a win or loss needs 1 to {MAX_DEPTH} plies, a draw none)")]
    BadExit {
        /// The index.
        index: u64,
        /// The exit value given.
        value: Value,
    },
    /// A predecessor outside the index space.
    #[error("index {from} lists predecessor {index}, outside the index space of {count}")]
    OutOfRange {
        /// The predecessor given.
        index: u64,
        /// The index whose predecessors were asked for.
        from: u64,
        /// The index count.
        count: u64,
    },
    /// `start` gave a losing exit for an index once and not when asked again.
    #[error("start({index}) changed between two calls")]
    Unstable {
        /// The index.
        index: u64,
    },
    /// [`CounterMode::Recompute`] on a game that does not generate successors.
    #[error("the recompute mode needs a game that generates its successors")]
    NoSuccessors,
    /// A WIN or LOSE deeper than the cells hold.
    #[error(
        "the game has values deeper than {MAX_DEPTH} plies, more than the compact engine stores"
    )]
    TooDeep,
    /// The estimate exceeds the memory limit.
    #[error("this game needs about {needed} bytes of memory, more than the limit of {limit}")]
    TooBig {
        /// Estimated bytes.
        needed: u64,
        /// The limit.
        limit: u64,
    },
    /// More indices than a [`Solution`](crate::Solution) holds.
    #[error("{count} indices is more than a Solution holds ({limit})")]
    TooManyForSolution {
        /// The index count.
        count: u64,
        /// The limit.
        limit: u64,
    },
    /// `mapped` without a work folder.
    #[error("a memory-mapped state needs a work folder")]
    MappedNeedsWorkDir,
    /// The thread pool could not be built.
    #[error("cannot start {threads} threads: {reason}")]
    Threads {
        /// Threads asked for.
        threads: usize,
        /// Why.
        reason: String,
    },
    /// Reading or writing the work folder failed.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The error.
        source: std::io::Error,
    },
    /// The game said it failed ([`IndexedGame::failed`]); its own error says why.
    #[error("the game failed while it was seeded")]
    GameFailed,
    /// A checkpoint that does not belong to this game or is damaged.
    #[error("{path}: {reason}")]
    Checkpoint {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        reason: String,
    },
}
