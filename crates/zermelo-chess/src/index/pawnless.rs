//! The index of a table without pawns: the two kings as one of their 462 placements under the
//! 8 board symmetries, then each other piece as the rank of its square among the squares still
//! free, equal pieces as one combination.
//!
//! An index is, most significant first:
//!
//! 1. the side to move (white 0, black 1);
//! 2. the king placement `kk` (`0..462`, [`KINGS`]): the white king in the triangle a1-d1-d4
//!    (10 squares), and when it stands on the diagonal a1-d4 the black king on or below the
//!    diagonal a1-h8 (rank <= file); kings neither on one square nor adjacent;
//! 3. one digit per *group* of pieces, in slot order (white's pieces strongest first, then
//!    black's): a piece with no equal is the rank of its square among the squares not taken by
//!    the kings and the pieces of earlier groups (`square` less the taken squares below it,
//!    radix 62, 61, 60, ...); a run of `r` equal pieces is one digit, the colexicographic rank
//!    ([`combination`]) of their squares' ranks among those same free squares (radix
//!    `C(free, r)`).
//!
//! So a table has `2 x 462 x P` indices, `P` the product of the groups' radices (KRBvKR:
//! `62 x 61 x 60`; KQQQQvK: `C(62, 4)`). A king placement's `P` indices with one side to move
//! are one block: a move of a piece other than a king keeps the king placement, so its
//! predecessors and successors lie in one block of the other side's half (what a solver
//! streaming the state from disk reads together).
//!
//! Every legal position has one index, the least over the symmetries that bring its kings into
//! a placement above. Only where both kings stand on the diagonal a1-h8 do two symmetries do so
//! (the identity and the flip along it): the first group the flip changes decides, and the
//! other index is a hole, as is every position with the side not to move in check.

use super::combination;
use super::symmetry::{transform, DIAGONAL_FLIP, TRANSFORMS};
use crate::square::{Color, Piece};

/// The legal king placements (white king, black king), in index order: the white king's
/// square ascending, then the black king's.
pub(super) static KINGS: [(u8, u8); KING_PLACEMENTS] = build_kings();

/// How many placements of the two kings the symmetries leave (Syzygy's count too).
pub(super) const KING_PLACEMENTS: usize = 462;

/// What ranking needs of a pair of king squares (white, black), for all 4,096.
#[derive(Clone, Copy, Debug)]
struct KingPair {
    /// The placement's number (`KINGS`) after the symmetry.
    kk: u16,
    /// The symmetries that bring the pair into a placement (ascending): one, or two (the
    /// second is the first followed by the diagonal flip) when both kings end on a1-h8; none
    /// for kings on one square or adjacent.
    t: [u8; 2],
    len: u8,
}

static PAIRS: [KingPair; 4096] = build_pairs();

/// Per king placement, the 62 squares the kings leave free, ascending.
static FREE_OF_KINGS: [[u8; 62]; KING_PLACEMENTS] = build_free();

const fn build_free() -> [[u8; 62]; KING_PLACEMENTS] {
    let mut out = [[0u8; 62]; KING_PLACEMENTS];
    let mut k = 0;
    while k < KING_PLACEMENTS {
        let (wk, bk) = KINGS[k];
        let mut s = 0;
        let mut j = 0;
        while s < 64 {
            if s != wk && s != bk {
                out[k][j] = s;
                j += 1;
            }
            s += 1;
        }
        k += 1;
    }
    out
}

const fn in_triangle(s: u8) -> bool {
    s % 8 <= 3 && s / 8 <= s % 8
}

const fn on_diagonal(s: u8) -> bool {
    s % 8 == s / 8
}

/// Whether the kings of a canonical placement may stand on `wk` and `bk`.
const fn is_placement(wk: u8, bk: u8) -> bool {
    in_triangle(wk) && !touching(wk, bk) && (!on_diagonal(wk) || bk / 8 <= bk % 8)
}

