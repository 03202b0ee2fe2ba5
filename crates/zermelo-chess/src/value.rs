//! [`Value`]: WIN / LOSS / DRAW for the side to move, with the depth to mate in plies.

use std::cmp::Ordering;
use std::fmt;

/// The value of a position for the side to move.
///
/// Depths are plies to mate under fast-win / slow-loss play: a checkmated side has `Loss(0)`,
/// mate in one is `Win(1)`. Wins have odd depths, losses even ones. Values are ordered from the
/// mover's point of view: faster wins first, then draws, then slower losses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    /// The side to move mates in this many plies.
    Win(u32),
    /// The side to move is mated in this many plies.
    Loss(u32),
    /// Neither side can force mate (stalemate, insufficient material, fortress).
    Draw,
}

/// Filler byte for an index that holds no position (illegal or non-canonical). It is also the
/// byte of `Loss(254)`: legality is the [`Indexer`](crate::Indexer)'s to say, so a reader
/// checks it only for this byte, which real positions almost never hold.
pub(crate) const ILLEGAL: u8 = 255;
/// The largest depth one entry byte holds: KPPvKP's longest mate is exactly 254 plies.
pub(crate) const MAX_PLIES: u32 = 254;

impl Value {
    /// The value, for the side that moved, of a move leading into a position of this value.
    pub fn for_parent(self) -> Value {
        match self {
            Value::Win(d) => Value::Loss(d + 1),
            Value::Loss(d) => Value::Win(d + 1),
            Value::Draw => Value::Draw,
        }
    }

    fn key(self) -> i64 {
        match self {
            Value::Win(d) => 1_000_000 - i64::from(d),
            Value::Draw => 0,
            Value::Loss(d) => -1_000_000 + i64::from(d),
        }
    }

    /// `win`, `loss` or `draw`.
    pub fn outcome(self) -> &'static str {
        match self {
            Value::Win(_) => "win",
            Value::Loss(_) => "loss",
            Value::Draw => "draw",
        }
    }

    /// Depth to mate in plies (`None` for a draw).
    pub fn plies(self) -> Option<u32> {
        match self {
            Value::Win(d) | Value::Loss(d) => Some(d),
            Value::Draw => None,
        }
    }

    /// Depth to mate in moves of the side to move: mate in `n` for a win (`plies = 2n - 1`),
    /// mated after `n` own moves for a loss (`plies = 2n`).
    pub fn moves(self) -> Option<u32> {
        match self {
            Value::Win(d) => Some(d.div_ceil(2)),
            Value::Loss(d) => Some(d / 2),
            Value::Draw => None,
        }
    }

    /// The entry byte: 0 draw, `plies + 1` otherwise (the parity gives the outcome).
    #[cfg_attr(not(test), allow(dead_code))] // the generator writes entry bytes directly
    pub(crate) fn encode(self) -> Option<u8> {
        match self {
            Value::Draw => Some(0),
            Value::Win(d) | Value::Loss(d) => (d <= MAX_PLIES).then(|| d as u8 + 1),
        }
    }

    /// The value of an entry byte, assuming its index holds a position (see [`ILLEGAL`]).
    pub(crate) fn decode(byte: u8) -> Value {
        match byte {
            0 => Value::Draw,
            b => {
                let d = u32::from(b - 1);
                if d % 2 == 1 {
                    Value::Win(d)
                } else {
                    Value::Loss(d)
                }
            }
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

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Draw => write!(f, "draw"),
            v => write!(
                f,
                "{} (DTM {} plies, {} moves)",
                v.outcome(),
                v.plies().unwrap_or(0),
                v.moves().unwrap_or(0)
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encoding_round_trips_and_orders() {
        for v in [
            Value::Draw,
            Value::Loss(0),
            Value::Win(1),
            Value::Win(253),
            Value::Loss(252),
            Value::Loss(254),
        ] {
            assert_eq!(Value::decode(v.encode().unwrap()), v);
        }
        assert_eq!(Value::Loss(254).encode(), Some(ILLEGAL));
        assert_eq!(Value::Win(255).encode(), None);
        assert!(Value::Win(1) > Value::Win(3));
        assert!(Value::Win(99) > Value::Draw);
        assert!(Value::Draw > Value::Loss(40));
        assert!(Value::Loss(40) > Value::Loss(2));
        assert_eq!(Value::Win(19).moves(), Some(10));
    }
}
