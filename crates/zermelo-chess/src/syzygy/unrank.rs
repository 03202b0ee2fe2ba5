//! The inverse of [`super::encode`]: the squares of the pieces at an index of a sub-table's
//! layout, for writing tables in any layout.
//!
//! Each part of an index (the leading pieces, the other colour's pawns, each further group)
//! is `(idx / factor) % placements`. The leading part is looked up in a table made by running
//! the encoder over every placement of the leading pieces (a few hundred thousand at most),
//! so the two cannot disagree; a group is a combination, decoded in the combinatorial number
//! system and placed on the squares the pieces before it leave free. The encoder brings a
//! position to its frame by the leading pieces alone, so every index is one it produces,
//! but where two leading pawns tie for the lead (a7 and h7): there an index may decode to a
//! placement the encoder would have mirrored, whose squares encode to another index.
//! [`unrank`] says so, and such an index holds no position.

use std::sync::OnceLock;

use super::encode::{self, binomial, Layout, Leading};
use super::table::Shape;

/// Squares of a sub-table's pieces, in layout order.
pub(crate) type Squares = [u8; encode::MAX_TB_PIECES];

/// A layout of only `n` leading pieces (factor 1), to run the encoder on their placements.
fn lead_only(n: usize, size: u64) -> Layout {
    let mut groups = [0u8; encode::MAX_TB_PIECES];
    groups[0] = n as u8;
    let mut factors = [0u64; encode::MAX_TB_PIECES];
    factors[0] = 1;
    Layout {
        // Codes are not read by the encoder; pawns for a pawn layout.
        pieces: vec![1; n],
        groups,
        factors,
        size,
    }
}

fn touching(a: u8, b: u8) -> bool {
    let (fa, ra, fb, rb) = (a & 7, a >> 3, b & 7, b >> 3);
    fa.abs_diff(fb) <= 1 && ra.abs_diff(rb) <= 1
}

/// Per leading index of a pawnless layout, its leading squares as the encoder sees them.
fn pawnless_leads(leading: Leading) -> &'static [[u8; 3]] {
    static THREE: OnceLock<Vec<[u8; 3]>> = OnceLock::new();
    static KINGS: OnceLock<Vec<[u8; 3]>> = OnceLock::new();
    let (cell, n) = match leading {
        Leading::ThreeUnique => (&THREE, 3),
        Leading::KingPair => (&KINGS, 2),
    };
    cell.get_or_init(|| {
        let layout = lead_only(n, leading.placements());
        let mut out = vec![[u8::MAX; 3]; leading.placements() as usize];
        for a in 0..64u8 {
            for b in (0..64u8).filter(|&b| b != a) {
                // The two kings of a king-pair layout never touch.
                if n == 2 && touching(a, b) {
                    continue;
                }
                for c in (0..64u8)
                    .filter(|&c| c != a && c != b)
                    .take(if n == 3 { 64 } else { 1 })
                {
                    let mut sq = [a, b, c];
                    let idx = encode::pawnless_index(&layout, leading, &mut sq[..n]) as usize;
                    if out[idx][0] == u8::MAX {
                        out[idx] = sq;
                    }
                }
            }
        }
        out
    })
}

/// Per leading-pawn file and index, the leading pawns' squares as the encoder sees them.
fn pawn_leads(count: usize) -> &'static [Vec<Vec<u8>>; 4] {
    static TABLES: [OnceLock<[Vec<Vec<u8>>; 4]>; 6] = [const { OnceLock::new() }; 6];
    TABLES[count - 1].get_or_init(|| {
        let mut out: [Vec<Vec<u8>>; 4] = Default::default();
        for (f, table) in out.iter_mut().enumerate() {
            *table = vec![Vec::new(); encode::leading_pawn_placements(count, f) as usize];
        }
        let layout = lead_only(count, 0);
        let mut combo: Vec<u8> = (8..8 + count as u8).collect();
        loop {
            let mut sq = combo.clone();
            let f = encode::lead_pawn_file(&mut sq, count);
            let idx = encode::pawn_index(&layout, count, 0, &mut sq) as usize;
            if out[f][idx].is_empty() {
                out[f][idx] = sq;
            }
            if !next_combination(&mut combo, 56) {
                break;
            }
        }
        out
    })
}

/// The next increasing combination of squares below `end` (false after the last).
fn next_combination(c: &mut [u8], end: u8) -> bool {
    let k = c.len();
    for i in (0..k).rev() {
        if c[i] < end - (k - i) as u8 {
            c[i] += 1;
            for j in i + 1..k {
                c[j] = c[j - 1] + 1;
            }
            return true;
        }
    }
    false
}