/// The same square or adjacent ones.
const fn touching(a: u8, b: u8) -> bool {
    (a % 8).abs_diff(b % 8) <= 1 && (a / 8).abs_diff(b / 8) <= 1
}

const fn build_kings() -> [(u8, u8); KING_PLACEMENTS] {
    let mut out = [(0u8, 0u8); KING_PLACEMENTS];
    let mut k = 0;
    let mut wk = 0;
    while wk < 64 {
        let mut bk = 0;
        while bk < 64 {
            if is_placement(wk, bk) {
                out[k] = (wk, bk);
                k += 1;
            }
            bk += 1;
        }
        wk += 1;
    }
    assert!(k == KING_PLACEMENTS);
    out
}

const fn build_pairs() -> [KingPair; 4096] {
    let mut number = [u16::MAX; 4096];
    let mut k = 0;
    while k < KING_PLACEMENTS {
        let (wk, bk) = KINGS[k];
        number[(wk as usize) << 6 | bk as usize] = k as u16;
        k += 1;
    }
    let mut out = [KingPair {
        kk: u16::MAX,
        t: [0; 2],
        len: 0,
    }; 4096];
    let mut p = 0;
    while p < 4096 {
        let (wk, bk) = ((p >> 6) as u8, (p & 63) as u8);
        let mut t = 0;
        while t < 8 {
            let (w, b) = (transform(t, wk), transform(t, bk));
            if is_placement(w, b) {
                let pair = &mut out[p];
                pair.kk = number[(w as usize) << 6 | b as usize];
                pair.t[pair.len as usize] = t;
                pair.len += 1;
            }
            t += 1;
        }
        p += 1;
    }
    out
}

#[inline]
fn pair(wk: u8, bk: u8) -> KingPair {
    PAIRS[(wk as usize) << 6 | bk as usize]
}

/// The rank of square `s` among the squares not taken by the first `len` slots of `sq` (`s`
/// not among them): `s` less the taken squares below it, counted by comparisons over a fixed
/// eight slots (branch-free; without the POPCNT instruction, which the default x86-64 target
/// lacks, a population count of a bitboard is ~15 instructions).
#[inline]
fn free_rank(sq: &[u8; 8], len: usize, s: u8) -> u8 {
    let mut below = 0;
    for (k, &t) in sq.iter().enumerate() {
        below += u8::from((k < len) & (t < s));
    }
    s - below
}

/// Division by a constant as a multiplication (exact for every `u32` numerator: Lemire,
/// Kaser and Kurz, "Faster remainder by direct computation", 2019).
#[derive(Clone, Copy, Debug, Default)]
struct Divisor {
    d: u32,
    m: u64,
}

impl Divisor {
    fn new(d: u64) -> Divisor {
        let d = u32::try_from(d).unwrap_or(u32::MAX).max(2);
        Divisor {
            d,
            m: u64::MAX / u64::from(d) + 1,
        }
    }

    /// `(n / d, n % d)`.
    #[inline]
    fn div_rem(self, n: u32) -> (u32, u32) {
        let q = ((u128::from(self.m) * u128::from(n)) >> 64) as u32;
        (q, n - q * self.d)
    }
}

/// A piece with no equal, or a run of equal pieces: one digit of the index.
#[derive(Clone, Copy, Debug, Default)]
struct Group {
    /// Its slots, `start..end`.
    start: u8,
    end: u8,
    /// How many values the digit takes, and its place value.
    radix: u64,
    place: u64,
    div: Divisor,
}

/// The pawnless scheme for one material (see the module's documentation).
#[derive(Clone, Debug)]
pub(super) struct Pawnless {
    n: usize,
    /// Indices per king placement and side to move (`P`).
    per_kings: u64,
    half: u64,
    groups: [Group; 6],
    count: usize,
    /// Slot -> its group (slots 2 and up).
    group_of: [u8; 8],
    /// `P` fits in a `u32`: the digits are split by multiplications ([`Divisor`]).
    small: bool,
    /// The first group from which on every group is a single piece.
    singles_from: usize,
    /// `2^64 / P + 1`, which divides every index with one side to move by `P` as a
    /// multiplication when their product with `P` stays below `2^64` (the error term,
    /// `index / 2^64`, is then below `1 / P`), as it does up to seven pieces.
    kings_div: Option<u64>,
}

