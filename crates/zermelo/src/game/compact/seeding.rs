//! Checkpoints during seeding: seeding asks the game about every index (for a chess table,
//! every move and every exit probed), often most of a run, so a run killed in it must not
//! start over.
//!
//! Seeding goes through the indices in order, and what it has done for an index prefix is
//! entirely in the cells of that prefix (plus the spilled counters): a terminal's cell is a
//! WIN or LOSE of depth 0 (frontier of layer 0), an exit decided at seeding a WIN or LOSE of
//! depth >= 1 (pending at its depth), so the frontier, the pending lists and the decided count
//! are derived again from the cells. The cells are therefore *appended*: each checkpoint adds
//! the cells seeded since the last one to `seed.cells` (synced), then replaces the small
//! header `seed.zck` (temporary file, sync, rename): magic `ZMSEED01`, fingerprint, index
//! count, counter mode, indices seeded, CRC-32 of their cells, spilled counters (count, then
//! `(u64 index, u64 count)` each), CRC-32 of the header. A run of `n` indices writes `2n` bytes
//! however many checkpoints it takes, and a kill at any moment leaves a header that its cells
//! back (a tail past the header's count is ignored). Both files go once the first layered
//! checkpoint exists, or the run ends.
//!
//! When the cells are the work folder's state file (a mapped state, out of core), they are not
//! copied: the checkpoint is taken *in place*. The prefix's pages are written to the disk
//! (`msync`), and the header (magic `ZMSEEDIP`, the same fields) says that its cells are the
//! state file's: the next run keeps that file (it would truncate it otherwise), checks the
//! prefix's CRC-32 there and clears the cells past it (what the killed run seeded after its
//! last checkpoint). A run of `n` indices then writes no cell twice: 2 bytes per index less
//! disk and writes (6 GB for KQQvKRR). The state file outlives a failed run while it backs
//! such a checkpoint, and the first layered checkpoint is waited for before the first layer
//! changes a cell (a layer changes the prefix the header describes).

use std::collections::HashMap;
use std::fs::{self, File, OpenOptions};
use std::io::{Read, Write};
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering::Relaxed;

use rayon::prelude::*;

use super::checkpoint::{bad, io_error, mode_code, regular_or_absent, sync_dir};
use super::store::Cells;
use super::{CompactError, CompactOptions};

const MAGIC: &[u8; 8] = b"ZMSEED01";
/// The same header, its cells in the state file (in place).
const MAGIC_IN_PLACE: &[u8; 8] = b"ZMSEEDIP";
/// Cells checked or cleared at a time in the state file (its pages then let go).
const STRETCH: usize = 1 << 20;
const HEADER: &str = "seed.zck";
const TEMP: &str = "seed.zck.tmp";
const CELLS: &str = "seed.cells";
/// Header bytes before the spilled counters.
const FIXED: usize = 8 + 8 + 8 + 4 + 8 + 4 + 8;

/// Spilled counters: index -> moves left.
pub(super) type Spill = HashMap<u64, u64>;

/// The seeding log of a run: how far it is on disk, and the running CRC of those cells.
pub(super) struct SeedLog {
    dir: PathBuf,
    /// Indices whose cells are on disk (in `seed.cells`, or in place in the state file).
    pub(super) saved: u64,
    crc: crc32fast::Hasher,
    /// The cells are the state file's (mapped): checkpoints are taken in place.
    in_place: bool,
    /// With `in_place`: the indices whose cells are known to be on the disk.
    flushed: u64,
}

/// Whether the work folder's seeding checkpoint (if any) keeps its cells in the state file.
pub(super) fn in_place(dir: &Path) -> Result<bool, CompactError> {
    let path = dir.join(HEADER);
    if !regular_or_absent(&path)? {
        return Ok(false);
    }
    let mut magic = [0u8; 8];
    let read = File::open(&path).and_then(|mut f| f.read_exact(&mut magic));
    Ok(read.is_ok() && &magic == MAGIC_IN_PLACE)
}

impl SeedLog {
    /// A log that has saved nothing yet (in place when `cells` are mapped).
    pub(super) fn new(dir: &Path, cells: &Cells) -> SeedLog {
        SeedLog {
            dir: dir.to_path_buf(),
            saved: 0,
            crc: crc32fast::Hasher::new(),
            in_place: cells.is_mapped(),
            flushed: 0,
        }
    }

    /// Whether this log's checkpoints are the state file's cells.
    pub(super) fn is_in_place(&self) -> bool {
        self.in_place
    }

