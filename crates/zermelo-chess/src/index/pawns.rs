//! The index of a table with pawns (unchanged since format version 3).
//!
//! Only the left-right mirror applies. An index is, most significant first: the side to move,
//! one digit per pawn (its square minus 8: ranks 2-7, 48 values) in slot order, the white
//! king's square on files a-d (`rank x 4 + file`, 32 values), then one digit per other slot
//! (black king, white pieces, black pieces: the square, 64 values). A position with the white
//! king on files e-h is mirrored. All positions of one *pawn configuration* (the pawn digits)
//! and side to move form one block of [`block_len`](Pawns::block_len) indices. Equal pieces
//! (pawns too) are canonical in ascending order of their squares; the other orders, and
//! overlapping pieces, are holes.

use super::symmetry::TRANSFORMS;
use crate::square::{Color, Piece, Role};

/// The mirror that brings the white king onto files a-d.
const MIRROR: u8 = 1;

/// The pawn scheme for one material (see the module's documentation).
#[derive(Clone, Debug)]
pub(super) struct Pawns {
    slots: Vec<Piece>,
    size: u64,
    /// The place value of each slot's digit (the side to move's is `size / 2`), and what a
    /// slot's square minus `digit_base` gives as its digit (8 for pawns, 0 otherwise; the
    /// white king's digit is [`king_digit`]).
    place: [u64; 8],
    digit_base: [u8; 8],
    /// Runs of equal pieces (`start..end`, at least two long), sorted when ranking.
    equal_runs: Vec<(usize, usize)>,
    /// The slots from the least significant digit to the most significant.
    digit_order: Vec<usize>,
    /// Per slot: the run of equal pieces it belongs to, if any.
    run_of: [Option<(usize, usize)>; 8],
    /// Indices per pawn configuration and side to move.
    block_len: u64,
}

/// Whether a white king on `wk` is indexed as it stands (files a-d).
#[inline]
fn is_plain(wk: u8) -> bool {
    wk % 8 <= 3
}

/// The white king's digit for square `wk` of files a-d.
#[inline]
fn king_digit(wk: u8) -> u64 {
    u64::from(wk / 8 * 4 + wk % 8)
}

impl Pawns {
    pub(super) fn new(slots: &[Piece]) -> Pawns {
        let n = slots.len();
        // Most significant first: the pawns, then the kings and pieces, each in slot order.
        let mut digit_order: Vec<usize> = (0..n)
            .filter(|&i| slots[i].role == Role::Pawn)
            .chain((0..n).filter(|&i| slots[i].role != Role::Pawn))
            .collect();
        digit_order.reverse();
        let mut place = [0u64; 8];
        let mut digit_base = [0u8; 8];
        let mut value = 1u64;
        let mut block_len = 0;
        for &i in &digit_order {
            let pawn = slots[i].role == Role::Pawn;
            if pawn && block_len == 0 {
                block_len = value;
            }
            place[i] = value;
            let radix = match (i, pawn) {
                (0, _) => 32,
                (_, true) => 48,
                _ => 64,
            };
            digit_base[i] = if pawn { 8 } else { 0 };
            value *= radix;
        }
        if block_len == 0 {
            block_len = value;
        }
        let mut equal_runs = Vec::new();
        let mut i = 2;
        while i < n {
            let mut j = i + 1;
            while j < n && slots[j] == slots[i] {
                j += 1;
            }
            if j - i > 1 {
                equal_runs.push((i, j));
            }
            i = j;
        }
        let mut run_of = [None; 8];
        for &(i, j) in &equal_runs {
            run_of[i..j].fill(Some((i, j)));
        }
        Pawns {
            slots: slots.to_vec(),
            size: 2 * value,
            place,
            digit_base,
            equal_runs,
            digit_order,
            run_of,
            block_len,
        }
    }

    pub(super) fn size(&self) -> u64 {
        self.size
    }

    pub(super) fn block_len(&self) -> u64 {
        self.block_len
    }

    #[inline]
    fn sort_equal_pieces(&self, sq: &mut [u8]) {
        for &(i, j) in &self.equal_runs {
            sq[i..j].sort_unstable();
        }
    }

