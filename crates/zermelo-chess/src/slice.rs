//! One material as the generator sees it: indices decoded to a square per piece slot, legal
//! moves and in-slice un-moves on bitboards, and the *exits* (captures, promotions, pawn moves)
//! that lead into tables or pawn stages already solved.
//!
//! Pawn moves are irreversible, so a pawn table is solved in *stages* of equal pawn
//! advancement (the sum of the pawns' ranks, each counted from its own side), the most
//! advanced first: inside a stage only kings and pieces move, and a pawn move is an exit into
//! a stage already solved. En passant rights only arise from a double push, an exit, whose
//! value [`Generator`](crate::generate) computes one ply ahead like [`Tablebase::probe`].

use std::collections::HashMap;
use std::sync::Arc;

use crate::bitboard::{attacks, between, bit, lined_up, origins};
use crate::index::Indexer;
use crate::material::Material;
use crate::position::Position;
use crate::probe::{ProbeError, Tablebase};
use crate::square::{Color, Piece, Role, Square};
use crate::table::{Metric, Table};
use crate::value::Value;

/// The largest smaller table (decoded bytes) that a generation decodes into memory rather than
/// probing block by block: captures and promotions probe it at random places, where a block
/// cache misses nearly every time (every 3- and 4-piece table fits; 5-piece ones do not).
pub(crate) const RESIDENT_LIMIT: u64 = 64 << 20;

/// A slot emptied by a capture.
pub(crate) const GONE: u8 = 64;

/// A position as one square per piece slot of the [`Indexer`] (`GONE` once captured).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Board {
    pub(crate) turn: Color,
    pub(crate) sq: [u8; 8],
}

/// What a legal move leads to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Child {
    /// A king or piece move without capture: same material, same pawn stage (rank it with
    /// [`SliceGame::rank`] when needed).
    InSlice(Board),
    /// A pawn push without promotion: same material, a more advanced stage. `double` holds
    /// the square passed over by a double push.
    PawnPush { board: Board, double: Option<u8> },
    /// A capture and/or promotion: `victim` slot captured, `promoted` slot's new role.
    Exit {
        board: Board,
        victim: Option<usize>,
        promoted: Option<(usize, Role)>,
    },
}

/// The bitboards a position's move generation starts from ([`SliceGame::sides`]).
struct Sides {
    occ: u64,
    own: u64,
    their_king: u64,
    king: u8,
}

/// Where a capture or promotion leads: bare kings (a draw) or a smaller table, with the
/// colour flip and the slot order of its indexer.
enum ExitTarget {
    BareKings,
    Table {
        table: Arc<Table>,
        flip: bool,
        /// `order[k]` = the source slot that fills the target's slot `k`.
        order: Vec<usize>,
    },
}

/// The chess side of the generator for one material.
pub(crate) struct SliceGame {
    indexer: Indexer,
    slots: Vec<Piece>,
    /// Indexed by [`exit_key`].
    exits: Vec<Option<ExitTarget>>,
    /// The slots whose piece has no equal (bit `i` for slot `i`).
    unique: u8,
    /// Whether each side (by [`Color::index`]) has a bishop, rook or queen: without one it
    /// pins nothing.
    sliders: [bool; 2],
}

fn exit_key(victim: Option<usize>, promoted: Option<(usize, Role)>) -> usize {
    let v = victim.unwrap_or(8);
    let (p, r) = promoted.map_or((8, 0), |(s, r)| (s, r as usize));
    (v * 9 + p) * 6 + r
}

impl SliceGame {
    /// Prepares `material`'s slice; every capture and promotion target must be in `tb`.
    /// Captures and promotions probe the smaller tables of `metric`.
    pub(crate) fn new(
        material: &Material,
        tb: &Tablebase,
        metric: Metric,
    ) -> Result<SliceGame, ProbeError> {
        let indexer = Indexer::new(material);
        let slots = indexer.slots().to_vec();
        let n = slots.len();
        let mut exits: Vec<Option<ExitTarget>> = (0..9 * 9 * 6).map(|_| None).collect();
        let mut resident = HashMap::new();
        let victims = std::iter::once(None).chain((2..n).map(Some));
        for victim in victims {
            let mut promos = vec![None];
            for (s, p) in slots.iter().enumerate() {
                let takes_own = victim.is_some_and(|v| slots[v].color == p.color);
                if p.role == Role::Pawn && Some(s) != victim && !takes_own {
                    promos.extend(Role::PROMOTIONS.iter().map(|&r| Some((s, r))));
                }
            }
            for promoted in promos {
                if victim.is_none() && promoted.is_none() {
                    continue;
                }
                let target = exit_target(&slots, victim, promoted, tb, metric, &mut resident)?;
                exits[exit_key(victim, promoted)] = Some(target);
            }
        }
        let unique = (0..slots.len())
            .filter(|&i| (0..slots.len()).all(|j| j == i || slots[j] != slots[i]))
            .fold(0u8, |m, i| m | 1 << i);
        let sliders = [Color::White, Color::Black].map(|c| {
            slots
                .iter()
                .any(|p| p.color == c && matches!(p.role, Role::Bishop | Role::Rook | Role::Queen))
        });
        Ok(SliceGame {
            indexer,
            slots,
            exits,
            unique,
            sliders,
        })
    }

    pub(crate) fn indexer(&self) -> &Indexer {
        &self.indexer
    }

    /// The board of `idx`, which the caller knows to be legal (a decided position).
    #[inline]
    pub(crate) fn board(&self, idx: u64) -> Board {
        let (turn, sq) = self.indexer.decode(idx);
        Board { turn, sq }
    }

