//! One probe answer for every front end: what a position is worth with its halfmove clock (its
//! class under the rule, DTZ, DTM) and every legal move with what it leads to, in the orders the
//! front ends list them. `tb probe` (text and `--stdin` JSON), the server's `/api/tb`,
//! `/standard` and `/standard/mainline` format these values and decide nothing themselves, so
//! they cannot disagree.
//!
//! The clock counts twice: a position's class applies its own clock, and a decisive result
//! reached by a move made once the clock had reached the rule is drawn by it (a draw could
//! have been claimed instead of the move), as lichess reports it. DTZ values are exact, never
//! rounded as Syzygy's may be.

use crate::dtz::Wdl50;
use crate::position::{Move, Position, MAX_CLOCK};
use crate::probe::{MoveDtz, ProbeError, Tablebase};
use crate::square::{Role, Square};
use crate::value::Value;

/// A position's answer ([`Tablebase::answer`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    /// The position.
    pub position: Position,
    /// Its halfmove clock (plies since the last capture or pawn move).
    pub clock: u32,
    /// Its depth to mate, for the side to move.
    pub dtm: Value,
    /// Its zeroing-scale value (DTZ table); `None` without the DTZ tables (tables made before
    /// DTZ existed), when the answer speaks of depth to mate only.
    pub dtz: Option<Value>,
    /// Its class under the rule, the clock applied; `None` without the DTZ tables.
    pub class: Option<Wdl50>,
    /// Every legal move, in the rule's order ([`Tablebase::probe_moves_dtz`]: best first
    /// under the rule, equal values by depth to mate, then by UCI), or by depth to mate
    /// without the DTZ tables.
    pub moves: Vec<MoveAnswer>,
}

/// One legal move of an [`Answer`] and the position it leads to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveAnswer {
    /// The move.
    pub mv: Move,
    /// In standard algebraic notation.
    pub san: String,
    /// Whether it resets the halfmove clock (a capture or a pawn move).
    pub zeroing: bool,
    /// The position after it.
    pub after: Position,
    /// The clock after it (0 after a zeroing move; not capped).
    pub clock_after: u32,
    /// The depth to mate of the position after it, for its side to move.
    pub dtm: Value,
    /// The zeroing-scale value of the position after it, for its side to move; `None` where
    /// its DTZ table is missing.
    pub dtz_after: Option<Value>,
    /// The move's zeroing-scale value for the mover (the exit value of a zeroing move, one
    /// ply more than `dtz_after` otherwise); `None` without the DTZ tables.
    pub value: Option<Value>,
    /// The class of the position after it, for its side to move, the clock after it applied
    /// and the clock before it counted; `None` where `dtz_after` is.
    pub class: Option<Wdl50>,
}

impl Answer {
    /// The position's FEN with its clock.
    pub fn fen(&self) -> String {
        fen_with_clock(&self.position, self.clock)
    }

    /// The moves as `tb probe --stdin` and `/api/tb` list them: the rule's order, then each
    /// run of moves that show the same class and DTZ (of the position after them) by depth to
    /// mate, best for the mover first (stable, so the rule's order breaks the remaining ties).
    /// Without the DTZ tables, by depth to mate.
    pub fn moves_as_shown(&self) -> Vec<&MoveAnswer> {
        let mut rows: Vec<&MoveAnswer> = self.moves.iter().collect();
        if self.dtz.is_none() {
            return rows;
        }
        let key = |m: &MoveAnswer| (m.class, m.dtz_after.map(crate::dtz::syzygy_dtz));
        let mut i = 0;
        while i < rows.len() {
            let j = i + rows[i..]
                .iter()
                .take_while(|m| key(m) == key(rows[i]))
                .count();
            rows[i..j].sort_by_key(|m| std::cmp::Reverse(m.dtm.for_parent()));
            i = j;
        }
        rows
    }

    /// The moves as lichess's tablebase server lists them (`/standard`): by the move's value
    /// under the rule, and among draws the ones that end the game at once (stalemate,
    /// insufficient material) first; without the DTZ tables, by depth to mate.
    pub fn moves_as_lichess(&self) -> Vec<&MoveAnswer> {
        let mut rows: Vec<&MoveAnswer> = self.moves.iter().collect();
        if self.dtz.is_some() {
            let ends_drawn = |m: &MoveAnswer| {
                m.value == Some(Value::Draw)
                    && (m.after.is_stalemate() || insufficient_material(&m.after))
            };
            rows.sort_by(|a, b| {
                b.value
                    .cmp(&a.value)
                    .then_with(|| ends_drawn(b).cmp(&ends_drawn(a)))
            });
        }
        rows
    }
}

impl MoveAnswer {
    /// The FEN after the move with its clock (at most [`MAX_CLOCK`], where a FEN's clock ends).
    pub fn fen(&self) -> String {
        fen_with_clock(&self.after, self.clock_after.min(MAX_CLOCK))
    }
}

/// A line under the rule ([`Tablebase::dtz_mainline`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mainline {
    /// The zeroing-scale value of the first position.
    pub start: Value,
    /// The first position's class under the rule, its clock applied.
    pub class: Wdl50,
    /// The moves, each with the clock after it.
    pub steps: Vec<MainlineStep>,
    /// Where the line ends.
    pub end: Position,
}

