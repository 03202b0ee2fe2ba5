//! [`Tablebase`]: a directory of tables (opened lazily, read or memory-mapped) and what to ask
//! it.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, RwLock};

use crate::material::{Material, MAX_PIECES};
use crate::position::{Move, Position};
use crate::table::{Table, TableError};
use crate::value::Value;

/// Why a position cannot be probed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ProbeError {
    /// The table of this material is not available.
    #[error("no table for {material} ({pieces} pieces) in {place}; generate it with `zermelo tb gen {material}`")]
    MissingTable {
        /// The material (canonical).
        material: Material,
        /// Its piece count.
        pieces: usize,
        /// Where it was looked for.
        place: String,
    },
    /// More pieces than any table holds ([`MAX_PIECES`]).
    #[error("{pieces} pieces ({material}): tables exist for at most {MAX_PIECES} pieces")]
    TooManyPieces {
        /// The material (canonical).
        material: Material,
        /// Its piece count.
        pieces: usize,
    },
    /// The table marks this position illegal (should not happen for a validated position).
    #[error("position {0} is not in its table (illegal)")]
    Illegal(String),
    /// A table file is unusable.
    #[error(transparent)]
    Table(#[from] TableError),
}

/// A set of tables: a directory opened lazily, plus tables inserted in memory.
pub struct Tablebase {
    dir: Option<PathBuf>,
    mapped: bool,
    tables: RwLock<HashMap<Material, Arc<Table>>>,
}

impl Tablebase {
    /// Tables read from `dir` into memory on first use ([`Table::open`]).
    pub fn open(dir: &Path) -> Tablebase {
        Tablebase {
            dir: Some(dir.to_path_buf()),
            mapped: false,
            tables: RwLock::default(),
        }
    }

    /// Tables of `dir` memory-mapped on first use ([`Table::open_mapped`]): only the blocks
    /// probed are read, which suits large tables and few probes.
    ///
    /// # Safety
    ///
    /// No table file in `dir` may be modified or truncated while this tablebase lives
    /// (replacing one by rename, as `zermelo tb gen` does, is fine).
    #[allow(unsafe_code)]
    pub unsafe fn open_mapped(dir: &Path) -> Tablebase {
        Tablebase {
            dir: Some(dir.to_path_buf()),
            mapped: true,
            tables: RwLock::default(),
        }
    }

    /// No directory: only tables given to [`insert`](Self::insert).
    pub fn in_memory() -> Tablebase {
        Tablebase {
            dir: None,
            mapped: false,
            tables: RwLock::default(),
        }
    }

    /// Adds (or replaces) a table.
    pub fn insert(&self, table: Table) {
        let mut map = self.tables.write().unwrap_or_else(|e| e.into_inner());
        map.insert(table.material().clone(), Arc::new(table));
    }

    /// Whether the table of `material` is loaded or on disk.
    pub fn has(&self, material: &Material) -> bool {
        let loaded = self
            .tables
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .contains_key(material);
        loaded || self.path_of(material).is_some_and(|p| p.is_file())
    }

    fn path_of(&self, material: &Material) -> Option<PathBuf> {
        self.dir
            .as_ref()
            .map(|d| d.join(Table::file_name(material)))
    }

    /// The table of a canonical `material`, opened on first use.
    pub fn table(&self, material: &Material) -> Result<Arc<Table>, ProbeError> {
        if let Some(t) = self
            .tables
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .get(material)
        {
            return Ok(t.clone());
        }
        let missing = || ProbeError::MissingTable {
            material: material.clone(),
            pieces: material.piece_count(),
            place: self
                .dir
                .as_ref()
                .map_or("memory".to_string(), |d| d.display().to_string()),
        };
        if material.piece_count() > MAX_PIECES {
            return Err(ProbeError::TooManyPieces {
                material: material.clone(),
                pieces: material.piece_count(),
            });
        }
        let path = self.path_of(material).ok_or_else(missing)?;
        if !path.is_file() {
            return Err(missing());
        }
        let table = if self.mapped {
            // SAFETY: the caller of `open_mapped` promised the files stay as they are.
            #[allow(unsafe_code)]
            unsafe {
                Table::open_mapped(&path)?
            }
        } else {
            Table::open(&path)?
        };
        if table.material() != material {
            return Err(ProbeError::Table(TableError::Corrupt {
                source_name: path.display().to_string(),
                reason: format!("holds {}, expected {material}", table.material()),
            }));
        }
        let table = Arc::new(table);
        let mut map = self.tables.write().unwrap_or_else(|e| e.into_inner());
        Ok(map.entry(material.clone()).or_insert(table).clone())
    }

    /// The value of `pos` for the side to move.
    pub fn probe(&self, pos: &Position) -> Result<Value, ProbeError> {
        if pos.ep_square().is_some() {
            // Tables hold positions without en passant rights: look one ply ahead.
            return self.best_of_moves(pos);
        }
        let material = Material::of(pos);
        if material.piece_count() == 2 {
            return Ok(Value::Draw);
        }
        let (canonical, flipped) = material.canonical();
        let table = self.table(&canonical)?;
        let oriented = if flipped { pos.flip_colors() } else { *pos };
        let idx = table
            .indexer()
            .rank(&oriented)
            .ok_or_else(|| ProbeError::Illegal(pos.fen()))?;
        Ok(table.value_of_legal(idx)?)
    }

    fn best_of_moves(&self, pos: &Position) -> Result<Value, ProbeError> {
        let moves = self.probe_moves(pos)?;
        Ok(match moves.first() {
            Some(&(_, v)) => v,
            None if pos.is_check() => Value::Lose(0),
            None => Value::Draw,
        })
    }

    /// Every legal move with its value for the side to move, best first (ties by UCI).
    pub fn probe_moves(&self, pos: &Position) -> Result<Vec<(Move, Value)>, ProbeError> {
        let mut out = Vec::new();
        for m in pos.legal_moves() {
            out.push((m, self.probe(&pos.play(m))?.for_parent()));
        }
        out.sort_by(|a, b| {
            b.1.cmp(&a.1)
                .then_with(|| a.0.to_string().cmp(&b.0.to_string()))
        });
        Ok(out)
    }

    /// The principal line from `pos`: best moves until mate, at most `max_plies` moves.
    pub fn principal_line(
        &self,
        pos: &Position,
        max_plies: usize,
    ) -> Result<Vec<Move>, ProbeError> {
        let mut line = Vec::new();
        let mut cur = *pos;
        while line.len() < max_plies {
            let Some(&(m, _)) = self.probe_moves(&cur)?.first() else {
                break;
            };
            line.push(m);
            cur = cur.play(m);
        }
        Ok(line)
    }
}
