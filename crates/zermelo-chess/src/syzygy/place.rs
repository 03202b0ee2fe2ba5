//! What a Syzygy prober does with one position of zermelo's, as a [`Place`] of the exported
//! sequence ([`super::export`]): its class, whether a capture already reaches it, and the DTZ
//! the prober reads, if it reads one.
//!
//! Positions are boards of the generator's [`SliceGame`]: a square per slot of zermelo's
//! index, so that a position's own value is read at its index and the captures and
//! promotions are ranked straight into the smaller tables (the 3- and 4-piece ones decoded
//! into memory), without building a [`Position`] or looking a table up per probe.

use super::export_error::ExportError;
use super::fill::{BOUNDED, FREE};
use crate::dtz::{Wdl50, DEFAULT_RULE};
use crate::position::{Position, Setup};
use crate::probe::{ProbeError, Tablebase};
use crate::slice::{Board, Child, SliceGame};
use crate::square::{Role, Square};
use crate::table::Table;
use crate::value::Value;

/// A place of the Syzygy index: bits 12-15 the WDL place ([`super::fill`]'s encoding), bits
/// 0-11 the DTZ distance stored in plies ([`NOT_READ`] when the prober does not read it):
/// for wins and losses the DTZ minus 1, for cursed wins and blessed losses minus 101.
pub(super) type Place = u16;
pub(super) const NOT_READ: u16 = 0xfff;
pub(super) const EMPTY: Place = (FREE as u16) << 12 | NOT_READ;

/// The probes of one material's positions.
pub(super) struct Prober<'a> {
    pub(super) tb: &'a Tablebase,
    /// The material's moves and the tables its captures and promotions lead to.
    pub(super) game: &'a SliceGame,
    /// The material's own DTZ table (indexed like `game`).
    pub(super) own: &'a Table,
    /// The material's name, for errors.
    pub(super) name: &'a str,
    /// The material's DTM table, if present and indexed like `own`: it tells a win in one
    /// zeroing move from a mate in one (see [`Prober::winning_push`]).
    pub(super) dtm: Option<&'a Table>,
}

