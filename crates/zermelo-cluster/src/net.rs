//! Connections between the processes, and how a lost, stopped or mismatched peer is noticed.
//!
//! Every pair of processes shares two TCP connections, both opened here (timely's own
//! connection code retries forever and prints to standard output, where process 0 writes):
//!
//! - a **data** connection, handed to timely, wrapped in [`Guarded`] so that a read or write
//!   error never reaches timely's network threads (they would panic, and the panic would
//!   cascade through its queues into the workers): the thread parks instead, and the failure
//!   is reported to the [`Mesh`];
//! - a **control** connection of our own: after a greeting carrying each process's [`Card`]
//!   (the job's fingerprint; a difference ends the job with a sentence naming it), each
//!   process sends a heartbeat with its phase every second, and at the end process 0 sends
//!   `DONE` once it has written the solution. A monitor thread per peer reads it: end of
//!   stream (the peer died: SIGKILL, SIGTERM, SIGINT, a crash) or silence past the peer timeout
//!   (SIGSTOP, a network partition) becomes one [`ClusterError::Peer`] naming the peer, its
//!   address and this process's phase; a peer's own failure arrives as `FAIL` with its kind.
//!
//! Connections that do not complete the greeting within a few seconds (a port scanner, a stray
//! `connect` + `close`) are dropped and the job goes on; a peer that never comes is waited for
//! until the connect timeout.
//!
//! Cost: two sockets and two threads per peer, 16 bytes per peer and second.