/// Places a group of `size` pieces at `sq[at..]` from its combination number `n`: the
/// `r`-th free square (counting from `floor`, skipping the squares of `sq[..at]`) for each
/// rank `r` of the combination.
fn place_group(sq: &mut [u8], at: usize, size: usize, mut n: u64, floor: u8) {
    let mut ranks = [0u8; encode::MAX_TB_PIECES];
    for k in (1..=size).rev() {
        let c = largest_below(k, n);
        n -= binomial(c, k);
        ranks[k - 1] = c as u8;
    }
    let taken = sq[..at].iter().fold(0u64, |m, &s| m | 1 << s);
    let free = !taken & (u64::MAX << floor);
    for (k, &r) in ranks[..size].iter().enumerate() {
        sq[at + k] = nth_bit(free, u32::from(r));
    }
}

/// The largest `c < 64` with `binomial(c, k) <= n` (`k >= 1`): the rank of the `k`-th
/// element of a combination in the combinatorial number system.
fn largest_below(k: usize, n: u64) -> i32 {
    if k == 1 {
        return n.min(63) as i32;
    }
    // binomial(c, k) grows with c from binomial(k - 1, k) = 0.
    let (mut lo, mut hi) = (k as i32 - 1, 63);
    while lo < hi {
        let mid = (lo + hi + 1) / 2;
        if binomial(mid, k) <= n {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    lo
}

/// Per byte value and rank `r < 8`, the bit of the byte that is its `r`-th set bit.
const IN_BYTE: [[u8; 8]; 256] = {
    let mut t = [[0u8; 8]; 256];
    let mut b = 0;
    while b < 256 {
        let (mut bit, mut r) = (0, 0);
        while bit < 8 {
            if b >> bit & 1 == 1 {
                t[b][r] = bit as u8;
                r += 1;
            }
            bit += 1;
        }
        b += 1;
    }
    t
};

/// The square of the `r`-th set bit of `mask` (counting from 0; `r` below its count),
/// without branches: the bytes' counts summed bytewise, the byte holding it found by a
/// bytewise comparison with `r`, and the bit in it looked up.
fn nth_bit(mask: u64, r: u32) -> u8 {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    let mut c = mask - ((mask >> 1) & 0x5555_5555_5555_5555);
    c = (c & 0x3333_3333_3333_3333) + ((c >> 2) & 0x3333_3333_3333_3333);
    c = (c + (c >> 4)) & 0x0f0f_0f0f_0f0f_0f0f;
    // Byte `i`: the set bits of bytes 0..=i (at most 64: no carries).
    let sums = c.wrapping_mul(ONES);
    // Byte `i`'s high bit: whether bytes 0..=i hold at most `r` set bits.
    let below = (((u64::from(r) * ONES) | HIGHS) - sums) & HIGHS;
    let at = below.count_ones() * 8;
    let before = ((sums << 8) >> at) & 0xff;
    let byte = (mask >> at) & 0xff;
    at as u8 + IN_BYTE[byte as usize][(u64::from(r) - before) as usize]
}

/// The squares (in layout order) of index `idx < layout.size` of the sub-table of leading
/// pawn file `file` (0 for a pawnless table), and whether the encoder gives that index back
/// for them (`false`: the index holds no position).
pub(crate) fn unrank(layout: &Layout, shape: Shape, file: usize, idx: u64) -> (Squares, bool) {
    let mut sq: Squares = [0; encode::MAX_TB_PIECES];
    let n = layout.pieces.len();
    let part = |at: usize, count: u64| (idx / layout.factors[at]) % count;
    let first = match shape {
        Shape::Pawnless(leading) => {
            let k = leading.count();
            let lead = pawnless_leads(leading)[part(0, leading.placements()) as usize];
            sq[..k].copy_from_slice(&lead[..k]);
            k
        }
        Shape::Pawns { lead, other } => {
            let places = encode::leading_pawn_placements(lead, file);
            let squares = &pawn_leads(lead)[file][part(0, places) as usize];
            sq[..lead].copy_from_slice(squares);
            if other > 0 {
                let combos = binomial(48 - lead as i32, other);
                place_group(&mut sq, lead, other, part(lead, combos), 8);
            }
            lead + other
        }
    };
    let mut i = first;
    while i < n {
        let g = usize::from(layout.groups[i]).max(1);
        let combos = binomial(64 - i as i32, g);
        place_group(&mut sq, i, g, part(i, combos), 0);
        i += g;
    }
    // The encoder's frame is decided by the leading pieces alone, and theirs here is one it
    // gives (the tables above hold its output): every index is one the encoder gives back,
    // unless two leading pawns tie for the lead (a7 and h7) and the frame is the mirror's.
    if !matches!(shape, Shape::Pawns { lead, .. } if lead >= 2) {
        return (sq, true);
    }
    let mut again = sq;
    let back = match shape {
        Shape::Pawnless(leading) => Some(encode::pawnless_index(layout, leading, &mut again[..n])),
        Shape::Pawns { lead, other } => {
            let f = encode::lead_pawn_file(&mut again[..n], lead);
            (f == file).then(|| encode::pawn_index(layout, lead, other, &mut again[..n]))
        }
    };
    (sq, back == Some(idx))
}

#[cfg(test)]
mod tests {
    use super::super::table::layout;
    use super::*;

    /// The indices of `l` that [`unrank`] decodes into squares the encoder gives them back
    /// for, checked whatever the shape (`unrank` checks only where two leading pawns may tie);
    /// counted against the number of positions up to symmetry.
    fn encoded_back(l: &Layout, shape: Shape, file: usize) -> u64 {
        let n = l.pieces.len();
        (0..l.size)
            .filter(|&i| {
                let (mut sq, _) = unrank(l, shape, file, i);
                match shape {
                    Shape::Pawnless(leading) => {
                        encode::pawnless_index(l, leading, &mut sq[..n]) == i
                    }
                    Shape::Pawns { lead, other } => {
                        encode::lead_pawn_file(&mut sq[..n], lead) == file
                            && encode::pawn_index(l, lead, other, &mut sq[..n]) == i
                    }
                }
            })
            .count() as u64
    }

    #[test]
    fn leading_tables_are_full() {
        assert!(pawnless_leads(Leading::ThreeUnique)
            .iter()
            .all(|s| s[0] != u8::MAX));
        assert!(pawnless_leads(Leading::KingPair)
            .iter()
            .all(|s| s[0] != u8::MAX));
        for count in 1..=3 {
            for f in 0..4 {
                assert!(pawn_leads(count)[f].iter().all(|s| s.len() == count));
            }
        }
    }

    #[test]
    fn krk_indices_decode_and_encode_back() {
        // KRvK: white king, white rook, black king lead (codes 6, 4, 14).
        let shape = Shape::Pawnless(Leading::ThreeUnique);
        let l = layout(vec![6, 4, 14], shape, 0, 15, 0).unwrap();
        let n = encoded_back(&l, shape, 0);
        // Placements of 3 distinct pieces up to the 8 symmetries (Burnside: the identity
        // fixes 64*63*62, each diagonal reflection the 8*7*6 with all three on its diagonal,
        // the rest none): every index is one.
        assert_eq!(n, (64 * 63 * 62 + 2 * 336) / 8);
        assert_eq!(n, 31_332);
    }

    #[test]
    fn groups_and_pawns_decode_and_encode_back() {
        // KRRvK with the rooks as a group after the kings: 462 * C(62, 2) indices (with both
        // kings on the diagonal a placement and its reflection are two indices).
        let codes = [6, 14, 4, 4];
        let l = layout(codes.to_vec(), Shape::Pawnless(Leading::KingPair), 0, 15, 0).unwrap();
        assert_eq!(l.size, 462 * 1891);
        assert_eq!(
            encoded_back(&l, Shape::Pawnless(Leading::KingPair), 0),
            l.size
        );
        // KQRvK: three unique leading pieces and one after them; KQNvKN with the kings
        // leading, then the knights as two kinds.
        let shape = Shape::Pawnless(Leading::ThreeUnique);
        let l = layout(vec![6, 5, 4, 14], shape, 0, 15, 0).unwrap();
        assert_eq!(l.size, 31_332 * 61);
        assert_eq!(encoded_back(&l, shape, 0), l.size);
        let shape = Shape::Pawnless(Leading::KingPair);
        let l = layout(vec![6, 14, 2, 10, 5], shape, 0, 15, 0).unwrap();
        assert_eq!(l.size, 462 * 62 * 61 * 60);
        assert_eq!(encoded_back(&l, shape, 0), l.size);
        // KPvKP: a white pawn leads, then the black pawn, then the kings. With one leading
        // pawn every index encodes back ([`unrank`] does not check it): checked here.
        let shape = Shape::Pawns { lead: 1, other: 1 };
        for f in 0..4 {
            let codes = [1, 9, 6, 14];
            let l = layout(codes.to_vec(), shape, 0, 1, f).unwrap();
            assert_eq!(l.size, 6 * 47 * 62 * 61);
            assert_eq!(encoded_back(&l, shape, f), l.size);
        }
        // KRRPvK: one leading pawn, then two identical rooks (a group) and the kings.
        let shape = Shape::Pawns { lead: 1, other: 0 };
        for f in [0, 3] {
            let l = layout(vec![1, 6, 4, 4, 14], shape, 0, 15, f).unwrap();
            assert_eq!(l.size, 6 * 63 * 1891 * 60);
            assert_eq!(encoded_back(&l, shape, f), l.size);
        }
    }

    /// The fast searches against the plain ones they replaced.
    #[test]
    fn ranks_and_bits_match_linear_searches() {
        for k in 1..=7 {
            for n in (0..binomial(63, k).min(1 << 20))
                .step_by(97)
                .chain([0, 1, 2])
            {
                let mut c = 63;
                while binomial(c, k) > n {
                    c -= 1;
                }
                assert_eq!(largest_below(k, n), c, "k {k} n {n}");
            }
        }
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..20_000 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let mask = seed;
            for r in 0..mask.count_ones() {
                let mut m = mask;
                for _ in 0..r {
                    m &= m - 1;
                }
                assert_eq!(nth_bit(mask, r), m.trailing_zeros() as u8, "{mask:x} {r}");
            }
        }
    }
}
