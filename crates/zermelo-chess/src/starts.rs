//! The DTZ starts of a group, recorded while its DTM group is seeded ([`StartLog`]).
//!
//! Seeding a group costs about half of a table's generation: the board of every index, its
//! moves, the probes of its captures, promotions and pushes. The DTM and the DTZ table of a
//! material share every part of that but the exits' values: the in-group moves are the same,
//! and each zeroing move's DTZ exit is the class of its target under the rule. So
//! [`generate_pair`](crate::generate_pair) seeds each DTM group with the DTZ exits probed
//! too, writes every index's DTZ start here (two bytes), marks the DTM draws once the DTM
//! group is solved (they are the DTZ draws), and the DTZ group is then seeded from this log
//! without generating a move.
//!
//! The log holds, per local index of the group, one `u16`:
//!
//! | entry | meaning |
//! |---|---|
//! | `0` | not recorded: the DTZ seeding computes the start itself |
//! | `1` | a hole (no position) |
//! | `2` | checkmated: a loss at depth 0 |
//! | `3` | a draw (stalemate, or a DTM draw) |
//! | `0x8000 \| c << 8 \| m` | open: `m` in-group moves, best exit of class code `c` (0: none) |
//!
//! Entries are written a whole run of [`RUN`] indices at a time (the engine's seeding chunk:
//! [`StartLog::record_range`], [`StartLog::entries`]; one by one, through per-thread runs
//! flushed at run boundaries), so a log in a file costs sequential writes; a run never written
//! whole (a chunking that does not line up) reads as unrecorded and is computed again, so a
//! log is never wrong, only incomplete.
//!
//! In the work folder the log outlives the process, so that a run killed at any moment and
//! started again seeds its DTZ group from it rather than computing every start again (the DTM
//! group resumed from a layered checkpoint is not seeded again, and records nothing). The file
//! `<material>.dtz.starts` is: a header of [`HEADER`] bytes (magic `ZMSTRT01`, the DTZ group's
//! fingerprint, the entry count, flags (bit 0: the DTM draws are marked), CRC-32 of these 28
//! bytes; little-endian), the entries (`u16` each), then one `u64` per run: the CRC-32 of the
//! run's bytes with bit 32 set once the run is written whole (written after the run, so a kill
//! between the two leaves a run that fails its CRC). Nothing in it is trusted: a file of
//! another group, another format or size, or a damaged header starts a new log; a run that
//! fails its CRC reads as unrecorded (computed again) when an earlier process wrote it, and
//! fails the generation (exit 2) when this one did (the file changed behind its back).

use std::cell::RefCell;
use std::fs::File;
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU16, AtomicU64, Ordering::Relaxed};

use rayon::prelude::*;
use zermelo::game::compact::Start;
use zermelo::Outcome;

use crate::dtz::Wdl50;

/// Indices per run of the per-thread buffers (the compact engine seeds chunks of 16,384
/// consecutive indices, one thread each).
const RUN: u64 = 1 << 14;

const UNSET: u16 = 0;
const HOLE: u16 = 1;
const MATED: u16 = 2;
const DRAW: u16 = 3;
const OPEN: u16 = 0x8000;

const MAGIC: &[u8; 8] = b"ZMSTRT01";
/// Bytes before the entries in a file.
const HEADER: u64 = 32;
/// Header flag: every run in the file has the DTM draws marked.
const MARKED: u32 = 1;
/// A run's CRC slot: written whole (in the file too).
const WRITTEN: u64 = 1 << 32;
/// A run's CRC slot: read from the file an earlier process left, not yet checked (in memory
/// only).
const INHERITED: u64 = 1 << 33;

/// The next [`StartLog::id`].
static NEXT_ID: AtomicU64 = AtomicU64::new(1);

/// Where the entries are.
enum Backing {
    Memory(Vec<AtomicU16>),
    /// A file, and per run of [`RUN`] indices the CRC-32 of its bytes as written (with
    /// [`WRITTEN`]; [`INHERITED`] until checked): a run read back is checked against it, and a
    /// run without one (never written whole) reads as unrecorded.
    File {
        file: File,
        path: PathBuf,
        crcs: Vec<AtomicU64>,
        /// The header's [`MARKED`] flag as in the file.
        marked: AtomicBool,
    },
}

/// The CRC of a run's bytes, with the written bit.
fn run_crc(bytes: &[u8]) -> u64 {
    WRITTEN | u64::from(crc32fast::hash(bytes))
}

