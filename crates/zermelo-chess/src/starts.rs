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
//! flushed at run boundaries), so a log in a file costs sequential writes; a run never written whole (a seeding resumed from a
//! checkpoint, a chunking that does not line up) reads as unrecorded and is computed again, so
//! a log is never wrong, only incomplete. Each run written to a file has its CRC-32 kept in
//! memory and checked when it is read back: a file changed behind the generator's back fails
//! the generation (exit 2) instead of seeding wrong starts.

use std::cell::RefCell;
use std::fs::File;
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU16, AtomicU64, Ordering::Relaxed};

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

/// The next [`StartLog::id`].
static NEXT_ID: AtomicU64 = AtomicU64::new(1);

/// Where the entries are.
enum Backing {
    Memory(Vec<AtomicU16>),
    /// A file, and per run of [`RUN`] indices the CRC-32 of its bytes as written (bit 32
    /// set once written): a run read back is checked against it, and a run without one (never
    /// written whole) reads as unrecorded.
    File {
        file: File,
        path: PathBuf,
        crcs: Vec<AtomicU64>,
    },
}

/// The CRC of a run's bytes, with the written bit.
fn run_crc(bytes: &[u8]) -> u64 {
    1 << 32 | u64::from(crc32fast::hash(bytes))
}

/// The DTZ starts of one group (see the module documentation).
pub(crate) struct StartLog {
    backing: Backing,
    len: u64,
    rule: u32,
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

impl StartLog {
    /// A log of `len` entries, all unset: in memory, or in a new file `path` (replacing any).
    pub(crate) fn new(len: u64, rule: u32, path: Option<&Path>) -> std::io::Result<StartLog> {
        let backing = match path {
            None => Backing::Memory(
                (0..len)
                    .into_par_iter()
                    .map(|_| AtomicU16::new(0))
                    .collect(),
            ),
            Some(p) => {
                if let Some(d) = p.parent() {
                    std::fs::create_dir_all(d)?;
                }
                crate::checkpoint::regular_or_absent(p)?;
                let file = std::fs::OpenOptions::new()
                    .read(true)
                    .write(true)
                    .create(true)
                    .truncate(true)
                    .open(p)?;
                file.set_len(len * 2)?;
                Backing::File {
                    file,
                    path: p.to_path_buf(),
                    crcs: (0..len.div_ceil(RUN)).map(|_| AtomicU64::new(0)).collect(),
                }
            }
        };
        Ok(StartLog {
            backing,
            len,
            rule,
            id: AtomicU64::new(NEXT_ID.fetch_add(1, Relaxed)),
        })
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

    /// Records the DTZ start of local index `i` (called by the DTM seeding, chunk by chunk).
    pub(crate) fn record(&self, i: u64, start: Start) -> std::io::Result<()> {
        let e = self.encode(start);
        let (file, crcs) = match &self.backing {
            Backing::Memory(v) => {
                v[i as usize].store(e, Relaxed);
                return Ok(());
            }
            Backing::File { file, crcs, .. } => (file, crcs),
        };
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
                file.write_all_at(&bytes, at * 2)?;
                // Only a whole run is vouched for.
                if at % RUN == 0 {
                    crcs[(at / RUN) as usize].store(run_crc(&bytes), Relaxed);
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
        let (file, crcs) = match &self.backing {
            Backing::Memory(v) => {
                for (a, s) in v[first as usize..].iter().zip(starts) {
                    a.store(encode(s), Relaxed);
                }
                return Ok(());
            }
            Backing::File { file, crcs, .. } => (file, crcs),
        };
        let end = first + starts.len() as u64;
        let mut at = first.next_multiple_of(RUN);
        while at < end {
            let stop = (at + RUN).min(self.len);
            if stop > end {
                break; // a run not given whole
            }
            let part = &starts[(at - first) as usize..(stop - first) as usize];
            let bytes: Vec<u8> = part.iter().flat_map(|s| encode(s).to_le_bytes()).collect();
            file.write_all_at(&bytes, at * 2)?;
            crcs[(at / RUN) as usize].store(run_crc(&bytes), Relaxed);
            at = stop;
        }
        Ok(())
    }

    /// The raw entries of the local indices `first..first + n` into `out` (unset where not
    /// recorded; [`decode_entry`](Self::decode_entry) reads them), a run read at a time.
    pub(crate) fn entries(&self, first: u64, n: usize, out: &mut Vec<u16>) -> std::io::Result<()> {
        out.clear();
        let end = first + n as u64;
        let (file, crcs, path) = match &self.backing {
            Backing::Memory(v) => {
                out.extend(
                    v[first as usize..end as usize]
                        .iter()
                        .map(|a| a.load(Relaxed)),
                );
                return Ok(());
            }
            Backing::File { file, crcs, path } => (file, crcs, path),
        };
        let mut i = first;
        while i < end {
            let at = i - i % RUN;
            let len = RUN.min(self.len - at);
            let take = (at + len).min(end) - i;
            match crcs[(at / RUN) as usize].load(Relaxed) {
                0 => out.resize(out.len() + take as usize, UNSET),
                crc => {
                    let mut bytes = vec![0u8; 2 * len as usize];
                    file.read_exact_at(&mut bytes, at * 2)?;
                    if run_crc(&bytes) != crc {
                        return Err(std::io::Error::new(
                            std::io::ErrorKind::InvalidData,
                            format!(
                                "{}: indices {at} to {}: CRC mismatch (changed while the \
                                 table was generated?)",
                                path.display(),
                                at + len - 1
                            ),
                        ));
                    }
                    let skip = (i - at) as usize;
                    out.extend(
                        bytes
                            .chunks_exact(2)
                            .skip(skip)
                            .take(take as usize)
                            .map(|b| u16::from_le_bytes([b[0], b[1]])),
                    );
                }
            }
            i += take;
        }
        Ok(())
    }

    /// The start an entry of [`entries`](Self::entries) records, if any.
    pub(crate) fn decode_entry(&self, e: u16) -> Option<Start> {
        self.decode(e)
    }

    /// A failure to read or write the log as a probe error (the engine's game has no error
    /// path; the generation reports it).
    pub(crate) fn io_error(&self, source: std::io::Error) -> crate::probe::ProbeError {
        let path = match &self.backing {
            Backing::Memory(_) => PathBuf::from("<starts in memory>"),
            Backing::File { path, .. } => path.clone(),
        };
        crate::probe::ProbeError::Table(crate::table::TableError::Io { path, source })
    }

    /// The recorded start of local index `i`, if recorded.
    pub(crate) fn get(&self, i: u64) -> std::io::Result<Option<Start>> {
        let e = match &self.backing {
            Backing::Memory(v) => v[i as usize].load(Relaxed),
            Backing::File { file, crcs, path } => READING.with_borrow_mut(|(id, first, run)| {
                let me = self.id.load(Relaxed);
                if *id != me || i < *first || i >= *first + run.len() as u64 {
                    let at = i - i % RUN;
                    let n = RUN.min(self.len - at) as usize;
                    *id = 0;
                    run.clear();
                    match crcs[(at / RUN) as usize].load(Relaxed) {
                        0 => run.resize(n, UNSET),
                        crc => {
                            let mut bytes = vec![0u8; 2 * n];
                            file.read_exact_at(&mut bytes, at * 2)?;
                            if run_crc(&bytes) != crc {
                                return Err(std::io::Error::new(
                                    std::io::ErrorKind::InvalidData,
                                    format!(
                                        "{}: indices {at} to {}: CRC mismatch (changed while \
                                         the table was generated?)",
                                        path.display(),
                                        at + n as u64 - 1
                                    ),
                                ));
                            }
                            run.extend(
                                bytes
                                    .chunks_exact(2)
                                    .map(|b| u16::from_le_bytes([b[0], b[1]])),
                            );
                        }
                    }
                    (*id, *first) = (me, at);
                }
                Ok::<_, std::io::Error>(run[(i - *first) as usize])
            })?,
        };
        Ok(self.decode(e))
    }

    /// Turns the open entries of the indices where `draw` holds into draws: the DTM group's
    /// draws, which are the DTZ group's (the same moves, exits of the same outcomes).
    pub(crate) fn mark_draws(&self, draw: impl Fn(u64) -> bool + Sync) -> std::io::Result<()> {
        // Runs buffered by any thread before are stale from here on.
        self.id.store(NEXT_ID.fetch_add(1, Relaxed), Relaxed);
        let mark = |first: u64, entries: &mut [u16]| {
            for (j, e) in entries.iter_mut().enumerate() {
                if *e & OPEN != 0 && draw(first + j as u64) {
                    *e = DRAW;
                }
            }
        };
        match &self.backing {
            Backing::Memory(v) => {
                v.par_chunks(RUN as usize)
                    .enumerate()
                    .for_each(|(c, chunk)| {
                        let first = c as u64 * RUN;
                        let mut entries: Vec<u16> = chunk.iter().map(|a| a.load(Relaxed)).collect();
                        mark(first, &mut entries);
                        chunk
                            .iter()
                            .zip(entries)
                            .for_each(|(a, e)| a.store(e, Relaxed));
                    });
                Ok(())
            }
            Backing::File { file, crcs, .. } => (0..self.len.div_ceil(RUN))
                .into_par_iter()
                .try_for_each(|c| {
                    let crc = &crcs[c as usize];
                    if crc.load(Relaxed) == 0 {
                        return Ok(()); // unrecorded: read as such
                    }
                    let first = c * RUN;
                    let n = RUN.min(self.len - first) as usize;
                    let mut bytes = vec![0u8; 2 * n];
                    file.read_exact_at(&mut bytes, first * 2)?;
                    if run_crc(&bytes) != crc.load(Relaxed) {
                        // Left as found, for `get` to report.
                        return Ok(());
                    }
                    let mut entries: Vec<u16> = bytes
                        .chunks_exact(2)
                        .map(|b| u16::from_le_bytes([b[0], b[1]]))
                        .collect();
                    mark(first, &mut entries);
                    let bytes: Vec<u8> = entries.iter().flat_map(|e| e.to_le_bytes()).collect();
                    file.write_all_at(&bytes, first * 2)?;
                    crc.store(run_crc(&bytes), Relaxed);
                    Ok(())
                }),
        }
    }

    /// How many entries are recorded (a test's and a statistic's view).
    #[cfg(test)]
    pub(crate) fn recorded(&self) -> u64 {
        (0..self.len)
            .filter(|&i| self.get(i).ok().flatten().is_some())
            .count() as u64
    }
}

impl Drop for StartLog {
    fn drop(&mut self) {
        if let Backing::File { path, .. } = &self.backing {
            let _ = std::fs::remove_file(path);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::Value;

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
            let log = StartLog::new(len, rule, path.as_deref()).unwrap();
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
            !dir.path().join("g.starts").exists(),
            "removed when dropped"
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
            let log = StartLog::new(len, rule, path.as_deref()).unwrap();
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
        let log = StartLog::new(2 * RUN, rule, Some(&path)).unwrap();
        let all: Vec<_> = (0..2 * RUN).map(|_| Some(Start::Hole)).collect();
        log.record_range(0, &all[..RUN as usize]).unwrap();
        log.record_range(RUN, &all[RUN as usize..]).unwrap();
        let file = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
        file.write_all_at(&DRAW.to_le_bytes(), (RUN + 1) * 2)
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
        let log = StartLog::new(len, 100, Some(&path)).unwrap();
        let open = Start::Open {
            moves: 3,
            exit: None,
        };
        for i in 0..len {
            log.record(i, open).unwrap();
        }
        let file = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
        // Index RUN + 5 becomes a hole.
        file.write_all_at(&HOLE.to_le_bytes(), (RUN + 5) * 2)
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
        let log = StartLog::new(len, 100, Some(&path)).unwrap();
        (0..len).for_each(|i| log.record(i, open).unwrap());
        assert_eq!(log.get(1).unwrap(), Some(open));
        log.mark_draws(|i| i == 2).unwrap();
        assert_eq!(log.get(2).unwrap(), Some(Start::Terminal(Outcome::Draw)));
    }
}
