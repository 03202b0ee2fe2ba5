//! Dense indexing of one material, with symmetry reduction.
//!
//! Two schemes, chosen by the material (docs/formats.md describes both exactly):
//!
//! * **Without pawns** ([`pawnless`]): side to move, the two kings as one of their 462
//!   placements under the 8 board symmetries, then each other piece as the rank of its square
//!   among the squares still free, a run of equal pieces as one combination
//!   (`2 x 462 x 62 x 61 x 60` indices for KRBvKR). Only positions with both kings on the
//!   diagonal a1-h8 can have two indices; the least is canonical, the other a hole.
//! * **With pawns** ([`pawns`]): only the left-right mirror applies; side to move, one
//!   48-square digit per pawn, then the white king on files a-d (32 squares) and a 64-square
//!   digit per other piece, equal pieces as sorted digits (the other orders are holes). The
//!   pawn digits come first, so all positions of one *pawn configuration* and side to move form
//!   one contiguous block of [`block_len`](Indexer::block_len) indices, which the generator
//!   solves a group at a time (pawn moves are irreversible).
//!
//! Every index that holds no position (pieces overlapping, a non-canonical order or symmetry,
//! the side not to move in check) is a *hole*: [`Indexer::legal`] says which.

mod combination;
mod pawnless;
mod pawns;
mod symmetry;

use crate::material::Material;
use crate::position::Position;
use crate::square::{Color, Piece, Role, Square};
use pawnless::Pawnless;
use pawns::Pawns;

/// Rank and unrank for one material (in its stored orientation).
#[derive(Clone, Debug)]
pub struct Indexer {
    material: Material,
    slots: Vec<Piece>,
    scheme: Scheme,
}

#[derive(Clone, Debug)]
enum Scheme {
    Pawnless(Pawnless),
    Pawns(Pawns),
}

impl Indexer {
    /// The indexer of `material` (either orientation; the table stores this one), of at most
    /// eight pieces.
    pub fn new(material: &Material) -> Indexer {
        let mut slots = vec![king(Color::White), king(Color::Black)];
        for color in [Color::White, Color::Black] {
            for &role in material.side(color) {
                slots.push(Piece { color, role });
            }
        }
        assert!(
            slots.len() <= 8,
            "{material}: at most eight pieces are indexed"
        );
        let scheme = if material.has_pawns() {
            Scheme::Pawns(Pawns::new(&slots))
        } else {
            Scheme::Pawnless(Pawnless::new(&slots))
        };
        Indexer {
            material: material.clone(),
            slots,
            scheme,
        }
    }

    /// The material indexed.
    pub fn material(&self) -> &Material {
        &self.material
    }

    /// Number of indices (legal or not).
    pub fn size(&self) -> u64 {
        match &self.scheme {
            Scheme::Pawnless(s) => s.size(),
            Scheme::Pawns(s) => s.size(),
        }
    }

    /// Whether pawns restrict the symmetry to the left-right mirror (the pawn scheme).
    pub fn has_pawns(&self) -> bool {
        matches!(self.scheme, Scheme::Pawns(_))
    }

    /// The squares of the pieces in slot order, or `None` if `pos` has another material.
    fn squares(&self, pos: &Position) -> Option<[u8; 8]> {
        let mut out = [0u8; 8];
        let mut filled = [false; 8];
        for (sq, p) in pos.pieces() {
            let slot = (0..self.slots.len()).find(|&i| !filled[i] && self.slots[i] == p)?;
            filled[slot] = true;
            out[slot] = sq.index() as u8;
        }
        filled[..self.slots.len()].iter().all(|&f| f).then_some(out)
    }

    /// The canonical index of `pos` and the symmetry that maps `pos` onto it. `None` if `pos`
    /// has another material (in this orientation), or, without pawns, kings side by side.
    pub fn rank_with_transform(&self, pos: &Position) -> Option<(u64, u8)> {
        let sq = self.squares(pos)?;
        if matches!(self.scheme, Scheme::Pawnless(_)) && !Pawnless::kings_apart(sq[0], sq[1]) {
            return None;
        }
        Some(self.rank_squares_with_transform(pos.turn(), &sq[..self.slots.len()]))
    }

