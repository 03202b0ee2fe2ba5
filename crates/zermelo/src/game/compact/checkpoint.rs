//! Checkpoints at layer boundaries, and the state file of a memory-mapped run.
//!
//! A checkpoint is one file, `checkpoint.zck` in the work folder: a header (magic, fingerprint,
//! index count, counter mode, layer, decided count, spill entries, pending entries, CRC-32 of
//! the body, bytes of the compressed cells), then the cells (`u16` little-endian) in frames of
//! [`FRAME`] cells, each a `u32` length and a zstd frame, the frontier bitmap, the pending
//! `(depth, piece)` pairs (`u32` each) and the spilled counters (`u64` index, `u64` count).
//!
//! It is written to a temporary file and, while the solver goes on, synced and renamed by a
//! thread of its own ([`Saving`]), so a run killed at any moment (even by SIGKILL) leaves either
//! the previous checkpoint or the new one. The state of a 6-piece chess table is 6 GB: written
//! raw and synced while the solver waited, each checkpoint cost 45 s at the 140 MB/s this
//! machine's disk writes; compressed in parallel (zstd level 1, about a quarter of the bytes)
//! and synced behind the solver, its cost is the compression. Resuming loads it and replays the
//! layers from there; every layer is deterministic, so the result is the same bytes as an
//! uninterrupted run.

use std::collections::HashMap;
use std::fs::{self, File, OpenOptions};
use std::io::{BufReader, BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering::Relaxed;
use std::thread::JoinHandle;

use rayon::prelude::*;

use super::store::{Bits, Cells, PIECE_BITS};
use super::{CompactError, CompactOptions, CounterMode};
use crate::io::mapped::MappedCells;

const MAGIC: &[u8; 8] = b"ZMCKPT03";
const HEADER: usize = 8 + 8 + 8 + 4 + 4 + 8 + 8 + 4 + 4 + 8 + 8;
/// Where the CRC-32 of the body sits in the header.
const CRC_AT: usize = 48;
/// Where the length of the compressed cells sits in the header.
const CELLS_AT: usize = 64;
/// Cells per compressed frame (2 MiB of cells).
const FRAME: usize = 1 << 20;
/// The zstd level of the cells: the fastest (a 6-piece state compresses to about a quarter).
const LEVEL: i32 = 1;
const FILE: &str = "checkpoint.zck";
const TEMP: &str = "checkpoint.zck.tmp";
pub(super) const STATE: &str = "state.cells";

/// What a run starts from: fresh cells, or cells and bitmaps loaded from a checkpoint.
pub(super) struct Resume {
    pub(super) cells: Cells,
    pub(super) snapshot: Option<Restored>,
}

impl Resume {
    pub(super) fn fresh(cells: Cells) -> Resume {
        Resume {
            cells,
            snapshot: None,
        }
    }
}

/// A checkpoint read back (its cells are in [`Resume::cells`]).
pub(super) struct Restored {
    pub(super) layer: u32,
    pub(super) decided: u64,
    pub(super) frontier: Vec<u8>,
    pub(super) pending: Vec<(u32, u32)>,
    pub(super) spill: HashMap<u64, u64>,
}

/// The state at a layer boundary, to be saved.
pub(super) struct Snapshot<'a> {
    pub(super) layer: u32,
    pub(super) decided: u64,
    pub(super) cells: &'a Cells,
    pub(super) frontier: &'a Bits,
    pub(super) pending: Vec<(u32, u32)>,
    pub(super) spill: HashMap<u64, u64>,
}

pub(super) fn io_error(path: &Path) -> impl FnOnce(std::io::Error) -> CompactError + '_ {
    move |source| CompactError::Io {
        path: path.to_path_buf(),
        source,
    }
}

pub(super) fn mode_code(options: &CompactOptions) -> u32 {
    match options.counters {
        CounterMode::Counter => 0,
        CounterMode::Recompute => 1,
    }
}

/// Sizes the state file to `bytes` with its blocks allocated on the disk: a disk without the
/// room fails here, with an error, rather than with SIGBUS when a mapped page is first written
/// (a file system that cannot allocate ahead gets a plain length instead).
fn reserve(file: &File, bytes: u64) -> std::io::Result<()> {
    file.set_len(bytes)?;
    #[cfg(target_os = "linux")]
    {
        use rustix::fs::{fallocate, FallocateFlags};
        match fallocate(file, FallocateFlags::empty(), 0, bytes) {
            Ok(()) => {}
            Err(e) if e == rustix::io::Errno::OPNOTSUPP => {}
            Err(e) => return Err(e.into()),
        }
    }
    Ok(())
}

