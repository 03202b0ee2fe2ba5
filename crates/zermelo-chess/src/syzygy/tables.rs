//! [`SyzygyTables`]: directories of Syzygy files, each file opened on first use.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, RwLock};

use super::name::TableName;
use super::table::{Metric, TableFile};
use super::SyzygyError;
use crate::position::Position;

/// Syzygy tables of standard chess in one or more directories (like python-chess's
/// `add_directory`); a table is looked up by its material's file name (`KQvKR.rtbw`), in the
/// directories in the order given, and read into memory once, when a probe first needs it.
pub struct SyzygyTables {
    dirs: Vec<PathBuf>,
    opened: RwLock<HashMap<(TableName, Metric), Arc<TableFile>>>,
}

impl SyzygyTables {
    /// Tables of `dirs` (searched in order).
    ///
    /// # Errors
    /// [`SyzygyError::Io`] when one of `dirs` is not a readable directory.
    pub fn open(dirs: &[PathBuf]) -> Result<SyzygyTables, SyzygyError> {
        for dir in dirs {
            let meta = std::fs::metadata(dir).map_err(|source| SyzygyError::Io {
                path: dir.clone(),
                source,
            })?;
            if !meta.is_dir() {
                return Err(SyzygyError::NotATable {
                    path: dir.clone(),
                    reason: "not a directory of tables".into(),
                });
            }
        }
        Ok(SyzygyTables {
            dirs: dirs.to_vec(),
            opened: RwLock::default(),
        })
    }

    /// The directories searched, in order.
    pub fn dirs(&self) -> &[PathBuf] {
        &self.dirs
    }

    /// The stored class (-2..=2) of `pos` in its WDL table, without looking at captures.
    pub(crate) fn stored_wdl(&self, pos: &Position) -> Result<i8, SyzygyError> {
        let name = TableName::of_white(pos);
        if name.is_bare_kings() {
            return Ok(0);
        }
        self.table(&name, Metric::Wdl)?.wdl(pos)
    }

    /// The stored DTZ of `pos` of class `wdl`, `None` when its table holds the other side.
    pub(crate) fn stored_dtz(
        &self,
        pos: &Position,
        wdl: i8,
    ) -> Result<Option<(i32, bool)>, SyzygyError> {
        let name = TableName::of_white(pos);
        self.table(&name, Metric::Dtz)?.dtz(pos, wdl)
    }

    fn table(&self, material: &TableName, metric: Metric) -> Result<Arc<TableFile>, SyzygyError> {
        let name = material.normalized();
        let key = (name.clone(), metric);
        if let Some(t) = self
            .opened
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .get(&key)
        {
            return Ok(t.clone());
        }
        if material.piece_count() > 7 {
            return Err(SyzygyError::TooManyPieces {
                pieces: material.piece_count(),
            });
        }
        let file_name = format!("{name}.{}", metric.extension());
        let path = self
            .find(&file_name)?
            .ok_or_else(|| SyzygyError::MissingTable {
                metric: metric.name(),
                material: name.to_string(),
                extension: metric.extension(),
                dirs: self.describe_dirs(),
            })?;
        let data = read_table_file(&path)?;
        let table = Arc::new(TableFile::parse(&path, data, &name, metric)?);
        let mut opened = self.opened.write().unwrap_or_else(|e| e.into_inner());
        Ok(opened.entry(key).or_insert(table).clone())
    }

    /// The first path of `file_name` in the directories where anything is.
    fn find(&self, file_name: &str) -> Result<Option<PathBuf>, SyzygyError> {
        for dir in &self.dirs {
            let path = dir.join(file_name);
            match std::fs::symlink_metadata(&path) {
                Ok(_) => return Ok(Some(path)),
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                Err(source) => return Err(SyzygyError::Io { path, source }),
            }
        }
        Ok(None)
    }

    fn describe_dirs(&self) -> String {
        let names: Vec<String> = self.dirs.iter().map(|d| d.display().to_string()).collect();
        if names.is_empty() {
            "no directory".into()
        } else {
            names.join(", ")
        }
    }
}

/// The bytes of a table file: refused unless it is a regular file (reading a FIFO would wait
/// for a writer forever).
fn read_table_file(path: &Path) -> Result<Vec<u8>, SyzygyError> {
    let io = |source| SyzygyError::Io {
        path: path.to_path_buf(),
        source,
    };
    let meta = std::fs::metadata(path).map_err(io)?;
    if !meta.is_file() {
        let what = if meta.is_dir() {
            "a directory, not a table file"
        } else {
            "not a regular file (a FIFO, socket or device)"
        };
        return Err(SyzygyError::NotATable {
            path: path.to_path_buf(),
            reason: what.into(),
        });
    }
    std::fs::read(path).map_err(io)
}
