//! The control protocol between the processes of a job: what each process knows of the others.
//!
//! Every pair of processes shares a control connection (opened by `net.rs` next to timely's
//! data connection). After the greeting, which carries each process's [`Card`] (the job's
//! fingerprint; a difference ends the job with a sentence naming it), a process sends frames of
//! 16 bytes (tag, kind, value):
//!
//! | frame | when | the receiver |
//! |---|---|---|
//! | `BEAT phase` | every second (or a quarter of the peer timeout) | resets its silence clock |
//! | `GATHERED` | this process's workers are done | process 0 exits only after every peer's |
//! | `DONE` | process 0 has written the solution | may exit (a loss no longer matters) |
//! | `BYE` | a process leaves after `DONE` | ignores the end of its stream |
//! | `FAIL kind, n` + `n` bytes | this process fails | fails with the same kind and message |
//!
//! A monitor thread per peer reads its frames: end of stream (the peer died: SIGKILL, SIGTERM,
//! SIGINT, a crash) or silence past the peer timeout (SIGSTOP, a network cut) becomes one
//! [`ClusterError::Peer`] naming the peer, its address and this process's [`Phase`]. The first
//! failure is kept in the [`Mesh`], which workers poll while they wait for an epoch.
//!
//! Cost: one thread per peer, 16 bytes per peer and second.

use std::io::{self, Read, Write};
use std::net::TcpStream;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::sleep;
use std::time::{Duration, Instant};

use crate::ClusterError;

/// The job as one process sees it: peers whose cards differ do not run together.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Card {
    pub processes: u64,
    pub workers: u64,
    pub input_len: u64,
    /// FNV-1a of the first and last 64 KiB of the input.
    pub input_hash: u64,
    pub nodes: u64,
    pub edges: u64,
    pub misere: bool,
    pub verdicts: u64,
    pub verdicts_hash: u64,
    pub hosts_hash: u64,
}

pub(crate) const CARD: usize = 10 * 8;

impl Card {
    pub(crate) fn to_bytes(self) -> [u8; CARD] {
        let words = [
            self.processes,
            self.workers,
            self.input_len,
            self.input_hash,
            self.nodes,
            self.edges,
            u64::from(self.misere),
            self.verdicts,
            self.verdicts_hash,
            self.hosts_hash,
        ];
        let mut bytes = [0u8; CARD];
        for (chunk, w) in bytes.chunks_exact_mut(8).zip(words) {
            chunk.copy_from_slice(&w.to_be_bytes());
        }
        bytes
    }

    pub(crate) fn from_bytes(bytes: &[u8; CARD]) -> Card {
        let w = |i: usize| u64::from_be_bytes(bytes[8 * i..8 * i + 8].try_into().expect("8"));
        Card {
            processes: w(0),
            workers: w(1),
            input_len: w(2),
            input_hash: w(3),
            nodes: w(4),
            edges: w(5),
            misere: w(6) != 0,
            verdicts: w(7),
            verdicts_hash: w(8),
            hosts_hash: w(9),
        }
    }

