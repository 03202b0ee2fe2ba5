//! Wythoff's game: two piles; a move takes any positive number from one pile, or the same
//! positive number from both. The player who cannot move loses.
//!
//! Closed form (Wythoff 1907; seed 004): the losing positions are the pairs `(a_k, b_k)` and
//! `(b_k, a_k)` with `a_k = ⌊kφ⌋`, `b_k = a_k + k`, `k ≥ 0`, `φ = (1 + √5)/2`. The sequences
//! `(a_k)` and `(b_k)` (Beatty sequences) partition the positive integers.
//!
//! **Exactness.** No floating point: `⌊kφ⌋ = ⌊(k + ⌊k√5⌋) / 2⌋`, because `k√5` is irrational for
//! `k > 0` and adding the integer `k` commutes with the floor; `⌊k√5⌋ = ⌊√(5k²)⌋` is an exact
//! integer square root of a number below `2^131`, computed by bisection with a 256-bit square.
//! Every pile up to `u64::MAX` is handled exactly (values are `u128` where `b_k` can exceed
//! `u64::MAX`). Cost: O(log) per query — about 200 wide multiplications.
//!
//! Depth is not given by the closed form: reports leave it out (`null`), and the tests check
//! outcomes and moves against the generic solver.

use zermelo::game::Game;
use zermelo::Outcome;

/// Wythoff's game by its rules: a position is the two piles.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Wythoff;

impl Game for Wythoff {
    type Position = (u64, u64);

    fn moves(&self, &(a, b): &(u64, u64), out: &mut Vec<(u64, u64)>) {
        out.extend((0..a).map(|x| (x, b)));
        out.extend((0..b).map(|y| (a, y)));
        out.extend((1..=a.min(b)).map(|t| (a - t, b - t)));
    }
}

/// `(hi, lo)` of the full 256-bit product `x · y`.
fn mul_wide(x: u128, y: u128) -> (u128, u128) {
    let (x0, x1) = (x & u128::from(u64::MAX), x >> 64);
    let (y0, y1) = (y & u128::from(u64::MAX), y >> 64);
    let (p00, p01, p10, p11) = (x0 * y0, x0 * y1, x1 * y0, x1 * y1);
    let mid = (p00 >> 64) + (p01 & u128::from(u64::MAX)) + (p10 & u128::from(u64::MAX));
    let lo = (p00 & u128::from(u64::MAX)) | (mid << 64);
    let hi = p11 + (p01 >> 64) + (p10 >> 64) + (mid >> 64);
    (hi, lo)
}

/// `⌊k√5⌋`, exactly: the largest `r` with `r² ≤ 5k²`.
pub fn floor_k_sqrt5(k: u64) -> u128 {
    let k2 = u128::from(k) * u128::from(k);
    let target = mul_wide(k2, 5);
    // r < 3 · 2^64, so the bisection runs over [0, 2^66).
    let (mut lo, mut hi) = (0u128, 1u128 << 66);
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if mul_wide(mid, mid) <= target {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    lo
}

/// The `k`-th losing position `(a_k, b_k)`, `a_k = ⌊kφ⌋`, `b_k = a_k + k`.
pub fn p_position(k: u64) -> (u128, u128) {
    let a = (u128::from(k) + floor_k_sqrt5(k)) / 2;
    (a, a + u128::from(k))
}

/// Where a number sits in the two Beatty sequences.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Beatty {
    /// `v = a_k`.
    Lower(u64),
    /// `v = b_k` (for `v > 0`; 0 is `a_0 = b_0` and reported as `Lower(0)`).
    Upper(u64),
}

/// Finds `k` with `v = a_k` or `v = b_k`.
///
/// `a_k = v` forces `k = ⌈v/φ⌉ = ⌊v/φ⌋ + 1` (the interval `[v/φ, (v+1)/φ)` is shorter than 1),
/// and `⌊v/φ⌋ = ⌊(⌊v√5⌋ - v)/2⌋`; otherwise `v = b_k` with `k = ⌈v/φ²⌉ = v - ⌊v/φ⌋`.
pub fn beatty(v: u64) -> Beatty {
    if v == 0 {
        return Beatty::Lower(0);
    }
    let floor_v_over_phi = ((floor_k_sqrt5(v) - u128::from(v)) / 2) as u64;
    let k = floor_v_over_phi + 1;
    if p_position(k).0 == u128::from(v) {
        Beatty::Lower(k)
    } else {
        let k = v - floor_v_over_phi;
        debug_assert_eq!(p_position(k).1, u128::from(v));
        Beatty::Upper(k)
    }
}

/// True when `(a, b)` (in either order) is lost for the player to move.
pub fn is_p_position(a: u64, b: u64) -> bool {
    let (x, y) = (a.min(b), a.max(b));
    p_position(y - x).0 == u128::from(x)
}

/// A Wythoff move: take `from_first` from the first pile and `from_second` from the second
/// (one of them zero, or both equal).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WythoffMove {
    /// Taken from the first pile.
    pub from_first: u64,
    /// Taken from the second pile.
    pub from_second: u64,
}