impl Pawnless {
    /// The scheme of the pieces in slot order (white king, black king, then the others; equal
    /// pieces next to each other).
    pub(super) fn new(slots: &[Piece]) -> Pawnless {
        let n = slots.len();
        let mut groups = [Group::default(); 6];
        let mut group_of = [0u8; 8];
        let mut count = 0;
        let mut i = 2;
        while i < n {
            let mut j = i + 1;
            while j < n && slots[j] == slots[i] {
                j += 1;
            }
            let free = 62 - (i - 2);
            groups[count] = Group {
                start: i as u8,
                end: j as u8,
                radix: combination::count(free, j - i),
                ..Group::default()
            };
            group_of[i..j].fill(count as u8);
            count += 1;
            i = j;
        }
        let mut place = 1u64;
        for g in groups[..count].iter_mut().rev() {
            g.place = place;
            g.div = Divisor::new(g.radix);
            place *= g.radix;
        }
        let half = KING_PLACEMENTS as u64 * place;
        Pawnless {
            n,
            per_kings: place,
            half,
            groups,
            count,
            group_of,
            small: place <= u64::from(u32::MAX),
            singles_from: groups[..count]
                .iter()
                .rposition(|g| g.end - g.start > 1)
                .map_or(0, |g| g + 1),
            kings_div: (u64::MAX / place)
                .checked_add(1)
                .filter(|_| u128::from(half) * u128::from(place) < 1 << 64),
        }
    }

    pub(super) fn size(&self) -> u64 {
        2 * self.half
    }

    /// Indices per king placement and side to move.
    pub(super) fn per_kings(&self) -> u64 {
        self.per_kings
    }

    /// The side to move and the square of each slot of index `idx` (`idx < size`).
    #[inline]
    pub(super) fn decode(&self, idx: u64) -> (Color, [u8; 8]) {
        let (turn, rest) = if idx >= self.half {
            (Color::Black, idx - self.half)
        } else {
            (Color::White, idx)
        };
        let kk = match self.kings_div {
            Some(m) => ((u128::from(rest) * u128::from(m)) >> 64) as u64,
            None => rest / self.per_kings,
        };
        let p = rest - kk * self.per_kings;
        // Without equal pieces, a loop of the exact length per piece count (unrolled, no
        // branch per piece): the common case.
        let sq = match (self.singles(), self.count) {
            (true, 1) => self.decode_singles::<1>(kk, p),
            (true, 2) => self.decode_singles::<2>(kk, p),
            (true, 3) => self.decode_singles::<3>(kk, p),
            (true, 4) => self.decode_singles::<4>(kk, p),
            _ => self.decode_groups(kk, p),
        };
        (turn, sq)
    }

    /// The digit times the place value of each of `K` single pieces on `sq`.
    #[inline(always)]
    fn single_values<const K: usize>(&self, sq: &[u8; 8], values: &mut [u64; 6]) {
        for j in 0..K {
            let s = sq[j + 2];
            let mut below = 0;
            for &t in &sq[..j + 2] {
                below += u8::from(t < s);
            }
            values[j] = u64::from(s - below) * self.groups[j].place;
        }
    }

    /// Whether every group is a single piece, and the digits split by multiplications.
    #[inline]
    fn singles(&self) -> bool {
        self.small && self.count == self.n - 2
    }

