//! Where results go: standard output, or a file written atomically (temporary file + rename).

use std::fs;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use anyhow::Context;

use crate::error::{CliResult, Failure};

/// Prints a line on standard output, as `println!` does, except that a closed standard output
/// (`zermelo tb gen ... | head -1`) is no panic: the line is dropped and the command goes on (its
/// product is its files and its exit code, the lines only report).
#[macro_export]
macro_rules! say {
    ($($arg:tt)*) => {
        $crate::output::line_to(&mut ::std::io::stdout(), format_args!($($arg)*))
    };
}

/// Prints a line on standard error, as `eprintln!` does, without panicking when standard error
/// is a closed pipe (`zermelo ... 2>&1 | head -1`).
#[macro_export]
macro_rules! note {
    ($($arg:tt)*) => {
        $crate::output::line_to(&mut ::std::io::stderr(), format_args!($($arg)*))
    };
}

/// Writes `args` and a newline to `out` in one call; a reader that went away (broken pipe) is
/// ignored, as is any other failure to print a report line (there is nowhere left to say it).
pub fn line_to(out: &mut impl Write, args: std::fmt::Arguments<'_>) {
    let line = format!("{args}\n");
    let _ = out.write_all(line.as_bytes()).and_then(|()| out.flush());
}

/// Runs `write` against the destination: `path`, or standard output when `None`.
///
/// A regular file (or a new one) is first written to a temporary file in the same directory and
/// renamed into place only when everything succeeded, so an interrupted or failed run never
/// leaves a half-written file; a symbolic link is followed and its target replaced. Anything
/// else — `/dev/null`, `/dev/stdout`, a FIFO, a terminal — is written straight through. A
/// closed standard output (`zermelo ... | head`) ends the command quietly.
pub fn emit(
    path: Option<&Path>,
    write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> CliResult {
    match path {
        None => {
            let stdout = io::stdout();
            let mut out = BufWriter::with_capacity(1 << 16, stdout.lock());
            match write(&mut out).and_then(|()| out.flush()) {
                Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
                other => Ok(other.context("cannot write to standard output")?),
            }
        }
        Some(path) if is_special(path) => write_through(path, write),
        Some(path) => write_atomically(&link_target(path)?, write),
    }
}

/// An output that cannot be written: exit 1, as the exit-code table says.
fn unwritable(path: &Path, why: impl std::fmt::Display) -> Failure {
    Failure::Internal(anyhow::anyhow!(
        "{}: cannot write output: {why}",
        path.display()
    ))
}

/// Whether `path` names something that is not a regular file or a directory (a device, a FIFO,
/// a socket), or lives in /dev or /proc (`/dev/stdout` may point at anything).
fn is_special(path: &Path) -> bool {
    if path.starts_with("/dev") || path.starts_with("/proc") {
        return true;
    }
    fs::metadata(path).is_ok_and(|m| !m.is_file() && !m.is_dir())
}

/// Where a symbolic link points (following chains); `path` itself if it is not a link. A chain
/// of more than 40 links (a loop) is an error: replacing the link would break it.
fn link_target(path: &Path) -> CliResult<PathBuf> {
    let mut current = path.to_path_buf();
    for _ in 0..=40 {
        match fs::read_link(&current) {
            Ok(target) => {
                current = match current.parent() {
                    Some(dir) if target.is_relative() => dir.join(target),
                    _ => target,
                };
            }
            Err(_) => return Ok(current),
        }
    }
    Err(unwritable(
        path,
        "too many levels of symbolic links (a loop?); the link is left as it is",
    ))
}

fn write_through(path: &Path, write: impl FnOnce(&mut dyn Write) -> io::Result<()>) -> CliResult {
    let file = fs::OpenOptions::new()
        .write(true)
        .open(path)
        .with_context(|| format!("cannot open {} for writing", path.display()))?;
    let mut out = BufWriter::with_capacity(1 << 16, file);
    match write(&mut out).and_then(|()| out.flush()) {
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
        other => Ok(other.with_context(|| format!("cannot write {}", path.display()))?),
    }
}

fn write_atomically(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> CliResult {
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    if path.is_dir() {
        // A directory where a file name belongs is a usage error (exit 2), as for inputs.
        return Err(Failure::input(format!(
            "{}: is a directory, expected a file name for the output",
            path.display()
        )));
    }
    if !dir.is_dir() {
        let why = if dir.exists() {
            "is not a directory"
        } else {
            "does not exist"
        };
        return Err(unwritable(
            path,
            format!("directory {} {why}", dir.display()),
        ));
    }
    #[cfg(target_os = "linux")]
    if let Some(file) = unnamed::create(&dir) {
        let file = fill(file, path, write)?;
        return unnamed::link(&file, &dir, path);
    }
    remove_stale_temporaries(&dir);
    let tmp = tempfile::Builder::new()
        .prefix(".zermelo-")
        .suffix(".tmp")
        .tempfile_in(&dir)
        .with_context(|| format!("cannot create a temporary file in {}", dir.display()))?;
    let _guard = Registered::new(tmp.path());
    let mut out = BufWriter::with_capacity(1 << 16, tmp);
    write(&mut out)
        .and_then(|()| out.flush())
        .with_context(|| format!("cannot write {}", path.display()))?;
    let tmp = out
        .into_inner()
        .map_err(|e| anyhow::anyhow!("cannot write {}: {}", path.display(), e.error()))?;
    keep_permissions(tmp.as_file(), path);
    tmp.as_file()
        .sync_all()
        .with_context(|| format!("cannot sync {}", path.display()))?;
    tmp.persist(path)
        .map_err(|e| anyhow::anyhow!("cannot rename into {}: {}", path.display(), e.error))?;
    Ok(())
}

/// Writes everything to `file`, gives it the permissions of the file it replaces and syncs it.
fn fill(
    file: fs::File,
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> CliResult<fs::File> {
    let mut out = BufWriter::with_capacity(1 << 16, file);
    write(&mut out)
        .and_then(|()| out.flush())
        .with_context(|| format!("cannot write {}", path.display()))?;
    let file = out
        .into_inner()
        .map_err(|e| anyhow::anyhow!("cannot write {}: {}", path.display(), e.error()))?;
    keep_permissions(&file, path);
    file.sync_all()
        .with_context(|| format!("cannot sync {}", path.display()))?;
    Ok(file)
}

/// Where unnamed temporary files are not available, a `kill -9` can leave a named one behind:
/// remove ours (`.zermelo-*.tmp`) that nobody has touched for a day.
fn remove_stale_temporaries(dir: &Path) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    let day = std::time::Duration::from_secs(24 * 3600);
    for entry in entries.flatten() {
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if !(name.starts_with(".zermelo-") && name.ends_with(".tmp")) {
            continue;
        }
        let stale = entry
            .metadata()
            .and_then(|m| m.modified())
            .is_ok_and(|t| t.elapsed().is_ok_and(|age| age > day));
        if stale {
            let _ = fs::remove_file(entry.path());
        }
    }
}

/// Linux: the output is written to an unnamed file (`O_TMPFILE`) in the target's directory and
/// linked into place only when complete, so even `kill -9` leaves nothing behind.
#[cfg(target_os = "linux")]
mod unnamed {
    use std::fs::File;
    use std::os::fd::AsRawFd;
    use std::path::Path;

    use anyhow::Context;
    use rustix::fs::{linkat, openat, AtFlags, Mode, OFlags, CWD};

    use crate::error::CliResult;

    /// An unnamed file in `dir`; `None` when the file system has none (the caller falls back).
    pub(super) fn create(dir: &Path) -> Option<File> {
        let flags = OFlags::TMPFILE | OFlags::WRONLY | OFlags::CLOEXEC;
        let fd = openat(CWD, dir, flags, Mode::from_raw_mode(0o600)).ok()?;
        Some(File::from(fd))
    }

    /// Gives the complete `file` the name `path`, replacing what was there.
    pub(super) fn link(file: &File, dir: &Path, path: &Path) -> CliResult {
        // linkat cannot replace a file: link under a fresh name, then rename over the target.
        let name = dir.join(format!(".zermelo-{}-{}.tmp", std::process::id(), unique()));
        let _guard = super::Registered::new(&name);
        let proc_path = format!("/proc/self/fd/{}", file.as_raw_fd());
        linkat(CWD, proc_path.as_str(), CWD, &name, AtFlags::SYMLINK_FOLLOW)
            .with_context(|| format!("cannot link the output into {}", dir.display()))?;
        std::fs::rename(&name, path).map_err(|e| {
            let _ = std::fs::remove_file(&name);
            anyhow::anyhow!("cannot rename into {}: {e}", path.display())
        })?;
        Ok(())
    }

    fn unique() -> u64 {
        use std::hash::{BuildHasher, Hasher};
        let mut h = std::collections::hash_map::RandomState::new().build_hasher();
        h.write_u64(0);
        h.finish()
    }
}

/// Temporary files being written, removed by the interrupt handler.
static IN_PROGRESS: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// Installs a Ctrl-C / SIGTERM handler that deletes unfinished temporary files and exits with
/// 130, so an interrupted run leaves neither a half-written output nor litter.
pub fn clean_up_on_interrupt() {
    let _ = ctrlc::set_handler(|| {
        if let Ok(paths) = IN_PROGRESS.lock() {
            for p in paths.iter() {
                let _ = fs::remove_file(p);
            }
        }
        crate::note!("zermelo: interrupted");
        std::process::exit(130);
    });
}

/// Keeps a temporary path registered while it is being written.
struct Registered(PathBuf);

impl Registered {
    fn new(path: &Path) -> Registered {
        if let Ok(mut paths) = IN_PROGRESS.lock() {
            paths.push(path.to_path_buf());
        }
        Registered(path.to_path_buf())
    }
}

impl Drop for Registered {
    fn drop(&mut self) {
        if let Ok(mut paths) = IN_PROGRESS.lock() {
            paths.retain(|p| p != &self.0);
        }
    }
}

/// Temporary files are created private (0600); give the result the permissions of the file it
/// replaces, or the usual 0644 for a new file.
#[cfg(unix)]
fn keep_permissions(file: &fs::File, path: &Path) {
    use std::os::unix::fs::PermissionsExt;
    let mode = fs::metadata(path).map_or(0o644, |m| m.permissions().mode());
    // Failing to widen permissions is harmless: the output is still complete and correct.
    let _ = file.set_permissions(fs::Permissions::from_mode(mode));
}

#[cfg(not(unix))]
fn keep_permissions(_file: &fs::File, _path: &Path) {}
