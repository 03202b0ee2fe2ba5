//! The table file format (version 4): a header, a block directory, then the entries cut into
//! blocks, each compressed on its own so that one probe decodes one block.
//!
//! | bytes | field |
//! |---|---|
//! | 0..8 | magic `ZRMCHESS` |
//! | 8..12 | format version, little-endian `u32` (4) |
//! | 12 | metric: 1 = DTM in plies (one byte per entry), 2 = DTZ (two bytes per entry) |
//! | 13 | codec of the blocks: 0 raw, 1 zstd, 2 run-length ([`Codec`]) |
//! | 14..16 | DTZ: the rule's length in plies (`u16`, 1 to 1000); DTM: zero |
//! | 16..32 | material (`KQvKR`), ASCII, zero-padded |
//! | 32..40 | number of entries, little-endian `u64` |
//! | 40..44 | entries per block (a power of two, 2^10 to 2^20), `u32` |
//! | 44..48 | zero |
//! | 48..56 | number of blocks, `u64` (entries / entries per block, rounded up) |
//! | 56..60 | CRC-32 of the block directory, `u32` |
//! | 60..64 | CRC-32 of bytes 0..60, `u32` |
//! | 64.. | block directory: per block, the end of its bytes in the data (`u64`, relative to the data's start) and the CRC-32 of those bytes (`u32`) |
//! | then | the blocks' bytes, back to back |
//!
//! A DTM entry is one byte: 0 draw, otherwise `plies + 1` (odd plies win, even lose), so
//! depths reach 254 plies. Indices that hold no position are filled with 255 (`Loss(254)`'s
//! byte); the [`Indexer`] tells them apart. A DTZ entry is a little-endian `u16` holding the
//! position's value in the zeroing scale ([`crate::dtz`]): 0 draw, `0x8000 | d` a win in `d`
//! plies, `d + 1` a loss in `d` plies, `0xFFFF` no position. The block directory counts
//! entries; a block holds `entries per block x entry width` bytes before compression.
//!
//! Every size the header declares is checked against the material and the file length before
//! anything is allocated, and every block's checksum when the table is opened.

use std::fs::File;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

use rayon::prelude::*;
use zermelo::io::Mapping;

use crate::dtz::Wdl50;
use crate::index::Indexer;
use crate::material::{Material, MAX_PIECES};
use crate::value::{Value, ILLEGAL};

/// Entry `k` of entry bytes of width `w` (1 or 2, little-endian).
#[inline]
fn entry_at(bytes: &[u8], w: usize, k: usize) -> u16 {
    if w == 2 {
        u16::from_le_bytes([bytes[2 * k], bytes[2 * k + 1]])
    } else {
        u16::from(bytes[k])
    }
}

const MAGIC: &[u8; 8] = b"ZRMCHESS";
const VERSION: u32 = 4;
/// Version 3 had the same layout and the same index for tables with pawns; its pawnless tables
/// used another index (the white king in its triangle and 64 squares per other piece, version
/// 4 numbers the kings' 462 placements and the pieces' free squares), so only its pawn tables
/// are still read. Version 2 put the pawn digits last, version 1 had another header.
const PAWN_VERSION: u32 = 3;
const METRIC_DTM: u8 = 1;
const METRIC_DTZ: u8 = 2;
const HEADER: usize = 64;
const DIR_ENTRY: usize = 12;
const MIN_BLOCK_LOG: u32 = 10;
const MAX_BLOCK_LOG: u32 = 20;
/// Decoded blocks kept per thread, of all tables ([`BLOCK_CACHE`]): at most 32 MB per thread
/// with the generator's blocks (4,096 bytes decoded, DTM and DTZ alike). Generating KNPvKN,
/// whose promotions probe four 5-piece tables (DTM, then DTZ), decodes 3.0 million blocks
/// with 1,024 slots and 0.46 million with 8,192 (124.7 s against 118.9 s, 55 MB more at the
/// peak); 32,768 slots were no faster and took 250 MB more.
const CACHE_SLOTS: usize = 8192;
/// The most a thread's block cache holds with the generator's blocks (the memory estimates).
pub(crate) const BLOCK_CACHE_BYTES: u64 = CACHE_SLOTS as u64 * 4096;

/// Why a table file cannot be used.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum TableError {
    /// The file cannot be read.
    #[error("{path}: cannot read table: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: io::Error,
    },
    /// The file is not a table, or is corrupt.
    #[error("{source_name}: corrupt table: {reason}")]
    Corrupt {
        /// The file (or `<memory>`).
        source_name: String,
        /// What is wrong.
        reason: String,
    },
    /// The file is a table of another format version.
    #[error("{source_name}: table format version {found}, this zermelo reads version {VERSION}: regenerate with `zermelo tb gen {material}`")]
    Version {
        /// The file (or `<memory>`).
        source_name: String,
        /// The version the file declares.
        found: u32,
        /// The material the file names (as written, maybe empty).
        material: String,
    },
}

/// What a table's entries measure.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Metric {
    /// Depth to mate in plies, one byte per entry (`<material>.zct`).
    Dtm,
    /// Distance to zeroing (and with it the five-class result) under a move-count rule of
    /// `rule` plies, two bytes per entry (`<material>.zdz`; see [`crate::dtz`]).
    Dtz {
        /// The rule's length in plies (100 for the 50-move rule).
        rule: u32,
    },
}

impl Metric {
    fn id(self) -> u8 {
        match self {
            Metric::Dtm => METRIC_DTM,
            Metric::Dtz { .. } => METRIC_DTZ,
        }
    }

    /// Bytes per entry.
    pub fn width(self) -> usize {
        match self {
            Metric::Dtm => 1,
            Metric::Dtz { .. } => 2,
        }
    }

    /// The file name of a material's table of this metric (`KQvKR.zct`, `KQvKR.zdz`).
    pub fn file_name(self, material: &Material) -> String {
        match self {
            Metric::Dtm => format!("{material}.zct"),
            Metric::Dtz { .. } => format!("{material}.zdz"),
        }
    }

