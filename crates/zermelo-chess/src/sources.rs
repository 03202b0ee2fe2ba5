//! WDL, DTZ and DTM from whichever tables hold a position's material: zermelo's own (`.zct`,
//! `.zdz`: exact DTZ, and DTM) or Syzygy's (`.rtbw`, `.rtbz`: WDL, and a DTZ that may be rounded
//! by a ply, [`Dtz::precise`]). zermelo's table is read when it is there, Syzygy's otherwise,
//! one material at a time, so that a position of a Syzygy material whose captures lead into
//! zermelo's tables (or the reverse) is answered from both. [`Tablebase::answer`] and
//! [`Tablebase::dtz_mainline`] stand on these three probes.
//!
//! Syzygy's tables know the 50-move rule only: a tablebase of another rule
//! ([`Tablebase::with_rule`]) reads zermelo's tables alone.

use crate::category::Dtz;
use crate::dtz::{Wdl50, DEFAULT_RULE};
use crate::material::Material;
use crate::position::Position;
use crate::probe::{MoveDtz, ProbeError, Tablebase};
use crate::syzygy::{file_stem, SyzygyDtz, SyzygyError};
use crate::value::Value;

/// A Syzygy DTZ as a zermelo-scale value (positive plies a win, negative a loss; a checkmated
/// position, which Syzygy gives as -1, is `Lose(0)`).
fn from_syzygy(pos: &Position, d: SyzygyDtz) -> Dtz {
    let value = match d.plies {
        0 => Value::Draw,
        p if p > 0 => Value::Win(p.unsigned_abs()),
        -1 if pos.is_checkmate() => Value::Lose(0),
        p => Value::Lose(p.unsigned_abs()),
    };
    Dtz {
        value,
        precise: d.precise,
    }
}

impl Tablebase {
    /// Whether Syzygy's tables may answer: only under their rule, the 50-move rule.
    fn reads_syzygy(&self) -> bool {
        self.rule() == DEFAULT_RULE
    }

    /// Whether zermelo's own table of `pos`'s material is there (`dtz`: the DTZ table, else
    /// the DTM table).
    fn own_table(&self, pos: &Position, dtz: bool) -> bool {
        self.has_own(pos, dtz)
    }

    /// A Syzygy probe's result, `None` when the table of `pos`'s own material is missing (a
    /// missing table of another material, which a capture leads to, is an error naming it).
    fn syzygy_answer<T>(
        &self,
        pos: &Position,
        probe: Result<T, SyzygyError>,
    ) -> Result<Option<T>, ProbeError> {
        match probe {
            Ok(v) => Ok(Some(v)),
            Err(SyzygyError::MissingTable { ref material, .. }) if *material == file_stem(pos) => {
                Ok(None)
            }
            Err(SyzygyError::TooManyPieces { .. }) => Ok(None),
            Err(e) => Err(e.into()),
        }
    }

    /// The DTZ of `pos` on a fresh clock from zermelo's DTZ table of its material, else from
    /// Syzygy's (as python-chess's `probe_dtz` gives it, possibly rounded); `None` when
    /// neither is there.
    ///
    /// # Errors
    /// A table that is there but unusable, or a table a capture needs that is missing.
    pub fn dtz_of(&self, pos: &Position) -> Result<Option<Dtz>, ProbeError> {
        if pos.pieces().count() == 2 {
            return Ok(Some(Dtz::exact(Value::Draw)));
        }
        if self.own_table(pos, true) {
            if pos.ep_square().is_none() {
                return self.probe_dtz(pos).map(|v| Some(Dtz::exact(v)));
            }
            // zermelo's tables hold no en passant rights: one ply ahead, through whichever
            // tables hold the positions after the moves.
            let Some(moves) = self.moves_of(pos)? else {
                return Ok(None);
            };
            return Ok(Some(match moves.first() {
                Some(m) => m.value_dtz(),
                None if pos.is_check() => Dtz::exact(Value::Lose(0)),
                None => Dtz::exact(Value::Draw),
            }));
        }
        if !self.reads_syzygy() {
            return Ok(None);
        }
        let d = self.syzygy_answer(pos, self.syzygy().probe_dtz(pos))?;
        Ok(d.map(|d| from_syzygy(pos, d)))
    }

