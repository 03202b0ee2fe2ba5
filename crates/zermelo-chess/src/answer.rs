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

use std::cmp::Reverse;

use crate::category::{Category, Dtz};
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
    /// Its depth to mate, for the side to move; `None` without zermelo's DTM table (Syzygy's
    /// tables hold none).
    pub dtm: Option<Value>,
    /// Its zeroing-scale value on a fresh clock, exact (zermelo's DTZ table) or possibly
    /// rounded (Syzygy's); `None` without either DTZ table.
    pub dtz: Option<Dtz>,
    /// Its class under the rule, the clock applied (ambiguous where a rounded DTZ could
    /// decide it); `None` without any DTZ or WDL table.
    pub class: Option<Category>,
    /// Every legal move, in the rule's order ([`Tablebase::probe_moves_dtz`]: best first
    /// under the rule, equal values by depth to mate, then by UCI); without the DTZ tables
    /// by depth to mate, else by class.
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
    /// The depth to mate of the position after it, for its side to move; `None` without
    /// zermelo's DTM table.
    pub dtm: Option<Value>,
    /// The zeroing-scale value of the position after it, for its side to move; `None` where
    /// no DTZ table holds it.
    pub dtz_after: Option<Dtz>,
    /// The move's zeroing-scale value for the mover (the exit value of a zeroing move, one
    /// ply more than `dtz_after` otherwise); `None` where `dtz_after` is.
    pub value: Option<Dtz>,
    /// The class of the position after it, for its side to move, the clock after it applied
    /// and the clock before it counted; `None` where no DTZ or WDL table holds it.
    pub class: Option<Category>,
}

impl Answer {
    /// The position's FEN with its clock.
    pub fn fen(&self) -> String {
        fen_with_clock(&self.position, self.clock)
    }

    /// WIN, LOSE or DRAW for the side to move without the rule: from the depth to mate, else
    /// from the class (a cursed win is a win); `None` when neither is known.
    pub fn outcome(&self) -> Option<zermelo::Outcome> {
        match (self.dtm, self.dtz) {
            (Some(v), _) | (None, Some(Dtz { value: v, .. })) => Some(v.outcome()),
            (None, None) => self.class.map(outcome_of),
        }
    }

    /// The moves as `tb probe --stdin` and `/api/tb` list them: the rule's order, then each
    /// run of moves that show the same class and DTZ (of the position after them) by depth to
    /// mate, best for the mover first (stable, so the rule's order breaks the remaining ties).
    /// Without the DTZ tables, as [`moves`](Self::moves).
    pub fn moves_as_shown(&self) -> Vec<&MoveAnswer> {
        let mut rows: Vec<&MoveAnswer> = self.moves.iter().collect();
        if self.dtz.is_none() || rows.iter().any(|m| m.dtm.is_none()) {
            return rows;
        }
        let key = |m: &MoveAnswer| (m.class, m.dtz_after.map(Dtz::syzygy));
        let mut i = 0;
        while i < rows.len() {
            let j = i + rows[i..]
                .iter()
                .take_while(|m| key(m) == key(rows[i]))
                .count();
            rows[i..j].sort_by_key(|m| Reverse(m.dtm.map(Value::for_parent)));
            i = j;
        }
        rows
    }

    /// The moves as lichess's tablebase server lists them (`/standard`): by the move's value
    /// under the rule, and among draws the ones that end the game at once (stalemate,
    /// insufficient material) first; without the DTZ tables, as [`moves`](Self::moves).
    pub fn moves_as_lichess(&self) -> Vec<&MoveAnswer> {
        let mut rows: Vec<&MoveAnswer> = self.moves.iter().collect();
        if self.dtz.is_some() {
            let value = |m: &MoveAnswer| m.value.map(|d| d.value);
            let ends_drawn = |m: &MoveAnswer| {
                value(m) == Some(Value::Draw)
                    && (m.after.is_stalemate() || insufficient_material(&m.after))
            };
            rows.sort_by(|a, b| {
                value(b)
                    .cmp(&value(a))
                    .then_with(|| ends_drawn(b).cmp(&ends_drawn(a)))
            });
        }
        rows
    }
}

