//! Why a value could not be computed.

use crate::limits::{MAX_BITS, MAX_EXP};

/// Why a value could not be computed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum CgtError {
    /// A number needs more than [`MAX_BITS`] bits or a denominator above `2^MAX_EXP`.
    #[error(
        "a number in this game needs more than {MAX_BITS} bits or a denominator above 2^{MAX_EXP}"
    )]
    NumberTooLarge,
    /// The game graph has a cycle, so the game is not short (its values: [`crate::loopy`]).
    #[error(
        "the positions have a cycle ({0}); canonical forms are of short (acyclic) games: a \
         loopy position has a simplest form or sides (`loopy`)"
    )]
    Cycle(zermelo::solve::Cycle),
    /// A position id out of range.
    #[error("position {position} is out of range: the game has {positions} positions")]
    OutOfRange {
        /// The position asked for.
        position: u64,
        /// How many there are.
        positions: usize,
    },
    /// A game too big for the limits of the method.
    #[error("{0}")]
    TooBig(String),
    /// Evaluating a value written in notation took more steps (sums and comparisons of games)
    /// than its limit ([`NOTATION_WORK`](crate::NOTATION_WORK) by default): a dozen characters can ask for sums whose
    /// canonical forms take minutes (`2*52+-52*52`), and a command or a server reading values
    /// must answer rather than hang.
    #[error("this value takes more than {0} sums and comparisons of games to evaluate")]
    TooMuchWork(u64),
    /// Atomic weights are computed for all-small games: every follower with options for both
    /// players or for neither.
    #[error(
        "this game is not all-small (a follower has options for one player only, e.g. a \
         non-zero number): atomic weights are computed for all-small games"
    )]
    NotAllSmall,
    /// A loopy position that is not a stopper where a stopper is needed: from this node there
    /// is an infinite alternating run of moves (its value is its sides,
    /// [`Sides`](crate::loopy::Sides)).
    #[error(
        "position {0} lies on an infinite alternating run of moves: the game is not a stopper \
         (its value is its onside & offside)"
    )]
    NotStopper(u64),
    /// The sides of a loopy game were not found as stoppers: no deletion of the moves on its
    /// infinite alternating runs through this node keeps its onside (or offside). Some games
    /// have sides that are not stoppers (Bach's carousel, *Winning Ways* ch. 11).
    #[error(
        "the sides of this game were not found as stoppers: the infinite alternating runs \
         through position {0} cannot be cut without changing its value (some games, such as \
         Bach's carousel, have sides that are not stoppers)"
    )]
    NotStopperSided(u64),
    /// `S & T` written with sides that are not sides: the offside must be at most the onside.
    #[error("not the sides of a game: {0}")]
    NotSides(String),
}
