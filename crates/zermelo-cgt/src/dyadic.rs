//! Dyadic rationals `n / 2^k`: the numbers of short games.
//!
//! A numerator of at most [`MAX_BITS`] bits and an exponent of at most [`MAX_EXP`]; arithmetic
//! that would leave these bounds fails with [`CgtError::NumberTooLarge`] instead of wrapping.

use std::cmp::Ordering;
use std::fmt;
use std::ops::Neg;

use crate::error::CgtError;
use crate::limits::{MAX_BITS, MAX_EXP};

/// A dyadic rational `num / 2^exp`, normalised (`exp == 0` or `num` odd).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Dyadic {
    num: i128,
    exp: u32,
}

impl Dyadic {
    /// Zero.
    pub const ZERO: Dyadic = Dyadic { num: 0, exp: 0 };

    /// `num / 2^exp`, normalised.
    ///
    /// # Errors
    /// [`CgtError::NumberTooLarge`] past the bounds.
    pub fn new(mut num: i128, mut exp: u32) -> Result<Dyadic, CgtError> {
        while exp > 0 && num % 2 == 0 {
            num /= 2;
            exp -= 1;
        }
        if exp > MAX_EXP || num.unsigned_abs() >> MAX_BITS != 0 {
            return Err(CgtError::NumberTooLarge);
        }
        Ok(Dyadic { num, exp })
    }

    /// An integer.
    pub fn integer(n: i64) -> Dyadic {
        Dyadic {
            num: i128::from(n),
            exp: 0,
        }
    }

    /// The numerator.
    pub fn numerator(self) -> i128 {
        self.num
    }

    /// The exponent of the denominator `2^exp`.
    pub fn exponent(self) -> u32 {
        self.exp
    }

    /// True for an integer.
    pub fn is_integer(self) -> bool {
        self.exp == 0
    }

    /// The numerators of `self` and `other` over the common denominator `2^max(exp)`.
    fn aligned(self, other: Dyadic) -> (i128, i128, u32) {
        let e = self.exp.max(other.exp);
        (self.num << (e - self.exp), other.num << (e - other.exp), e)
    }

    /// `self + other`.
    ///
    /// # Errors
    /// [`CgtError::NumberTooLarge`] past the bounds.
    pub fn checked_add(self, other: Dyadic) -> Result<Dyadic, CgtError> {
        let (a, b, e) = self.aligned(other);
        Dyadic::new(a + b, e)
    }

    /// Half of `self`.
    ///
    /// # Errors
    /// [`CgtError::NumberTooLarge`] past the bounds.
    pub fn half(self) -> Result<Dyadic, CgtError> {
        Dyadic::new(self.num, self.exp + 1)
    }

    /// The largest integer `<= self`.
    pub fn floor(self) -> i128 {
        self.num >> self.exp
    }

    /// The smallest integer `>= self`.
    pub fn ceil(self) -> i128 {
        -(self.neg().floor())
    }

    /// The canonical Left option of this number as a game: `n - 1` for an integer `n > 0`, none
    /// for an integer `<= 0`, `self - 2^-exp` otherwise.
    pub fn left_option(self) -> Option<Dyadic> {
        match self.exp {
            0 if self.num > 0 => Some(Dyadic::integer_i128(self.num - 1)),
            0 => None,
            _ => Some(Dyadic::norm(self.num - 1, self.exp)),
        }
    }

    /// The canonical Right option (mirror of [`Dyadic::left_option`]).
    pub fn right_option(self) -> Option<Dyadic> {
        self.neg().left_option().map(Dyadic::neg)
    }

    fn integer_i128(num: i128) -> Dyadic {
        Dyadic { num, exp: 0 }
    }

    /// Normalises a value known to be within bounds (no larger than one that was).
    fn norm(mut num: i128, mut exp: u32) -> Dyadic {
        while exp > 0 && num % 2 == 0 {
            num /= 2;
            exp -= 1;
        }
        Dyadic { num, exp }
    }