    /// The squares of placement `kk` and pieces' value `p` for `K` pieces, none equal.
    ///
    /// Each piece's place among the 62 squares free of the kings (`FREE_OF_KINGS`) is its free
    /// rank plus one for each earlier piece at or below it, those taken in ascending order
    /// (`placed`, kept sorted by a compare-and-swap pass).
    #[inline(always)]
    fn decode_singles<const K: usize>(&self, kk: u64, p: u64) -> [u8; 8] {
        let mut digits = [0u8; K];
        let mut q = p as u32;
        for k in (0..K).rev() {
            let (next, r) = self.groups[k].div.div_rem(q);
            digits[k] = r as u8;
            q = next;
        }
        let (wk, bk) = KINGS[kk as usize];
        let free = &FREE_OF_KINGS[kk as usize];
        // The squares are gathered in one word: eight byte stores read back as one word
        // (copying the board) stall the load until the stores retire.
        let mut packed = u64::from(wk) | u64::from(bk) << 8;
        let mut placed = [u8::MAX; K];
        for j in 0..K {
            let mut x = digits[j];
            for &c in &placed[..j] {
                x += u8::from(c <= x);
            }
            packed |= u64::from(free[x as usize]) << (8 * (j + 2));
            placed[j] = x;
            for k in (0..j).rev() {
                let (a, b) = (placed[k], placed[k + 1]);
                placed[k] = a.min(b);
                placed[k + 1] = a.max(b);
            }
        }
        packed.to_le_bytes()
    }

    /// [`decode_singles`](Self::decode_singles) for any groups: runs of equal pieces unranked
    /// from their combination, digits of any size.
    fn decode_groups(&self, kk: u64, mut p: u64) -> [u8; 8] {
        let mut digits = [0u64; 6];
        let groups = &self.groups[..self.count];
        if self.small {
            let mut q = p as u32;
            for (d, g) in digits.iter_mut().zip(groups).rev() {
                let (next, r) = g.div.div_rem(q);
                *d = u64::from(r);
                q = next;
            }
        } else {
            for (d, g) in digits.iter_mut().zip(groups).rev() {
                *d = p % g.radix;
                p /= g.radix;
            }
        }
        let (wk, bk) = KINGS[kk as usize];
        let mut packed = u64::from(wk) | u64::from(bk) << 8;
        let free = &FREE_OF_KINGS[kk as usize];
        let mut placed = [u8::MAX; 8];
        let mut m = 0;
        for (&d, g) in digits.iter().zip(groups) {
            let (a, b) = (g.start as usize, g.end as usize);
            let mut xs = [0u8; combination::MAX_RUN];
            let xs = &mut xs[..b - a];
            if b - a == 1 {
                xs[0] = d as u8;
            } else {
                combination::unrank(d, 64 - a, xs);
            }
            let before = m;
            for (k, x) in xs.iter_mut().enumerate() {
                for &c in &placed[..before] {
                    *x += u8::from(c <= *x);
                }
                packed |= u64::from(free[*x as usize]) << (8 * (a + k));
            }
            for &x in xs.iter() {
                // Insert in order: shift the larger ones up.
                let mut j = m;
                while j > 0 && placed[j - 1] > x {
                    placed[j] = placed[j - 1];
                    j -= 1;
                }
                placed[j] = x;
                m += 1;
            }
        }
        packed.to_le_bytes()
    }

    /// The value of the digits of groups `from..` for pieces on `sq` (slot order).
    #[inline]
    fn pieces_value(&self, sq: &[u8; 8], from: usize) -> u64 {
        if from == 0 && self.singles() {
            // Without equal pieces, loops of the exact length (unrolled comparisons).
            let mut values = [0u64; 6];
            match self.count {
                1 => self.single_values::<1>(sq, &mut values),
                2 => self.single_values::<2>(sq, &mut values),
                3 => self.single_values::<3>(sq, &mut values),
                4 => self.single_values::<4>(sq, &mut values),
                _ => return (0..self.count).map(|g| self.group_value(sq, g)).sum(),
            }
            return values.iter().sum();
        }
        (from..self.count).map(|g| self.group_value(sq, g)).sum()
    }

