//! The workers: one timely dataflow that delivers messages to node owners, driven epoch by epoch.
//!
//! Every phase (load, each round, draws, gather) is one epoch of the same input: a worker sends
//! its messages, advances the input, and steps until the probe passes the epoch, which timely's
//! progress tracking guarantees only once every message of the epoch, from every worker, has
//! been consumed by the receiving operator. Each epoch also carries one tally per worker to
//! every worker, so all workers take the same decisions (stop, checkpoint, fail) from the same
//! numbers.
//!
//! Only what crosses processes goes through timely. The workers of a process share its rows
//! (`shard.rs`) and labels (`labels.rs`): a report to a node of the same process is applied in
//! place by the worker that makes it, and the operator applies a report from another process as
//! it receives it. So when a worker's probe passes a round, every report of that round, local or
//! not, has been applied, and no report of the next round has been made before that (its
//! senders waited for the same probe). Checkpoints are written between two such epochs and
//! followed by an empty one, so no worker changes a label while another saves it.
//!
//! Best moves, as `solve::best_move` defines them (ties to the lowest id), come from keys kept
//! with the labels (`labels.rs`): a WIN's least LOSE child of the round that decides it, a
//! LOSE's least WIN child of the round that empties its counter, and a DRAW's least DRAW child,
//! reported in a last phase by every drawn node.

use std::any::Any;
use std::cell::{OnceCell, RefCell};
use std::panic::AssertUnwindSafe;
use std::rc::Rc;
use std::sync::{mpsc, Arc, Barrier, Mutex, OnceLock};
use std::time::{Duration, Instant};

use timely::communication::allocator::zero_copy::initialize::initialize_networking_from_sockets;
use timely::communication::allocator::{AllocatorBuilder, ProcessBuilder};
use timely::communication::Hooks;
use timely::container::CapacityContainerBuilder;
use timely::dataflow::channels::pact::Exchange;
use timely::dataflow::operators::generic::operator::Operator;
use timely::dataflow::operators::{Input, Probe};
use timely::dataflow::InputHandle;
use timely::worker::Worker;

use zermelo::io::{Away, WindowPart, WindowRows};
use zermelo::{NodeId, Outcome, Solution};

use crate::checkpoint::{self, Place};
use crate::exchange::{route, slot, Deliver, Msg, Net, Tally, ROWS, SLOTS};
use crate::labels::{payload, tag, Kind, Labels, DRAW, LOSE, PAYLOAD_MAX, UNDECIDED, WIN};
use crate::mesh::{self, Card, Mesh, Phase};
use crate::net;
use crate::shard::{sequential_error, Input as SharedInput, Ownership, Shard};
use crate::{Cluster, ClusterError, Gathered, Job, Report, RoundStats, NO_MOVE};

/// What the workers of one process share.
struct Process {
    /// `workers` threads to build the rows (while the workers wait).
    pool: rayon::ThreadPool,
    /// The shares of the rows that the workers parsed and received.
    shares: Mutex<Vec<WindowPart>>,
    barrier: Barrier,
    /// The rows and labels (`None`: a counter does not fit).
    built: OnceLock<Option<(Arc<Shard>, Arc<Labels>)>>,
    /// When this process started.
    started: Instant,
}

