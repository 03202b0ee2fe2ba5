//! One lock per table in the tables folder, so that two processes (on one machine or on many
//! sharing the folder) never generate the same table, and a process that needs a table being
//! generated elsewhere knows it is coming.
//!
//! The lock is the file `<material>.lock` in the tables folder, holding `pid host started`
//! (one line, seconds since the epoch), and it is created atomically: the holder writes the
//! line into a temporary file, takes an exclusive `flock` on it, then hard-links it to the lock
//! name (`link` fails when the name exists, on local and NFS file systems alike), so a visible
//! lock file is always locked while its holder lives. A holder killed in any way (even
//! `kill -9`) leaves the file, but its `flock` goes with the process:
//!
//! * on the holder's own host, a lock file whose `flock` can be taken is *stale* and is
//!   broken (taken under that `flock`, checked to be still the file at the lock name, then
//!   unlinked), whatever its age;
//! * from another host `flock` may not be shared (it is on NFSv4 and on cluster file systems
//!   mounted with flock support, not on every file system), so a lock of another host is
//!   broken only when, in addition, its holder has not touched it for [`STALE_AFTER`] (the
//!   holder refreshes the file's modification time every [`HEARTBEAT`]).
//!
//! Where hard links are not supported the lock file is created with `O_EXCL` and locked just
//! after, leaving a window of a few microseconds in which a second process on the same host
//! could see it unlocked and break it.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Read, Write};
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use crate::material::Material;

/// How often a holder refreshes its lock file's modification time.
pub const HEARTBEAT: Duration = Duration::from_secs(15);
/// How long a lock of another host may go without a refresh before it is taken as stale.
pub const STALE_AFTER: Duration = Duration::from_secs(120);

/// Who holds a table's lock, as its lock file says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Holder {
    /// The lock file.
    pub path: PathBuf,
    /// The holder's process id.
    pub pid: u32,
    /// The holder's host name.
    pub host: String,
    /// When it took the lock (seconds since the epoch).
    pub since: u64,
}

impl std::fmt::Display for Holder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let ago = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_secs())
            .saturating_sub(self.since);
        write!(
            f,
            "process {} on host {} for {ago} s (lock file {})",
            self.pid,
            self.host,
            self.path.display()
        )
    }
}

/// The outcome of [`TableLock::try_acquire`].
#[derive(Debug)]
pub enum Acquire {
    /// The lock is ours until the [`TableLock`] is dropped.
    Acquired(TableLock),
    /// Another live process holds it.
    Held(Holder),
}

/// A held table lock: removed when dropped.
#[derive(Debug)]
pub struct TableLock {
    path: PathBuf,
    file: Option<File>,
    stop: Arc<AtomicBool>,
    heartbeat: Option<JoinHandle<()>>,
}

/// The lock file of `material` in the tables folder `dir`.
pub fn lock_path(dir: &Path, material: &Material) -> PathBuf {
    dir.join(format!("{material}.lock"))
}

/// This machine's host name (`/proc/sys/kernel/hostname`, else `$HOSTNAME`, else `unknown`).
pub fn host_name() -> String {
    fs::read_to_string("/proc/sys/kernel/hostname")
        .ok()
        .or_else(|| std::env::var("HOSTNAME").ok())
        .map(|h| h.trim().to_string())
        .filter(|h| !h.is_empty() && !h.contains(char::is_whitespace))
        .unwrap_or_else(|| "unknown".to_string())
}

fn now_secs() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

impl TableLock {
    /// Takes the lock of `material` in `dir` if no live process holds it (a stale lock is
    /// broken); never waits.
    ///
    /// # Errors
    /// The folder cannot be written, or the lock name is not a regular file (a directory, a
    /// FIFO, a symbolic link).
    pub fn try_acquire(dir: &Path, material: &Material) -> io::Result<Acquire> {
        let path = lock_path(dir, material);
        let host = host_name();
        let line = format!("{} {host} {}\n", std::process::id(), now_secs());
        // A stale lock broken by someone else between our attempts is retried; a live one
        // is reported.
        for _ in 0..16 {
            let file = match create(dir, &path, material, &line)? {
                Some(file) => return Ok(Acquire::Acquired(TableLock::held(path, file))),
                None => match examine(&path, &host)? {
                    Examined::Live(holder) => return Ok(Acquire::Held(holder)),
                    Examined::Gone => continue,
                    Examined::Stale(file) => file,
                },
            };
            // Still the file at the lock name (not replaced since we opened it): unlink it
            // while holding its flock, so that nobody else breaks it too.
            if same_file(&file, &path)? {
                match fs::remove_file(&path) {
                    Ok(()) => {}
                    Err(e) if e.kind() == io::ErrorKind::NotFound => {}
                    Err(e) => return Err(with_path(&path, e)),
                }
            }
            drop(file);
        }
        Err(io::Error::other(format!(
            "{}: the lock keeps changing hands; try again",
            path.display()
        )))
    }

