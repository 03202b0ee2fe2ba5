//! A file written whole or not at all: its bytes go to a file with no name (`O_TMPFILE` on
//! Linux) or a temporary name in the target's folder, are synced, and only then take the
//! target's name by rename. A reader (a mapped table of another process) never sees half a
//! table, and a run killed while writing leaves nothing behind (a temporary name only where
//! the file system has no unnamed files).

use std::fs::{self, File, OpenOptions};
use std::io::{self, BufWriter, Write};
use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// Writes `path` with `write` (which returns the bytes it wrote) atomically.
///
/// # Errors
/// The folder cannot be written, or `write` failed (nothing is left at `path` then).
pub(crate) fn write_atomically(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> io::Result<u64>,
) -> io::Result<u64> {
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    #[cfg(target_os = "linux")]
    if let Some(file) = unnamed::create(dir) {
        let (file, written) = fill(file, write)?;
        unnamed::link(&file, &temporary_name(dir), path)?;
        sync_folder(dir);
        return Ok(written);
    }
    let temp = temporary_name(dir);
    let file = OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(&temp)?;
    let done = fill(file, write).and_then(|(_, written)| {
        fs::rename(&temp, path)?;
        Ok(written)
    });
    if done.is_err() {
        let _ = fs::remove_file(&temp);
    }
    sync_folder(dir);
    done
}

/// Writes everything through a buffer, makes the file readable by all (0644, as a new file
/// of the command line always was) and syncs it.
fn fill(
    file: File,
    write: impl FnOnce(&mut dyn Write) -> io::Result<u64>,
) -> io::Result<(File, u64)> {
    let mut out = BufWriter::with_capacity(1 << 16, file);
    let written = write(&mut out)?;
    out.flush()?;
    let file = out.into_inner().map_err(io::IntoInnerError::into_error)?;
    // Failing to widen permissions is harmless: the table is complete and correct.
    let _ = file.set_permissions(fs::Permissions::from_mode(0o644));
    file.sync_all()?;
    Ok((file, written))
}

/// `.zermelo-<pid>-<n>.tmp` in `dir`: the pattern the command line's outputs use too, whose
/// stale leftovers it removes.
fn temporary_name(dir: &Path) -> PathBuf {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let n = NEXT.fetch_add(1, Relaxed);
    dir.join(format!(".zermelo-{}-{n}.tmp", std::process::id()))
}

/// Makes the rename durable; a folder that cannot be synced (some network file systems) is no
/// reason to fail a table already in place.
fn sync_folder(dir: &Path) {
    let _ = File::open(dir).and_then(|d| d.sync_all());
}

#[cfg(target_os = "linux")]
mod unnamed {
    use std::fs::File;
    use std::io;
    use std::os::fd::AsRawFd;
    use std::path::Path;

    use rustix::fs::{linkat, openat, AtFlags, Mode, OFlags, CWD};

    /// An unnamed file in `dir`; `None` when the file system has none (the caller falls back
    /// to a temporary name).
    pub(super) fn create(dir: &Path) -> Option<File> {
        let flags = OFlags::TMPFILE | OFlags::WRONLY | OFlags::CLOEXEC;
        let fd = openat(CWD, dir, flags, Mode::from_raw_mode(0o600)).ok()?;
        Some(File::from(fd))
    }

    /// Gives the complete `file` the name `path` (replacing what is there): `linkat` cannot
    /// replace a file, so it links under `temp` first and renames that.
    pub(super) fn link(file: &File, temp: &Path, path: &Path) -> io::Result<()> {
        let proc_path = format!("/proc/self/fd/{}", file.as_raw_fd());
        linkat(CWD, proc_path.as_str(), CWD, temp, AtFlags::SYMLINK_FOLLOW)?;
        std::fs::rename(temp, path).inspect_err(|_| {
            let _ = std::fs::remove_file(temp);
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failed_write_leaves_nothing_and_a_good_one_replaces_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.bin");
        let failed = write_atomically(&path, |w| {
            w.write_all(b"half")?;
            Err(io::Error::other("disk full"))
        });
        assert!(failed.is_err());
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 0);
        for text in [&b"first"[..], b"second"] {
            let n = write_atomically(&path, |w| {
                w.write_all(text)?;
                Ok(text.len() as u64)
            })
            .unwrap();
            assert_eq!(n, text.len() as u64);
            assert_eq!(fs::read(&path).unwrap(), text);
        }
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
        let mode = fs::metadata(&path).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o644);
    }
}