/// Connects, runs the workers of this process and waits for them (or for the first failure:
/// workers blocked on a lost peer are not joined).
pub(crate) fn run(
    cluster: &Cluster,
    job: &Job,
    input: SharedInput,
    mesh: &Arc<Mesh>,
    card: Card,
) -> Result<Option<Gathered>, ClusterError> {
    let started = Instant::now();
    net::contain_panics();
    let alone = cluster.processes() == 1;
    let (builders, others): (Vec<AllocatorBuilder>, Box<dyn Any + Send>) = if alone {
        // Serialised batches between the workers of a process, as between processes (timely's
        // zero-copy allocator), the same path every cluster shape takes.
        timely::CommunicationConfig::ProcessBinary(cluster.workers)
            .try_build()
            .map_err(ClusterError::Peer)?
    } else {
        mesh.set_phase(Phase::Connecting);
        let sockets = net::connect(mesh, card, cluster.connect_timeout)?;
        // The test hook pauses once the connections are up (a peer lost before that is one
        // that never came: the connect timeout).
        mesh::pause_hook(mesh, Phase::Connecting);
        let hooks = Hooks::default();
        let local = ProcessBuilder::new_bytes_vector(cluster.workers, hooks.refill.clone(), None);
        let (tcp, guard) = initialize_networking_from_sockets(
            local,
            sockets,
            cluster.process,
            cluster.workers,
            hooks,
        )
        .map_err(|e| ClusterError::Peer(format!("process {}: {e}", cluster.process)))?;
        (
            tcp.into_iter().map(AllocatorBuilder::Tcp).collect(),
            Box::new(guard),
        )
    };
    if let Some(p) = &job.progress {
        p(Report::Connected);
    }
    let process = process(cluster, started)?;
    let shared = Arc::new((
        cluster.clone(),
        job.clone(),
        input,
        process,
        Arc::clone(mesh),
    ));
    let (tx, rx) = mpsc::channel();
    let tx = Mutex::new(tx);
    let guards = timely::execute::execute_from(
        builders,
        others,
        timely::WorkerConfig::default(),
        move |worker| {
            let (cluster, job, input, process, mesh) = &*shared;
            let result = std::panic::catch_unwind(AssertUnwindSafe(|| {
                work(worker, cluster, job, input, process, mesh)
            }))
            .unwrap_or_else(|_| Err(ClusterError::Io(String::new())));
            let failed = result.is_err();
            let local = worker.index() % cluster.workers;
            let _ = tx
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .send((local, result));
            if failed || cluster.processes() > 1 {
                // Leave without closing the dataflow: closing it would tell the peers this
                // process is gone while they may still be in the last phase, and the process
                // is about to exit.
                loop {
                    std::thread::park();
                }
            }
        },
    )
    .map_err(ClusterError::Peer)?;
    match collect(cluster, mesh, &rx) {
        Ok(gathered) => {
            if alone {
                drop(guards);
            } else {
                std::mem::forget(guards);
            }
            Ok(gathered)
        }
        Err(e) => {
            // Workers may be blocked on peers that are gone: do not join them.
            std::mem::forget(guards);
            Err(e)
        }
    }
}

/// What the workers of this process return: the gathered solution (worker 0), or the first
/// failure, the process's or a peer's, as soon as it is known.
fn collect(
    cluster: &Cluster,
    mesh: &Mesh,
    rx: &mpsc::Receiver<(usize, Result<Option<Gathered>, ClusterError>)>,
) -> Result<Option<Gathered>, ClusterError> {
    let mut gathered = None;
    let mut secondary = None;
    let mut left = cluster.workers;
    while left > 0 {
        match rx.recv_timeout(Duration::from_millis(50)) {
            Ok((_, Ok(g))) => {
                gathered = gathered.or(g);
                left -= 1;
            }
            // Bad input fails every worker; the first worker of the process says where.
            Ok((local, Err(e @ ClusterError::Input(_)))) if local > 0 => {
                secondary = Some(e);
                left -= 1;
            }
            // A worker that panicked (or stopped because of a failure): the failure, if one
            // comes within a moment, says why.
            Ok((_, Err(ClusterError::Io(m)))) if m.is_empty() => {
                return Err(mesh
                    .failure_within(Duration::from_secs(3))
                    .unwrap_or_else(internal));
            }
            Ok((_, Err(e))) => return Err(e),
            Err(mpsc::RecvTimeoutError::Timeout) => {
                if let Some(e) = mesh.failure() {
                    return Err(e);
                }
                if net::first_panic().is_some() {
                    return Err(mesh
                        .failure_within(Duration::from_secs(3))
                        .unwrap_or_else(internal));
                }
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => return Err(internal()),
        }
    }
    match secondary {
        Some(e) => Err(e),
        None => Ok(gathered),
    }
}

/// A panic in a thread of the cluster, as one line.
fn internal() -> ClusterError {
    ClusterError::Io(format!(
        "internal error in the cluster runtime: {}",
        net::first_panic().unwrap_or_else(|| "a worker thread stopped".into())
    ))
}

/// What the workers of this process will share.
fn process(cluster: &Cluster, started: Instant) -> Result<Process, ClusterError> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(cluster.workers)
        .thread_name(|i| format!("zermelo-cluster-build-{i}"))
        .build()
        .map_err(|e| ClusterError::Io(format!("process {}: {e}", cluster.process)))?;
    Ok(Process {
        pool,
        shares: Mutex::default(),
        barrier: Barrier::new(cluster.workers),
        built: OnceLock::new(),
        started,
    })
}