    fn held(path: PathBuf, file: File) -> TableLock {
        let stop = Arc::new(AtomicBool::new(false));
        let heartbeat = file.try_clone().ok().map(|f| {
            let stop = Arc::clone(&stop);
            std::thread::spawn(move || {
                let tick = Duration::from_millis(200);
                let mut since = Duration::ZERO;
                while !stop.load(Relaxed) {
                    std::thread::sleep(tick);
                    since += tick;
                    if since >= HEARTBEAT {
                        since = Duration::ZERO;
                        let _ = f.set_modified(SystemTime::now());
                    }
                }
            })
        });
        TableLock {
            path,
            file: Some(file),
            stop,
            heartbeat,
        }
    }

    /// The lock file.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for TableLock {
    fn drop(&mut self) {
        self.stop.store(true, Relaxed);
        if let Some(h) = self.heartbeat.take() {
            let _ = h.join();
        }
        // Unlinked while still locked: a process waiting for it sees it gone, never unlocked.
        if let Some(file) = self.file.take() {
            if same_file(&file, &self.path).unwrap_or(false) {
                let _ = fs::remove_file(&self.path);
            }
        }
    }
}

fn with_path(path: &Path, e: io::Error) -> io::Error {
    io::Error::new(e.kind(), format!("{}: {e}", path.display()))
}

/// Creates the lock file, locked, holding `line`; `None` when the name is taken.
fn create(dir: &Path, path: &Path, material: &Material, line: &str) -> io::Result<Option<File>> {
    static ATTEMPT: AtomicU64 = AtomicU64::new(0);
    let temp = dir.join(format!(
        ".{material}.lock.{}.{}.{}.tmp",
        std::process::id(),
        ATTEMPT.fetch_add(1, Relaxed),
        host_name()
    ));
    let mut file = OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(true)
        .open(&temp)
        .map_err(|e| with_path(&temp, e))?;
    let linked = (|| {
        try_flock(&file)?
            .then_some(())
            .ok_or_else(|| io::Error::other("a new file is locked"))?;
        file.write_all(line.as_bytes())?;
        file.sync_all()?;
        fs::hard_link(&temp, path)
    })();
    let _ = fs::remove_file(&temp);
    match linked {
        Ok(()) => Ok(Some(file)),
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => Ok(None),
        Err(_) => create_exclusive(path, line),
    }
}

/// Without hard links: `O_EXCL`, then the lock.
fn create_exclusive(path: &Path, line: &str) -> io::Result<Option<File>> {
    let mut file = match OpenOptions::new()
        .read(true)
        .write(true)
        .create_new(true)
        .open(path)
    {
        Ok(f) => f,
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => return Ok(None),
        Err(e) => return Err(with_path(path, e)),
    };
    if !try_flock(&file)? {
        return Ok(None); // taken by its creator just now
    }
    file.write_all(line.as_bytes())?;
    file.sync_all()?;
    Ok(Some(file))
}

enum Examined {
    /// A live holder.
    Live(Holder),
    /// Stale: its flock is ours now.
    Stale(File),
    /// Removed meanwhile.
    Gone,
}

/// Looks at an existing lock file: live, stale (its flock taken), or gone.
fn examine(path: &Path, host: &str) -> io::Result<Examined> {
    let meta = match fs::symlink_metadata(path) {
        Ok(m) => m,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Examined::Gone),
        Err(e) => return Err(with_path(path, e)),
    };
    if !meta.file_type().is_file() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!(
                "{}: not a regular file; a table's lock must be (remove it)",
                path.display()
            ),
        ));
    }
    let file = match File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Examined::Gone),
        Err(e) => return Err(with_path(path, e)),
    };
    let mut text = String::new();
    let _ = (&file).take(4096).read_to_string(&mut text);
    let holder = parse_holder(path, &text);
    if !try_flock(&file).map_err(|e| with_path(path, e))? {
        return Ok(Examined::Live(holder));
    }
    // Unlocked: its holder is gone, unless the holder is on another host whose locks we
    // may not see; then only a lock left untouched for STALE_AFTER is stale.
    if holder.host != host {
        let age = file
            .metadata()?
            .modified()
            .ok()
            .and_then(|t| SystemTime::now().duration_since(t).ok())
            .unwrap_or(Duration::ZERO);
        if age < STALE_AFTER {
            return Ok(Examined::Live(holder));
        }
    }
    Ok(Examined::Stale(file))
}

fn parse_holder(path: &Path, text: &str) -> Holder {
    let mut words = text.split_whitespace();
    let pid = words.next().and_then(|w| w.parse().ok()).unwrap_or(0);
    let host = words.next().unwrap_or("unknown").to_string();
    let since = words.next().and_then(|w| w.parse().ok()).unwrap_or(0);
    Holder {
        path: path.to_path_buf(),
        pid,
        host,
        since,
    }
}

