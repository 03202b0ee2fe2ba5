//! The index of a position in a Syzygy sub-table: where the leading pieces stand (reduced by the
//! board's symmetries), then each group of identical pieces as a combination of the squares
//! still free, every part scaled by the factor the file's header gives it.
//!
//! The tables of squares here are computed, not transcribed: each is the enumeration the
//! format describes (see docs/formats.md, "Syzygy tables").

/// Most pieces a Syzygy table holds.
pub(crate) const MAX_TB_PIECES: usize = 7;

/// Squares as the format numbers them (`a1 = 0`, `h8 = 63`).
type Sq = u8;

/// `C(n, k)` for `n < 64`, `k <= 7`: the number of ways to place `k` identical pieces on `n`
/// squares.
const BINOMIAL: [[u64; 8]; 64] = {
    let mut t = [[0u64; 8]; 64];
    let mut n = 0;
    while n < 64 {
        t[n][0] = 1;
        let mut k = 1;
        while k < 8 {
            t[n][k] = if n == 0 {
                0
            } else {
                t[n - 1][k - 1] + t[n - 1][k]
            };
            k += 1;
        }
        n += 1;
    }
    t
};

/// `C(n, k)`, 0 when `n < k` (and for negative `n`, which a position never produces).
pub(crate) fn binomial(n: i32, k: usize) -> u64 {
    if !(0..64).contains(&n) || k > 7 {
        return 0;
    }
    BINOMIAL[n as usize][k]
}

const fn file(sq: usize) -> i32 {
    (sq & 7) as i32
}

const fn rank(sq: usize) -> i32 {
    (sq >> 3) as i32
}

/// How far above the a1-h8 diagonal a square lies (negative below).
const fn off_diagonal(sq: usize) -> i32 {
    rank(sq) - file(sq)
}

/// The square mirrored in the a1-h8 diagonal.
fn flip_diagonal(sq: Sq) -> Sq {
    ((sq >> 3) | (sq << 3)) & 63
}

/// The a1-d1-d4 triangle to which the leading piece of a pawnless table is brought: its six
/// squares below the diagonal (b1 c1 d1 c2 d2 d3) numbered 0..6, then its four diagonal
/// squares (a1 b2 c3 d4) 6..10; every other square takes the number of its image in the
/// triangle.
const TRIANGLE: [u8; 64] = {
    let mut t = [0u8; 64];
    let mut sq = 0;
    while sq < 64 {
        let (mut f, mut r) = (file(sq), rank(sq));
        if f > 3 {
            f = 7 - f;
        }
        if r > 3 {
            r = 7 - r;
        }
        if r > f {
            let x = f;
            f = r;
            r = x;
        }
        // Now r <= f <= 3.
        t[sq] = if r == f {
            6 + f as u8
        } else {
            // Below the diagonal, in square order: b1 c1 d1 | c2 d2 | d3.
            let before_rank = [0, 3, 5][r as usize];
            (before_rank + (f - r - 1)) as u8
        };
        sq += 1;
    }
    t
};

/// The 28 squares below the a1-h8 diagonal numbered 0..28 in square order, the 8 diagonal
/// squares 28..36; a square above the diagonal takes its mirror image's number.
const LOWER: [u8; 64] = {
    let mut t = [0u8; 64];
    let mut below = 0u8;
    let mut sq = 0;
    while sq < 64 {
        if off_diagonal(sq) < 0 {
            t[sq] = below;
            t[((sq >> 3) | (sq << 3)) & 63] = below;
            below += 1;
        } else if off_diagonal(sq) == 0 {
            t[sq] = 28 + file(sq) as u8;
        }
        sq += 1;
    }
    t
};

/// The number of placements of two kings (not touching) with the first in the a1-d1-d4
/// triangle and, when it stands on the diagonal, the second not above it.
pub(crate) const KING_PAIRS: u64 = 462;

/// Index of two kings: for each triangle square (in [`TRIANGLE`] order) the second king's
/// squares in square order, except that pairs with both kings on the diagonal come last.
/// `u16::MAX` marks impossible pairs.
const KING_PAIR_INDEX: [[u16; 64]; 10] = {
    let mut t = [[u16::MAX; 64]; 10];
    let mut code = 0u16;
    let mut pass = 0;
    while pass < 2 {
        let mut tri = 0;
        while tri < 10 {
            let first = TRIANGLE_SQUARES[tri] as usize;
            let mut second = 0;
            while second < 64 {
                let touching = (file(first) - file(second)).abs() <= 1
                    && (rank(first) - rank(second)).abs() <= 1;
                let both_on_diagonal = off_diagonal(first) == 0 && off_diagonal(second) == 0;
                let above = off_diagonal(first) == 0 && off_diagonal(second) > 0;
                if !touching && !above && both_on_diagonal == (pass == 1) {
                    t[tri][second] = code;
                    code += 1;
                }
                second += 1;
            }
            tri += 1;
        }
        pass += 1;
    }
    t
};