/// One worker's whole job.
fn work(
    worker: &mut Worker,
    cluster: &Cluster,
    job: &Job,
    input: &SharedInput,
    process: &Process,
    mesh: &Arc<Mesh>,
) -> Result<Option<Gathered>, ClusterError> {
    let me = worker.index();
    let peers = worker.peers();
    let nodes = input.nodes();
    let own = Ownership::new(nodes, peers);
    let local = me % cluster.workers;
    let report = |r: Report| {
        if local == 0 {
            if let Some(p) = &job.progress {
                p(r);
            }
        }
    };
    let window = own.window(cluster.process, cluster.workers);
    let mut handle = InputHandle::new();
    let deliver = Rc::new(Deliver {
        inbox: RefCell::default(),
        received: RefCell::new(WindowPart::new(window)),
        labels: OnceCell::new(),
        decided: RefCell::default(),
    });
    let probe = worker.dataflow::<u64, _, _>(|scope| {
        let deliver = Rc::clone(&deliver);
        scope
            .input_from(&mut handle)
            .unary::<CapacityContainerBuilder<Vec<()>>, _, _, _>(
                Exchange::new(|m: &Msg| route(m) as u64),
                "Deliver",
                move |_, _| {
                    move |input, _output| {
                        input.for_each(|cap, data| {
                            deliver.take(cap.least().copied().unwrap_or_default(), data);
                        });
                    }
                },
            )
            .probe()
            .0
    });
    let mut net = Net {
        worker,
        input: handle,
        probe,
        deliver,
        own,
        process: cluster.process,
        workers: cluster.workers,
        epoch: 0,
        depth: 0,
        remote_bytes: 0,
        unpumped: 0,
        outbox: vec![Vec::new(); peers * SLOTS],
        ids: vec![Vec::new(); peers],
        mesh: Arc::clone(mesh),
        lead: local == 0,
    };
    net.enter(Phase::Loading);
    let (parsed, best_moves) = load(&mut net, job, input, process, me)?;
    report(Report::Loaded { edges: parsed });
    let built = build(process, job, input, window, local, best_moves);
    if let Some((_, labels)) = &built {
        let _ = net.deliver.labels.set(Arc::clone(labels));
    }
    let range = own.range(me);
    let place = Place {
        fingerprint: checkpoint::fingerprint(&[
            nodes,
            input.edges(),
            std::fs::metadata(&job.input).map_or(0, |m| m.len()),
            job.rules.convention() as u64,
            job.rules.verdicts().len() as u64,
            job.rules.verdicts().iter().fold(0u64, |h, &(u, o)| {
                h.rotate_left(7) ^ (u64::from(u) << 2 | o as u64)
            }),
            u64::from(best_moves),
        ]),
        worker: me as u32,
        workers: peers as u32,
        lo: range.0,
        len: range.1 - range.0,
        keys: best_moves,
    };
    let (shard, labels, start) = resume(&mut net, job, place, built)?;
    if start > 0 {
        report(Report::Resumed { round: start });
    }
    let t1 = Instant::now();
    let rounds = solve_rounds(&mut net, job, place, &shard, &labels, start, &report)?;
    if best_moves {
        net.enter(Phase::Draws);
        draws(&mut net, &shard, &labels, range)?;
    }
    let t2 = Instant::now();
    net.enter(Phase::Gathering);
    let gathered = gather(&mut net, &labels, (range, window), nodes, best_moves)?;
    if let Some(dir) = &job.work_dir {
        // The job is done: this worker's checkpoints are not needed any more.
        checkpoint::remove_all(dir, place.worker);
    }
    let t3 = Instant::now();
    Ok(gathered.map(|(solution, best_moves)| Gathered {
        solution,
        best_moves,
        edges: input.edges(),
        rounds,
        resumed_from: start,
        seconds: [
            (t1 - process.started).as_secs_f64(),
            (t2 - t1).as_secs_f64(),
            (t3 - t2).as_secs_f64(),
        ],
    }))
}