/// The DTZ starts of one group (see the module documentation).
pub(crate) struct StartLog {
    backing: Backing,
    len: u64,
    rule: u32,
    fingerprint: u64,
    /// Names this log's present contents in the threads' run buffers (renewed when the
    /// draws are marked, so no thread reads a run it buffered before).
    id: AtomicU64,
}

/// A thread's run of entries: (log id, first local index, entries).
type Run = (u64, u64, Vec<u16>);

thread_local! {
    static WRITING: RefCell<Run> = const { RefCell::new((0, 0, Vec::new())) };
    static READING: RefCell<Run> = const { RefCell::new((0, 0, Vec::new())) };
}

/// The header of a log of `len` entries of the group named `fingerprint`.
fn header(fingerprint: u64, len: u64, flags: u32) -> [u8; HEADER as usize] {
    let mut h = [0u8; HEADER as usize];
    h[..8].copy_from_slice(MAGIC);
    h[8..16].copy_from_slice(&fingerprint.to_le_bytes());
    h[16..24].copy_from_slice(&len.to_le_bytes());
    h[24..28].copy_from_slice(&flags.to_le_bytes());
    let crc = crc32fast::hash(&h[..28]);
    h[28..].copy_from_slice(&crc.to_le_bytes());
    h
}

/// The size of a log file of `len` entries.
fn file_size(len: u64) -> u64 {
    HEADER + 2 * len + 8 * len.div_ceil(RUN)
}

/// The header's flags if `file` is a log of `len` entries of the group named `fingerprint`
/// (its size and header checked), or `None`.
fn flags_of(file: &File, fingerprint: u64, len: u64) -> std::io::Result<Option<u32>> {
    if file.metadata()?.len() != file_size(len) {
        return Ok(None);
    }
    let mut h = [0u8; HEADER as usize];
    file.read_exact_at(&mut h, 0)?;
    let flags = u32::from_le_bytes(h[24..28].try_into().expect("4 bytes"));
    Ok((h == header(fingerprint, len, flags) && flags & !MARKED == 0).then_some(flags))
}

impl StartLog {
    /// A log of `len` entries, all unset, in memory.
    pub(crate) fn in_memory(len: u64, rule: u32) -> StartLog {
        let v = (0..len)
            .into_par_iter()
            .map(|_| AtomicU16::new(0))
            .collect();
        StartLog::with(Backing::Memory(v), len, rule, 0)
    }

    fn with(backing: Backing, len: u64, rule: u32, fingerprint: u64) -> StartLog {
        StartLog {
            backing,
            len,
            rule,
            fingerprint,
            id: AtomicU64::new(NEXT_ID.fetch_add(1, Relaxed)),
        }
    }

    /// The log of `len` entries of the DTZ group named `fingerprint` in the file `path`: what
    /// an earlier run of this group left there (its runs checked as they are read), or a new
    /// log with every entry unset (replacing a file of another group, format or size, or a
    /// damaged one).
    pub(crate) fn open(
        path: &Path,
        len: u64,
        rule: u32,
        fingerprint: u64,
    ) -> std::io::Result<StartLog> {
        if let Some(log) = StartLog::existing(path, len, rule, fingerprint)? {
            return Ok(log);
        }
        if let Some(d) = path.parent() {
            std::fs::create_dir_all(d)?;
        }
        crate::checkpoint::regular_or_absent(path)?;
        let file = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(true)
            .open(path)?;
        file.write_all_at(&header(fingerprint, len, 0), 0)?;
        file.set_len(file_size(len))?;
        let crcs = (0..len.div_ceil(RUN)).map(|_| AtomicU64::new(0)).collect();
        let backing = Backing::File {
            file,
            path: path.to_path_buf(),
            crcs,
            marked: AtomicBool::new(false),
        };
        Ok(StartLog::with(backing, len, rule, fingerprint))
    }

    /// The log an earlier run of the DTZ group named `fingerprint` left in `path`, if there is
    /// one (see [`open`](Self::open)).
    pub(crate) fn existing(
        path: &Path,
        len: u64,
        rule: u32,
        fingerprint: u64,
    ) -> std::io::Result<Option<StartLog>> {
        if !crate::checkpoint::regular_or_absent(path)? {
            return Ok(None);
        }
        let file = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .open(path)?;
        let Some(flags) = flags_of(&file, fingerprint, len)? else {
            return Ok(None);
        };
        let runs = len.div_ceil(RUN);
        let mut slots = vec![0u8; 8 * runs as usize];
        file.read_exact_at(&mut slots, HEADER + 2 * len)?;
        let crcs: Vec<AtomicU64> = slots
            .chunks_exact(8)
            .map(|b| u64::from_le_bytes(b.try_into().expect("8 bytes")))
            .map(|s| if s >> 32 == 1 { s | INHERITED } else { 0 })
            .map(AtomicU64::new)
            .collect();
        let backing = Backing::File {
            file,
            path: path.to_path_buf(),
            crcs,
            marked: AtomicBool::new(flags & MARKED != 0),
        };
        Ok(Some(StartLog::with(backing, len, rule, fingerprint)))
    }