    /// The first difference between this process's card and process `j`'s, as a sentence.
    pub(crate) fn difference(&self, theirs: &Card, me: usize, j: usize) -> Option<String> {
        let (a, b) = (self, theirs);
        let them = format!("process {j} was started with");
        let us = format!("process {me} (this one)");
        let sentence = if a.processes != b.processes {
            format!(
                "{them} --processes {}, {us} with --processes {}",
                b.processes, a.processes
            )
        } else if a.workers != b.workers {
            format!(
                "{them} --workers {}, {us} with --workers {} (without the flag a process takes \
                 its machine's cores: give --workers on machines that differ)",
                b.workers, a.workers
            )
        } else if a.misere != b.misere {
            let (with, without) = if b.misere { (j, me) } else { (me, j) };
            format!("process {with} was started with --misere, process {without} without")
        } else if (a.verdicts, a.verdicts_hash) != (b.verdicts, b.verdicts_hash) {
            format!(
                "{them} other --verdicts ({} verdicts) than {us} ({} verdicts)",
                b.verdicts, a.verdicts
            )
        } else if a.input_len != b.input_len || (a.nodes, a.edges) != (b.nodes, b.edges) {
            format!(
                "process {j} reads an input of {} bytes ({} nodes, {} edges), {us} one of {} \
                 bytes ({} nodes, {} edges)",
                b.input_len, b.nodes, b.edges, a.input_len, a.nodes, a.edges
            )
        } else if a.input_hash != b.input_hash {
            format!("process {j} reads other input bytes than {us} (same size)")
        } else if a.hosts_hash != b.hosts_hash {
            format!("process {j} was given a hosts file with other addresses than {us}")
        } else {
            return None;
        };
        Some(format!(
            "the processes were started for different jobs: {sentence}; every process must run \
             the same command (but for --process and the output flags) on the same input"
        ))
    }
}

/// Where a process is in the job.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Phase {
    Connecting,
    Loading,
    Round(u64),
    Draws,
    Gathering,
    Writing,
    Waiting,
}

impl Phase {
    fn encode(self) -> u64 {
        match self {
            Phase::Connecting => 0,
            Phase::Loading => 1,
            Phase::Draws => 2,
            Phase::Gathering => 3,
            Phase::Writing => 4,
            Phase::Waiting => 5,
            Phase::Round(r) => 8 + r,
        }
    }

    fn decode(word: u64) -> Phase {
        match word {
            0 => Phase::Connecting,
            1 => Phase::Loading,
            2 => Phase::Draws,
            3 => Phase::Gathering,
            4 => Phase::Writing,
            5 => Phase::Waiting,
            r => Phase::Round(r - 8),
        }
    }

    /// The name the test hook `ZERMELO_CLUSTER_TEST_PAUSE` matches.
    pub(crate) fn hook_name(self) -> &'static str {
        match self {
            Phase::Connecting => "connecting",
            Phase::Loading => "loading",
            Phase::Round(_) => "round",
            Phase::Draws => "draws",
            Phase::Gathering => "gathering",
            Phase::Writing => "writing",
            Phase::Waiting => "waiting",
        }
    }
}

impl std::fmt::Display for Phase {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Phase::Connecting => f.write_str("connecting"),
            Phase::Loading => f.write_str("loading the graph"),
            Phase::Round(r) => write!(f, "round {r}"),
            Phase::Draws => f.write_str("the draws phase"),
            Phase::Gathering => f.write_str("gathering the solution"),
            Phase::Writing => f.write_str("writing the solution"),
            Phase::Waiting => f.write_str("waiting for process 0 to write the solution"),
        }
    }
}

/// Control frames: tag, kind, value (16 bytes), then for `FAIL` `value` bytes of message.
const BEAT: u32 = 1;
const DONE: u32 = 2;
const BYE: u32 = 3;
const FAIL: u32 = 4;
const GATHERED: u32 = 5;
const FRAME: usize = 16;
const MESSAGE_MAX: u64 = 4096;

#[derive(Default)]
struct State {
    failure: Option<ClusterError>,
    /// Process 0 has written the solution: losses do not matter any more.
    done: bool,
}

/// This process's view of the others: its phase, their health, the first failure.
pub(crate) struct Mesh {
    pub(crate) me: usize,
    pub(crate) hosts: Vec<String>,
    /// Silence after which a peer counts as lost.
    pub(crate) timeout: Duration,
    phase: AtomicU64,
    /// Set with the first failure (cheap to poll).
    failed: AtomicBool,
    state: Mutex<State>,
    changed: Condvar,
    /// Peers that said goodbye: their end of stream is no loss.
    gone: Vec<AtomicBool>,
    /// Peers whose workers are done (process 0 must not exit before: they may still need its
    /// last progress messages).
    gathered: Vec<AtomicBool>,
    /// Write halves of the control connections.
    pub(crate) controls: Mutex<Vec<Option<TcpStream>>>,
    pub(crate) stop: AtomicBool,
}