    /// Group `g`'s digit times its place value for pieces on `sq`: its squares' free ranks
    /// among the squares not taken by the slots before it.
    #[inline]
    fn group_value(&self, sq: &[u8; 8], g: usize) -> u64 {
        let group = &self.groups[g];
        let (a, b) = (group.start as usize, group.end as usize);
        if b - a == 1 {
            return u64::from(free_rank(sq, a, sq[a])) * group.place;
        }
        let mut xs = [0u8; 8];
        for (x, &s) in xs.iter_mut().zip(&sq[a..b]) {
            *x = free_rank(sq, a, s);
        }
        let xs = &mut xs[..b - a];
        sort_small(xs);
        combination::rank(xs) * group.place
    }

    /// The index of the pieces on `sq` with `turn` to move, the kings' pair already a
    /// placement (`kk`): no symmetry applied.
    #[inline]
    fn encode(&self, turn: Color, kk: u16, sq: &[u8; 8]) -> u64 {
        turn.index() as u64 * self.half + u64::from(kk) * self.per_kings + self.pieces_value(sq, 0)
    }

    /// Whether kings on `wk` and `bk` may stand anywhere (not on one square, not adjacent).
    pub(super) fn kings_apart(wk: u8, bk: u8) -> bool {
        pair(wk, bk).len > 0
    }

    /// The canonical index of the position with `turn` to move and a piece of each slot on
    /// `squares` (no overlaps, kings apart), and the symmetry that maps the position onto it
    /// (the first one on a tie).
    #[inline]
    pub(super) fn rank_squares_with_transform(&self, turn: Color, squares: &[u8]) -> (u64, u8) {
        let n = self.n;
        let pair = pair(squares[0], squares[1]);
        debug_assert!(pair.len > 0, "kings on {} and {}", squares[0], squares[1]);
        let image = |t: u8| {
            let map = &TRANSFORMS[t as usize];
            let mut sq = [0u8; 8];
            for (out, &s) in sq.iter_mut().zip(&squares[..n]) {
                *out = map[s as usize];
            }
            sq
        };
        let t = pair.t[0];
        let first = if t == 0 {
            let mut sq = [0u8; 8];
            sq[..n].copy_from_slice(&squares[..n]);
            self.encode(turn, pair.kk, &sq)
        } else {
            self.encode(turn, pair.kk, &image(t))
        };
        if pair.len == 1 {
            return (first, t);
        }
        let t2 = pair.t[1];
        let second = self.encode(turn, pair.kk, &image(t2));
        if second < first {
            (second, t2)
        } else {
            (first, t)
        }
    }

    /// Whether decoded index `idx` (`turn`, `sq`) is the canonical index of its position:
    /// always, except where both kings stand on the diagonal a1-h8.
    #[inline]
    pub(super) fn is_canonical(&self, idx: u64, turn: Color, sq: &[u8]) -> bool {
        pair(sq[0], sq[1]).len == 1 || self.rank_squares_with_transform(turn, sq).0 == idx
    }

    /// The first slot from which on moves of the pieces of a canonical board (`sq`) keep its
    /// symmetry, the identity: 2 where the kings' pair has no other symmetry. With both kings
    /// on the diagonal a1-h8 the identity and the flip along it compete, and the first group
    /// that the flip changes decides between them, for the identity on a canonical board (the
    /// groups before it have the same digits either way, and the digits of that group compare
    /// as their squares' sets do). Moving a piece of a later group leaves that decision as it
    /// is; the slots up to the deciding group's end need ranking. `n` when the last group or
    /// none decides.
    #[inline]
    fn settled_from(&self, sq: &[u8]) -> usize {
        let n = self.n;
        if pair(sq[0], sq[1]).len == 1 {
            return 2;
        }
        let flip = &TRANSFORMS[DIAGONAL_FLIP as usize];
        for g in &self.groups[..self.count] {
            let (a, b) = (g.start as usize, g.end as usize);
            let mut image = [0u8; 8];
            let mut own = [0u8; 8];
            for k in a..b {
                image[k] = flip[sq[k] as usize];
                own[k] = sq[k];
            }
            sort_small(&mut image[a..b]);
            sort_small(&mut own[a..b]);
            if image[a..b] != own[a..b] {
                return b;
            }
        }
        n
    }
}