/// The square of each [`TRIANGLE`] number.
const TRIANGLE_SQUARES: [u8; 10] = [1, 2, 3, 10, 11, 19, 0, 9, 18, 27];

/// Placements of three distinct leading pieces (the first in the triangle; diagonal cases
/// broken by the next piece off the diagonal): 6*63*62 + 4*28*62 + 4*7*28 + 4*7*6.
pub(crate) const THREE_LEADING: u64 = 31_332;

/// Index of three distinct leading pieces on squares already brought to the triangle.
fn three_leading_index(sq: &[Sq]) -> u64 {
    let (a, b, c) = (sq[0] as usize, sq[1] as usize, sq[2] as usize);
    let i = u64::from(b > a);
    let j = u64::from(c > a) + u64::from(c > b);
    let (ta, la) = (u64::from(TRIANGLE[a]), |s: usize| u64::from(LOWER[s]));
    // On the diagonal, a square's number is its file.
    let diag = |s: usize| file(s) as u64;
    if off_diagonal(a) != 0 {
        ta * 63 * 62 + (b as u64 - i) * 62 + (c as u64 - j)
    } else if off_diagonal(b) != 0 {
        6 * 63 * 62 + diag(a) * 28 * 62 + la(b) * 62 + c as u64 - j
    } else if off_diagonal(c) != 0 {
        6 * 63 * 62 + 4 * 28 * 62 + diag(a) * 7 * 28 + (diag(b) - i) * 28 + la(c)
    } else {
        6 * 63 * 62 + 4 * 28 * 62 + 4 * 7 * 28 + diag(a) * 7 * 6 + (diag(b) - i) * 6 + diag(c) - j
    }
}

/// Which pieces of a pawnless table lead the index.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Leading {
    /// Three pieces, each the only one of its kind (e.g. K, R, K of KRvK).
    ThreeUnique,
    /// Only the two kings are unique (KNNvK, KRRvKR...): the kings lead as a pair.
    KingPair,
}

impl Leading {
    /// How many pieces lead.
    pub(crate) fn count(self) -> usize {
        match self {
            Leading::ThreeUnique => 3,
            Leading::KingPair => 2,
        }
    }

    /// The number of placements of the leading pieces.
    pub(crate) fn placements(self) -> u64 {
        match self {
            Leading::ThreeUnique => THREE_LEADING,
            Leading::KingPair => KING_PAIRS,
        }
    }
}

/// The order in which one sub-table lists its pieces, their grouping and the factors of the
/// index (from the file's header).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Layout {
    /// Piece codes (bits 0-2 the role, pawn = 1 .. king = 6; bit 3 black), in index order.
    pub(crate) pieces: Vec<u8>,
    /// At the first piece of each group, the group's size (0 elsewhere).
    pub(crate) groups: [u8; MAX_TB_PIECES],
    /// At the first piece of each group, what one step of that group's index is worth.
    pub(crate) factors: [u64; MAX_TB_PIECES],
    /// The number of indices.
    pub(crate) size: u64,
}

/// A symmetry of the board: the squares' bits flipped by `xor` (files `0x07`, ranks `0x38`),
/// then, if `diagonal`, the mirror in the a1-h8 diagonal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Transform {
    xor: u8,
    diagonal: bool,
}

impl Transform {
    #[inline]
    fn apply(self, s: Sq) -> Sq {
        let s = s ^ self.xor;
        if self.diagonal {
            flip_diagonal(s)
        } else {
            s
        }
    }
}

/// The symmetry that brings the squares to the fundamental region of the 8: the first piece
/// into the a1-d1-d4 triangle, and the first of the `leading` pieces off the diagonal below
/// it. It depends on the leading pieces alone.
fn pawnless_transform(sq: &[Sq], leading: usize) -> Transform {
    let mut xor = 0;
    if sq[0] & 0x04 != 0 {
        xor ^= 0x07;
    }
    if (sq[0] ^ xor) & 0x20 != 0 {
        xor ^= 0x38;
    }
    let first_off = sq[..leading]
        .iter()
        .map(|&s| s ^ xor)
        .find(|&s| off_diagonal(s as usize) != 0);
    Transform {
        xor,
        diagonal: first_off.is_some_and(|s| off_diagonal(s as usize) > 0),
    }
}

