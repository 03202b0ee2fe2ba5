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

/// Checks the DTM table of `material` in `tb`; `Ok(None)` when every entry is right.
pub fn verify(material: &Material, tb: &Tablebase) -> Result<Option<Mismatch>, ProbeError> {
    check(material, tb, Metric::Dtm)
}

/// Checks the DTZ table of `material` in `tb` by move generation (smaller tables: their DTZ
/// tables), and its agreement with the DTM table of `material` where that one is present.
pub fn verify_dtz(material: &Material, tb: &Tablebase) -> Result<Option<Mismatch>, ProbeError> {
    check(material, tb, Metric::Dtz { rule: tb.rule() })
}

fn check(
    material: &Material,
    tb: &Tablebase,
    metric: Metric,
) -> Result<Option<Mismatch>, ProbeError> {
    let table = tb.table_for(material, metric)?;
    let dtm = match metric {
        Metric::Dtz { .. } if tb.has(material) => Some(tb.table(material)?),
        _ => None,
    };
    let indexer = table.indexer();
    (0..indexer.size())
        .into_par_iter()
        .map(|i| -> Result<Option<Mismatch>, ProbeError> {
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