    /// `DTM` or `DTZ`.
    pub fn name(self) -> &'static str {
        match self {
            Metric::Dtm => "DTM",
            Metric::Dtz { .. } => "DTZ",
        }
    }

    /// The entry of an index that holds no position.
    pub(crate) fn encode_illegal(self) -> u16 {
        self.illegal()
    }

    /// The value of an entry of a legal position.
    #[inline]
    pub(crate) fn decode_entry(self, e: u16) -> Value {
        self.decode(e)
    }

    /// The entry of an index that holds no position.
    fn illegal(self) -> u16 {
        match self {
            Metric::Dtm => u16::from(ILLEGAL),
            Metric::Dtz { .. } => crate::dtz::DTZ_ILLEGAL,
        }
    }

    /// The value of an entry, assuming its index holds a position.
    #[inline]
    fn decode(self, e: u16) -> Value {
        match self {
            Metric::Dtm => crate::value::decode(e as u8),
            Metric::Dtz { .. } => crate::dtz::decode_dtz(e),
        }
    }

    /// The entry of a value (`None` past what an entry holds).
    pub(crate) fn encode(self, v: Value) -> Option<u16> {
        match self {
            Metric::Dtm => crate::value::encode(v).map(u16::from),
            Metric::Dtz { .. } => crate::dtz::encode_dtz(v),
        }
    }

    /// Whether an entry needs the indexer to tell a position from a hole.
    fn ambiguous(self, e: u16) -> bool {
        match self {
            Metric::Dtm => e == u16::from(ILLEGAL),
            Metric::Dtz { .. } => false,
        }
    }
}

/// How the blocks of a table file are compressed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Codec {
    /// Stored as is: one byte per entry.
    Raw,
    /// Zstandard at this level (1 to 22).
    Zstd(i32),
    /// Runs of equal entries: the entry byte, then the run length minus one as a LEB128
    /// varint. Decoding one entry scans the block's runs without decoding the rest.
    RunLength,
}

impl Codec {
    fn id(self) -> u8 {
        match self {
            Codec::Raw => 0,
            Codec::Zstd(_) => 1,
            Codec::RunLength => 2,
        }
    }

    fn from_id(id: u8) -> Option<Codec> {
        match id {
            0 => Some(Codec::Raw),
            1 => Some(Codec::Zstd(0)),
            2 => Some(Codec::RunLength),
            _ => None,
        }
    }
}

/// How to write a table file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WriteOptions {
    /// The codec of the blocks.
    pub codec: Codec,
    /// Entries per block, a power of two from 2^10 to 2^20: smaller blocks probe faster,
    /// larger ones compress better.
    pub block_entries: u32,
}

impl WriteOptions {
    /// What the generator writes: DTM in zstd level 1, blocks of 4,096 entries; DTZ in zstd
    /// level 4, blocks of 2,048 entries. Measured on KNPvKN, KRNvKN and KRBvKP (AMD EPYC, 2
    /// threads, see BENCHMARKS.md): level 6 took 4.9 s (DTM) and 5.7 s (DTZ) of KNPvKN's
    /// 136 s; DTM entries (depths of one byte, in long runs) compress about as well at level
    /// 1 (files 0-7% larger) in a third of the time; DTZ entries lose more at low levels, and
    /// a DTZ probe decodes its whole block: level 4 in half blocks compresses in 60% of level
    /// 6's time and probes KRNvKN in 8.4 us against 11.2 us (mapped, random positions), for
    /// files 12-24% larger.
    pub fn for_metric(metric: Metric) -> WriteOptions {
        match metric {
            Metric::Dtm => WriteOptions {
                codec: Codec::Zstd(1),
                block_entries: 1 << 12,
            },
            Metric::Dtz { .. } => WriteOptions {
                codec: Codec::Zstd(4),
                block_entries: 1 << 11,
            },
        }
    }
}

impl Default for WriteOptions {
    /// zstd level 6 in blocks of 4,096 entries: smaller files than the generator's
    /// ([`WriteOptions::for_metric`]), for rewriting tables to keep (on KRPvKR's entries level
    /// 6 compresses 1.9x (DTM) and 3.1x (DTZ) faster than level 8 for files 1% and 7% larger).
    fn default() -> WriteOptions {
        WriteOptions {
            codec: Codec::Zstd(6),
            block_entries: 1 << 12,
        }
    }
}

/// The bytes of a table file, read into memory or mapped.
enum FileBytes {
    Owned(Vec<u8>),
    Mapped(Mapping),
}

impl FileBytes {
    fn get(&self) -> &[u8] {
        match self {
            FileBytes::Owned(v) => v,
            FileBytes::Mapped(m) => m.bytes(),
        }
    }
}

/// A table file checked by [`check`]: where its directory and blocks are.
struct Blocks {
    file: FileBytes,
    width: usize,
    source_name: String,
    codec: Codec,
    block_entries: u64,
    count: usize,
    data_start: usize,
    /// Names this table's blocks in the threads' block caches ([`BLOCK_CACHE`]).
    id: u64,
}

enum Storage {
    /// As generated: the entries' bytes (one or two per index).
    Entries(Vec<u8>),
    /// As read from a file.
    Blocks(Blocks),
}

/// One solved material: an entry per index of its [`Indexer`].
pub struct Table {
    indexer: Indexer,
    metric: Metric,
    storage: Storage,
    /// [`Table::stats`], when counted while the entries were written ([`Table::from_fill`]).
    counted: Option<Stats>,
}

impl std::fmt::Debug for Table {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Table({} {}, {} entries)",
            self.material(),
            self.metric.name(),
            self.size()
        )
    }
}

/// The longest win or loss for one side to move: its depth and how many positions have it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Longest {
    /// Depth to mate in plies.
    pub plies: u32,
    /// How many (symmetry-reduced) positions have exactly this depth.
    pub positions: u64,
}

impl Longest {
    /// Records `n` positions of depth `plies`.
    fn record(slot: &mut Option<Longest>, plies: u32, n: u64) {
        match slot {
            Some(l) if l.plies == plies => l.positions += n,
            Some(l) if l.plies > plies => {}
            _ => {
                *slot = Some(Longest {
                    plies,
                    positions: n,
                })
            }
        }
    }

    fn merge(a: Option<Longest>, b: Option<Longest>) -> Option<Longest> {
        match (a, b) {
            (Some(x), Some(y)) if x.plies == y.plies => Some(Longest {
                plies: x.plies,
                positions: x.positions + y.positions,
            }),
            (Some(x), Some(y)) => Some(if x.plies > y.plies { x } else { y }),
            (x, y) => x.or(y),
        }
    }
}

/// Counts per outcome and the longest win and loss of a table, over symmetry-reduced index
/// positions (each position once up to the board symmetries the index removes).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// `[side to move][win, loss, draw]`, white to move first.
    pub counts: [[u64; 3]; 2],
    /// Illegal or non-canonical indices.
    pub illegal: u64,
    /// `[side to move]`: the longest win for that side to move (`None`: it never wins).
    pub longest_win: [Option<Longest>; 2],
    /// `[side to move]`: the longest loss for that side to move (`None`: it never loses;
    /// `Some` with 0 plies: its only losses are checkmates on the board).
    pub longest_loss: [Option<Longest>; 2],
    /// DTZ tables only: the five classes under the table's rule.
    pub wdl50: Option<Wdl50Stats>,
}