impl WythoffMove {
    /// The piles after the move.
    pub fn apply(&self, (a, b): (u64, u64)) -> (u64, u64) {
        (a - self.from_first, b - self.from_second)
    }
}

/// The closed-form analysis of a Wythoff position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WythoffAnalysis {
    /// WIN or LOSE for the player to move.
    pub outcome: Outcome,
    /// A winning move when the outcome is WIN: among all moves to a losing position, the one
    /// taking the fewest stones in total (a move on both piles counts both), ties going to the
    /// first pile, then the second, then both.
    pub winning_move: Option<WythoffMove>,
}

/// Analyses the piles `(a, b)`, exactly, for any `u64` values.
///
/// ```
/// use zermelo_games::wythoff::{analyse, WythoffMove};
/// use zermelo::Outcome;
/// assert_eq!(analyse(3, 5).outcome, Outcome::Lose); // (a_2, b_2)
/// let a = analyse(4, 9);
/// assert_eq!(a.outcome, Outcome::Win);
/// assert_eq!(a.winning_move, Some(WythoffMove { from_first: 0, from_second: 2 })); // to (a_3, b_3)
/// // Exact near the top of the u64 range: b_k for k = 7·10^18 is about 1.83·10^19.
/// let (ak, bk) = zermelo_games::wythoff::p_position(7_000_000_000_000_000_000);
/// let (ak, bk) = (u64::try_from(ak).unwrap(), u64::try_from(bk).unwrap());
/// assert_eq!(analyse(ak, bk).outcome, Outcome::Lose);
/// assert_eq!(analyse(ak + 1, bk).outcome, Outcome::Win);
/// ```
pub fn analyse(a: u64, b: u64) -> WythoffAnalysis {
    if is_p_position(a, b) {
        return WythoffAnalysis {
            outcome: Outcome::Lose,
            winning_move: None,
        };
    }
    let swapped = a > b;
    let (x, y) = if swapped { (b, a) } else { (a, b) };
    let best = moves_to_p_positions(x, y)
        .into_iter()
        .map(|(tx, ty)| {
            let (f, s) = if swapped { (ty, tx) } else { (tx, ty) };
            WythoffMove {
                from_first: f,
                from_second: s,
            }
        })
        .min_by_key(|m| {
            let kind = match (m.from_first, m.from_second) {
                (_, 0) => 0,
                (0, _) => 1,
                _ => 2,
            };
            (u128::from(m.from_first) + u128::from(m.from_second), kind)
        });
    WythoffAnalysis {
        outcome: Outcome::Win,
        winning_move: best,
    }
}

/// Every move from `(x, y)`, `x ≤ y`, to a losing position, as (taken from x, taken from y).
/// With `k = y - x`: slide down the diagonal to `(a_k, b_k)`; keep `x` and cut `y` to its
/// partner; or keep `y` and cut `x` to its partner. At most three moves.
fn moves_to_p_positions(x: u64, y: u64) -> Vec<(u64, u64)> {
    let mut moves = Vec::with_capacity(3);
    let k = y - x;
    let (ak, _) = p_position(k);
    if ak < u128::from(x) {
        let t = x - ak as u64;
        moves.push((t, t));
    }
    match beatty(x) {
        // x = a_j: the partner b_j = x + j, reachable from y when it is smaller.
        Beatty::Lower(j) if j < k => moves.push((0, k - j)),
        // x = b_j: reduce y to a_j (< x ≤ y).
        Beatty::Upper(j) => moves.push((0, y - p_position(j).0 as u64)),
        _ => {}
    }
    if let Beatty::Upper(j) = beatty(y) {
        let aj = p_position(j).0 as u64;
        if aj < x {
            moves.push((x - aj, 0)); // reduce x to a_j, leaving (a_j, b_j = y)
        }
    }
    moves
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_p_positions() {
        let got: Vec<(u128, u128)> = (0..8).map(p_position).collect();
        let want = [
            (0, 0),
            (1, 2),
            (3, 5),
            (4, 7),
            (6, 10),
            (8, 13),
            (9, 15),
            (11, 18),
        ];
        assert_eq!(got, want);
    }

    #[test]
    fn square_root_is_exact_at_the_top() {
        for k in [1, 2, 3, u64::MAX, u64::MAX - 1, 1 << 63, 0xFFFF_FFFF] {
            let r = floor_k_sqrt5(k);
            let five_k2 = mul_wide(u128::from(k) * u128::from(k), 5);
            assert!(mul_wide(r, r) <= five_k2);
            assert!(mul_wide(r + 1, r + 1) > five_k2);
        }
    }

    #[test]
    fn wide_multiplication() {
        assert_eq!(mul_wide(u128::MAX, u128::MAX), (u128::MAX - 1, 1));
        assert_eq!(mul_wide(1 << 64, 1 << 64), (1, 0));
        assert_eq!(mul_wide(3, 5), (0, 15));
    }
}
