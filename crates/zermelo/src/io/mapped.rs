//! [`Mapping`]: a read-only memory-mapped file — the only `unsafe` code in zermelo.
//!
//! Mapping is an opt-in of the caller: [`Mapping::new`] is an `unsafe fn` whose contract (the
//! file does not change while mapped) only the caller can keep, as with ripgrep's
//! `MmapChoice::auto`. zermelo-chess maps its tables through it.
#![allow(unsafe_code)]

use std::fs::File;
use std::io;

use memmap2::{Mmap, MmapOptions};

/// A read-only memory mapping of a whole file.
pub struct Mapping {
    map: Mmap,
}

impl Mapping {
    /// Maps `file` read-only. With `populate`, the kernel reads the whole file in ahead, which
    /// is much faster than faulting pages in one by one when the whole file is used; without
    /// it, only the pages touched are read (random access into a large file).
    ///
    /// # Safety
    ///
    /// The file must not be modified or truncated (by this or another process) while the
    /// mapping lives: a change would alter bytes already checked, and a truncation raises
    /// SIGBUS. Replacing the file by renaming another over it is fine.
    pub unsafe fn new(file: &File, populate: bool) -> io::Result<Mapping> {
        let mut options = MmapOptions::new();
        if populate {
            options.populate();
        }
        // SAFETY: forwarded to the caller (see above). Every value read from the mapping is
        // still bounds-checked before use.
        let map = unsafe { options.map(file)? };
        Ok(Mapping { map })
    }

    /// Maps `file` read-only and populated, for zermelo's own input files.
    pub(crate) fn open(file: &File) -> io::Result<Mapping> {
        // SAFETY: zermelo never writes an input file while it is mapped; another process
        // doing so is outside the documented contract of memory-mapped input (see
        // docs/formats.md).
        unsafe { Mapping::new(file, true) }
    }

    /// The file's bytes.
    #[inline]
    pub fn bytes(&self) -> &[u8] {
        &self.map
    }
}
