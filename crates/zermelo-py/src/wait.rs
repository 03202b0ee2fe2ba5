//! Long library calls without the GIL, interruptible by Ctrl-C.
//!
//! The library's solvers have no cancellation point, so a long call runs on its own thread
//! while the calling thread, without the GIL (other Python threads run), waits in slices of
//! 50 ms and checks Python's signal handlers between them. Ctrl-C raises
//! `KeyboardInterrupt` at once; the abandoned computation finishes in the background and its
//! result is dropped (it owns its inputs through `Arc`s, so nothing it reads goes away).

use std::sync::mpsc;
use std::time::Duration;

use pyo3::prelude::*;

/// How often signals are checked while waiting.
const POLL: Duration = Duration::from_millis(50);

/// Work this small runs on the calling thread (still without the GIL): a thread costs more than
/// it, and it ends before a user could press Ctrl-C.
pub const INLINE_WORK: u64 = 1 << 16;

/// Runs `f` without the GIL, on another thread when `work` (nodes + edges, roughly) is large,
/// checking for signals (Ctrl-C) every 50 ms.
///
/// # Errors
/// The exception a signal handler raised (`KeyboardInterrupt`).
pub fn interruptible<T, F>(py: Python<'_>, work: u64, f: F) -> PyResult<T>
where
    T: Send + 'static,
    F: FnOnce() -> T + Send + 'static,
{
    if work < INLINE_WORK {
        return Ok(py.detach(f));
    }
    let (tx, rx) = mpsc::channel();
    std::thread::Builder::new()
        .name("zermelo-solve".into())
        .spawn(move || {
            // The receiver may be gone after Ctrl-C: the result is then dropped.
            let _ = tx.send(f());
        })
        .map_err(|e| {
            pyo3::exceptions::PyRuntimeError::new_err(format!("cannot start a thread: {e}"))
        })?;
    let mut rx = rx;
    loop {
        // The receiver travels into the GIL-free closure and back (it is Send, not Sync).
        let (got, back) = py.detach(move || (rx.recv_timeout(POLL), rx));
        rx = back;
        match got {
            Ok(value) => return Ok(value),
            Err(mpsc::RecvTimeoutError::Timeout) => py.check_signals()?,
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                return Err(pyo3::exceptions::PyRuntimeError::new_err(
                    "the solver thread stopped without an answer (a bug in zermelo: please report it)",
                ))
            }
        }
    }
}
