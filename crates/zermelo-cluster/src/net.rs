//! Connections between the processes, and how a lost peer is noticed.
//!
//! timely's own connection code retries forever and prints to standard output (where process 0
//! writes the solution), so the sockets are opened here, with a deadline, and handed to
//! `initialize_networking_from_sockets`. timely reports a closed or failed connection by
//! panicking its network thread with "timely communication error"; a panic hook turns that into
//! a flag the workers poll while they wait for a round to close.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Mutex, Once};
use std::thread::sleep;
use std::time::{Duration, Instant};

use crate::ClusterError;

/// First bytes of every connection: "zermelo cluster, protocol 1".
const HELLO: u64 = 0x7a65_726d_636c_0001;

/// Opens one connection to every other process: process `i` connects to the processes before
/// it and accepts the ones after it. Entry `i` of the result is `None` (no socket to itself).
pub(crate) fn connect(
    hosts: &[String],
    me: usize,
    timeout: Duration,
) -> Result<Vec<Option<TcpStream>>, ClusterError> {
    let deadline = Instant::now() + timeout;
    let listener = TcpListener::bind(&hosts[me]).map_err(|e| {
        ClusterError::Peer(format!(
            "process {me}: cannot listen on {} (line {} of the hosts file): {e}",
            hosts[me],
            me + 1
        ))
    })?;
    let mut sockets: Vec<Option<TcpStream>> = (0..hosts.len()).map(|_| None).collect();
    for (j, address) in hosts.iter().enumerate().take(me) {
        let stream = loop {
            match TcpStream::connect(address) {
                Ok(s) => break s,
                Err(e) if Instant::now() >= deadline => {
                    return Err(ClusterError::Peer(format!(
                        "process {me}: process {j} at {address} did not answer within {}s: {e}",
                        timeout.as_secs()
                    )))
                }
                Err(_) => sleep(Duration::from_millis(50)),
            }
        };
        let mut stream = stream;
        let io = |e: std::io::Error| ClusterError::Peer(format!("process {me}: {address}: {e}"));
        stream.set_nodelay(true).map_err(io)?;
        let mut hello = [0u8; 16];
        hello[..8].copy_from_slice(&HELLO.to_be_bytes());
        hello[8..].copy_from_slice(&(me as u64).to_be_bytes());
        stream.write_all(&hello).map_err(io)?;
        sockets[j] = Some(stream);
    }
    listener
        .set_nonblocking(true)
        .map_err(|e| ClusterError::Peer(format!("process {me}: {e}")))?;
    while sockets.iter().skip(me + 1).any(Option::is_none) {
        match listener.accept() {
            Ok((stream, _)) => {
                let (j, stream) = greet(stream, me, hosts.len(), deadline)?;
                sockets[j] = Some(stream);
            }
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                if Instant::now() >= deadline {
                    let missing: Vec<String> = (me + 1..hosts.len())
                        .filter(|&j| sockets[j].is_none())
                        .map(|j| format!("{j} ({})", hosts[j]))
                        .collect();
                    return Err(ClusterError::Peer(format!(
                        "process {me}: processes {} did not connect within {}s",
                        missing.join(", "),
                        timeout.as_secs()
                    )));
                }
                sleep(Duration::from_millis(20));
            }
            Err(e) => return Err(ClusterError::Peer(format!("process {me}: accept: {e}"))),
        }
    }
    Ok(sockets)
}

/// Reads the greeting of an accepted connection: which later process it is.
fn greet(
    mut stream: TcpStream,
    me: usize,
    processes: usize,
    deadline: Instant,
) -> Result<(usize, TcpStream), ClusterError> {
    let io = |e: std::io::Error| ClusterError::Peer(format!("process {me}: greeting: {e}"));
    stream.set_nonblocking(false).map_err(io)?;
    let wait = deadline
        .saturating_duration_since(Instant::now())
        .max(Duration::from_secs(1));
    stream.set_read_timeout(Some(wait)).map_err(io)?;
    let mut hello = [0u8; 16];
    stream.read_exact(&mut hello).map_err(io)?;
    stream.set_read_timeout(None).map_err(io)?;
    stream.set_nodelay(true).map_err(io)?;
    let magic = u64::from_be_bytes(hello[..8].try_into().expect("8 bytes"));
    let j = u64::from_be_bytes(hello[8..].try_into().expect("8 bytes")) as usize;
    if magic != HELLO || j <= me || j >= processes {
        return Err(ClusterError::Peer(format!(
            "process {me}: a connection that is not a later zermelo process of this job \
             (process {j} of {processes}?)"
        )));
    }
    Ok((j, stream))
}

/// The first "timely communication error" seen in this process, if any.
static LOST: Mutex<Option<String>> = Mutex::new(None);
static HOOK: Once = Once::new();

/// Installs (once) the panic hook that records timely's network failures instead of printing
/// them; other panics go to the previous hook.
pub(crate) fn watch_for_lost_peers() {
    HOOK.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let message = info
                .payload()
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| info.payload().downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            if message.contains("timely communication error") {
                let mut lost = LOST.lock().unwrap_or_else(|p| p.into_inner());
                lost.get_or_insert(message);
            } else {
                previous(info);
            }
        }));
    });
}

/// The network failure seen so far, if any.
pub(crate) fn lost_peer() -> Option<String> {
    LOST.lock().unwrap_or_else(|p| p.into_inner()).clone()
}
