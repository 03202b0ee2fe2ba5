//! Why an export to Syzygy's format failed ([`ExportError`]): its own module, as both the
//! export and the placing of positions ([`super::place`]) return it.

use std::path::PathBuf;

use crate::probe::ProbeError;

/// Why a table could not be written.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ExportError {
    /// A table of zermelo's that the export reads is missing or unusable (the material's own
    /// DTZ table, or one a capture or promotion leads to).
    #[error(transparent)]
    Probe(#[from] ProbeError),
    /// The output could not be written.
    #[error("{}: {source}", path.display())]
    Write {
        /// The file.
        path: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
    /// A material Syzygy has no file for (bare kings, or more than 7 pieces).
    #[error("{0}: Syzygy has no table of this material")]
    Unsupported(String),
    /// A DTZ too long for the format's 12-bit values.
    #[error("{material}: a DTZ of {plies} plies is more than a Syzygy table holds")]
    TooLong {
        /// The material.
        material: String,
        /// The distance.
        plies: u32,
    },
}
