//! The disk under a generation job: a full disk told apart from other write failures, the
//! space free on a folder's file system and what a table's work files hold already, so that
//! `tb gen` refuses a table whose work files cannot fit and, when the disk fills anyway, says
//! what it needed and what was free instead of failing on a write ([`DiskFull`]).

use std::io;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

use zermelo::memory::human_bytes;

use crate::material::Material;

/// Whether `e` is the disk running full: no space left on the device (`ENOSPC`) or a disk
/// quota exceeded (`EDQUOT`).
pub(crate) fn is_full(e: &io::Error) -> bool {
    matches!(
        e.kind(),
        io::ErrorKind::StorageFull | io::ErrorKind::QuotaExceeded
    )
}

/// `path` if it exists, else its nearest ancestor that does (a folder not made yet is made
/// on its parent's file system).
fn existing(path: &Path) -> &Path {
    path.ancestors()
        .map(|p| {
            if p.as_os_str().is_empty() {
                Path::new(".")
            } else {
                p
            }
        })
        .find(|p| p.exists())
        .unwrap_or(Path::new("/"))
}

/// The bytes a process without privileges may still write on the file system of `path`
/// (statvfs: available blocks times their size); `None` when the system does not say.
pub(crate) fn free_space(path: &Path) -> Option<u64> {
    let s = rustix::fs::statvfs(existing(path)).ok()?;
    Some(s.f_bavail.saturating_mul(s.f_frsize))
}

/// Whether `a` and `b` are (or will be made) on one file system.
pub(crate) fn same_file_system(a: &Path, b: &Path) -> bool {
    let dev = |p: &Path| std::fs::metadata(existing(p)).map(|m| m.dev()).ok();
    matches!((dev(a), dev(b)), (Some(x), Some(y)) if x == y)
}

/// The bytes the disk holds for `material`'s files in the work folder `dir` (`KQvKR`,
/// `KQvKR.*`, folders counted whole): blocks allocated, so that a sparse file counts only
/// what was written.
pub(crate) fn held(dir: &Path, material: &Material) -> u64 {
    let name = material.to_string();
    let dotted = format!("{name}.");
    let Ok(entries) = std::fs::read_dir(dir) else {
        return 0;
    };
    entries
        .flatten()
        .filter(|e| {
            let n = e.file_name();
            let n = n.to_string_lossy();
            n == name || n.starts_with(&dotted)
        })
        .map(|e| allocated(&e.path()))
        .sum()
}

/// The bytes allocated to `path`, and to everything in it if it is a folder (links not
/// followed).
fn allocated(path: &Path) -> u64 {
    let Ok(m) = std::fs::symlink_metadata(path) else {
        return 0;
    };
    let own = m.blocks() * 512;
    if !m.is_dir() {
        return own;
    }
    let inner: u64 = std::fs::read_dir(path)
        .map(|d| d.flatten().map(|e| allocated(&e.path())).sum())
        .unwrap_or(0);
    own + inner
}

/// A job's folder is on a disk too full for what the job has to write: the disk ran full
/// while it wrote a file, or a table was refused before it started because its work files
/// cannot fit. Free some space (or choose a work folder on another disk) and run the same job
/// again: it goes on from the work folder.
#[derive(Debug, thiserror::Error)]
#[error("{}", self.describe())]
pub struct DiskFull {
    /// The table being generated.
    pub material: Material,
    /// The file being written when the disk ran full, and the error; `None` when the table
    /// was refused before it started.
    pub file: Option<(PathBuf, io::Error)>,
    /// The folder whose file system is short: the tables' or the work folder.
    pub folder: PathBuf,
    /// The bytes needed there. The disk full: the job's estimate of what it still writes there
    /// at its fullest (the tables still to make and the largest work folder), less what its
    /// work files hold already. Refused: the least the table's work files take, which they
    /// always do (the DTZ starts of its largest group when both tables are made together, and
    /// the solver's state of that group out of core: 2 bytes per index each).
    pub needed: u64,
    /// The bytes free there, if the system says.
    pub free: Option<u64>,
}

