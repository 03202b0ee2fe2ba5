//! The 50-move rule: [`Wdl50`], the five results of a position when a game is drawn after a
//! number of plies without a capture or a pawn move, and DTZ, the distance to the next such
//! *zeroing* move, as Syzygy tables and lichess report them.
//!
//! A DTZ table stores each position's value in the *zeroing scale*: a [`Value`] whose depth
//! counts plies to the next zeroing move (or mate) instead of to mate. It is computed by the
//! same retrograde analysis as depth to mate, on the same moves (kings and pieces moving
//! without capture), with the zeroing moves as *exits* valued by the class of the position
//! they lead to, on a fresh clock ([`Wdl50::zeroing_exit`]):
//!
//! | the position after a zeroing move is, for its side to move | the mover's exit value |
//! |---|---|
//! | a loss (mated included) | `Win(1)` |
//! | a blessed loss | `Win(rule + 1)` |
//! | a draw | `Draw` |
//! | a cursed win | `Lose(rule + 1)` |
//! | a win | `Lose(1)` |
//!
//! A checkmated position is `Lose(0)` (the mating move counts as zeroing: a mate on the
//! rule's last ply still wins). The winner then takes the fastest path to a good zeroing move
//! and the loser the slowest (fast win, slow loss), so a `Win(d)` with `d <= rule` is a win
//! under the rule and `d > rule` a cursed win (Syzygy's "DTZ counted past 100": a cursed win
//! through a zeroing move into a blessed loss starts at `rule + 1`); likewise for losses.
//! [`syzygy_dtz`] signs the depth as Syzygy does: positive for a win, negative for a loss,
//! 0 for a draw, and -1 for a checkmated position.

use crate::value::Value;

/// The usual rule: 50 moves of each side, 100 plies.
pub const DEFAULT_RULE: u32 = 100;

/// The longest rule a table may be generated for (DTZ depths must stay below the engine's
/// 16,383 plies).
pub const MAX_RULE: u32 = 1000;

/// The result of a position under the 50-move rule, for the side to move, in Syzygy's five
/// classes (ordered from worst to best for the side to move).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Wdl50 {
    /// Lost whatever the clock (mate or a zeroing move comes in time).
    Loss,
    /// Lost without the rule, drawn with it.
    BlessedLoss,
    /// Drawn.
    Draw,
    /// Won without the rule, drawn with it.
    CursedWin,
    /// Won under the rule.
    Win,
}

impl Wdl50 {
    /// All five, worst first.
    pub const ALL: [Wdl50; 5] = [
        Wdl50::Loss,
        Wdl50::BlessedLoss,
        Wdl50::Draw,
        Wdl50::CursedWin,
        Wdl50::Win,
    ];

    /// The class of a zeroing-scale value on a fresh clock (right after a zeroing move).
    pub fn of(value: Value, rule: u32) -> Wdl50 {
        Wdl50::with_clock(value, rule, 0)
    }

    /// The class of a zeroing-scale value when `clock` plies have passed since the last
    /// zeroing move: a win whose DTZ plus the clock exceeds the rule is drawn by the rule
    /// (a cursed win), a loss likewise saved. A checkmate stays a loss.
    pub fn with_clock(value: Value, rule: u32, clock: u32) -> Wdl50 {
        match value {
            Value::Draw => Wdl50::Draw,
            Value::Win(d) if d.saturating_add(clock) <= rule => Wdl50::Win,
            Value::Win(_) => Wdl50::CursedWin,
            Value::Lose(0) => Wdl50::Loss,
            Value::Lose(d) if d.saturating_add(clock) <= rule => Wdl50::Loss,
            Value::Lose(_) => Wdl50::BlessedLoss,
        }
    }

    /// The value, for the player who makes a zeroing move, of reaching a position of class
    /// `self` (for its side to move) with a fresh clock.
    pub fn zeroing_exit(self, rule: u32) -> Value {
        match self {
            Wdl50::Loss => Value::Win(1),
            Wdl50::BlessedLoss => Value::Win(rule + 1),
            Wdl50::Draw => Value::Draw,
            Wdl50::CursedWin => Value::Lose(rule + 1),
            Wdl50::Win => Value::Lose(1),
        }
    }

    /// The class for the other side.
    pub fn flip(self) -> Wdl50 {
        match self {
            Wdl50::Loss => Wdl50::Win,
            Wdl50::BlessedLoss => Wdl50::CursedWin,
            Wdl50::Draw => Wdl50::Draw,
            Wdl50::CursedWin => Wdl50::BlessedLoss,
            Wdl50::Win => Wdl50::Loss,
        }
    }

