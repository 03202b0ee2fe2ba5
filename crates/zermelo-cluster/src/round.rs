//! The workers: one timely dataflow that delivers messages to node owners, driven epoch by epoch.
//!
//! Every phase (load, each round, draws, gather) is one epoch of the same input: a worker sends
//! its messages, advances the input, and steps until the probe passes the epoch, which timely's
//! progress tracking guarantees only once every message of the epoch, from every worker, has
//! been delivered. Each epoch also carries one tally per worker to every worker, so all workers
//! take the same decisions (stop, checkpoint, fail) from the same numbers.
//!
//! Best moves, as `solve::best_move` defines them (ties to the lowest id):
//! * WIN at depth `d + 1`: its LOSE children of least depth are those at depth `d`, and they all
//!   report in round `d`, the round that decides it: the least sender of that round.
//! * LOSE at depth `d + 1`: every child is WIN and the deepest are at depth `d`, all reporting in
//!   round `d`, the round that empties its counter: the least WIN sender of that round.
//! * DRAW: the least DRAW child, reported in a last phase by every drawn node.

use std::any::Any;
use std::cell::RefCell;
use std::panic::AssertUnwindSafe;
use std::rc::Rc;
use std::sync::{mpsc, Arc, Mutex};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};
use timely::communication::allocator::zero_copy::initialize::initialize_networking_from_sockets;
use timely::communication::allocator::{AllocatorBuilder, ProcessBuilder};
use timely::communication::Hooks;
use timely::container::CapacityContainerBuilder;
use timely::dataflow::channels::pact::Exchange;
use timely::dataflow::operators::generic::operator::Operator;
use timely::dataflow::operators::{Input, Probe};
use timely::dataflow::{InputHandle, ProbeHandle};
use timely::worker::Worker;

use zermelo::{Depth, NodeId, Outcome, Solution};

use crate::checkpoint::{self, Place};
use crate::shard::{sequential_error, Input as SharedInput, Ownership, Shard, ShardBuilder};
use crate::{net, Cluster, ClusterError, Gathered, Job, Report, RoundStats, NO_MOVE};

/// What travels between workers.
#[derive(Clone, Debug, Serialize, Deserialize)]
enum Msg {
    /// Load: the move `u -> v`, to the owner of `v`.
    Pred { v: NodeId, u: NodeId },
    /// Load: one more move out of `u`, to its owner.
    Degree { u: NodeId },
    /// Round: child `from` is LOSE, so `to` wins.
    Lost { to: NodeId, from: NodeId },
    /// Round: child `from` is WIN.
    Won { to: NodeId, from: NodeId },
    /// Draws: child `from` is a draw.
    Drawn { to: NodeId, from: NodeId },
    /// Every phase: one worker's numbers, to worker `to` (boxed: keeps the common messages at
    /// 16 bytes in memory).
    Tally { to: u32, tally: Box<Tally> },
    /// Gather: a node's state word and best move, to worker 0.
    Row {
        node: NodeId,
        word: u32,
        best: NodeId,
    },
    /// Up to [`BATCH`] messages of one kind for worker `to`, as pairs (see [`Kind::message`]):
    /// timely's cost is per message, so edge messages travel in batches.
    Batch {
        to: u32,
        kind: Kind,
        pairs: Vec<(NodeId, NodeId)>,
    },
}

const _: () = assert!(std::mem::size_of::<Msg>() <= 32);

/// Edge messages per batch.
const BATCH: usize = 4096;

/// Encoded size of a batch (bincode: variant, `to`, kind, length) besides its 8-byte pairs.
const BATCH_HEADER_BYTES: u64 = 4 + 4 + 4 + 8;

/// The kinds of edge message, batched.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
enum Kind {
    Pred,
    Degree,
    Lost,
    Won,
    Drawn,
}

const KINDS: usize = 5;