impl DiskFull {
    fn describe(&self) -> String {
        let free = self.free.map_or("an unknown amount".into(), human_bytes);
        let folder = self.folder.display();
        let again = "free some space (or choose a work folder on another disk) and run the same \
                     command again: it goes on where this run stopped";
        match &self.file {
            Some((path, e)) => {
                let need = if self.free.is_some_and(|f| f >= self.needed) {
                    format!("more than the {} estimated", human_bytes(self.needed))
                } else {
                    format!("about {} more", human_bytes(self.needed))
                };
                format!(
                    "{}: {e}: the disk is full; generating {} needs {need} on the disk of \
                     {folder} ({free} free there); {again}",
                    path.display(),
                    self.material,
                )
            }
            None => format!(
                "{}: its work files need at least {} on the disk of {folder} (the DTZ starts \
                 and, out of core, the solver's state: 2 bytes per index each), and {free} \
                 is free there; {again}",
                self.material,
                human_bytes(self.needed),
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_space_and_quotas_are_a_full_disk_and_nothing_else_is() {
        // ENOSPC and EDQUOT on Linux.
        assert!(is_full(&io::Error::from_raw_os_error(28)));
        assert!(is_full(&io::Error::from_raw_os_error(122)));
        assert!(is_full(&io::Error::new(
            io::ErrorKind::StorageFull,
            "a reservation's own message"
        )));
        assert!(!is_full(&io::Error::from_raw_os_error(5))); // EIO
        assert!(!is_full(&io::Error::other("No space left on device")));
    }

    #[test]
    fn free_space_is_asked_of_the_nearest_folder_that_exists() {
        let dir = tempfile::tempdir().unwrap();
        let later = dir.path().join("tables/.work/KQvKR");
        let free = free_space(&later).expect("statvfs answers for a temporary folder");
        assert!(free > 0);
        assert!(same_file_system(dir.path(), &later));
        assert!(free_space(Path::new("relative/folder/not/made")).is_some());
    }

    #[test]
    fn a_tables_work_files_are_counted_by_their_blocks() {
        let dir = tempfile::tempdir().unwrap();
        let m: Material = "KQvKR".parse().unwrap();
        std::fs::create_dir(dir.path().join("KQvKR")).unwrap();
        std::fs::write(dir.path().join("KQvKR/checkpoint.zck"), vec![1u8; 100_000]).unwrap();
        std::fs::write(dir.path().join("KQvKR.dtz.starts"), vec![1u8; 50_000]).unwrap();
        // Another table's files, one whose name starts with this one's.
        std::fs::write(dir.path().join("KQvKRR.dtz.starts"), vec![1u8; 70_000]).unwrap();
        // Sparse: a length without blocks.
        let sparse = std::fs::File::create(dir.path().join("KQvKR.values")).unwrap();
        sparse.set_len(1 << 30).unwrap();
        let h = held(dir.path(), &m);
        assert!((150_000..300_000).contains(&h), "{h}");
        assert_eq!(held(&dir.path().join("none"), &m), 0);
    }

    #[test]
    fn the_message_names_the_file_what_is_needed_and_what_is_free() {
        let m: Material = "KQvKR".parse().unwrap();
        let full = DiskFull {
            material: m.clone(),
            file: Some((
                PathBuf::from("t/.work/KQvKR.dtz.starts"),
                io::Error::from_raw_os_error(28),
            )),
            folder: PathBuf::from("t/.work"),
            needed: 9 << 20,
            free: Some(4096),
        };
        assert_eq!(
            full.to_string(),
            "t/.work/KQvKR.dtz.starts: No space left on device (os error 28): the disk is \
             full; generating KQvKR needs about 9.00 MiB more on the disk of t/.work (4.00 KiB \
             free there); free some space (or choose a work folder on another disk) and run \
             the same command again: it goes on where this run stopped"
        );
        let refused = DiskFull {
            file: None,
            needed: 7 << 20,
            free: Some(3 << 20),
            ..full
        };
        assert_eq!(
            refused.to_string(),
            "KQvKR: its work files need at least 7.00 MiB on the disk of t/.work (the DTZ \
             starts and, out of core, the solver's state: 2 bytes per index each), and 3.00 \
             MiB is free there; free some space (or choose a work folder on another disk) and \
             run the same command again: it goes on where this run stopped"
        );
    }
}
