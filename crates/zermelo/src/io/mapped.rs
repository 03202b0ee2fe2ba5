//! [`Mapping`]: a read-only memory-mapped file (or the file read into aligned memory), and the
//! compact engine's writable cells — with `prefetch.rs`, the only `unsafe` code in zermelo.
//!
//! Mapping is an opt-in of the caller: [`Mapping::new`] is an `unsafe fn` whose contract (the
//! file does not change while mapped) only the caller can keep, as with ripgrep's
//! `MmapChoice::auto`. zermelo-chess maps its tables through it.
#![allow(unsafe_code)]

use std::fs::File;
use std::io;
use std::sync::atomic::{AtomicBool, AtomicU16, AtomicU64, Ordering::Relaxed};
use std::sync::Arc;

use memmap2::{Mmap, MmapOptions};

/// A whole file, read-only: memory-mapped, or read into an 8-byte-aligned heap buffer (so the
/// same typed columns can borrow from either).
pub enum Mapping {
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
        Ok(Mapping::Mapped(map))
    }

    /// Lets the kernel take a mapped file's pages out of this process's resident set: they
    /// stay in the page cache and fault back in when read again. For a long run that reads
    /// large files piece by piece (a table generation reading its smaller tables), so that
    /// pages it is done with do not count as its memory. A copy in memory is left as it is.
    pub fn release(&self) {
        if let Mapping::Mapped(map) = self {
            // SAFETY: a shared read-only file mapping: after MADV_DONTNEED a read faults the
            // same bytes back in from the file, which the contract of `new` keeps unchanged.
            // The advice is only a hint: an error changes nothing.
            let _ = unsafe { map.unchecked_advise(memmap2::UncheckedAdvice::DontNeed) };
        }
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
        match self {
            Mapping::Mapped(map) => map,
            Mapping::Read { words, len } => &bytemuck::cast_slice(words)[..*len],
        }
    }
}

/// A writable shared mapping of a file of `u16` cells, seen as atomics (the compact engine's
/// state when it lives on disk: the kernel pages it in and out).
pub(crate) struct MappedCells {
    map: Arc<memmap2::MmapMut>,
    len: usize,
    /// The resident budget in pages, and the cells touched at random since the last release.
    budget_pages: u64,
    touched: AtomicU64,
    /// Keeps the mapping's resident pages under a budget while it lives (stopped first on drop).
    guard: Option<ResidencyGuard>,
}