impl Mesh {
    pub(crate) fn new(hosts: &[String], me: usize, timeout: Duration) -> Arc<Mesh> {
        Arc::new(Mesh {
            me,
            hosts: hosts.to_vec(),
            timeout,
            phase: AtomicU64::new(0),
            failed: AtomicBool::new(false),
            state: Mutex::default(),
            changed: Condvar::new(),
            gone: hosts.iter().map(|_| AtomicBool::new(false)).collect(),
            gathered: hosts.iter().map(|_| AtomicBool::new(false)).collect(),
            controls: Mutex::new(hosts.iter().map(|_| None).collect()),
            stop: AtomicBool::new(false),
        })
    }

    pub(crate) fn me(&self) -> usize {
        self.me
    }

    pub(crate) fn phase(&self) -> Phase {
        Phase::decode(self.phase.load(Relaxed))
    }

    pub(crate) fn set_phase(&self, phase: Phase) {
        self.phase.store(phase.encode(), Relaxed);
    }

    /// Whether a failure has been recorded.
    #[inline]
    pub(crate) fn failed(&self) -> bool {
        self.failed.load(Relaxed)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The first failure, if any.
    pub(crate) fn failure(&self) -> Option<ClusterError> {
        self.lock().failure.clone()
    }

    /// Records a failure (the first one wins; none once the job is done).
    pub(crate) fn fail(&self, e: ClusterError) {
        let mut state = self.lock();
        if state.done || state.failure.is_some() {
            return;
        }
        state.failure = Some(e);
        self.failed.store(true, Relaxed);
        self.changed.notify_all();
    }

    /// "Process j (address)".
    pub(crate) fn peer(&self, j: usize) -> String {
        format!("process {j} ({})", self.hosts[j])
    }

    /// Records the loss of peer `j`, unless it said goodbye.
    pub(crate) fn lost(&self, j: usize, how: &str) {
        if self.gone[j].load(Relaxed) {
            return;
        }
        self.fail(ClusterError::Peer(format!(
            "process {}: lost {} while {}: {how}; rerun the job to resume from its last \
             checkpoint",
            self.me,
            self.peer(j),
            self.phase()
        )));
    }

    fn send(&self, tag: u32, kind: u32, value: u64, tail: &[u8]) {
        let mut frame = Vec::with_capacity(FRAME + tail.len());
        frame.extend_from_slice(&tag.to_be_bytes());
        frame.extend_from_slice(&kind.to_be_bytes());
        frame.extend_from_slice(&value.to_be_bytes());
        frame.extend_from_slice(tail);
        let mut controls = self.controls.lock().unwrap_or_else(|p| p.into_inner());
        for s in controls.iter_mut().flatten() {
            // A peer that cannot take it is noticed by its monitor.
            let _ = s.write_all(&frame);
        }
    }

    /// Tells every peer why this process stops (they fail with the same kind).
    pub(crate) fn announce(&self, e: &ClusterError) {
        let text = e.to_string();
        let text = &text.as_bytes()[..text.len().min(MESSAGE_MAX as usize)];
        self.send(FAIL, kind_of(e), text.len() as u64, text);
    }

    /// This process's workers are done.
    pub(crate) fn workers_done(&self) {
        self.send(GATHERED, 0, 0, &[]);
    }

    /// Process 0: waits until every peer's workers are done (or gone, or a failure): until
    /// then a peer may still need this process's last progress messages.
    fn wait_gathered(&self) {
        let mut state = self.lock();
        let all = || {
            (0..self.hosts.len())
                .filter(|&j| j != self.me)
                .all(|j| self.gathered[j].load(Relaxed) || self.gone[j].load(Relaxed))
        };
        while !all() && state.failure.is_none() {
            state = self
                .changed
                .wait_timeout(state, Duration::from_millis(100))
                .unwrap_or_else(|p| p.into_inner())
                .0;
        }
    }

    /// Process 0: the solution is written; the others may go (once their workers are done).
    pub(crate) fn done(&self) {
        self.wait_gathered();
        self.lock().done = true;
        self.send(DONE, 0, 0, &[]);
        self.stop.store(true, Relaxed);
    }

    /// Other processes: waits until process 0 has written the solution, or a failure.
    pub(crate) fn wait_done(&self) -> Result<(), ClusterError> {
        self.set_phase(Phase::Waiting);
        pause_hook(self, Phase::Waiting);
        let mut state = self.lock();
        loop {
            if let Some(e) = &state.failure {
                return Err(e.clone());
            }
            if state.done {
                break;
            }
            state = self.changed.wait(state).unwrap_or_else(|p| p.into_inner());
        }
        drop(state);
        self.send(BYE, 0, 0, &[]);
        self.stop.store(true, Relaxed);
        Ok(())
    }

    /// Waits up to `grace` for a failure to be recorded (a worker that failed because timely
    /// lost a connection: the monitors name the peer a moment later).
    pub(crate) fn failure_within(&self, grace: Duration) -> Option<ClusterError> {
        let deadline = Instant::now() + grace;
        let mut state = self.lock();
        while state.failure.is_none() {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                break;
            }
            state = self
                .changed
                .wait_timeout(state, left)
                .unwrap_or_else(|p| p.into_inner())
                .0;
        }
        state.failure.clone()
    }
}