    /// The board of `idx` if it is a legal, canonical index.
    #[inline]
    pub(crate) fn legal_board(&self, idx: u64) -> Option<Board> {
        let (turn, sq) = self.indexer.decode_canonical(idx)?;
        let occ = sq[..self.slots.len()].iter().fold(0, |o, &s| o | bit(s));
        let b = Board { turn, sq };
        let their_king = b.sq[turn.other().index()];
        (!self.attacked(&b, occ, their_king, turn)).then_some(b)
    }

    fn occupancy(&self, b: &Board) -> u64 {
        b.sq[..self.slots.len()]
            .iter()
            .filter(|&&s| s != GONE)
            .fold(0, |o, &s| o | bit(s))
    }

    /// Whether `target` is attacked by a piece of `by`.
    #[inline]
    fn attacked(&self, b: &Board, occ: u64, target: u8, by: Color) -> bool {
        for (i, p) in self.slots.iter().enumerate() {
            let s = b.sq[i];
            if p.color == by && s != GONE && attacks(p.role, p.color, s, occ) & bit(target) != 0 {
                return true;
            }
        }
        false
    }

    /// Whether a board is legal: the side not to move is not in check.
    pub(crate) fn is_legal(&self, b: &Board) -> bool {
        let occ = self.occupancy(b);
        !self.attacked(b, occ, b.sq[b.turn.other().index()], b.turn)
    }

    /// Whether the side to move attacks a piece of the other side (not its king): whether a
    /// capture may exist.
    pub(crate) fn threatens(&self, b: &Board) -> bool {
        let us = b.turn;
        let mut targets = 0u64;
        for (i, p) in self.slots.iter().enumerate() {
            if p.color != us && p.role != Role::King && b.sq[i] != GONE {
                targets |= bit(b.sq[i]);
            }
        }
        if targets == 0 {
            return false;
        }
        let occ = self.occupancy(b);
        self.slots.iter().enumerate().any(|(i, p)| {
            p.color == us && b.sq[i] != GONE && attacks(p.role, us, b.sq[i], occ) & targets != 0
        })
    }

    /// Whether `color` has a pawn on the board.
    pub(crate) fn has_pawn(&self, b: &Board, color: Color) -> bool {
        self.slots
            .iter()
            .enumerate()
            .any(|(i, p)| p.color == color && p.role == Role::Pawn && b.sq[i] != GONE)
    }

    /// Whether the side to move is in check.
    pub(crate) fn in_check(&self, b: &Board) -> bool {
        let occ = self.occupancy(b);
        self.attacked(b, occ, b.sq[b.turn.index()], b.turn.other())
    }

    /// What move generation starts from: the occupied squares, the mover's, the other king's
    /// (never a target) and the mover's king square.
    #[inline]
    fn sides(&self, b: &Board) -> Sides {
        let us = b.turn;
        let mut own = 0u64;
        for (i, p) in self.slots.iter().enumerate() {
            if p.color == us {
                own |= bit(b.sq[i]);
            }
        }
        Sides {
            occ: self.occupancy(b),
            own,
            their_king: bit(b.sq[us.other().index()]),
            king: b.sq[us.index()],
        }
    }

    /// Calls `f` with every legal move's child until it returns `false`; returns whether it
    /// ran to the end.
    pub(crate) fn moves(&self, b: &Board, mut f: impl FnMut(Child) -> bool) -> bool {
        let us = b.turn;
        let Sides {
            occ,
            own,
            their_king,
            king,
        } = self.sides(b);
        // The king steps onto no square the other side attacks (through the king's own
        // square, which it leaves); out of check, a piece that is not pinned cannot expose
        // its king: their moves are legal without a test.
        let danger = self.danger(b, occ ^ bit(king), us);
        let in_check = danger & bit(king) != 0;
        let pinned = if in_check {
            0
        } else {
            self.pinned(b, occ, own, king, us)
        };
        for (i, p) in self.slots.iter().enumerate() {
            let from = b.sq[i];
            if p.color != us || from == GONE {
                continue;
            }
            let free = p.role == Role::King || (!in_check && pinned & bit(from) == 0);
            if p.role == Role::Pawn {
                if !self.pawn_moves(b, i, occ, own | their_king, free, &mut f) {
                    return false;
                }
                continue;
            }
            let mut targets = attacks(p.role, us, from, occ) & !own & !their_king;
            if p.role == Role::King {
                targets &= !danger;
            }
            while targets != 0 {
                let to = targets.trailing_zeros() as u8;
                targets &= targets - 1;
                let (child, victim) = self.step(b, i, to, occ);
                if !free && !self.safe(&child, us) {
                    continue;
                }
                let go = match victim {
                    None => f(Child::InSlice(child)),
                    Some(_) => f(Child::Exit {
                        board: child,
                        victim,
                        promoted: None,
                    }),
                };
                if !go {
                    return false;
                }
            }
        }
        true
    }

