//! Connections between the processes: opened here with a deadline, greeted, and handed to timely
//! (data) or to the [`Mesh`] (control).
//!
//! Every pair of processes shares two TCP connections (timely's own connection code retries
//! forever and prints to standard output, where process 0 writes): process `i` dials the
//! processes before it and accepts the ones after it.
//!
//! - The **data** connection goes to timely, wrapped in [`Guarded`] so that a read or write
//!   error never reaches timely's network threads (they would panic, and the panic would cascade
//!   through its queues into the workers): the thread parks instead, and the loss is reported to
//!   the [`Mesh`] if the control connection has not said more within two seconds.
//! - The **control** connection carries the job's [`Card`] in its greeting, then the frames of
//!   `mesh.rs`.
//!
//! Connections that do not complete the greeting within a few seconds (a port scanner, a stray
//! `connect` + `close`) are dropped, each greeting read in its own thread, and the job goes on;
//! a peer that never comes is waited for until the connect timeout. Panics of timely's threads
//! and of the cluster's own are recorded by a panic hook instead of printed.

use std::io::{self, Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::sync::atomic::Ordering::Relaxed;
use std::sync::{mpsc, Arc, Mutex};
use std::thread::sleep;
use std::time::{Duration, Instant};

use crate::mesh::{monitor, start_heartbeat, Card, Mesh, CARD};
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