/// Load: parses this worker's byte range of an edge list, keeping the moves of its process's
/// window and sending the others to their owners, while the operator files what other
/// processes send here; checks the edge count. Returns the edges this process parsed, and
/// whether any process derives best moves (then all do: every process takes the same phases).
fn load(
    net: &mut Net<'_>,
    job: &Job,
    input: &SharedInput,
    process: &Process,
    me: usize,
) -> Result<(u64, bool), ClusterError> {
    let peers = net.worker.peers();
    let parsed = match input {
        SharedInput::Edges { file, ranges } => {
            let own = net.own;
            let window = own.window(net.process, net.workers);
            let share =
                ranges.parse_window(file, ranges.range(me, peers), window, |away| match away {
                    Away::Move(u, v) => net.send_pair(own.owner(v), 0, (u, v)),
                    Away::Source(u) => net.send_id(own.owner(u), u),
                });
            Some(share)
        }
        SharedInput::Binary(_) => None,
    };
    let edges = parsed
        .as_ref()
        .map_or(0, |s| s.as_ref().map_or(0, WindowPart::edges));
    net.tally(Tally {
        count: edges,
        bad: matches!(parsed, Some(None)),
        due: job.best_moves,
        process: net.process as u32,
        ..Tally::default()
    });
    let mut tallies = Vec::new();
    net.close(&mut |m| {
        if let Msg::Tally { tally, .. } = m {
            tallies.push(tally);
        }
    })?;
    let best_moves = tallies.iter().any(|t| t.due);
    let mine: u64 = tallies
        .iter()
        .filter(|t| t.process as usize == net.process)
        .map(|t| t.count)
        .sum();
    let (Some(share), SharedInput::Edges { ranges, .. }) = (parsed, input) else {
        return Ok((0, best_moves));
    };
    let total: u64 = tallies.iter().map(|t| t.count).sum();
    if tallies.iter().any(|t| t.bad) || total != ranges.edges {
        return Err(if me % net.workers == 0 {
            sequential_error(&job.input)
        } else {
            ClusterError::Input(format!(
                "{}: malformed edge list (the first worker names the line)",
                job.input.display()
            ))
        });
    }
    let received = std::mem::replace(
        &mut *net.deliver.received.borrow_mut(),
        WindowPart::new((0, 0)),
    );
    let mut shares = process.shares.lock().expect("no panic");
    shares.extend(share);
    shares.push(received);
    Ok((mine, best_moves))
}

/// The process's rows and labels, built once (by its first worker, on every core of the
/// process) and shared; `None` when a counter does not fit.
fn build(
    process: &Process,
    job: &Job,
    input: &SharedInput,
    window: (NodeId, NodeId),
    local: usize,
    best_moves: bool,
) -> Option<(Arc<Shard>, Arc<Labels>)> {
    process.barrier.wait(); // every worker's shares are in
    if local == 0 {
        let built = process.pool.install(|| {
            let mut shard = match input {
                SharedInput::Binary(g) => Shard::Mapped(Arc::clone(g)),
                SharedInput::Edges { .. } => {
                    let shares = std::mem::take(&mut *process.shares.lock().ok()?);
                    Shard::Owned(WindowRows::build(window, shares).ok()?)
                }
            };
            let labels = Labels::new(&shard, &job.rules, window, best_moves)?;
            shard.drop_degrees();
            Some((Arc::new(shard), Arc::new(labels)))
        });
        let _ = process.built.set(built);
    }
    process.barrier.wait();
    process.built.get().cloned().flatten()
}

