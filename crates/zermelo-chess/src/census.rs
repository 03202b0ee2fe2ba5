//! [`Tablebase::census`]: the five-class counts and longest DTZ of a material counted position
//! by position, for tables that hold no statistics of their own (Syzygy's): every index of
//! zermelo's [`Indexer`] that holds a position is probed, so the counts are of the same
//! symmetry-reduced positions as [`Table::stats`](crate::Table::stats) counts in zermelo's
//! tables, and the two agree where both exist.
//!
//! Cost: one WDL probe (and one DTZ probe, when the DTZ tables are there) per position, in
//! parallel; about the index size times a few microseconds (KRvK: 0.1 s, KQvKR: tens of
//! seconds on two cores).

use rayon::prelude::*;

use crate::category::Dtz;
use crate::dtz::Wdl50;
use crate::index::Indexer;
use crate::material::Material;
use crate::probe::{ProbeError, Tablebase};
use crate::square::Color;
use crate::table::Wdl50Stats;

/// Indices probed per task.
const CHUNK: u64 = 1 << 14;

/// What [`Tablebase::census`] counted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Census {
    /// The five classes per side to move; the longest DTZ of each (0 without DTZ tables).
    pub wdl50: Wdl50Stats,
    /// Indices that hold no position (illegal, or another index's symmetric image).
    pub illegal: u64,
    /// Whether the DTZ was probed (else only the classes are counted).
    pub dtz: bool,
    /// Whether some DTZ probed was rounded (a Syzygy value stored in moves, whose truth may
    /// be one ply longer): then a longest DTZ may be one ply short too.
    pub rounded: bool,
}

impl Census {
    fn empty(rule: u32, dtz: bool) -> Census {
        Census {
            wdl50: Wdl50Stats {
                rule,
                ..Wdl50Stats::default()
            },
            illegal: 0,
            dtz,
            rounded: false,
        }
    }

    fn add(&mut self, side: usize, class: Wdl50, dtz: Option<Dtz>) {
        self.wdl50.counts[side][class as usize] += 1;
        let Some(d) = dtz else { return };
        let s = &mut self.wdl50;
        let slot = match class {
            Wdl50::Win => &mut s.longest_dtz_win[side],
            Wdl50::CursedWin => &mut s.longest_dtz_cursed_win[side],
            Wdl50::Loss => &mut s.longest_dtz_loss[side],
            Wdl50::BlessedLoss => &mut s.longest_dtz_blessed_loss[side],
            Wdl50::Draw => return,
        };
        *slot = (*slot).max(d.syzygy().unsigned_abs());
        self.rounded |= !d.precise;
    }

    fn merge(mut self, o: Census) -> Census {
        self.illegal += o.illegal;
        for side in 0..2 {
            for k in 0..5 {
                self.wdl50.counts[side][k] += o.wdl50.counts[side][k];
            }
            let mine = [
                &mut self.wdl50.longest_dtz_win,
                &mut self.wdl50.longest_dtz_cursed_win,
                &mut self.wdl50.longest_dtz_loss,
                &mut self.wdl50.longest_dtz_blessed_loss,
            ];
            let theirs = [
                o.wdl50.longest_dtz_win,
                o.wdl50.longest_dtz_cursed_win,
                o.wdl50.longest_dtz_loss,
                o.wdl50.longest_dtz_blessed_loss,
            ];
            for (a, b) in mine.into_iter().zip(theirs) {
                a[side] = a[side].max(b[side]);
            }
        }
        self.rounded |= o.rounded;
        self
    }
}

impl Tablebase {
    /// Counts the classes under the rule (and the longest DTZ, with `dtz`) of every position
    /// of `material` (canonical, a material [`Indexer`] covers) by probing it
    /// ([`wdl_of`](Self::wdl_of), [`dtz_of`](Self::dtz_of): zermelo's tables where they
    /// are, else Syzygy's).
    ///
    /// # Errors
    /// A position no table answers ([`ProbeError::NoTable`]), or a table that is unusable.
    pub fn census(&self, material: &Material, dtz: bool) -> Result<Census, ProbeError> {
        let ix = Indexer::new(material);
        let chunks = ix.size().div_ceil(CHUNK);
        let rule = self.rule();
        (0..chunks)
            .into_par_iter()
            .map(|c| {
                let mut part = Census::empty(rule, dtz);
                for idx in c * CHUNK..((c + 1) * CHUNK).min(ix.size()) {
                    let Some(pos) = ix.legal(idx) else {
                        part.illegal += 1;
                        continue;
                    };
                    let side = usize::from(pos.turn() == Color::Black);
                    let (class, d) = if dtz {
                        let d = self.dtz_of(&pos)?.ok_or_else(|| self.no_table(&pos))?;
                        (Wdl50::of(d.value, rule), Some(d))
                    } else {
                        let w = self.wdl_of(&pos)?.ok_or_else(|| self.no_table(&pos))?;
                        (w, None)
                    };
                    part.add(side, class, d);
                }
                Ok(part)
            })
            .try_reduce(|| Census::empty(rule, dtz), |a, b| Ok(a.merge(b)))
    }
}
