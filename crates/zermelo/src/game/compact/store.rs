//! Where the engine keeps its state: the `u16` cells (on the heap or in a memory-mapped file)
//! and bitmaps of one bit per index.

use std::path::PathBuf;
use std::sync::atomic::{AtomicU16, AtomicU64, Ordering::Relaxed};

use crate::io::mapped::MappedCells;

/// Indices per piece of the pending lists (`index >> PIECE_BITS`): the engine lists the exits
/// waiting for their layer by piece, and a checkpoint stores those lists.
pub(super) const PIECE_BITS: u32 = 14;

/// One `u16` cell per index, on the heap or in a file (removed when the cells are dropped:
/// a finished or failed run leaves only its checkpoint behind, unless the file backs a
/// seeding checkpoint: see `keep`).
pub(super) enum Cells {
    Heap(Vec<AtomicU16>),
    Mapped {
        cells: MappedCells,
        path: PathBuf,
        /// The file was kept from a killed run (its in-place seeding checkpoint's cells are in
        /// it), not made afresh.
        reused: bool,
        /// The file holds a seeding checkpoint's cells: it outlives this run's failure (a full
        /// disk, a dependency refused), so that the next run resumes from it.
        keep: bool,
    },
}

impl Drop for Cells {
    fn drop(&mut self) {
        if let Cells::Mapped {
            path, keep: false, ..
        } = self
        {
            let _ = std::fs::remove_file(path); // scratch; nothing to do if it is gone
        }
    }
}

impl Cells {
    /// `n` zeroed cells on the heap.
    pub(super) fn heap(n: usize) -> Cells {
        let mut v = Vec::with_capacity(n);
        v.resize_with(n, || AtomicU16::new(0));
        Cells::Heap(v)
    }

    /// Whether the cells are the work folder's state file (mapped).
    pub(super) fn is_mapped(&self) -> bool {
        matches!(self, Cells::Mapped { .. })
    }

    /// Whether the mapped state file was kept from a killed run.
    pub(super) fn reused(&self) -> bool {
        matches!(self, Cells::Mapped { reused: true, .. })
    }

    /// Whether the state file outlives a failed run (it backs a seeding checkpoint).
    pub(super) fn set_keep(&mut self, keep_file: bool) {
        if let Cells::Mapped { keep, .. } = self {
            *keep = keep_file;
        }
    }

    /// Writes mapped cells `first..first + count` to the disk and waits (nothing on the heap).
    pub(super) fn flush_range(&self, first: u64, count: u64) -> std::io::Result<()> {
        match self {
            Cells::Heap(_) => Ok(()),
            Cells::Mapped { cells, .. } => cells.flush_range(first as usize, count as usize),
        }
    }

    /// The state file of mapped cells.
    pub(super) fn path(&self) -> Option<&std::path::Path> {
        match self {
            Cells::Heap(_) => None,
            Cells::Mapped { path, .. } => Some(path),
        }
    }

    /// How many times the pages of a mapped state were taken out of the resident set to keep
    /// it under its budget.
    pub(super) fn releases(&self) -> u64 {
        match self {
            Cells::Heap(_) => 0,
            Cells::Mapped { cells, .. } => cells.releases(),
        }
    }

    /// Lets the pages of cells `first..first + count` of a mapped state with a resident
    /// budget leave the resident set (see `MappedCells::release_range`); nothing otherwise.
    pub(super) fn release_range(&self, first: usize, count: usize) {
        if let Cells::Mapped { cells, .. } = self {
            cells.release_range(first, count);
        }
    }

    /// Counts cells touched at random places (see `MappedCells::touched`); nothing on the heap.
    #[inline]
    pub(super) fn touched(&self, cells: u64) {
        if let Cells::Mapped { cells: m, .. } = self {
            m.touched(cells);
        }
    }

    #[inline]
    pub(super) fn slice(&self) -> &[AtomicU16] {
        match self {
            Cells::Heap(v) => v,
            Cells::Mapped { cells, .. } => cells.cells(),
        }
    }
}

/// A set of indices, one bit each, updated atomically.
pub(super) struct Bits {
    words: Vec<AtomicU64>,
}

impl Bits {
    pub(super) fn new(n: u64) -> Bits {
        let mut words = Vec::with_capacity(n.div_ceil(64) as usize);
        words.resize_with(n.div_ceil(64) as usize, || AtomicU64::new(0));
        Bits { words }
    }

    /// Adds `i`; true if it was not there.
    #[inline]
    pub(super) fn insert(&self, i: u64) -> bool {
        let bit = 1u64 << (i % 64);
        self.words[(i / 64) as usize].fetch_or(bit, Relaxed) & bit == 0
    }

    pub(super) fn words(&self) -> &[AtomicU64] {
        &self.words
    }

    /// The words as plain integers (for checkpoints).
    pub(super) fn snapshot_into(&self, out: &mut Vec<u8>) {
        for w in &self.words {
            out.extend_from_slice(&w.load(Relaxed).to_le_bytes());
        }
    }

    /// Loads words written by [`Bits::snapshot_into`]; `bytes` has exactly 8 per word.
    pub(super) fn restore(&self, bytes: &[u8]) {
        for (w, b) in self.words.iter().zip(bytes.chunks_exact(8)) {
            w.store(u64::from_le_bytes(b.try_into().expect("8 bytes")), Relaxed);
        }
    }

    pub(super) fn byte_len(&self) -> usize {
        self.words.len() * 8
    }
}