    /// The entry of a DTZ start (`exit` a zeroing exit of this rule, or none).
    fn encode(&self, start: Start) -> u16 {
        match start {
            Start::Hole => HOLE,
            Start::Terminal(Outcome::Lose) => MATED,
            Start::Terminal(Outcome::Draw) => DRAW,
            // The chess game has no terminal wins; leave it to the seeding.
            Start::Terminal(Outcome::Win) => UNSET,
            Start::Open { moves, exit } => {
                let class = match exit {
                    None => 0,
                    Some(v) => match Wdl50::ALL
                        .iter()
                        .position(|w| w.zeroing_exit(self.rule) == v)
                    {
                        Some(c) => c as u16 + 1,
                        None => return UNSET,
                    },
                };
                if moves > 0xff {
                    return UNSET;
                }
                OPEN | class << 8 | moves as u16
            }
        }
    }

    /// The start an entry records, if any.
    fn decode(&self, e: u16) -> Option<Start> {
        match e {
            HOLE => Some(Start::Hole),
            MATED => Some(Start::Terminal(Outcome::Lose)),
            DRAW => Some(Start::Terminal(Outcome::Draw)),
            e if e & OPEN != 0 => {
                let class = (e >> 8) & 0x7f;
                let exit = match class {
                    0 => None,
                    c => Some(Wdl50::ALL.get(c as usize - 1)?.zeroing_exit(self.rule)),
                };
                Some(Start::Open {
                    moves: u32::from(e & 0xff),
                    exit,
                })
            }
            _ => None,
        }
    }

    /// Writes the bytes of the run starting at `at` to the file and vouches for them: the
    /// header's [`MARKED`] flag cleared first if set (these entries are not marked), the
    /// run's CRC slot after the run.
    fn write_run(&self, at: u64, bytes: &[u8]) -> std::io::Result<()> {
        let Backing::File {
            file, crcs, marked, ..
        } = &self.backing
        else {
            unreachable!("a run is written to a file");
        };
        if marked.swap(false, Relaxed) {
            file.write_all_at(&header(self.fingerprint, self.len, 0), 0)?;
        }
        file.write_all_at(bytes, HEADER + at * 2)?;
        let c = at / RUN;
        let crc = run_crc(bytes);
        file.write_all_at(&crc.to_le_bytes(), HEADER + 2 * self.len + 8 * c)?;
        crcs[c as usize].store(crc, Relaxed);
        Ok(())
    }