/// The five-class counts and the longest DTZ of a DTZ table, for each side to move.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Wdl50Stats {
    /// The rule's length in plies.
    pub rule: u32,
    /// `[side to move][class]`, classes worst first as in [`Wdl50::ALL`] (loss, blessed loss,
    /// draw, cursed win, win).
    pub counts: [[u64; 5]; 2],
    /// `[side to move]`: the longest DTZ of a win under the rule (0 if none).
    pub longest_dtz_win: [u32; 2],
    /// `[side to move]`: the longest DTZ of a cursed win (0 if none).
    pub longest_dtz_cursed_win: [u32; 2],
    /// `[side to move]`: the longest DTZ of a loss (0 if none; a checkmate counts as 1).
    pub longest_dtz_loss: [u32; 2],
    /// `[side to move]`: the longest DTZ of a blessed loss (0 if none).
    pub longest_dtz_blessed_loss: [u32; 2],
}

impl Wdl50Stats {
    /// Counts `n` positions of value `v`.
    fn add(&mut self, side: usize, v: Value, n: u64) {
        let class = Wdl50::of(v, self.rule);
        self.counts[side][class as usize] += n;
        let dtz = crate::dtz::syzygy_dtz(v).unsigned_abs();
        let slot = match class {
            Wdl50::Win => &mut self.longest_dtz_win[side],
            Wdl50::CursedWin => &mut self.longest_dtz_cursed_win[side],
            Wdl50::Loss => &mut self.longest_dtz_loss[side],
            Wdl50::BlessedLoss => &mut self.longest_dtz_blessed_loss[side],
            Wdl50::Draw => return,
        };
        *slot = (*slot).max(dtz);
    }

    fn merge(&mut self, o: &Wdl50Stats) {
        for side in 0..2 {
            for k in 0..5 {
                self.counts[side][k] += o.counts[side][k];
            }
            let pairs = [
                (&mut self.longest_dtz_win, &o.longest_dtz_win),
                (&mut self.longest_dtz_cursed_win, &o.longest_dtz_cursed_win),
                (&mut self.longest_dtz_loss, &o.longest_dtz_loss),
                (
                    &mut self.longest_dtz_blessed_loss,
                    &o.longest_dtz_blessed_loss,
                ),
            ];
            for (a, b) in pairs {
                a[side] = a[side].max(b[side]);
            }
        }
    }
}

impl Stats {
    /// The longest win in plies, either side to move (0 if there is none).
    pub fn longest_plies(&self) -> u32 {
        self.longest_win
            .iter()
            .flatten()
            .map(|l| l.plies)
            .max()
            .unwrap_or(0)
    }

    /// No positions, for a table of `metric`.
    fn empty(metric: Metric) -> Stats {
        Stats {
            wdl50: match metric {
                Metric::Dtm => None,
                Metric::Dtz { rule } => Some(Wdl50Stats {
                    rule,
                    ..Wdl50Stats::default()
                }),
            },
            ..Stats::default()
        }
    }

    /// Counts `n` indices of value `value` (`None`: no position) with `side` to move.
    fn add(&mut self, side: usize, value: Option<Value>, n: u64) {
        if let (Some(w), Some(v)) = (&mut self.wdl50, value) {
            w.add(side, v, n);
        }
        match value {
            None => self.illegal += n,
            Some(Value::Win(d)) => {
                self.counts[side][0] += n;
                Longest::record(&mut self.longest_win[side], d, n);
            }
            Some(Value::Lose(d)) => {
                self.counts[side][1] += n;
                Longest::record(&mut self.longest_loss[side], d, n);
            }
            Some(Value::Draw) => self.counts[side][2] += n,
        }
    }

    fn merge(mut self, other: Stats) -> Stats {
        for side in 0..2 {
            for k in 0..3 {
                self.counts[side][k] += other.counts[side][k];
            }
            self.longest_win[side] =
                Longest::merge(self.longest_win[side], other.longest_win[side]);
            self.longest_loss[side] =
                Longest::merge(self.longest_loss[side], other.longest_loss[side]);
        }
        self.illegal += other.illegal;
        match (&mut self.wdl50, &other.wdl50) {
            (Some(a), Some(b)) => a.merge(b),
            (None, Some(b)) => self.wdl50 = Some(b.clone()),
            _ => {}
        }
        self
    }
}

impl Table {
    /// A table from its entry bytes (as generated: [`Value::encode`], [`ILLEGAL`] where an
    /// index holds no position).
    pub(crate) fn from_entries(material: &Material, metric: Metric, entries: Vec<u8>) -> Table {
        debug_assert_eq!(
            entries.len() as u64,
            Indexer::new(material).size() * metric.width() as u64
        );
        Table {
            indexer: Indexer::new(material),
            metric,
            storage: Storage::Entries(entries),
            counted: None,
        }
    }

    /// Lets the kernel take the pages of a mapped table file out of the resident set (see
    /// [`Mapping::release`]); the next probes read them back. Nothing for a table in memory.
    pub fn release_pages(&self) {
        if let Storage::Blocks(Blocks {
            file: FileBytes::Mapped(m),
            ..
        }) = &self.storage
        {
            m.release();
        }
    }

    /// Bytes the entries take decoded ([`Table::resident`]'s memory).
    pub fn resident_bytes(&self) -> u64 {
        self.size() * self.metric.width() as u64
    }

    /// The same table with every entry decoded into memory ([`Table::resident_bytes`]): a
    /// probe is then an array read instead of a block decompression. The generator probes
    /// its smaller tables at random places, where a block cache misses nearly every time.
    pub fn resident(&self) -> Result<Table, TableError> {
        let w = self.metric.width();
        let entries = match &self.storage {
            Storage::Entries(v) => v.clone(),
            Storage::Blocks(b) => {
                let mut entries = vec![0u8; self.resident_bytes() as usize];
                entries
                    .par_chunks_mut(b.block_entries as usize * w)
                    .enumerate()
                    .try_for_each_init(Vec::new, |block, (k, out)| {
                        b.decode(k, block)?;
                        if block.len() != out.len() {
                            return Err(b.corrupt(format!(
                                "block {k}: {} bytes, expected {}",
                                block.len(),
                                out.len()
                            )));
                        }
                        out.copy_from_slice(block);
                        Ok(())
                    })?;
                entries
            }
        };
        Ok(Table {
            indexer: self.indexer.clone(),
            metric: self.metric,
            storage: Storage::Entries(entries),
            counted: self.counted.clone(),
        })
    }

    /// The file name of a material's DTM table (`KQvKR.zct`).
    pub fn file_name(material: &Material) -> String {
        Metric::Dtm.file_name(material)
    }

    /// What the entries measure.
    pub fn metric(&self) -> Metric {
        self.metric
    }

    /// The material (canonical orientation).
    pub fn material(&self) -> &Material {
        self.indexer.material()
    }