/// One move of a [`Mainline`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MainlineStep {
    /// The move with its zeroing-scale values.
    pub dtz: MoveDtz,
    /// In standard algebraic notation.
    pub san: String,
    /// The halfmove clock after it.
    pub clock: u32,
}

/// Moves of a line at most: every zeroing move is irreversible and the clock bounds the plies
/// between two, so a line of a correct table is short; this bounds a damaged one.
const MAX_LINE: usize = 10_000;

impl Tablebase {
    /// The answer for `pos` with `clock` plies since the last capture or pawn move.
    ///
    /// # Errors
    /// A table the position or one of its moves needs is missing or unusable (a missing DTZ
    /// table of `pos` is no error: the answer then has no DTZ).
    pub fn answer(&self, pos: &Position, clock: u32) -> Result<Answer, ProbeError> {
        let rule = self.rule();
        let dtm = self.probe(pos)?;
        let dtz = optional_dtz(self, pos)?;
        let mut moves = Vec::new();
        let with_values: Vec<(Move, Option<MoveDtz>)> = match dtz {
            Some(_) => self
                .probe_moves_dtz(pos)?
                .into_iter()
                .map(|md| (md.mv, Some(md)))
                .collect(),
            None => self
                .probe_moves(pos)?
                .into_iter()
                .map(|(m, _)| (m, None))
                .collect(),
        };
        for (mv, md) in with_values {
            let after = pos.play(mv);
            let zeroing = pos.is_zeroing(mv);
            let clock_after = if zeroing { 0 } else { clock + 1 };
            let dtz_after = match md {
                Some(md) => Some(md.after),
                None => optional_dtz(self, &after)?,
            };
            moves.push(MoveAnswer {
                mv,
                san: pos.san(mv),
                zeroing,
                after,
                clock_after,
                dtm: self.probe(&after)?,
                dtz_after,
                value: md.map(|md| md.value),
                class: dtz_after.map(|v| class_after(v, rule, Some(clock), clock_after)),
            });
        }
        Ok(Answer {
            position: *pos,
            clock,
            dtm,
            dtz,
            class: dtz.map(|v| class_here(v, rule, clock)),
            moves,
        })
    }

    /// The line under the rule from `pos` with `clock`: the best move by DTZ each time (the
    /// winner zeroes as soon as it keeps the win, the loser as late as it can) until mate, or
    /// until the clock reaches the rule and a draw can be claimed (a cursed win or a blessed
    /// loss gets there); no move from a drawn position. `tb line --metric dtz` and
    /// `/standard/mainline` play it.
    ///
    /// # Errors
    /// A table the line needs is missing or unusable.
    pub fn dtz_mainline(&self, pos: &Position, clock: u32) -> Result<Mainline, ProbeError> {
        let rule = self.rule();
        let start = self.probe_dtz(pos)?;
        let (mut here, mut pos, mut clock, mut steps) = (start, *pos, clock, Vec::new());
        let class = class_here(start, rule, clock);
        while steps.len() < MAX_LINE && here != Value::Draw && clock < rule {
            let Some(best) = self.probe_moves_dtz(&pos)?.first().copied() else {
                break;
            };
            let san = pos.san(best.mv);
            clock = if best.zeroing { 0 } else { clock + 1 };
            pos = pos.play(best.mv);
            steps.push(MainlineStep {
                dtz: best,
                san,
                clock,
            });
            here = self.probe_dtz(&pos)?;
        }
        Ok(Mainline {
            start,
            class,
            steps,
            end: pos,
        })
    }
}

/// The DTZ-scale value of `pos`, or `None` when its DTZ table is not there.
fn optional_dtz(tb: &Tablebase, pos: &Position) -> Result<Option<Value>, ProbeError> {
    match tb.probe_dtz(pos) {
        Ok(v) => Ok(Some(v)),
        Err(ProbeError::MissingTable { metric: "DTZ", .. }) => Ok(None),
        Err(e) => Err(e),
    }
}

/// The class reported for a position of zeroing-scale `value` with `clock` plies on the clock,
/// reached by a move made when the clock stood at `before` (`None` when unknown: a clock of 0
/// says only that the last move zeroed): as [`Wdl50::with_clock`], except that once the clock
/// had reached the rule before that move, a draw could have been claimed instead of it, so a
/// decisive result after it is drawn by the rule. A mate delivered at a clock of 100 is thus a
/// blessed loss for the mated side and the mating move's position a cursed win, as lichess
/// reports them (the class of a move's row and of the position before it agree).
fn class_after(value: Value, rule: u32, before: Option<u32>, clock: u32) -> Wdl50 {
    match (before, value) {
        (Some(b), Value::Win(_)) if b >= rule => Wdl50::CursedWin,
        (Some(b), Value::Lose(_)) if b >= rule => Wdl50::BlessedLoss,
        _ => Wdl50::with_clock(value, rule, clock),
    }
}

