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
//!    the kings and the pieces of earlier groups (`square - popcount(taken & below(square))`,
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

/// The squares below `s`.
#[inline]
fn below(s: u8) -> u64 {
    (1u64 << s) - 1
}

/// The rank of square `s` among the squares not in `taken` (`s` not in it).
#[inline]
fn free_rank(taken: u64, s: u8) -> u8 {
    s - (taken & below(s)).count_ones() as u8
}

/// The square of rank `rank` among the squares not in `taken`.
#[inline]
fn nth_free(taken: u64, rank: u8) -> u8 {
    // Each taken square at or below the candidate pushes it one further (the taken squares
    // ascending: once one lies above the candidate, so do the rest).
    let mut s = rank;
    let mut t = taken;
    while t != 0 {
        let o = t.trailing_zeros() as u8;
        if o > s {
            break;
        }
        s += 1;
        t &= t - 1;
    }
    s
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
        Pawnless {
            n,
            per_kings: place,
            half: KING_PLACEMENTS as u64 * place,
            groups,
            count,
            group_of,
            small: place <= u64::from(u32::MAX),
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
        let kk = rest / self.per_kings;
        let mut p = rest - kk * self.per_kings;
        let (wk, bk) = KINGS[kk as usize];
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
        let mut sq = [0u8; 8];
        sq[0] = wk;
        sq[1] = bk;
        let mut taken = 1u64 << wk | 1u64 << bk;
        for (&d, g) in digits.iter().zip(groups) {
            let (a, b) = (g.start as usize, g.end as usize);
            if b - a == 1 {
                let s = nth_free(taken, d as u8);
                sq[a] = s;
                taken |= 1 << s;
            } else {
                let mut xs = [0u8; combination::MAX_RUN];
                let xs = &mut xs[..b - a];
                combination::unrank(d, 64 - taken.count_ones() as usize, xs);
                let before = taken;
                for (out, &x) in sq[a..b].iter_mut().zip(xs.iter()) {
                    *out = nth_free(before, x);
                    taken |= 1 << *out;
                }
            }
        }
        (turn, sq)
    }

    /// The value of the digits of groups `groups` for pieces on `sq` (slot order), with the
    /// squares in `taken` (the kings and the earlier groups' pieces) not free.
    #[inline]
    fn pieces_value(&self, sq: &[u8], mut taken: u64, groups: std::ops::Range<usize>) -> u64 {
        let mut v = 0;
        for g in &self.groups[groups] {
            let (a, b) = (g.start as usize, g.end as usize);
            if b - a == 1 {
                let s = sq[a];
                v += u64::from(free_rank(taken, s)) * g.place;
                taken |= 1 << s;
            } else {
                let mut run = [0u8; 8];
                let run = &mut run[..b - a];
                run.copy_from_slice(&sq[a..b]);
                sort_small(run);
                let mut xs = [0u8; 8];
                for (x, &s) in xs.iter_mut().zip(run.iter()) {
                    *x = free_rank(taken, s);
                }
                for &s in run.iter() {
                    taken |= 1 << s;
                }
                v += combination::rank(&xs[..b - a]) * g.place;
            }
        }
        v
    }

    /// The index of the pieces on `sq` with `turn` to move, the kings' pair already a
    /// placement (`kk`): no symmetry applied.
    #[inline]
    fn encode(&self, turn: Color, kk: u16, sq: &[u8]) -> u64 {
        turn.index() as u64 * self.half
            + u64::from(kk) * self.per_kings
            + self.pieces_value(sq, 1 << sq[0] | 1 << sq[1], 0..self.count)
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
            self.encode(turn, pair.kk, squares)
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
/// to move (the un-moves' predecessors, the moves' children in the slice): the same king
/// placement and a piece of group `g` moved change only the digits of groups `g..`, computed
/// from the squares taken before `g` ([`Pawnless::pieces_value`]); a king moved to a pair whose
/// only symmetry is the identity changes the placement and every piece's digit (their free
/// squares change), without a symmetry to find. Anything else (a king leaving such a pair, a
/// piece up to the group that settles the symmetry of kings on the diagonal) is ranked.
#[derive(Clone, Debug)]
pub(super) struct Reindex<'a> {
    ix: &'a Pawnless,
    sq: [u8; 8],
    turn: Color,
    settled: usize,
    /// Per group: the index with `turn` to move up to its digit (side, placement, earlier
    /// groups), and the squares taken before it.
    prefix: [u64; 6],
    taken: [u64; 6],
}

impl<'a> Reindex<'a> {
    #[inline]
    pub(super) fn new(ix: &'a Pawnless, sq: &[u8; 8], turn: Color) -> Reindex<'a> {
        let settled = ix.settled_from(&sq[..ix.n]);
        let mut prefix = [0u64; 6];
        let mut taken = [0u64; 6];
        if settled < ix.n {
            let kk = pair(sq[0], sq[1]).kk;
            let mut v = turn.index() as u64 * ix.half + u64::from(kk) * ix.per_kings;
            let mut occ = 1u64 << sq[0] | 1u64 << sq[1];
            for (g, group) in ix.groups[..ix.count].iter().enumerate() {
                prefix[g] = v;
                taken[g] = occ;
                v += ix.pieces_value(sq, occ, g..g + 1);
                for &s in &sq[group.start as usize..group.end as usize] {
                    occ |= 1 << s;
                }
            }
        }
        Reindex {
            ix,
            sq: *sq,
            turn,
            settled,
            prefix,
            taken,
        }
    }

    /// The index of the board with slot `i` on `to` instead.
    #[inline]
    pub(super) fn index(&self, i: usize, to: u8) -> u64 {
        let ix = self.ix;
        let mut moved = self.sq;
        moved[i] = to;
        if i < 2 {
            let p = pair(moved[0], moved[1]);
            if p.len == 1 && p.t[0] == 0 {
                return self.turn.index() as u64 * ix.half
                    + u64::from(p.kk) * ix.per_kings
                    + ix.pieces_value(&moved, 1 << moved[0] | 1 << moved[1], 0..ix.count);
            }
            return ix.rank_squares_with_transform(self.turn, &moved[..ix.n]).0;
        }
        if i < self.settled {
            return ix.rank_squares_with_transform(self.turn, &moved[..ix.n]).0;
        }
        let g = ix.group_of[i] as usize;
        self.prefix[g] + ix.pieces_value(&moved, self.taken[g], g..ix.count)
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
    fn nth_free_inverts_free_rank() {
        let mut taken = 0x8100_0000_0024_0001u64;
        for _ in 0..4 {
            let free: Vec<u8> = (0..64).filter(|s| taken >> s & 1 == 0).collect();
            for (r, &s) in free.iter().enumerate() {
                assert_eq!(nth_free(taken, r as u8), s);
                assert_eq!(free_rank(taken, s), r as u8);
            }
            taken = taken.rotate_left(7) | 1 << 40;
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
