//! What a probe means beyond the stored value, as the published probers define it: captures
//! are searched first (a table may store anything where a capture decides), en passant is
//! tried apart (tables hold no en passant rights), and a DTZ table that stores only the other
//! side to move is probed one ply ahead.

use super::tables::SyzygyTables;
use super::{SyzygyDtz, SyzygyError};
use crate::dtz::Wdl50;
use crate::position::{Move, Position};
use crate::square::Role;

/// Where a capture search's value came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Source {
    /// The position's own table entry (or a capture no better than a draw).
    Table,
    /// A winning capture: the position's DTZ is the capture's one ply.
    Capture,
}

fn is_pawn_move(pos: &Position, m: Move) -> bool {
    pos.piece_at(m.from).is_some_and(|p| p.role == Role::Pawn)
}

/// A capture of a piece standing on the target square (en passant excluded).
fn takes_a_piece(pos: &Position, m: Move) -> bool {
    pos.piece_at(m.to).is_some()
}

fn is_en_passant(pos: &Position, m: Move) -> bool {
    is_pawn_move(pos, m) && pos.piece_at(m.to).is_none() && m.from.file() != m.to.file()
}

/// Syzygy's number of a class.
fn class_of(v: i8) -> Wdl50 {
    match v {
        ..=-2 => Wdl50::Loss,
        -1 => Wdl50::BlessedLoss,
        0 => Wdl50::Draw,
        1 => Wdl50::CursedWin,
        _ => Wdl50::Win,
    }
}

/// The DTZ of a position whose zeroing move comes at once, by class: 1 ply to win, 101 for a
/// cursed win, and the same negated for losses.
fn before_zeroing(wdl: i8) -> i32 {
    match wdl {
        2 => 1,
        1 => 101,
        0 => 0,
        -1 => -101,
        _ => -1,
    }
}

impl SyzygyTables {
    /// The class of `pos` under the 50-move rule, for the side to move, right after a capture
    /// or pawn move (halfmove clock 0). Needs the WDL tables of `pos`'s material and of every
    /// material its captures lead to.
    ///
    /// # Errors
    /// A missing or unreadable table ([`SyzygyError`], naming the material or the file).
    pub fn probe_wdl(&self, pos: &Position) -> Result<Wdl50, SyzygyError> {
        self.wdl_with_en_passant(pos).map(class_of)
    }

    fn wdl_with_en_passant(&self, pos: &Position) -> Result<i8, SyzygyError> {
        let (v, _) = self.capture_search(pos, -2, 2)?;
        let Some(ep) = self.best_en_passant(pos)? else {
            return Ok(v);
        };
        // En passant is taken when it is no worse, or when it is the only move.
        Ok(if ep >= v || (v == 0 && only_en_passant(pos)) {
            ep
        } else {
            v
        })
    }

    /// The best value of the legal en passant captures, `None` without any.
    fn best_en_passant(&self, pos: &Position) -> Result<Option<i8>, SyzygyError> {
        if pos.ep_square().is_none() {
            return Ok(None);
        }
        let mut best = None;
        for m in pos.legal_moves() {
            if is_en_passant(pos, m) {
                let (v, _) = self.capture_search(&pos.play(m), -2, 2)?;
                best = best.max(Some(-v));
            }
        }
        Ok(best)
    }

    /// Alpha-beta over the captures (en passant aside), the stored value standing for every
    /// quiet move.
    fn capture_search(
        &self,
        pos: &Position,
        mut alpha: i8,
        beta: i8,
    ) -> Result<(i8, Source), SyzygyError> {
        let mut captures = Vec::new();
        pos.legal_captures_into(&mut captures);
        for m in captures {
            if !takes_a_piece(pos, m) {
                continue;
            }
            let v = -self.capture_search(&pos.play(m), -beta, -alpha)?.0;
            if v > alpha {
                if v >= beta {
                    return Ok((v, Source::Capture));
                }
                alpha = v;
            }
        }
        let v = self.stored_wdl(pos)?;
        Ok(if alpha >= v {
            let source = if alpha > 0 {
                Source::Capture
            } else {
                Source::Table
            };
            (alpha, source)
        } else {
            (v, Source::Table)
        })
    }

    /// The DTZ of `pos` as Syzygy reports it (python-chess's `probe_dtz`, Fathom's
    /// `tb_probe_root` value): see [`SyzygyDtz`]. Needs the WDL and DTZ tables of `pos`'s
    /// material and of what its captures and promotions lead to.
    ///
    /// # Errors
    /// A missing or unreadable table ([`SyzygyError`], naming the material or the file).
    pub fn probe_dtz(&self, pos: &Position) -> Result<SyzygyDtz, SyzygyError> {
        let v = self.dtz_without_en_passant(pos)?;
        let Some(ep) = self.best_en_passant(pos)? else {
            return Ok(v);
        };
        let e = before_zeroing(ep);
        let take = match v.plies {
            p if p < -100 => e >= 0,
            p if p < 0 => !(-100..0).contains(&e),
            p if p > 100 => e > 0,
            p if p > 0 => e == 1,
            _ => e >= 0 || only_en_passant(pos),
        };
        Ok(if take { SyzygyDtz::exact(e) } else { v })
    }

