//! What travels between workers, and a worker's end of the dataflow: batching by destination,
//! the operator that files or applies what arrives, and the epochs that end each phase.

use std::cell::{OnceCell, RefCell};
use std::rc::Rc;
use std::sync::Arc;
use std::time::Duration;

use serde::{Deserialize, Serialize};
use timely::container::CapacityContainerBuilder;
use timely::dataflow::{InputHandle, ProbeHandle};
use timely::worker::Worker;

use zermelo::io::WindowPart;
use zermelo::NodeId;

use crate::labels::{Kind, Labels};
use crate::mesh::{Mesh, Phase};
use crate::shard::Ownership;
use crate::ClusterError;

/// What travels between processes.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) enum Msg {
    /// Load: moves `u -> v` parsed by another process, to the owner of every `v`.
    Moves {
        to: u32,
        pairs: Vec<(NodeId, NodeId)>,
    },
    /// Load: the sources of moves parsed by another process (one per move), to the owner of
    /// every source.
    Sources { to: u32, ids: Vec<NodeId> },
    /// Rounds and draws: "child `from` is `kind`" for every `(to, from)`, in the round that
    /// decides `depth`, to the owner of every `to`.
    Reports {
        to: u32,
        kind: Kind,
        depth: u32,
        pairs: Vec<(NodeId, NodeId)>,
    },
    /// Every phase: one worker's numbers, to worker `to`.
    Tally { to: u32, tally: Tally },
    /// Gather: the state words and best moves of `[lo, lo + words.len())`, to worker 0.
    Rows {
        lo: NodeId,
        words: Vec<u32>,
        best: Vec<NodeId>,
    },
}

/// Pairs (or ids) per batch: timely's cost is per message.
pub(crate) const BATCH: usize = 4096;

/// Encoded size of a report batch (bincode: variant, `to`, kind, depth, length) besides its
/// 8-byte pairs.
pub(crate) const BATCH_HEADER_BYTES: u64 = 4 + 4 + 4 + 4 + 8;

/// Nodes per gathered batch of rows.
pub(crate) const ROWS: usize = 1 << 16;

/// The outboxes of a destination worker: moves, then one per kind of report.
pub(crate) const SLOTS: usize = 4;

pub(crate) fn slot(kind: Kind) -> usize {
    1 + kind as usize
}

/// One worker's numbers for a phase.
#[derive(Clone, Copy, Debug, Default, Serialize, Deserialize)]
pub(crate) struct Tally {
    /// Load: edges parsed; round: frontier size.
    pub(crate) count: u64,
    /// Round: bytes sent to other processes.
    pub(crate) bytes: u64,
    /// Round: this worker's checkpoint interval has passed; load: this process derives best
    /// moves.
    pub(crate) due: bool,
    /// Load: the sender's process.
    pub(crate) process: u32,
    /// Load: a malformed line; resume: a counter too big.
    pub(crate) bad: bool,
    /// Resume: the rounds of this worker's checkpoints (`u64::MAX`: none).
    pub(crate) have: [u64; 2],
}

/// The worker that receives `m`.
#[inline]
pub(crate) fn route(m: &Msg) -> usize {
    match *m {
        Msg::Moves { to, .. }
        | Msg::Sources { to, .. }
        | Msg::Reports { to, .. }
        | Msg::Tally { to, .. } => to as usize,
        Msg::Rows { .. } => 0,
    }
}

/// Pairs sent between two steps of the worker (bounds what waits in memory).
pub(crate) const PUMP_EVERY: usize = 1 << 15;

/// Delivered batches with their epoch: a faster peer's messages of the next epoch may arrive
/// before this worker has closed the current one.
pub(crate) type Inbox = Vec<(u64, Vec<Msg>)>;

/// What the dataflow's operator does with what arrives: moves and reports are filed or applied
/// at once (so that nothing waits in memory twice), the rest waits in the inbox.
pub(crate) struct Deliver {
    pub(crate) inbox: RefCell<Inbox>,
    /// While loading, the share of the process's rows that other processes send here.
    pub(crate) received: RefCell<WindowPart>,
    /// The process's labels, from the end of the load on.
    pub(crate) labels: OnceCell<Arc<Labels>>,
    /// Nodes decided by received reports, by the parity of their depth (a faster peer's
    /// reports of the next round may come before this worker has closed the current one).
    pub(crate) decided: RefCell<[Vec<NodeId>; 2]>,
}

impl Deliver {
    pub(crate) fn take(&self, time: u64, data: &mut Vec<Msg>) {
        let mut rest = Vec::new();
        for m in data.drain(..) {
            match m {
                Msg::Reports {
                    kind, depth, pairs, ..
                } => {
                    let labels = self.labels.get().expect("reports come after the load");
                    let mut decided = self.decided.borrow_mut();
                    let next = &mut decided[depth as usize & 1];
                    for (to, from) in pairs {
                        if labels.report(kind, depth, to, from) {
                            next.push(to);
                        }
                    }
                }
                Msg::Moves { pairs, .. } => self.received.borrow_mut().receive_moves(&pairs),
                Msg::Sources { ids, .. } => self.received.borrow_mut().receive_sources(&ids),
                m => rest.push(m),
            }
        }
        if !rest.is_empty() {
            self.inbox.borrow_mut().push((time, rest));
        }
    }
}

