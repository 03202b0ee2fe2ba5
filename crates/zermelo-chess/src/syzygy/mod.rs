//! Syzygy's published tables, read: WDL (`.rtbw`) and DTZ (`.rtbz`) files of standard chess,
//! probed as the published probers (Fathom, python-chess) probe them.
//!
//! * [`SyzygyTables`] — files found by material name (`KQvKR.rtbw`) in one or more
//!   directories, opened (read, or memory-mapped) and checked on first use;
//! * [`SyzygyTables::probe_wdl`] — the class of a position under the 50-move rule on a fresh
//!   clock ([`Wdl50`], Syzygy's -2..=2);
//! * [`SyzygyTables::probe_dtz`] — the distance to the next zeroing move as Syzygy reports
//!   it ([`SyzygyDtz`]: the value python-chess's `probe_dtz` returns, and whether it may be one
//!   ply more than the truth).
//!
//! The files store each position once (up to symmetry), compressed; values a capture decides
//! may be stored as anything, so every probe first searches the captures (and en passant), and
//! a DTZ table may store one side to move only, so the other side is probed one ply ahead.
//! The format as implemented here is described in docs/formats.md ("Syzygy tables").
//!
//! ```no_run
//! use std::path::PathBuf;
//! use zermelo_chess::{Position, SyzygyTables, Wdl50};
//!
//! let tables = SyzygyTables::open(&[PathBuf::from("syzygy-3-4")])?;
//! let pos = Position::from_fen("8/8/8/8/8/2k5/8/K6R w - - 0 1")?;
//! assert_eq!(tables.probe_wdl(&pos)?, Wdl50::Win);
//! println!("DTZ {}", tables.probe_dtz(&pos)?.plies);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod checksum;
mod compress;
mod encode;
mod export;
mod export_error;
mod fill;
mod huffman;
mod layouts;
mod name;
mod pairs;
mod place;
mod repair;
mod search;
mod table;
mod tables;
mod unrank;
mod write;

use std::path::PathBuf;

pub use checksum::syzygy_checksum;
pub use export::{export_syzygy, SyzygyExport};
pub use export_error::ExportError;
pub use tables::SyzygyTables;

use crate::position::Position;

#[cfg(doc)]
use crate::dtz::Wdl50;

/// Why a Syzygy probe failed. Every variant that concerns a file names it.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SyzygyError {
    /// No directory holds the table this position (or a capture from it) needs.
    #[error("no Syzygy {metric} table {material}.{extension} in {dirs}")]
    MissingTable {
        /// `WDL` or `DTZ`.
        metric: &'static str,
        /// The material as Syzygy names its file (`KQvKR`).
        material: String,
        /// `rtbw` or `rtbz`.
        extension: &'static str,
        /// The directories searched.
        dirs: String,
    },
    /// A file or directory could not be read.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file or directory.
        path: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
    /// Something at a table's name that is not a table of this kind (a directory, a FIFO, a
    /// bad magic number, a chess variant's table).
    #[error("{}: {reason}", path.display())]
    NotATable {
        /// The file.
        path: PathBuf,
        /// What it is instead.
        reason: String,
    },
    /// A table whose contents contradict its format (truncated, offsets past its end, ...).
    #[error("{}: corrupt Syzygy table: {reason}", path.display())]
    Corrupt {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        reason: String,
    },
    /// More pieces than a Syzygy table holds (7), after the captures the probe tries.
    #[error("{pieces} pieces: Syzygy tables hold at most 7")]
    TooManyPieces {
        /// The position's piece count.
        pieces: usize,
    },
}

/// A DTZ as Syzygy's tables give it: plies to the next capture or pawn move (positive when the
/// side to move wins, negative when it loses, 0 for a draw), with 100 added for a win or loss
/// the 50-move rule spoils (cursed wins above 100, blessed losses below -100).
///
/// Many tables store moves rather than plies: such a value is *rounded* and may be one ply
/// short (in absolute value) of the true distance: `|plies|` is the truth or one less. Syzygy
/// rounds only where this cannot change the outcome under the rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SyzygyDtz {
    /// The value python-chess's `Tablebase.probe_dtz` returns for the same files.
    pub plies: i32,
    /// Whether `plies` is exact (`false`: the truth may be one ply further from zero; lichess
    /// then gives no `precise_dtz`).
    pub precise: bool,
}

/// The name of the Syzygy files of `pos`'s material, without the extension (`KQvKR`).
pub(crate) fn file_stem(pos: &Position) -> String {
    name::TableName::of_white(pos).normalized().to_string()
}

impl SyzygyDtz {
    fn exact(plies: i32) -> SyzygyDtz {
        SyzygyDtz {
            plies,
            precise: true,
        }
    }
}