fn kind_of(e: &ClusterError) -> u32 {
    match e {
        ClusterError::Input(_) => 0,
        ClusterError::TooBig(_) => 1,
        ClusterError::Peer(_) => 2,
        ClusterError::Checkpoint(_) => 3,
        ClusterError::Io(_) => 4,
        ClusterError::Unreadable(_) => 5,
    }
}

fn of_kind(kind: u32, m: String) -> ClusterError {
    match kind {
        0 => ClusterError::Input(m),
        1 => ClusterError::TooBig(m),
        3 => ClusterError::Checkpoint(m),
        4 => ClusterError::Io(m),
        5 => ClusterError::Unreadable(m),
        _ => ClusterError::Peer(m),
    }
}

/// `ZERMELO_CLUSTER_TEST_PAUSE=PHASE` (tests only): a process entering `PHASE` (connecting,
/// loading, round, draws, gathering, writing, waiting) says so on standard error and pauses
/// there for up to a minute, until a failure is recorded, so that a test can kill a peer in that
/// phase. A round pauses only in round 2.
pub(crate) fn pause_hook(mesh: &Mesh, phase: Phase) {
    let Ok(wanted) = std::env::var("ZERMELO_CLUSTER_TEST_PAUSE") else {
        return;
    };
    if wanted != phase.hook_name() || matches!(phase, Phase::Round(r) if r != 2) {
        return;
    }
    eprintln!("test hook: process {} pauses while {phase}", mesh.me);
    let until = Instant::now() + Duration::from_secs(60);
    while !mesh.failed() && Instant::now() < until {
        sleep(Duration::from_millis(20));
    }
}

