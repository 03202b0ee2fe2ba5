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

use rayon::prelude::*;

use crate::material::Material;
use crate::probe::{ProbeError, Tablebase};
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

/// Checks the table of `material` in `tb`; `Ok(None)` when every entry is right.
pub fn verify(material: &Material, tb: &Tablebase) -> Result<Option<Mismatch>, ProbeError> {
    let table = tb.table(material)?;
    let indexer = table.indexer();
    (0..indexer.size())
        .into_par_iter()
        .map(|i| -> Result<Option<Mismatch>, ProbeError> {
            let stored = table.value(i)?;
            let pos = indexer.legal(i);
            let expected = match &pos {
                None => None,
                Some(p) => Some(best(p, tb)?),
            };
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

fn best(pos: &crate::Position, tb: &Tablebase) -> Result<Value, ProbeError> {
    let mut best: Option<Value> = None;
    for m in pos.legal_moves() {
        let v = tb.probe(&pos.play(m))?.for_parent();
        best = Some(best.map_or(v, |b| b.max(v)));
    }
    Ok(best.unwrap_or(if pos.is_check() {
        Value::Lose(0)
    } else {
        Value::Draw
    }))
}