    /// Like [`moves`](Self::moves), the captures only (a pawn's capturing promotions
    /// included): calls `f` with each capture's [`Child::Exit`] until it returns `false`;
    /// returns whether it ran to the end.
    pub(crate) fn captures(&self, b: &Board, mut f: impl FnMut(Child) -> bool) -> bool {
        let us = b.turn;
        let Sides {
            occ,
            own,
            their_king,
            king,
        } = self.sides(b);
        let theirs = occ & !own & !their_king;
        let danger = self.danger(b, occ ^ bit(king), us);
        let in_check = danger & bit(king) != 0;
        let pinned = if in_check {
            0
        } else {
            self.pinned(b, occ, own, king, us)
        };
        let last = if us == Color::White { 7 } else { 0 };
        for (i, p) in self.slots.iter().enumerate() {
            let from = b.sq[i];
            if p.color != us || from == GONE {
                continue;
            }
            let free = p.role == Role::King || (!in_check && pinned & bit(from) == 0);
            let mut targets = attacks(p.role, us, from, occ) & theirs;
            if p.role == Role::King {
                targets &= !danger;
            }
            while targets != 0 {
                let to = targets.trailing_zeros() as u8;
                targets &= targets - 1;
                let (child, victim) = self.step(b, i, to, occ);
                if !free && !self.safe(&child, us) {
                    continue;
                }
                if p.role == Role::Pawn && to / 8 == last {
                    for r in Role::PROMOTIONS {
                        let go = f(Child::Exit {
                            board: child,
                            victim,
                            promoted: Some((i, r)),
                        });
                        if !go {
                            return false;
                        }
                    }
                    continue;
                }
                let go = f(Child::Exit {
                    board: child,
                    victim,
                    promoted: None,
                });
                if !go {
                    return false;
                }
            }
        }
        true
    }

    /// Like [`moves`](Self::moves), the pawns' moves only.
    pub(crate) fn pawn_children(&self, b: &Board, mut f: impl FnMut(Child) -> bool) -> bool {
        let us = b.turn;
        let Sides {
            occ,
            own,
            their_king,
            king,
        } = self.sides(b);
        let danger = self.danger(b, occ ^ bit(king), us);
        let in_check = danger & bit(king) != 0;
        let pinned = if in_check {
            0
        } else {
            self.pinned(b, occ, own, king, us)
        };
        for (i, p) in self.slots.iter().enumerate() {
            let from = b.sq[i];
            if p.color != us || p.role != Role::Pawn || from == GONE {
                continue;
            }
            let free = !in_check && pinned & bit(from) == 0;
            if !self.pawn_moves(b, i, occ, own | their_king, free, &mut f) {
                return false;
            }
        }
        true
    }

    /// Like [`moves`](Self::moves) for a position where no two moves reach the same index
    /// ([`children_may_coincide`](Self::children_may_coincide) is false): calls `f` with the
    /// children of captures, promotions and pawn moves only, until it returns `false`, and
    /// counts the moves of kings and pieces that stay in the slice without making their
    /// boards. Returns whether it ran to the end, and that count.
    ///
    /// The king's squares are checked against one map of the squares the other side
    /// attacks (through the king's own square, which it leaves), a piece that cannot expose
    /// its king (out of check and not pinned) counts its quiet moves with one popcount; only
    /// the moves of pinned pieces, and every move out of check, are made and tested one by one.
    pub(crate) fn count_and_exits(
        &self,
        b: &Board,
        mut f: impl FnMut(Child) -> bool,
    ) -> (bool, u32) {
        let us = b.turn;
        let Sides {
            occ,
            own,
            their_king,
            king,
        } = self.sides(b);
        let danger = self.danger(b, occ ^ bit(king), us);
        let in_check = danger & bit(king) != 0;
        let pinned = if in_check {
            0
        } else {
            self.pinned(b, occ, own, king, us)
        };
        let mut quiet = 0u32;
        for (i, p) in self.slots.iter().enumerate() {
            let from = b.sq[i];
            if p.color != us || from == GONE {
                continue;
            }
            if p.role == Role::Pawn {
                let free = !in_check && pinned & bit(from) == 0;
                if !self.pawn_moves(b, i, occ, own | their_king, free, &mut f) {
                    return (false, quiet);
                }
                continue;
            }
            let mut targets = attacks(p.role, us, from, occ) & !own & !their_king;
            let free = p.role == Role::King || (!in_check && pinned & bit(from) == 0);
            if p.role == Role::King {
                targets &= !danger;
            }
            if free {
                quiet += (targets & !occ).count_ones();
                targets &= occ;
            }
            while targets != 0 {
                let to = targets.trailing_zeros() as u8;
                targets &= targets - 1;
                let (child, victim) = self.step(b, i, to, occ);
                if !free && !self.safe(&child, us) {
                    continue;
                }
                match victim {
                    None => quiet += 1,
                    Some(_) => {
                        let go = f(Child::Exit {
                            board: child,
                            victim,
                            promoted: None,
                        });
                        if !go {
                            return (false, quiet);
                        }
                    }
                }
            }
        }
        (true, quiet)
    }

    fn pawn_moves(
        &self,
        b: &Board,
        i: usize,
        occ: u64,
        blocked: u64,
        free: bool,
        f: &mut impl FnMut(Child) -> bool,
    ) -> bool {
        let us = b.turn;
        let from = b.sq[i];
        let fwd: i8 = if us == Color::White { 8 } else { -8 };
        let last = if us == Color::White { 7 } else { 0 };
        let mut targets = attacks(Role::Pawn, us, from, occ) & occ & !blocked;
        let one = (from as i8 + fwd) as u8;
        if occ & bit(one) == 0 {
            targets |= bit(one);
            let start = if us == Color::White { 1 } else { 6 };
            let two = (one as i8 + fwd) as u8;
            if from / 8 == start && occ & bit(two) == 0 {
                targets |= bit(two);
            }
        }
        while targets != 0 {
            let to = targets.trailing_zeros() as u8;
            targets &= targets - 1;
            let (child, victim) = self.step(b, i, to, occ);
            if !free && !self.safe(&child, us) {
                continue;
            }
            if to / 8 == last {
                for r in Role::PROMOTIONS {
                    let go = f(Child::Exit {
                        board: child,
                        victim,
                        promoted: Some((i, r)),
                    });
                    if !go {
                        return false;
                    }
                }
                continue;
            }
            let go = match victim {
                Some(_) => f(Child::Exit {
                    board: child,
                    victim,
                    promoted: None,
                }),
                None => {
                    let double = (to.abs_diff(from) == 16).then_some(one);
                    f(Child::PawnPush {
                        board: child,
                        double,
                    })
                }
            };
            if !go {
                return false;
            }
        }
        true
    }