impl Kind {
    /// The message a pair stands for.
    #[inline]
    fn message(self, (a, b): (NodeId, NodeId)) -> Msg {
        match self {
            Kind::Pred => Msg::Pred { v: a, u: b },
            Kind::Degree => Msg::Degree { u: a },
            Kind::Lost => Msg::Lost { to: a, from: b },
            Kind::Won => Msg::Won { to: a, from: b },
            Kind::Drawn => Msg::Drawn { to: a, from: b },
        }
    }

    /// A batchable message as its kind and pair.
    #[inline]
    fn of(m: &Msg) -> Option<(Kind, (NodeId, NodeId))> {
        Some(match *m {
            Msg::Pred { v, u } => (Kind::Pred, (v, u)),
            Msg::Degree { u } => (Kind::Degree, (u, 0)),
            Msg::Lost { to, from } => (Kind::Lost, (to, from)),
            Msg::Won { to, from } => (Kind::Won, (to, from)),
            Msg::Drawn { to, from } => (Kind::Drawn, (to, from)),
            _ => return None,
        })
    }
}

/// One worker's numbers for a phase.
#[derive(Clone, Copy, Debug, Default, Serialize, Deserialize)]
struct Tally {
    /// Load: edges parsed; round: frontier size.
    count: u64,
    /// Round: bytes sent to other processes.
    bytes: u64,
    /// Round: this worker's checkpoint interval has passed.
    due: bool,
    /// Load: a malformed line; resume: a counter too big.
    bad: bool,
    /// Resume: the rounds of this worker's checkpoints (`u64::MAX`: none).
    have: [u64; 2],
}

/// The worker that receives `m`.
#[inline]
fn route(own: &Ownership, m: &Msg) -> usize {
    match *m {
        Msg::Pred { v, .. } => own.owner(v),
        Msg::Degree { u } => own.owner(u),
        Msg::Lost { to, .. } | Msg::Won { to, .. } | Msg::Drawn { to, .. } => own.owner(to),
        Msg::Tally { to, .. } => to as usize,
        Msg::Row { .. } => 0,
        Msg::Batch { to, .. } => to as usize,
    }
}

/// Messages sent between two looks at the inbox (bounds what waits in memory).
const PUMP_EVERY: usize = 1 << 15;

/// Delivered batches with their epoch: a faster peer's messages of the next epoch may arrive
/// before this worker has closed the current one.
type Inbox = Vec<(u64, Vec<Msg>)>;

/// The worker's end of the dataflow.
struct Net<'w> {
    worker: &'w mut Worker,
    input: InputHandle<u64, CapacityContainerBuilder<Vec<Msg>>>,
    probe: ProbeHandle<u64>,
    inbox: Rc<RefCell<Inbox>>,
    own: Ownership,
    me: usize,
    workers: usize,
    process: usize,
    /// The epoch being sent (= the input's time).
    epoch: u64,
    remote_bytes: u64,
    unpumped: usize,
    /// Edge messages waiting to fill a batch, by destination and kind.
    outbox: Vec<Vec<(NodeId, NodeId)>>,
    timeout: Duration,
}

