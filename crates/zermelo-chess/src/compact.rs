//! A pawnless material as an [`IndexedGame`] of zermelo's compact engine
//! ([`zermelo::game::compact`]): the index space is the table's, holes are the illegal and
//! non-canonical indices, exits are the captures (probed from the smaller tables), and the
//! predecessors are the bitboard un-moves of [`SliceGame`].
//!
//! [`generate`](crate::generate) runs its own layer loop (it also handles pawn stages and en
//! passant); this adapter solves the same pawnless tables through the engine, and the tests
//! check that both agree byte for byte.

use std::sync::Mutex;

use zermelo::game::compact::{self, CompactOptions, IndexedGame, Start};
use zermelo::Outcome;

use crate::generate::GenError;
use crate::material::Material;
use crate::probe::{ProbeError, Tablebase};
use crate::slice::{Child, SliceGame};
use crate::table::Table;
use crate::value::{Value, ILLEGAL};

/// One pawnless material for the compact engine.
struct PawnlessGame<'a> {
    game: &'a SliceGame,
    /// The first failed probe of a smaller table (the trait has no error path; the solve is
    /// discarded when this is set).
    failure: Mutex<Option<ProbeError>>,
}

impl IndexedGame for PawnlessGame<'_> {
    fn index_count(&self) -> u64 {
        self.game.indexer().size()
    }

    fn start(&self, index: u64) -> Start {
        let Some(b) = self.game.legal_board(index) else {
            return Start::Hole;
        };
        let mut children = Vec::new();
        let mut exit: Option<Value> = None;
        let mut any = false;
        self.game.moves(&b, |child| {
            any = true;
            match child {
                Child::InSlice(c) => children.push(self.game.rank(&c)),
                Child::Exit {
                    board,
                    victim,
                    promoted,
                } => match self.game.exit_value(&board, victim, promoted) {
                    Ok(v) => {
                        let v = v.for_parent();
                        exit = Some(exit.map_or(v, |w| w.max(v)));
                    }
                    Err(e) => {
                        let mut f = self.failure.lock().unwrap_or_else(|e| e.into_inner());
                        f.get_or_insert(e);
                    }
                },
                Child::PawnPush { .. } => {}
            }
            true
        });
        if !any {
            return Start::Terminal(if self.game.in_check(&b) {
                Outcome::Lose
            } else {
                Outcome::Draw
            });
        }
        // Distinct children, as the predecessors list each position once.
        children.sort_unstable();
        children.dedup();
        Start::Open {
            moves: children.len() as u32,
            exit,
        }
    }

    fn predecessors(&self, index: u64, out: &mut Vec<u64>) {
        if let Some(b) = self.game.legal_board(index) {
            self.game.unmoves(&b, out);
            out.sort_unstable();
            out.dedup();
        }
    }
}

/// Generates the table of a canonical pawnless `material` on zermelo's compact engine; every
/// table it depends on must be in `tb`.
pub fn generate_compact(
    material: &Material,
    tb: &Tablebase,
    options: &CompactOptions,
) -> Result<Table, GenError> {
    if material.has_pawns() || !material.is_canonical() || material.piece_count() < 3 {
        return Err(GenError::Unsupported(
            material.clone(),
            "the compact-engine path takes canonical pawnless materials".into(),
        ));
    }
    let dep = |source| GenError::Dependency {
        material: material.clone(),
        source: Box::new(source),
    };
    for m in material.successors() {
        tb.table(&m).map_err(dep)?;
    }
    let game = SliceGame::new(material, tb).map_err(dep)?;
    let indexed = PawnlessGame {
        game: &game,
        failure: Mutex::new(None),
    };
    let solution = compact::solve(&indexed, options)
        .map_err(|e| GenError::Unsupported(material.clone(), e.to_string()))?;
    if let Some(e) = indexed
        .failure
        .into_inner()
        .unwrap_or_else(|e| e.into_inner())
    {
        return Err(dep(e));
    }
    let n = game.indexer().size();
    let mut entries = Vec::with_capacity(n as usize);
    for i in 0..n {
        let byte = if game.legal_board(i).is_none() {
            ILLEGAL
        } else {
            crate::value::encode(solution.value(i))
                .ok_or_else(|| GenError::TooDeep(material.clone()))?
        };
        entries.push(byte);
    }
    Ok(Table::from_entries(material, entries))
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::AtomicU64;

    use super::*;

    #[test]
    fn compact_engine_agrees_with_the_generator() {
        let tb = Tablebase::in_memory();
        for name in ["KQvK", "KRvK", "KBvK", "KNvK", "KBNvK"] {
            let m: Material = name.parse().unwrap();
            let ours = crate::generate(&m, &tb, &AtomicU64::new(0)).unwrap();
            let engine = generate_compact(&m, &tb, &CompactOptions::default()).unwrap();
            for i in 0..ours.indexer().size() {
                assert_eq!(
                    ours.value(i).unwrap(),
                    engine.value(i).unwrap(),
                    "{name} index {i}"
                );
            }
            tb.insert(ours);
        }
    }
}
