//! Where a generation in progress keeps its place in the work folder, so that a killed
//! `tb gen` resumes where it was.
//!
//! Each table has a *work name*: the material for its DTM table (`KRPvKR`), the material
//! and `.dtz` for its DTZ table (`KRPvKR.dtz`); the files below are named after it.
//!
//! * `<material>/`: the compact engine's work folder for the group being solved: its
//!   checkpoints (`checkpoint.zck` at layer boundaries, `seed.zck` while it is seeded; see
//!   [`zermelo::game::compact`]) and, out of core (`--mapped`, or a state that does not fit
//!   under the job's memory limit), its cells (`state.cells`, which a `ZMSEEDIP` seeding
//!   checkpoint keeps across a failed run).
//! * `<material>.dtz.starts` (both tables together): the DTZ starts of the group being
//!   solved, recorded by its DTM seeding and read back after a kill (`starts.rs`).
//! * `<material>.finished.zct` (the DTM table of a pawnless pair, [`crate::generate_pair`]):
//!   the finished table, written (atomically) before the DTZ table is solved, so that a run
//!   killed during the DTZ solve does not solve or write the DTM table again; checked whole
//!   (every block's checksum) before it is used, made again if it is damaged.
//! * `<material>.values` (pawn tables): the values of the finished groups, at their place in
//!   the table's index order.
//! * `<material>.groups` (pawn tables): which groups are in the values file: magic `ZRMGRP02`,
//!   the fingerprint of the table (material, metric, rule, index count: `u64`), the count of
//!   finished groups (`u32`), the CRC-32 of each finished group's values as written (`u32`
//!   each), then the CRC-32 of all that; little-endian. Written (temporary file, sync, rename)
//!   only after the values file is synced, so a kill at any moment (even `kill -9`) leaves a
//!   count the values file backs.
//!
//! Nothing in the work folder is trusted: a count is checked against the groups the table has
//! (and the file's size against that before it is read), every finished group's values
//! against their CRC before the run goes on, and a work file that is not a regular file (a
//! FIFO, a device, a symbolic link) is refused rather than opened.

use std::fs::{self, File};
use std::io::{self, Write};
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};

const MAGIC: &[u8; 8] = b"ZRMGROUP";
const MAGIC_V2: &[u8; 8] = b"ZRMGRP02";

/// The engine's work folder for the group of `material` being solved.
pub(crate) fn group_dir(dir: &Path, material: &str) -> PathBuf {
    dir.join(material)
}

/// The finished table of `name` kept in the work folder until the job writes it out.
pub(crate) fn finished_table_path(dir: &Path, name: &str) -> PathBuf {
    dir.join(format!("{name}.finished.zct"))
}

/// Removes the engine's work folder of `name` (its checkpoints: a finished table supersedes
/// them).
pub(crate) fn remove_engine(dir: &Path, name: &str) -> io::Result<()> {
    match fs::remove_dir_all(group_dir(dir, name)) {
        Err(e) if e.kind() != io::ErrorKind::NotFound => Err(e),
        _ => Ok(()),
    }
}

/// The DTZ start log of the group of `name` being solved (starts.rs).
pub(crate) fn starts_path(dir: &Path, name: &str) -> PathBuf {
    dir.join(format!("{name}.starts"))
}

/// The count of finished groups of `material` (a pawn table).
pub(crate) fn groups_path(dir: &Path, material: &str) -> PathBuf {
    dir.join(format!("{material}.groups"))
}

fn invalid(path: &Path, what: &str, material: &str) -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidData,
        format!(
            "{}: {what}; delete the work folder's files of {material} to start over",
            path.display()
        ),
    )
}

/// Whether a work file is there: `false` when absent, `true` for a regular file, an error for
/// anything else (opening a FIFO would block; a device or a link is not ours to write).
pub(crate) fn regular_or_absent(path: &Path) -> io::Result<bool> {
    match fs::symlink_metadata(path) {
        Ok(m) if m.file_type().is_file() => Ok(true),
        Ok(_) => Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!(
                "{}: not a regular file (a FIFO, a device, a directory or a symbolic link); \
                 remove it",
                path.display()
            ),
        )),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(false),
        Err(e) => Err(e),
    }
}

/// The finished groups of a pawn table, as its group file records them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Finished {
    /// The CRC-32 of each finished group's values, in solving order.
    pub(crate) crcs: Vec<u32>,
}