/// Brings the squares to the fundamental region of the 8 symmetries ([`pawnless_transform`]).
fn reduce_pawnless(sq: &mut [Sq], leading: usize) {
    let t = pawnless_transform(sq, leading);
    sq.iter_mut().for_each(|s| *s = t.apply(*s));
}

/// Index of a pawnless position given as the squares of `layout.pieces`, in order.
pub(crate) fn pawnless_index(layout: &Layout, leading: Leading, sq: &mut [Sq]) -> u64 {
    reduce_pawnless(sq, leading.count());
    let lead = match leading {
        Leading::ThreeUnique => three_leading_index(sq),
        Leading::KingPair => {
            u64::from(KING_PAIR_INDEX[TRIANGLE[sq[0] as usize] as usize][sq[1] as usize])
        }
    };
    lead * layout.factors[0] + groups_index(layout, sq, leading.count())
}

/// The contribution of every group of identical pieces from `start` on: each group's squares,
/// sorted and renumbered to skip the squares of the pieces before it, form a combination.
fn groups_index(layout: &Layout, sq: &mut [Sq], start: usize) -> u64 {
    let mut idx = 0;
    let mut i = start;
    while i < sq.len() {
        let size = usize::from(layout.groups[i]).clamp(1, sq.len() - i);
        idx += group_combination(sq, i, size, 0) * layout.factors[i];
        i += size;
    }
    idx
}

/// The combination number of the `size` squares at `sq[i..]` among the squares the pieces
/// before `i` leave free (`floor` squares off the bottom for pawns of the second colour,
/// which never stand on the first rank).
fn group_combination(sq: &mut [Sq], i: usize, size: usize, floor: i32) -> u64 {
    sq[i..i + size].sort_unstable();
    let (placed, group) = sq.split_at(i);
    group[..size]
        .iter()
        .enumerate()
        .map(|(k, &s)| {
            let below = placed.iter().filter(|&&p| p < s).count() as i32;
            binomial(i32::from(s) - below - floor, k + 1)
        })
        .sum()
}

/// Pawn squares of files a-d numbered file by file, second rank first (a2 = 0 .. a7 = 5,
/// b2 = 6 ..); files e-h mirror a-d. The leading pawn is the one with the smallest number.
pub(crate) const PAWN_ORDER: [u8; 64] = {
    let mut t = [0u8; 64];
    let mut sq = 8;
    while sq < 56 {
        let f = file(sq);
        let folded = if f > 3 { 7 - f } else { f };
        t[sq] = (folded * 6 + rank(sq) - 1) as u8;
        sq += 1;
    }
    t
};

/// The order of the other leading pawns relative to the first: 47 for a2 down to 0 for e7,
/// rank by rank within a file pair, files b/g, c/f, d/e further down.
const PAWN_TWIST: [u8; 64] = {
    let mut t = [0u8; 64];
    let mut sq = 8;
    while sq < 56 {
        let f = file(sq);
        let folded = if f > 3 { 7 - f } else { f };
        let right = if f > 3 { 1 } else { 0 };
        t[sq] = (47 - 12 * folded - 2 * (rank(sq) - 1) - right) as u8;
        sq += 1;
    }
    t
};

/// For `n` leading pawns, at each leading-pawn square (in [`PAWN_ORDER`]), how many placements
/// of the other `n - 1` come before it within its file; and per file the total.
const fn leading_pawn_counts() -> ([[u64; 24]; 6], [[u64; 4]; 6]) {
    let mut before = [[0u64; 24]; 6];
    let mut totals = [[0u64; 4]; 6];
    let mut others = 0;
    while others < 6 {
        let mut f = 0;
        while f < 4 {
            let mut sum = 0;
            let mut r = 0;
            while r < 6 {
                let j = f * 6 + r;
                before[others][j] = sum;
                let sq = 8 * (r + 1) + f;
                sum += BINOMIAL[PAWN_TWIST[sq] as usize][others];
                r += 1;
            }
            totals[others][f] = sum;
            f += 1;
        }
        others += 1;
    }
    (before, totals)
}

const LEADING_PAWNS: ([[u64; 24]; 6], [[u64; 4]; 6]) = leading_pawn_counts();

/// The number of placements of `count` leading pawns with the first on `file` (0 = a/h ..
/// 3 = d/e).
pub(crate) fn leading_pawn_placements(count: usize, file: usize) -> u64 {
    LEADING_PAWNS.1[count.clamp(1, 6) - 1][file]
}