    /// The indexer.
    pub fn indexer(&self) -> &Indexer {
        &self.indexer
    }

    /// Number of entries (indices, legal or not).
    pub fn size(&self) -> u64 {
        self.indexer.size()
    }

    /// The entry of index `idx < size()`, or why its block cannot be decoded.
    pub(crate) fn entry(&self, idx: u64) -> Result<u16, TableError> {
        match &self.storage {
            Storage::Entries(v) => Ok(entry_at(v, self.metric.width(), idx as usize)),
            Storage::Blocks(b) => b.entry(idx),
        }
    }

    /// The value of index `idx` (depth to mate for a DTM table, the zeroing-scale value for
    /// a DTZ table): `None` if it holds no position (illegal, non-canonical or out of range);
    /// an error if its block is corrupt.
    pub fn value(&self, idx: u64) -> Result<Option<Value>, TableError> {
        if idx >= self.size() {
            return Ok(None);
        }
        let e = self.entry(idx)?;
        if e == self.metric.illegal()
            && (!self.metric.ambiguous(e) || self.indexer.legal(idx).is_none())
        {
            return Ok(None);
        }
        Ok(Some(self.metric.decode(e)))
    }

    /// The value of index `idx`, known to be the canonical index of a legal position.
    pub(crate) fn value_of_legal(&self, idx: u64) -> Result<Value, TableError> {
        self.legal_value_of_entry(idx, self.entry(idx)?)
    }

    /// Whether entry `e` alone says that its index holds no position: a DTZ table's filler
    /// is no value's entry (the generator writes it exactly where [`SliceGame::legal_board`]
    /// finds no board), DTM's filler is also a loss in 254 plies (`false`: ask the indexer).
    ///
    /// [`SliceGame::legal_board`]: crate::slice::SliceGame::legal_board
    #[inline]
    pub(crate) fn entry_marks_hole(&self, e: u16) -> bool {
        e == self.metric.illegal() && !self.metric.ambiguous(e)
    }

    /// Whether every entry that is not a hole's ([`entry_marks_hole`](Self::entry_marks_hole))
    /// holds a legal position at its canonical index: DTZ tables.
    pub(crate) fn entries_mark_holes(&self) -> bool {
        matches!(self.metric, Metric::Dtz { .. })
    }

    /// [`value_of_legal`](Self::value_of_legal) of index `idx` whose entry `e` was read
    /// already (from [`par_entries`](Self::par_entries)).
    pub(crate) fn legal_value_of_entry(&self, idx: u64, e: u16) -> Result<Value, TableError> {
        if e == self.metric.illegal() && !self.metric.ambiguous(e) {
            return Err(TableError::Corrupt {
                source_name: self.source_name(),
                reason: format!("index {idx} holds a position but its entry marks none"),
            });
        }
        Ok(self.metric.decode(e))
    }

    fn source_name(&self) -> String {
        match &self.storage {
            Storage::Entries(_) => format!("<generated {}>", self.material()),
            Storage::Blocks(b) => b.source_name.clone(),
        }
    }

    /// Calls `f(first index, entries)` in parallel, in no order, for each block of entries
    /// whose indices `first..end` pass `wanted(first, end)`: each block decoded once, none
    /// through the block cache.
    pub(crate) fn par_entries<T: Send>(
        &self,
        wanted: impl Fn(u64, u64) -> bool + Sync + Send,
        f: impl Fn(u64, &mut dyn Iterator<Item = u16>) -> T + Sync + Send,
    ) -> Result<Vec<T>, TableError> {
        let w = self.metric.width();
        let entries = |first: u64, bytes: &[u8]| {
            f(
                first,
                &mut (0..bytes.len() / w).map(|k| entry_at(bytes, w, k)),
            )
        };
        match &self.storage {
            Storage::Entries(v) => {
                const CHUNK: usize = 1 << 12;
                Ok(v.par_chunks(CHUNK * w)
                    .enumerate()
                    .filter_map(|(i, c)| {
                        let first = (i * CHUNK) as u64;
                        wanted(first, first + (c.len() / w) as u64).then(|| entries(first, c))
                    })
                    .collect())
            }
            Storage::Blocks(b) => {
                let total = self.size();
                (0..b.count)
                    .into_par_iter()
                    .filter(|&k| {
                        let first = k as u64 * b.block_entries;
                        wanted(first, (first + b.block_entries).min(total))
                    })
                    .map_init(Vec::new, |out, k| {
                        b.decode(k, out)?;
                        Ok(entries(k as u64 * b.block_entries, out))
                    })
                    .collect()
            }
        }
    }

    /// Calls `f(first index, entry bytes)` for each block of entries in parallel, in no order.
    fn par_blocks<T: Send>(
        &self,
        f: impl Fn(u64, &[u8]) -> T + Sync + Send,
    ) -> Result<Vec<T>, TableError> {
        match &self.storage {
            Storage::Entries(v) => {
                const CHUNK: usize = 1 << 16;
                let w = self.metric.width();
                Ok(v.par_chunks(CHUNK * w)
                    .enumerate()
                    .map(|(i, c)| f((i * CHUNK) as u64, c))
                    .collect())
            }
            Storage::Blocks(b) => (0..b.count)
                .into_par_iter()
                .map(|k| {
                    let mut out = Vec::new();
                    b.decode(k, &mut out)?;
                    Ok(f(k as u64 * b.block_entries, &out))
                })
                .collect(),
        }
    }

    /// [`Table::stats`] of a DTM table, with the same material's DTZ table `twin` telling
    /// which filler entries are holes: a DTZ table marks them with an entry no position has,
    /// where DTM's filler byte is also `Lose(254)`, which `stats` can only tell apart by
    /// unranking each (most of its time). Any other pair is counted as `stats` counts it.
    pub fn stats_with_twin(&self, twin: &Table) -> Result<Stats, TableError> {
        if self.counted.is_some()
            || self.metric != Metric::Dtm
            || !matches!(twin.metric, Metric::Dtz { .. })
            || twin.material() != self.material()
        {
            return self.stats();
        }
        let filler = self.metric.illegal();
        let hole = twin.metric.illegal();
        let (w, tw) = (self.metric.width(), twin.metric.width());
        let parts = self.par_blocks(|first, bytes| {
            let mut s = Stats::empty(self.metric);
            let half = self.indexer.size() / 2;
            let mut theirs = vec![0u8; bytes.len() / w * tw];
            twin.read_entries(first, &mut theirs)?;
            for k in 0..bytes.len() / w {
                let e = entry_at(bytes, w, k);
                let idx = first + k as u64;
                let legal = e != filler || entry_at(&theirs, tw, k) != hole;
                s.add(
                    usize::from(idx >= half),
                    legal.then(|| self.metric.decode(e)),
                    1,
                );
            }
            Ok(s)
        })?;
        parts
            .into_iter()
            .try_fold(Stats::empty(self.metric), |a, b| Ok(Stats::merge(a, b?)))
    }