    /// The canonical index of `pos` (see [`rank_with_transform`](Self::rank_with_transform)).
    pub fn rank(&self, pos: &Position) -> Option<u64> {
        self.rank_with_transform(pos).map(|(i, _)| i)
    }

    /// The position of index `idx`, or `None` if pieces overlap or `idx` is out of range. The
    /// position may still be illegal or non-canonical (see [`legal`](Self::legal)).
    pub fn unrank(&self, idx: u64) -> Option<Position> {
        if idx >= self.size() {
            return None;
        }
        let (turn, sq) = self.decode(idx);
        let mut pos = Position::empty(turn);
        for (&s, &piece) in sq.iter().zip(&self.slots) {
            let s = Square::new(s)?;
            if pos.piece_at(s).is_some() {
                return None;
            }
            pos.set(s, Some(piece));
        }
        Some(pos)
    }

    /// The position of `idx` if it is legal and `idx` is its canonical index.
    pub fn legal(&self, idx: u64) -> Option<Position> {
        let pos = self.unrank(idx)?;
        (self.rank(&pos) == Some(idx) && !pos.opponent_in_check()).then_some(pos)
    }

    /// The pieces in slot order: white king, black king, white pieces, black pieces (each
    /// side strongest first, so equal pieces are neighbours).
    pub(crate) fn slots(&self) -> &[Piece] {
        &self.slots
    }

    /// The side to move and the square of each slot of index `idx` (`idx < size`); with pawns,
    /// pieces may overlap.
    #[inline]
    pub(crate) fn decode(&self, idx: u64) -> (Color, [u8; 8]) {
        match &self.scheme {
            Scheme::Pawnless(s) => s.decode(idx),
            Scheme::Pawns(s) => s.decode(idx),
        }
    }

    /// The side to move and the squares of index `idx` if no two pieces share a square and
    /// `idx` is the canonical index of that placement (whether the side not to move is in
    /// check is not asked).
    #[inline]
    pub(crate) fn decode_canonical(&self, idx: u64) -> Option<(Color, [u8; 8])> {
        let (turn, sq) = self.decode(idx);
        let n = self.slots.len();
        let canonical = match &self.scheme {
            Scheme::Pawnless(s) => s.is_canonical(idx, turn, &sq[..n]),
            Scheme::Pawns(s) => s.is_canonical(idx, turn, &sq[..n]),
        };
        canonical.then_some((turn, sq))
    }

    /// The canonical index of the position with `turn` to move and a piece of each slot on
    /// `squares` (no overlaps; without pawns, kings apart), and the symmetry that maps the
    /// position onto it.
    #[inline]
    pub(crate) fn rank_squares_with_transform(&self, turn: Color, squares: &[u8]) -> (u64, u8) {
        match &self.scheme {
            Scheme::Pawnless(s) => s.rank_squares_with_transform(turn, squares),
            Scheme::Pawns(s) => s.rank_squares_with_transform(turn, squares),
        }
    }

    /// The canonical index (see [`rank_squares_with_transform`](Self::rank_squares_with_transform)).
    #[inline]
    pub(crate) fn rank_squares(&self, turn: Color, squares: &[u8]) -> u64 {
        self.rank_squares_with_transform(turn, squares).0
    }