/// The file (0 = a/h .. 3 = d/e) of the leading pawn, which is moved to `sq[0]`: of the
/// `count` leading pawns, the first in [`PAWN_ORDER`].
pub(crate) fn lead_pawn_file(sq: &mut [Sq], count: usize) -> usize {
    for i in 1..count {
        if PAWN_ORDER[sq[0] as usize] > PAWN_ORDER[sq[i] as usize] {
            sq.swap(0, i);
        }
    }
    let f = usize::from(sq[0] & 7);
    f.min(7 - f)
}

/// Index of a position with pawns given as the squares of `layout.pieces` (the leading pawns
/// first, the leading pawn at `sq[0]`, then `other_pawns` pawns of the other colour).
pub(crate) fn pawn_index(layout: &Layout, lead: usize, other_pawns: usize, sq: &mut [Sq]) -> u64 {
    if sq[0] & 0x04 != 0 {
        sq.iter_mut().for_each(|s| *s ^= 0x07);
    }
    sq[1..lead].sort_unstable_by_key(|&s| std::cmp::Reverse(PAWN_TWIST[s as usize]));
    let others = lead - 1;
    let mut idx = LEADING_PAWNS.0[others][PAWN_ORDER[sq[0] as usize] as usize];
    for (i, &s) in sq[1..lead].iter().enumerate() {
        idx += binomial(i32::from(PAWN_TWIST[s as usize]), others - i);
    }
    idx *= layout.factors[0];
    let mut next = lead;
    if other_pawns > 0 {
        idx += group_combination(sq, lead, other_pawns, 8) * layout.factors[lead];
        next += other_pawns;
    }
    idx + groups_index(layout, sq, next)
}

/// The index of the positions that differ from one another only in where one piece stands
/// (a *row*: the piece at place `p` of the layout, a group of its own after the leading part),
/// as [`pawnless_index`] and [`pawn_index`] give it, in a few operations per position: the
/// symmetry depends on the leading pieces alone, the piece's own part is its square less the
/// squares of the pieces before it, and each piece of a later group counts it below itself or
/// not.
#[derive(Clone, Debug)]
pub(crate) struct RowIndex {
    transform: Transform,
    /// The index less the moving piece's part (wrapping: the later parts are subtracted).
    base: u64,
    /// The moving piece's factor.
    factor: u64,
    /// The squares (reduced) of the pieces before it.
    before: u64,
    /// Per piece of a later group: its square (reduced) and what its part changes by when
    /// the moving piece stands below it (wrapping).
    later: [(Sq, u64); MAX_TB_PIECES],
    later_count: usize,
}

impl RowIndex {
    /// The row of the position given as the squares of `layout.pieces` (in order, the file's
    /// orientation, unreduced) through its piece at place `p`; `None` where the row's
    /// positions do not all have one index by this rule: `p` leads or is not alone in its
    /// group, or (without pawns) every leading piece stands on the a1-h8 diagonal, where a
    /// position and its reflection have two indices.
    pub(crate) fn new(layout: &Layout, shape: RowShape, sq: &[Sq], p: usize) -> Option<RowIndex> {
        let n = sq.len();
        let mut at = [0u8; MAX_TB_PIECES];
        at[..n].copy_from_slice(sq);
        let at = &mut at[..n];
        // Where the parts of single pieces the row may move begin, and the factors of the
        // second and third leading pieces when they are such parts.
        let mut leading_parts = None;
        let (transform, start) = match shape {
            RowShape::Pawnless(leading) => {
                let lead = leading.count();
                let t = pawnless_transform(at, lead);
                let first_off = off_diagonal(t.apply(at[0]) as usize) != 0;
                if !first_off
                    && at[..lead]
                        .iter()
                        .all(|&s| off_diagonal(t.apply(s) as usize) == 0)
                {
                    return None;
                }
                // With the first leading piece off the diagonal, the other two count as
                // pieces of their own (`three_leading_index`), worth 62 and 1 leading steps.
                if leading == Leading::ThreeUnique && first_off {
                    leading_parts = Some([62 * layout.factors[0], layout.factors[0]]);
                    (t, 1)
                } else {
                    (t, lead)
                }
            }
            RowShape::Pawns { lead, .. } => {
                lead_pawn_file(at, lead);
                let t = Transform {
                    xor: if at[0] & 0x04 != 0 { 0x07 } else { 0 },
                    diagonal: false,
                };
                (t, lead + other_pawns(shape))
            }
        };
        // A part: its first piece, its size and factor.
        let part = |i: usize| match leading_parts {
            Some(f) if i < 3 => (1, f[i - 1]),
            _ => (
                usize::from(layout.groups[i]).clamp(1, n - i),
                layout.factors[i],
            ),
        };
        let alone = match leading_parts {
            Some(_) if p < 3 => true,
            _ => layout.groups[p] == 1,
        };
        if p < start || !alone {
            return None;
        }
        let index = match shape {
            RowShape::Pawnless(leading) => pawnless_index(layout, leading, &mut sq.to_vec()),
            RowShape::Pawns { lead, other } => pawn_index(layout, lead, other, &mut at.to_vec()),
        };
        for s in at.iter_mut() {
            *s = transform.apply(*s);
        }
        let bit = |s: Sq| 1u64 << s;
        let below = |set: u64, s: Sq| u64::from((set & (bit(s) - 1)).count_ones());
        let before = at[..p].iter().fold(0, |m, &s| m | bit(s));
        let factor = part(p).1;
        let moving = at[p];
        let mut row = RowIndex {
            transform,
            base: 0,
            factor,
            before,
            later: [(0, 0); MAX_TB_PIECES],
            later_count: 0,
        };
        let mut moving_part = factor.wrapping_mul(u64::from(moving) - below(before, moving));
        let mut i = p + 1;
        while i < n {
            let (size, group_factor) = part(i);
            at[i..i + size].sort_unstable();
            // Without the moving piece, what the pieces before the group leave below each.
            let placed = at[..i].iter().fold(0, |m, &s| m | bit(s)) & !bit(moving);
            for k in 0..size {
                let u = at[i + k];
                let free = i32::from(u) - below(placed, u) as i32;
                let change = binomial(free - 1, k + 1).wrapping_sub(binomial(free, k + 1));
                let change = change.wrapping_mul(group_factor);
                row.later[row.later_count] = (u, change);
                row.later_count += 1;
                if moving < u {
                    moving_part = moving_part.wrapping_add(change);
                }
            }
            i += size;
        }
        row.base = index.wrapping_sub(moving_part);
        Some(row)
    }

