//! Un-move generation: the positions one legal move before this one, including un-captures,
//! un-promotions and en passant un-captures.
//!
//! The slice generator builds its reverse graph by forward move generation (see
//! [`generate`](crate::generate)); un-moves are the building block for a generator that stores
//! no edges (5-man tables), and are tested here to be the exact inverse of [`Position::play`].

use crate::position::{Move, Position};
use crate::square::{Color, Piece, Role, Square, KING_STEPS, KNIGHT_STEPS};

/// A move taken back: the move from the predecessor, and what it captured.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Unmove {
    /// The move that led here, as played in the predecessor.
    pub played: Move,
    /// The role captured by that move (restored by the un-move).
    pub uncaptured: Option<Role>,
}

impl Position {
    /// Every legal predecessor of this position with the move that leads here. `uncaptures` are
    /// the roles the side to move may get back (e.g. none within a slice; the pieces of the
    /// larger material for un-captures).
    pub fn unmoves(&self, uncaptures: &[Role]) -> Vec<(Unmove, Position)> {
        let them = self.turn().other();
        let mut out = Vec::new();
        for (to, piece) in self.pieces() {
            if piece.color != them {
                continue;
            }
            for (from, as_role) in self.origins(to, piece) {
                self.take_back(from, to, piece, as_role, uncaptures, &mut out);
            }
        }
        out
    }

    /// Where `piece` on `to` may have come from, and what it was there (a pawn, for a
    /// promotion).
    fn origins(&self, to: Square, piece: Piece) -> Vec<(Square, Role)> {
        let mut out = Vec::new();
        let back = -piece.color.forward();
        let promotion_rank = if piece.color == Color::White { 7 } else { 0 };
        let pawn_like =
            piece.role == Role::Pawn || (to.rank() == promotion_rank && piece.role != Role::King);
        if pawn_like {
            for df in [-1, 0, 1] {
                if let Some(from) = to.offset(df, back) {
                    if from.rank() != 0 && from.rank() != 7 {
                        out.push((from, Role::Pawn));
                    }
                }
            }
            let fourth = if piece.color == Color::White { 3 } else { 4 };
            if piece.role == Role::Pawn && to.rank() == fourth {
                if let (Some(mid), Some(from)) = (to.offset(0, back), to.offset(0, 2 * back)) {
                    if self.piece_at(mid).is_none() {
                        out.push((from, Role::Pawn));
                    }
                }
            }
        }
        if piece.role == Role::Pawn {
            return out;
        }
        let (steps, slide): (&[(i8, i8)], bool) = match piece.role {
            Role::Knight => (&KNIGHT_STEPS, false),
            Role::King => (&KING_STEPS, false),
            Role::Bishop => (&KING_STEPS[4..], true),
            Role::Rook => (&KING_STEPS[..4], true),
            _ => (&KING_STEPS, true),
        };
        for &(df, dr) in steps {
            let mut cur = to;
            while let Some(from) = cur.offset(df, dr) {
                if self.piece_at(from).is_some() {
                    break;
                }
                out.push((from, piece.role));
                if !slide {
                    break;
                }
                cur = from;
            }
        }
        out
    }

    fn take_back(
        &self,
        from: Square,
        to: Square,
        piece: Piece,
        as_role: Role,
        uncaptures: &[Role],
        out: &mut Vec<(Unmove, Position)>,
    ) {
        if self.piece_at(from).is_some() {
            return;
        }
        let us = self.turn();
        let diagonal = as_role == Role::Pawn && from.file() != to.file();
        let promotion = (as_role != piece.role).then_some(piece.role);
        let mut base = *self;
        base.set(to, None);
        base.set(
            from,
            Some(Piece {
                color: piece.color,
                role: as_role,
            }),
        );
        base.set_ep_square(None);
        let mut pre = base.with_turn(piece.color);
        let mut candidates: Vec<(Position, Option<Role>, Option<Square>)> = Vec::new();
        if !diagonal {
            candidates.push((pre, None, None));
        }
        let last = |s: Square| s.rank() == 0 || s.rank() == 7;
        if diagonal || as_role != Role::Pawn {
            for &role in uncaptures {
                if role == Role::King || (role == Role::Pawn && last(to)) {
                    continue;
                }
                let mut p = pre;
                p.set(to, Some(Piece { color: us, role }));
                candidates.push((p, Some(role), None));
            }
        }
        // En passant: our pawn stood beside the origin, on the destination file.
        let ep_rank = if piece.color == Color::White { 5 } else { 2 };
        if diagonal
            && piece.role == Role::Pawn
            && to.rank() == ep_rank
            && uncaptures.contains(&Role::Pawn)
        {
            if let Some(victim) = Square::from_coords(to.file(), from.rank()) {
                let behind = to.offset(0, piece.color.forward());
                if self.piece_at(victim).is_none()
                    && behind.is_some_and(|b| self.piece_at(b).is_none())
                {
                    pre.set(
                        victim,
                        Some(Piece {
                            color: us,
                            role: Role::Pawn,
                        }),
                    );
                    candidates.push((pre, Some(Role::Pawn), Some(to)));
                }
            }
        }
        for (mut p, uncaptured, ep) in candidates {
            p.set_ep_square(ep);
            if p.opponent_in_check() {
                continue;
            }
            let played = Move {
                from,
                to,
                promotion,
                capture: uncaptured.is_some(),
            };
            // The predecessor must really have this move, leading exactly here.
            let legal = p
                .legal_moves()
                .into_iter()
                .any(|m| m == played && p.play(m).same_board(self));
            if legal {
                out.push((Unmove { played, uncaptured }, p));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::Indexer;

    #[test]
    fn unmoves_invert_moves() {
        let roles = [
            Role::Pawn,
            Role::Knight,
            Role::Bishop,
            Role::Rook,
            Role::Queen,
        ];
        for (material, step) in [
            ("KRvKN", 4099),
            ("KPvKP", 3001),
            ("KQvKP", 5003),
            ("KPvK", 7),
        ] {
            let ix = Indexer::new(&material.parse().unwrap());
            let mut idx = 0;
            while idx < ix.size() {
                if let Some(pos) = ix.legal(idx) {
                    for m in pos.legal_moves() {
                        let child = pos.play(m);
                        let back = child.unmoves(&roles);
                        assert!(
                            back.iter()
                                .any(|(u, p)| u.played == m && p.same_board(&pos)),
                            "{material}: {m} from {pos:?} to {child:?}: {back:?}"
                        );
                    }
                    for (u, pre) in pos.unmoves(&roles) {
                        assert!(pre.play(u.played).same_board(&pos));
                    }
                }
                idx += step;
            }
        }
    }
}