/// WIN, LOSE or DRAW of a class, the rule aside.
fn outcome_of(c: Category) -> zermelo::Outcome {
    match c {
        Category::Win | Category::MaybeWin | Category::CursedWin => zermelo::Outcome::Win,
        Category::Draw => zermelo::Outcome::Draw,
        _ => zermelo::Outcome::Lose,
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
    /// The zeroing-scale value of the first position (possibly rounded, from Syzygy's tables).
    pub start: Dtz,
    /// The first position's class under the rule, its clock applied.
    pub class: Category,
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

/// What the tables say of one position after a move.
struct Known {
    dtz: Option<Dtz>,
    wdl: Option<Wdl50>,
    value: Option<Dtz>,
}

impl Tablebase {
    /// The answer for `pos` with `clock` plies since the last capture or pawn move, from
    /// whichever tables hold it and its moves (zermelo's, else Syzygy's: `sources.rs`).
    ///
    /// # Errors
    /// No table holds `pos` ([`ProbeError::NoTable`]), or a table it or one of its moves
    /// needs is unusable (a missing DTZ or DTM table is no error: the answer then has none).
    pub fn answer(&self, pos: &Position, clock: u32) -> Result<Answer, ProbeError> {
        let rule = self.rule();
        let dtz = self.dtz_of(pos)?;
        let wdl = match dtz {
            Some(d) => Some(Wdl50::of(d.value, rule)),
            None => self.wdl_of(pos)?,
        };
        let dtm = self.dtm_of(pos)?;
        if dtz.is_none() && wdl.is_none() && dtm.is_none() {
            return Err(self.no_table(pos));
        }
        let ordered = match dtz {
            Some(_) => self.moves_of(pos)?,
            None => None,
        };
        let known: Vec<(Move, Known)> = match &ordered {
            Some(list) => list
                .iter()
                .map(|md| {
                    let known = Known {
                        dtz: Some(md.after_dtz()),
                        wdl: Some(Wdl50::of(md.after, rule)),
                        value: Some(md.value_dtz()),
                    };
                    (md.mv, known)
                })
                .collect(),
            None => self.moves_known(pos)?,
        };
        let mut moves = Vec::with_capacity(known.len());
        for (mv, k) in known {
            let after = pos.play(mv);
            let zeroing = pos.is_zeroing(mv);
            let clock_after = if zeroing { 0 } else { clock + 1 };
            moves.push(MoveAnswer {
                mv,
                san: pos.san(mv),
                zeroing,
                clock_after,
                dtm: self.dtm_of(&after)?,
                dtz_after: k.dtz,
                value: k.value,
                class: category(k.dtz, k.wdl, rule, Some(clock), clock_after),
                after,
            });
        }
        if ordered.is_none() {
            sort_without_dtz(&mut moves);
        }
        let mut class = category(dtz, wdl, rule, clock.checked_sub(1), clock);
        settle_ambiguous(&mut class, &mut moves);
        Ok(Answer {
            position: *pos,
            clock,
            dtm,
            dtz,
            class,
            moves,
        })
    }

    /// Every legal move with what the tables say of the position after it, when they do not
    /// all have a DTZ (in move generation's order).
    fn moves_known(&self, pos: &Position) -> Result<Vec<(Move, Known)>, ProbeError> {
        let rule = self.rule();
        let mut out = Vec::new();
        for mv in pos.legal_moves() {
            let after = pos.play(mv);
            let dtz = self.dtz_of(&after)?;
            let wdl = match dtz {
                Some(d) => Some(Wdl50::of(d.value, rule)),
                None => self.wdl_of(&after)?,
            };
            let value = dtz.map(|d| match pos.is_zeroing(mv) {
                true => Dtz::exact(Wdl50::of(d.value, rule).zeroing_exit(rule)),
                false => d.for_parent(),
            });
            out.push((mv, Known { dtz, wdl, value }));
        }
        Ok(out)
    }

    /// The line under the rule from `pos` with `clock`: the best move by DTZ each time (the
    /// winner zeroes as soon as it keeps the win, the loser as late as it can) until mate, or
    /// until the clock reaches the rule and a draw can be claimed (a cursed win or a blessed
    /// loss gets there); no move from a drawn position. `tb line --metric dtz` and
    /// `/standard/mainline` play it, from zermelo's DTZ tables or Syzygy's.
    ///
    /// # Errors
    /// A table the line needs is missing or unusable.
    pub fn dtz_mainline(&self, pos: &Position, clock: u32) -> Result<Mainline, ProbeError> {
        let rule = self.rule();
        let start = self.dtz_of(pos)?.ok_or_else(|| self.missing_dtz(pos))?;
        let (mut here, mut pos, mut clock, mut steps) = (start.value, *pos, clock, Vec::new());
        let class = category(Some(start), None, rule, clock.checked_sub(1), clock)
            .unwrap_or(Category::Draw);
        while steps.len() < MAX_LINE && here != Value::Draw && clock < rule {
            let moves = self.moves_of(&pos)?.ok_or_else(|| self.missing_dtz(&pos))?;
            let Some(best) = moves.first().copied() else {
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
            here = best.after;
        }
        Ok(Mainline {
            start,
            class,
            steps,
            end: pos,
        })
    }

    /// The error for a position without a DTZ table: zermelo's missing DTZ table when its
    /// DTM table is there ([`ProbeError::MissingTable`]), else no table at all
    /// ([`ProbeError::NoTable`]).
    pub fn missing_dtz(&self, pos: &Position) -> ProbeError {
        let m = crate::Material::of(pos).canonical().0;
        if m.piece_count() <= crate::MAX_PIECES && self.has(&m) {
            return ProbeError::MissingTable {
                metric: "DTZ",
                pieces: m.piece_count(),
                material: m,
                place: self.place(),
            };
        }
        self.no_table(pos)
    }
}

/// The class reported for a position of DTZ `dtz` (else of class `wdl` on a fresh clock) with
/// `clock` plies on the clock, reached by a move made when the clock stood at `before` (`None`
/// when unknown: a clock of 0 says only that the last move zeroed): as
/// [`Category::with_clock`], except that once the clock had reached the rule before that
/// move, a draw could have been claimed instead of it, so a decisive result after it is drawn
/// by the rule. A mate delivered at a clock of 100 is thus a blessed loss for the mated side
/// and the mating move's position a cursed win, as lichess reports them (the class of a
/// move's row and of the position before it agree). A class known from a WDL table alone is
/// ambiguous once the clock runs: a win may have become a cursed win.
fn category(
    dtz: Option<Dtz>,
    wdl: Option<Wdl50>,
    rule: u32,
    before: Option<u32>,
    clock: u32,
) -> Option<Category> {
    let c = match (dtz, wdl) {
        (Some(d), _) => Category::with_clock(d, rule, clock),
        (None, Some(Wdl50::Win)) if clock > 0 => Category::MaybeWin,
        (None, Some(Wdl50::Loss)) if clock > 0 => Category::MaybeLoss,
        (None, Some(w)) => w.into(),
        (None, None) => return None,
    };
    let drawn_by_claim = before.is_some_and(|b| b >= rule);
    Some(match outcome_of(c) {
        zermelo::Outcome::Win if drawn_by_claim => Category::CursedWin,
        zermelo::Outcome::Lose if drawn_by_claim => Category::BlessedLoss,
        _ => c,
    })
}

/// Moves without the DTZ of every position after them, best for the mover first: by the
/// move's DTZ value, class, then depth to mate where known (unknowns last), then by UCI.
fn sort_without_dtz(moves: &mut [MoveAnswer]) {
    moves.sort_by_cached_key(|m| {
        (
            Reverse(m.value.map(|d| d.value)),
            Reverse(m.class.map(Category::flip)),
            Reverse(m.dtm.map(Value::for_parent)),
            m.mv.to_string(),
        )
    });
}

/// A class that a rounded DTZ left ambiguous, settled from the other side where that side is
/// certain, as lichess does: the best moves of a certain win that show `maybe-loss` lead to
/// losses (the win is kept by them), and so on; and a position whose own class is ambiguous
/// takes its best move's class where that is certain.
fn settle_ambiguous(class: &mut Option<Category>, moves: &mut [MoveAnswer]) {
    let settled = [
        (Category::Win, Category::MaybeLoss, Category::Loss),
        (
            Category::CursedWin,
            Category::MaybeLoss,
            Category::BlessedLoss,
        ),
        (
            Category::BlessedLoss,
            Category::MaybeWin,
            Category::CursedWin,
        ),
        (Category::Loss, Category::MaybeWin, Category::Win),
    ];
    for (here, maybe, certain) in settled {
        if *class == Some(here) {
            for m in moves.iter_mut().take_while(|m| m.class == Some(maybe)) {
                m.class = Some(certain);
            }
        }
    }
    let best = moves.first().and_then(|m| m.class).map(Category::flip);
    if class.is_some_and(|c| c.certain().is_none()) && best.is_some_and(|c| c.certain().is_some()) {
        *class = best;
    }
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

    /// A position no table holds is named with the command that writes its tables only where
    /// `tb gen` can write them (not for 7 pieces, which Syzygy's tables hold).
    #[test]
    fn no_table_suggests_tb_gen_only_up_to_six_pieces() {
        let dir = tempfile::tempdir().unwrap();
        let tb = Tablebase::open(dir.path());
        let seven = Position::from_fen("7k/8/8/8/8/1r6/r7/KQQQ4 w - - 0 1").unwrap();
        let e = tb.no_table(&seven).to_string();
        assert!(
            e.starts_with("no table for KQQQvKRR (7 pieces) in ")
                && e.contains("neither zermelo's (which hold at most 6 pieces) nor Syzygy's")
                && !e.contains("tb gen"),
            "{e}"
        );
        let four = Position::from_fen(KRK).unwrap();
        let e = tb.no_table(&four).to_string();
        assert!(e.contains("`zermelo tb gen KRvK` writes them"), "{e}");
    }

    #[test]
    fn the_clock_turns_a_win_into_a_cursed_win_and_ends_the_line() {
        let (_dir, tb) = krk_tables();
        let pos = Position::from_fen(KRK).unwrap();
        let fresh = tb.answer(&pos, 0).unwrap();
        assert_eq!(
            (fresh.dtm, fresh.dtz),
            (Some(Value::Win(27)), Some(Dtz::exact(Value::Win(27))))
        );
        assert_eq!(fresh.class, Some(Category::Win));
        assert_eq!(fresh.moves.len(), 15);
        assert_eq!(fresh.moves[0].san, "Rd1");
        assert_eq!(fresh.moves[0].class, Some(Category::Loss));
        let late = tb.answer(&pos, 90).unwrap();
        assert_eq!(late.class, Some(Category::CursedWin));
        assert!(late.fen().ends_with(" 90 1"), "{}", late.fen());
        assert_eq!(late.moves[0].clock_after, 91);
        assert_eq!(late.moves[0].class, Some(Category::BlessedLoss));

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
            .filter(|m| m.value == Some(Dtz::exact(Value::Draw)))
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