    /// Whether the side to move in `b` may capture en passant after the other side's double
    /// push over `passed`: one of its pawns stands beside the pushed pawn (the capture's
    /// legality is left to [`Position`]).
    pub(crate) fn ep_possible(&self, b: &Board, passed: u8) -> bool {
        let pushed = if b.turn == Color::Black {
            passed + 8
        } else {
            passed - 8
        };
        let beside = ((bit(pushed) << 1) & !0x0101_0101_0101_0101)
            | ((bit(pushed) >> 1) & !0x8080_8080_8080_8080);
        self.slots.iter().enumerate().any(|(i, p)| {
            p.role == Role::Pawn
                && p.color == b.turn
                && b.sq[i] != GONE
                && beside & bit(b.sq[i]) != 0
        })
    }

    /// The squares the side not to move (`us`'s opponent) attacks, with `occ` the occupied
    /// squares (without `us`'s king: a king cannot step back along a checking line).
    #[inline]
    fn danger(&self, b: &Board, occ: u64, us: Color) -> u64 {
        let mut danger = 0u64;
        for (i, p) in self.slots.iter().enumerate() {
            let s = b.sq[i];
            if p.color != us && s != GONE {
                danger |= attacks(p.role, p.color, s, occ);
            }
        }
        danger
    }

    /// `us`'s pieces pinned to their king on `king`: each the only piece between the king and
    /// a slider of the other side that moves along their line. A piece not pinned, its side
    /// not in check, cannot expose its king by any move (there is no en passant here).
    #[inline]
    fn pinned(&self, b: &Board, occ: u64, own: u64, king: u8, us: Color) -> u64 {
        if !self.sliders[us.other().index()] {
            return 0;
        }
        let mut pinned = 0u64;
        for (j, q) in self.slots.iter().enumerate() {
            let s = b.sq[j];
            if q.color == us
                || s == GONE
                || !matches!(q.role, Role::Bishop | Role::Rook | Role::Queen)
                || !lined_up(q.role, s, king)
            {
                continue;
            }
            let blockers = between(king, s) & occ;
            if blockers & (blockers.wrapping_sub(1)) == 0 && blockers & own != 0 {
                pinned |= blockers;
            }
        }
        pinned
    }

    /// `b` after slot `i` moves to `to` (the other side to move), and the slot it captured.
    #[inline]
    fn step(&self, b: &Board, i: usize, to: u8, occ: u64) -> (Board, Option<usize>) {
        let mut child = *b;
        child.sq[i] = to;
        child.turn = b.turn.other();
        let victim = self.victim(b, occ, to);
        if let Some(v) = victim {
            child.sq[v] = GONE;
        }
        (child, victim)
    }

    #[inline]
    fn victim(&self, b: &Board, occ: u64, to: u8) -> Option<usize> {
        if occ & bit(to) == 0 {
            return None;
        }
        (2..self.slots.len()).find(|&j| b.sq[j] == to)
    }

    /// Whether `mover`'s king is safe in `child` (the move was legal).
    #[inline]
    fn safe(&self, child: &Board, mover: Color) -> bool {
        let occ = self.occupancy(child);
        !self.attacked(child, occ, child.sq[mover.index()], mover.other())
    }

    /// Appends the index of every position with a king or piece move (no capture, no pawn) to
    /// `b`; these are the predecessors inside `b`'s stage.
    ///
    /// A predecessor is legal when the mover does not attack the other king in it: the
    /// origins that are illegal are the squares from which the moving piece itself would
    /// attack the king, and every square but those between for another piece that attacks
    /// it once the moving piece has left: one mask per piece instead of a test per un-move.
    /// Where the board's symmetry stays the identity, the predecessor's index is found from
    /// the digits the move changes, without ranking ([`Indexer::reindex`]).
    pub(crate) fn unmoves(&self, b: &Board, out: &mut Vec<u64>) {
        let mover = b.turn.other();
        let occ = self.occupancy(b);
        let victim_king = b.sq[b.turn.index()];
        let mut re = self.indexer.reindex(&b.sq, mover);
        // How each of the mover's pieces bears on the other king, whichever piece moves: a
        // slider lined up with it attacks it once the squares between are empty, and must
        // then be blocked from there (`lines`, `blocked`: the squares between, and those of
        // them occupied); a contact piece attacking it can never be blocked (`contact`).
        let mut lines = [0u64; 8];
        let mut blocked = [u64::MAX; 8];
        let mut contact = [false; 8];
        for (j, q) in self.slots.iter().enumerate() {
            let s = b.sq[j];
            if q.color != mover || s == GONE {
                continue;
            }
            match q.role {
                Role::Bishop | Role::Rook | Role::Queen => {
                    if lined_up(q.role, s, victim_king) {
                        lines[j] = between(s, victim_king);
                        blocked[j] = lines[j] & occ;
                    }
                }
                _ => contact[j] = attacks(q.role, q.color, s, 0) & bit(victim_king) != 0,
            }
        }
        for (i, p) in self.slots.iter().enumerate() {
            if p.color != mover || p.role == Role::Pawn {
                continue;
            }
            let to = b.sq[i];
            let without = occ ^ bit(to);
            let mut froms = origins(p.role, to, occ) & !occ;
            // The other king may not stand in check before the move: the moved piece must not
            // attack it from its origin (the squares a piece of this role on the king's square
            // reaches are those from which it attacks the king: the moves of kings and pieces
            // are symmetric), and every other piece that attacks it once `to` is empty must
            // be blocked by the moved piece: a slider on the squares between, anything else
            // never. One mask for all un-moves of the piece, instead of a test for each.
            froms &= !origins(p.role, victim_king, without);
            for j in 0..self.slots.len() {
                if j == i {
                    continue;
                }
                if contact[j] {
                    froms = 0;
                } else if blocked[j] & !bit(to) == 0 {
                    froms &= lines[j];
                }
            }
            if froms == 0 {
                continue;
            }
            re.select(i);
            while froms != 0 {
                let from = froms.trailing_zeros() as u8;
                froms &= froms - 1;
                out.push(re.index(from));
            }
        }
    }

