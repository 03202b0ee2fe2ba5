//! [`Reduced`]: a game's quotient by its symmetry, itself a [`Game`].
//!
//! Solving the quotient instead of the game divides the state space by up to the size of the
//! symmetry group (8 for a square board) and gives every position the outcome and depth of its
//! representative.
//!
//! Why values are preserved: the canonical map sends each position to a representative with the
//! same verdict, and maps the moves of a representative one-to-one (as a multiset, duplicates
//! kept) onto the canonical images of its moves. The fixpoint iteration of seed 003 §3 therefore
//! decides a position and its representative in the same round with the same outcome, so
//! outcomes and depths (the round numbers, 003 §4.2) agree. `tests/games.rs` checks this
//! against the unreduced solve of tic-tac-toe.

use crate::game::{Game, Ranked, Symmetry};
use crate::graph::Convention;
use crate::outcome::Outcome;

/// The quotient of `G` by its [`Symmetry`]: positions are canonical representatives and every
/// move is canonicalised.
///
/// Explore it from canonical starts ([`Reduced::canonical`]); as a [`Ranked`] game its
/// non-canonical indices are holes. It has no [`Unmoves`](crate::game::Unmoves): the
/// predecessors of a class are those of all its members, which needs the whole orbit; use
/// [`solve_dense_reverse`](crate::game::solve_dense_reverse) or [`explore`](crate::game::explore).
#[derive(Clone, Debug)]
pub struct Reduced<G>(pub G);

impl<G: Symmetry> Reduced<G> {
    /// The representative of `position`: look positions up by this.
    pub fn canonical(&self, position: &G::Position) -> G::Position {
        self.0.canonical(position)
    }
}

impl<G: Symmetry> Game for Reduced<G> {
    type Position = G::Position;

    fn moves(&self, position: &G::Position, out: &mut Vec<G::Position>) {
        let first = out.len();
        self.0.moves(position, out);
        for p in &mut out[first..] {
            *p = self.0.canonical(p);
        }
    }

    fn verdict(&self, position: &G::Position) -> Option<Outcome> {
        self.0.verdict(position)
    }

    fn convention(&self) -> Convention {
        self.0.convention()
    }
}

impl<G: Symmetry + Ranked> Ranked for Reduced<G> {
    fn index_count(&self) -> u64 {
        self.0.index_count()
    }

    fn rank(&self, position: &G::Position) -> u64 {
        self.0.rank(position)
    }

    fn unrank(&self, index: u64) -> Option<G::Position> {
        self.0.unrank(index).filter(|p| self.0.canonical(p) == *p)
    }
}
