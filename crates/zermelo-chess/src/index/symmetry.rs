//! The 8 board symmetries as a table, shared by both index schemes.

/// `[symmetry][square]`: [`Square::transform`](crate::Square::transform) as a table, computed
/// at compile time (bit 0 mirrors files, bit 1 ranks, bit 2 swaps files and ranks after the
/// mirrors). Symmetry 4 is the flip along the long diagonal a1-h8, 1 the left-right mirror.
pub(super) static TRANSFORMS: [[u8; 64]; 8] = build_transforms();

/// The flip along the diagonal a1-h8 (files and ranks swapped).
pub(super) const DIAGONAL_FLIP: u8 = 4;

const fn build_transforms() -> [[u8; 64]; 8] {
    let mut out = [[0u8; 64]; 8];
    let mut t = 0;
    while t < 8 {
        let mut s = 0;
        while s < 64 {
            out[t][s] = transform(t as u8, s as u8);
            s += 1;
        }
        t += 1;
    }
    out
}

/// Symmetry `t` applied to square `s` (see [`TRANSFORMS`]).
pub(super) const fn transform(t: u8, s: u8) -> u8 {
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
    r * 8 + f
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::square::Square;

    #[test]
    fn transform_table_is_square_transform() {
        for t in 0..8u8 {
            for s in 0..64u8 {
                let want = Square::new(s).unwrap().transform(t).index() as u8;
                assert_eq!(TRANSFORMS[t as usize][s as usize], want, "{t} {s}");
            }
        }
        // The diagonal flip fixes exactly the squares of a1-h8.
        for s in 0..64u8 {
            let fixed = TRANSFORMS[DIAGONAL_FLIP as usize][s as usize] == s;
            assert_eq!(fixed, s % 8 == s / 8, "{s}");
        }
    }
}