    /// The class of `pos` under the rule on a fresh clock, from zermelo's DTZ table, else
    /// Syzygy's WDL table (which is all a WDL probe needs); `None` when neither is there.
    ///
    /// # Errors
    /// As [`dtz_of`](Self::dtz_of).
    pub fn wdl_of(&self, pos: &Position) -> Result<Option<Wdl50>, ProbeError> {
        if pos.pieces().count() == 2 {
            return Ok(Some(Wdl50::Draw));
        }
        if self.own_table(pos, true) {
            let d = self.dtz_of(pos)?;
            return Ok(d.map(|d| Wdl50::of(d.value, self.rule())));
        }
        if !self.reads_syzygy() {
            return Ok(None);
        }
        self.syzygy_answer(pos, self.syzygy().probe_wdl(pos))
    }

    /// The depth to mate of `pos` from zermelo's DTM tables, `None` where they are missing
    /// (Syzygy's tables hold no DTM).
    ///
    /// # Errors
    /// A DTM table that is there but unusable.
    pub fn dtm_of(&self, pos: &Position) -> Result<Option<Value>, ProbeError> {
        if pos.pieces().count() == 2 {
            return Ok(Some(Value::Draw));
        }
        if !self.own_table(pos, false) {
            return Ok(None);
        }
        match self.probe(pos) {
            Ok(v) => Ok(Some(v)),
            // With en passant rights the moves' tables are read too.
            Err(ProbeError::MissingTable { metric: "DTM", .. }) => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// Every legal move of `pos` with its DTZ values, best first for the rule (as
    /// [`probe_moves_dtz`](Self::probe_moves_dtz), from whichever tables hold the positions
    /// after them); `None` when one of them has no DTZ.
    ///
    /// # Errors
    /// As [`dtz_of`](Self::dtz_of).
    pub fn moves_of(&self, pos: &Position) -> Result<Option<Vec<MoveDtz>>, ProbeError> {
        let rule = self.rule();
        let mut out = Vec::new();
        for m in pos.legal_moves() {
            let Some(after) = self.dtz_of(&pos.play(m))? else {
                return Ok(None);
            };
            let zeroing = pos.is_zeroing(m);
            let value = if zeroing {
                // The class on a fresh clock: never rounded.
                Wdl50::of(after.value, rule).zeroing_exit(rule)
            } else {
                after.value.for_parent()
            };
            out.push(MoveDtz {
                mv: m,
                zeroing,
                after: after.value,
                value,
                precise: after.precise,
            });
        }
        self.order_moves(pos, &mut out)?;
        Ok(Some(out))
    }

    /// The error for a position no table holds: its material named as both kinds of table
    /// would name it ([`ProbeError::NoTable`]; [`ProbeError::TooManyPieces`] past 7 pieces).
    pub fn no_table(&self, pos: &Position) -> ProbeError {
        let m = Material::of(pos).canonical().0;
        if m.piece_count() > 7 {
            return ProbeError::TooManyPieces {
                pieces: m.piece_count(),
                material: m,
            };
        }
        ProbeError::NoTable {
            syzygy: file_stem(pos),
            pieces: m.piece_count(),
            material: m,
            place: self.place(),
        }
    }
}

impl MoveDtz {
    /// The move's value for the mover with its precision: a zeroing move's is its target's
    /// class, exact; a quiet move's is as precise as the DTZ of the position it leads to.
    pub fn value_dtz(&self) -> Dtz {
        Dtz {
            value: self.value,
            precise: self.precise || self.zeroing,
        }
    }

    /// The DTZ of the position after the move, with its precision.
    pub fn after_dtz(&self) -> Dtz {
        Dtz {
            value: self.after,
            precise: self.precise,
        }
    }
}