    /// Per-outcome counts and the longest win and loss for each side to move.
    pub fn stats(&self) -> Result<Stats, TableError> {
        if let Some(s) = &self.counted {
            return Ok(s.clone());
        }
        let parts = self.par_blocks(|first, bytes| {
            count_entries(&self.indexer, self.metric, first, bytes, false)
        })?;
        Ok(parts
            .into_iter()
            .fold(Stats::empty(self.metric), Stats::merge))
    }

    /// Writes the table in the file format with the generator's options for its metric
    /// ([`WriteOptions::for_metric`]).
    pub fn write_to(&self, w: &mut dyn Write) -> io::Result<u64> {
        self.write_with(w, &WriteOptions::for_metric(self.metric))
    }

    /// Writes the table in the file format, compressing blocks in parallel; returns the number
    /// of bytes written. A table that already is a file of this version with these options
    /// (as [`generate`](crate::generate()) makes them) is written as it is.
    pub fn write_with(&self, w: &mut dyn Write, options: &WriteOptions) -> io::Result<u64> {
        if let Storage::Blocks(b) = &self.storage {
            let bytes = b.file.get();
            if le_u32(bytes, 8) == VERSION
                && bytes[12] == self.metric.id()
                && b.codec.id() == options.codec.id()
                && b.block_entries == u64::from(options.block_entries)
            {
                w.write_all(bytes)?;
                return Ok(bytes.len() as u64);
            }
        }
        let bytes = encode(self.material(), self.metric, options, |first, out| {
            self.read_entries(first, out).map_err(io::Error::other)
        })?;
        w.write_all(&bytes)?;
        Ok(bytes.len() as u64)
    }

    /// A table compressed block by block from `fill(first, out)`, which must write the
    /// entries' bytes from index `first` on into `out` (a whole number of entries): the
    /// entries are never all in memory at once. `filler_is_hole`: the caller knows that no
    /// position has the entry that also fills the indices without one (DTM's `Lose(254)`,
    /// [`ILLEGAL`]), so the statistics need not ask the indexer about each filler entry
    /// (unranking every hole was 7% of generating KRNvKN).
    pub(crate) fn from_fill(
        material: &Material,
        metric: Metric,
        options: &WriteOptions,
        filler_is_hole: bool,
        mut fill: impl FnMut(u64, &mut [u8]) -> io::Result<()>,
    ) -> io::Result<Table> {
        // The statistics are counted from the entries on their way to the compressor (a
        // second pass would decode every block again).
        let indexer = Indexer::new(material);
        let w = metric.width();
        let mut counted = Stats::empty(metric);
        let bytes = encode(material, metric, options, |first, out| {
            fill(first, out)?;
            const CHUNK: usize = 1 << 16;
            let parts: Vec<Stats> = out
                .par_chunks(CHUNK * w)
                .enumerate()
                .map(|(i, c)| {
                    let first = first + (i * CHUNK) as u64;
                    count_entries(&indexer, metric, first, c, filler_is_hole)
                })
                .collect();
            counted = parts
                .into_iter()
                .fold(std::mem::take(&mut counted), Stats::merge);
            Ok(())
        })?;
        let mut table =
            Table::from_file(FileBytes::Owned(bytes), format!("<generated {material}>"))
                .map_err(io::Error::other)?;
        table.counted = Some(counted);
        Ok(table)
    }

    /// Copies the entries' bytes from index `first` on into `out`.
    pub(crate) fn read_entries(&self, first: u64, out: &mut [u8]) -> Result<(), TableError> {
        let w = self.metric.width();
        match &self.storage {
            Storage::Entries(v) => {
                let at = first as usize * w;
                out.copy_from_slice(&v[at..at + out.len()]);
            }
            Storage::Blocks(b) => {
                let mut block = Vec::new();
                let mut at = 0;
                while at < out.len() {
                    let idx = first + (at / w) as u64;
                    let k = (idx / b.block_entries) as usize;
                    b.decode(k, &mut block)?;
                    let skip = (idx % b.block_entries) as usize * w;
                    let n = (block.len() - skip).min(out.len() - at);
                    out[at..at + n].copy_from_slice(&block[skip..skip + n]);
                    at += n;
                }
            }
        }
        Ok(())
    }

    /// Opens a table file, reading it into memory and checking it whole.
    pub fn open(path: &Path) -> Result<Table, TableError> {
        let io_err = |source| TableError::Io {
            path: path.to_path_buf(),
            source,
        };
        let mut bytes = Vec::new();
        File::open(path)
            .and_then(|mut f| f.read_to_end(&mut bytes))
            .map_err(io_err)?;
        Table::from_file(FileBytes::Owned(bytes), path.display().to_string())
    }

    /// Opens a table file memory-mapped: only the blocks probed are read from disk.
    ///
    /// Opening checks every block's checksum through the mapping, which reads the whole file;
    /// its pages then leave this process's resident set again ([`Table::release_pages`]), and
    /// the probes fault in only what they read. (Kept resident, they counted in a generation's
    /// peak: `tb gen --all 5` opens each table it wrote when a larger one first probes it, and
    /// KPPvKQ's four promotion tables, 1.6 GB, stayed until its first group ended.)
    ///
    /// # Safety
    ///
    /// The file must not be modified or truncated while the table lives (zermelo writes
    /// tables to a temporary file and renames it into place, which leaves a mapped file
    /// intact); see [`Mapping::new`].
    #[allow(unsafe_code)]
    pub unsafe fn open_mapped(path: &Path) -> Result<Table, TableError> {
        let io_err = |source| TableError::Io {
            path: path.to_path_buf(),
            source,
        };
        let file = File::open(path).map_err(io_err)?;
        // SAFETY: the caller promises the file stays as it is while the table lives.
        let map = unsafe { Mapping::new(&file, false) }.map_err(io_err)?;
        let table = Table::from_file(FileBytes::Mapped(map), path.display().to_string())?;
        table.release_pages();
        Ok(table)
    }

    /// Writes this table to `path` atomically and gives it back mapped from there, its
    /// statistics kept: a generated table whose entries need not stay in memory (a finished
    /// DTM table kept in the work folder while the DTZ table is solved).
    ///
    /// # Safety
    ///
    /// As [`Table::open_mapped`]: `path` must not be modified or truncated while the table
    /// lives (removing it is fine).
    #[allow(unsafe_code)]
    pub(crate) unsafe fn keep_mapped(self, path: &Path) -> Result<Table, TableError> {
        crate::atomic::write_atomically(path, |w| self.write_to(w)).map_err(|source| {
            TableError::Io {
                path: path.to_path_buf(),
                source,
            }
        })?;
        // SAFETY: the caller's promise.
        let mut kept = unsafe { Table::open_mapped(path) }?;
        kept.counted = self.counted;
        Ok(kept)
    }