use std::io::{self, Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::{mpsc, Arc, Condvar, Mutex};
use std::thread::sleep;
use std::time::{Duration, Instant};

use crate::ClusterError;

/// First bytes of every connection: "zermelo cluster".
const MAGIC: u64 = 0x7a65_726d_636c_7573;
/// The wire protocol; processes of other versions do not talk.
pub(crate) const PROTOCOL: u32 = 2;
const DATA: u32 = 0;
const CONTROL: u32 = 1;
/// Magic, protocol, kind, process.
const GREETING: usize = 8 + 4 + 4 + 8;
/// How long an accepted connection may take to greet.
const GREETING_TIME: Duration = Duration::from_secs(5);

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

const CARD: usize = 10 * 8;

impl Card {
    fn to_bytes(self) -> [u8; CARD] {
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

    fn from_bytes(bytes: &[u8; CARD]) -> Card {
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
                "{them} --workers {}, {us} with --workers {}",
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
    me: usize,
    hosts: Vec<String>,
    /// Silence after which a peer counts as lost.
    timeout: Duration,
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
    controls: Mutex<Vec<Option<TcpStream>>>,
    stop: AtomicBool,
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
    fn peer(&self, j: usize) -> String {
        format!("process {j} ({})", self.hosts[j])
    }

    /// Records the loss of peer `j`, unless it said goodbye.
    fn lost(&self, j: usize, how: &str) {
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

/// A data connection as timely sees it: errors and ends of stream park the network thread
/// (timely would panic) and are reported to the [`Mesh`].
pub(crate) struct Guarded {
    stream: TcpStream,
    mesh: Arc<Mesh>,
    peer: usize,
}

impl Guarded {
    fn broken(&self, how: String) -> ! {
        let mesh = Arc::clone(&self.mesh);
        let peer = self.peer;
        // The control connection closes at the same moment and says more (a goodbye, a
        // failure); this is the fallback if it does not.
        std::thread::spawn(move || {
            sleep(Duration::from_secs(2));
            if !mesh.stop.load(Relaxed) {
                mesh.lost(peer, &how);
            }
        });
        loop {
            std::thread::park();
        }
    }
}

impl Read for Guarded {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        loop {
            match self.stream.read(buf) {
                Ok(0) if !buf.is_empty() => self.broken("its data connection closed".into()),
                Ok(n) => return Ok(n),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => self.broken(format!("its data connection failed: {e}")),
            }
        }
    }
}

impl Write for Guarded {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        loop {
            match self.stream.write(buf) {
                Ok(n) => return Ok(n),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => self.broken(format!("writing to it failed: {e}")),
            }
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self.stream.flush() {
            Ok(()) => Ok(()),
            Err(e) => self.broken(format!("writing to it failed: {e}")),
        }
    }
}

impl timely::communication::allocator::zero_copy::stream::Stream for Guarded {
    fn try_clone(&self) -> io::Result<Self> {
        Ok(Guarded {
            stream: self.stream.try_clone()?,
            mesh: Arc::clone(&self.mesh),
            peer: self.peer,
        })
    }

    fn set_nonblocking(&self, nonblocking: bool) -> io::Result<()> {
        self.stream.set_nonblocking(nonblocking)
    }

    fn shutdown(&self, how: Shutdown) -> io::Result<()> {
        // Not reached (the job never shuts timely down cleanly); a failure is no error here.
        let _ = self.stream.shutdown(how);
        Ok(())
    }
}

/// A connection that completed its greeting.
struct Greeted {
    peer: usize,
    kind: u32,
    stream: TcpStream,
    card: Option<Card>,
}

fn greeting(me: usize, kind: u32) -> [u8; GREETING] {
    let mut g = [0u8; GREETING];
    g[..8].copy_from_slice(&MAGIC.to_be_bytes());
    g[8..12].copy_from_slice(&PROTOCOL.to_be_bytes());
    g[12..16].copy_from_slice(&kind.to_be_bytes());
    g[16..].copy_from_slice(&(me as u64).to_be_bytes());
    g
}

/// Reads an accepted connection's greeting (and card); `None` for anything else.
fn greet(mut stream: TcpStream, me: usize, processes: usize) -> Option<Greeted> {
    stream.set_nonblocking(false).ok()?;
    stream.set_read_timeout(Some(GREETING_TIME)).ok()?;
    let mut g = [0u8; GREETING];
    stream.read_exact(&mut g).ok()?;
    let magic = u64::from_be_bytes(g[..8].try_into().ok()?);
    let protocol = u32::from_be_bytes(g[8..12].try_into().ok()?);
    let kind = u32::from_be_bytes(g[12..16].try_into().ok()?);
    let peer = u64::from_be_bytes(g[16..].try_into().ok()?);
    if magic != MAGIC || protocol != PROTOCOL || kind > CONTROL {
        return None;
    }
    let peer = usize::try_from(peer)
        .ok()
        .filter(|&j| j > me && j < processes)?;
    let card = if kind == CONTROL {
        let mut c = [0u8; CARD];
        stream.read_exact(&mut c).ok()?;
        Some(Card::from_bytes(&c))
    } else {
        None
    };
    stream.set_read_timeout(None).ok()?;
    stream.set_nodelay(true).ok()?;
    Some(Greeted {
        peer,
        kind,
        stream,
        card,
    })
}

/// Opens the data and control connections to every other process (process `i` connects to the
/// processes before it and accepts the ones after it), checks the peers' cards against `card`,
/// and starts the heartbeat and the monitors. Entry `i` of the result is `None`.
pub(crate) fn connect(
    mesh: &Arc<Mesh>,
    card: Card,
    connect_timeout: Duration,
) -> Result<Vec<Option<Guarded>>, ClusterError> {
    let (hosts, me) = (&mesh.hosts, mesh.me);
    let deadline = Instant::now() + connect_timeout;
    let listener = TcpListener::bind(&hosts[me]).map_err(|e| {
        ClusterError::Peer(format!(
            "process {me}: cannot listen on {} (line {} of the hosts file): {e}",
            hosts[me],
            me + 1
        ))
    })?;
    start_heartbeat(mesh);
    let (tx, rx) = mpsc::channel();
    if me + 1 < hosts.len() {
        let processes = hosts.len();
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let tx = tx.clone();
                // Each greeting in its own thread: a silent stray connection blocks nothing.
                std::thread::spawn(move || {
                    if let Some(g) = greet(stream, me, processes) {
                        let _ = tx.send(g);
                    }
                });
            }
        });
    }
    let mut data: Vec<Option<Guarded>> = hosts.iter().map(|_| None).collect();
    let mut controls = 0;
    for (j, slot) in data.iter_mut().enumerate().take(me) {
        let stream = dial(mesh, j, (DATA, card), (deadline, connect_timeout))?;
        *slot = Some(guard(mesh, stream, j));
        let stream = dial(mesh, j, (CONTROL, card), (deadline, connect_timeout))?;
        control(mesh, stream, j, card)?;
    }
    let wanted = hosts.len() - 1 - me;
    let mut seen = vec![[false; 2]; hosts.len()];
    while data.iter().skip(me + 1).any(Option::is_none) || controls < wanted {
        if let Some(e) = mesh.failure() {
            return Err(e);
        }
        match rx.recv_timeout(Duration::from_millis(50)) {
            Ok(g) if !seen[g.peer][g.kind as usize] => {
                seen[g.peer][g.kind as usize] = true;
                if g.kind == DATA {
                    data[g.peer] = Some(guard(mesh, g.stream, g.peer));
                } else {
                    let mut stream = g.stream;
                    let theirs = g.card.expect("control greetings carry a card");
                    let _ = stream.write_all(&card.to_bytes());
                    check_card(mesh, card, theirs, g.peer)?;
                    control(mesh, stream, g.peer, card)?;
                    controls += 1;
                }
            }
            Ok(_) => {} // a second greeting as the same peer: ignored
            Err(_) if Instant::now() >= deadline => {
                let missing: Vec<String> = (me + 1..hosts.len())
                    .filter(|&j| !(seen[j][0] && seen[j][1]))
                    .map(|j| mesh.peer(j))
                    .collect();
                return Err(ClusterError::Peer(format!(
                    "process {me}: {} did not connect within {}s (--connect-timeout)",
                    missing.join(", "),
                    connect_timeout.as_secs()
                )));
            }
            Err(_) => {}
        }
    }
    Ok(data)
}

fn check_card(mesh: &Mesh, mine: Card, theirs: Card, j: usize) -> Result<(), ClusterError> {
    match mine.difference(&theirs, mesh.me, j) {
        Some(m) => Err(ClusterError::Input(format!("process {}: {m}", mesh.me))),
        None => Ok(()),
    }
}

fn guard(mesh: &Arc<Mesh>, stream: TcpStream, peer: usize) -> Guarded {
    Guarded {
        stream,
        mesh: Arc::clone(mesh),
        peer,
    }
}

/// Connects to earlier process `j` and greets it (with the card, on a control connection).
fn dial(
    mesh: &Mesh,
    j: usize,
    (kind, card): (u32, Card),
    (deadline, timeout): (Instant, Duration),
) -> Result<TcpStream, ClusterError> {
    let me = mesh.me;
    loop {
        if let Some(e) = mesh.failure() {
            return Err(e);
        }
        let attempt = TcpStream::connect(&mesh.hosts[j]).and_then(|mut s| {
            s.set_nodelay(true)?;
            s.write_all(&greeting(me, kind))?;
            if kind == CONTROL {
                s.write_all(&card.to_bytes())?;
            }
            Ok(s)
        });
        match attempt {
            Ok(s) => return Ok(s),
            Err(e) if Instant::now() >= deadline => {
                return Err(ClusterError::Peer(format!(
                    "process {me}: {} did not answer within {}s (--connect-timeout): {e}",
                    mesh.peer(j),
                    timeout.as_secs()
                )))
            }
            Err(_) => sleep(Duration::from_millis(50)),
        }
    }
}

/// Takes a greeted control connection: reads the peer's card (when this process dialled),
/// checks it, and starts its monitor.
fn control(
    mesh: &Arc<Mesh>,
    mut stream: TcpStream,
    j: usize,
    card: Card,
) -> Result<(), ClusterError> {
    let me = mesh.me;
    if j < me {
        stream
            .set_read_timeout(Some(mesh.timeout))
            .map_err(|e| ClusterError::Peer(format!("process {me}: {}: {e}", mesh.peer(j))))?;
        let mut c = [0u8; CARD];
        stream.read_exact(&mut c).map_err(|e| {
            ClusterError::Peer(format!(
                "process {me}: lost {} while connecting: {e}",
                mesh.peer(j)
            ))
        })?;
        check_card(mesh, card, Card::from_bytes(&c), j)?;
    }
    let _ = stream.set_write_timeout(Some(Duration::from_secs(1)));
    let _ = stream.set_read_timeout(Some(mesh.timeout));
    let reader = stream
        .try_clone()
        .map_err(|e| ClusterError::Peer(format!("process {me}: {e}")))?;
    mesh.controls.lock().unwrap_or_else(|p| p.into_inner())[j] = Some(stream);
    let mesh = Arc::clone(mesh);
    std::thread::spawn(move || monitor(&mesh, reader, j));
    Ok(())
}

/// Reads peer `j`'s control connection until it ends.
fn monitor(mesh: &Mesh, mut stream: TcpStream, j: usize) {
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
fn start_heartbeat(mesh: &Arc<Mesh>) {
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

/// Panics of timely's threads (and of the workers) are recorded here instead of printed: the
/// user sees one line, from the error they become.
static PANICS: Mutex<Vec<String>> = Mutex::new(Vec::new());
static HOOK: std::sync::Once = std::sync::Once::new();

/// Installs (once) the panic hook that records, instead of printing, the panics of timely's
/// threads (`timely:*`) and of the cluster's own threads (`zermelo-cluster*`); other panics go
/// to the previous hook.
pub(crate) fn contain_panics() {
    HOOK.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let name = std::thread::current().name().unwrap_or("").to_string();
            if !(name.starts_with("timely:") || name.starts_with("zermelo-cluster")) {
                return previous(info);
            }
            let message = info
                .payload()
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| info.payload().downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            let place = info
                .location()
                .map(|l| format!(" at {}:{}", l.file(), l.line()))
                .unwrap_or_default();
            let mut panics = PANICS.lock().unwrap_or_else(|p| p.into_inner());
            if panics.len() < 16 {
                panics.push(format!("{message}{place} (thread {name})"));
            }
        }));
    });
}

/// The first panic recorded, if any.
pub(crate) fn first_panic() -> Option<String> {
    PANICS
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .first()
        .cloned()
}
