//! [`SyzygyTables`]: directories of Syzygy files, each file opened on first use.

use std::collections::HashMap;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::{Arc, RwLock};

use zermelo::io::Mapping;

use super::name::TableName;
use super::table::{Metric, TableBytes, TableFile};
use super::SyzygyError;
use crate::material::Material;
use crate::position::Position;

/// Syzygy tables of standard chess in one or more directories (like python-chess's
/// `add_directory`); a table is looked up by its material's file name (`KQvKR.rtbw`), in the
/// directories in the order given, and opened once, when a probe first needs it: read into
/// memory ([`open`](Self::open)) or memory-mapped ([`open_mapped`](Self::open_mapped), what
/// the command line, the server and Python do: a 7-piece file of gigabytes is then read only
/// where it is probed). Either way its header is checked on opening, and every offset it
/// declares against the file's length.
pub struct SyzygyTables {
    dirs: Vec<PathBuf>,
    mapped: bool,
    /// Check every file's checksum when it is opened, however large.
    every_checksum: bool,
    opened: RwLock<HashMap<(TableName, Metric), Arc<TableFile>>>,
}

impl SyzygyTables {
    /// Tables of `dirs` (searched in order), each read whole into memory when first probed.
    ///
    /// # Errors
    /// [`SyzygyError::Io`] when one of `dirs` is not a readable directory.
    pub fn open(dirs: &[PathBuf]) -> Result<SyzygyTables, SyzygyError> {
        check_dirs(dirs)?;
        Ok(SyzygyTables::unchecked(dirs, false))
    }

    /// Tables of `dirs` (searched in order), each memory-mapped when first probed: only the
    /// pages a probe reads come from disk.
    ///
    /// # Errors
    /// [`SyzygyError::Io`] when one of `dirs` is not a readable directory.
    ///
    /// # Safety
    ///
    /// No table file in `dirs` may be modified or truncated while these tables live (a
    /// truncated mapped file raises SIGBUS when read); replacing a file by renaming another
    /// over it is fine. See [`zermelo::io::Mapping::new`].
    #[allow(unsafe_code)]
    pub unsafe fn open_mapped(dirs: &[PathBuf]) -> Result<SyzygyTables, SyzygyError> {
        check_dirs(dirs)?;
        Ok(SyzygyTables::unchecked(dirs, true))
    }

    /// Tables of `dirs` without checking that they are directories (a [`crate::Tablebase`]
    /// looks for Syzygy files beside its own, in folders it has not checked either).
    /// `mapped`: the caller vouches for the files as [`open_mapped`](Self::open_mapped) asks.
    pub(crate) fn unchecked(dirs: &[PathBuf], mapped: bool) -> SyzygyTables {
        SyzygyTables {
            dirs: dirs.to_vec(),
            mapped,
            every_checksum: false,
            opened: RwLock::default(),
        }
    }

    /// Checks the checksum of every file when it is first opened, not only of files up to 64
    /// MiB (which are always checked): a whole read of each file, for a verification of
    /// downloaded tables (`tb verify --against`) rather than for probing.
    pub fn with_every_checksum(mut self) -> SyzygyTables {
        self.every_checksum = true;
        self
    }

    /// The directories searched, in order.
    pub fn dirs(&self) -> &[PathBuf] {
        &self.dirs
    }

    /// The file of `material`'s WDL table (`dtz`: its DTZ table) in the first directory
    /// that has one, `None` when none has.
    ///
    /// # Errors
    /// A directory that cannot be searched.
    pub fn file_of(&self, material: &Material, dtz: bool) -> Result<Option<PathBuf>, SyzygyError> {
        let metric = if dtz { Metric::Dtz } else { Metric::Wdl };
        let name = TableName::of_material(material).normalized();
        self.find(&format!("{name}.{}", metric.extension()))
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

    /// The opened table of `material` (either orientation: each is remembered, so a probe
    /// does not normalize the name again).
    fn table(&self, material: &TableName, metric: Metric) -> Result<Arc<TableFile>, SyzygyError> {
        let get = |key: &(TableName, Metric)| {
            let opened = self.opened.read().unwrap_or_else(|e| e.into_inner());
            opened.get(key).cloned()
        };
        let asked = (material.clone(), metric);
        if let Some(t) = get(&asked) {
            return Ok(t);
        }
        let name = material.normalized();
        let key = (name.clone(), metric);
        let table = match get(&key) {
            Some(t) => t,
            None => self.open_table(&name, metric)?,
        };
        let mut opened = self.opened.write().unwrap_or_else(|e| e.into_inner());
        let table = opened.entry(key).or_insert(table).clone();
        opened.insert(asked, table.clone());
        Ok(table)
    }

    /// Finds, opens and checks the table of `name` (normalized).
    fn open_table(&self, name: &TableName, metric: Metric) -> Result<Arc<TableFile>, SyzygyError> {
        if name.piece_count() > 7 {
            return Err(SyzygyError::TooManyPieces {
                pieces: name.piece_count(),
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
        let data = table_bytes(&path, self.mapped)?;
        Ok(Arc::new(TableFile::parse(
            &path,
            data,
            name,
            metric,
            self.every_checksum,
        )?))
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

/// The bytes of a table file, read or mapped: refused unless it is a regular file (reading a
/// FIFO would wait for a writer forever; a FIFO, a device or a directory cannot be mapped).
fn table_bytes(path: &Path, mapped: bool) -> Result<TableBytes, SyzygyError> {
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
    if !mapped {
        return std::fs::read(path).map(TableBytes::Read).map_err(io);
    }
    let file = File::open(path).map_err(io)?;
    // Checked again on the open file: something else may have been renamed to its name since.
    if !file.metadata().map_err(io)?.is_file() {
        return Err(SyzygyError::NotATable {
            path: path.to_path_buf(),
            reason: "not a regular file".into(),
        });
    }
    // SAFETY: whoever asked for mapped tables vouched that the files stay as they are
    // (`SyzygyTables::open_mapped`, `Tablebase::open_mapped`); every offset read through
    // the mapping is still checked against its length.
    #[allow(unsafe_code)]
    let map = unsafe { Mapping::new(&file, false) }.map_err(io)?;
    Ok(TableBytes::Mapped(map))
}

/// Checks that every one of `dirs` is a directory.
fn check_dirs(dirs: &[PathBuf]) -> Result<(), SyzygyError> {
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
    Ok(())
}