    /// The indices of the boards one king or piece move away from the canonical board `sq`,
    /// with `turn` to move ([`Reindex`]).
    #[inline(always)]
    pub(crate) fn reindex(&self, sq: &[u8; 8], turn: Color) -> Reindex<'_> {
        match &self.scheme {
            Scheme::Pawnless(s) => {
                Reindex(Reindexing::Pawnless(pawnless::Reindex::new(s, sq, turn)))
            }
            Scheme::Pawns(s) => Reindex(Reindexing::Pawns(pawns::Reindex::new(s, sq, turn))),
        }
    }

    /// Indices per pawn configuration and side to move: index `i` has pawn configuration
    /// `(i % (size / 2)) / block_len` (always 0 without pawns).
    pub fn block_len(&self) -> u64 {
        match &self.scheme {
            Scheme::Pawnless(s) => s.size() / 2,
            Scheme::Pawns(s) => s.block_len(),
        }
    }

    /// Number of pawn configurations (48 to the number of pawns; 1 without pawns), valid or
    /// not.
    pub fn pawn_configs(&self) -> u64 {
        self.size() / 2 / self.block_len()
    }

    /// Indices per king placement and side to move without pawns (`None` with pawns): the
    /// block a move of a piece other than a king stays in.
    pub fn king_block_len(&self) -> Option<u64> {
        match &self.scheme {
            Scheme::Pawnless(s) => Some(s.per_kings()),
            Scheme::Pawns(_) => None,
        }
    }

    /// The pawn scheme (pawn configurations exist only there).
    fn pawns(&self) -> &Pawns {
        match &self.scheme {
            Scheme::Pawns(s) => s,
            Scheme::Pawnless(_) => {
                panic!("{}: pawn configurations of a pawnless table", self.material)
            }
        }
    }

    /// The pawn squares of configuration `config` in slot order (the pawn slots are
    /// [`pawn_slots`](Self::pawn_slots)).
    #[cfg(test)]
    pub(crate) fn config_squares(&self, config: u64) -> Vec<u8> {
        self.pawns().config_squares(config)
    }

    /// The configuration number of pawn squares given in slot order.
    #[cfg(test)]
    pub(crate) fn config_of(&self, squares: &[u8]) -> u64 {
        self.pawns().config_of(squares)
    }

    /// The stage of pawn configuration `config`: the sum of its pawns' advancement, each
    /// counted from its own side (pawn pushes only raise it).
    pub(crate) fn config_stage(&self, config: u64) -> u32 {
        self.pawns().config_stage(config)
    }

    /// The slots holding pawns, in slot order.
    #[cfg(test)]
    pub(crate) fn pawn_slots(&self) -> impl DoubleEndedIterator<Item = usize> + '_ {
        (0..self.slots.len()).filter(|&i| self.slots[i].role == Role::Pawn)
    }

    /// Whether configuration `config` can hold positions: pawns on distinct squares, equal
    /// pawns in ascending order (the canonical order).
    pub(crate) fn config_is_valid(&self, config: u64) -> bool {
        self.pawns().config_is_valid(config)
    }

    /// The configuration of the left-right mirror image of `config` (canonical order).
    pub(crate) fn mirror_config(&self, config: u64) -> u64 {
        self.pawns().mirror_config(config)
    }
}

/// The indices of the boards one king or piece move away from a canonical board, with one side
/// to move: the un-moves' predecessors and the moves' children in the slice
/// ([`Indexer::reindex`]). Each scheme changes the digits a move changes where the board's
/// symmetry stays the identity, instead of ranking the board again.
#[derive(Clone, Debug)]
pub(crate) struct Reindex<'a>(Reindexing<'a>);

#[derive(Clone, Debug)]
enum Reindexing<'a> {
    Pawnless(pawnless::Reindex<'a>),
    Pawns(pawns::Reindex<'a>),
}

impl Reindex<'_> {
    /// Selects slot `i` (a king or a piece, not a pawn): [`index`](Self::index) then gives
    /// the boards with its piece moved. What its moves share is made here, once.
    #[inline]
    pub(crate) fn select(&mut self, i: usize) {
        match &mut self.0 {
            Reindexing::Pawnless(r) => r.select(i),
            Reindexing::Pawns(r) => r.select(i),
        }
    }

    /// The index of the board with the selected slot's piece on `to` instead.
    #[inline(always)]
    pub(crate) fn index(&self, to: u8) -> u64 {
        match &self.0 {
            Reindexing::Pawnless(r) => r.index(to),
            Reindexing::Pawns(r) => r.index(to),
        }
    }
}

fn king(color: Color) -> Piece {
    Piece {
        color,
        role: Role::King,
    }
}

#[cfg(test)]
mod tests;
