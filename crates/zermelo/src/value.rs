//! [`Value`]: one position's outcome and depth as one typed value — WIN / LOSE / DRAW for the
//! side to move, with the plies to the end under fast-win / slow-loss play. Graph solutions,
//! games and chess tablebases all speak it.

use std::cmp::Ordering;
use std::fmt;

use crate::outcome::{Depth, Outcome};

/// The value of a position for the side to move.
///
/// Depths are plies to the end: a lost terminal is `Lose(0)`, a move into it is `Win(1)`.
/// Values are ordered from the mover's point of view: faster wins first, then draws, then
/// slower losses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    /// The side to move wins in this many plies.
    Win(u32),
    /// The side to move loses in this many plies.
    Lose(u32),
    /// Neither side can force the end.
    Draw,
}

impl Value {
    /// The value of an outcome and its depth (`None` for a draw; a missing depth on a win or a
    /// loss counts as 0).
    pub fn new(outcome: Outcome, depth: Option<Depth>) -> Value {
        let plies = depth.map_or(0, Depth::plies);
        match outcome {
            Outcome::Win => Value::Win(plies),
            Outcome::Lose => Value::Lose(plies),
            Outcome::Draw => Value::Draw,
        }
    }

    /// Node `u` of a solution.
    pub fn of(solution: &crate::Solution, u: crate::NodeId) -> Value {
        Value::new(solution.outcome(u), solution.depth(u))
    }

    /// WIN, LOSE or DRAW.
    pub fn outcome(self) -> Outcome {
        match self {
            Value::Win(_) => Outcome::Win,
            Value::Lose(_) => Outcome::Lose,
            Value::Draw => Outcome::Draw,
        }
    }

    /// The depth (`None` for a draw).
    pub fn depth(self) -> Option<Depth> {
        self.plies().map(Depth)
    }

    /// Plies to the end (`None` for a draw).
    pub fn plies(self) -> Option<u32> {
        match self {
            Value::Win(d) | Value::Lose(d) => Some(d),
            Value::Draw => None,
        }
    }

    /// Moves of the side to move: a win in `n` moves takes `2n - 1` plies, a loss after `n` own
    /// moves `2n` plies.
    pub fn moves(self) -> Option<u32> {
        match self {
            Value::Win(d) => Some(d.div_ceil(2)),
            Value::Lose(d) => Some(d / 2),
            Value::Draw => None,
        }
    }

    /// The value, for the side that moved, of a move into a position of this value.
    pub fn for_parent(self) -> Value {
        match self {
            Value::Win(d) => Value::Lose(d + 1),
            Value::Lose(d) => Value::Win(d + 1),
            Value::Draw => Value::Draw,
        }
    }

    fn key(self) -> i64 {
        match self {
            Value::Win(d) => 1_000_000_000_000 - i64::from(d),
            Value::Draw => 0,
            Value::Lose(d) => -1_000_000_000_000 + i64::from(d),
        }
    }
}

impl Ord for Value {
    fn cmp(&self, other: &Value) -> Ordering {
        self.key().cmp(&other.key())
    }
}

impl PartialOrd for Value {
    fn partial_cmp(&self, other: &Value) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// `win in 3 plies`, `lose in 1 ply`, `draw`.
impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.plies() {
            None => f.write_str("draw"),
            Some(p) => write!(f, "{} in {}", self.outcome(), plural(p, "ply", "plies")),
        }
    }
}

/// `1 ply`, `2 plies`: a count with its noun.
pub fn plural(count: u32, one: &str, many: &str) -> String {
    format!("{count} {}", if count == 1 { one } else { many })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn orders_moves_and_words() {
        assert!(Value::Win(1) > Value::Win(3));
        assert!(Value::Win(99) > Value::Draw);
        assert!(Value::Draw > Value::Lose(40));
        assert!(Value::Lose(40) > Value::Lose(2));
        assert_eq!(Value::Win(19).moves(), Some(10));
        assert_eq!(Value::Lose(4).moves(), Some(2));
        assert_eq!(Value::Lose(0).for_parent(), Value::Win(1));
        assert_eq!(Value::new(Outcome::Lose, Some(Depth(2))), Value::Lose(2));
        assert_eq!(Value::Win(1).to_string(), "win in 1 ply");
        assert_eq!(Value::Lose(2).to_string(), "lose in 2 plies");
        assert_eq!(Value::Draw.to_string(), "draw");
    }
}