    /// The simplest number strictly between `lo` and `hi` (either may be absent), which is the
    /// value of `{lo | hi}` (the simplicity rule, *Winning Ways* ch. 2). Requires `lo < hi`.
    ///
    /// # Errors
    /// [`CgtError::NumberTooLarge`] past the bounds.
    pub fn simplest_between(lo: Option<Dyadic>, hi: Option<Dyadic>) -> Result<Dyadic, CgtError> {
        let above = |x: Dyadic| -> i128 { x.floor() + 1 }; // least integer > x
        let below = |x: Dyadic| -> i128 { x.ceil() - 1 }; // greatest integer < x
        let int = |n: i128| Dyadic::new(n, 0);
        match (lo, hi) {
            (None, None) => Ok(Dyadic::ZERO),
            (Some(a), None) => int(above(a).max(0)),
            (None, Some(b)) => int(below(b).min(0)),
            (Some(a), Some(b)) => {
                let (l, h) = (above(a), below(b));
                if l <= h {
                    // An integer lies between: the one nearest 0.
                    return int(if l > 0 {
                        l
                    } else if h < 0 {
                        h
                    } else {
                        0
                    });
                }
                // No integer between: the dyadic with the smallest denominator.
                let mut k = 1;
                loop {
                    // The least multiple of 2^-k above a: (floor(a 2^k) + 1) / 2^k.
                    let floor = if k >= a.exp {
                        let shift = k - a.exp;
                        if 128 - a.num.unsigned_abs().leading_zeros() + shift > 125 {
                            return Err(CgtError::NumberTooLarge);
                        }
                        a.num << shift
                    } else {
                        a.num >> (a.exp - k)
                    };
                    let candidate = Dyadic::new(floor + 1, k)?;
                    if candidate < b {
                        return Ok(candidate);
                    }
                    k += 1;
                }
            }
        }
    }
}

impl std::ops::Neg for Dyadic {
    type Output = Dyadic;

    fn neg(self) -> Dyadic {
        Dyadic {
            num: -self.num,
            exp: self.exp,
        }
    }
}

impl Ord for Dyadic {
    fn cmp(&self, other: &Dyadic) -> Ordering {
        let (a, b, _) = self.aligned(*other);
        a.cmp(&b)
    }
}

impl PartialOrd for Dyadic {
    fn partial_cmp(&self, other: &Dyadic) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for Dyadic {
    /// `3`, `-2`, `3/8`, `-1/2`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.exp == 0 {
            write!(f, "{}", self.num)
        } else {
            write!(f, "{}/{}", self.num, 1u128 << self.exp)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(n: i128, e: u32) -> Dyadic {
        Dyadic::new(n, e).unwrap()
    }

    #[test]
    fn simplicity_rule() {
        let s = |a: Option<Dyadic>, b: Option<Dyadic>| Dyadic::simplest_between(a, b).unwrap();
        assert_eq!(s(None, None), Dyadic::ZERO);
        assert_eq!(s(Some(d(0, 0)), None), d(1, 0));
        assert_eq!(s(Some(d(-3, 0)), None), d(0, 0));
        assert_eq!(s(None, Some(d(-3, 0))), d(-4, 0));
        assert_eq!(s(Some(d(0, 0)), Some(d(1, 0))), d(1, 1));
        assert_eq!(s(Some(d(1, 1)), Some(d(1, 0))), d(3, 2));
        assert_eq!(s(Some(d(5, 3)), Some(d(7, 3))), d(3, 2));
        assert_eq!(s(Some(d(-1, 0)), Some(d(1, 0))), d(0, 0));
        assert_eq!(s(Some(d(1, 0)), Some(d(5, 0))), d(2, 0));
        assert_eq!(s(Some(d(-7, 1)), Some(d(-5, 1))), d(-3, 0));
        assert_eq!(s(Some(d(-1, 0)), Some(d(-1, 1))), d(-3, 2));
    }

    #[test]
    fn display_and_options() {
        assert_eq!(d(3, 3).to_string(), "3/8");
        assert_eq!(d(-4, 1).to_string(), "-2");
        assert_eq!(d(3, 3).left_option(), Some(d(1, 2)));
        assert_eq!(d(3, 3).right_option(), Some(d(1, 1)));
        assert_eq!(d(2, 0).left_option(), Some(d(1, 0)));
        assert_eq!(d(2, 0).right_option(), None);
        assert_eq!(Dyadic::new(1, MAX_EXP + 1), Err(CgtError::NumberTooLarge));
    }
}