    /// The bytes of run `c` of the file (`None`: unrecorded, or left damaged by an earlier
    /// process, which is as good), checked against their CRC.
    fn read_run(&self, c: u64) -> std::io::Result<Option<Vec<u8>>> {
        let Backing::File {
            file, crcs, path, ..
        } = &self.backing
        else {
            unreachable!("a run is read from a file");
        };
        let slot = &crcs[c as usize];
        let crc = slot.load(Relaxed);
        if crc == 0 {
            return Ok(None);
        }
        let at = c * RUN;
        let n = RUN.min(self.len - at);
        let mut bytes = vec![0u8; 2 * n as usize];
        file.read_exact_at(&mut bytes, HEADER + at * 2)?;
        if run_crc(&bytes) == crc & !INHERITED {
            if crc & INHERITED != 0 {
                let _ = slot.compare_exchange(crc, crc & !INHERITED, Relaxed, Relaxed);
            }
            return Ok(Some(bytes));
        }
        if crc & INHERITED != 0 {
            // Damaged before this process opened the log (a kill between a run and its CRC,
            // a disk): never trusted, computed again.
            let _ = slot.compare_exchange(crc, 0, Relaxed, Relaxed);
            return Ok(None);
        }
        Err(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!(
                "{}: indices {at} to {}: CRC mismatch (changed while the table was generated?)",
                path.display(),
                at + n - 1
            ),
        ))
    }

    /// Records the DTZ start of local index `i` (called by the DTM seeding, chunk by chunk).
    pub(crate) fn record(&self, i: u64, start: Start) -> std::io::Result<()> {
        let e = self.encode(start);
        if let Backing::Memory(v) = &self.backing {
            v[i as usize].store(e, Relaxed);
            return Ok(());
        }
        let me = self.id.load(Relaxed);
        WRITING.with_borrow_mut(|(id, first, run)| {
            if *id != me || *first + run.len() as u64 != i {
                // A run left by another log, or a gap: what was not flushed stays unset.
                (*id, *first) = (me, i);
                run.clear();
            }
            run.push(e);
            let next = i + 1;
            if next % RUN == 0 || next == self.len {
                let bytes: Vec<u8> = run.iter().flat_map(|e| e.to_le_bytes()).collect();
                let at = *first;
                run.clear();
                *first = next;
                // Only a whole run is vouched for.
                if at % RUN == 0 {
                    self.write_run(at, &bytes)?;
                }
            }
            Ok(())
        })
    }

    /// Records the DTZ starts of the local indices `first..first + starts.len()` (`None`:
    /// not recorded), as [`record`](Self::record) does one by one: in a file, only whole runs
    /// of [`RUN`] indices are written and vouched for.
    pub(crate) fn record_range(&self, first: u64, starts: &[Option<Start>]) -> std::io::Result<()> {
        let encode = |s: &Option<Start>| s.map_or(UNSET, |s| self.encode(s));
        if let Backing::Memory(v) = &self.backing {
            for (a, s) in v[first as usize..].iter().zip(starts) {
                a.store(encode(s), Relaxed);
            }
            return Ok(());
        }
        let end = first + starts.len() as u64;
        let mut at = first.next_multiple_of(RUN);
        while at < end {
            let stop = (at + RUN).min(self.len);
            if stop > end {
                break; // a run not given whole
            }
            let part = &starts[(at - first) as usize..(stop - first) as usize];
            let bytes: Vec<u8> = part.iter().flat_map(|s| encode(s).to_le_bytes()).collect();
            self.write_run(at, &bytes)?;
            at = stop;
        }
        Ok(())
    }

    /// The raw entries of the local indices `first..first + n` into `out` (unset where not
    /// recorded; [`decode_entry`](Self::decode_entry) reads them), a run read at a time.
    pub(crate) fn entries(&self, first: u64, n: usize, out: &mut Vec<u16>) -> std::io::Result<()> {
        out.clear();
        let end = first + n as u64;
        if let Backing::Memory(v) = &self.backing {
            out.extend(
                v[first as usize..end as usize]
                    .iter()
                    .map(|a| a.load(Relaxed)),
            );
            return Ok(());
        }
        let mut i = first;
        while i < end {
            let at = i - i % RUN;
            let take = (at + RUN).min(self.len).min(end) - i;
            match self.read_run(at / RUN)? {
                None => out.resize(out.len() + take as usize, UNSET),
                Some(bytes) => out.extend(
                    bytes
                        .chunks_exact(2)
                        .skip((i - at) as usize)
                        .take(take as usize)
                        .map(|b| u16::from_le_bytes([b[0], b[1]])),
                ),
            }
            i += take;
        }
        Ok(())
    }

    /// The start an entry of [`entries`](Self::entries) records, if any.
    pub(crate) fn decode_entry(&self, e: u16) -> Option<Start> {
        self.decode(e)
    }

    /// The log's file, which a failure to read or write it names.
    pub(crate) fn path(&self) -> PathBuf {
        match &self.backing {
            Backing::Memory(_) => PathBuf::from("<starts in memory>"),
            Backing::File { path, .. } => path.clone(),
        }
    }

    /// The recorded start of local index `i`, if recorded.
    pub(crate) fn get(&self, i: u64) -> std::io::Result<Option<Start>> {
        let e = match &self.backing {
            Backing::Memory(v) => v[i as usize].load(Relaxed),
            Backing::File { .. } => READING.with_borrow_mut(|(id, first, run)| {
                let me = self.id.load(Relaxed);
                if *id != me || i < *first || i >= *first + run.len() as u64 {
                    let at = i - i % RUN;
                    *id = 0;
                    run.clear();
                    match self.read_run(at / RUN)? {
                        None => run.resize(RUN.min(self.len - at) as usize, UNSET),
                        Some(bytes) => run.extend(
                            bytes
                                .chunks_exact(2)
                                .map(|b| u16::from_le_bytes([b[0], b[1]])),
                        ),
                    }
                    (*id, *first) = (me, at);
                }
                Ok::<_, std::io::Error>(run[(i - *first) as usize])
            })?,
        };
        Ok(self.decode(e))
    }

    /// [`mark_draws_then`](Self::mark_draws_then) without a callback.
    #[cfg(test)]
    pub(crate) fn mark_draws(&self, draw: impl Fn(u64) -> bool + Sync) -> std::io::Result<()> {
        self.mark_draws_then(draw, |_, _| {})
    }

    /// Turns the open entries of the indices where `draw` holds into draws: the DTM group's
    /// draws, which are the DTZ group's (the same moves, exits of the same outcomes). In a
    /// file, the header then says so, and a log that says so is left as it is. Calls
    /// `done(first, len)` once the entries `first..first + len` are marked (a caller reading a
    /// mapped solution in `draw` lets the pages it has read go there).
    pub(crate) fn mark_draws_then(
        &self,
        draw: impl Fn(u64) -> bool + Sync,
        done: impl Fn(u64, u64) + Sync,
    ) -> std::io::Result<()> {
        // Runs buffered by any thread before are stale from here on.
        self.id.store(NEXT_ID.fetch_add(1, Relaxed), Relaxed);
        let mark = |first: u64, entries: &mut [u16]| {
            for (j, e) in entries.iter_mut().enumerate() {
                if *e & OPEN != 0 && draw(first + j as u64) {
                    *e = DRAW;
                }
            }
        };
        let (file, marked) = match &self.backing {
            Backing::Memory(v) => {
                v.par_chunks(RUN as usize)
                    .enumerate()
                    .for_each(|(c, chunk)| {
                        let first = c as u64 * RUN;
                        let mut entries: Vec<u16> = chunk.iter().map(|a| a.load(Relaxed)).collect();
                        mark(first, &mut entries);
                        done(first, chunk.len() as u64);
                        chunk
                            .iter()
                            .zip(entries)
                            .for_each(|(a, e)| a.store(e, Relaxed));
                    });
                return Ok(());
            }
            Backing::File { file, marked, .. } => (file, marked),
        };
        if marked.load(Relaxed) {
            return Ok(()); // marked by an earlier run, nothing recorded since
        }
        (0..self.len.div_ceil(RUN))
            .into_par_iter()
            .try_for_each(|c| {
                let bytes = match self.read_run(c) {
                    Ok(Some(bytes)) => bytes,
                    Ok(None) => return Ok(()), // unrecorded: read as such
                    // Left as found, for `get` to report.
                    Err(e) if e.kind() == std::io::ErrorKind::InvalidData => return Ok(()),
                    Err(e) => return Err(e),
                };
                let mut entries: Vec<u16> = bytes
                    .chunks_exact(2)
                    .map(|b| u16::from_le_bytes([b[0], b[1]]))
                    .collect();
                mark(c * RUN, &mut entries);
                done(c * RUN, entries.len() as u64);
                let bytes: Vec<u8> = entries.iter().flat_map(|e| e.to_le_bytes()).collect();
                self.write_run(c * RUN, &bytes)
            })?;
        file.write_all_at(&header(self.fingerprint, self.len, MARKED), 0)?;
        marked.store(true, Relaxed);
        Ok(())
    }

    /// How many entries are recorded (a test's and a statistic's view).
    #[cfg(test)]
    pub(crate) fn recorded(&self) -> u64 {
        (0..self.len)
            .filter(|&i| self.get(i).ok().flatten().is_some())
            .count() as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::Value;

    /// A log of `len` entries in memory, or new in the file `path`.
    fn new_log(len: u64, rule: u32, path: Option<&Path>) -> StartLog {
        match path {
            None => StartLog::in_memory(len, rule),
            Some(p) => {
                let _ = std::fs::remove_file(p);
                StartLog::open(p, len, rule, 7).unwrap()
            }
        }
    }

    /// A log whose file is a full disk (`/dev/full`): its writes fail as the disk full
    /// (`ENOSPC`), and the log names its file, as the generation's error does.
    #[cfg(target_os = "linux")]
    #[test]
    fn a_log_on_a_full_disk_fails_as_a_full_disk_naming_its_file() {
        let path = PathBuf::from("/dev/full");
        let file = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .open(&path)
            .unwrap();
        let len = 2 * RUN;
        let backing = Backing::File {
            file,
            path: path.clone(),
            crcs: (0..2).map(|_| AtomicU64::new(0)).collect(),
            marked: AtomicBool::new(false),
        };
        let log = StartLog::with(backing, len, 100, 7);
        let starts = vec![Some(Start::Hole); RUN as usize];
        let e = log.record_range(0, &starts).unwrap_err();
        assert!(crate::disk::is_full(&e), "{e}");
        assert_eq!(log.path(), path);
        // Nothing vouched for: the run reads as unrecorded.
        assert_eq!(log.get(0).unwrap(), None);
    }

    /// Whether a start may hold `value` as its exit (the zeroing exits of the rule).
    fn recordable(rule: u32, value: Value) -> bool {
        Wdl50::ALL.iter().any(|w| w.zeroing_exit(rule) == value)
    }

    /// Every start the DTZ seeding makes reads back as it was recorded, in memory and in a
    /// file, whatever order the threads record runs in; gaps read as unrecorded.
    #[test]
    fn starts_read_back_as_recorded() {
        let rule = 100;
        let exits = [
            None,
            Some(Value::Win(1)),
            Some(Value::Win(rule + 1)),
            Some(Value::Draw),
            Some(Value::Lose(rule + 1)),
            Some(Value::Lose(1)),
        ];
        assert!(exits.iter().flatten().all(|&v| recordable(rule, v)));
        let start = |i: u64| match i % 9 {
            0 => Start::Hole,
            1 => Start::Terminal(Outcome::Lose),
            2 => Start::Terminal(Outcome::Draw),
            k => Start::Open {
                moves: (i % 90) as u32,
                exit: exits[(k - 3) as usize],
            },
        };
        let dir = tempfile::tempdir().unwrap();
        let len = 3 * RUN + 77;
        for path in [None, Some(dir.path().join("g.starts"))] {
            let log = new_log(len, rule, path.as_deref());
            // Runs in reverse order, each in order, one of them left out.
            for c in (0..len.div_ceil(RUN)).rev().filter(|&c| c != 1) {
                for i in c * RUN..((c + 1) * RUN).min(len) {
                    log.record(i, start(i)).unwrap();
                }
            }
            for i in (0..len).step_by(7) {
                let got = log.get(i).unwrap();
                if (RUN..2 * RUN).contains(&i) {
                    assert_eq!(got, None, "{i}");
                } else {
                    assert_eq!(got, Some(start(i)), "{i}");
                }
            }
            log.mark_draws(|i| i % 2 == 0).unwrap();
            let i = 4 * 9 + 3; // odd, open
            assert_eq!(log.get(i).unwrap(), Some(start(i)));
            let i = 4 * 9 + 4; // even, open: now a draw
            assert_eq!(log.get(i).unwrap(), Some(Start::Terminal(Outcome::Draw)));
            assert_eq!(log.get(0).unwrap(), Some(Start::Hole));
            assert_eq!(log.recorded(), len - RUN);
        }
        assert!(
            dir.path().join("g.starts").exists(),
            "a work file: removed with the table's work files, not when dropped"
        );
    }

    /// Ranges recorded and read a chunk at a time agree with the entries one by one: whole
    /// runs are vouched for, a range that does not cover a run whole leaves it unrecorded,
    /// `None` reads as unrecorded, and a damaged run is an error for ranges too.
    #[test]
    fn ranges_read_back_as_recorded() {
        let rule = 100;
        let start = |i: u64| match i % 5 {
            0 => None,
            1 => Some(Start::Hole),
            2 => Some(Start::Terminal(Outcome::Lose)),
            3 => Some(Start::Terminal(Outcome::Draw)),
            _ => Some(Start::Open {
                moves: (i % 200) as u32,
                exit: Some(Value::Win(1)),
            }),
        };
        let dir = tempfile::tempdir().unwrap();
        let len = 3 * RUN + 77;
        for path in [None, Some(dir.path().join("r.starts"))] {
            let in_file = path.is_some();
            let log = new_log(len, rule, path.as_deref());
            // Chunks as the engine seeds them (the last one short), run 1 left out, and a
            // range that covers run 2 only in part before it is covered whole.
            let range = |lo: u64, hi: u64| (lo..hi).map(start).collect::<Vec<_>>();
            log.record_range(2 * RUN + 10, &range(2 * RUN + 10, 2 * RUN + 20))
                .unwrap();
            let mut got = Vec::new();
            log.entries(2 * RUN, RUN as usize, &mut got).unwrap();
            if in_file {
                assert!(
                    got.iter().all(|&e| e == UNSET),
                    "a part of a run is not vouched for"
                );
            }
            for c in [3, 0, 2] {
                let (lo, hi) = (c * RUN, ((c + 1) * RUN).min(len));
                log.record_range(lo, &range(lo, hi)).unwrap();
            }
            // Read back in ranges that straddle runs, and one by one.
            for (lo, n) in [
                (0, RUN as usize),
                (RUN - 3, 10),
                (2 * RUN - 5, (RUN + 82) as usize),
            ] {
                log.entries(lo, n, &mut got).unwrap();
                assert_eq!(got.len(), n);
                for (k, &e) in got.iter().enumerate() {
                    let i = lo + k as u64;
                    let want = if (RUN..2 * RUN).contains(&i) {
                        None
                    } else {
                        start(i)
                    };
                    assert_eq!(log.decode_entry(e), want, "{i}");
                    assert_eq!(log.get(i).unwrap(), want, "{i}");
                }
            }
            let some = (0..len)
                .filter(|&i| !(RUN..2 * RUN).contains(&i) && start(i).is_some())
                .count() as u64;
            assert_eq!(log.recorded(), some);
        }
        // A damaged run is refused by `entries` as by `get`.
        let path = dir.path().join("d.starts");
        let log = new_log(2 * RUN, rule, Some(&path));
        let all: Vec<_> = (0..2 * RUN).map(|_| Some(Start::Hole)).collect();
        log.record_range(0, &all[..RUN as usize]).unwrap();
        log.record_range(RUN, &all[RUN as usize..]).unwrap();
        let file = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
        file.write_all_at(&DRAW.to_le_bytes(), HEADER + (RUN + 1) * 2)
            .unwrap();
        let mut got = Vec::new();
        log.entries(0, RUN as usize, &mut got).unwrap();
        let e = log.entries(RUN - 1, 4, &mut got).unwrap_err();
        assert!(e.to_string().contains("CRC mismatch"), "{e}");
    }

    /// A run changed in the file behind the log's back is an error when read, never a start.
    #[test]
    fn a_run_changed_in_the_file_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("g.starts");
        let len = 2 * RUN;
        let log = new_log(len, 100, Some(&path));
        let open = Start::Open {
            moves: 3,
            exit: None,
        };
        for i in 0..len {
            log.record(i, open).unwrap();
        }
        let file = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
        // Index RUN + 5 becomes a hole.
        file.write_all_at(&HOLE.to_le_bytes(), HEADER + (RUN + 5) * 2)
            .unwrap();
        assert_eq!(log.get(7).unwrap(), Some(open));
        assert_eq!(log.get(RUN - 1).unwrap(), Some(open), "run 0 buffered");
        let e = log.get(RUN + 5).unwrap_err();
        assert!(e.to_string().contains("CRC mismatch"), "{e}");
        // Marking the draws leaves the damaged run as it found it.
        log.mark_draws(|_| true).unwrap();
        assert!(log.get(RUN).is_err());
        assert_eq!(log.get(0).unwrap(), Some(Start::Terminal(Outcome::Draw)));
        // A run buffered before the marking is read again after it.
        let path = dir.path().join("h.starts");
        let log = new_log(len, 100, Some(&path));
        (0..len).for_each(|i| log.record(i, open).unwrap());
        assert_eq!(log.get(1).unwrap(), Some(open));
        log.mark_draws(|i| i == 2).unwrap();
        assert_eq!(log.get(2).unwrap(), Some(Start::Terminal(Outcome::Draw)));
    }

    /// Opens the log `path` of `len` entries as a resumed run does (the group named 7).
    fn reopen(path: &Path, len: u64) -> StartLog {
        StartLog::open(path, len, 100, 7).unwrap()
    }

    /// A log is a work file: what a killed run recorded (and whether it marked the draws) is
    /// what the next run reads, and a run recorded again after the marking clears it.
    #[test]
    fn a_log_left_by_a_killed_run_is_read_back() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("k.starts");
        let len = 3 * RUN + 5;
        let open = |i: u64| Start::Open {
            moves: (i % 7) as u32 + 1,
            exit: None,
        };
        let range = |c: u64| {
            let (lo, hi) = (c * RUN, ((c + 1) * RUN).min(len));
            (lo, (lo..hi).map(|i| Some(open(i))).collect::<Vec<_>>())
        };
        let log = new_log(len, 100, Some(&path));
        for c in [0, 1, 3] {
            let (lo, starts) = range(c);
            log.record_range(lo, &starts).unwrap();
        }
        drop(log); // killed
        let log = reopen(&path, len);
        assert_eq!(log.get(5).unwrap(), Some(open(5)));
        assert_eq!(log.get(2 * RUN + 1).unwrap(), None, "never recorded");
        assert_eq!(log.get(len - 1).unwrap(), Some(open(len - 1)));
        assert_eq!(log.recorded(), len - RUN);
        let (lo, starts) = range(2);
        log.record_range(lo, &starts).unwrap();
        log.mark_draws(|i| i % 2 == 0).unwrap();
        drop(log);
        let log = reopen(&path, len);
        let draw = Some(Start::Terminal(Outcome::Draw));
        assert_eq!(log.get(2 * RUN + 2).unwrap(), draw);
        assert_eq!(log.get(2 * RUN + 3).unwrap(), Some(open(2 * RUN + 3)));
        // Marked already: marking again (after the DTM group resumed from its last
        // checkpoint) changes nothing.
        log.mark_draws(|_| true).unwrap();
        assert_eq!(log.get(3).unwrap(), Some(open(3)));
        // A run recorded again (a resumed seeding) is not marked: neither is the log.
        let (lo, starts) = range(0);
        log.record_range(lo, &starts).unwrap();
        drop(log);
        let log = reopen(&path, len);
        assert_eq!(log.get(2).unwrap(), Some(open(2)));
        log.mark_draws(|i| i == 2).unwrap();
        assert_eq!(log.get(2).unwrap(), draw);
        // Another group's log, or another length: a new log.
        assert!(StartLog::existing(&path, len, 100, 8).unwrap().is_none());
        assert!(StartLog::existing(&path, len + 1, 100, 7)
            .unwrap()
            .is_none());
        let log = StartLog::open(&path, len, 100, 8).unwrap();
        assert_eq!(log.recorded(), 0);
    }

    /// What a killed run left damaged is never trusted: a run whose bytes or CRC changed reads
    /// as unrecorded (and is computed again), a truncated file, a damaged header or a file of
    /// another format is a new log.
    #[test]
    fn a_damaged_log_is_computed_again_not_trusted() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("d.starts");
        let len = 3 * RUN;
        let hole = Some(Start::Hole);
        let write = || {
            let log = new_log(len, 100, Some(&path));
            log.record_range(0, &vec![hole; len as usize]).unwrap();
        };
        let flip = |at: u64, bit: u8| {
            let file = std::fs::OpenOptions::new()
                .read(true)
                .write(true)
                .open(&path)
                .unwrap();
            let mut b = [0u8];
            file.read_exact_at(&mut b, at).unwrap();
            file.write_all_at(&[b[0] ^ bit], at).unwrap();
        };
        // A bit of run 1's entries, then of run 2's CRC.
        write();
        flip(HEADER + 2 * (RUN + 9), 0x10);
        flip(HEADER + 2 * len + 8 * 2, 0x01);
        let log = reopen(&path, len);
        let mut got = Vec::new();
        log.entries(0, len as usize, &mut got).unwrap();
        let recorded = |r: std::ops::Range<u64>| r.map(|i| log.decode_entry(got[i as usize]));
        assert!(recorded(0..RUN).all(|s| s == hole));
        assert!(recorded(RUN..len).all(|s| s.is_none()), "runs 1 and 2");
        // Recorded again, they are trusted again.
        log.record_range(RUN, &vec![hole; 2 * RUN as usize])
            .unwrap();
        assert_eq!(log.get(RUN + 9).unwrap(), hole);
        drop(log);
        assert_eq!(reopen(&path, len).recorded(), len);
        // The written bit of a CRC cleared: unrecorded.
        flip(HEADER + 2 * len + 4, 0x01);
        assert_eq!(reopen(&path, len).recorded(), len - RUN);
        // Truncated (by a byte, or to the entries), or a damaged header: a new log.
        for cut in [file_size(len) - 1, HEADER + 2 * len] {
            write();
            let file = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
            file.set_len(cut).unwrap();
            assert!(StartLog::existing(&path, len, 100, 7).unwrap().is_none());
            assert_eq!(reopen(&path, len).recorded(), 0, "cut at {cut}");
        }
        for at in [0, 9, 17, 25, 30] {
            write();
            flip(at, 0x04);
            assert!(
                StartLog::existing(&path, len, 100, 7).unwrap().is_none(),
                "{at}"
            );
            assert_eq!(reopen(&path, len).recorded(), 0, "header byte {at}");
        }
        // An unknown flag with a valid CRC (a later format): a new log.
        write();
        let file = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
        file.write_all_at(&header(7, len, 2), 0).unwrap();
        assert!(StartLog::existing(&path, len, 100, 7).unwrap().is_none());
        // Not a regular file: refused, never opened.
        std::fs::remove_file(&path).unwrap();
        std::os::unix::fs::symlink("/dev/zero", &path).unwrap();
        let e = StartLog::open(&path, len, 100, 7).err().unwrap();
        assert!(e.to_string().contains("not a regular file"), "{e}");
    }
}
