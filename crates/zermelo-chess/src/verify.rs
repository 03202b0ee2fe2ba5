//! Re-checks a table against the certificate rules, using move generation only.
//!
//! For every index: one that holds no position (the [`Indexer`](crate::Indexer) says which)
//! must hold the filler byte 255 (docs/formats.md); otherwise a checkmate is `Loss(0)`, a
//! stalemate a draw; otherwise the stored value equals the best over the legal moves of the
//! children's values (probed from this table and the smaller ones): a win in `d` has a child
//! lost in `d - 1` and none lost sooner, a loss in `d` has only children won, the slowest in
//! `d - 1`, and a draw has no lost child and a drawn one. Exact depths make these local rules
//! a proof that the table is the least fixpoint, i.e. correct. Cost: one move generation per
//! index.
//!
//! A DTZ table ([`verify_dtz`]) is checked by the same rules in the zeroing scale
//! ([`crate::dtz`]): a capture or pawn move counts as the exit of its target's class on a
//! fresh clock, any other move as one ply more than its target's value; and against the DTM
//! table of the same material: a position won (lost) under the rule or cursed (blessed) is won
//! (lost) by depth to mate, a draw is a draw.
//!
//! Every index costs a move generation and a probe per move, so a whole 6-piece table takes
//! a while (KQQQQvK: minutes of CPU); [`Coverage::Sample`] checks a spread of indices instead,
//! one drawn at random in each of `count` equal stretches of the index, in index order.

use std::sync::atomic::{AtomicU64, Ordering};

use rayon::prelude::*;

use crate::dtz::Wdl50;
use crate::material::Material;
use crate::probe::{ProbeError, Tablebase};
use crate::table::Metric;
use crate::value::Value;

/// The first index whose stored value breaks the rules.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mismatch {
    /// The index.
    pub index: u64,
    /// Its position (FEN), if legal.
    pub fen: Option<String>,
    /// The stored value (`None`: the index holds no position).
    pub stored: Option<Value>,
    /// What move generation says (`None`: illegal).
    pub expected: Option<Value>,
}

/// Which indices of a table a check covers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Coverage {
    /// Every index.
    All,
    /// About `count` indices: the index split into `count` stretches of equal length and one
    /// index drawn in each, from `seed` (the same seed draws the same indices). A `count` of
    /// at least the table's size checks every index.
    Sample {
        /// How many indices.
        count: u64,
        /// The seed of the draw.
        seed: u64,
    },
}

impl Coverage {
    /// How many indices this covers of a table of `size` indices.
    pub fn indices(self, size: u64) -> u64 {
        match self {
            Coverage::Sample { count, .. } if count < size => count,
            _ => size,
        }
    }

    /// The `k`-th index covered of `size` (for `k` below [`Coverage::indices`]).
    fn index(self, k: u64, size: u64) -> u64 {
        match self {
            Coverage::Sample { count, seed } if count < size => {
                let start = (u128::from(k) * u128::from(size) / u128::from(count)) as u64;
                let end = (u128::from(k + 1) * u128::from(size) / u128::from(count)) as u64;
                start + splitmix64(seed ^ k.wrapping_mul(0x9E37_79B9_7F4A_7C15)) % (end - start)
            }
            _ => k,
        }
    }
}

/// A 64-bit mix (splitmix64's finaliser) for drawing sample indices.
fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Checks the DTM table of `material` in `tb`; `Ok(None)` when every entry is right.
pub fn verify(material: &Material, tb: &Tablebase) -> Result<Option<Mismatch>, ProbeError> {
    verify_with(material, tb, Metric::Dtm, Coverage::All, &AtomicU64::new(0))
}

/// Checks the DTZ table of `material` in `tb` by move generation (smaller tables: their DTZ
/// tables), and its agreement with the DTM table of `material` where that one is present.
pub fn verify_dtz(material: &Material, tb: &Tablebase) -> Result<Option<Mismatch>, ProbeError> {
    let metric = Metric::Dtz { rule: tb.rule() };
    verify_with(material, tb, metric, Coverage::All, &AtomicU64::new(0))
}

/// Checks the DTM table (`Metric::Dtm`) or the DTZ table (`Metric::Dtz`, `tb`'s rule) of
/// `material` on the indices `coverage` names, adding each index checked to `done` (for a
/// progress bar); `Ok(None)` when every entry checked is right, else the lowest wrong one.
pub fn verify_with(
    material: &Material,
    tb: &Tablebase,
    metric: Metric,
    coverage: Coverage,
    done: &AtomicU64,
) -> Result<Option<Mismatch>, ProbeError> {
    let table = tb.table_for(material, metric)?;
    let dtm = match metric {
        Metric::Dtz { .. } if tb.has(material) => Some(tb.table(material)?),
        _ => None,
    };
    let indexer = table.indexer();
    let size = indexer.size();
    (0..coverage.indices(size))
        .into_par_iter()
        .map(|k| -> Result<Option<Mismatch>, ProbeError> {
            done.fetch_add(1, Ordering::Relaxed);
            let i = coverage.index(k, size);
            let stored = table.value(i)?;
            let pos = indexer.legal(i);
            let mut expected = match &pos {
                None => None,
                Some(p) => Some(best(p, tb, metric)?),
            };
            if let (Some(dtm), Some(Value::Draw | Value::Win(_) | Value::Lose(_))) = (&dtm, stored)
            {
                // Depth to mate must agree on the outcome without the rule.
                let mate = dtm.value(i)?;
                if mate.map(|v| v.outcome()) != stored.map(|v| v.outcome()) {
                    expected = mate;
                }
            }
            Ok((stored != expected).then(|| Mismatch {
                index: i,
                fen: pos.map(|p| p.fen()),
                stored,
                expected,
            }))
        })
        .try_reduce(
            || None,
            |a, b| {
                Ok(match (a, b) {
                    (Some(a), Some(b)) => Some(if a.index < b.index { a } else { b }),
                    (a, b) => a.or(b),
                })
            },
        )
}