/// Opens the work folder: the cells (heap or state file), and the last checkpoint if any.
/// `seeded_in_place`: the work folder holds a seeding checkpoint taken in place (its cells are
/// the state file's, to be kept rather than truncated when no layered checkpoint is there).
pub(super) fn open(
    dir: &Path,
    n: u64,
    options: &CompactOptions,
    seeded_in_place: bool,
) -> Result<Resume, CompactError> {
    fs::create_dir_all(dir).map_err(io_error(dir))?;
    let temp = dir.join(TEMP);
    if temp.exists() {
        fs::remove_file(&temp).map_err(io_error(&temp))?; // a checkpoint cut short
    }
    let cells = if options.mapped {
        let path = dir.join(STATE);
        // A killed run's state file holds the cells of its in-place seeding checkpoint (when
        // no layered checkpoint superseded it): kept, and checked against that checkpoint.
        let reused = regular_or_absent(&path)?
            && !regular_or_absent(&dir.join(FILE))?
            && seeded_in_place
            && fs::metadata(&path).map_err(io_error(&path))?.len() == 2 * n;
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(!reused)
            .open(&path)
            .map_err(io_error(&path))?;
        reserve(&file, 2 * n).map_err(|source| CompactError::Io {
            path: path.clone(),
            source: std::io::Error::new(
                source.kind(),
                format!(
                    "cannot reserve the {} bytes of the solver's state: {source}",
                    2 * n
                ),
            ),
        })?;
        let cells = MappedCells::open(&file, n as usize, options.resident_budget)
            .map_err(io_error(&path))?;
        Cells::Mapped {
            cells,
            path,
            reused,
            keep: false,
        }
    } else {
        Cells::heap(n as usize)
    };
    let path = dir.join(FILE);
    if !regular_or_absent(&path)? {
        return Ok(Resume::fresh(cells));
    }
    let snapshot = load(&path, n, options, &cells)?;
    Ok(Resume {
        cells,
        snapshot: Some(snapshot),
    })
}

/// Whether a file of the work folder is there: `false` when absent, `true` for a regular
/// file, an error for anything else (a FIFO would block the open, a device or a symbolic link
/// is not ours to read or replace).
pub(super) fn regular_or_absent(path: &Path) -> Result<bool, CompactError> {
    match fs::symlink_metadata(path) {
        Ok(m) if m.file_type().is_file() => Ok(true),
        Ok(_) => Err(bad(
            path,
            "not a regular file (a FIFO, a device, a directory or a symbolic link); remove it",
        )),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(false),
        Err(e) => Err(io_error(path)(e)),
    }
}

pub(super) fn bad(path: &Path, reason: impl Into<String>) -> CompactError {
    CompactError::Checkpoint {
        path: path.to_path_buf(),
        reason: reason.into(),
    }
}