    /// Reads a table from bytes in the file format.
    pub fn from_bytes(bytes: &[u8]) -> Result<Table, TableError> {
        Table::from_file(FileBytes::Owned(bytes.to_vec()), "<memory>".into())
    }

    fn from_file(file: FileBytes, source_name: String) -> Result<Table, TableError> {
        let layout = check(file.get(), &source_name)?;
        let blocks = Blocks {
            file,
            width: layout.metric.width(),
            source_name,
            codec: layout.codec,
            block_entries: layout.block_entries,
            count: layout.count,
            data_start: HEADER + layout.count * DIR_ENTRY,
            id: NEXT_BLOCKS_ID.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
        };
        Ok(Table {
            indexer: Indexer::new(&layout.material),
            metric: layout.metric,
            storage: Storage::Blocks(blocks),
            counted: None,
        })
    }

    /// Size of the table in bytes on disk (for a generated table: uncompressed).
    pub fn file_size(&self) -> u64 {
        match &self.storage {
            Storage::Entries(v) => (HEADER + v.len()) as u64,
            Storage::Blocks(b) => b.file.get().len() as u64,
        }
    }
}

/// The statistics of the entries' bytes `bytes` of indices `first..` of a table.
fn count_entries(
    indexer: &Indexer,
    metric: Metric,
    first: u64,
    bytes: &[u8],
    filler_is_hole: bool,
) -> Stats {
    let half = indexer.size() / 2;
    let w = metric.width();
    let n = bytes.len() / w;
    // The first entry with black to move (the index's second half).
    let black = half.saturating_sub(first).min(n as u64) as usize;
    let mut s = Stats::empty(metric);
    // Run by run: the entries come in long runs of one value (holes, draws, depths), and
    // counting a run once was most of the statistics' time.
    let mut k = 0;
    while k < n {
        let idx = first + k as u64;
        let e = entry_at(bytes, w, k);
        let side = usize::from(k >= black);
        if e == metric.illegal() && !filler_is_hole && metric.ambiguous(e) {
            // DTM's filler is also a loss in 254 plies: the indexer tells which.
            let legal = indexer.legal(idx).is_some();
            s.add(side, legal.then(|| metric.decode(e)), 1);
            k += 1;
            continue;
        }
        let end = if k < black { black } else { n };
        let mut j = k + 1;
        while j < end && entry_at(bytes, w, j) == e {
            j += 1;
        }
        let legal = e != metric.illegal();
        s.add(side, legal.then(|| metric.decode(e)), (j - k) as u64);
        k = j;
    }
    s
}

/// The file bytes of `material`'s table, its entries supplied piece by piece by `fill` (see
/// [`Table::from_fill`]); blocks are compressed in parallel.
fn encode(
    material: &Material,
    metric: Metric,
    options: &WriteOptions,
    mut fill: impl FnMut(u64, &mut [u8]) -> io::Result<()>,
) -> io::Result<Vec<u8>> {
    /// Entries read per piece: a multiple of every block size.
    const PIECE: u64 = 1 << 20;
    let block = options.block_entries;
    if !block.is_power_of_two() || !(MIN_BLOCK_LOG..=MAX_BLOCK_LOG).contains(&block.ilog2()) {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("{block} entries per block: expected a power of two from 2^10 to 2^20"),
        ));
    }
    let total = Indexer::new(material).size();
    let count = total.div_ceil(u64::from(block)) as usize;
    let data_start = HEADER + count * DIR_ENTRY;
    // Header and directory are filled in at the end; the blocks go straight after them.
    let mut bytes = vec![0u8; data_start];
    let w = metric.width();
    let mut buf = vec![0u8; total.min(PIECE) as usize * w];
    let mut first = 0;
    let mut k = 0;
    while first < total {
        let piece = &mut buf[..(total - first).min(PIECE) as usize * w];
        fill(first, piece)?;
        let blocks: Vec<Vec<u8>> = piece
            .par_chunks(block as usize * w)
            .map(|c| compress(options.codec, c))
            .collect::<io::Result<_>>()?;
        for b in &blocks {
            bytes.extend_from_slice(b);
            let at = HEADER + k * DIR_ENTRY;
            let end = (bytes.len() - data_start) as u64;
            bytes[at..at + 8].copy_from_slice(&end.to_le_bytes());
            bytes[at + 8..at + 12].copy_from_slice(&crc32fast::hash(b).to_le_bytes());
            k += 1;
        }
        first += (piece.len() / w) as u64;
    }
    let dir_crc = crc32fast::hash(&bytes[HEADER..data_start]);
    let header = &mut bytes[..HEADER];
    header[..8].copy_from_slice(MAGIC);
    header[8..12].copy_from_slice(&VERSION.to_le_bytes());
    header[12] = metric.id();
    header[13] = options.codec.id();
    if let Metric::Dtz { rule } = metric {
        let rule = u16::try_from(rule).map_err(|_| {
            io::Error::new(io::ErrorKind::InvalidInput, format!("rule of {rule} plies"))
        })?;
        header[14..16].copy_from_slice(&rule.to_le_bytes());
    }
    let name = material.to_string();
    let n = name.len().min(16);
    header[16..16 + n].copy_from_slice(&name.as_bytes()[..n]);
    header[32..40].copy_from_slice(&total.to_le_bytes());
    header[40..44].copy_from_slice(&block.to_le_bytes());
    header[48..56].copy_from_slice(&(count as u64).to_le_bytes());
    header[56..60].copy_from_slice(&dir_crc.to_le_bytes());
    let crc = crc32fast::hash(&header[..60]);
    header[60..64].copy_from_slice(&crc.to_le_bytes());
    Ok(bytes)
}

fn compress(codec: Codec, entries: &[u8]) -> io::Result<Vec<u8>> {
    match codec {
        Codec::Raw => Ok(entries.to_vec()),
        Codec::Zstd(level) => COMPRESSOR.with_borrow_mut(|c| {
            let compressor = match c {
                Some((l, compressor)) if *l == level => compressor,
                _ => &mut c.insert((level, zstd::bulk::Compressor::new(level)?)).1,
            };
            compressor.compress(entries)
        }),
        Codec::RunLength => {
            let mut out = Vec::new();
            for run in entries.chunk_by(|a, b| a == b) {
                out.push(run[0]);
                let mut n = run.len() as u64 - 1;
                while n >= 0x80 {
                    out.push((n as u8) | 0x80);
                    n >>= 7;
                }
                out.push(n as u8);
            }
            Ok(out)
        }
    }
}

