//! Memory-mapped input files — the only `unsafe` code in zermelo.
#![allow(unsafe_code)]

use std::fs::File;
use std::io;

use memmap2::{Mmap, MmapOptions};

/// A read-only memory mapping of a whole file.
pub(crate) struct Mapping {
    map: Mmap,
}

impl Mapping {
    /// Maps `file` read-only, asking the kernel to read it in ahead (`populate`), which is much
    /// faster than faulting pages in one by one when the whole file is used.
    pub(crate) fn open(file: &File) -> io::Result<Mapping> {
        // SAFETY: the mapping is read-only and zermelo never writes the file while it is mapped.
        // Another process truncating or rewriting it meanwhile could change what we read (or
        // raise SIGBUS on truncation); that is the documented contract of memory-mapped input
        // (see docs/formats.md), and every value read is still bounds-checked before use.
        let map = unsafe { MmapOptions::new().populate().map(file)? };
        Ok(Mapping { map })
    }

    /// The file's bytes.
    #[inline]
    pub(crate) fn bytes(&self) -> &[u8] {
        &self.map
    }
}