/// The finished groups of `material` (none when the file does not exist); `fingerprint`
/// names the table, `groups` is how many groups it has.
pub(crate) fn groups_done(
    dir: &Path,
    material: &str,
    fingerprint: u64,
    groups: usize,
) -> io::Result<Finished> {
    let path = groups_path(dir, material);
    if !regular_or_absent(&path)? {
        return Ok(Finished::default());
    }
    let damaged = |what: &str| invalid(&path, what, material);
    // The size first: a count is never trusted to size an allocation.
    let most = 24 + 4 * groups as u64;
    let len = fs::symlink_metadata(&path)?.len();
    if len > most {
        return Err(damaged(&format!(
            "damaged: {len} bytes, at most {most} for the {groups} groups of {material}"
        )));
    }
    let bytes = fs::read(&path)?;
    if bytes.len() >= 8 && &bytes[..8] == MAGIC {
        return Err(damaged(
            "written by an older zermelo (no checksums of the values)",
        ));
    }
    if bytes.len() < 24 || &bytes[..8] != MAGIC_V2 {
        return Err(damaged("damaged (bad magic or size)"));
    }
    let n = bytes.len();
    let crc = u32::from_le_bytes(bytes[n - 4..].try_into().expect("4 bytes"));
    if crc32fast::hash(&bytes[..n - 4]) != crc {
        return Err(damaged("damaged (checksum mismatch)"));
    }
    if u64::from_le_bytes(bytes[8..16].try_into().expect("8 bytes")) != fingerprint {
        return Err(damaged("belongs to another table or rule"));
    }
    let count = u32::from_le_bytes(bytes[16..20].try_into().expect("4 bytes")) as usize;
    if count > groups || n != 24 + 4 * count {
        return Err(damaged(&format!(
            "damaged: {count} finished groups recorded, {material} has {groups}"
        )));
    }
    let crcs = bytes[20..n - 4]
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes(c.try_into().expect("4 bytes")))
        .collect();
    Ok(Finished { crcs })
}

/// Records the finished groups (atomically).
pub(crate) fn set_groups_done(
    dir: &Path,
    material: &str,
    fingerprint: u64,
    done: &Finished,
) -> io::Result<()> {
    let mut bytes = Vec::with_capacity(24 + 4 * done.crcs.len());
    bytes.extend_from_slice(MAGIC_V2);
    bytes.extend_from_slice(&fingerprint.to_le_bytes());
    bytes.extend_from_slice(&(done.crcs.len() as u32).to_le_bytes());
    for c in &done.crcs {
        bytes.extend_from_slice(&c.to_le_bytes());
    }
    bytes.extend_from_slice(&crc32fast::hash(&bytes).to_le_bytes());
    let path = groups_path(dir, material);
    regular_or_absent(&path)?;
    let tmp = dir.join(format!("{material}.groups.tmp"));
    let mut f = File::create(&tmp)?;
    f.write_all(&bytes)?;
    f.sync_all()?;
    drop(f);
    fs::rename(&tmp, &path)?;
    File::open(dir)?.sync_all()
}

/// The CRC-32 of the byte ranges `(offset, len)` of `file`, in order.
pub(crate) fn crc_of_ranges(
    file: &File,
    ranges: impl Iterator<Item = (u64, u64)>,
) -> io::Result<u32> {
    let mut hasher = crc32fast::Hasher::new();
    let mut buf = Vec::new();
    for (offset, len) in ranges {
        buf.resize(len as usize, 0);
        file.read_exact_at(&mut buf, offset)?;
        hasher.update(&buf);
    }
    Ok(hasher.finalize())
}

/// Checks that group `k`'s values in the values file (`path`) still have their CRC.
pub(crate) fn check_group(
    path: &Path,
    material: &str,
    k: usize,
    expected: u32,
    found: u32,
) -> io::Result<()> {
    if expected == found {
        return Ok(());
    }
    Err(invalid(
        path,
        &format!(
            "the values of finished group {} do not match their checksum",
            k + 1
        ),
        material,
    ))
}

/// Removes the group count, the engine's work folder and the DTZ starts of `material`.
pub(crate) fn remove(dir: &Path, material: &str) -> io::Result<()> {
    for r in [
        fs::remove_file(groups_path(dir, material)),
        fs::remove_file(starts_path(dir, material)),
        fs::remove_dir_all(group_dir(dir, material)),
    ] {
        match r {
            Err(e) if e.kind() != io::ErrorKind::NotFound => return Err(e),
            _ => {}
        }
    }
    Ok(())
}