    #[inline]
    fn encode(&self, turn: Color, sq: &[u8]) -> u64 {
        let mut idx = turn.index() as u64 * (self.size / 2) + king_digit(sq[0]) * self.place[0];
        for ((&s, &base), &place) in sq.iter().zip(&self.digit_base).zip(&self.place).skip(1) {
            idx += u64::from(s - base) * place;
        }
        idx
    }

    /// The side to move and the square of each slot of index `idx` (`idx < size`); pieces may
    /// overlap.
    #[inline]
    pub(super) fn decode(&self, mut idx: u64) -> (Color, [u8; 8]) {
        // The squares are gathered in one word: eight byte stores read back as one word
        // (copying the board) stall the load until the stores retire.
        let mut packed = 0u64;
        for &i in &self.digit_order {
            let s = if i == 0 {
                let r = idx & 31;
                idx >>= 5;
                r / 4 * 8 + r % 4
            } else if self.digit_base[i] != 0 {
                let s = idx % 48 + 8;
                idx /= 48;
                s
            } else {
                let s = idx & 63;
                idx >>= 6;
                s
            };
            packed |= s << (8 * i);
        }
        let turn = if idx == 0 { Color::White } else { Color::Black };
        (turn, packed.to_le_bytes())
    }

    /// Whether decoded index `idx` places its pieces on distinct squares and is the canonical
    /// index of that placement: its runs of equal pieces in ascending order.
    #[inline]
    pub(super) fn is_canonical(&self, idx: u64, turn: Color, sq: &[u8]) -> bool {
        let mut occ = 0u64;
        for &s in sq {
            if occ & 1 << s != 0 {
                return false;
            }
            occ |= 1 << s;
        }
        if is_plain(sq[0]) {
            self.runs_sorted(sq)
        } else {
            self.rank_squares_with_transform(turn, sq).0 == idx
        }
    }

    /// The pawn squares of configuration `config` in slot order.
    pub(super) fn config_squares(&self, config: u64) -> Vec<u8> {
        let mut c = config;
        let mut out: Vec<u8> = self
            .pawn_slots()
            .rev()
            .map(|_| {
                let s = (c % 48) as u8 + 8;
                c /= 48;
                s
            })
            .collect();
        out.reverse();
        out
    }

    /// The configuration number of pawn squares given in slot order.
    pub(super) fn config_of(&self, squares: &[u8]) -> u64 {
        squares.iter().fold(0, |c, &s| c * 48 + u64::from(s - 8))
    }

    /// The sum of configuration `config`'s pawns' advancement, each from its own side.
    pub(super) fn config_stage(&self, config: u64) -> u32 {
        let squares = self.config_squares(config);
        squares
            .iter()
            .zip(self.pawn_slots())
            .map(|(&s, slot)| {
                let rank = u32::from(s / 8);
                if self.slots[slot].color == Color::White {
                    rank
                } else {
                    7 - rank
                }
            })
            .sum()
    }

    fn pawn_slots(&self) -> impl DoubleEndedIterator<Item = usize> + '_ {
        (0..self.slots.len()).filter(|&i| self.slots[i].role == Role::Pawn)
    }

    /// Whether configuration `config` can hold positions: pawns on distinct squares, equal
    /// pawns in ascending order.
    pub(super) fn config_is_valid(&self, config: u64) -> bool {
        let sq = self.config_squares(config);
        let slots: Vec<usize> = self.pawn_slots().collect();
        for a in 0..sq.len() {
            for b in a + 1..sq.len() {
                if sq[a] == sq[b] || (self.slots[slots[a]] == self.slots[slots[b]] && sq[a] > sq[b])
                {
                    return false;
                }
            }
        }
        true
    }

    /// The configuration of the left-right mirror image of `config` (canonical order).
    pub(super) fn mirror_config(&self, config: u64) -> u64 {
        let slots: Vec<usize> = self.pawn_slots().collect();
        let mut sq = [0u8; 8];
        for (k, s) in self.config_squares(config).into_iter().enumerate() {
            sq[slots[k]] = s ^ 7;
        }
        self.sort_equal_pieces(&mut sq[..self.slots.len()]);
        let mirrored: Vec<u8> = slots.iter().map(|&i| sq[i]).collect();
        self.config_of(&mirrored)
    }

    /// The canonical index of the position with `turn` to move and a piece of each slot on
    /// `squares` (no overlaps), and the symmetry that maps the position onto it (0, or 1 for
    /// the mirror).
    #[inline]
    pub(super) fn rank_squares_with_transform(&self, turn: Color, squares: &[u8]) -> (u64, u8) {
        let n = self.slots.len();
        let mut sq = [0u8; 8];
        let t = if is_plain(squares[0]) {
            sq[..n].copy_from_slice(&squares[..n]);
            0
        } else {
            let map = &TRANSFORMS[MIRROR as usize];
            for (out, &s) in sq.iter_mut().zip(&squares[..n]) {
                *out = map[s as usize];
            }
            MIRROR
        };
        self.sort_equal_pieces(&mut sq[..n]);
        (self.encode(turn, &sq[..n]), t)
    }

    /// Whether the squares of every run of equal pieces increase (`squares` in slot order).
    #[inline]
    fn runs_sorted(&self, squares: &[u8]) -> bool {
        self.equal_runs
            .iter()
            .all(|&(i, j)| squares[i..j].windows(2).all(|w| w[0] < w[1]))
    }

    fn run_value(&self, first: usize, sq: &[u8]) -> u64 {
        sq.iter()
            .enumerate()
            .map(|(k, &s)| u64::from(s) * self.place[first + k])
            .sum()
    }
}