/// The worker's end of the dataflow.
pub(crate) struct Net<'w> {
    pub(crate) worker: &'w mut Worker,
    pub(crate) input: InputHandle<u64, CapacityContainerBuilder<Vec<Msg>>>,
    pub(crate) probe: ProbeHandle<u64>,
    pub(crate) deliver: Rc<Deliver>,
    pub(crate) own: Ownership,
    pub(crate) process: usize,
    pub(crate) workers: usize,
    /// The epoch being sent (= the input's time).
    pub(crate) epoch: u64,
    /// The depth the reports being sent decide.
    pub(crate) depth: u32,
    pub(crate) remote_bytes: u64,
    pub(crate) unpumped: usize,
    /// Pairs waiting to fill a batch, by destination worker and slot.
    pub(crate) outbox: Vec<Vec<(NodeId, NodeId)>>,
    /// Sources waiting to fill a batch, by destination worker.
    pub(crate) ids: Vec<Vec<NodeId>>,
    /// The process's view of its peers: failures, phase.
    pub(crate) mesh: Arc<Mesh>,
    /// The first worker of its process (it sets the phase).
    pub(crate) lead: bool,
}

/// What a worker unwinds with when a failure is recorded while it sends (the failure itself is
/// in the [`Mesh`]; `resume_unwind` runs no panic hook).
pub(crate) struct Stopped;

impl Net<'_> {
    /// Queues the pair for worker `dest` (of another process) in `slot`.
    #[inline]
    pub(crate) fn send_pair(&mut self, dest: usize, slot: usize, pair: (NodeId, NodeId)) {
        let i = dest * SLOTS + slot;
        self.outbox[i].push(pair);
        if self.outbox[i].len() >= BATCH {
            self.flush(i);
        }
    }

    /// Queues the source `u` for worker `dest` (of another process).
    #[inline]
    pub(crate) fn send_id(&mut self, dest: usize, u: NodeId) {
        self.ids[dest].push(u);
        if self.ids[dest].len() >= BATCH {
            let ids = std::mem::take(&mut self.ids[dest]);
            let n = ids.len();
            self.input.send(Msg::Sources {
                to: dest as u32,
                ids,
            });
            self.pump(n);
        }
    }

    /// Sends every waiting batch.
    pub(crate) fn flush_all(&mut self) {
        for i in 0..self.outbox.len() {
            if !self.outbox[i].is_empty() {
                self.flush(i);
            }
        }
        for dest in 0..self.ids.len() {
            if !self.ids[dest].is_empty() {
                let ids = std::mem::take(&mut self.ids[dest]);
                self.input.send(Msg::Sources {
                    to: dest as u32,
                    ids,
                });
            }
        }
    }

    /// Sends the batch waiting in outbox `i`.
    pub(crate) fn flush(&mut self, i: usize) {
        // Taken, not replaced by a full-size buffer: outboxes grow only where moves go.
        let pairs = std::mem::take(&mut self.outbox[i]);
        let (to, slot) = ((i / SLOTS) as u32, i % SLOTS);
        let n = pairs.len();
        let m = match slot {
            0 => Msg::Moves { to, pairs },
            s => {
                self.remote_bytes += BATCH_HEADER_BYTES + 8 * n as u64;
                let kind = [Kind::Lost, Kind::Won, Kind::Drawn][s - 1];
                Msg::Reports {
                    to,
                    kind,
                    depth: self.depth,
                    pairs,
                }
            }
        };
        self.input.send(m);
        self.pump(n);
    }

    /// Lets the worker move data after every [`PUMP_EVERY`] pairs sent.
    pub(crate) fn pump(&mut self, sent: usize) {
        self.unpumped += sent;
        if self.unpumped >= PUMP_EVERY {
            self.unpumped = 0;
            if self.mesh.failed() {
                std::panic::resume_unwind(Box::new(Stopped));
            }
            self.worker.step();
        }
    }

    /// Enters `phase` (the first worker of each process says so, and runs the test hook).
    pub(crate) fn enter(&mut self, phase: Phase) {
        if self.lead {
            self.mesh.set_phase(phase);
            crate::mesh::pause_hook(&self.mesh, phase);
        }
    }

    /// Sends one worker's numbers to every worker.
    pub(crate) fn tally(&mut self, tally: Tally) {
        for to in 0..self.worker.peers() {
            self.input.send(Msg::Tally {
                to: to as u32,
                tally,
            });
        }
    }

    /// Hands the delivered messages of the current epoch to `sink`.
    pub(crate) fn drain(&mut self, sink: &mut impl FnMut(Msg)) {
        let batches = std::mem::take(&mut *self.deliver.inbox.borrow_mut());
        let mut later = Vec::new();
        for (time, batch) in batches {
            if time == self.epoch {
                batch.into_iter().for_each(&mut *sink);
            } else {
                later.push((time, batch));
            }
        }
        if !later.is_empty() {
            let mut inbox = self.deliver.inbox.borrow_mut();
            later.append(&mut inbox);
            *inbox = later;
        }
    }

    /// Ends the epoch and waits until every worker's messages of it are delivered.
    pub(crate) fn close(&mut self, sink: &mut impl FnMut(Msg)) -> Result<(), ClusterError> {
        self.flush_all();
        let next = self.epoch + 1;
        self.input.advance_to(next);
        while self.probe.less_than(&next) {
            if let Some(e) = self.mesh.failed().then(|| self.mesh.failure()).flatten() {
                return Err(e);
            }
            self.worker.step_or_park(Some(Duration::from_millis(10)));
            self.drain(sink);
        }
        self.drain(sink);
        self.epoch = next;
        Ok(())
    }

    /// An epoch with nothing but its end: no worker passes it before every worker reached it.
    pub(crate) fn barrier(&mut self) -> Result<(), ClusterError> {
        self.close(&mut |_| {})
    }
}
