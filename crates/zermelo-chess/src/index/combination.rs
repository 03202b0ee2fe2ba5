//! Equal pieces as one digit: the `r`-element subsets of `0..n` ranked in colexicographic
//! order, `rank({x_0 < x_1 < ... < x_{r-1}}) = C(x_0, 1) + C(x_1, 2) + ... + C(x_{r-1}, r)`,
//! a bijection onto `0..C(n, r)` for every `n` (the combinatorial number system). Unranking
//! takes the largest element first: `x_{r-1}` is the largest `x` with `C(x, r) <= rank`.

/// The most elements a ranked subset has (every piece but the two kings, with eight pieces).
pub(super) const MAX_RUN: usize = 6;

/// `BINOMIAL[x][k]` = C(x, k) for `x <= 64`, `k <= MAX_RUN` (C(64, 6) < 2^37).
pub(super) static BINOMIAL: [[u64; MAX_RUN + 1]; 65] = build_binomial();

const fn build_binomial() -> [[u64; MAX_RUN + 1]; 65] {
    let mut c = [[0u64; MAX_RUN + 1]; 65];
    let mut x = 0;
    while x <= 64 {
        c[x][0] = 1;
        let mut k = 1;
        while k <= MAX_RUN {
            c[x][k] = if x == 0 {
                0
            } else {
                c[x - 1][k - 1] + c[x - 1][k]
            };
            k += 1;
        }
        x += 1;
    }
    c
}

/// C(n, r): how many ranks `r` elements of `0..n` have.
#[inline]
pub(super) fn count(n: usize, r: usize) -> u64 {
    BINOMIAL[n][r]
}

/// The colexicographic rank of the ascending elements `xs` (each below 64).
#[inline]
pub(super) fn rank(xs: &[u8]) -> u64 {
    xs.iter()
        .enumerate()
        .map(|(k, &x)| BINOMIAL[x as usize][k + 1])
        .sum()
}

/// The ascending elements of rank `rank` among the subsets of `out.len()` elements of `0..n`
/// (`rank < C(n, out.len())`).
#[inline]
pub(super) fn unrank(mut rank: u64, n: usize, out: &mut [u8]) {
    let mut below = n;
    for k in (1..=out.len()).rev() {
        // The largest x < below with C(x, k) <= rank: C(k - 1, k) = 0 bounds it from below.
        let (mut lo, mut hi) = (k - 1, below);
        while hi - lo > 1 {
            let mid = (lo + hi) / 2;
            if BINOMIAL[mid][k] <= rank {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        rank -= BINOMIAL[lo][k];
        out[k - 1] = lo as u8;
        below = lo;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every subset of up to four elements of `0..n` for small `n`, listed in colexicographic
    /// order by brute force (sorted by their elements from the largest down): ranks 0, 1, 2,
    /// ... in that order, and unranked back.
    #[test]
    fn ranks_count_subsets_in_colexicographic_order() {
        for n in 0..=12usize {
            for r in 1..=4usize.min(n) {
                let mut subsets: Vec<Vec<u8>> = (0u32..1 << n)
                    .filter(|m| m.count_ones() as usize == r)
                    .map(|m| (0..n as u8).filter(|&x| m >> x & 1 != 0).collect())
                    .collect();
                subsets.sort_by(|a, b| a.iter().rev().cmp(b.iter().rev()));
                assert_eq!(subsets.len() as u64, count(n, r), "C({n}, {r})");
                for (want, xs) in subsets.iter().enumerate() {
                    assert_eq!(rank(xs), want as u64, "{xs:?}");
                    let mut back = vec![0u8; r];
                    unrank(want as u64, n, &mut back);
                    assert_eq!(&back, xs, "n {n} rank {want}");
                }
            }
        }
    }

    #[test]
    fn large_subsets_round_trip() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        for r in 1..=MAX_RUN {
            for _ in 0..2000 {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                let rank_ = seed % count(62, r);
                let mut xs = vec![0u8; r];
                unrank(rank_, 62, &mut xs);
                assert!(xs.windows(2).all(|w| w[0] < w[1]) && xs[r - 1] < 62);
                assert_eq!(rank(&xs), rank_);
            }
        }
        assert_eq!(count(62, 4), 557_845);
        assert_eq!(BINOMIAL[64][6], 74_974_368);
    }
}