impl Net<'_> {
    /// Sends `m` to its owner; a message to this worker itself goes straight to `sink`.
    #[inline]
    fn send(&mut self, m: Msg, sink: &mut impl FnMut(Msg)) {
        let dest = route(&self.own, &m);
        if dest == self.me {
            sink(m);
            return;
        }
        if let Some((kind, pair)) = Kind::of(&m) {
            let slot = dest * KINDS + kind as usize;
            self.outbox[slot].push(pair);
            if self.outbox[slot].len() >= BATCH {
                self.flush(slot, sink);
            }
            return;
        }
        self.input.send(m);
        self.pump(1, sink);
    }

    /// Sends every waiting batch.
    fn flush_all(&mut self, sink: &mut impl FnMut(Msg)) {
        for slot in 0..self.outbox.len() {
            if !self.outbox[slot].is_empty() {
                self.flush(slot, sink);
            }
        }
    }

    /// Sends the batch waiting in `slot`.
    fn flush(&mut self, slot: usize, sink: &mut impl FnMut(Msg)) {
        let pairs = std::mem::take(&mut self.outbox[slot]);
        let (dest, kind) = (slot / KINDS, slot % KINDS);
        let kind = [Kind::Pred, Kind::Degree, Kind::Lost, Kind::Won, Kind::Drawn][kind];
        if dest / self.workers != self.process
            && matches!(kind, Kind::Lost | Kind::Won | Kind::Drawn)
        {
            self.remote_bytes += BATCH_HEADER_BYTES + 8 * pairs.len() as u64;
        }
        let n = pairs.len();
        self.input.send(Msg::Batch {
            to: dest as u32,
            kind,
            pairs,
        });
        self.pump(n, sink);
    }

    /// Lets the worker move data after every [`PUMP_EVERY`] messages sent.
    fn pump(&mut self, sent: usize, sink: &mut impl FnMut(Msg)) {
        self.unpumped += sent;
        if self.unpumped >= PUMP_EVERY {
            self.unpumped = 0;
            self.worker.step();
            self.drain(sink);
        }
    }

    fn tally(&mut self, tally: Tally, sink: &mut impl FnMut(Msg)) {
        for to in 0..self.worker.peers() {
            let tally = Box::new(tally);
            self.send(
                Msg::Tally {
                    to: to as u32,
                    tally,
                },
                sink,
            );
        }
    }

    /// Hands the delivered messages of the current epoch to `sink`.
    fn drain(&mut self, sink: &mut impl FnMut(Msg)) {
        let batches = std::mem::take(&mut *self.inbox.borrow_mut());
        let mut later = Vec::new();
        for (time, batch) in batches {
            if time == self.epoch {
                for m in batch {
                    match m {
                        Msg::Batch { kind, pairs, .. } => {
                            pairs.into_iter().for_each(|p| sink(kind.message(p)));
                        }
                        m => sink(m),
                    }
                }
            } else {
                later.push((time, batch));
            }
        }
        if !later.is_empty() {
            let mut inbox = self.inbox.borrow_mut();
            later.append(&mut inbox);
            *inbox = later;
        }
    }

    /// Ends the epoch and waits until every worker's messages of it are delivered.
    fn close(&mut self, sink: &mut impl FnMut(Msg)) -> Result<(), ClusterError> {
        self.flush_all(sink);
        let next = self.epoch + 1;
        self.input.advance_to(next);
        let start = Instant::now();
        while self.probe.less_than(&next) {
            if let Some(message) = net::lost_peer() {
                return Err(ClusterError::Peer(format!(
                    "process {}: lost the connection to a peer process ({message}); \
                     rerun the job to resume from its last checkpoint",
                    self.process
                )));
            }
            if start.elapsed() > self.timeout {
                return Err(ClusterError::Peer(format!(
                    "process {}: no progress for {}s: a peer process stopped or is unreachable",
                    self.process,
                    self.timeout.as_secs()
                )));
            }
            self.worker.step_or_park(Some(Duration::from_millis(10)));
            self.drain(sink);
        }
        self.drain(sink);
        self.epoch = next;
        Ok(())
    }
}