/// The indices of the boards one king or piece move away from a canonical board (its white
/// king on files a-d, so its index is the encoding of its squares), with one side to move: a
/// piece moved changes its digit (or the digits of its run of equal pieces, sorted again), the
/// white king moved within files a-d its digit; a white king crossing to files e-h mirrors the
/// board and is ranked.
#[derive(Clone, Debug)]
pub(super) struct Reindex<'a> {
    ix: &'a Pawns,
    sq: [u8; 8],
    turn: Color,
    /// The index of the board's squares with `turn` to move.
    base: u64,
    /// Per slot in a run of equal pieces: the value of the run's digits on the board.
    before: [u64; 8],
    /// The slot whose moves are indexed ([`select`](Self::select)).
    i: usize,
}

impl<'a> Reindex<'a> {
    #[inline]
    pub(super) fn new(ix: &'a Pawns, sq: &[u8; 8], turn: Color) -> Reindex<'a> {
        let n = ix.slots.len();
        debug_assert!(
            is_plain(sq[0]),
            "a canonical board's white king is on files a-d"
        );
        let base = ix.encode(turn, &sq[..n]);
        let mut before = [0u64; 8];
        for &(first, end) in &ix.equal_runs {
            before[first..end].fill(ix.run_value(first, &sq[first..end]));
        }
        Reindex {
            ix,
            sq: *sq,
            turn,
            base,
            before,
            i: 0,
        }
    }

    /// Selects slot `i` (a king or a piece) for [`index`](Self::index).
    #[inline]
    pub(super) fn select(&mut self, i: usize) {
        self.i = i;
    }

    /// The index of the board with the selected slot's piece on `to` instead.
    #[inline(always)]
    pub(super) fn index(&self, to: u8) -> u64 {
        let (ix, i) = (self.ix, self.i);
        let (place, at) = (ix.place[i], self.sq[i]);
        if i == 0 {
            if is_plain(to) {
                return (self.base + king_digit(to) * place) - king_digit(at) * place;
            }
            let mut moved = self.sq;
            moved[i] = to;
            return ix
                .rank_squares_with_transform(self.turn, &moved[..ix.slots.len()])
                .0;
        }
        match ix.run_of[i] {
            None => (self.base + u64::from(to) * place) - u64::from(at) * place,
            // A pair of equal pieces: the moved one and the other, in order.
            Some((first, end)) if end - first == 2 => {
                let other = self.sq[first + end - 1 - i];
                let (lo, hi) = if to < other { (to, other) } else { (other, to) };
                (self.base + u64::from(lo) * ix.place[first] + u64::from(hi) * ix.place[first + 1])
                    - self.before[i]
            }
            Some((first, end)) => {
                let mut squares = [0u8; 8];
                let run = &mut squares[..end - first];
                run.copy_from_slice(&self.sq[first..end]);
                run[i - first] = to;
                run.sort_unstable();
                (self.base + ix.run_value(first, run)) - self.before[i]
            }
        }
    }
}