    /// Calls `f` with the index of the child of every legal move of a king or piece that
    /// stays in the slice (no capture, no pawn move) from `b`, until it returns `false`;
    /// returns whether it ran to the end. The children are indexed like the un-moves'
    /// predecessors ([`Indexer::reindex`]), and the moves are found like
    /// [`count_and_exits`](Self::count_and_exits) counts them: a piece that cannot expose its
    /// king needs no test. Two moves may give one index (see
    /// [`children_may_coincide`](Self::children_may_coincide)).
    pub(crate) fn successors(&self, b: &Board, mut f: impl FnMut(u64) -> bool) -> bool {
        let us = b.turn;
        let Sides { occ, own, king, .. } = self.sides(b);
        let danger = self.danger(b, occ ^ bit(king), us);
        let in_check = danger & bit(king) != 0;
        let pinned = if in_check {
            0
        } else {
            self.pinned(b, occ, own, king, us)
        };
        let mut re = self.indexer.reindex(&b.sq, us.other());
        for (i, p) in self.slots.iter().enumerate() {
            let from = b.sq[i];
            if p.color != us || from == GONE || p.role == Role::Pawn {
                continue;
            }
            let mut targets = attacks(p.role, us, from, occ) & !occ;
            let free = p.role == Role::King || (!in_check && pinned & bit(from) == 0);
            if p.role == Role::King {
                targets &= !danger;
            }
            if targets == 0 {
                continue;
            }
            re.select(i);
            while targets != 0 {
                let to = targets.trailing_zeros() as u8;
                targets &= targets - 1;
                if !free && !self.safe(&self.step(b, i, to, occ).0, us) {
                    continue;
                }
                if !f(re.index(to)) {
                    return false;
                }
            }
        }
        true
    }

    /// Whether two different moves of kings and pieces from `b` can lead to the same index,
    /// so that counting its distinct children needs their ranks. (See
    /// [`may_coincide`](Self::may_coincide): the king of the side not to move stands still.)
    #[inline]
    pub(crate) fn children_may_coincide(&self, b: &Board) -> bool {
        self.may_coincide(b, b.turn.other())
    }

    /// Whether two different un-moves from `b` can lead to the same index, so that its
    /// predecessors need sorting to be listed once each. (See
    /// [`may_coincide`](Self::may_coincide): the king of the side to move stands still.)
    #[inline]
    pub(crate) fn parents_may_coincide(&self, b: &Board) -> bool {
        self.may_coincide(b, b.turn)
    }

    /// Whether two boards one move (or one un-move) away from `b`, made by different moves
    /// of the side other than `still`, can have the same index.
    ///
    /// Two different such boards are never the same position, equal pieces or not (if a move
    /// of one piece and a move of another gave the same squares, one of them would land
    /// where the other stands). So they share an index only if a symmetry `T` other than the
    /// identity maps one onto the other. Neither moves `still`'s king, so `T` fixes its
    /// square: with pawns (the left-right mirror, which fixes no square) never; without, `T`
    /// is the flip along the long diagonal through that king. Every piece but the (at most
    /// two) moved ones stands on the same square on both boards, and `T` takes it to a piece
    /// of its kind: one with no equal must stand on that diagonal. So the pieces with no
    /// equal off the diagonal are at most two, and none of them is `still`'s.
    #[inline]
    fn may_coincide(&self, b: &Board, still: Color) -> bool {
        if self.indexer.has_pawns() {
            return false;
        }
        let king = b.sq[still.index()];
        let (file, rank) = (king % 8, king / 8);
        let on_diagonal: fn(u8) -> bool = if file == rank {
            |s| s % 8 == s / 8
        } else if file + rank == 7 {
            |s| s % 8 + s / 8 == 7
        } else {
            return false;
        };
        let mut off = 0;
        for (i, p) in self.slots.iter().enumerate() {
            if self.unique & 1 << i != 0 && !on_diagonal(b.sq[i]) {
                if p.color == still {
                    return false;
                }
                off += 1;
            }
        }
        off <= 2
    }

    /// Where a capture's or promotion's child is in its table: `None` when the target has
    /// no table (bare kings, a draw). Every game of one material places it alike, whatever
    /// its metric.
    #[inline]
    pub(crate) fn exit_index(
        &self,
        board: &Board,
        victim: Option<usize>,
        promoted: Option<(usize, Role)>,
    ) -> Option<u64> {
        let target = self.exits[exit_key(victim, promoted)]
            .as_ref()
            .expect("every capture and promotion has a target");
        let ExitTarget::Table { table, flip, order } = target else {
            return None;
        };
        let mut sq = [0u8; 8];
        for (k, &src) in order.iter().enumerate() {
            sq[k] = if *flip {
                board.sq[src] ^ 56
            } else {
                board.sq[src]
            };
        }
        let turn = if *flip {
            board.turn.other()
        } else {
            board.turn
        };
        Some(table.indexer().rank_squares(turn, &sq[..order.len()]))
    }

