//! # zermelo-chess
//!
//! Chess endgame tablebases built on zermelo's retrograde solver: every position of a material
//! signature (`KQvKR`, `KPvKP`, ...) labelled WIN, LOSS or DRAW for the side to move together
//! with its depth to mate (DTM) in plies, under fast-win / slow-loss play.
//!
//! * [`Setup`] — a position as given, unchecked, with public fields; [`Position::from_setup`]
//!   validates it once;
//! * [`Position`] — a legal position without castling (FEN, legal moves, en passant,
//!   promotions, check, mate, stalemate) and its un-moves ([`Position::unmoves`], including
//!   un-captures and un-promotions);
//! * [`Material`] — a material signature, its canonical orientation and the signatures one
//!   capture or promotion away ([`Material::generation_order`]);
//! * [`Indexer`] — rank/unrank of one material with symmetry reduction;
//! * [`generate`] — one table (3 to 6 pieces) by retrograde analysis on un-moves over the
//!   index, on zermelo's compact engine (no graph, 2 bytes and a bit per index of the group
//!   being solved), seeded from the smaller tables that captures and promotions lead into;
//!   [`generate_with`] checkpoints to a work folder and resumes; [`generate_pair`] makes the
//!   DTM and the DTZ table together, the DTZ groups seeded from starts the DTM seeding records;
//! * [`GenerationJob`] — the tables of some [`Targets`] (a material and what it depends on, or
//!   every table up to N pieces) made into a tables folder: dependencies first, memory checked
//!   up front, a lock per table, resumed from the work folder, DTM and DTZ, written atomically;
//!   what `zermelo tb gen` and Python's `Tablebase.generate` run, told as [`JobEvent`]s;
//! * [`Table`] — the checksummed, versioned on-disk format, memory-mapped for probing;
//! * [`Tablebase`] — directories of tables, zermelo's and Syzygy's: probe, best moves,
//!   principal line; [`Tablebase::answer`]: one position's class under the rule with its clock
//!   ([`Category`]), DTZ ([`Dtz`], exact or as Syzygy rounds it), DTM and every move with its
//!   own, in the orders the CLI, the server and lichess list them, WDL and DTZ from zermelo's
//!   table of a material when there is one and from Syzygy's otherwise
//!   ([`Tablebase::dtz_of`], [`Tablebase::wdl_of`]); [`Tablebase::census`] counts a material's
//!   classes position by position; [`compare_with_syzygy`] checks Syzygy's files against
//!   zermelo's tables;
//! * [`verify`] — re-checks a table against the certificate rules with move generation;
//! * [`SyzygyTables`] — Syzygy's published WDL and DTZ files (3 to 7 pieces), memory-mapped
//!   and probed as python-chess probes them ([`syzygy`]).
//!
//! ## Example
//!
//! ```
//! use zermelo_chess::{generate, Material, Position, Tablebase, Value};
//!
//! let tb = Tablebase::in_memory();
//! let krk: Material = "KRvK".parse()?;
//! let table = generate(&krk, &tb, &Default::default())?;
//! tb.insert(table);
//! let pos = Position::from_fen("8/8/8/8/8/2k5/8/K6R w - - 0 1")?;
//! assert!(matches!(tb.probe(&pos)?, Value::Win(_)));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! ## Errors
//!
//! FEN parsing returns [`FenError`]; opening a table returns [`TableError`] (bad magic or
//! version, wrong size, checksum mismatch); probing returns [`ProbeError`] (a missing table, too
//! many pieces); reading Syzygy's files returns [`SyzygyError`] (a missing table named by its
//! material, a file that is not a table or is damaged, named by its path). Nothing here panics
//! on bad input.

#![deny(missing_docs)]

mod answer;
mod atomic;
#[doc(hidden)]
pub mod bench_hooks;
mod bitboard;
mod category;
mod census;
mod checkpoint;
mod compare;
mod disk;
pub mod dtz;
mod generate;
mod index;
mod job;
mod lock;
mod material;
mod ordered;
mod plan;
mod position;
mod probe;
mod slice;
mod sources;
mod square;
mod starts;
pub mod syzygy;
mod table;
mod unmove;
mod value;
mod verify;

pub use answer::{
    fen_with_clock, insufficient_material, Answer, Mainline, MainlineStep, MoveAnswer,
};
pub use category::{Category, Dtz};
pub use census::Census;
pub use compare::{compare_with_syzygy, dtz_agrees, Comparison, Difference};
pub use disk::DiskFull;
pub use dtz::Wdl50;
pub use generate::{
    discard_checkpoint, estimate_memory, estimate_pair_memory, generate, generate_pair,
    generate_with, GenError, GenOptions, Lookahead, Pair, StartCounts,
};
pub use index::Indexer;
pub use job::{
    Folder, FolderError, FolderProblem, GenProgress, Generating, GenerationJob, JobError, JobEvent,
    JobReport, WrittenTable, DEFAULT_MEMORY_SHARE,
};
pub use lock::{lock_path, Acquire, Holder, TableLock};
pub use material::{Material, ParseMaterialError, TargetError, MAX_PIECES};
pub use ordered::counts_as_syzygy;
pub use plan::{Cost, DiskUse, Machine, Plan, PlannedTable, Targets};
pub use position::{FenError, Move, Position, PositionError, Setup, MAX_CLOCK};
pub use probe::{table_file_present, MoveDtz, ProbeError, Tablebase};
pub use square::{Color, Piece, Role, Square};
pub use syzygy::{export_syzygy, ExportError, SyzygyDtz, SyzygyError, SyzygyExport, SyzygyTables};
pub use table::{Codec, Longest, Metric, Stats, Table, TableError, Wdl50Stats, WriteOptions};
pub use unmove::Unmove;
pub use value::Value;
pub use verify::{verify, verify_dtz, verify_with, Coverage, Mismatch};