/// Iterates the runs `(byte, length)` of a run-length block; `None` marks a malformed run.
fn runs(bytes: &[u8]) -> impl Iterator<Item = Option<(u8, u64)>> + '_ {
    let mut at = 0;
    std::iter::from_fn(move || {
        let &byte = bytes.get(at)?;
        at += 1;
        let mut n = 0u64;
        for shift in (0..64).step_by(7) {
            let Some(&b) = bytes.get(at) else {
                return Some(None);
            };
            at += 1;
            n |= u64::from(b & 0x7f) << shift;
            if b & 0x80 == 0 {
                return Some(n.checked_add(1).map(|n| (byte, n)));
            }
        }
        Some(None)
    })
}

impl Blocks {
    fn corrupt(&self, reason: String) -> TableError {
        TableError::Corrupt {
            source_name: self.source_name.clone(),
            reason,
        }
    }

    /// Bytes of block `k` decoded (the last block may be short).
    fn len_of(&self, k: usize, total: u64) -> usize {
        (total - k as u64 * self.block_entries).min(self.block_entries) as usize * self.width
    }

    fn total(&self) -> u64 {
        let bytes = self.file.get();
        u64::from_le_bytes(bytes[32..40].try_into().expect("8 bytes"))
    }

    /// The compressed bytes of block `k` (bounds were checked when the file was opened).
    fn raw(&self, k: usize) -> &[u8] {
        let bytes = self.file.get();
        let end_at = |k: usize| -> usize {
            let at = HEADER + k * DIR_ENTRY;
            u64::from_le_bytes(bytes[at..at + 8].try_into().expect("8 bytes")) as usize
        };
        let start = if k == 0 { 0 } else { end_at(k - 1) };
        &bytes[self.data_start + start..self.data_start + end_at(k)]
    }

    /// Decodes block `k` into `out`, checking that it decodes to exactly its entries.
    fn decode(&self, k: usize, out: &mut Vec<u8>) -> Result<(), TableError> {
        let want = self.len_of(k, self.total());
        let src = self.raw(k);
        out.clear();
        match self.codec {
            Codec::Raw => out.extend_from_slice(src),
            Codec::Zstd(_) => {
                // Decoded into the vector's spare capacity: no zeroing first.
                out.reserve(want);
                DECOMPRESSOR
                    .with(|d| match &mut *d.borrow_mut() {
                        Ok(d) => d.decompress_to_buffer(src, out),
                        Err(e) => Err(io::Error::new(e.kind(), e.to_string())),
                    })
                    .map_err(|e| self.corrupt(format!("block {k}: {e}")))?;
            }
            Codec::RunLength => {
                for run in runs(src) {
                    let (byte, n) =
                        run.ok_or_else(|| self.corrupt(format!("block {k}: bad run")))?;
                    if n > (want - out.len()) as u64 {
                        return Err(self.corrupt(format!("block {k}: runs overflow the block")));
                    }
                    out.resize(out.len() + n as usize, byte);
                }
            }
        }
        if out.len() != want {
            return Err(self.corrupt(format!("block {k}: {} entries, expected {want}", out.len())));
        }
        Ok(())
    }

    /// The entry of `idx` (in range).
    fn entry(&self, idx: u64) -> Result<u16, TableError> {
        let k = (idx / self.block_entries) as usize;
        let at = (idx % self.block_entries) as usize * self.width;
        let two = self.width == 2;
        let read = |b: &[u8]| {
            if two {
                u16::from_le_bytes([b[at], b[at + 1]])
            } else {
                u16::from(b[at])
            }
        };
        match self.codec {
            Codec::Raw => Ok(read(self.raw(k))),
            Codec::Zstd(_) => self.with_block(k, read),
            Codec::RunLength if two => {
                let lo = self.byte(k, at)?;
                let hi = self.byte(k, at + 1)?;
                Ok(u16::from_le_bytes([lo, hi]))
            }
            Codec::RunLength => self.byte(k, at).map(u16::from),
        }
    }

    /// `f` of block `k` decoded, through the thread's block cache ([`BLOCK_CACHE`]).
    #[inline]
    fn with_block<T>(&self, k: usize, f: impl FnOnce(&[u8]) -> T) -> Result<T, TableError> {
        BLOCK_CACHE.with_borrow_mut(|cache| {
            if cache.is_empty() {
                cache.resize_with(CACHE_SLOTS, || (u64::MAX, usize::MAX, Vec::new()));
            }
            let slot = &mut cache[cache_slot(self.id, k)];
            if slot.0 != self.id || slot.1 != k {
                slot.0 = u64::MAX;
                self.decode(k, &mut slot.2)?;
                (slot.0, slot.1) = (self.id, k);
            }
            Ok(f(&slot.2))
        })
    }

    /// Byte `at` of block `k` decoded.
    fn byte(&self, k: usize, at: usize) -> Result<u8, TableError> {
        match self.codec {
            Codec::Raw => Ok(self.raw(k)[at]),
            Codec::RunLength => {
                let (mut skip, mut room) = (at as u64, self.len_of(k, self.total()) as u64);
                for run in runs(self.raw(k)) {
                    let (byte, n) =
                        run.ok_or_else(|| self.corrupt(format!("block {k}: bad run")))?;
                    if n > room {
                        return Err(self.corrupt(format!("block {k}: runs overflow the block")));
                    }
                    if skip < n {
                        return Ok(byte);
                    }
                    skip -= n;
                    room -= n;
                }
                Err(self.corrupt(format!("block {k}: runs end before entry {at}")))
            }
            Codec::Zstd(_) => self.with_block(k, |b| b[at]),
        }
    }
}

/// The next [`Blocks::id`].
static NEXT_BLOCKS_ID: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// The slot of block `k` of the table `id` in a thread's [`BLOCK_CACHE`].
#[inline]
fn cache_slot(id: u64, k: usize) -> usize {
    // Hashed: the blocks two tables are probed at for one position are correlated (their
    // indices share digits), and a slot picked as `k` plus an offset per table made such
    // pairs evict each other at every probe (5x the decodes in a KRPvKR promotion group).
    let h = (id.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ k as u64).wrapping_mul(0xff51_afd7_ed55_8ccd);
    (h >> 40) as usize % CACHE_SLOTS
}