/// Connects, runs the workers of this process and waits for them.
pub(crate) fn run(
    cluster: &Cluster,
    job: &Job,
    input: SharedInput,
) -> Result<Option<Gathered>, ClusterError> {
    net::watch_for_lost_peers();
    let (builders, others): (Vec<AllocatorBuilder>, Box<dyn Any + Send>) = if cluster.processes()
        == 1
    {
        // Serialised batches between the workers of a process, as between processes (timely's
        // zero-copy allocator), the same path every cluster shape takes.
        timely::CommunicationConfig::ProcessBinary(cluster.workers)
            .try_build()
            .map_err(ClusterError::Peer)?
    } else {
        let sockets = net::connect(&cluster.hosts, cluster.process, cluster.timeout)?;
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
    let shared = Arc::new((cluster.clone(), job.clone(), input));
    let (tx, rx) = mpsc::channel();
    let tx = Mutex::new(tx);
    let guards = timely::execute::execute_from(
        builders,
        others,
        timely::WorkerConfig::default(),
        move |worker| {
            let (cluster, job, input) = &*shared;
            let result =
                std::panic::catch_unwind(AssertUnwindSafe(|| work(worker, cluster, job, input)))
                    .unwrap_or_else(|_| Err(ClusterError::Io("a worker thread panicked".into())));
            let failed = result.is_err();
            let local = worker.index() % cluster.workers;
            let _ = tx
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .send((local, result));
            if failed {
                // Leave without closing the dataflow: the process is about to exit.
                loop {
                    std::thread::park();
                }
            }
        },
    )
    .map_err(ClusterError::Peer)?;
    let mut gathered = None;
    let mut secondary = None;
    for _ in 0..cluster.workers {
        match rx.recv() {
            Ok((_, Ok(g))) => gathered = gathered.or(g),
            // Bad input fails every worker; the first worker of the process says where.
            Ok((local, Err(e @ ClusterError::Input(_)))) if local > 0 => secondary = Some(e),
            Ok((_, Err(e))) => {
                // Workers may be blocked on peers that are gone: do not join them.
                std::mem::forget(guards);
                return Err(e);
            }
            Err(_) => unreachable!("the sender lives as long as the workers"),
        }
    }
    if let Some(e) = secondary {
        std::mem::forget(guards);
        return Err(e);
    }
    drop(guards);
    Ok(gathered)
}

/// State word of an owned node: a 2-bit tag and a 30-bit payload (counter or depth).
const UNDECIDED: u32 = 0;
const WIN: u32 = 1;
const LOSE: u32 = 2;
const DRAW: u32 = 3;
const PAYLOAD_MAX: u32 = (1 << 30) - 1;

#[inline]
fn pack(tag: u32, payload: u32) -> u32 {
    tag << 30 | payload
}
#[inline]
fn tag(word: u32) -> u32 {
    word >> 30
}
#[inline]
fn payload(word: u32) -> u32 {
    word & PAYLOAD_MAX
}

/// The owned nodes' labels.
struct State {
    lo: NodeId,
    words: Vec<u32>,
    best: Vec<NodeId>,
}

impl State {
    /// Terminals decided at depth 0, the rest undecided with their out-degree; `None` if a
    /// counter does not fit the word.
    fn new(
        shard: &Shard,
        rules: &zermelo::graph::Rules,
        (lo, hi): (NodeId, NodeId),
    ) -> Option<State> {
        let stuck = rules.convention().stuck_outcome();
        let explicit = !rules.verdicts().is_empty();
        let mut words = Vec::with_capacity((hi - lo) as usize);
        for u in lo..hi {
            let degree = shard.out_degree(u);
            let verdict = explicit
                .then(|| rules.explicit_verdict(u))
                .flatten()
                .or((degree == 0).then_some(stuck));
            words.push(match verdict {
                Some(Outcome::Win) => pack(WIN, 0),
                Some(Outcome::Lose) => pack(LOSE, 0),
                Some(Outcome::Draw) => pack(DRAW, 0),
                None if degree > PAYLOAD_MAX => return None,
                None => pack(UNDECIDED, degree),
            });
        }
        Some(State {
            lo,
            best: vec![NO_MOVE; words.len()],
            words,
        })
    }

    /// The owned nodes decided at `depth`.
    fn frontier(&self, depth: u64) -> Vec<NodeId> {
        (self.lo..)
            .zip(&self.words)
            .filter(|&(_, &w)| matches!(tag(w), WIN | LOSE) && u64::from(payload(w)) == depth)
            .map(|(u, _)| u)
            .collect()
    }

    /// Applies one round's reports: nodes decided at `depth` go to `next`.
    fn apply(
        &mut self,
        depth: u32,
        lost: &mut Vec<(NodeId, NodeId)>,
        won: &mut Vec<(NodeId, NodeId)>,
        next: &mut Vec<NodeId>,
    ) {
        for (to, from) in lost.drain(..) {
            let i = (to - self.lo) as usize;
            let w = self.words[i];
            if tag(w) == UNDECIDED {
                self.words[i] = pack(WIN, depth);
                self.best[i] = from;
                next.push(to);
            } else if w == pack(WIN, depth) {
                self.best[i] = self.best[i].min(from);
            }
        }
        for &(to, _) in won.iter() {
            let i = (to - self.lo) as usize;
            let w = self.words[i];
            if tag(w) == UNDECIDED {
                if payload(w) == 1 {
                    self.words[i] = pack(LOSE, depth);
                    next.push(to);
                } else {
                    self.words[i] = w - 1;
                }
            }
        }
        for (to, from) in won.drain(..) {
            let i = (to - self.lo) as usize;
            if self.words[i] == pack(LOSE, depth) {
                self.best[i] = self.best[i].min(from);
            }
        }
    }
}

/// One worker's whole job.
fn work(
    worker: &mut Worker,
    cluster: &Cluster,
    job: &Job,
    input: &SharedInput,
) -> Result<Option<Gathered>, ClusterError> {
    let me = worker.index();
    let peers = worker.peers();
    let nodes = input.nodes();
    let own = Ownership::new(nodes, peers);
    let report = |r: Report| {
        if me % cluster.workers == 0 {
            if let Some(p) = &job.progress {
                p(r);
            }
        }
    };
    let mut handle = InputHandle::new();
    let inbox: Rc<RefCell<Inbox>> = Rc::default();
    let probe = worker.dataflow::<u64, _, _>(|scope| {
        let inbox = Rc::clone(&inbox);
        scope
            .input_from(&mut handle)
            .unary::<CapacityContainerBuilder<Vec<()>>, _, _, _>(
                Exchange::new(move |m: &Msg| route(&own, m) as u64),
                "Deliver",
                move |_, _| {
                    move |input, _output| {
                        input.for_each(|cap, data| {
                            let time = cap.least().copied().unwrap_or_default();
                            inbox.borrow_mut().push((time, std::mem::take(data)));
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
        inbox,
        own,
        me,
        workers: cluster.workers,
        process: cluster.process,
        epoch: 0,
        remote_bytes: 0,
        unpumped: 0,
        outbox: vec![Vec::new(); peers * KINDS],
        timeout: cluster.timeout,
    };
    let t0 = Instant::now();
    let (mut shard, parsed) = load(&mut net, job, input, me)?;
    report(Report::Loaded { edges: parsed });
    let range = own.range(me);
    let state = State::new(&shard, &job.rules, range);
    shard.drop_degrees();
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
        ]),
        worker: me as u32,
        workers: peers as u32,
        lo: range.0,
        len: range.1 - range.0,
    };
    let (mut state, start) = resume(&mut net, job, place, state)?;
    if start > 0 {
        report(Report::Resumed { round: start });
    }
    let t1 = Instant::now();
    let rounds = solve_rounds(&mut net, job, place, &shard, &mut state, start, &report)?;
    if job.best_moves {
        draws(&mut net, &shard, &mut state)?;
    }
    let t2 = Instant::now();
    let gathered = gather(&mut net, &state, nodes, job.best_moves)?;
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
            (t1 - t0).as_secs_f64(),
            (t2 - t1).as_secs_f64(),
            (t3 - t2).as_secs_f64(),
        ],
    }))
}