    /// lichess's word: `win`, `cursed-win`, `draw`, `blessed-loss`, `loss`.
    pub fn as_str(self) -> &'static str {
        match self {
            Wdl50::Loss => "loss",
            Wdl50::BlessedLoss => "blessed-loss",
            Wdl50::Draw => "draw",
            Wdl50::CursedWin => "cursed-win",
            Wdl50::Win => "win",
        }
    }

    /// Syzygy's number: -2 loss, -1 blessed loss, 0 draw, 1 cursed win, 2 win.
    pub fn syzygy(self) -> i8 {
        self as i8 - 2
    }
}

impl std::fmt::Display for Wdl50 {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// DTZ as Syzygy signs it, from a zeroing-scale value: plies to the next zeroing move,
/// positive when the side to move wins, negative when it loses, 0 for a draw; a checkmated
/// position is -1 (as Syzygy and lichess report it).
pub fn syzygy_dtz(value: Value) -> i32 {
    match value {
        Value::Draw => 0,
        Value::Win(d) => d as i32,
        Value::Lose(0) => -1,
        Value::Lose(d) => -(d as i32),
    }
}

/// The two-byte entry of a zeroing-scale value in a DTZ table: 0 draw, `0x8000 | d` a win in
/// `d` plies, `d + 1` a loss in `d` plies; `0xFFFF` ([`DTZ_ILLEGAL`]) fills indices that hold
/// no position. `None` for depths of `0x7FFE` plies or more.
pub(crate) fn encode_dtz(v: Value) -> Option<u16> {
    match v {
        Value::Draw => Some(0),
        Value::Win(d) => (1..0x7FFF).contains(&d).then_some(0x8000 | d as u16),
        Value::Lose(d) => (d < 0x7FFE).then(|| d as u16 + 1),
    }
}

/// The entry of an index that holds no position in a DTZ table (never a value's).
pub(crate) const DTZ_ILLEGAL: u16 = 0xFFFF;

/// The value of a DTZ entry other than [`DTZ_ILLEGAL`].
pub(crate) fn decode_dtz(e: u16) -> Value {
    match e {
        0 => Value::Draw,
        e if e & 0x8000 != 0 => Value::Win(u32::from(e & 0x7FFF)),
        e => Value::Lose(u32::from(e) - 1),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes_follow_the_rule_and_the_clock() {
        assert_eq!(Wdl50::of(Value::Win(100), 100), Wdl50::Win);
        assert_eq!(Wdl50::of(Value::Win(101), 100), Wdl50::CursedWin);
        assert_eq!(Wdl50::with_clock(Value::Win(60), 100, 40), Wdl50::Win);
        assert_eq!(Wdl50::with_clock(Value::Win(60), 100, 41), Wdl50::CursedWin);
        assert_eq!(Wdl50::of(Value::Lose(0), 100), Wdl50::Loss);
        assert_eq!(Wdl50::with_clock(Value::Lose(0), 100, 150), Wdl50::Loss);
        assert_eq!(Wdl50::of(Value::Lose(100), 100), Wdl50::Loss);
        assert_eq!(Wdl50::of(Value::Lose(101), 100), Wdl50::BlessedLoss);
        assert_eq!(
            Wdl50::with_clock(Value::Lose(90), 100, 11),
            Wdl50::BlessedLoss
        );
        assert_eq!(Wdl50::of(Value::Draw, 100), Wdl50::Draw);
        for c in Wdl50::ALL {
            assert_eq!(c.flip().flip(), c);
            assert_eq!(Wdl50::of(c.zeroing_exit(100), 100), c.flip());
            assert_eq!(c.syzygy(), -c.flip().syzygy());
        }
        assert_eq!(syzygy_dtz(Value::Lose(0)), -1);
        assert_eq!(syzygy_dtz(Value::Lose(7)), -7);
        assert_eq!(syzygy_dtz(Value::Win(101)), 101);
    }

    #[test]
    fn entries_round_trip() {
        for v in [
            Value::Draw,
            Value::Lose(0),
            Value::Lose(1),
            Value::Win(1),
            Value::Win(101),
            Value::Lose(16_383),
            Value::Win(16_383),
        ] {
            let e = encode_dtz(v).unwrap();
            assert_ne!(e, DTZ_ILLEGAL);
            assert_eq!(decode_dtz(e), v);
        }
        assert_eq!(encode_dtz(Value::Win(0)), None);
    }
}