/// Sorts a few squares (a run of equal pieces, at most six) in place.
#[inline]
fn sort_small(xs: &mut [u8]) {
    for i in 1..xs.len() {
        let mut j = i;
        while j > 0 && xs[j - 1] > xs[j] {
            xs.swap(j - 1, j);
            j -= 1;
        }
    }
}

/// The indices of the boards one king or piece move away from a canonical board, with one side
/// to move (the un-moves' predecessors, the moves' children in the slice), without ranking
/// each where the symmetry stays the identity.
///
/// A move from `at` to `to` keeps every other piece where it is, so a digit that is a single
/// piece's free rank `s - #(taken squares below s)` changes by `[at < s] - [to < s]`: for a
/// piece moved, the digits of its group and the later groups change, for a king moved (into a
/// pair whose only symmetry is the identity, so only the placement's number changes besides),
/// every piece's digit. Where all those groups are single pieces the index is linear in the
/// comparisons of `to` with the other slots' squares: `constant + to x place + sum of w_k over
/// the squares q_k below to` ([`Slot`], made once per moved slot, a handful of comparisons per
/// move). A run of equal pieces among them is computed from its squares
/// ([`Pawnless::pieces_value`]); anything else (a king leaving such a pair, a piece up to the
/// group that settles the symmetry of kings on the diagonal) is ranked.
#[derive(Clone, Debug)]
pub(super) struct Reindex<'a> {
    ix: &'a Pawnless,
    sq: [u8; 8],
    turn: Color,
    settled: usize,
    /// The first group from which on every group is a single piece.
    singles_from: usize,
    /// Per group: the index with `turn` to move up to its digit (side, placement, earlier
    /// groups), and its digit times its place value on the board.
    prefix: [u64; 6],
    values: [u64; 6],
    /// The slot whose moves are indexed ([`select`](Self::select)).
    slot: Slot,
}

/// How the moves of one slot are indexed ([`Reindex::select`]).
#[derive(Clone, Debug)]
struct Slot {
    i: usize,
    how: How,
    /// The linear form (`How::Linear`, `How::King`), in wrapping arithmetic: the constant, the
    /// moved piece's place value (0 for a king), and a weight per other slot's square.
    constant: u64,
    place: u64,
    len: usize,
    squares: [u8; 7],
    weights: [u64; 7],
}

impl Slot {
    /// `constant + to x place + the weights of the squares below to`, wrapping.
    #[inline(always)]
    fn linear(&self, constant: u64, to: u8) -> u64 {
        let v = constant.wrapping_add(u64::from(to).wrapping_mul(self.place));
        // A loop of the exact length (the slots but the moved one: 2 to 7), unrolled.
        match self.len {
            2 => v.wrapping_add(self.below::<2>(to)),
            3 => v.wrapping_add(self.below::<3>(to)),
            4 => v.wrapping_add(self.below::<4>(to)),
            5 => v.wrapping_add(self.below::<5>(to)),
            _ => v.wrapping_add(self.below::<7>(to)),
        }
    }

