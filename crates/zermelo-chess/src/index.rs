//! Dense indexing of one material slice, with symmetry reduction.
//!
//! An index is `side to move`, then one digit per piece. Without pawns the digits follow the
//! slot order white king, black king, white pieces, black pieces (strongest first), and the
//! white king is brought into the triangle a1-d1-d4 by one of the 8 board symmetries (10
//! squares). With pawns only the left-right mirror applies, the white king stands on files a-d
//! (32 squares), pawns use 48 digits (ranks 2-7), and the pawn digits come first (right after
//! the side to move): all positions of one *pawn configuration* and side to move form one
//! contiguous block of [`block_len`](Indexer::block_len) indices, so that the generator can
//! solve a table one group of pawn configurations at a time (pawn moves are irreversible).
//! Several indices can describe the same position (equal pieces swapped, or the white king on
//! the diagonal): the *canonical* one is the least, and every other index is marked illegal,
//! as are positions with overlapping pieces or the side not to move in check.

use crate::material::Material;
use crate::position::Position;
use crate::square::{Color, Piece, Role, Square};

/// Rank and unrank for one material (in its stored orientation).
#[derive(Clone, Debug)]
pub struct Indexer {
    material: Material,
    slots: Vec<Piece>,
    pawns: bool,
    size: u64,
    /// For each white-king square, the symmetries that bring it into the king region.
    transforms: [Symmetries; 64],
    /// King region square -> digit (or `u8::MAX`), and digit -> square.
    region_digit: [u8; 64],
    region: Vec<Square>,
    /// The place value of each slot's digit (the side to move's is `size / 2`), and what a
    /// slot's square minus `digit_base` gives as its digit (8 for pawns, 0 otherwise).
    place: [u64; 8],
    digit_base: [u8; 8],
    /// Runs of equal pieces (`start..end`, at least two long), sorted when ranking.
    equal_runs: Vec<(usize, usize)>,
    /// The slots from the least significant digit to the most significant.
    digit_order: Vec<usize>,
    /// Per white-king square: the identity is its only symmetry into the region, so a
    /// position's index is its digits' encoding, equal pieces sorted ([`Indexer::is_plain`]).
    plain: [bool; 64],
    /// Per slot: the run of equal pieces it belongs to, if any.
    run_of: [Option<(usize, usize)>; 8],
    /// Indices per pawn configuration and side to move (`size / 2` without pawns).
    block_len: u64,
}

