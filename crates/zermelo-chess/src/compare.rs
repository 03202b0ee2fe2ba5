//! [`compare_with_syzygy`]: every position of a material probed in zermelo's DTZ table and in
//! Syzygy's tables, a check of downloaded Syzygy files by a second generator (`zermelo tb verify
//! --against`).
//!
//! The two must agree on the class under the 50-move rule (Syzygy's WDL probe against the class
//! of zermelo's DTZ) and on the DTZ under Syzygy's convention: a precise Syzygy value equal to
//! zermelo's; a rounded one (a file that stores moves, not plies) equal or one ply closer to
//! zero, never of another sign.
//!
//! Cost: per position one probe of zermelo's table, one WDL and one DTZ probe of Syzygy's (about
//! 9 us), in parallel over the index: a 4-piece table of a few million positions in tens of
//! seconds on two cores.

use rayon::prelude::*;

use crate::dtz::{syzygy_dtz, Wdl50, DEFAULT_RULE};
use crate::index::Indexer;
use crate::material::Material;
use crate::probe::{ProbeError, Tablebase};
use crate::syzygy::{SyzygyDtz, SyzygyTables};
use crate::value::Value;

/// Indices compared per task.
const CHUNK: u64 = 1 << 14;

/// One position where the tables disagree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Difference {
    /// Its index in zermelo's table.
    pub index: u64,
    /// The position.
    pub fen: String,
    /// zermelo's DTZ (zeroing scale).
    pub zermelo: Value,
    /// Syzygy's class on a fresh clock.
    pub syzygy_wdl: Wdl50,
    /// Syzygy's DTZ.
    pub syzygy_dtz: SyzygyDtz,
}

/// What [`compare_with_syzygy`] found for one material.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Comparison {
    /// The material (canonical).
    pub material: Material,
    /// Positions compared.
    pub positions: u64,
    /// Positions whose Syzygy DTZ is rounded and one ply short of zermelo's (agreeing).
    pub rounded: u64,
    /// Positions whose classes differ.
    pub wdl_differ: u64,
    /// Positions whose classes agree but whose DTZ differs beyond Syzygy's rounding.
    pub dtz_differ: u64,
    /// The first differences in index order (at most the number asked for).
    pub first: Vec<Difference>,
}

impl Comparison {
    fn empty(material: &Material) -> Comparison {
        Comparison {
            material: material.clone(),
            positions: 0,
            rounded: 0,
            wdl_differ: 0,
            dtz_differ: 0,
            first: Vec::new(),
        }
    }

    /// Whether every position agrees.
    pub fn agrees(&self) -> bool {
        self.wdl_differ == 0 && self.dtz_differ == 0
    }

    fn merge(mut self, o: Comparison, keep: usize) -> Comparison {
        self.positions += o.positions;
        self.rounded += o.rounded;
        self.wdl_differ += o.wdl_differ;
        self.dtz_differ += o.dtz_differ;
        self.first.extend(o.first);
        self.first.sort_by_key(|d| d.index);
        self.first.truncate(keep);
        self
    }
}

/// Whether Syzygy's DTZ `s` stands for zermelo's exact `z` (both Syzygy-signed): equal when
/// precise; when rounded, equal or one ply closer to zero, and of the same sign.
pub fn dtz_agrees(z: i32, s: SyzygyDtz) -> bool {
    if s.precise {
        s.plies == z
    } else {
        z != 0 && (s.plies == z || s.plies == z - z.signum())
    }
}

/// Compares every position of `material` (canonical) in zermelo's DTZ table of `own` (a
/// tablebase of the 50-move rule, as [`Tablebase::open`] makes it) with Syzygy's tables in `syzygy` (its WDL and DTZ files, and those of
/// the materials its captures lead to), keeping the first `keep` differences.
///
/// # Errors
/// A table missing or unusable on either side (a zermelo table of another rule included).
pub fn compare_with_syzygy(
    material: &Material,
    own: &Tablebase,
    syzygy: &SyzygyTables,
    keep: usize,
) -> Result<Comparison, ProbeError> {
    // Opened up front, so that a missing or damaged table (or one of another rule) fails
    // once, by name.
    own.dtz_table(material)?;
    let ix = Indexer::new(material);
    let chunks = ix.size().div_ceil(CHUNK);
    (0..chunks)
        .into_par_iter()
        .map(|c| {
            let mut part = Comparison::empty(material);
            for index in c * CHUNK..((c + 1) * CHUNK).min(ix.size()) {
                let Some(pos) = ix.legal(index) else { continue };
                let ours = own.probe_dtz(&pos)?;
                let wdl = syzygy.probe_wdl(&pos)?;
                let dtz = syzygy.probe_dtz(&pos)?;
                part.positions += 1;
                let z = syzygy_dtz(ours);
                let class_differs = wdl != Wdl50::of(ours, DEFAULT_RULE);
                let dtz_differs = !dtz_agrees(z, dtz);
                part.wdl_differ += u64::from(class_differs);
                part.dtz_differ += u64::from(dtz_differs && !class_differs);
                part.rounded += u64::from(!dtz_differs && dtz.plies != z);
                if (class_differs || dtz_differs) && part.first.len() < keep {
                    part.first.push(Difference {
                        index,
                        fen: pos.fen(),
                        zermelo: ours,
                        syzygy_wdl: wdl,
                        syzygy_dtz: dtz,
                    });
                }
            }
            Ok(part)
        })
        .try_reduce(|| Comparison::empty(material), |a, b| Ok(a.merge(b, keep)))
}