impl Prober<'_> {
    /// The place of the legal board `b` at index `idx` of `own` whose value is `value`; its
    /// DTZ distance only if `with_distance` (the side the DTZ table stores: the other side's
    /// places are read for their WDL alone, so the pawn moves that decide whether a prober
    /// reads a distance are not tried there).
    pub(super) fn place_of(
        &self,
        b: &Board,
        idx: u64,
        value: Value,
        with_distance: bool,
    ) -> Result<Place, ExportError> {
        let t = class(value);
        let mut failed = None;
        // The best class a capture (of a piece: no en passant here) reaches.
        let mut capture = -3;
        if t > -2 && self.game.threatens(b) {
            self.game.captures(b, |child| {
                let Child::Exit {
                    board,
                    victim: Some(victim),
                    promoted,
                } = child
                else {
                    return true;
                };
                match self.exit(&board, Some(victim), promoted) {
                    Ok(v) => capture = capture.max(-class(v)),
                    Err(e) => failed = Some(e),
                }
                failed.is_none() && capture != t
            });
        }
        if let Some(e) = failed {
            return Err(e.into());
        }
        let wdl = (t + 2) as u16 | if capture == t { u16::from(BOUNDED) } else { 0 };
        if !with_distance {
            return Ok(wdl << 12 | NOT_READ);
        }
        // A pawn move that keeps the class is a zeroing move into a loss (a blessed loss):
        // the table's value of such a win is `Win(1)` (`Win(rule + 1)`) whatever else the
        // position has (the generator's zeroing exits, `dtz`'s table), so only those are
        // tried. A double push the prober answers with en passant rights in mind only adds
        // the opponent a move: when the prober finds it wins, so did the generator.
        let zeroed = matches!(value, Value::Win(d) if d == 1 || d == DEFAULT_RULE + 1);
        let read =
            t != 0 && !(t > 0 && (capture == t || (zeroed && self.winning_push(b, idx, t)?)));
        let distance = match (read, value) {
            (false, _) | (true, Value::Draw) => NOT_READ,
            (true, Value::Win(d)) if t == 2 => (d - 1) as u16,
            (true, Value::Lose(d)) if t == -2 => (d.max(1) - 1) as u16,
            (true, Value::Win(d) | Value::Lose(d)) => {
                let beyond = d - (DEFAULT_RULE + 1);
                if beyond >= u32::from(NOT_READ) {
                    return Err(ExportError::TooLong {
                        material: self.name.to_string(),
                        plies: d,
                    });
                }
                beyond as u16
            }
        };
        Ok(wdl << 12 | distance)
    }

    /// Whether a pawn move that captures nothing keeps the class `t` of the board `b` at
    /// index `idx`, whose value is that of a zeroing move into a loss and which no capture
    /// keeps in its class (the prober tries the pawn moves before reading a win's DTZ).
    fn winning_push(&self, b: &Board, idx: u64, t: i8) -> Result<bool, ProbeError> {
        if !self.game.has_pawn(b, b.turn) {
            return Ok(false);
        }
        // Such a win (`Win(1)`) is a mate in one or a zeroing move into a loss, and the
        // captures are ruled out: where the DTM table says no mate in one, a pawn move wins,
        // and the prober finds it unless it is a double push that it answers with en passant
        // rights (then the moves are probed).
        if t == 2 && !self.mate_in_one(idx)? && !self.en_passant_after_push(b) {
            return Ok(true);
        }
        let mut found = Ok(false);
        self.game.pawn_children(b, |child| {
            let value = match child {
                Child::PawnPush { board, double } => match double {
                    Some(passed) if self.game.ep_possible(&board, passed) => {
                        self.after_double_push(&board, passed)
                    }
                    _ => self
                        .own
                        .value_of_legal(self.game.rank(&board))
                        .map_err(ProbeError::from),
                },
                Child::Exit {
                    board,
                    victim: None,
                    promoted: promoted @ Some(_),
                } => self.exit(&board, None, promoted),
                _ => return true,
            };
            found = value.map(|v| -class(v) == t);
            matches!(found, Ok(false))
        });
        found
    }

    /// Whether the position at `idx` is a mate in one, by the DTM table (`true`, the safe
    /// answer, without one).
    fn mate_in_one(&self, idx: u64) -> Result<bool, ProbeError> {
        match self.dtm {
            Some(dtm) => Ok(dtm.value_of_legal(idx).map_err(ProbeError::from)? == Value::Win(1)),
            None => Ok(true),
        }
    }

    /// Whether a double push of `b`'s side to move may give the other side en passant rights.
    fn en_passant_after_push(&self, b: &Board) -> bool {
        if !self.game.has_pawn(b, b.turn.other()) {
            return false;
        }
        let mut found = false;
        self.game.pawn_children(b, |child| {
            if let Child::PawnPush {
                board,
                double: Some(passed),
            } = child
            {
                found = self.game.ep_possible(&board, passed);
            }
            !found
        });
        found
    }

    /// The value of a capture's or promotion's child.
    fn exit(
        &self,
        board: &Board,
        victim: Option<usize>,
        promoted: Option<(usize, Role)>,
    ) -> Result<Value, ProbeError> {
        let at = self.game.exit_index(board, victim, promoted);
        self.game.exit_value_at(at, board, victim, promoted)
    }

    /// The value after a double push that may give en passant rights (as [`Position::play`]
    /// leaves them: only where the capture is legal): no table holds such a position,
    /// [`Tablebase::probe_dtz`] looks a ply ahead.
    fn after_double_push(&self, board: &Board, passed: u8) -> Result<Value, ProbeError> {
        let mut setup: Setup = self.game.position(board, None).to_setup();
        setup.ep_square = Square::new(passed);
        let pos = Position::from_setup(setup)
            .map_err(|_| ProbeError::Illegal(self.game.position(board, None).fen()))?;
        self.tb.probe_dtz(&pos)
    }
}