    /// Loads a seeding checkpoint into `cells` if there is one (for one taken in place, checks
    /// it in the state file and clears the cells past it): returns the log (with how many
    /// indices are seeded) and the spilled counters. One taken in place whose state file is
    /// not this run's (made afresh, or the cells are on the heap now) is removed: the seeding
    /// starts over.
    pub(super) fn open(
        dir: &Path,
        n: u64,
        options: &CompactOptions,
        cells: &Cells,
    ) -> Result<Option<(SeedLog, Spill)>, CompactError> {
        let path = dir.join(HEADER);
        if !regular_or_absent(&path)? {
            return Ok(None);
        }
        let data = dir.join(CELLS);
        regular_or_absent(&data)?;
        let most = FIXED as u64 + 4 + 16 * n;
        let len = fs::metadata(&path).map_err(io_error(&path))?.len();
        if len > most {
            return Err(bad(&path, format!("damaged: {len} bytes")));
        }
        let h = fs::read(&path).map_err(io_error(&path))?;
        let in_place = h.len() >= 8 && &h[..8] == MAGIC_IN_PLACE;
        if h.len() < FIXED + 4 || (&h[..8] != MAGIC && !in_place) {
            return Err(bad(&path, "not a zermelo seeding checkpoint"));
        }
        let end = h.len() - 4;
        if crc32fast::hash(&h[..end]) != u32::from_le_bytes(h[end..].try_into().expect("4")) {
            return Err(bad(&path, "damaged: checksum mismatch"));
        }
        let u64_at = |o: usize| u64::from_le_bytes(h[o..o + 8].try_into().expect("8 bytes"));
        let u32_at = |o: usize| u32::from_le_bytes(h[o..o + 4].try_into().expect("4 bytes"));
        if u64_at(8) != options.fingerprint || u64_at(16) != n || u32_at(24) != mode_code(options) {
            return Err(bad(
                &path,
                "the checkpoint belongs to another game or mode; remove it or use another work \
                 folder",
            ));
        }
        let (seeded, cells_crc, spilled) = (u64_at(28), u32_at(36), u64_at(40));
        if seeded > n || spilled > n || end != FIXED + 16 * spilled as usize {
            return Err(bad(&path, "damaged: counts out of range"));
        }
        let spill = h[FIXED..end]
            .chunks_exact(16)
            .map(|e| {
                let at = |o: usize| u64::from_le_bytes(e[o..o + 8].try_into().expect("8"));
                (at(0), at(8))
            })
            .collect();
        let slice = cells.slice();
        let mut crc = crc32fast::Hasher::new();
        if in_place {
            if !cells.reused() {
                discard(dir)?;
                if !cells.is_mapped() {
                    let state = dir.join(super::checkpoint::STATE);
                    match fs::remove_file(&state) {
                        Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                            return Err(io_error(&state)(e))
                        }
                        _ => {}
                    }
                }
                return Ok(None);
            }
            let state = cells.path().unwrap_or(&path).to_path_buf();
            let mut buf = Vec::with_capacity(2 * STRETCH);
            for (k, block) in slice[..seeded as usize].chunks(STRETCH).enumerate() {
                buf.clear();
                buf.extend(block.iter().flat_map(|c| c.load(Relaxed).to_le_bytes()));
                crc.update(&buf);
                cells.release_range(k * STRETCH, block.len());
            }
            if crc.clone().finalize() != cells_crc {
                return Err(bad(&state, "damaged: checksum mismatch"));
            }
            // What the killed run seeded past its checkpoint is seeded again from zero.
            slice[seeded as usize..]
                .par_chunks(STRETCH)
                .enumerate()
                .for_each(|(k, block)| {
                    for c in block {
                        if c.load(Relaxed) != 0 {
                            c.store(0, Relaxed);
                        }
                    }
                    cells.release_range(seeded as usize + k * STRETCH, block.len());
                });
        } else {
            let mut file = File::open(&data).map_err(io_error(&data))?;
            let have = file.metadata().map_err(io_error(&data))?.len();
            if have < 2 * seeded {
                return Err(bad(
                    &data,
                    format!(
                        "damaged: {have} bytes, the seeding checkpoint needs {}",
                        2 * seeded
                    ),
                ));
            }
            let mut buf = vec![0u8; 1 << 17];
            for block in slice[..seeded as usize].chunks(buf.len() / 2) {
                let bytes = &mut buf[..2 * block.len()];
                file.read_exact(bytes).map_err(io_error(&data))?;
                crc.update(bytes);
                for (c, b) in block.iter().zip(bytes.chunks_exact(2)) {
                    c.store(u16::from_le_bytes([b[0], b[1]]), Relaxed);
                }
            }
            if crc.clone().finalize() != cells_crc {
                return Err(bad(&data, "damaged: checksum mismatch"));
            }
        }
        let log = SeedLog {
            dir: dir.to_path_buf(),
            saved: seeded,
            crc,
            in_place: cells.is_mapped(),
            // Cells copied from `seed.cells` into a state file are not on its disk yet.
            flushed: if in_place { seeded } else { 0 },
        };
        Ok(Some((log, spill)))
    }

    /// Records the cells seeded since the last save (`cells[saved..seeded]`), appended to
    /// `seed.cells` or written in place, and `seeded` with the spilled counters.
    pub(super) fn save(
        &mut self,
        options: &CompactOptions,
        cells: &Cells,
        seeded: u64,
        spill: &HashMap<u64, u64>,
    ) -> Result<(), CompactError> {
        let slice = cells.slice();
        let data = self.dir.join(CELLS);
        if self.in_place {
            let mut buf = Vec::with_capacity(2 * STRETCH);
            for block in slice[self.saved as usize..seeded as usize].chunks(STRETCH) {
                buf.clear();
                buf.extend(block.iter().flat_map(|c| c.load(Relaxed).to_le_bytes()));
                self.crc.update(&buf);
            }
            let state = cells.path().unwrap_or(&data).to_path_buf();
            cells
                .flush_range(self.flushed, seeded - self.flushed)
                .map_err(io_error(&state))?;
            self.flushed = seeded;
        } else {
            let file = OpenOptions::new()
                .write(true)
                .create(true)
                .truncate(false)
                .open(&data)
                .map_err(io_error(&data))?;
            let mut buf = Vec::with_capacity(1 << 17);
            let mut at = 2 * self.saved;
            for block in slice[self.saved as usize..seeded as usize].chunks(1 << 16) {
                buf.clear();
                buf.extend(block.iter().flat_map(|c| c.load(Relaxed).to_le_bytes()));
                self.crc.update(&buf);
                file.write_all_at(&buf, at).map_err(io_error(&data))?;
                at += buf.len() as u64;
            }
            file.sync_data().map_err(io_error(&data))?;
        }
        let mut h = Vec::with_capacity(FIXED + 4 + 16 * spill.len());
        h.extend_from_slice(if self.in_place { MAGIC_IN_PLACE } else { MAGIC });
        h.extend_from_slice(&options.fingerprint.to_le_bytes());
        h.extend_from_slice(&(slice.len() as u64).to_le_bytes());
        h.extend_from_slice(&mode_code(options).to_le_bytes());
        h.extend_from_slice(&seeded.to_le_bytes());
        h.extend_from_slice(&self.crc.clone().finalize().to_le_bytes());
        h.extend_from_slice(&(spill.len() as u64).to_le_bytes());
        let mut entries: Vec<_> = spill.iter().collect();
        entries.sort_unstable();
        for (i, c) in entries {
            h.extend_from_slice(&i.to_le_bytes());
            h.extend_from_slice(&c.to_le_bytes());
        }
        h.extend_from_slice(&crc32fast::hash(&h).to_le_bytes());
        let temp = self.dir.join(TEMP);
        let mut f = File::create(&temp).map_err(io_error(&temp))?;
        f.write_all(&h).map_err(io_error(&temp))?;
        f.sync_all().map_err(io_error(&temp))?;
        drop(f);
        let path = self.dir.join(HEADER);
        fs::rename(&temp, &path).map_err(io_error(&path))?;
        sync_dir(&self.dir)?;
        if self.in_place {
            // Cells a checkpoint of an earlier run had copied are in the state file now.
            match fs::remove_file(&data) {
                Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                    return Err(io_error(&data)(e))
                }
                _ => {}
            }
        }
        self.saved = seeded;
        Ok(())
    }
}

/// Removes a seeding checkpoint (a layered checkpoint supersedes it, or the run is over).
pub(super) fn discard(dir: &Path) -> Result<(), CompactError> {
    for name in [HEADER, TEMP, CELLS] {
        let path = dir.join(name);
        match fs::remove_file(&path) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(io_error(&path)(e)),
        }
    }
    Ok(())
}