fn load(
    path: &Path,
    n: u64,
    options: &CompactOptions,
    cells: &Cells,
) -> Result<Restored, CompactError> {
    let file = File::open(path).map_err(io_error(path))?;
    let len = file.metadata().map_err(io_error(path))?.len();
    let mut r = BufReader::with_capacity(1 << 20, file);
    let mut h = [0u8; HEADER];
    r.read_exact(&mut h)
        .map_err(|_| bad(path, "truncated checkpoint header"))?;
    let u64_at = |o: usize| u64::from_le_bytes(h[o..o + 8].try_into().expect("8 bytes"));
    let u32_at = |o: usize| u32::from_le_bytes(h[o..o + 4].try_into().expect("4 bytes"));
    if &h[..7] == b"ZMCKPT0" && &h[..8] != MAGIC {
        return Err(bad(
            path,
            "a checkpoint of another zermelo version; remove it to start over",
        ));
    }
    if &h[..8] != MAGIC {
        return Err(bad(path, "not a zermelo checkpoint (bad magic)"));
    }
    if u64_at(8) != options.fingerprint || u64_at(16) != n || u32_at(28) != mode_code(options) {
        return Err(bad(
            path,
            "the checkpoint belongs to another game or mode; remove it or use another work \
             folder",
        ));
    }
    let (layer, decided, spilled, crc) = (u32_at(24), u64_at(32), u64_at(40), u32_at(CRC_AT));
    let (pending_len, cells_bytes) = (u64_at(56), u64_at(CELLS_AT));
    let bitmap = n.div_ceil(64) * 8;
    let expected = (HEADER as u64)
        .checked_add(cells_bytes)
        .and_then(|b| b.checked_add(bitmap))
        .and_then(|b| b.checked_add(spilled.checked_mul(16)?))
        .and_then(|b| b.checked_add(pending_len.checked_mul(8)?));
    if expected != Some(len) {
        return Err(bad(
            path,
            format!("damaged: {len} bytes where the header declares {expected:?}"),
        ));
    }
    let mut hasher = crc32fast::Hasher::new();
    let mut raw = vec![0u8; 2 * FRAME];
    let mut frame = Vec::new();
    let mut left = cells_bytes; // no frame reads past the cells' bytes
    let mut decoder = zstd::bulk::Decompressor::new().map_err(io_error(path))?;
    for (k, block) in cells.slice().chunks(FRAME).enumerate() {
        let mut len = [0u8; 4];
        let flen = if left >= 4 {
            r.read_exact(&mut len).map_err(io_error(path))?;
            hasher.update(&len);
            left -= 4;
            u64::from(u32::from_le_bytes(len))
        } else {
            u64::MAX
        };
        if flen > left {
            return Err(bad(path, "damaged: the cells' frames overrun their bytes"));
        }
        frame.resize(flen as usize, 0);
        r.read_exact(&mut frame).map_err(io_error(path))?;
        hasher.update(&frame);
        left -= flen;
        let want = 2 * block.len();
        let decoded = decoder.decompress_to_buffer(&frame, &mut raw[..want]);
        if !matches!(decoded, Ok(got) if got == want) {
            // Damaged: the checksum says so when the bytes were changed after writing.
            std::io::copy(&mut r, &mut HashingSink(&mut hasher)).map_err(io_error(path))?;
            return Err(if hasher.finalize() != crc {
                bad(path, "damaged: checksum mismatch")
            } else {
                bad(path, "damaged: a frame of cells does not decode")
            });
        }
        for (c, b) in block.iter().zip(raw[..want].chunks_exact(2)) {
            c.store(u16::from_le_bytes([b[0], b[1]]), Relaxed);
        }
        cells.release_range(k * FRAME, block.len());
    }
    if left != 0 {
        return Err(bad(path, "damaged: bytes after the cells' frames"));
    }
    let mut read = |len: u64| -> Result<Vec<u8>, CompactError> {
        let mut v = vec![0u8; len as usize];
        r.read_exact(&mut v).map_err(io_error(path))?;
        hasher.update(&v);
        Ok(v)
    };
    let frontier = read(bitmap)?;
    let pairs = read(8 * pending_len)?;
    let entries = read(16 * spilled)?;
    if hasher.finalize() != crc {
        return Err(bad(path, "damaged: checksum mismatch"));
    }
    let spill = entries
        .chunks_exact(16)
        .map(|e| {
            let at = |o: usize| u64::from_le_bytes(e[o..o + 8].try_into().expect("8 bytes"));
            (at(0), at(8))
        })
        .collect();
    let u32_of = |b: &[u8]| u32::from_le_bytes(b.try_into().expect("4 bytes"));
    let pieces = n.div_ceil(1 << PIECE_BITS);
    let mut pending = Vec::with_capacity(pairs.len() / 8);
    for p in pairs.chunks_exact(8) {
        let (depth, piece) = (u32_of(&p[..4]), u32_of(&p[4..]));
        if depth < layer || u64::from(piece) >= pieces {
            return Err(bad(path, "damaged: a pending entry out of range"));
        }
        pending.push((depth, piece));
    }
    Ok(Restored {
        layer,
        decided,
        frontier,
        pending,
        spill,
    })
}

/// A checkpoint written and being synced behind the solver.
pub(super) struct Saving(JoinHandle<Result<(), CompactError>>);

impl Saving {
    /// Whether the checkpoint is synced and renamed (or failed): [`Saving::wait`] will not
    /// block.
    pub(super) fn is_done(&self) -> bool {
        self.0.is_finished()
    }

    /// Waits until the checkpoint is the work folder's (synced, renamed, the folder synced),
    /// or returns what kept it from being one.
    pub(super) fn wait(self) -> Result<(), CompactError> {
        self.0
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
    }
}