/// Agrees on the round to start from: the last one every worker has a checkpoint of (0 if
/// none), and fails everywhere if some process's counters do not fit.
fn resume(
    net: &mut Net<'_>,
    job: &Job,
    place: Place,
    built: Option<(Arc<Shard>, Arc<Labels>)>,
) -> Result<(Arc<Shard>, Arc<Labels>, u64), ClusterError> {
    let mut have = match &job.work_dir {
        Some(dir) => checkpoint::rounds(dir, place)
            .map_err(|e| ClusterError::Io(format!("{}: {e}", dir.display())))?,
        None => Vec::new(),
    };
    have.sort_unstable_by(|a, b| b.cmp(a));
    have.resize(2, u64::MAX);
    let mut tallies = Vec::new();
    let tally = Tally {
        bad: built.is_none(),
        have: [have[0], have[1]],
        ..Tally::default()
    };
    net.tally(tally);
    net.close(&mut |m| {
        if let Msg::Tally { tally, .. } = m {
            tallies.push(tally);
        }
    })?;
    if tallies.iter().any(|t| t.bad) {
        return Err(ClusterError::TooBig(format!(
            "{}: a node has 2^30 moves or more (or 65,536 consecutive nodes 2^32), beyond the \
             cluster solver's counters",
            job.input.display()
        )));
    }
    let (shard, labels) = built.expect("no process is bad");
    let common = tally
        .have
        .into_iter()
        .filter(|&r| r != u64::MAX && tallies.iter().all(|t| t.have.contains(&r)))
        .max();
    let (Some(round), Some(dir)) = (common, &job.work_dir) else {
        return Ok((shard, labels, 0));
    };
    let (words, keys) = checkpoint::read(dir, place, round).map_err(ClusterError::Checkpoint)?;
    labels.restore(place.lo, &words, &keys);
    // No worker reports before every worker has restored its nodes.
    net.barrier()?;
    Ok((shard, labels, round))
}

/// How many nodes ahead of the one being expanded each prefetch stage works (see [`expand`]).
const AHEAD: usize = 4;

/// Sends (or applies in place) the reports of one round's frontier; returns the nodes decided
/// in place. The accesses are random, so the cache misses are overlapped as in
/// `zermelo::solve::retrograde_parallel`: `3 * AHEAD` nodes ahead the row's offsets are
/// prefetched, `2 * AHEAD` ahead the row and the node's word, `AHEAD` ahead its predecessors'
/// words.
fn expand(net: &mut Net<'_>, shard: &Shard, labels: &Labels, frontier: &[NodeId]) -> Vec<NodeId> {
    use zermelo::prefetch::prefetch_start;
    let depth = net.depth;
    let mut next = Vec::new();
    for (i, &v) in frontier.iter().enumerate() {
        if let Some(&w) = frontier.get(i + 3 * AHEAD) {
            shard.prefetch_row(w);
        }
        if let Some(&w) = frontier.get(i + 2 * AHEAD) {
            prefetch_start(shard.predecessors(w));
            labels.prefetch(w);
        }
        if let Some(&w) = frontier.get(i + AHEAD) {
            shard
                .predecessors(w)
                .iter()
                .for_each(|&u| labels.prefetch(u));
        }
        let kind = if tag(labels.word(v)) == LOSE {
            Kind::Lost
        } else {
            Kind::Won
        };
        for &u in shard.predecessors(v) {
            if labels.owns(u) {
                if labels.report(kind, depth, u, v) {
                    next.push(u);
                }
            } else {
                net.send_pair(net.own.owner(u), slot(kind), (u, v));
            }
        }
    }
    next
}

/// The rounds: one depth each, until a frontier is empty everywhere.
fn solve_rounds(
    net: &mut Net<'_>,
    job: &Job,
    place: Place,
    shard: &Shard,
    labels: &Labels,
    start: u64,
    report: &impl Fn(Report),
) -> Result<Vec<RoundStats>, ClusterError> {
    let peers = net.worker.peers();
    let range = (place.lo, place.lo + place.len);
    let mut frontier = labels.frontier(range, start);
    let mut tallies = Vec::new();
    let mut stats = Vec::new();
    let mut last_checkpoint = Instant::now();
    let mut round = start;
    loop {
        let began = Instant::now();
        net.enter(Phase::Round(round));
        net.remote_bytes = 0;
        // Depths beyond the word's payload: nothing is sent, and every worker fails below.
        let fits = round < u64::from(PAYLOAD_MAX);
        net.depth = if fits { round as u32 + 1 } else { 0 };
        let mut next = if fits {
            expand(net, shard, labels, &frontier)
        } else {
            Vec::new()
        };
        net.flush_all(); // counts the last batches' bytes
        let due = job.work_dir.is_some() && last_checkpoint.elapsed() >= job.checkpoint_every;
        net.tally(Tally {
            count: frontier.len() as u64,
            bytes: net.remote_bytes,
            due,
            ..Tally::default()
        });
        net.close(&mut |m| {
            if let Msg::Tally { tally, .. } = m {
                tallies.push(tally);
            }
        })?;
        next.append(&mut net.deliver.decided.borrow_mut()[net.depth as usize & 1]);
        debug_assert_eq!(tallies.len(), peers);
        let total: u64 = tallies.iter().map(|t| t.count).sum();
        let checkpoint_now = tallies.iter().any(|t| t.due);
        stats.push(RoundStats {
            frontier: total,
            bytes: tallies.iter().map(|t| t.bytes).sum(),
            seconds: began.elapsed().as_secs_f64(),
        });
        tallies.clear();
        report(Report::Round {
            round,
            frontier: total,
        });
        if total == 0 {
            return Ok(stats);
        }
        if !fits {
            return Err(ClusterError::TooBig(
                "depths beyond 2^30 - 1 plies do not fit the state word".into(),
            ));
        }
        frontier = next;
        round += 1;
        if let (true, Some(dir)) = (checkpoint_now, &job.work_dir) {
            let (words, keys) = labels.save(range);
            std::fs::create_dir_all(dir)
                .and_then(|()| checkpoint::write(dir, place, round, &words, &keys))
                .map_err(|e| ClusterError::Io(format!("{}: checkpoint: {e}", dir.display())))?;
            // No worker reports again before every worker has saved its nodes.
            net.barrier()?;
            last_checkpoint = Instant::now();
        }
    }
}