impl Indexer {
    /// The indexer of `material` (either orientation; the table stores this one).
    pub fn new(material: &Material) -> Indexer {
        let pawns = material.has_pawns();
        let mut slots = vec![king(Color::White), king(Color::Black)];
        for color in [Color::White, Color::Black] {
            for &role in material.side(color) {
                slots.push(Piece { color, role });
            }
        }
        let in_region = |s: Square| {
            if pawns {
                s.file() <= 3
            } else {
                s.file() <= 3 && s.rank() <= s.file()
            }
        };
        let region: Vec<Square> = (0..64)
            .filter_map(Square::new)
            .filter(|&s| in_region(s))
            .collect();
        let mut region_digit = [u8::MAX; 64];
        for (i, s) in region.iter().enumerate() {
            region_digit[s.index()] = i as u8;
        }
        let allowed: &[u8] = if pawns {
            &[0, 1]
        } else {
            &[0, 1, 2, 3, 4, 5, 6, 7]
        };
        let transforms: [Symmetries; 64] = std::array::from_fn(|s| {
            let s = Square::new(s as u8).expect("0..64");
            let mut out = Symmetries { len: 0, t: [0; 2] };
            for &t in allowed {
                if in_region(s.transform(t)) {
                    // A square and its image under a symmetry other than the identity are
                    // both in the region only on the diagonal that symmetry keeps: two at most.
                    out.t[out.len as usize] = t;
                    out.len += 1;
                }
            }
            out
        });
        let mut size = 2 * region.len() as u64 * 64;
        for p in &slots[2..] {
            size *= if p.role == Role::Pawn { 48 } else { 64 };
        }
        // Most significant first: the pawns, then the kings and pieces, each in slot order.
        let mut digit_order: Vec<usize> = (0..slots.len())
            .filter(|&i| slots[i].role == Role::Pawn)
            .chain((0..slots.len()).filter(|&i| slots[i].role != Role::Pawn))
            .collect();
        digit_order.reverse();
        let mut place = [0u64; 8];
        let mut digit_base = [0u8; 8];
        let mut value = 1u64;
        let mut block_len = 0;
        for &i in &digit_order {
            if slots[i].role == Role::Pawn && block_len == 0 {
                block_len = value;
            }
            place[i] = value;
            let radix = match (i, slots[i].role) {
                (0, _) => region.len() as u64,
                (_, Role::Pawn) => 48,
                _ => 64,
            };
            digit_base[i] = if slots[i].role == Role::Pawn { 8 } else { 0 };
            value *= radix;
        }
        if block_len == 0 {
            block_len = value;
        }
        let mut equal_runs = Vec::new();
        let mut i = 2;
        while i < slots.len() {
            let mut j = i + 1;
            while j < slots.len() && slots[j] == slots[i] {
                j += 1;
            }
            if j - i > 1 {
                equal_runs.push((i, j));
            }
            i = j;
        }
        let plain: [bool; 64] = std::array::from_fn(|s| transforms[s].as_slice() == [0]);
        let mut run_of = [None; 8];
        for &(i, j) in &equal_runs {
            run_of[i..j].fill(Some((i, j)));
        }
        Indexer {
            place,
            digit_base,
            plain,
            run_of,
            equal_runs,
            digit_order,
            block_len,
            material: material.clone(),
            slots,
            pawns,
            size,
            transforms,
            region_digit,
            region,
        }
    }

    /// The material indexed.
    pub fn material(&self) -> &Material {
        &self.material
    }

    /// Number of indices (legal or not).
    pub fn size(&self) -> u64 {
        self.size
    }

    /// The squares of the pieces in slot order, or `None` if `pos` has another material.
    fn squares(&self, pos: &Position) -> Option<[Square; 8]> {
        let mut out = [Square::new(0).expect("a1"); 8];
        let mut filled = [false; 8];
        for (sq, p) in pos.pieces() {
            let slot = (0..self.slots.len()).find(|&i| !filled[i] && self.slots[i] == p)?;
            filled[slot] = true;
            out[slot] = sq;
        }
        filled[..self.slots.len()].iter().all(|&f| f).then_some(out)
    }

    /// The canonical index of `pos` and the symmetry that maps `pos` onto it. `pos` must have
    /// exactly this material (in this orientation); returns `None` otherwise.
    pub fn rank_with_transform(&self, pos: &Position) -> Option<(u64, u8)> {
        let squares = self.squares(pos)?;
        let n = self.slots.len();
        let mut sq = [0u8; 8];
        for (out, s) in sq.iter_mut().zip(&squares[..n]) {
            *out = s.index() as u8;
        }
        Some(self.rank_squares_with_transform(pos.turn(), &sq[..n]))
    }

    /// The canonical index of `pos` (see [`rank_with_transform`](Self::rank_with_transform)).
    pub fn rank(&self, pos: &Position) -> Option<u64> {
        self.rank_with_transform(pos).map(|(i, _)| i)
    }

    #[inline]
    fn sort_equal_pieces(&self, sq: &mut [u8]) {
        for &(i, j) in &self.equal_runs {
            sq[i..j].sort_unstable();
        }
    }

    #[inline]
    fn encode(&self, turn: Color, sq: &[u8]) -> u64 {
        let mut idx = turn.index() as u64 * (self.size / 2)
            + u64::from(self.region_digit[sq[0] as usize]) * self.place[0];
        for ((&s, &base), &place) in sq.iter().zip(&self.digit_base).zip(&self.place).skip(1) {
            idx += u64::from(s - base) * place;
        }
        idx
    }