/// Takes an exclusive `flock` on `file` without waiting: `false` when another open file
/// holds one.
fn try_flock(file: &File) -> io::Result<bool> {
    use rustix::fs::{flock, FlockOperation};
    match flock(file, FlockOperation::NonBlockingLockExclusive) {
        Ok(()) => Ok(true),
        Err(e) if e == rustix::io::Errno::WOULDBLOCK => Ok(false),
        Err(e) => Err(e.into()),
    }
}

/// Whether `file` is (still) the file at `path`.
fn same_file(file: &File, path: &Path) -> io::Result<bool> {
    let a = file.metadata()?;
    match fs::symlink_metadata(path) {
        Ok(b) => Ok(a.dev() == b.dev() && a.ino() == b.ino()),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(false),
        Err(e) => Err(e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn krk() -> Material {
        "KRvK".parse().unwrap()
    }

    #[test]
    fn one_holder_at_a_time_and_released_on_drop() {
        let dir = tempfile::tempdir().unwrap();
        let Acquire::Acquired(lock) = TableLock::try_acquire(dir.path(), &krk()).unwrap() else {
            panic!("a fresh folder is free");
        };
        let text = fs::read_to_string(lock.path()).unwrap();
        assert!(
            text.starts_with(&format!("{} ", std::process::id())),
            "{text}"
        );
        // The same process asking again (another open file description) sees it held.
        match TableLock::try_acquire(dir.path(), &krk()).unwrap() {
            Acquire::Held(h) => {
                assert_eq!(h.pid, std::process::id());
                assert_eq!(h.host, host_name());
            }
            Acquire::Acquired(_) => panic!("two holders"),
        }
        drop(lock);
        assert!(!lock_path(dir.path(), &krk()).exists());
        assert!(matches!(
            TableLock::try_acquire(dir.path(), &krk()).unwrap(),
            Acquire::Acquired(_)
        ));
        // No temporary files are left.
        let names: Vec<_> = fs::read_dir(dir.path()).unwrap().flatten().collect();
        assert!(names.is_empty(), "{names:?}");
    }

    #[test]
    fn a_lock_left_by_a_dead_holder_of_this_host_is_broken() {
        let dir = tempfile::tempdir().unwrap();
        let path = lock_path(dir.path(), &krk());
        fs::write(&path, format!("999999999 {} 1\n", host_name())).unwrap();
        assert!(matches!(
            TableLock::try_acquire(dir.path(), &krk()).unwrap(),
            Acquire::Acquired(_)
        ));
    }

    #[test]
    fn an_unlocked_lock_of_another_host_is_live_until_it_goes_quiet() {
        let dir = tempfile::tempdir().unwrap();
        let path = lock_path(dir.path(), &krk());
        fs::write(&path, "4242 elsewhere.example 1\n").unwrap();
        match TableLock::try_acquire(dir.path(), &krk()).unwrap() {
            Acquire::Held(h) => {
                assert_eq!((h.pid, h.host.as_str()), (4242, "elsewhere.example"));
                assert!(h.to_string().contains("elsewhere.example"), "{h}");
            }
            Acquire::Acquired(_) => panic!("a fresh lock of another host is live"),
        }
        let old = SystemTime::now() - STALE_AFTER - Duration::from_secs(5);
        File::options()
            .write(true)
            .open(&path)
            .unwrap()
            .set_modified(old)
            .unwrap();
        assert!(matches!(
            TableLock::try_acquire(dir.path(), &krk()).unwrap(),
            Acquire::Acquired(_)
        ));
    }

    #[test]
    fn a_lock_name_that_is_not_a_file_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        fs::create_dir(lock_path(dir.path(), &krk())).unwrap();
        let e = TableLock::try_acquire(dir.path(), &krk()).unwrap_err();
        assert!(e.to_string().contains("not a regular file"), "{e}");
    }

    #[test]
    fn threads_racing_for_one_lock_get_it_one_at_a_time() {
        let dir = tempfile::tempdir().unwrap();
        let inside = std::sync::atomic::AtomicU32::new(0);
        std::thread::scope(|s| {
            for _ in 0..4 {
                s.spawn(|| {
                    let mut got = 0;
                    while got < 20 {
                        if let Acquire::Acquired(lock) =
                            TableLock::try_acquire(dir.path(), &krk()).unwrap()
                        {
                            assert_eq!(inside.fetch_add(1, Relaxed), 0, "two holders at once");
                            std::thread::yield_now();
                            inside.fetch_sub(1, Relaxed);
                            drop(lock);
                            got += 1;
                        }
                    }
                });
            }
        });
    }
}