    fn dtz_without_en_passant(&self, pos: &Position) -> Result<SyzygyDtz, SyzygyError> {
        let (wdl, source) = self.capture_search(pos, -2, 2)?;
        if wdl == 0 || source == Source::Capture {
            return Ok(SyzygyDtz::exact(before_zeroing(wdl)));
        }
        if wdl > 0 {
            if let Some(d) = self.winning_pawn_push(pos, wdl)? {
                return Ok(d);
            }
        }
        if let Some((stored, rounded)) = self.stored_dtz(pos, wdl)? {
            let plies = before_zeroing(wdl) + if wdl > 0 { stored } else { -stored };
            return Ok(SyzygyDtz {
                plies,
                precise: !rounded,
            });
        }
        if wdl > 0 {
            self.win_one_ply_ahead(pos)
        } else {
            self.loss_one_ply_ahead(pos, wdl)
        }
    }

    /// A pawn push (not a capture) that keeps the class `wdl`: it zeroes on the first ply.
    fn winning_pawn_push(&self, pos: &Position, wdl: i8) -> Result<Option<SyzygyDtz>, SyzygyError> {
        let pawns = pos
            .pieces()
            .any(|(_, p)| p.color == pos.turn() && p.role == Role::Pawn);
        if !pawns {
            return Ok(None);
        }
        for m in pos.legal_moves() {
            if is_pawn_move(pos, m) && !takes_a_piece(pos, m) && !is_en_passant(pos, m) {
                let v = -self.wdl_with_en_passant(&pos.play(m))?;
                if v == wdl {
                    return Ok(Some(SyzygyDtz::exact(before_zeroing(wdl))));
                }
            }
        }
        Ok(None)
    }

    /// A win whose table stores the other side: the quickest quiet piece move that keeps it
    /// (pawn moves and captures were tried already), one ply more than its DTZ.
    fn win_one_ply_ahead(&self, pos: &Position) -> Result<SyzygyDtz, SyzygyError> {
        let mut best = SyzygyDtz::exact(0xffff);
        for m in pos.legal_moves() {
            if is_pawn_move(pos, m) || takes_a_piece(pos, m) {
                continue;
            }
            let child = pos.play(m);
            let d = self.probe_dtz(&child)?;
            let candidate = match -d.plies {
                1 if child.is_checkmate() => SyzygyDtz::exact(1),
                v if v > 0 => SyzygyDtz {
                    plies: v + 1,
                    precise: d.precise,
                },
                _ => continue,
            };
            best = better(best, candidate, |p, q| p || q);
        }
        Ok(best)
    }

    /// A loss whose table stores the other side: the longest resistance over every move, a
    /// zeroing move counting as at once (-1), or as -101 when it keeps a blessed loss.
    fn loss_one_ply_ahead(&self, pos: &Position, wdl: i8) -> Result<SyzygyDtz, SyzygyError> {
        let mut best = SyzygyDtz::exact(-1);
        for m in pos.legal_moves() {
            let child = pos.play(m);
            let candidate = if pos.is_zeroing(m) {
                if wdl == -2 {
                    SyzygyDtz::exact(-1)
                } else {
                    let (v, _) = self.capture_search(&child, 1, 2)?;
                    SyzygyDtz::exact(if v == 2 { 0 } else { -101 })
                }
            } else {
                let d = self.probe_dtz(&child)?;
                SyzygyDtz {
                    plies: -d.plies - 1,
                    precise: d.precise,
                }
            };
            best = better(best, candidate, |p, q| p && q);
        }
        Ok(best)
    }
}

/// The smaller of `best` and `candidate`; on a tie the value with its precision merged.
///
/// A rounded value may be one ply short of the truth, so for a win (the quickest move) a tie
/// is exact if one exact move reaches it, while for a loss (the most negative, longest
/// resistance) a rounded move that ties may really resist one ply longer: exact only if
/// every move reaching it is.
fn better(best: SyzygyDtz, candidate: SyzygyDtz, merge: impl Fn(bool, bool) -> bool) -> SyzygyDtz {
    if candidate.plies < best.plies {
        candidate
    } else if candidate.plies == best.plies {
        SyzygyDtz {
            plies: best.plies,
            precise: merge(best.precise, candidate.precise),
        }
    } else {
        best
    }
}

/// Whether every legal move is an en passant capture.
fn only_en_passant(pos: &Position) -> bool {
    pos.legal_moves().into_iter().all(|m| is_en_passant(pos, m))
}