    /// The value, for the side to move in `board`, of a capture's or promotion's child placed
    /// at `at` by [`SliceGame::exit_index`] (the same arguments).
    #[inline]
    pub(crate) fn exit_value_at(
        &self,
        at: Option<u64>,
        board: &Board,
        victim: Option<usize>,
        promoted: Option<(usize, Role)>,
    ) -> Result<Value, ProbeError> {
        let Some(idx) = at else {
            return Ok(Value::Draw);
        };
        let Some(ExitTarget::Table { table, .. }) = &self.exits[exit_key(victim, promoted)] else {
            unreachable!("an index is given only for a target with a table");
        };
        table
            .value(idx)?
            .ok_or_else(|| ProbeError::Illegal(self.position(board, promoted).fen()))
    }

    /// The position of a board (for messages and the en passant path).
    pub(crate) fn position(&self, b: &Board, promoted: Option<(usize, Role)>) -> Position {
        let mut pos = Position::empty(b.turn);
        for (i, p) in self.slots.iter().enumerate() {
            if b.sq[i] == GONE {
                continue;
            }
            let mut piece = *p;
            if let Some((_, r)) = promoted.filter(|&(s, _)| s == i) {
                piece.role = r;
            }
            pos.set(Square::new(b.sq[i]).expect("on the board"), Some(piece));
        }
        pos
    }

    /// The index of a board of this material (same slots, none captured).
    pub(crate) fn rank(&self, b: &Board) -> u64 {
        self.indexer.rank_squares(b.turn, &b.sq[..self.slots.len()])
    }
}

