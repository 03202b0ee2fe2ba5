//! Memory-mapped input files — the only `unsafe` code in zermelo.
#![allow(unsafe_code)]

use std::fs::File;
use std::io;

use memmap2::{Mmap, MmapOptions};

/// A whole file, read-only: memory-mapped, or read into an 8-byte-aligned heap buffer (so the
/// same typed columns can borrow from either).
pub(crate) enum Mapping {
    /// Mapped (page-aligned).
    Mapped(Mmap),
    /// Read into memory: `len` bytes at the start of `words`.
    Read {
        /// The bytes, in `u64` words for alignment.
        words: Vec<u64>,
        /// The file's length in bytes.
        len: usize,
    },
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
        Ok(Mapping::Mapped(map))
    }

    /// Reads `file` whole into memory (no mapping: the file may change afterwards).
    pub(crate) fn read(file: &File) -> io::Result<Mapping> {
        use std::io::Read;
        let len = usize::try_from(file.metadata()?.len())
            .map_err(|_| io::Error::other("file too large for this machine"))?;
        let mut words = vec![0u64; len.div_ceil(8)];
        let bytes: &mut [u8] = bytemuck::cast_slice_mut(&mut words);
        let mut reader = file;
        reader.read_exact(&mut bytes[..len])?;
        Ok(Mapping::Read { words, len })
    }

    /// A copy of `bytes` in aligned storage.
    pub(crate) fn copied(bytes: &[u8]) -> Mapping {
        let mut words = vec![0u64; bytes.len().div_ceil(8)];
        bytemuck::cast_slice_mut::<u64, u8>(&mut words)[..bytes.len()].copy_from_slice(bytes);
        Mapping::Read {
            words,
            len: bytes.len(),
        }
    }

    /// The file's bytes.
    #[inline]
    pub(crate) fn bytes(&self) -> &[u8] {
        match self {
            Mapping::Mapped(map) => map,
            Mapping::Read { words, len } => &bytemuck::cast_slice(words)[..*len],
        }
    }
}