impl MappedCells {
    /// Maps `file`, which must hold at least `len` cells (`2 * len` bytes), read-write. With
    /// `budget`, a thread watches this process's resident file pages and lets the kernel take
    /// the cells' pages out of the resident set whenever they exceed `budget` bytes (see
    /// [`ResidencyGuard`]).
    pub(crate) fn open(file: &File, len: usize, budget: Option<u64>) -> io::Result<MappedCells> {
        let bytes = len
            .checked_mul(2)
            .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "too many cells"))?;
        if (file.metadata()?.len() as usize) < bytes {
            return Err(io::Error::new(
                io::ErrorKind::UnexpectedEof,
                "the state file is shorter than its cells",
            ));
        }
        // SAFETY: the file is zermelo's own scratch file in its work folder, created and sized
        // by the engine and not truncated while mapped; every access to it goes through the
        // atomics of `cells`, so concurrent writes from our threads are not data races. Another
        // process writing it would corrupt the result (not memory safety of this process,
        // except SIGBUS on truncation, the documented contract of a work folder).
        let map = Arc::new(unsafe { MmapOptions::new().len(bytes).map_mut(file)? });
        if budget.is_some() {
            // A fault maps one page, not its neighbours as well ("fault-around", 16 pages on
            // Linux): a counter touched at random then brings in one page, which is what the
            // budget counts (`touched`). Only a hint: an error changes nothing.
            let _ = map.advise(memmap2::Advice::Random);
        }
        let guard = budget.map(|b| ResidencyGuard::start(Arc::clone(&map), b));
        Ok(MappedCells {
            map,
            len,
            budget_pages: budget.map_or(u64::MAX, |b| (b / 4096).max(1)),
            touched: AtomicU64::new(0),
            guard,
        })
    }

    /// The cells.
    #[inline]
    pub(crate) fn cells(&self) -> &[AtomicU16] {
        let ptr = self.map.as_ptr();
        debug_assert!(ptr.align_offset(std::mem::align_of::<AtomicU16>()) == 0);
        // SAFETY: a mapping starts on a page boundary, so `ptr` is aligned for `AtomicU16`
        // (asserted above); it holds `2 * len` bytes; `AtomicU16` has the size and alignment of
        // `u16` and every bit pattern is valid. The slice borrows `self`, so the mapping
        // outlives it, and all mutation goes through the atomics (interior mutability).
        unsafe { std::slice::from_raw_parts(ptr.cast::<AtomicU16>(), self.len) }
    }

    /// With a budget, lets the kernel take the pages of cells `first..first + count` out of
    /// the resident set (whole pages only, the one holding the range's end kept: a caller
    /// going through the cells in order releases what it is done with, faster than the guard
    /// sees it). Without a budget, nothing: a mapped state without one is left to the kernel.
    pub(crate) fn release_range(&self, first: usize, count: usize) {
        if self.guard.is_none() {
            return;
        }
        const PAGE: usize = 4096;
        let start = (2 * first.min(self.len)) / PAGE * PAGE;
        let end = if first.saturating_add(count) >= self.len {
            self.map.len()
        } else {
            2 * (first + count) / PAGE * PAGE
        };
        if end > start {
            // SAFETY: as in `release_mut`: a shared file mapping keeps its data.
            let _ = unsafe {
                self.map.unchecked_advise_range(
                    memmap2::UncheckedAdvice::DontNeed,
                    start,
                    end - start,
                )
            };
        }
    }

    /// Counts `cells` cells read or written at random places (a predecessor's counter, a
    /// successor's value): once as many as the budget has pages have been touched since the
    /// last release, releases the whole mapping. Each touch brings at most one page in, so
    /// the resident pages stay within the budget however fast the threads go, where the
    /// guard's thread only looks every millisecond. Without a budget, nothing.
    #[inline]
    pub(crate) fn touched(&self, cells: u64) {
        if self.guard.is_none() || cells == 0 {
            return;
        }
        if self.touched.fetch_add(cells, Relaxed) + cells >= self.budget_pages
            && self.touched.swap(0, Relaxed) >= self.budget_pages
        {
            release_mut(&self.map);
            if let Some(g) = &self.guard {
                g.releases.fetch_add(1, Relaxed);
            }
        }
    }

    /// Writes the cells `first..first + count` to the file and waits for the disk (`msync`
    /// of their pages: the file's dirty pages in that range, resident or not).
    pub(crate) fn flush_range(&self, first: usize, count: usize) -> io::Result<()> {
        let start = 2 * first.min(self.len);
        let end = 2 * first.saturating_add(count).min(self.len);
        if end > start {
            self.map.flush_range(start, end - start)?;
        }
        Ok(())
    }

    /// How many times the guard has released the cells' pages (0 without a guard).
    pub(crate) fn releases(&self) -> u64 {
        self.guard.as_ref().map_or(0, |g| g.releases.load(Relaxed))
    }
}

impl Drop for MappedCells {
    fn drop(&mut self) {
        drop(self.guard.take()); // joins the thread before the mapping goes
    }
}

/// Lets the kernel take a writable shared mapping's pages out of this process's resident set.
fn release_mut(map: &memmap2::MmapMut) {
    // SAFETY: a shared file mapping: MADV_DONTNEED drops this process's page table entries,
    // not the data; the pages (dirty ones included) stay in the page cache until written
    // back, and an access faults the same bytes in again (Linux madvise(2): "repopulating the
    // memory contents from the up-to-date contents of the underlying mapped file"). A thread
    // touching a cell meanwhile writes into the page cache's page either way. Only a hint: an
    // error changes nothing.
    let _ = unsafe { map.unchecked_advise(memmap2::UncheckedAdvice::DontNeed) };
}