/// Load: this worker's share of the rows, and the edges it parsed.
fn load(
    net: &mut Net<'_>,
    job: &Job,
    input: &SharedInput,
    me: usize,
) -> Result<(Shard, u64), ClusterError> {
    let (file, ranges) = match input {
        SharedInput::Binary(g) => return Ok((Shard::Mapped(Arc::clone(g)), 0)),
        SharedInput::Edges { file, ranges } => (file, ranges),
    };
    let peers = net.worker.peers();
    let mut builder = ShardBuilder::new(net.own.range(me));
    let mut overflow = false;
    let mut tallies = Vec::new();
    let mut sink = |m: Msg| match m {
        Msg::Pred { v, u } => builder.predecessor(v, u),
        Msg::Degree { u } => overflow |= !builder.out_move(u),
        Msg::Tally { tally, .. } => tallies.push(*tally),
        _ => unreachable!("only load messages in the load epoch"),
    };
    let parsed = ranges.for_each_edge(file, ranges.range(me, peers), |batch| {
        for &(u, v) in batch {
            net.send(Msg::Pred { v, u }, &mut sink);
            net.send(Msg::Degree { u }, &mut sink);
        }
    });
    let tally = Tally {
        count: parsed.unwrap_or(0),
        bad: parsed.is_none(),
        ..Tally::default()
    };
    net.tally(tally, &mut sink);
    net.close(&mut sink)?;
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
    if overflow {
        return Err(ClusterError::TooBig(format!(
            "{}: a node has 2^32 moves or more",
            job.input.display()
        )));
    }
    Ok((builder.build(), parsed.unwrap_or(0)))
}

