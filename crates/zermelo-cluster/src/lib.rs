//! Retrograde analysis across several processes and hosts, on [timely dataflow].
//!
//! The same binary runs as `N` processes (one line of a hosts file each, `host:port`), each with
//! `W` workers. Nodes are owned by id range: worker `w` of the `N·W` owns
//! `[w·B, (w+1)·B)` with `B = ⌈nodes / (N·W)⌉`, so the workers of a process own one window of
//! consecutive ids. A process holds only its window's reverse rows and labels (state words and
//! best-move keys), once, shared by its workers: only what crosses processes goes through
//! timely, and with one process nothing does.
//!
//! | phase | what moves between processes | ends when |
//! |---|---|---|
//! | load | each worker parses its byte range of the shared edge list with the radix loader ([`zermelo::io::WindowPart`]); a move whose target another process owns goes there (8 bytes), and so does a source another process owns (4 bytes, for its out-degree) | timely's progress tracking closes the epoch; then each process builds its rows on all its cores |
//! | round `d` | "a child was LOSE / WIN" to predecessors owned by other processes (8 bytes each); predecessors in the same process are updated in place | the epoch closes; every worker has every worker's tally |
//! | draws | DRAW nodes tell their predecessors (the best move of a DRAW is its lowest DRAW child) | the epoch closes |
//! | gather | the workers of other processes send their nodes' state words and best moves to worker 0, which reads its own process's labels in place | the epoch closes |
//!
//! One round is one depth, exactly as [`zermelo::solve::retrograde_parallel`] layers its work
//! (and with the same compare-and-swap updates): a WIN is decided in the first round that
//! brings a LOSE child, a LOSE in the round that brings its last WIN child, so labels and depths
//! equal the single-process solver's; best moves are the lowest-id optimal children, as
//! [`zermelo::solve::best_move`] defines them (see `labels.rs`). Tests compare whole outputs
//! with the single-process solver's.
//!
//! Faults: timely has none, so workers write checkpoints at round boundaries into a work folder
//! (`checkpoint.rs`) and a restarted job resumes from the last round every worker completed; a
//! lost peer (its TCP connection closes) or a silent one (no round completes within the timeout)
//! ends every process with [`ClusterError::Peer`].
//!
//! [timely dataflow]: https://github.com/TimelyDataflow/timely-dataflow
//!
//! # Example
//!
//! ```no_run
//! use std::time::Duration;
//! use zermelo::graph::Rules;
//! use zermelo_cluster::{solve, Cluster, Job};
//!
//! let cluster = Cluster {
//!     hosts: vec!["127.0.0.1:7000".into()],
//!     process: 0,
//!     workers: 2,
//!     timeout: Duration::from_secs(60),
//! };
//! let job = Job::new("game.txt".into(), Rules::normal());
//! let gathered = solve(&cluster, &job)?.expect("process 0 gathers the solution");
//! println!("{:?}", gathered.solution.counts());
//! # Ok::<(), zermelo_cluster::ClusterError>(())
//! ```

#![deny(missing_docs)]

mod checkpoint;
mod exchange;
mod hosts;
mod labels;
mod net;
mod round;
mod shard;

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use zermelo::graph::Rules;
use zermelo::{NodeId, Solution};

pub use hosts::parse_hosts;
pub use shard::{input_size, InputKind};

/// Where this process stands in the cluster.
#[derive(Clone, Debug)]
pub struct Cluster {
    /// One `host:port` per process, in process order (timely's hosts file format).
    pub hosts: Vec<String>,
    /// This process's index into `hosts`.
    pub process: usize,
    /// Worker threads in every process.
    pub workers: usize,
    /// How long to wait for peers to connect, and for one round (or phase) to complete.
    pub timeout: Duration,
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

/// Why a cluster solve failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ClusterError {
    /// The input (graph, hosts file, flags) is wrong.
    #[error("{0}")]
    Input(String),
    /// The job is too big (ids, counters or memory).
    #[error("{0}")]
    TooBig(String),
    /// A peer could not be reached, disconnected or stopped answering.
    #[error("{0}")]
    Peer(String),
    /// The work folder holds unusable checkpoints.
    #[error("{0}")]
    Checkpoint(String),
    /// Reading the input or writing checkpoints failed.
    #[error("{0}")]
    Io(String),
}

/// Runs this process's part of the job; process 0 gets the whole solution, the others `None`.
///
/// # Errors
/// [`ClusterError`]: every process fails with the same kind of error where it can.
pub fn solve(cluster: &Cluster, job: &Job) -> Result<Option<Gathered>, ClusterError> {
    if cluster.workers == 0 || cluster.process >= cluster.processes() {
        return Err(ClusterError::Input(format!(
            "process {} of {} with {} workers: need process < processes and workers >= 1",
            cluster.process,
            cluster.processes(),
            cluster.workers
        )));
    }
    let input = shard::Input::open(&job.input)?;
    round::run(cluster, job, input)
}