    /// The position of index `idx`, or `None` if pieces overlap or `idx` is out of range. The
    /// position may still be illegal or non-canonical (see [`legal`](Self::legal)).
    pub fn unrank(&self, idx: u64) -> Option<Position> {
        if idx >= self.size {
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

    /// The pieces in slot order: white king, black king, white pieces, black pieces.
    pub(crate) fn slots(&self) -> &[Piece] {
        &self.slots
    }

    /// The side to move and the square of each slot of index `idx` (`idx < size`); pieces may
    /// overlap.
    #[inline]
    pub(crate) fn decode(&self, mut idx: u64) -> (Color, [u8; 8]) {
        // The squares are gathered in one word: eight byte stores read back as one word
        // (copying the board) stall the load until the stores retire.
        let mut packed = 0u64;
        for &i in &self.digit_order {
            let s = if i == 0 {
                // The white king's region: 32 squares with pawns, 10 without (constant
                // divisors, no `div`).
                let (q, r) = match self.region.len() {
                    32 => (idx >> 5, idx & 31),
                    10 => (idx / 10, idx % 10),
                    n => (idx / n as u64, idx % n as u64),
                };
                idx = q;
                self.region[r as usize].index() as u64
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

    /// Indices per pawn configuration and side to move: index `i` has pawn configuration
    /// `(i % (size / 2)) / block_len` (always 0 without pawns).
    pub fn block_len(&self) -> u64 {
        self.block_len
    }

    /// Number of pawn configurations (48 to the number of pawns; 1 without pawns), valid or
    /// not.
    pub fn pawn_configs(&self) -> u64 {
        self.size / 2 / self.block_len
    }

    /// The pawn squares of configuration `config` in slot order (the pawn slots are
    /// [`pawn_slots`](Self::pawn_slots)).
    pub(crate) fn config_squares(&self, config: u64) -> Vec<u8> {
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
    pub(crate) fn config_of(&self, squares: &[u8]) -> u64 {
        squares.iter().fold(0, |c, &s| c * 48 + u64::from(s - 8))
    }

    /// The stage of pawn configuration `config`: the sum of its pawns' advancement, each
    /// counted from its own side (pawn pushes only raise it).
    pub(crate) fn config_stage(&self, config: u64) -> u32 {
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

    /// The slots holding pawns, in slot order.
    pub(crate) fn pawn_slots(&self) -> impl DoubleEndedIterator<Item = usize> + '_ {
        (0..self.slots.len()).filter(|&i| self.slots[i].role == Role::Pawn)
    }

    /// Whether configuration `config` can hold positions: pawns on distinct squares, equal
    /// pawns in ascending order (the canonical order).
    pub(crate) fn config_is_valid(&self, config: u64) -> bool {
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
    pub(crate) fn mirror_config(&self, config: u64) -> u64 {
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
    /// `squares` (no overlaps), and the symmetry that maps the position onto it.
    #[inline]
    pub(crate) fn rank_squares_with_transform(&self, turn: Color, squares: &[u8]) -> (u64, u8) {
        let n = self.slots.len();
        if self.plain[squares[0] as usize] {
            if self.equal_runs.is_empty() {
                return (self.encode(turn, &squares[..n]), 0);
            }
            let mut sq = [0u8; 8];
            sq[..n].copy_from_slice(&squares[..n]);
            self.sort_equal_pieces(&mut sq[..n]);
            return (self.encode(turn, &sq[..n]), 0);
        }
        let table = &TRANSFORMS;
        let transforms = self.transforms[squares[0] as usize].as_slice();
        if let [t] = *transforms {
            // Off the long diagonals: one symmetry brings the white king into its region.
            let map = &table[t as usize];
            let mut sq = [0u8; 8];
            for (out, &s) in sq.iter_mut().zip(&squares[..n]) {
                *out = map[s as usize];
            }
            self.sort_equal_pieces(&mut sq[..n]);
            return (self.encode(turn, &sq[..n]), t);
        }
        if let ([t1, t2], true) = (transforms, self.equal_runs.is_empty()) {
            let (t1, t2) = (*t1, *t2);
            // The white king on a long diagonal, two symmetries keep it there (the identity
            // and a flip along it, or two that bring it from outside): both give it the same
            // square, so the smaller index is the one with the smaller square at the first
            // piece they place apart (the slots are digits from the most significant, and
            // without equal pieces nothing is sorted). Ties keep the first, as below.
            let (a, b) = (&table[t1 as usize], &table[t2 as usize]);
            let t = squares[1..n]
                .iter()
                .map(|&s| (a[s as usize], b[s as usize]))
                .find(|(x, y)| x != y)
                .map_or(t1, |(x, y)| if y < x { t2 } else { t1 });
            let mut sq = [0u8; 8];
            for i in 0..n {
                sq[i] = table[t as usize][squares[i] as usize];
            }
            return (self.encode(turn, &sq[..n]), t);
        }
        let mut best = (u64::MAX, 0);
        for &t in transforms {
            let mut sq = [0u8; 8];
            for i in 0..n {
                sq[i] = table[t as usize][squares[i] as usize];
            }
            self.sort_equal_pieces(&mut sq[..n]);
            let idx = self.encode(turn, &sq[..n]);
            if idx < best.0 {
                best = (idx, t);
            }
        }
        best
    }

    /// The canonical index (see [`rank_squares_with_transform`](Self::rank_squares_with_transform)).
    #[inline]
    pub(crate) fn rank_squares(&self, turn: Color, squares: &[u8]) -> u64 {
        self.rank_squares_with_transform(turn, squares).0
    }

    /// Whether every position with the white king on `wk` is indexed as it stands (its equal
    /// pieces sorted): the identity is the only symmetry that keeps that king in its region.
    /// Then the canonical index of such a position is the encoding of its squares, a decoded
    /// index is canonical exactly when each run of equal pieces is in increasing order
    /// ([`runs_sorted`](Self::runs_sorted)), and moving the piece of slot `i >= 1` with no
    /// equal from `a` to `b` (the white king staying) changes it by `(b - a) * place(i)`
    /// ([`Indexer::place`]); the white king's own move between two such squares changes its
    /// digit ([`king_digit`](Self::king_digit)) alone.
    #[inline]
    pub(crate) fn is_plain(&self, wk: u8) -> bool {
        self.plain[wk as usize]
    }

    /// The first slot from which on un-moves of a canonical board keep its symmetry, the
    /// identity: 1 where the white king's square is plain ([`is_plain`](Self::is_plain)).
    /// With the white king on the long diagonal the identity and the flip along it compete,
    /// and the first piece (or run of equal pieces, sorted) that they place apart decides
    /// between them, for the identity on a canonical board. Moving a later piece (of a later
    /// run) leaves that decision as it is, so the predecessor's index is its squares'
    /// encoding, as on a plain square; the slots up to the deciding one need ranking. `n`
    /// (the slot count) when the last piece or none decides.
    #[inline]
    pub(crate) fn settled_from(&self, squares: &[u8]) -> usize {
        let n = self.slots.len();
        let flip = match *self.transforms[squares[0] as usize].as_slice() {
            [0] => return 1,
            [0, flip] => flip,
            _ => return n,
        };
        let table = &TRANSFORMS[flip as usize];
        let mut j = 1;
        while j < n {
            let end = self.run_of[j].map_or(j + 1, |(_, end)| end);
            let mut image = [0u8; 8];
            for (out, &s) in image[j..end].iter_mut().zip(&squares[j..end]) {
                *out = table[s as usize];
            }
            image[j..end].sort_unstable();
            if image[j..end] != squares[j..end] {
                return end;
            }
            j = end;
        }
        n
    }

    /// The white king's digit for square `wk` of its region.
    #[inline]
    pub(crate) fn king_digit(&self, wk: u8) -> u64 {
        u64::from(self.region_digit[wk as usize])
    }

    /// Whether the squares of every run of equal pieces increase (`squares` in slot order).
    #[inline]
    pub(crate) fn runs_sorted(&self, squares: &[u8]) -> bool {
        self.equal_runs
            .iter()
            .all(|&(i, j)| squares[i..j].windows(2).all(|w| w[0] < w[1]))
    }

    /// The run of equal pieces slot `i` belongs to (`start..end`), if any.
    #[inline]
    pub(crate) fn run_of(&self, i: usize) -> Option<(usize, usize)> {
        self.run_of[i]
    }

    /// The place value of slot `i`'s digit (a square of a king or piece counts once; see
    /// [`is_plain`](Self::is_plain)).
    #[inline]
    pub(crate) fn place(&self, i: usize) -> u64 {
        self.place[i]
    }

    /// Whether pawns restrict the symmetry to the left-right mirror.
    pub fn has_pawns(&self) -> bool {
        self.pawns
    }
}

/// The symmetries of a white-king square that bring it into its region (one or two).
#[derive(Clone, Copy, Debug)]
struct Symmetries {
    len: u8,
    t: [u8; 2],
}

impl Symmetries {
    #[inline]
    fn as_slice(&self) -> &[u8] {
        &self.t[..self.len as usize]
    }
}

/// `[symmetry][square]`: [`Square::transform`] as a table, computed at compile time (bit 0
/// mirrors files, bit 1 ranks, bit 2 swaps files and ranks after the mirrors).
static TRANSFORMS: [[u8; 64]; 8] = build_transforms();

const fn build_transforms() -> [[u8; 64]; 8] {
    let mut out = [[0u8; 64]; 8];
    let mut t = 0;
    while t < 8 {
        let mut s = 0;
        while s < 64 {
            let (mut f, mut r) = (s % 8, s / 8);
            if t & 1 != 0 {
                f = 7 - f;
            }
            if t & 2 != 0 {
                r = 7 - r;
            }
            if t & 4 != 0 {
                (f, r) = (r, f);
            }
            out[t][s] = (r * 8 + f) as u8;
            s += 1;
        }
        t += 1;
    }
    out
}

fn king(color: Color) -> Piece {
    Piece {
        color,
        role: Role::King,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check_inverse(material: &str, step: u64) {
        let ix = Indexer::new(&material.parse().unwrap());
        let mut legal = 0;
        let mut idx = 0;
        while idx < ix.size() {
            if let Some(pos) = ix.legal(idx) {
                legal += 1;
                assert_eq!(ix.rank(&pos), Some(idx));
                // Every symmetric image ranks to the same index.
                let allowed = if ix.has_pawns() { 2 } else { 8 };
                for t in 0..allowed {
                    let mut img = Position::empty(pos.turn());
                    for (s, p) in pos.pieces() {
                        img.set(s.transform(t), Some(p));
                    }
                    assert_eq!(ix.rank(&img), Some(idx), "{material} {t} {pos:?}");
                }
            }
            idx += step;
        }
        assert!(legal > 0);
    }

    /// Ranking (with its shortcut for two symmetries) gives the smallest index over the
    /// symmetries and the first symmetry that reaches it, for every symmetric image.
    #[test]
    fn ranking_squares_agrees_with_ranking_positions() {
        for (material, step) in [("KQvKR", 3), ("KRNvKB", 20_011), ("KBBvK", 5), ("KRPvK", 7)] {
            let ix = Indexer::new(&material.parse().unwrap());
            let allowed = if ix.has_pawns() { 2 } else { 8 };
            let n = ix.slots.len();
            let mut two = 0;
            let mut idx = 0;
            while idx < ix.size() {
                if let Some(pos) = ix.legal(idx) {
                    for t in 0..allowed {
                        let mut img = Position::empty(pos.turn());
                        for (s, p) in pos.pieces() {
                            img.set(s.transform(t), Some(p));
                        }
                        let squares = ix.squares(&img).unwrap();
                        let sq: Vec<u8> = squares[..n].iter().map(|s| s.index() as u8).collect();
                        two += usize::from(ix.transforms[sq[0] as usize].len == 2);
                        // The definition: the smallest index over the symmetries that
                        // bring the white king into its region, the first on a tie.
                        let mut best = (u64::MAX, 0);
                        for &t in ix.transforms[sq[0] as usize].as_slice() {
                            let mut moved: Vec<u8> = squares[..n]
                                .iter()
                                .map(|s| s.transform(t).index() as u8)
                                .collect();
                            ix.sort_equal_pieces(&mut moved);
                            let i = ix.encode(img.turn(), &moved);
                            if i < best.0 {
                                best = (i, t);
                            }
                        }
                        assert_eq!(
                            ix.rank_squares_with_transform(img.turn(), &sq),
                            best,
                            "{material} {img:?}"
                        );
                        assert_eq!(ix.rank_with_transform(&img), Some(best));
                    }
                }
                idx += step;
            }
            assert!(
                two > 0 || ix.has_pawns(),
                "{material}: the shortcut was not reached"
            );
        }
    }

    #[test]
    fn transform_table_is_square_transform() {
        for t in 0..8u8 {
            for s in 0..64u8 {
                let want = Square::new(s).unwrap().transform(t).index() as u8;
                assert_eq!(TRANSFORMS[t as usize][s as usize], want, "{t} {s}");
            }
        }
    }

    #[test]
    fn rank_unrank_inverse() {
        check_inverse("KQvK", 1);
        check_inverse("KPvK", 1);
        check_inverse("KBBvK", 7);
        check_inverse("KPvKP", 13);
        check_inverse("KRvKN", 11);
    }

    /// With pawns, the pawn digits come first: every index of one pawn configuration and
    /// side to move lies in one block, and mirroring a position mirrors its configuration.
    #[test]
    fn pawn_configurations_are_contiguous_blocks() {
        for material in ["KPvK", "KPvKP", "KRPvKR", "KPPvKP", "KNNvKP"] {
            let ix = Indexer::new(&material.parse().unwrap());
            let half = ix.size() / 2;
            let pawns: Vec<usize> = ix.pawn_slots().collect();
            let step = ix.size() / 3000 + 1;
            let mut idx = 17;
            let mut seen = 0;
            while idx < ix.size() {
                if let Some(pos) = ix.legal(idx) {
                    seen += 1;
                    let config = (idx % half) / ix.block_len();
                    assert!(ix.config_is_valid(config), "{material} {idx}");
                    let (_, sq) = ix.decode(idx);
                    let squares: Vec<u8> = pawns.iter().map(|&i| sq[i]).collect();
                    assert_eq!(ix.config_squares(config), squares);
                    assert_eq!(ix.config_of(&squares), config);
                    let mut img = Position::empty(pos.turn());
                    for (s, p) in pos.pieces() {
                        img.set(s.transform(1), Some(p));
                    }
                    // The image has its white king on files e-h: it ranks back to `idx`.
                    assert_eq!(ix.rank(&img), Some(idx));
                    // Mirroring only the pawns gives the mirror configuration's squares.
                    let m = ix.mirror_config(config);
                    assert!(ix.config_is_valid(m));
                    assert_eq!(ix.mirror_config(m), config);
                    let mut want: Vec<u8> = squares.iter().map(|s| s ^ 7).collect();
                    let mut got = ix.config_squares(m);
                    want.sort_unstable();
                    got.sort_unstable();
                    assert_eq!(got, want);
                }
                idx += step;
            }
            assert!(seen > 50, "{material}: {seen}");
            assert_eq!(ix.pawn_configs() * ix.block_len() * 2, ix.size());
        }
        let pawnless = Indexer::new(&"KRvKN".parse().unwrap());
        assert_eq!(pawnless.pawn_configs(), 1);
        assert_eq!(pawnless.block_len(), pawnless.size() / 2);
    }

    #[test]
    fn sizes() {
        assert_eq!(
            Indexer::new(&"KQvK".parse().unwrap()).size(),
            2 * 10 * 64 * 64
        );
        assert_eq!(
            Indexer::new(&"KPvKP".parse().unwrap()).size(),
            2 * 32 * 64 * 48 * 48
        );
    }
}
