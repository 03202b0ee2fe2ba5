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
    /// The game graph has a cycle, so the game is not short.
    #[error(
        "the positions have a cycle ({0}); canonical values exist only for finite (acyclic) games"
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
    /// A loopy position that is not a stopper: from this node there is an infinite alternating
    /// run of moves. Its sides (onside and offside) are not computed.
    #[error(
        "position {0} lies on an infinite alternating run of moves: the game is not a stopper, \
         and the sides (onside & offside) of such games are not computed"
    )]
    NotStopper(u64),
}