/// Reads peer `j`'s control connection until it ends.
pub(crate) fn monitor(mesh: &Mesh, mut stream: TcpStream, j: usize) {
    let mut frame = [0u8; FRAME];
    loop {
        if let Err(e) = stream.read_exact(&mut frame) {
            if mesh.stop.load(Relaxed) {
                return;
            }
            let how = match e.kind() {
                io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut => format!(
                    "it sent nothing for {}s (--peer-timeout): stopped, overloaded or cut off",
                    mesh.timeout.as_secs()
                ),
                io::ErrorKind::UnexpectedEof => "its connection closed (the process ended)".into(),
                _ => format!("its connection failed ({e})"),
            };
            mesh.lost(j, &how);
            return;
        }
        let tag = u32::from_be_bytes(frame[..4].try_into().expect("4"));
        let kind = u32::from_be_bytes(frame[4..8].try_into().expect("4"));
        let value = u64::from_be_bytes(frame[8..].try_into().expect("8"));
        match tag {
            DONE if j == 0 => {
                mesh.lock().done = true;
                mesh.changed.notify_all();
            }
            BYE => mesh.gone[j].store(true, Relaxed),
            GATHERED => {
                mesh.gathered[j].store(true, Relaxed);
                let _state = mesh.lock();
                mesh.changed.notify_all();
            }
            FAIL => {
                let mut text = vec![0u8; value.min(MESSAGE_MAX) as usize];
                let _ = stream.read_exact(&mut text);
                mesh.gone[j].store(true, Relaxed);
                mesh.fail(of_kind(kind, String::from_utf8_lossy(&text).into_owned()));
            }
            _ => {} // BEAT
        }
    }
}

/// Sends every peer a heartbeat with this process's phase every second (or a quarter of the
/// peer timeout, if shorter), until the job ends.
pub(crate) fn start_heartbeat(mesh: &Arc<Mesh>) {
    let every = (mesh.timeout / 4).clamp(Duration::from_millis(50), Duration::from_secs(1));
    let mesh = Arc::clone(mesh);
    std::thread::spawn(move || {
        while !mesh.stop.load(Relaxed) {
            mesh.send(BEAT, 0, mesh.phase.load(Relaxed), &[]);
            sleep(every);
        }
    });
}

/// FNV-1a of `bytes`, continuing from `h`.
pub(crate) fn fnv(mut h: u64, bytes: &[u8]) -> u64 {
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// FNV-1a offset basis.
pub(crate) const FNV_START: u64 = 0xcbf2_9ce4_8422_2325;

#[cfg(test)]
mod tests {
    use super::*;

    fn card() -> Card {
        Card {
            processes: 2,
            workers: 2,
            input_len: 100,
            input_hash: 7,
            nodes: 10,
            edges: 20,
            misere: false,
            verdicts: 0,
            verdicts_hash: FNV_START,
            hosts_hash: 9,
        }
    }

    #[test]
    fn cards_round_trip_and_name_their_first_difference() {
        let a = card();
        assert_eq!(Card::from_bytes(&a.to_bytes()), a);
        assert_eq!(a.difference(&a, 0, 1), None);
        let cases: [(Card, &str); 6] = [
            (
                Card { misere: true, ..a },
                "process 1 was started with --misere, process 0 without",
            ),
            (
                Card { workers: 3, ..a },
                "process 1 was started with --workers 3, process 0 (this one) with --workers 2",
            ),
            (Card { processes: 3, ..a }, "--processes 3"),
            (Card { verdicts: 1, ..a }, "other --verdicts (1 verdicts)"),
            (
                Card {
                    input_len: 101,
                    ..a
                },
                "process 1 reads an input of 101 bytes",
            ),
            (
                Card { input_hash: 8, ..a },
                "other input bytes than process 0 (this one) (same size)",
            ),
        ];
        for (theirs, says) in cases {
            let m = a.difference(&theirs, 0, 1).expect("a difference");
            assert!(m.contains(says), "{m}");
            assert_eq!(Card::from_bytes(&theirs.to_bytes()), theirs);
        }
        // The other side names the same difference the other way round.
        let m = Card { misere: true, ..a }.difference(&a, 1, 0).unwrap();
        assert!(
            m.contains("process 1 was started with --misere, process 0 without"),
            "{m}"
        );
        let m = a.difference(&Card { hosts_hash: 1, ..a }, 0, 1).unwrap();
        assert!(m.contains("hosts file"), "{m}");
    }
}