thread_local! {
    /// Each thread's decoded blocks, direct-mapped: (table id, block, entries' bytes). One
    /// cache per thread rather than one per table behind locks: two threads seeding
    /// neighbouring indices read the same blocks, and the locks they queued on cost 15% of a
    /// DTZ generation.
    static BLOCK_CACHE: std::cell::RefCell<Vec<(u64, usize, Vec<u8>)>> =
        const { std::cell::RefCell::new(Vec::new()) };
    /// One zstd compression context per thread and level (a context per block cost 6% of
    /// compressing it).
    static COMPRESSOR: std::cell::RefCell<Option<(i32, zstd::bulk::Compressor<'static>)>> =
        const { std::cell::RefCell::new(None) };
    /// One zstd decompression context per thread: creating one per block would cost more
    /// than decoding the block.
    static DECOMPRESSOR: std::cell::RefCell<io::Result<zstd::bulk::Decompressor<'static>>> =
        std::cell::RefCell::new(zstd::bulk::Decompressor::new());
}

/// What the header of a checked file says.
struct Layout {
    material: Material,
    metric: Metric,
    codec: Codec,
    block_entries: u64,
    count: usize,
}

fn le_u32(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().expect("4 bytes"))
}

fn le_u64(b: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(b[at..at + 8].try_into().expect("8 bytes"))
}

/// Checks a whole file: header, sizes against the material and the file length, directory
/// and block checksums. Nothing is allocated from a declared size.
fn check(bytes: &[u8], source: &str) -> Result<Layout, TableError> {
    let corrupt = |reason: String| TableError::Corrupt {
        source_name: source.to_string(),
        reason,
    };
    if bytes.len() < 12 {
        return Err(corrupt(format!("truncated: {} bytes", bytes.len())));
    }
    if &bytes[..8] != MAGIC {
        return Err(corrupt("not a zermelo chess table (bad magic)".into()));
    }
    let version = le_u32(bytes, 8);
    let named = |range: std::ops::Range<usize>| -> String {
        let name = bytes.get(range).unwrap_or_default();
        name.iter()
            .take_while(|&&b| b != 0)
            .map(|&b| b as char)
            .filter(char::is_ascii_alphanumeric)
            .collect()
    };
    let pawns_v3 = version == PAWN_VERSION
        && named(16..32)
            .parse::<Material>()
            .is_ok_and(|m| m.has_pawns());
    if version != VERSION && !pawns_v3 {
        // Version 1 kept the material at bytes 13..28.
        let material = if version == 1 {
            named(13..28)
        } else {
            named(16..32)
        };
        // A header too short or damaged to name it: the file's name does (`KRvK.zct`).
        let material = match material.parse::<Material>() {
            Ok(m) => m.to_string(),
            Err(_) => Path::new(source)
                .file_stem()
                .and_then(|s| s.to_str())
                .and_then(|s| s.parse::<Material>().ok())
                .map_or_else(|| "MATERIAL".to_string(), |m| m.to_string()),
        };
        return Err(TableError::Version {
            source_name: source.to_string(),
            found: version,
            material,
        });
    }
    if bytes.len() < HEADER {
        return Err(corrupt(format!(
            "truncated: {} bytes, shorter than the {HEADER}-byte header",
            bytes.len()
        )));
    }
    if crc32fast::hash(&bytes[..60]) != le_u32(bytes, 60) {
        return Err(corrupt("header checksum mismatch".into()));
    }
    let metric = match bytes[12] {
        METRIC_DTM => Metric::Dtm,
        METRIC_DTZ => {
            let rule = u32::from(u16::from_le_bytes([bytes[14], bytes[15]]));
            if !(1..=crate::dtz::MAX_RULE).contains(&rule) {
                return Err(corrupt(format!(
                    "a DTZ table for a rule of {rule} plies (expected 1 to {})",
                    crate::dtz::MAX_RULE
                )));
            }
            Metric::Dtz { rule }
        }
        m => return Err(corrupt(format!("unknown metric {m}"))),
    };
    let codec =
        Codec::from_id(bytes[13]).ok_or_else(|| corrupt(format!("unknown codec {}", bytes[13])))?;
    let name: String = bytes[16..32]
        .iter()
        .take_while(|&&b| b != 0)
        .map(|&b| b as char)
        .collect();
    let material: Material = name
        .parse()
        .map_err(|_| corrupt(format!("bad material {name:?}")))?;
    if !material.is_canonical() || material.piece_count() > MAX_PIECES {
        return Err(corrupt(format!(
            "material {material}: expected a canonical material of at most {MAX_PIECES} pieces"
        )));
    }
    let entries = le_u64(bytes, 32);
    let expected = Indexer::new(&material).size();
    if entries != expected {
        return Err(corrupt(format!(
            "{entries} entries, {material} has {expected}"
        )));
    }
    let block = le_u32(bytes, 40);
    if !block.is_power_of_two() || !(MIN_BLOCK_LOG..=MAX_BLOCK_LOG).contains(&block.ilog2()) {
        return Err(corrupt(format!(
            "{block} entries per block: expected a power of two from 2^10 to 2^20"
        )));
    }
    let count = le_u64(bytes, 48);
    if count != entries.div_ceil(u64::from(block)) {
        return Err(corrupt(format!(
            "{count} blocks, {entries} entries in blocks of {block} make {}",
            entries.div_ceil(u64::from(block))
        )));
    }
    // `count` is at most 2^64 / 2^10 and the material bounds it far lower; still, check
    // the directory's end against the file without overflowing.
    let data_start = (count as usize)
        .checked_mul(DIR_ENTRY)
        .and_then(|d| d.checked_add(HEADER))
        .filter(|&end| end <= bytes.len())
        .ok_or_else(|| {
            corrupt(format!(
                "truncated: {} bytes, the directory of {count} blocks does not fit",
                bytes.len()
            ))
        })?;
    let dir = &bytes[HEADER..data_start];
    if crc32fast::hash(dir) != le_u32(bytes, 56) {
        return Err(corrupt("block directory checksum mismatch".into()));
    }
    let data = &bytes[data_start..];
    let mut start = 0u64;
    for (k, e) in dir.chunks_exact(DIR_ENTRY).enumerate() {
        let end = le_u64(e, 0);
        if end < start || end > data.len() as u64 {
            return Err(corrupt(format!(
                "block {k} ends at {end}, outside {start}..={} (truncated?)",
                data.len()
            )));
        }
        let want = (entries - k as u64 * u64::from(block)).min(u64::from(block));
        let want = want * metric.width() as u64;
        if codec == Codec::Raw && end - start != want {
            return Err(corrupt(format!(
                "block {k}: {} raw bytes, expected {want}",
                end - start
            )));
        }
        if crc32fast::hash(&data[start as usize..end as usize]) != le_u32(e, 8) {
            return Err(corrupt(format!("block {k}: checksum mismatch")));
        }
        start = end;
    }
    if start != data.len() as u64 {
        return Err(corrupt(format!(
            "{} bytes after the last block",
            data.len() as u64 - start
        )));
    }
    Ok(Layout {
        material,
        metric,
        codec,
        block_entries: u64::from(block),
        count: count as usize,
    })
}
