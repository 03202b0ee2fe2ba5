//! What a run is given (where this process stands, the job) and what it gives back (the
//! gathered solution, the rounds' figures).

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use zermelo::graph::Rules;
use zermelo::{NodeId, Solution};

/// Where this process stands in the cluster.
#[derive(Clone, Debug)]
pub struct Cluster {
    /// One `host:port` per process, in process order (timely's hosts file format).
    pub hosts: Vec<String>,
    /// This process's index into `hosts`.
    pub process: usize,
    /// Worker threads in every process.
    pub workers: usize,
    /// How long a peer may stay silent (no heartbeat) before it counts as lost.
    pub timeout: Duration,
    /// How long to wait for every peer to connect at start-up.
    pub connect_timeout: Duration,
}

impl Cluster {
    /// Number of processes.
    pub fn processes(&self) -> usize {
        self.hosts.len()
    }
}

/// What a process reports while it works (every process reports its own progress).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Report {
    /// The connections to every peer are up.
    Connected,
    /// This process's share is loaded: edges it read from its byte ranges.
    Loaded {
        /// Edges parsed by this process.
        edges: u64,
    },
    /// Restarting from the checkpoint taken after this many rounds.
    Resumed {
        /// The next round to run.
        round: u64,
    },
    /// A round ended.
    Round {
        /// The round (= depth of its frontier).
        round: u64,
        /// Nodes in its frontier, over the whole cluster.
        frontier: u64,
    },
}

/// A progress callback.
pub type Progress = Arc<dyn Fn(Report) + Send + Sync>;

/// The job: input, rules, and where checkpoints go.
#[derive(Clone)]
pub struct Job {
    /// The shared input: an edge list (read by byte ranges) or a `.zg` graph (memory-mapped).
    pub input: PathBuf,
    /// Terminal rules (convention and explicit verdicts), for the input's node count.
    pub rules: Rules,
    /// Work folder for checkpoints; `None` takes none.
    pub work_dir: Option<PathBuf>,
    /// Minimum time between two checkpoints (zero: after every round).
    pub checkpoint_every: Duration,
    /// Progress callback, called by the first worker of each process.
    pub progress: Option<Progress>,
    /// Derive best moves (the draws phase and the LOSE/WIN choices); without them
    /// [`Gathered::best_moves`] is empty. Counts and `.zs` output need none. If any process
    /// of the job asks for them, every process derives them (they all run the same phases).
    pub best_moves: bool,
}

impl Job {
    /// A job without checkpoints or progress reports.
    pub fn new(input: PathBuf, rules: Rules) -> Job {
        Job {
            input,
            rules,
            work_dir: None,
            checkpoint_every: Duration::ZERO,
            progress: None,
            best_moves: true,
        }
    }
}

/// One round of the solve, over the whole cluster.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RoundStats {
    /// Nodes in the round's frontier (decided at depth = round number).
    pub frontier: u64,
    /// Payload bytes sent between processes in the round (8 bytes per report plus
    /// 24 per batch).
    pub bytes: u64,
    /// Wall time of the round.
    pub seconds: f64,
}

/// The whole solution, gathered at process 0.
#[derive(Clone, Debug)]
pub struct Gathered {
    /// Outcome and depth of every node.
    pub solution: Solution,
    /// Best move of every node ([`NO_MOVE`] at terminals), as [`zermelo::solve::best_move`];
    /// empty unless the job derives them (see [`Job::best_moves`]).
    pub best_moves: Vec<NodeId>,
    /// Edges in the input.
    pub edges: u64,
    /// Rounds run by this job (not those restored from a checkpoint).
    pub rounds: Vec<RoundStats>,
    /// The round this job started from (0, or the checkpoint's).
    pub resumed_from: u64,
    /// Seconds spent loading, solving (rounds and draws) and gathering.
    pub seconds: [f64; 3],
}

/// Marks "no best move" in [`Gathered::best_moves`].
pub const NO_MOVE: NodeId = NodeId::MAX;

impl Gathered {
    /// The best move of `u`, `None` at a terminal.
    pub fn best_move(&self, u: NodeId) -> Option<NodeId> {
        let m = *self.best_moves.get(u as usize)?;
        (m != NO_MOVE).then_some(m)
    }
}
