//! The vocabulary of solved games: [`Outcome`], [`Depth`], [`NodeId`], [`Player`].

use std::fmt;
use std::str::FromStr;

/// Index of a position (vertex) in a game graph.
///
/// Graphs hold at most `u32::MAX` nodes; the value `u32::MAX` itself is never a valid id.
pub type NodeId = u32;

/// The game-theoretic value of a position for the player to move. Serialises as `"win"`,
/// `"lose"` or `"draw"`.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
#[repr(u8)]
pub enum Outcome {
    /// The player to move can force a win.
    Win = 0,
    /// Whatever the player to move does, the opponent can force a win.
    Lose = 1,
    /// Neither side can force a win: play goes on forever, or ends in a tie.
    Draw = 2,
}

impl Outcome {
    /// All three outcomes, in the order `win, lose, draw`.
    pub const ALL: [Outcome; 3] = [Outcome::Win, Outcome::Lose, Outcome::Draw];

    /// The lowercase name used by every zermelo format: `win`, `lose` or `draw`.
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::Win => "win",
            Outcome::Lose => "lose",
            Outcome::Draw => "draw",
        }
    }

    /// The outcome for the other player: WIN and LOSE swap, DRAW stays.
    pub fn flip(self) -> Outcome {
        match self {
            Outcome::Win => Outcome::Lose,
            Outcome::Lose => Outcome::Win,
            Outcome::Draw => Outcome::Draw,
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Error returned when a string is not `win`, `lose` or `draw`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseOutcomeError(pub String);

impl fmt::Display for ParseOutcomeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "expected win, lose or draw, found {:?}", self.0)
    }
}

impl std::error::Error for ParseOutcomeError {}

impl FromStr for Outcome {
    type Err = ParseOutcomeError;

    /// Parses `win`, `lose` or `draw`, ignoring ASCII case; `loss` is accepted for `lose`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "win" => Ok(Outcome::Win),
            "lose" | "loss" => Ok(Outcome::Lose),
            "draw" => Ok(Outcome::Draw),
            _ => Err(ParseOutcomeError(s.to_string())),
        }
    }
}

/// Distance to the end of the game in plies under optimal play.
///
/// The winner plays to end the game as fast as possible and the loser to delay it as long as
/// possible ("fast win, slow loss"). A terminal position has depth 0. Draws have no depth.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
#[repr(transparent)]
pub struct Depth(pub u32);

impl Depth {
    /// Depth of a terminal position.
    pub const ZERO: Depth = Depth(0);

    /// The number of plies.
    pub fn plies(self) -> u32 {
        self.0
    }

    /// One ply further from the end.
    pub fn succ(self) -> Depth {
        Depth(self.0 + 1)
    }
}

impl fmt::Display for Depth {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// One of the two players of a partizan game, for `(position, player)` states.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Player {
    /// Player 0 (moves first by convention).
    Zero = 0,
    /// Player 1.
    One = 1,
}

impl Player {
    /// Both players, `Zero` first.
    pub const BOTH: [Player; 2] = [Player::Zero, Player::One];

    /// The opponent.
    pub fn other(self) -> Player {
        match self {
            Player::Zero => Player::One,
            Player::One => Player::Zero,
        }
    }

    /// 0 or 1.
    pub fn index(self) -> usize {
        self as usize
    }

    /// `Zero` for 0, `One` for 1, `None` otherwise.
    pub fn from_index(i: u64) -> Option<Player> {
        match i {
            0 => Some(Player::Zero),
            1 => Some(Player::One),
            _ => None,
        }
    }
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.index())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outcome_round_trips_through_text() {
        for o in Outcome::ALL {
            assert_eq!(o.as_str().parse::<Outcome>().unwrap(), o);
        }
        assert_eq!("LOSS".parse::<Outcome>().unwrap(), Outcome::Lose);
        assert!("wins".parse::<Outcome>().is_err());
    }

    #[test]
    fn flip_is_an_involution() {
        for o in Outcome::ALL {
            assert_eq!(o.flip().flip(), o);
        }
        assert_eq!(Outcome::Win.flip(), Outcome::Lose);
    }
}