/// Agrees on the round to start from: the last one every worker has a checkpoint of (0 if
/// none), and fails everywhere if some worker's counters do not fit.
fn resume(
    net: &mut Net<'_>,
    job: &Job,
    place: Place,
    state: Option<State>,
) -> Result<(State, u64), ClusterError> {
    let mut have = match &job.work_dir {
        Some(dir) => checkpoint::rounds(dir, place)
            .map_err(|e| ClusterError::Io(format!("{}: {e}", dir.display())))?,
        None => Vec::new(),
    };
    have.sort_unstable_by(|a, b| b.cmp(a));
    have.resize(2, u64::MAX);
    let mut tallies = Vec::new();
    let mut sink = |m: Msg| {
        if let Msg::Tally { tally, .. } = m {
            tallies.push(*tally);
        }
    };
    let tally = Tally {
        bad: state.is_none(),
        have: [have[0], have[1]],
        ..Tally::default()
    };
    net.tally(tally, &mut sink);
    net.close(&mut sink)?;
    if tallies.iter().any(|t| t.bad) {
        return Err(ClusterError::TooBig(format!(
            "{}: a node has 2^30 moves or more, beyond the cluster solver's counters",
            job.input.display()
        )));
    }
    let mut state = state.expect("no worker is bad");
    let common = tally
        .have
        .into_iter()
        .filter(|&r| r != u64::MAX && tallies.iter().all(|t| t.have.contains(&r)))
        .max();
    let (Some(round), Some(dir)) = (common, &job.work_dir) else {
        return Ok((state, 0));
    };
    let (words, best) = checkpoint::read(dir, place, round).map_err(ClusterError::Checkpoint)?;
    state.words = words;
    state.best = best;
    Ok((state, round))
}