fn exit_target(
    slots: &[Piece],
    victim: Option<usize>,
    promoted: Option<(usize, Role)>,
    tb: &Tablebase,
    metric: Metric,
    resident: &mut HashMap<Material, Arc<Table>>,
) -> Result<ExitTarget, ProbeError> {
    let mut pieces: Vec<(usize, Piece)> = Vec::new();
    for (i, &p) in slots.iter().enumerate() {
        if Some(i) == victim {
            continue;
        }
        let mut piece = p;
        if let Some((_, r)) = promoted.filter(|&(s, _)| s == i) {
            piece.role = r;
        }
        pieces.push((i, piece));
    }
    if pieces.len() == 2 {
        return Ok(ExitTarget::BareKings);
    }
    let mut sides = [Vec::new(), Vec::new()];
    for (_, p) in &pieces {
        if p.role != Role::King {
            sides[p.color.index()].push(p.role);
        }
    }
    let material = Material::from_roles(sides);
    let (canonical, flip) = material.canonical();
    let table = match resident.get(&canonical) {
        Some(t) => Arc::clone(t),
        None => {
            let table = tb.table_for(&canonical, metric)?;
            let table = if table.resident_bytes() <= RESIDENT_LIMIT {
                Arc::new(table.resident()?)
            } else {
                table
            };
            resident.insert(canonical.clone(), Arc::clone(&table));
            table
        }
    };
    let mut used = vec![false; pieces.len()];
    let mut order = Vec::new();
    for want in table.indexer().slots() {
        let want = if flip {
            Piece {
                color: want.color.other(),
                role: want.role,
            }
        } else {
            *want
        };
        let k = (0..pieces.len())
            .find(|&k| !used[k] && pieces[k].1 == want)
            .expect("the target material has the same pieces");
        used[k] = true;
        order.push(pieces[k].0);
    }
    Ok(ExitTarget::Table { table, flip, order })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A table that answers nothing: these tests only enumerate moves, never probe.
    fn game(material: &str) -> SliceGame {
        crate::bench_hooks::placeholder_game(material).unwrap()
    }

    /// The canonical (material, index) of any position without en passant rights.
    fn key(pos: &Position) -> (String, u64) {
        let mut pos = *pos;
        pos.set_ep_square(None);
        let (m, flip) = Material::of(&pos).canonical();
        let oriented = if flip { pos.flip_colors() } else { pos };
        (m.to_string(), Indexer::new(&m).rank(&oriented).unwrap())
    }

    fn random_indices(size: u64, count: usize) -> impl Iterator<Item = u64> {
        let mut seed = 0x2545_f491_4f6c_dd1du64 ^ size;
        (0..count).map(move |_| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % size
        })
    }

    /// [`SliceGame::captures`] gives the capturing children of [`SliceGame::moves`], in
    /// the same order, and [`SliceGame::threatens`] is true wherever there is one;
    /// [`SliceGame::pawn_children`] the children of pawn moves; pins included.
    #[test]
    fn captures_are_the_capturing_moves() {
        for material in [
            "KQvKR", "KRBvKR", "KPvKP", "KRvKP", "KBBvKR", "KPPvKN", "KQPvKR",
        ] {
            let g = game(material);
            let ix = g.indexer();
            for idx in random_indices(ix.size(), 20_000) {
                let Some(b) = g.legal_board(idx) else {
                    continue;
                };
                let mut want = Vec::new();
                g.moves(&b, |c| {
                    if let Child::Exit {
                        victim: Some(_), ..
                    } = c
                    {
                        want.push(c);
                    }
                    true
                });
                let mut got = Vec::new();
                g.captures(&b, |c| {
                    got.push(c);
                    true
                });
                assert_eq!(got, want, "{material} {idx}");
                assert!(want.is_empty() || g.threatens(&b), "{material} {idx}");
                let mut want = Vec::new();
                g.moves(&b, |c| {
                    let (Child::InSlice(child)
                    | Child::PawnPush { board: child, .. }
                    | Child::Exit { board: child, .. }) = c;
                    let from = (0..8).find(|&k| child.sq[k] != b.sq[k] && child.sq[k] != GONE);
                    if from.is_some_and(|k| g.slots[k].role == Role::Pawn) {
                        want.push(c);
                    }
                    true
                });
                let mut got = Vec::new();
                g.pawn_children(&b, |c| {
                    got.push(c);
                    true
                });
                assert_eq!(got, want, "{material} {idx}: pawn moves");
            }
        }
    }

    /// Where [`SliceGame::children_may_coincide`] says no, the children of a position all
    /// have different indices, and so do its predecessors where
    /// [`SliceGame::parents_may_coincide`] says no; where they say yes, they sometimes share
    /// one (the test is needed). Equal pieces included, with pawns and without.
    #[test]
    fn children_coincide_only_where_the_test_says() {
        let mut coincided = 0;
        for material in [
            "KRvK", "KQvKR", "KRBvKR", "KBNvK", "KPvKP", "KRvKP", "KRRvK", "KNNvK", "KBBvKR",
            "KPPvKN", "KRRvKP",
        ] {
            let g = game(material);
            let ix = g.indexer();
            let step = (ix.size() / 200_000).max(1);
            for idx in (0..ix.size()).step_by(step as usize) {
                let Some(b) = g.legal_board(idx) else {
                    continue;
                };
                let mut children = Vec::new();
                g.moves(&b, |c| {
                    if let Child::InSlice(c) = c {
                        children.push(g.rank(&c));
                    }
                    true
                });
                let mut preds = Vec::new();
                g.unmoves(&b, &mut preds);
                let tests = [g.children_may_coincide(&b), g.parents_may_coincide(&b)];
                for (list, may, what) in [
                    (&mut children, tests[0], "moves"),
                    (&mut preds, tests[1], "un-moves"),
                ] {
                    let n = list.len();
                    list.sort_unstable();
                    list.dedup();
                    if list.len() != n {
                        assert!(
                            may,
                            "{material} {:?}: two {what} reach one index",
                            g.position(&b, None)
                        );
                        coincided += 1;
                    }
                }
            }
        }
        assert!(
            coincided > 0,
            "no position with coinciding children was tried"
        );
    }

    /// [`SliceGame::count_and_exits`] against [`SliceGame::moves`]: the same exits, and as
    /// many quiet moves as `moves` gives in-slice children.
    #[test]
    fn counting_quiet_moves_matches_making_them() {
        for material in [
            "KRvK", "KQvKR", "KRBvKR", "KBNvK", "KPvKP", "KRvKP", "KQPvKR", "KNvKN", "KPPvKN",
            "KNNvKP",
        ] {
            let g = game(material);
            let ix = g.indexer();
            let mut checked = 0;
            for idx in random_indices(ix.size(), 20_000) {
                let Some(b) = g.legal_board(idx) else {
                    continue;
                };
                checked += 1;
                let (mut exits, mut in_slice) = (Vec::new(), 0u32);
                g.moves(&b, |c| {
                    match c {
                        Child::InSlice(_) => in_slice += 1,
                        other => exits.push(format!("{other:?}")),
                    }
                    true
                });
                let mut fast = Vec::new();
                let (done, quiet) = g.count_and_exits(&b, |c| {
                    fast.push(format!("{c:?}"));
                    true
                });
                assert!(done);
                exits.sort();
                fast.sort();
                let pos = g.position(&b, None);
                assert_eq!(quiet, in_slice, "{material} quiet moves of {pos:?}");
                assert_eq!(fast, exits, "{material} exits of {pos:?}");
            }
            assert!(checked > 2000, "{material}: {checked}");
        }
    }

    /// [`SliceGame::moves`] of `b` lead to the positions `pos.legal_moves()` lead to.
    fn assert_moves_match(g: &SliceGame, material: &str, b: &Board, pos: &Position) {
        let mut fast = Vec::new();
        g.moves(b, |c| {
            fast.push(match c {
                Child::InSlice(board) => (material.to_string(), g.rank(&board)),
                Child::PawnPush { board, .. } => key(&g.position(&board, None)),
                Child::Exit {
                    board, promoted, ..
                } => key(&g.position(&board, promoted)),
            });
            true
        });
        let mut slow: Vec<_> = pos
            .legal_moves()
            .iter()
            .map(|&m| key(&pos.play(m)))
            .collect();
        fast.sort();
        slow.sort();
        assert_eq!(fast, slow, "{material} moves of {pos:?}");
        assert_successors_match(g, material, b, pos);
    }

    /// The in-slice successors (moves of kings and pieces without capture) against
    /// position.rs, and stopping at the first one when asked to.
    fn assert_successors_match(g: &SliceGame, material: &str, b: &Board, pos: &Position) {
        let mut fast = Vec::new();
        assert!(g.successors(b, |c| {
            fast.push(c);
            true
        }));
        let mut slow: Vec<u64> = pos
            .legal_moves()
            .into_iter()
            .filter(|m| {
                pos.piece_at(m.from).is_some_and(|p| p.role != Role::Pawn)
                    && pos.piece_at(m.to).is_none()
            })
            .map(|m| g.indexer().rank(&pos.play(m)).unwrap())
            .collect();
        if let Some(&first) = fast.first() {
            let mut seen = Vec::new();
            assert!(!g.successors(b, |c| {
                seen.push(c);
                false
            }));
            assert_eq!(seen, [first]);
        }
        fast.sort();
        slow.sort();
        assert_eq!(fast, slow, "{material} successors of {pos:?}");
    }

    /// Positions with a piece on a line through its king, out of check (the pinned ones are the
    /// only pieces whose moves are made and tested one by one): `moves` and `count_and_exits`
    /// against position.rs. A pin that [`SliceGame::pinned`] missed would make an illegal
    /// move legal here.
    #[test]
    fn pinned_pieces_move_only_along_their_line() {
        let (mut lined, mut pins) = (0, 0);
        for material in ["KRBvKR", "KQvKB", "KNPvKQ", "KBBvKQ", "KRRvKB", "KQPvKR"] {
            let g = game(material);
            let ix = g.indexer();
            for idx in random_indices(ix.size(), 40_000) {
                let (Some(pos), Some(b)) = (ix.legal(idx), g.legal_board(idx)) else {
                    continue;
                };
                // Chosen without `pinned`: a piece of the side to move on a line through its
                // king, out of check.
                let Sides { occ, own, king, .. } = g.sides(&b);
                let lines = attacks(Role::Queen, b.turn, king, 0);
                if g.in_check(&b) || own & !bit(king) & lines == 0 {
                    continue;
                }
                lined += 1;
                pins += usize::from(g.pinned(&b, occ, own, king, b.turn) != 0);
                assert_moves_match(&g, material, &b, &pos);
                let mut exits = 0;
                let (_, quiet) = g.count_and_exits(&b, |_| {
                    exits += 1;
                    true
                });
                assert_eq!(
                    (exits + quiet) as usize,
                    pos.legal_moves().len(),
                    "{material} counted moves of {pos:?}"
                );
            }
        }
        assert!(
            pins > 500 && lined > 5 * pins,
            "{pins} positions with a pin of {lined} with a piece on a line"
        );
    }

    /// Bitboard moves and un-moves against position.rs on random legal positions.
    #[test]
    fn moves_and_unmoves_match_position() {
        for material in [
            "KRBvKR", "KQvKP", "KPPvKP", "KNNvKP", "KBNvKN", "KPvKP", "KQRvKQ", "KQBvKR", "KBBvKQ",
            "KRPvKR",
        ] {
            let g = game(material);
            let ix = g.indexer();
            let mut checked = 0;
            for idx in random_indices(ix.size(), 1500) {
                let pos = ix.legal(idx);
                let b = g.legal_board(idx);
                assert_eq!(pos.is_some(), b.is_some(), "{material} {idx}");
                let (Some(pos), Some(b)) = (pos, b) else {
                    continue;
                };
                checked += 1;
                assert_eq!(g.in_check(&b), pos.is_check());
                assert_moves_match(&g, material, &b, &pos);
                assert_unmoves_match(&g, material, &b, &pos);
            }
            assert!(checked > 300, "{material}: {checked}");
        }
    }

    fn assert_unmoves_match(g: &SliceGame, material: &str, b: &Board, pos: &Position) {
        let mut fast = Vec::new();
        g.unmoves(b, &mut fast);
        let mut slow: Vec<u64> = pos
            .unmoves(&[])
            .into_iter()
            .filter(|(u, pre)| {
                pre.piece_at(u.played.from)
                    .is_some_and(|p| p.role != Role::Pawn)
            })
            .map(|(_, pre)| g.indexer().rank(&pre).unwrap())
            .collect();
        fast.sort();
        slow.sort();
        assert_eq!(fast, slow, "{material} un-moves of {pos:?}");
    }

    /// The white king on the long diagonal (two symmetries compete), and every other piece on
    /// it half of the time, so that the first, a later or no piece decides between them (runs
    /// of two and three equal pieces among them): un-moves and successors against position.rs.
    #[test]
    fn unmoves_with_the_white_king_on_the_long_diagonal() {
        let diagonal = |k: u64| (k % 8 * 9) as u8;
        for material in ["KQRNvK", "KNNNvK", "KBBNvK", "KRRvKB", "KBBvKQ", "KRNvKN"] {
            let g = game(material);
            let ix = g.indexer();
            let mut checked = 0;
            let mut draws = random_indices(u64::MAX, 2 * 20_000 * ix.slots().len());
            for _ in 0..20_000 {
                let mut next = || draws.next().unwrap();
                let turn = if next() % 2 == 0 {
                    Color::White
                } else {
                    Color::Black
                };
                let mut pos = Position::empty(turn);
                let mut free = true;
                for (i, &piece) in ix.slots().iter().enumerate() {
                    let s = if i == 0 {
                        diagonal(next() % 4)
                    } else if next() % 2 == 0 {
                        diagonal(next())
                    } else {
                        (next() % 64) as u8
                    };
                    let s = Square::new(s).unwrap();
                    free &= pos.piece_at(s).is_none();
                    pos.set(s, Some(piece));
                }
                let Some(idx) = ix.rank(&pos).filter(|_| free) else {
                    continue;
                };
                let (Some(pos), Some(b)) = (ix.legal(idx), g.legal_board(idx)) else {
                    continue;
                };
                checked += 1;
                assert_unmoves_match(&g, material, &b, &pos);
                assert_successors_match(&g, material, &b, &pos);
            }
            assert!(checked > 5_000, "{material}: {checked}");
        }
    }
}