fn best(pos: &crate::Position, tb: &Tablebase, metric: Metric) -> Result<Value, ProbeError> {
    let mut best: Option<Value> = None;
    for m in pos.legal_moves() {
        let child = pos.play(m);
        let v = match metric {
            Metric::Dtm => tb.probe(&child)?.for_parent(),
            Metric::Dtz { rule } => {
                let after = tb.probe_dtz(&child)?;
                if pos.is_zeroing(m) {
                    Wdl50::of(after, rule).zeroing_exit(rule)
                } else {
                    after.for_parent()
                }
            }
        };
        best = Some(best.map_or(v, |b| b.max(v)));
    }
    Ok(best.unwrap_or(if pos.is_check() {
        Value::Lose(0)
    } else {
        Value::Draw
    }))
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::AtomicU64;

    use super::{verify_with, Coverage};
    use crate::table::{Metric, Table};
    use crate::value::Value;
    use crate::{generate, Material, Tablebase};

    /// KRvK with every 97th won position's depth made two plies longer (a wrong but
    /// well-formed table), and the tablebase holding it with the tables it probes.
    fn tampered() -> (Tablebase, Material, u64) {
        let m: Material = "KRvK".parse().unwrap();
        let tb = Tablebase::in_memory();
        for dep in Material::generation_order(std::slice::from_ref(&m)) {
            tb.insert(generate(&dep, &tb, &Default::default()).unwrap());
        }
        let table = tb.table(&m).unwrap();
        let size = table.size();
        let mut entries = vec![0u8; size as usize];
        table.read_entries(0, &mut entries).unwrap();
        let mut changed = 0;
        let mut wins = 0;
        for (i, e) in entries.iter_mut().enumerate() {
            if let Ok(Some(Value::Win(d))) = table.value(i as u64) {
                wins += 1;
                if wins % 97 == 0 {
                    *e = Metric::Dtm.encode(Value::Win(d + 2)).unwrap() as u8;
                    changed += 1;
                }
            }
        }
        let wrong = Tablebase::in_memory();
        for dep in Material::generation_order(std::slice::from_ref(&m)) {
            if dep != m {
                wrong.insert(tb.table(&dep).unwrap().resident().unwrap());
            }
        }
        wrong.insert(Table::from_entries(&m, Metric::Dtm, entries));
        (wrong, m, changed)
    }

    #[test]
    fn samples_find_wrong_entries_and_count_what_they_check() {
        let (tb, m, changed) = tampered();
        assert!(changed > 100, "{changed}");
        let done = AtomicU64::new(0);
        let all = verify_with(&m, &tb, Metric::Dtm, Coverage::All, &done).unwrap();
        assert!(all.is_some());
        let size = tb.table(&m).unwrap().size();
        assert_eq!(done.into_inner(), size);
        // About one index in 100 is wrong: 5,000 drawn find one, and report a wrong one.
        let done = AtomicU64::new(0);
        let sample = Coverage::Sample {
            count: 5000,
            seed: 3,
        };
        let found = verify_with(&m, &tb, Metric::Dtm, sample, &done)
            .unwrap()
            .expect("a sample of 5,000 finds one of the wrong entries");
        assert_eq!(done.into_inner(), 5000);
        assert_ne!(found.stored, found.expected);
        assert!(all.unwrap().index <= found.index);
    }

    #[test]
    fn a_sample_draws_one_index_in_each_stretch_in_order() {
        let size = 1_000_003;
        let sample = Coverage::Sample {
            count: 1000,
            seed: 7,
        };
        assert_eq!(sample.indices(size), 1000);
        let drawn: Vec<u64> = (0..1000).map(|k| sample.index(k, size)).collect();
        for (k, &i) in drawn.iter().enumerate() {
            let k = k as u64;
            assert!(
                k * size / 1000 <= i && i < (k + 1) * size / 1000,
                "{k}: {i}"
            );
        }
        // Drawn, not the stretches' starts; the same seed draws the same indices.
        assert!(drawn
            .iter()
            .enumerate()
            .any(|(k, &i)| i != k as u64 * size / 1000));
        assert!((0..1000).all(|k| sample.index(k, size) == drawn[k as usize]));
        let other = Coverage::Sample {
            count: 1000,
            seed: 8,
        };
        assert!((0..1000).any(|k| other.index(k, size) != drawn[k as usize]));
        // At least the size: every index, in order.
        for count in [size, size + 1, u64::MAX] {
            let all = Coverage::Sample { count, seed: 1 };
            assert_eq!(all.indices(size), size);
            assert_eq!(all.index(12345, size), 12345);
        }
        assert_eq!(Coverage::All.indices(size), size);
        // Huge tables: no overflow.
        let big = Coverage::Sample { count: 3, seed: 1 };
        assert!(big.index(2, u64::MAX - 1) >= (u64::MAX - 1) / 3 * 2);
    }
}
