//! A DTZ that may be rounded ([`Dtz`]) and the class it gives a position under the 50-move rule
//! with its halfmove clock ([`Category`]), ambiguous where the rounding could decide it.
//!
//! zermelo's DTZ tables are exact. Syzygy's store many DTZ values in moves rather than plies,
//! so a value read from them may be one ply short of the truth ([`crate::SyzygyDtz`]). After a
//! capture or pawn move (a clock of 0) that never changes the class: Syzygy rounds only where it
//! cannot. With a clock it can: a win whose rounded DTZ plus the clock is exactly the rule may be
//! a win or a cursed win. lichess's tablebase server calls such a class `maybe-win` (and
//! `maybe-loss`) and gives no `precise_dtz`; [`Category`] does the same.

use crate::dtz::Wdl50;
use crate::value::Value;

/// A DTZ in the zermelo scale (a [`Value`] counting plies to the next capture, pawn move or
/// mate) and whether it is exact.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Dtz {
    /// The value; when not `precise`, its depth may be one ply short of the truth.
    pub value: Value,
    /// Whether the depth is exact (always for zermelo's tables; lichess's `precise_dtz`).
    pub precise: bool,
}

impl Dtz {
    /// An exact value.
    pub fn exact(value: Value) -> Dtz {
        Dtz {
            value,
            precise: true,
        }
    }

    /// Signed as Syzygy signs DTZ ([`crate::dtz::syzygy_dtz`]).
    pub fn syzygy(self) -> i32 {
        crate::dtz::syzygy_dtz(self.value)
    }

    /// The Syzygy-signed value when it is exact (lichess's `precise_dtz`), `None` otherwise.
    pub fn precise_syzygy(self) -> Option<i32> {
        self.precise.then(|| self.syzygy())
    }

    /// The value one ply later (for the other side), as [`Value::for_parent`]: the value of
    /// a quiet move into this position, for its mover.
    pub fn for_parent(self) -> Dtz {
        Dtz {
            value: self.value.for_parent(),
            precise: self.precise,
        }
    }
}

/// A position's class under the rule, for its side to move, with lichess's two ambiguous
/// classes for a rounded DTZ (ordered from worst to best for the side to move).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Category {
    /// Lost whatever the clock.
    Loss,
    /// A loss or a blessed loss: the DTZ is rounded and exactly on the rule's edge.
    MaybeLoss,
    /// Lost without the rule, drawn with it.
    BlessedLoss,
    /// Drawn.
    Draw,
    /// Won without the rule, drawn with it.
    CursedWin,
    /// A win or a cursed win: the DTZ is rounded and exactly on the rule's edge.
    MaybeWin,
    /// Won under the rule.
    Win,
}

impl Category {
    /// The class of `dtz` with `clock` plies since the last zeroing move
    /// ([`Wdl50::with_clock`]), ambiguous when a rounded depth one ply longer would give
    /// another class.
    pub fn with_clock(dtz: Dtz, rule: u32, clock: u32) -> Category {
        let class = Wdl50::with_clock(dtz.value, rule, clock);
        if dtz.precise {
            return class.into();
        }
        let longer = match dtz.value {
            Value::Win(d) => Value::Win(d + 1),
            Value::Lose(d) if d > 0 => Value::Lose(d + 1),
            other => other,
        };
        match (class, Wdl50::with_clock(longer, rule, clock)) {
            (a, b) if a == b => class.into(),
            (Wdl50::Win, _) => Category::MaybeWin,
            (Wdl50::Loss, _) => Category::MaybeLoss,
            _ => class.into(),
        }
    }

    /// The class when it is not ambiguous.
    pub fn certain(self) -> Option<Wdl50> {
        match self {
            Category::Loss => Some(Wdl50::Loss),
            Category::BlessedLoss => Some(Wdl50::BlessedLoss),
            Category::Draw => Some(Wdl50::Draw),
            Category::CursedWin => Some(Wdl50::CursedWin),
            Category::Win => Some(Wdl50::Win),
            Category::MaybeLoss | Category::MaybeWin => None,
        }
    }

    /// The class for the other side.
    pub fn flip(self) -> Category {
        match self {
            Category::Loss => Category::Win,
            Category::MaybeLoss => Category::MaybeWin,
            Category::BlessedLoss => Category::CursedWin,
            Category::Draw => Category::Draw,
            Category::CursedWin => Category::BlessedLoss,
            Category::MaybeWin => Category::MaybeLoss,
            Category::Win => Category::Loss,
        }
    }

    /// lichess's word: `win`, `maybe-win`, `cursed-win`, `draw`, `blessed-loss`,
    /// `maybe-loss`, `loss`.
    pub fn as_str(self) -> &'static str {
        match self {
            Category::MaybeLoss => "maybe-loss",
            Category::MaybeWin => "maybe-win",
            other => other.certain().map_or("", Wdl50::as_str),
        }
    }
}

impl From<Wdl50> for Category {
    fn from(c: Wdl50) -> Category {
        match c {
            Wdl50::Loss => Category::Loss,
            Wdl50::BlessedLoss => Category::BlessedLoss,
            Wdl50::Draw => Category::Draw,
            Wdl50::CursedWin => Category::CursedWin,
            Wdl50::Win => Category::Win,
        }
    }
}

impl std::fmt::Display for Category {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rounded(value: Value) -> Dtz {
        Dtz {
            value,
            precise: false,
        }
    }

    #[test]
    fn a_rounded_depth_on_the_rules_edge_is_ambiguous() {
        // Exact: 60 + 40 is a win, 60 + 41 a cursed win.
        assert_eq!(
            Category::with_clock(Dtz::exact(Value::Win(60)), 100, 40),
            Category::Win
        );
        // Rounded 60 may be 61: with 40 on the clock that is 101, a cursed win.
        assert_eq!(
            Category::with_clock(rounded(Value::Win(60)), 100, 40),
            Category::MaybeWin
        );
        assert_eq!(
            Category::with_clock(rounded(Value::Win(60)), 100, 39),
            Category::Win
        );
        assert_eq!(
            Category::with_clock(rounded(Value::Win(60)), 100, 41),
            Category::CursedWin
        );
        assert_eq!(
            Category::with_clock(rounded(Value::Lose(60)), 100, 40),
            Category::MaybeLoss
        );
        // At a clock of 0, Syzygy never rounds across the rule; a mate is never rounded.
        assert_eq!(
            Category::with_clock(rounded(Value::Win(99)), 100, 0),
            Category::Win
        );
        assert_eq!(
            Category::with_clock(rounded(Value::Lose(0)), 100, 100),
            Category::Loss
        );
        for c in [
            Category::Loss,
            Category::MaybeLoss,
            Category::BlessedLoss,
            Category::Draw,
            Category::CursedWin,
            Category::MaybeWin,
            Category::Win,
        ] {
            assert_eq!(c.flip().flip(), c);
            assert!(!c.as_str().is_empty());
            assert_eq!(c.certain().map(Category::from).unwrap_or(c), c);
        }
    }
}
