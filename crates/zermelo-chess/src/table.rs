//! The table file format: a 40-byte header, then one entry byte per index.
//!
//! | bytes | field |
//! |---|---|
//! | 0..8 | magic `ZRMCHESS` |
//! | 8..12 | format version, little-endian `u32` (1) |
//! | 12 | metric: 1 = DTM in plies |
//! | 13..28 | material (`KQvKR`), ASCII, zero-padded |
//! | 28..36 | number of entries, little-endian `u64` |
//! | 36..40 | CRC-32 of the entries, little-endian `u32` |
//! | 40.. | entries: 0 draw, 255 illegal, otherwise `plies + 1` (odd plies win, even lose) |

use std::fs::File;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use crate::index::Indexer;
use crate::mapped::Mapping;
use crate::material::Material;
use crate::value::{Value, ILLEGAL};

const MAGIC: &[u8; 8] = b"ZRMCHESS";
const VERSION: u32 = 1;
const METRIC_DTM: u8 = 1;
const HEADER: usize = 40;

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
}

enum Storage {
    Owned(Vec<u8>),
    Mapped(Mapping),
}

/// One solved material: an entry per index of its [`Indexer`].
pub struct Table {
    indexer: Indexer,
    storage: Storage,
}

impl std::fmt::Debug for Table {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Table({}, {} entries)",
            self.material(),
            self.entries().len()
        )
    }
}

/// Counts per outcome and the longest mate of a table (symmetry-reduced index positions).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// `[side to move][win, loss, draw]`, white to move first.
    pub counts: [[u64; 3]; 2],
    /// Illegal or non-canonical indices.
    pub illegal: u64,
    /// `[side to move]`: the longest win in plies for that side to move, and how many
    /// positions win in exactly that many.
    pub longest: [(u32, u64); 2],
}

impl Stats {
    /// The longest win in plies, either side to move.
    pub fn longest_plies(&self) -> u32 {
        self.longest[0].0.max(self.longest[1].0)
    }
}

impl Table {
    /// A table from its entry bytes (as generated).
    pub(crate) fn from_entries(material: &Material, entries: Vec<u8>) -> Table {
        Table {
            indexer: Indexer::new(material),
            storage: Storage::Owned(entries),
        }
    }

    /// The file name of a material's table (`KQvKR.zct`).
    pub fn file_name(material: &Material) -> String {
        format!("{material}.zct")
    }

    /// The material (canonical orientation).
    pub fn material(&self) -> &Material {
        self.indexer.material()
    }

    /// The indexer.
    pub fn indexer(&self) -> &Indexer {
        &self.indexer
    }

    fn entries(&self) -> &[u8] {
        match &self.storage {
            Storage::Owned(v) => v,
            Storage::Mapped(m) => &m.bytes()[HEADER..],
        }
    }

    /// The value of index `idx` (`None` if illegal or out of range).
    #[inline]
    pub fn value(&self, idx: u64) -> Option<Value> {
        self.entries()
            .get(idx as usize)
            .and_then(|&b| crate::value::decode(b))
    }

    /// Whether index `idx` is marked illegal.
    pub fn is_illegal(&self, idx: u64) -> bool {
        self.entries()
            .get(idx as usize)
            .is_none_or(|&b| b == ILLEGAL)
    }

    /// Writes the table in the file format.
    pub fn write_to(&self, w: &mut dyn Write) -> io::Result<()> {
        let entries = self.entries();
        let mut header = [0u8; HEADER];
        header[..8].copy_from_slice(MAGIC);
        header[8..12].copy_from_slice(&VERSION.to_le_bytes());
        header[12] = METRIC_DTM;
        let name = self.material().to_string();
        header[13..13 + name.len().min(15)].copy_from_slice(&name.as_bytes()[..name.len().min(15)]);
        header[28..36].copy_from_slice(&(entries.len() as u64).to_le_bytes());
        header[36..40].copy_from_slice(&crc32fast::hash(entries).to_le_bytes());
        w.write_all(&header)?;
        w.write_all(entries)
    }

    /// Opens and memory-maps a table file, checking header, size and checksum.
    pub fn open(path: &Path) -> Result<Table, TableError> {
        let io_err = |source| TableError::Io {
            path: path.to_path_buf(),
            source,
        };
        let file = File::open(path).map_err(io_err)?;
        let map = Mapping::open(&file).map_err(io_err)?;
        let material = check(map.bytes(), &path.display().to_string())?;
        Ok(Table {
            indexer: Indexer::new(&material),
            storage: Storage::Mapped(map),
        })
    }

    /// Reads a table from bytes in the file format.
    pub fn from_bytes(bytes: &[u8]) -> Result<Table, TableError> {
        let material = check(bytes, "<memory>")?;
        Ok(Table::from_entries(&material, bytes[HEADER..].to_vec()))
    }

    /// Per-outcome counts and the longest mate.
    pub fn stats(&self) -> Stats {
        let mut s = Stats::default();
        let half = self.entries().len() / 2;
        for (i, &b) in self.entries().iter().enumerate() {
            let side = usize::from(i >= half);
            match crate::value::decode(b) {
                None => s.illegal += 1,
                Some(Value::Win(d)) => {
                    s.counts[side][0] += 1;
                    let longest = &mut s.longest[side];
                    if d > longest.0 {
                        *longest = (d, 0);
                    }
                    if d == longest.0 {
                        longest.1 += 1;
                    }
                }
                Some(Value::Lose(_)) => s.counts[side][1] += 1,
                Some(Value::Draw) => s.counts[side][2] += 1,
            }
        }
        s
    }

    /// Size of the table in bytes on disk.
    pub fn file_size(&self) -> u64 {
        (HEADER + self.entries().len()) as u64
    }
}

fn check(bytes: &[u8], source: &str) -> Result<Material, TableError> {
    let corrupt = |reason: String| TableError::Corrupt {
        source_name: source.to_string(),
        reason,
    };
    if bytes.len() < HEADER {
        return Err(corrupt(format!(
            "truncated: {} bytes, shorter than the header",
            bytes.len()
        )));
    }
    if &bytes[..8] != MAGIC {
        return Err(corrupt("not a zermelo chess table (bad magic)".into()));
    }
    let version = u32::from_le_bytes(bytes[8..12].try_into().expect("4 bytes"));
    if version != VERSION {
        return Err(corrupt(format!(
            "format version {version}, this build reads {VERSION}"
        )));
    }
    if bytes[12] != METRIC_DTM {
        return Err(corrupt(format!("unknown metric {}", bytes[12])));
    }
    let name: String = bytes[13..28]
        .iter()
        .take_while(|&&b| b != 0)
        .map(|&b| b as char)
        .collect();
    let material: Material = name
        .parse()
        .map_err(|_| corrupt(format!("bad material {name:?}")))?;
    if !material.is_canonical() {
        return Err(corrupt(format!("material {material} is not canonical")));
    }
    let entries = u64::from_le_bytes(bytes[28..36].try_into().expect("8 bytes"));
    let expected = Indexer::new(&material).size();
    if entries != expected {
        return Err(corrupt(format!(
            "{entries} entries, {material} has {expected}"
        )));
    }
    let found = (bytes.len() - HEADER) as u64;
    if found != entries {
        return Err(corrupt(format!("truncated: {found} of {entries} entries")));
    }
    let crc = u32::from_le_bytes(bytes[36..40].try_into().expect("4 bytes"));
    if crc32fast::hash(&bytes[HEADER..]) != crc {
        return Err(corrupt("checksum mismatch".into()));
    }
    Ok(material)
}