/// Syzygy's class of a value under the 50-move rule (-2 loss .. 2 win).
fn class(value: Value) -> i8 {
    Wdl50::of(value, DEFAULT_RULE).syzygy()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::{generate_with, GenOptions};
    use crate::material::Material;
    use crate::table::Metric;

    /// [`Prober::place_of`] tries a win's pawn moves only where its value is that of a
    /// zeroing move into a loss (a blessed loss): on every position of these tables, a pawn
    /// move keeps the class nowhere else.
    #[test]
    fn pawn_moves_keep_a_win_only_where_the_value_is_a_zeroing_moves() {
        let tb = Tablebase::in_memory();
        let options = GenOptions {
            metric: Metric::Dtz { rule: DEFAULT_RULE },
            ..GenOptions::default()
        };
        let materials = [
            "KQvK", "KRvK", "KBvK", "KNvK", "KPvK", "KQQvK", "KQRvK", "KQBvK", "KQNvK", "KQPvK",
            "KRRvK", "KRBvK", "KRNvK", "KRPvK", "KBBvK", "KBNvK", "KBPvK", "KNNvK", "KNPvK",
            "KPPvK",
        ];
        for m in materials {
            let m: Material = m.parse().unwrap();
            tb.insert(generate_with(&m, &tb, &Default::default(), &options).unwrap());
        }
        let mut tried = 0;
        for name in ["KPvK", "KQPvK", "KRPvK", "KPPvK"] {
            let material: Material = name.parse().unwrap();
            let own = tb.dtz_table(&material).unwrap();
            let game = SliceGame::new(&material, &tb, own.metric()).unwrap();
            let prober = Prober {
                tb: &tb,
                game: &game,
                own: &own,
                name,
                dtm: None,
            };
            for idx in 0..own.size() {
                let Some(b) = game.legal_board(idx) else {
                    continue;
                };
                let value = own.value_of_legal(idx).unwrap();
                let t = class(value);
                if t <= 0 {
                    continue;
                }
                tried += 1;
                let zeroed = matches!(value, Value::Win(d) if d == 1 || d == DEFAULT_RULE + 1);
                assert!(
                    zeroed || !prober.winning_push(&b, idx, t).unwrap(),
                    "{name} index {idx}: {value:?} and a pawn move keeps class {t}"
                );
            }
        }
        assert!(tried > 100_000, "{tried} wins tried");
    }

    /// With the DTM table beside it, [`Prober::place_of`] takes a `Win(1)` that no capture
    /// keeps and that is no mate in one for a win by a pawn move without trying the moves:
    /// on every position of these tables (KPvKP's with en passant after a double
    /// push) it places each position where trying every pawn move does.
    #[test]
    fn places_found_with_the_dtm_table_are_the_probed_ones() {
        let tb = Tablebase::in_memory();
        let targets: Vec<Material> = ["KPvKP", "KQPvK", "KRPvK", "KPPvK"]
            .iter()
            .map(|m| m.parse().unwrap())
            .collect();
        let order = Material::generation_order(&targets);
        for metric in [Metric::Dtm, Metric::Dtz { rule: DEFAULT_RULE }] {
            let options = GenOptions {
                metric,
                ..GenOptions::default()
            };
            for m in &order {
                tb.insert(generate_with(m, &tb, &Default::default(), &options).unwrap());
            }
        }
        let (mut shortcuts, mut en_passant) = (0, 0);
        for name in ["KPvK", "KPvKP", "KQPvK", "KRPvK", "KPPvK"] {
            let material: Material = name.parse().unwrap();
            let own = tb.dtz_table(&material).unwrap();
            let dtm = tb.table(&material).unwrap();
            assert_eq!(dtm.size(), own.size(), "{name}");
            let game = SliceGame::new(&material, &tb, own.metric()).unwrap();
            let probing = Prober {
                tb: &tb,
                game: &game,
                own: &own,
                name,
                dtm: None,
            };
            let with_dtm = Prober {
                dtm: Some(&dtm),
                ..probing
            };
            for idx in 0..own.size() {
                let Some(b) = game.legal_board(idx) else {
                    continue;
                };
                let value = own.value_of_legal(idx).unwrap();
                let place = with_dtm.place_of(&b, idx, value, true).unwrap();
                assert_eq!(
                    place,
                    probing.place_of(&b, idx, value, true).unwrap(),
                    "{name} index {idx}: {value:?}"
                );
                if value == Value::Win(1) && game.has_pawn(&b, b.turn) {
                    shortcuts += u64::from(!with_dtm.mate_in_one(idx).unwrap());
                    en_passant += u64::from(with_dtm.en_passant_after_push(&b));
                }
            }
        }
        assert!(shortcuts > 100_000, "{shortcuts} wins in one zeroing move");
        assert!(
            en_passant > 1_000,
            "{en_passant} with en passant after a push"
        );
    }
}
