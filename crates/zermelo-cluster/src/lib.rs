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
//! (`checkpoint.rs`) and a restarted job resumes from the last round every worker completed. A
//! control connection per pair of processes (`net.rs`) carries the job's fingerprint at start-up
//! (peers started for different jobs fail with [`ClusterError::Input`] naming the difference)
//! and a heartbeat: a lost peer (its connections close) or a silent one (no heartbeat within the
//! peer timeout) ends every other process with one [`ClusterError::Peer`] naming the peer, its
//! address and the phase, whatever the phase; timely's network threads never see a socket
//! error (they would panic), and panics of its threads are recorded, not printed.
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
//!     connect_timeout: Duration::from_secs(60),
//! };
//! let job = Job::new("game.txt".into(), Rules::normal());
//! let gathered = solve(&cluster, &job)?.expect("process 0 gathers the solution");
//! println!("{:?}", gathered.solution.counts());
//! # Ok::<(), zermelo_cluster::ClusterError>(())
//! ```

#![deny(missing_docs)]

mod checkpoint;
mod error;
mod exchange;
mod hosts;
mod job;
mod labels;
mod mesh;
mod net;
mod round;
mod shard;

use std::sync::Arc;

pub use error::ClusterError;
pub use hosts::{parse_hosts, read_hosts, workers};
pub use job::{Cluster, Gathered, Job, Report, RoundStats, NO_MOVE};
pub use shard::{input_size, InputKind};

/// Runs this process's part of the job, then tells the others it is done: process 0 gets the
/// whole solution, the others `None` (they return once process 0 has it). To write the solution
/// before the other processes end (so that a loss of process 0 while writing fails them), use
/// [`run`] and [`Solved::finish`].
///
/// # Errors
/// [`ClusterError`]: every process fails with the same kind of error where it can.
pub fn solve(cluster: &Cluster, job: &Job) -> Result<Option<Gathered>, ClusterError> {
    let mut solved = run(cluster, job)?;
    let gathered = solved.gathered.take();
    solved.finish(Ok(()))?;
    Ok(gathered)
}

/// A solved job, before the solution is written.
pub struct Solved {
    /// The whole solution at process 0, `None` elsewhere.
    pub gathered: Option<Gathered>,
    mesh: Arc<mesh::Mesh>,
}

impl Solved {
    /// Process 0: the solution is being written (a peer lost from now on does not matter).
    pub fn writing(&self) {
        self.mesh.set_phase(mesh::Phase::Writing);
        mesh::pause_hook(&self.mesh, mesh::Phase::Writing);
    }

    /// Process 0: tells the others that the solution is written (or that writing it failed:
    /// `written` is then the message they report). The others: wait for process 0's word.
    ///
    /// # Errors
    /// Elsewhere than at process 0, process 0's failure or its loss ([`ClusterError::Peer`]).
    pub fn finish(self, written: Result<(), String>) -> Result<(), ClusterError> {
        if self.mesh.me() == 0 {
            match written {
                Ok(()) => self.mesh.done(),
                Err(m) => self.mesh.announce(&ClusterError::Io(m)),
            }
            Ok(())
        } else {
            self.mesh.wait_done()
        }
    }
}

/// Runs this process's part of the job: checks the input and the flags, connects to the other
/// processes (and checks that they run the same job), loads, solves and gathers.
///
/// # Errors
/// [`ClusterError`]: every process fails with the same kind of error where it can.
pub fn run(cluster: &Cluster, job: &Job) -> Result<Solved, ClusterError> {
    if cluster.workers == 0 || cluster.process >= cluster.processes() {
        return Err(ClusterError::Input(format!(
            "process {} of {} with {} workers: need process < processes and workers >= 1",
            cluster.process,
            cluster.processes(),
            cluster.workers
        )));
    }
    let input = shard::Input::open(&job.input)?;
    let mesh = mesh::Mesh::new(&cluster.hosts, cluster.process, cluster.timeout);
    let card = card(cluster, job, &input)?;
    let result = round::run(cluster, job, input, &mesh, card);
    match &result {
        Ok(_) => mesh.workers_done(),
        Err(e) => mesh.announce(e),
    }
    Ok(Solved {
        gathered: result?,
        mesh,
    })
}

/// This process's view of the job, which every peer must share.
fn card(cluster: &Cluster, job: &Job, input: &shard::Input) -> Result<mesh::Card, ClusterError> {
    use zermelo::io::ReadAt;
    let name = job.input.display().to_string();
    let unreadable = |e: std::io::Error| ClusterError::Unreadable(format!("{name}: {e}"));
    let file = std::fs::File::open(&job.input).map_err(unreadable)?;
    let len = file.metadata().map_err(unreadable)?.len();
    // The first and the last 64 KiB: the header, and what a truncated or appended copy changes.
    let mut hash = mesh::FNV_START;
    let mut block = vec![0u8; 1 << 16];
    for at in [0, len.saturating_sub(1 << 16)] {
        let got = file.read_at(&mut block, at).map_err(unreadable)?;
        hash = mesh::fnv(hash, &block[..got]);
    }
    let verdicts = job.rules.verdicts();
    let verdicts_hash = verdicts.iter().fold(mesh::FNV_START, |h, &(u, o)| {
        mesh::fnv(h, &[&u.to_le_bytes()[..], &[o as u8]].concat())
    });
    let hosts_hash = cluster.hosts.iter().fold(mesh::FNV_START, |h, a| {
        mesh::fnv(h, format!("{a}\n").as_bytes())
    });
    Ok(mesh::Card {
        processes: cluster.processes() as u64,
        workers: cluster.workers as u64,
        input_len: len,
        input_hash: hash,
        nodes: input.nodes(),
        edges: input.edges(),
        misere: job.rules.convention() == zermelo::graph::Convention::Misere,
        verdicts: verdicts.len() as u64,
        verdicts_hash,
        hosts_hash,
    })
}

/// The memory one process of a job needs, by the rule `zermelo solve` applies
/// ([`zermelo::memory::Estimate`]): its window's rows and labels, the loading entries of its
/// share of the edges (edges are assumed spread evenly), the workers' send buffers, and at
/// process 0 the gathered solution.
pub fn estimate(
    nodes: u64,
    edges: u64,
    (processes, process, workers): (usize, usize, usize),
    best_moves: bool,
) -> zermelo::memory::Estimate {
    let p = processes.max(1) as u64;
    let (own_nodes, own_edges) = (nodes.div_ceil(p), edges.div_ceil(p));
    let per_node = 4 + 8 + if best_moves { 8 } else { 0 };
    let peers = (processes as u64).saturating_mul(workers as u64);
    // Per worker: one outbox of up to a batch per destination worker and kind.
    let buffers = (workers as u64)
        .saturating_mul(peers)
        .saturating_mul((exchange::SLOTS * exchange::BATCH * 8) as u64 / 4);
    let gathered = if process == 0 {
        nodes.saturating_mul(5 + if best_moves { 4 } else { 0 })
    } else {
        0
    };
    zermelo::memory::Estimate {
        graph: own_nodes
            .saturating_mul(per_node)
            .saturating_add(own_edges.saturating_mul(4)),
        loading: own_nodes
            .saturating_mul(4)
            .saturating_add(own_edges.saturating_mul(10))
            .saturating_add(buffers),
        solving: gathered.saturating_add(buffers),
    }
}
