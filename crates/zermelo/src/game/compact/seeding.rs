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

use std::collections::HashMap;
use std::fs::{self, File, OpenOptions};
use std::io::{Read, Write};
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU16, Ordering::Relaxed};

use super::checkpoint::{bad, io_error, mode_code, regular_or_absent, sync_dir};
use super::{CompactError, CompactOptions};

const MAGIC: &[u8; 8] = b"ZMSEED01";
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
    /// Indices whose cells are in `seed.cells`.
    pub(super) saved: u64,
    crc: crc32fast::Hasher,
}

impl SeedLog {
    /// A log that has saved nothing yet.
    pub(super) fn new(dir: &Path) -> SeedLog {
        SeedLog {
            dir: dir.to_path_buf(),
            saved: 0,
            crc: crc32fast::Hasher::new(),
        }
    }

    /// Loads a seeding checkpoint into `cells` if there is one: returns the log (with how
    /// many indices are seeded) and the spilled counters.
    pub(super) fn open(
        dir: &Path,
        n: u64,
        options: &CompactOptions,
        cells: &[AtomicU16],
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
        if h.len() < FIXED + 4 || &h[..8] != MAGIC {
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
        let mut crc = crc32fast::Hasher::new();
        let mut buf = vec![0u8; 1 << 17];
        for block in cells[..seeded as usize].chunks(buf.len() / 2) {
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
        let log = SeedLog {
            dir: dir.to_path_buf(),
            saved: seeded,
            crc,
        };
        Ok(Some((log, spill)))
    }

    /// Appends the cells seeded since the last save (`cells[saved..seeded]`) and records
    /// `seeded` with the spilled counters.
    pub(super) fn save(
        &mut self,
        options: &CompactOptions,
        cells: &[AtomicU16],
        seeded: u64,
        spill: &HashMap<u64, u64>,
    ) -> Result<(), CompactError> {
        let data = self.dir.join(CELLS);
        let file = OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(false)
            .open(&data)
            .map_err(io_error(&data))?;
        let mut buf = Vec::with_capacity(1 << 17);
        let mut at = 2 * self.saved;
        for block in cells[self.saved as usize..seeded as usize].chunks(1 << 16) {
            buf.clear();
            buf.extend(block.iter().flat_map(|c| c.load(Relaxed).to_le_bytes()));
            self.crc.update(&buf);
            file.write_all_at(&buf, at).map_err(io_error(&data))?;
            at += buf.len() as u64;
        }
        file.sync_data().map_err(io_error(&data))?;
        let mut h = Vec::with_capacity(FIXED + 4 + 16 * spill.len());
        h.extend_from_slice(MAGIC);
        h.extend_from_slice(&options.fingerprint.to_le_bytes());
        h.extend_from_slice(&(cells.len() as u64).to_le_bytes());
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