/// The best move of each DRAW: its least DRAW child.
fn draws(
    net: &mut Net<'_>,
    shard: &Shard,
    labels: &Labels,
    (lo, hi): (NodeId, NodeId),
) -> Result<(), ClusterError> {
    net.depth = 0;
    for v in lo..hi {
        if !matches!(tag(labels.word(v)), UNDECIDED | DRAW) {
            continue;
        }
        for &u in shard.predecessors(v) {
            if labels.owns(u) {
                labels.report(Kind::Drawn, 0, u, v);
            } else {
                net.send_pair(net.own.owner(u), slot(Kind::Drawn), (u, v));
            }
        }
    }
    net.close(&mut |_| {})
}

/// Outcome and depth (`u32::MAX`: none) of a state word.
fn label(word: u32) -> (Outcome, u32) {
    match tag(word) {
        WIN => (Outcome::Win, payload(word)),
        LOSE => (Outcome::Lose, payload(word)),
        _ => (Outcome::Draw, u32::MAX),
    }
}

/// Everything to worker 0, which returns the whole solution: the workers of other processes
/// send their nodes' rows, and worker 0 reads its own process's labels in place.
#[allow(clippy::type_complexity)]
fn gather(
    net: &mut Net<'_>,
    labels: &Labels,
    (range, window): ((NodeId, NodeId), (NodeId, NodeId)),
    nodes: u64,
    with_moves: bool,
) -> Result<Option<(Solution, Vec<NodeId>)>, ClusterError> {
    let root = net.worker.index() == 0;
    let n = if root { nodes as usize } else { 0 };
    let mut outcomes = vec![Outcome::Draw; n];
    let mut depths = vec![u32::MAX; n];
    let mut best_moves = vec![NO_MOVE; if with_moves { n } else { 0 }];
    let mut put = |u: NodeId, word: u32, best: NodeId| {
        let i = u as usize;
        (outcomes[i], depths[i]) = label(word);
        if with_moves {
            best_moves[i] = best;
        }
    };
    if net.process != 0 {
        for lo in (range.0..range.1).step_by(ROWS) {
            let hi = range.1.min(lo.saturating_add(ROWS as NodeId));
            let words = (lo..hi).map(|u| labels.word(u)).collect();
            let best = if with_moves {
                (lo..hi).map(|u| labels.best(u)).collect()
            } else {
                Vec::new()
            };
            net.input.send(Msg::Rows { lo, words, best });
            net.pump(ROWS);
        }
    }
    net.close(&mut |m| {
        if let Msg::Rows { lo, words, best } = m {
            for (i, &word) in words.iter().enumerate() {
                put(
                    lo + i as NodeId,
                    word,
                    best.get(i).copied().unwrap_or(NO_MOVE),
                );
            }
        }
    })?;
    if !root {
        return Ok(None);
    }
    for u in window.0..window.1 {
        put(u, labels.word(u), labels.best(u));
    }
    Ok(Some((Solution::from_depths(outcomes, depths), best_moves)))
}
