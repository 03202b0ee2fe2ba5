//! Every `Ranked + Unmoves` game as an [`IndexedGame`]: holes from `unrank`, verdicts, moves
//! counted, no exits.

use super::{IndexedGame, Start};
use crate::game::{Ranked, Unmoves};

/// A `Ranked + Unmoves` game seen by the compact engine: index = rank, a hole where `unrank`
/// gives nothing, a verdict or a position without moves (scored by the game's convention) as
/// a terminal, every other position open with its moves counted and no exit.
///
/// Generic and simple (it builds positions for every call); a game with a cheap index
/// arithmetic may implement [`IndexedGame`] directly, as the pursuit games do.
#[derive(Clone, Copy, Debug)]
pub struct RankedGame<'a, G>(pub &'a G);

impl<G: Ranked + Unmoves + Sync> IndexedGame for RankedGame<'_, G> {
    fn index_count(&self) -> u64 {
        self.0.index_count()
    }

    fn start(&self, index: u64) -> Start {
        let Some(p) = self.0.unrank(index) else {
            return Start::Hole;
        };
        if let Some(v) = self.0.verdict(&p) {
            return Start::Terminal(v);
        }
        let mut moves = Vec::new();
        self.0.moves(&p, &mut moves);
        match u32::try_from(moves.len()) {
            Ok(0) => Start::Terminal(self.0.convention().stuck_outcome()),
            Ok(moves) => Start::Open { moves, exit: None },
            Err(_) => panic!("a position with more than u32::MAX moves"),
        }
    }

    fn predecessors(&self, index: u64, out: &mut Vec<u64>) {
        let Some(p) = self.0.unrank(index) else {
            return;
        };
        let mut before = Vec::new();
        self.0.unmoves(&p, &mut before);
        out.extend(before.iter().map(|q| self.0.rank(q)));
    }

    fn successors(&self, index: u64, out: &mut Vec<u64>) -> bool {
        if let Some(p) = self.0.unrank(index) {
            let mut after = Vec::new();
            self.0.moves(&p, &mut after);
            out.extend(after.iter().map(|q| self.0.rank(q)));
        }
        true
    }
}