/// The rounds: one depth each, until a frontier is empty everywhere.
fn solve_rounds(
    net: &mut Net<'_>,
    job: &Job,
    place: Place,
    shard: &Shard,
    state: &mut State,
    start: u64,
    report: &impl Fn(Report),
) -> Result<Vec<RoundStats>, ClusterError> {
    let peers = net.worker.peers();
    let mut frontier = state.frontier(start);
    let (mut lost, mut won, mut tallies) = (Vec::new(), Vec::new(), Vec::new());
    let mut stats = Vec::new();
    let mut last_checkpoint = Instant::now();
    let mut round = start;
    loop {
        let began = Instant::now();
        net.remote_bytes = 0;
        {
            let mut sink = |m: Msg| match m {
                Msg::Lost { to, from } => lost.push((to, from)),
                Msg::Won { to, from } => won.push((to, from)),
                Msg::Tally { tally, .. } => tallies.push(*tally),
                _ => unreachable!("only round messages in a round epoch"),
            };
            for &v in &frontier {
                let child_lost = tag(state.words[(v - state.lo) as usize]) == LOSE;
                for &u in shard.predecessors(v) {
                    let m = if child_lost {
                        Msg::Lost { to: u, from: v }
                    } else {
                        Msg::Won { to: u, from: v }
                    };
                    net.send(m, &mut sink);
                }
            }
            net.flush_all(&mut sink); // counts the last batches' bytes
            let due = job.work_dir.is_some() && last_checkpoint.elapsed() >= job.checkpoint_every;
            let tally = Tally {
                count: frontier.len() as u64,
                bytes: net.remote_bytes,
                due,
                ..Tally::default()
            };
            net.tally(tally, &mut sink);
            net.close(&mut sink)?;
        }
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
        let depth = u32::try_from(round + 1)
            .ok()
            .filter(|&d| d <= PAYLOAD_MAX)
            .ok_or_else(|| {
                ClusterError::TooBig(
                    "depths beyond 2^30 - 1 plies do not fit the state word".into(),
                )
            })?;
        frontier.clear();
        state.apply(depth, &mut lost, &mut won, &mut frontier);
        round += 1;
        if let (true, Some(dir)) = (checkpoint_now, &job.work_dir) {
            std::fs::create_dir_all(dir)
                .and_then(|()| checkpoint::write(dir, place, round, &state.words, &state.best))
                .map_err(|e| ClusterError::Io(format!("{}: checkpoint: {e}", dir.display())))?;
            last_checkpoint = Instant::now();
        }
    }
}

/// The best move of each DRAW: its least DRAW child.
fn draws(net: &mut Net<'_>, shard: &Shard, state: &mut State) -> Result<(), ClusterError> {
    let State { lo, words, best } = state;
    let lo = *lo;
    let mut sink = |m: Msg| {
        if let Msg::Drawn { to, from } = m {
            let i = (to - lo) as usize;
            if tag(words[i]) == UNDECIDED {
                best[i] = best[i].min(from);
            }
        }
    };
    let drawn: Vec<NodeId> = (lo..)
        .zip(words.iter())
        .filter(|&(_, &w)| matches!(tag(w), UNDECIDED | DRAW))
        .map(|(u, _)| u)
        .collect();
    for v in drawn {
        for &u in shard.predecessors(v) {
            net.send(Msg::Drawn { to: u, from: v }, &mut sink);
        }
    }
    net.close(&mut sink)
}

/// Everything to worker 0, which returns the whole solution.
#[allow(clippy::type_complexity)]
fn gather(
    net: &mut Net<'_>,
    state: &State,
    nodes: u64,
    with_moves: bool,
) -> Result<Option<(Solution, Vec<NodeId>)>, ClusterError> {
    let n = if net.worker.index() == 0 {
        nodes as usize
    } else {
        0
    };
    let mut outcomes = vec![Outcome::Draw; n];
    let mut depths: Vec<Option<Depth>> = vec![None; n];
    let mut best_moves = vec![NO_MOVE; if with_moves { n } else { 0 }];
    let mut sink = |m: Msg| {
        if let Msg::Row { node, word, best } = m {
            let u = node as usize;
            (outcomes[u], depths[u]) = match tag(word) {
                WIN => (Outcome::Win, Some(Depth(payload(word)))),
                LOSE => (Outcome::Lose, Some(Depth(payload(word)))),
                _ => (Outcome::Draw, None),
            };
            if with_moves {
                best_moves[u] = best;
            }
        }
    };
    for ((node, &word), &best) in (state.lo..).zip(&state.words).zip(&state.best) {
        net.send(Msg::Row { node, word, best }, &mut sink);
    }
    net.close(&mut sink)?;
    Ok((net.worker.index() == 0).then(|| (Solution::from_parts(outcomes, depths), best_moves)))
}
