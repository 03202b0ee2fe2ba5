//! Checkpoints of a generation in progress, so that a killed `tb gen` resumes where it was.
//!
//! One file per material in the work folder, `<material>.state`: a 52-byte header, then the
//! entry bytes and the counter bytes of every index of the group being solved
//! (the groups before it are in the values file, see [`generate`](crate::generate)). It is written to a temporary file, synced
//! and renamed over the previous one, so a kill at any moment (even `kill -9`) leaves either
//! the old checkpoint or the new one, never a torn file.
//!
//! | bytes | field |
//! |---|---|
//! | 0..8 | magic `ZRMGENST` |
//! | 8..12 | version, little-endian `u32` (3) |
//! | 12..28 | material (`KRBvKR`), ASCII, zero-padded |
//! | 28..36 | index count of the group, `u64` |
//! | 36..40 | group number (position in the order of solving), `u32` |
//! | 40..44 | next layer to run (0: the group is not initialised), `u32` |
//! | 44..48 | the group's deepest exit in plies, `u32` |
//! | 48..52 | CRC-32 of the header's first 48 bytes and the arrays, `u32` |

use std::fs::{self, File};
use std::io::{self, BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU8, Ordering::Relaxed};

use crate::material::Material;

const MAGIC: &[u8; 8] = b"ZRMGENST";
const VERSION: u32 = 3;
const HEADER: usize = 52;
const CRC_AT: usize = 48;
const BLOCK: usize = 1 << 20;

/// Where a generation stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Mark {
    /// Position of the group in the order of solving.
    pub(crate) stage: u32,
    /// The next layer to run; 0 when the group still needs its initialisation pass.
    pub(crate) layer: u32,
    /// The group's deepest exit (meaningful once initialised).
    pub(crate) max_exit: u32,
}

/// The checkpoint file of `material` in `dir`.
pub(crate) fn path(dir: &Path, material: &Material) -> PathBuf {
    dir.join(format!("{material}.state"))
}

fn header(material: &Material, size: u64, mark: Mark) -> [u8; HEADER] {
    let mut h = [0u8; HEADER];
    h[..8].copy_from_slice(MAGIC);
    h[8..12].copy_from_slice(&VERSION.to_le_bytes());
    let name = material.to_string();
    let len = name.len().min(16);
    h[12..12 + len].copy_from_slice(&name.as_bytes()[..len]);
    h[28..36].copy_from_slice(&size.to_le_bytes());
    h[36..40].copy_from_slice(&mark.stage.to_le_bytes());
    h[40..44].copy_from_slice(&mark.layer.to_le_bytes());
    h[44..48].copy_from_slice(&mark.max_exit.to_le_bytes());
    h
}

/// Writes the state atomically (temporary file, sync, rename).
pub(crate) fn save(
    dir: &Path,
    material: &Material,
    mark: Mark,
    arrays: &[&[AtomicU8]],
) -> io::Result<()> {
    fs::create_dir_all(dir)?;
    let final_path = path(dir, material);
    let tmp = dir.join(format!("{material}.state.tmp"));
    let size = arrays[0].len() as u64;
    let mut h = header(material, size, mark);
    let mut crc = crc32fast::Hasher::new();
    crc.update(&h[..CRC_AT]);
    let file = File::create(&tmp)?;
    let mut w = BufWriter::with_capacity(BLOCK, file);
    w.write_all(&h)?;
    let mut buf = vec![0u8; BLOCK];
    for array in arrays {
        for chunk in array.chunks(BLOCK) {
            let out = &mut buf[..chunk.len()];
            for (o, a) in out.iter_mut().zip(chunk) {
                *o = a.load(Relaxed);
            }
            crc.update(out);
            w.write_all(out)?;
        }
    }
    h[CRC_AT..].copy_from_slice(&crc.finalize().to_le_bytes());
    let mut file = w.into_inner().map_err(|e| e.into_error())?;
    use std::io::Seek;
    file.seek(io::SeekFrom::Start(0))?;
    file.write_all(&h)?;
    file.sync_all()?;
    drop(file);
    fs::rename(&tmp, &final_path)
}

/// Where the checkpoint of `material` stands, from its header alone (`None`: no checkpoint);
/// [`load`] checks the rest.
pub(crate) fn peek(dir: &Path, material: &Material) -> io::Result<Option<Mark>> {
    let p = path(dir, material);
    let mut file = match File::open(&p) {
        Ok(f) => f,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e),
    };
    let mut h = [0u8; HEADER];
    if file.read_exact(&mut h).is_err() {
        return Err(unusable(&p, "truncated"));
    }
    let mark = mark_of(&h);
    let size = u64::from_le_bytes(h[28..36].try_into().expect("8 bytes"));
    if h[..CRC_AT] != header(material, size, mark)[..CRC_AT] {
        return Err(unusable(&p, "another material or version"));
    }
    Ok(Some(mark))
}

fn unusable(p: &Path, why: &str) -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidData,
        format!(
            "{}: not a usable checkpoint ({why}); delete it to start over",
            p.display()
        ),
    )
}

fn mark_of(h: &[u8; HEADER]) -> Mark {
    Mark {
        stage: u32::from_le_bytes(h[36..40].try_into().expect("4 bytes")),
        layer: u32::from_le_bytes(h[40..44].try_into().expect("4 bytes")),
        max_exit: u32::from_le_bytes(h[44..48].try_into().expect("4 bytes")),
    }
}

/// Loads the checkpoint of `material` into `arrays` if there is a valid one; a missing file
/// is `Ok(None)`, a file of another material or size or with a bad checksum is an error
/// naming the file (delete it to start over).
pub(crate) fn load(
    dir: &Path,
    material: &Material,
    arrays: &[&[AtomicU8]],
) -> io::Result<Option<Mark>> {
    let p = path(dir, material);
    let file = match File::open(&p) {
        Ok(f) => f,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e),
    };
    let bad = |why: &str| unusable(&p, why);
    let size = arrays[0].len() as u64;
    let expected_len = HEADER as u64 + arrays.len() as u64 * size;
    if file.metadata()?.len() != expected_len {
        return Err(bad("wrong length"));
    }
    let mut r = BufReader::with_capacity(BLOCK, file);
    let mut h = [0u8; HEADER];
    r.read_exact(&mut h)?;
    let mark = mark_of(&h);
    if h[..CRC_AT] != header(material, size, mark)[..CRC_AT] {
        return Err(bad("another material, size or version"));
    }
    let mut crc = crc32fast::Hasher::new();
    crc.update(&h[..CRC_AT]);
    let mut buf = vec![0u8; BLOCK];
    for array in arrays {
        for chunk in array.chunks(BLOCK) {
            let inp = &mut buf[..chunk.len()];
            r.read_exact(inp)?;
            crc.update(inp);
            for (a, &b) in chunk.iter().zip(inp.iter()) {
                a.store(b, Relaxed);
            }
        }
    }
    if crc.finalize().to_le_bytes() != h[CRC_AT..] {
        return Err(bad("checksum mismatch"));
    }
    Ok(Some(mark))
}

/// Removes the checkpoint once the table is written.
pub(crate) fn remove(dir: &Path, material: &Material) -> io::Result<()> {
    match fs::remove_file(path(dir, material)) {
        Err(e) if e.kind() != io::ErrorKind::NotFound => Err(e),
        _ => Ok(()),
    }
}
