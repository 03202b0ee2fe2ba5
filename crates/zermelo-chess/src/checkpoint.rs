//! Where a generation in progress keeps its place in the work folder, so that a killed
//! `tb gen` resumes where it was.
//!
//! Each table has a *work name*: the material for its DTM table (`KRPvKR`), the material
//! and `.dtz` for its DTZ table (`KRPvKR.dtz`); the files below are named after it.
//!
//! * `<material>/`: the compact engine's work folder for the group being solved: its
//!   checkpoint (`checkpoint.zck`, taken at layer boundaries; see
//!   [`zermelo::game::compact`]) and, with `--mapped`, its cells (`state.cells`).
//! * `<material>.groups` (pawn tables): how many groups of pawn configurations are in the
//!   values file, 16 bytes: magic `ZRMGROUP`, the count (`u32`, little-endian), CRC-32 of the
//!   first 12 bytes. Written (temporary file, sync, rename) only after the values file is
//!   synced, so a kill at any moment (even `kill -9`) leaves a count the values file backs.

use std::fs::{self, File};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

const MAGIC: &[u8; 8] = b"ZRMGROUP";

/// The engine's work folder for the group of `material` being solved.
pub(crate) fn group_dir(dir: &Path, material: &str) -> PathBuf {
    dir.join(material)
}

fn groups_path(dir: &Path, material: &str) -> PathBuf {
    dir.join(format!("{material}.groups"))
}

/// How many groups of `material` are finished (0 when the file does not exist).
pub(crate) fn groups_done(dir: &Path, material: &str) -> io::Result<usize> {
    let path = groups_path(dir, material);
    let bytes = match fs::read(&path) {
        Ok(b) => b,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(0),
        Err(e) => return Err(e),
    };
    let damaged = || {
        io::Error::new(
            io::ErrorKind::InvalidData,
            format!(
                "{}: damaged; delete the work folder's files of {material} to start over",
                path.display()
            ),
        )
    };
    if bytes.len() != 16 || &bytes[..8] != MAGIC {
        return Err(damaged());
    }
    let crc = u32::from_le_bytes(bytes[12..16].try_into().expect("4 bytes"));
    if crc32fast::hash(&bytes[..12]) != crc {
        return Err(damaged());
    }
    Ok(u32::from_le_bytes(bytes[8..12].try_into().expect("4 bytes")) as usize)
}

/// Records that `done` groups are in the values file (atomically).
pub(crate) fn set_groups_done(dir: &Path, material: &str, done: usize) -> io::Result<()> {
    let mut bytes = Vec::with_capacity(16);
    bytes.extend_from_slice(MAGIC);
    bytes.extend_from_slice(&(done as u32).to_le_bytes());
    bytes.extend_from_slice(&crc32fast::hash(&bytes).to_le_bytes());
    let path = groups_path(dir, material);
    let tmp = dir.join(format!("{material}.groups.tmp"));
    let mut f = File::create(&tmp)?;
    f.write_all(&bytes)?;
    f.sync_all()?;
    drop(f);
    fs::rename(&tmp, &path)?;
    File::open(dir)?.sync_all()
}

/// Removes the group count and the engine's work folder of `material`.
pub(crate) fn remove(dir: &Path, material: &str) -> io::Result<()> {
    for r in [
        fs::remove_file(groups_path(dir, material)),
        fs::remove_dir_all(group_dir(dir, material)),
    ] {
        match r {
            Err(e) if e.kind() != io::ErrorKind::NotFound => return Err(e),
            _ => {}
        }
    }
    Ok(())
}
