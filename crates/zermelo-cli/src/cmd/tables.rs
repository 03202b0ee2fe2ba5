//! `--tables` of the commands that probe (`tb probe`, `tb line`, `tb stats`, `serve`): several
//! directories, each of zermelo's tables, Syzygy's or both, checked and opened memory-mapped.

use std::path::PathBuf;

use clap::Args;
use zermelo_chess::Tablebase;

use crate::error::{CliResult, Failure};

/// `--tables`, for the commands that probe: several directories, of zermelo's tables,
/// Syzygy's, or both.
#[derive(Debug, Args)]
pub struct ProbeTablesArg {
    /// Directories of tables, searched in order: zermelo's (`KQvKR.zct`, `.zdz`) and
    /// Syzygy's (`KQvKR.rtbw`, `.rtbz`). WDL and DTZ come from zermelo's table of a material
    /// when there is one, else from Syzygy's; depth to mate from zermelo's only. Repeat the
    /// flag or separate directories with `:`.
    #[arg(long, value_name = "DIR", default_value = "./tables", value_delimiter = ':',
          action = clap::ArgAction::Append)]
    pub(crate) tables: Vec<PathBuf>,
}

impl ProbeTablesArg {
    /// The tablebase of these directories under `rule`, each checked to be a directory (exit
    /// 2 otherwise), tables memory-mapped.
    pub(crate) fn open(&self, rule: u32) -> CliResult<Tablebase> {
        check_dirs(&self.tables)?;
        // SAFETY: zermelo writes a table to a temporary file and renames it into place, so a
        // mapped table never changes under us; the `tb` commands and the server never write a
        // table they probe, and Syzygy's published files are not rewritten in place either.
        #[allow(unsafe_code)]
        let tb = unsafe { Tablebase::open_mapped_all(&self.tables) };
        Ok(tb.with_rule(rule))
    }
}

/// Each of `dirs` is a directory (else exit 2, naming it).
pub(crate) fn check_dirs(dirs: &[PathBuf]) -> CliResult {
    for dir in dirs {
        let why = match std::fs::metadata(dir) {
            Ok(m) if m.is_dir() => continue,
            Ok(_) => String::new(),
            Err(e) => format!(" ({e})"),
        };
        return Err(Failure::input(format!(
            "--tables {}: not a directory{why}",
            dir.display()
        )));
    }
    Ok(())
}