    /// The index of the row's position with the moving piece on `s` (the file's orientation,
    /// unreduced).
    #[inline]
    pub(crate) fn index(&self, s: Sq) -> u64 {
        let s = self.transform.apply(s);
        let own = u64::from(s) - u64::from((self.before & ((1u64 << s) - 1)).count_ones());
        let mut idx = self.base.wrapping_add(self.factor.wrapping_mul(own));
        for &(u, change) in &self.later[..self.later_count] {
            if s < u {
                idx = idx.wrapping_add(change);
            }
        }
        idx
    }
}

fn other_pawns(shape: RowShape) -> usize {
    match shape {
        RowShape::Pawns { other, .. } => other,
        RowShape::Pawnless(_) => 0,
    }
}

/// The parts of a table's index that decide a row's rule: the leading pieces without pawns,
/// with pawns the leading pawns and the other colour's.
#[derive(Clone, Copy, Debug)]
pub(crate) enum RowShape {
    Pawnless(Leading),
    Pawns { lead: usize, other: usize },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_triangle_and_its_inverse_agree() {
        for (n, &sq) in TRIANGLE_SQUARES.iter().enumerate() {
            assert_eq!(TRIANGLE[sq as usize] as usize, n);
        }
        assert_eq!(TRIANGLE[63], TRIANGLE[0]);
        assert_eq!(TRIANGLE[7], TRIANGLE[0]);
        assert_eq!(TRIANGLE[6], 0); // g1 mirrors b1
    }

    #[test]
    fn king_pairs_number_462() {
        let codes: Vec<u16> = KING_PAIR_INDEX
            .iter()
            .flatten()
            .copied()
            .filter(|&c| c != u16::MAX)
            .collect();
        assert_eq!(codes.len() as u64, KING_PAIRS);
        assert_eq!(codes.iter().max(), Some(&461));
        // b1 with the other king on d1 is the first pair; a1-c3 comes after all others.
        assert_eq!(KING_PAIR_INDEX[0][3], 0);
        assert_eq!(KING_PAIR_INDEX[6][18], 441);
    }

    #[test]
    fn pawn_numbers_cover_their_ranges() {
        assert_eq!(PAWN_ORDER[8], 0);
        assert_eq!(PAWN_ORDER[48], 5);
        assert_eq!(PAWN_ORDER[15], 0);
        assert_eq!(PAWN_TWIST[8], 47);
        assert_eq!(PAWN_TWIST[52], 0);
        assert_eq!(PAWN_TWIST[34], 17);
        assert_eq!(leading_pawn_placements(1, 0), 6);
        assert_eq!(binomial(5, 2), 10);
        assert_eq!(binomial(1, 2), 0);
    }
}
