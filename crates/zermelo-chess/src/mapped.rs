//! Memory-mapped table files — the only `unsafe` code in zermelo-chess.
#![allow(unsafe_code)]

use std::fs::File;
use std::io;

use memmap2::Mmap;

/// A read-only memory mapping of a whole file.
pub(crate) struct Mapping {
    map: Mmap,
}

impl Mapping {
    /// Maps `file` read-only.
    pub(crate) fn open(file: &File) -> io::Result<Mapping> {
        // SAFETY: the mapping is read-only and zermelo never writes a table while it is mapped
        // (tables are replaced by rename, which leaves the mapped inode intact). Another process
        // truncating the file could raise SIGBUS; that is the documented contract of
        // memory-mapped tables, and every index read is bounds-checked.
        let map = unsafe { Mmap::map(file)? };
        Ok(Mapping { map })
    }

    /// The file's bytes.
    #[inline]
    pub(crate) fn bytes(&self) -> &[u8] {
        &self.map
    }
}