/// The class of the position a FEN names, its clock applied (the move before it, if it did
/// not zero, was made at one ply less).
fn class_here(value: Value, rule: u32, clock: u32) -> Wdl50 {
    class_after(value, rule, clock.checked_sub(1), clock)
}

/// Neither side can mate by any series of legal moves: bare kings, a lone minor piece, or
/// only bishops all on squares of one colour.
pub fn insufficient_material(pos: &Position) -> bool {
    let others: Vec<_> = pos.pieces().filter(|(_, p)| p.role != Role::King).collect();
    match others.as_slice() {
        [] => true,
        [(_, p)] => matches!(p.role, Role::Bishop | Role::Knight),
        many => {
            let colour = |s: Square| (s.file() + s.rank()) % 2;
            many.iter().all(|(_, p)| p.role == Role::Bishop)
                && many.iter().all(|(s, _)| colour(*s) == colour(many[0].0))
        }
    }
}

/// The FEN of `pos` with its halfmove clock (and move number 1), as the probes print it.
pub fn fen_with_clock(pos: &Position, clock: u32) -> String {
    let fen = pos.fen();
    match fen.rsplit_once(' ') {
        Some((head, _)) if clock > 0 => match head.rsplit_once(' ') {
            Some((board, _)) => format!("{board} {clock} 1"),
            None => fen,
        },
        _ => fen,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{GenerationJob, Material, Targets};

    const KRK: &str = "8/8/8/8/8/2k5/8/K6R w - - 0 1";

    fn krk_tables() -> (tempfile::TempDir, Tablebase) {
        let dir = tempfile::tempdir().unwrap();
        let targets = Targets::of(&[Material::parse_table("KRvK").unwrap()]).unwrap();
        GenerationJob::new(targets, dir.path())
            .run(&mut |_| {})
            .unwrap();
        let tb = Tablebase::open(dir.path());
        (dir, tb)
    }

    #[test]
    fn the_clock_turns_a_win_into_a_cursed_win_and_ends_the_line() {
        let (_dir, tb) = krk_tables();
        let pos = Position::from_fen(KRK).unwrap();
        let fresh = tb.answer(&pos, 0).unwrap();
        assert_eq!(
            (fresh.dtm, fresh.dtz),
            (Value::Win(27), Some(Value::Win(27)))
        );
        assert_eq!(fresh.class, Some(Wdl50::Win));
        assert_eq!(fresh.moves.len(), 15);
        assert_eq!(fresh.moves[0].san, "Rd1");
        assert_eq!(fresh.moves[0].class, Some(Wdl50::Loss));
        let late = tb.answer(&pos, 90).unwrap();
        assert_eq!(late.class, Some(Wdl50::CursedWin));
        assert!(late.fen().ends_with(" 90 1"), "{}", late.fen());
        assert_eq!(late.moves[0].clock_after, 91);
        assert_eq!(late.moves[0].class, Some(Wdl50::BlessedLoss));

        let mate = tb.dtz_mainline(&pos, 0).unwrap();
        assert_eq!(mate.steps.len(), 27);
        assert!(mate.end.is_checkmate());
        let claimed = tb.dtz_mainline(&pos, 90).unwrap();
        assert_eq!(claimed.steps.len(), 10);
        assert_eq!(claimed.steps.last().unwrap().clock, 100);
        assert!(!claimed.end.is_checkmate());
    }

    #[test]
    fn lichess_lists_the_draws_that_end_the_game_first() {
        let dir = tempfile::tempdir().unwrap();
        let targets = Targets::of(&[Material::parse_table("KPvK").unwrap()]).unwrap();
        GenerationJob::new(targets, dir.path())
            .run(&mut |_| {})
            .unwrap();
        let tb = Tablebase::open(dir.path());
        // The white king is far away: black draws by taking the pawn (bare kings, the game
        // ends) or by staying next to it.
        let pos = Position::from_fen("8/8/8/8/6k1/7P/8/K7 b - - 0 1").unwrap();
        let a = tb.answer(&pos, 0).unwrap();
        let draws = a
            .moves
            .iter()
            .filter(|m| m.value == Some(Value::Draw))
            .count();
        assert!(draws > 1, "{:?}", a.moves);
        assert_eq!(
            a.moves[0].mv.to_string(),
            "g4f3",
            "the rule's order: draws by UCI"
        );
        let first = a.moves_as_lichess()[0];
        assert_eq!(first.san, "Kxh3");
        assert!(insufficient_material(&first.after));
    }

    #[test]
    fn insufficient_material_is_bare_kings_a_minor_or_bishops_of_one_colour() {
        let cases = [
            ("8/8/8/8/8/2k5/8/K7 w - - 0 1", true),
            ("8/8/8/8/8/2k5/8/K1N5 w - - 0 1", true),
            ("8/8/8/8/8/2k5/8/K6R w - - 0 1", false),
            ("8/8/8/8/8/2k1b3/8/K1B5 w - - 0 1", true),
            ("8/8/8/8/8/2k2b2/8/K1B5 w - - 0 1", false),
        ];
        for (fen, want) in cases {
            let pos = Position::from_fen(fen).unwrap();
            assert_eq!(insufficient_material(&pos), want, "{fen}");
        }
    }
}