/// How often the guard looks at the resident set.
const GUARD_PERIOD: std::time::Duration = std::time::Duration::from_millis(1);

/// A thread that keeps a mapped state's pages from making this process's resident set grow
/// past a budget: every few milliseconds it reads the resident file-backed pages of the
/// process (`/proc/self/statm`, Linux) and, above the budget, releases the whole mapping
/// (the pages stay in the page cache, so the ones still in use fault back in cheaply; under a
/// memory cgroup the kernel writes back and drops the page cache as it must). A stateful
/// design that evicts only cold pages would release less, but it would need to know which
/// pages are cold, which the kernel does better. Not on other systems: there the guard does
/// nothing.
struct ResidencyGuard {
    stop: Arc<AtomicBool>,
    releases: Arc<AtomicU64>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl ResidencyGuard {
    fn start(map: Arc<memmap2::MmapMut>, budget: u64) -> ResidencyGuard {
        let stop = Arc::new(AtomicBool::new(false));
        let releases = Arc::new(AtomicU64::new(0));
        let (stop2, releases2) = (Arc::clone(&stop), Arc::clone(&releases));
        let thread = std::thread::Builder::new()
            .name("zermelo-residency".into())
            .spawn(move || {
                while !stop2.load(Relaxed) {
                    if resident_file_bytes().is_some_and(|r| r > budget) {
                        release_mut(&map);
                        releases2.fetch_add(1, Relaxed);
                    }
                    std::thread::sleep(GUARD_PERIOD);
                }
            })
            .ok();
        ResidencyGuard {
            stop,
            releases,
            thread,
        }
    }
}

impl Drop for ResidencyGuard {
    fn drop(&mut self) {
        self.stop.store(true, Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join(); // the loop never panics
        }
    }
}

/// This process's resident file-backed and shared pages in bytes (`/proc/self/statm`'s third
/// field, 4 KiB pages), if known.
fn resident_file_bytes() -> Option<u64> {
    let statm = std::fs::read_to_string("/proc/self/statm").ok()?;
    let pages: u64 = statm.split_whitespace().nth(2)?.parse().ok()?;
    Some(pages * 4096)
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;
    use std::io::Write;

    /// The resident kilobytes of the mapping that starts at `start` (`/proc/self/smaps`).
    fn resident_kib(start: usize) -> u64 {
        let smaps = std::fs::read_to_string("/proc/self/smaps").unwrap();
        let mut lines = smaps.lines();
        while let Some(line) = lines.next() {
            let range = line.split_whitespace().next().unwrap_or("");
            let Some((from, _)) = range.split_once('-') else {
                continue;
            };
            if usize::from_str_radix(from, 16) == Ok(start) {
                let rss = lines.find(|l| l.starts_with("Rss:")).unwrap();
                return rss.split_whitespace().nth(1).unwrap().parse().unwrap();
            }
        }
        panic!("no mapping at {start:#x}");
    }

    #[test]
    fn released_pages_leave_the_resident_set_and_read_back_the_same() {
        let mut file = tempfile::tempfile().unwrap();
        let bytes: Vec<u8> = (0..4u32 << 20).map(|i| (i * 7 % 251) as u8).collect();
        file.write_all(&bytes).unwrap();
        // SAFETY: the temporary file is ours and unchanged while mapped.
        let map = unsafe { Mapping::new(&file, false) }.unwrap();
        let start = map.bytes().as_ptr() as usize;
        let sum = |m: &Mapping| m.bytes().iter().map(|&b| b as u64).sum::<u64>();
        let expected = sum(&map);
        assert!(
            resident_kib(start) >= 4 << 10,
            "read whole, the file is resident"
        );
        map.release();
        assert_eq!(resident_kib(start), 0, "released, none of it counts");
        assert_eq!(sum(&map), expected, "and it reads back the same bytes");
    }
}