/// Writes a checkpoint to a temporary file (the cells compressed by the pool's threads) and
/// leaves its sync, its rename and the folder's sync to a thread of its own: the checkpoint is
/// the work folder's once [`Saving::wait`] returns. The caller waits for one before saving
/// the next.
pub(super) fn save(
    dir: &Path,
    options: &CompactOptions,
    s: &Snapshot<'_>,
) -> Result<Saving, CompactError> {
    let temp = dir.join(TEMP);
    let file = File::create(&temp).map_err(io_error(&temp))?;
    let mut w = BufWriter::with_capacity(1 << 20, file);
    let mut hasher = crc32fast::Hasher::new();
    let mut header = Vec::with_capacity(HEADER);
    header.extend_from_slice(MAGIC);
    header.extend_from_slice(&options.fingerprint.to_le_bytes());
    header.extend_from_slice(&(s.cells.slice().len() as u64).to_le_bytes());
    header.extend_from_slice(&s.layer.to_le_bytes());
    header.extend_from_slice(&mode_code(options).to_le_bytes());
    header.extend_from_slice(&s.decided.to_le_bytes());
    header.extend_from_slice(&(s.spill.len() as u64).to_le_bytes());
    header.extend_from_slice(&[0u8; 8]); // CRC-32 and padding, filled in at the end
    header.extend_from_slice(&(s.pending.len() as u64).to_le_bytes());
    header.extend_from_slice(&[0u8; 8]); // bytes of the compressed cells, filled in at the end
    w.write_all(&header).map_err(io_error(&temp))?;
    // A few frames per thread at a time: compressed side by side, written in order, and the
    // pages of a memory-mapped state released behind them.
    let batch = FRAME * 4 * rayon::current_num_threads().max(1);
    let mut cells_bytes = 0u64;
    for (k, chunk) in s.cells.slice().chunks(batch).enumerate() {
        let frames: Vec<std::io::Result<Vec<u8>>> = chunk
            .par_chunks(FRAME)
            .map(|block| {
                let raw: Vec<u8> = block
                    .iter()
                    .flat_map(|c| c.load(Relaxed).to_le_bytes())
                    .collect();
                zstd::bulk::compress(&raw, LEVEL)
            })
            .collect();
        for frame in frames {
            let frame = frame.map_err(io_error(&temp))?;
            let len = (frame.len() as u32).to_le_bytes();
            hasher.update(&len);
            hasher.update(&frame);
            w.write_all(&len).map_err(io_error(&temp))?;
            w.write_all(&frame).map_err(io_error(&temp))?;
            cells_bytes += 4 + frame.len() as u64;
        }
        s.cells.release_range(k * batch, chunk.len());
    }
    let mut rest =
        Vec::with_capacity(s.frontier.byte_len() + 8 * s.pending.len() + 16 * s.spill.len());
    s.frontier.snapshot_into(&mut rest);
    for (depth, piece) in &s.pending {
        rest.extend_from_slice(&depth.to_le_bytes());
        rest.extend_from_slice(&piece.to_le_bytes());
    }
    let mut spill: Vec<_> = s.spill.iter().collect();
    spill.sort_unstable();
    for (i, c) in spill {
        rest.extend_from_slice(&i.to_le_bytes());
        rest.extend_from_slice(&c.to_le_bytes());
    }
    hasher.update(&rest);
    w.write_all(&rest).map_err(io_error(&temp))?;
    let mut file = w
        .into_inner()
        .map_err(|e| io_error(&temp)(e.into_error()))?;
    file.seek(SeekFrom::Start(CRC_AT as u64))
        .map_err(io_error(&temp))?;
    file.write_all(&hasher.finalize().to_le_bytes())
        .map_err(io_error(&temp))?;
    file.seek(SeekFrom::Start(CELLS_AT as u64))
        .map_err(io_error(&temp))?;
    file.write_all(&cells_bytes.to_le_bytes())
        .map_err(io_error(&temp))?;
    let dir: PathBuf = dir.to_path_buf();
    Ok(Saving(std::thread::spawn(move || {
        file.sync_all().map_err(io_error(&temp))?;
        drop(file);
        let path = dir.join(FILE);
        fs::rename(&temp, &path).map_err(io_error(&path))?;
        sync_dir(&dir)
    })))
}

/// The run is over: its checkpoint is no longer needed.
pub(super) fn finished(dir: &Path) -> Result<(), CompactError> {
    let path = dir.join(FILE);
    match fs::remove_file(&path) {
        Ok(()) => sync_dir(dir),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(io_error(&path)(e)),
    }
}

/// A writer that only hashes what it is given (the rest of a damaged checkpoint, to tell a
/// changed byte from a frame written wrong).
struct HashingSink<'a>(&'a mut crc32fast::Hasher);

impl Write for HashingSink<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.update(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

pub(super) fn sync_dir(dir: &Path) -> Result<(), CompactError> {
    File::open(dir)
        .and_then(|d| d.sync_all())
        .map_err(io_error(dir))
}
