//! The capability traits of a game defined by its rules.
//!
//! [`Game`] is all a game must give: the moves of a position and the verdict of a finished one.
//! The other traits are optional capabilities that let solvers do more with less memory:
//! [`Ranked`] (a dense index of positions, with holes), [`Unmoves`] (predecessor generation)
//! and [`Symmetry`] (a canonical representative of each class of equivalent positions).
//! A solver asks for exactly the traits it uses.

use std::fmt::Debug;
use std::hash::Hash;

use crate::graph::Convention;
use crate::outcome::Outcome;

/// A two-player game given by its rules: positions, their moves, and terminal verdicts.
///
/// A position includes everything that decides the future of the game, including whose turn it
/// is. Outcomes are always for the player to move, as everywhere in zermelo.
///
/// A position is *terminal* when [`verdict`](Game::verdict) gives an outcome (its moves are
/// never asked for) or when it has no moves (it is then scored by the
/// [`convention`](Game::convention)). A `draw` verdict is a tie that never propagates.
pub trait Game {
    /// A position of the game, including the player to move.
    type Position: Clone + Eq + Hash + Debug;

    /// Appends the positions reachable in one move from `position` to `out` (the caller passes
    /// an empty buffer). A move listed twice counts twice, as a multi-edge does in a graph.
    fn moves(&self, position: &Self::Position, out: &mut Vec<Self::Position>);

    /// The verdict of a finished position (`win`/`lose` for the player to move, or `draw` for a
    /// tie), `None` while the game goes on. Defaults to `None`: only stuck positions end.
    fn verdict(&self, _position: &Self::Position) -> Option<Outcome> {
        None
    }

    /// How a position without moves (and without a verdict) scores. Defaults to normal play:
    /// the player who cannot move loses.
    fn convention(&self) -> Convention {
        Convention::Normal
    }
}

/// A dense index of positions: every position has a rank in `0..index_count()`.
///
/// Not every index needs to be a position: [`unrank`](Ranked::unrank) returns `None` for a
/// *hole* (an illegal or unused index). Solvers treat holes as tied terminals that nothing
/// reaches, so they come out as draws without a depth.
///
/// Contract: `rank(p) < index_count()` for every position a solver can meet, and
/// `unrank(rank(p)) == Some(p)`. Solvers index arrays by rank and panic if the contract is broken.
pub trait Ranked: Game {
    /// The size of the index space, holes included.
    fn index_count(&self) -> u64;

    /// The index of `position`.
    fn rank(&self, position: &Self::Position) -> u64;

    /// The position at `index`, or `None` for a hole.
    fn unrank(&self, index: u64) -> Option<Self::Position>;
}

/// Predecessor generation ("un-moves"), which lets retrograde analysis run backwards without
/// storing any edges.
pub trait Unmoves: Game {
    /// Appends to `out` every position `q` that has a move to `position`, once per such move
    /// (the caller passes an empty buffer).
    ///
    /// It may also list terminal positions and holes (they have no moves, and solvers ignore
    /// them), so an implementation need not test whether a predecessor is finished; but it must
    /// not miss or duplicate a real move. The forward/backward consistency of `moves` and
    /// `unmoves` is the first thing to test for a new game (see `tests/games.rs`).
    fn unmoves(&self, position: &Self::Position, out: &mut Vec<Self::Position>);
}

/// Symmetry: positions that are equivalent under a symmetry of the rules (a rotation of the
/// board, a permutation of identical heaps) have one canonical representative.
///
/// Contract: `canonical` is constant on each class and returns a member of it; equivalent
/// positions have the same verdict, and their moves correspond one to one up to equivalence.
/// Then equivalent positions have the same outcome and depth, and a solver may work on
/// representatives only (see [`Reduced`](crate::game::Reduced)).
pub trait Symmetry: Game {
    /// The representative of `position`'s class.
    fn canonical(&self, position: &Self::Position) -> Self::Position;
}