    #[inline(always)]
    fn below<const N: usize>(&self, to: u8) -> u64 {
        let mut v = 0u64;
        for k in 0..N {
            // Padding squares (u8::MAX) are never below `to`.
            let mask = u64::from(self.squares[k] < to).wrapping_neg();
            v = v.wrapping_add(self.weights[k] & mask);
        }
        v
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum How {
    Linear,
    King,
    /// Group `g` and later ones from their squares.
    Groups(usize),
    Rank,
}

impl<'a> Reindex<'a> {
    #[inline(always)]
    pub(super) fn new(ix: &'a Pawnless, sq: &[u8; 8], turn: Color) -> Reindex<'a> {
        let settled = ix.settled_from(&sq[..ix.n]);
        let singles_from = ix.singles_from;
        let mut values = [0u64; 6];
        // Without equal pieces, loops of the exact length (unrolled comparisons).
        match (ix.singles(), ix.count) {
            (true, 1) => ix.single_values::<1>(sq, &mut values),
            (true, 2) => ix.single_values::<2>(sq, &mut values),
            (true, 3) => ix.single_values::<3>(sq, &mut values),
            (true, 4) => ix.single_values::<4>(sq, &mut values),
            _ => {
                for (g, value) in values[..ix.count].iter_mut().enumerate() {
                    *value = ix.group_value(sq, g);
                }
            }
        }
        let mut prefix = [0u64; 6];
        let kk = pair(sq[0], sq[1]).kk;
        let mut v = turn.index() as u64 * ix.half + u64::from(kk) * ix.per_kings;
        for (p, &value) in prefix.iter_mut().zip(&values[..ix.count]) {
            *p = v;
            v += value;
        }
        Reindex {
            ix,
            sq: *sq,
            turn,
            settled,
            singles_from,
            prefix,
            values,
            slot: Slot {
                i: 0,
                how: How::Rank,
                constant: 0,
                place: 0,
                len: 0,
                squares: [u8::MAX; 7],
                weights: [0; 7],
            },
        }
    }

    /// Prepares the moves of slot `i` (a king or a piece): what they need, the same for all,
    /// made in place.
    #[inline]
    pub(super) fn select(&mut self, i: usize) {
        let ix = self.ix;
        let slot = &mut self.slot;
        slot.i = i;
        slot.how = How::Rank;
        let g = ix.group_of[i] as usize;
        if i >= 2 && i < self.settled {
            return;
        }
        if i >= 2 && g < self.singles_from {
            slot.how = How::Groups(g);
            return;
        }
        if i < 2 && self.singles_from > 0 {
            slot.how = How::Groups(0);
            return;
        }
        let at = self.sq[i];
        // Each later single's digit with `at` free, less one (the `[s < to]` terms add it
        // back where `to` is below it): wrapping, as the sum is.
        let first = if i < 2 { 0 } else { g + 1 };
        let mut constant = if i < 2 {
            self.turn.index() as u64 * ix.half
        } else {
            self.prefix[g]
        };
        for (h, group) in ix.groups[..ix.count].iter().enumerate().skip(first) {
            let s = self.sq[group.start as usize];
            let shifted = self.values[h] + u64::from(at < s) * group.place;
            constant = constant.wrapping_add(shifted.wrapping_sub(group.place));
        }
        slot.squares = [u8::MAX; 7];
        let mut k = 0;
        for (j, &q) in self.sq[..ix.n].iter().enumerate() {
            if j == i || (i < 2 && j < 2) {
                continue;
            }
            slot.squares[k] = q;
            slot.weights[k] = if j < i {
                // A square taken below `to`: the moved piece's free rank one less.
                ix.groups[g].place.wrapping_neg()
            } else {
                ix.groups[ix.group_of[j] as usize].place
            };
            k += 1;
        }
        slot.len = k;
        slot.constant = constant;
        if i < 2 {
            slot.how = How::King;
            slot.place = 0;
        } else {
            slot.how = How::Linear;
            slot.place = ix.groups[g].place;
        }
    }

    /// The index of the board with the selected slot's piece on `to` instead.
    #[inline(always)]
    pub(super) fn index(&self, to: u8) -> u64 {
        let slot = &self.slot;
        if slot.how == How::Linear {
            return slot.linear(slot.constant, to);
        }
        self.index_otherwise(to)
    }

    #[inline(never)]
    fn index_otherwise(&self, to: u8) -> u64 {
        let ix = self.ix;
        let slot = &self.slot;
        match slot.how {
            How::Linear => slot.linear(slot.constant, to),
            How::King => {
                let (wk, bk) = if slot.i == 0 {
                    (to, self.sq[1])
                } else {
                    (self.sq[0], to)
                };
                let p = pair(wk, bk);
                if p.len == 1 && p.t[0] == 0 {
                    slot.linear(
                        slot.constant.wrapping_add(u64::from(p.kk) * ix.per_kings),
                        to,
                    )
                } else {
                    self.ranked(slot.i, to)
                }
            }
            How::Groups(g) => {
                let mut moved = self.sq;
                moved[slot.i] = to;
                if slot.i >= 2 {
                    return self.prefix[g] + ix.pieces_value(&moved, g);
                }
                let p = pair(moved[0], moved[1]);
                if p.len == 1 && p.t[0] == 0 {
                    self.turn.index() as u64 * ix.half
                        + u64::from(p.kk) * ix.per_kings
                        + ix.pieces_value(&moved, 0)
                } else {
                    self.ranked(slot.i, to)
                }
            }
            How::Rank => self.ranked(slot.i, to),
        }
    }

    fn ranked(&self, i: usize, to: u8) -> u64 {
        let mut moved = self.sq;
        moved[i] = to;
        self.ix
            .rank_squares_with_transform(self.turn, &moved[..self.ix.n])
            .0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The 462 placements are one per orbit of the pairs of kings apart under the 8
    /// symmetries (counted by brute force), and every pair's placement is in its orbit, reached
    /// by each symmetry listed (two exactly when both kings end on the diagonal a1-h8).
    #[test]
    fn one_placement_per_orbit_of_the_kings() {
        let mut orbits = 0;
        for wk in 0..64u8 {
            for bk in 0..64u8 {
                let p = pair(wk, bk);
                if touching(wk, bk) {
                    assert_eq!(p.len, 0);
                    continue;
                }
                let images: Vec<(u8, u8)> = (0..8)
                    .map(|t| (transform(t, wk), transform(t, bk)))
                    .collect();
                orbits += usize::from(images.iter().min() == Some(&(wk, bk)));
                let placement = KINGS[p.kk as usize];
                assert!(images.contains(&placement), "{wk} {bk}");
                let reaching: Vec<u8> = (0..8)
                    .filter(|&t| images[t as usize] == placement)
                    .collect();
                assert_eq!(&p.t[..p.len as usize], &reaching[..], "{wk} {bk}");
                let diagonal = on_diagonal(placement.0) && on_diagonal(placement.1);
                assert_eq!(p.len == 2, diagonal, "{wk} {bk}");
            }
        }
        assert_eq!(orbits, KING_PLACEMENTS);
    }

    #[test]
    fn free_ranks_count_the_free_squares_below() {
        for list in [
            &[0u8, 18, 21, 56, 63][..],
            &[7, 6, 5, 4, 3, 2, 1, 0],
            &[40],
            &[],
        ] {
            let free: Vec<u8> = (0..64).filter(|s| !list.contains(s)).collect();
            let mut sq = [u8::MAX; 8];
            sq[..list.len()].copy_from_slice(list);
            for (r, &s) in free.iter().enumerate() {
                assert_eq!(free_rank(&sq, list.len(), s), r as u8);
            }
        }
        for (k, &(wk, bk)) in KINGS.iter().enumerate() {
            let free: Vec<u8> = (0..64).filter(|&s| s != wk && s != bk).collect();
            assert_eq!(&FREE_OF_KINGS[k][..], &free[..]);
        }
    }

    #[test]
    fn divisions_by_multiplication_are_exact() {
        for d in [2u64, 3, 10, 55, 59, 60, 61, 62, 1891, 1770, 37_820, 557_845] {
            let div = Divisor::new(d);
            for n in (0..u32::MAX)
                .step_by(9_999_991)
                .chain([u32::MAX, u32::MAX - 1])
            {
                assert_eq!(div.div_rem(n), (n / d as u32, n % d as u32), "{n} / {d}");
            }
        }
    }
}
