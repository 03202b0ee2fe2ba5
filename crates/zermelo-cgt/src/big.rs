//! [`BigDyadic`]: dyadic rationals of any size, for values that outgrow [`Dyadic`] (Blue-Red
//! Hackenbush trees of thousands of edges reach denominators of 2^1000 and more).
//!
//! Only what Berlekamp's rule needs: sums, negation, halving `k` times, the floor, printing.
//! Magnitudes are little-endian `u64` limbs without leading zero limbs. Sums cost O(limbs).

use std::cmp::Ordering;
use std::fmt;

use super::Dyadic;

/// `±mag / 2^exp`, normalised (`exp == 0` or `mag` odd; zero is never negative).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct BigDyadic {
    negative: bool,
    mag: Vec<u64>,
    exp: u64,
}

fn trim(m: &mut Vec<u64>) {
    while m.last() == Some(&0) {
        m.pop();
    }
}

fn mag_cmp(a: &[u64], b: &[u64]) -> Ordering {
    a.len()
        .cmp(&b.len())
        .then_with(|| a.iter().rev().cmp(b.iter().rev()))
}

fn mag_add(a: &[u64], b: &[u64]) -> Vec<u64> {
    let mut out = Vec::with_capacity(a.len().max(b.len()) + 1);
    let mut carry = 0u128;
    for i in 0..a.len().max(b.len()) {
        let s = u128::from(*a.get(i).unwrap_or(&0)) + u128::from(*b.get(i).unwrap_or(&0)) + carry;
        out.push(s as u64);
        carry = s >> 64;
    }
    if carry > 0 {
        out.push(carry as u64);
    }
    out
}

/// `a - b` for `a >= b`.
fn mag_sub(a: &[u64], b: &[u64]) -> Vec<u64> {
    let mut out = Vec::with_capacity(a.len());
    let mut borrow = 0i128;
    for (i, &x) in a.iter().enumerate() {
        let mut d = i128::from(x) - i128::from(*b.get(i).unwrap_or(&0)) - borrow;
        borrow = 0;
        if d < 0 {
            d += 1 << 64;
            borrow = 1;
        }
        out.push(d as u64);
    }
    trim(&mut out);
    out
}

fn mag_shl(a: &[u64], bits: u64) -> Vec<u64> {
    if a.is_empty() {
        return Vec::new();
    }
    let (limbs, rem) = ((bits / 64) as usize, (bits % 64) as u32);
    let mut out = vec![0u64; limbs];
    let mut carry = 0u64;
    for &x in a {
        if rem == 0 {
            out.push(x);
        } else {
            out.push(x << rem | carry);
            carry = x >> (64 - rem);
        }
    }
    if carry > 0 {
        out.push(carry);
    }
    out
}

fn mag_shr(a: &[u64], bits: u64) -> Vec<u64> {
    let (limbs, rem) = ((bits / 64) as usize, (bits % 64) as u32);
    if limbs >= a.len() {
        return Vec::new();
    }
    let src = &a[limbs..];
    let mut out: Vec<u64> = (0..src.len())
        .map(|i| {
            let lo = src[i] >> rem;
            let hi = if rem == 0 {
                0
            } else {
                src.get(i + 1).map_or(0, |&h| h << (64 - rem))
            };
            lo | hi
        })
        .collect();
    trim(&mut out);
    out
}

fn trailing_zeros(a: &[u64]) -> u64 {
    let mut z = 0;
    for &x in a {
        if x == 0 {
            z += 64;
        } else {
            return z + u64::from(x.trailing_zeros());
        }
    }
    z
}

impl BigDyadic {
    /// Zero.
    pub fn zero() -> BigDyadic {
        BigDyadic::default()
    }

    fn make(negative: bool, mut mag: Vec<u64>, mut exp: u64) -> BigDyadic {
        trim(&mut mag);
        if mag.is_empty() {
            return BigDyadic::zero();
        }
        let z = trailing_zeros(&mag).min(exp);
        if z > 0 {
            mag = mag_shr(&mag, z);
            exp -= z;
        }
        BigDyadic { negative, mag, exp }
    }

    /// An integer.
    pub fn integer(n: i64) -> BigDyadic {
        BigDyadic::make(n < 0, vec![n.unsigned_abs()], 0)
    }

    /// From a [`Dyadic`].
    pub fn from_dyadic(d: Dyadic) -> BigDyadic {
        let m = d.numerator().unsigned_abs();
        BigDyadic::make(
            d.numerator() < 0,
            vec![m as u64, (m >> 64) as u64],
            u64::from(d.exponent()),
        )
    }

    /// As a [`Dyadic`], if it fits.
    pub fn to_dyadic(&self) -> Option<Dyadic> {
        if self.mag.len() > 2 || self.exp > u64::from(u32::MAX) {
            return None;
        }
        let m = u128::from(self.mag.first().copied().unwrap_or(0))
            | u128::from(self.mag.get(1).copied().unwrap_or(0)) << 64;
        let m = i128::try_from(m).ok()?;
        Dyadic::new(if self.negative { -m } else { m }, self.exp as u32).ok()
    }

    /// -1, 0 or 1.
    pub fn signum(&self) -> i32 {
        match (self.mag.is_empty(), self.negative) {
            (true, _) => 0,
            (false, true) => -1,
            (false, false) => 1,
        }
    }

    /// The exponent `k` of the denominator `2^k`.
    pub fn exponent(&self) -> u64 {
        self.exp
    }

    /// `self + other`.
    pub fn add(&self, other: &BigDyadic) -> BigDyadic {
        let e = self.exp.max(other.exp);
        let a = mag_shl(&self.mag, e - self.exp);
        let b = mag_shl(&other.mag, e - other.exp);
        if self.negative == other.negative {
            return BigDyadic::make(self.negative, mag_add(&a, &b), e);
        }
        match mag_cmp(&a, &b) {
            Ordering::Equal => BigDyadic::zero(),
            Ordering::Greater => BigDyadic::make(self.negative, mag_sub(&a, &b), e),
            Ordering::Less => BigDyadic::make(other.negative, mag_sub(&b, &a), e),
        }
    }

    /// `-self`.
    pub fn negated(&self) -> BigDyadic {
        BigDyadic::make(!self.negative, self.mag.clone(), self.exp)
    }

    /// `self / 2^k`.
    pub fn halved(&self, k: u64) -> BigDyadic {
        BigDyadic::make(self.negative, self.mag.clone(), self.exp + k)
    }

    /// The largest integer `<= self`, if it fits an `i64`.
    pub fn floor(&self) -> Option<i64> {
        let q = mag_shr(&self.mag, self.exp);
        if q.len() > 1 || q.first().is_some_and(|&x| x >= 1 << 62) {
            return None;
        }
        let q = q.first().copied().unwrap_or(0) as i64;
        let exact = self.exp == 0;
        Some(match (self.negative, exact) {
            (false, _) => q,
            (true, true) => -q,
            (true, false) => -q - 1,
        })
    }

    fn decimal(mag: &[u64]) -> String {
        if mag.is_empty() {
            return "0".into();
        }
        const CHUNK: u64 = 10_000_000_000_000_000_000;
        let mut rest = mag.to_vec();
        let mut chunks = Vec::new();
        while !rest.is_empty() {
            let mut r = 0u128;
            for x in rest.iter_mut().rev() {
                let cur = r << 64 | u128::from(*x);
                *x = (cur / u128::from(CHUNK)) as u64;
                r = cur % u128::from(CHUNK);
            }
            trim(&mut rest);
            chunks.push(r as u64);
        }
        let mut s = chunks.pop().map(|c| c.to_string()).unwrap_or_default();
        for c in chunks.iter().rev() {
            s.push_str(&format!("{c:019}"));
        }
        s
    }
}

impl fmt::Display for BigDyadic {
    /// `-3/8` in the notation of [`Dyadic`], at any size.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.negative {
            f.write_str("-")?;
        }
        f.write_str(&BigDyadic::decimal(&self.mag))?;
        if self.exp > 0 {
            write!(f, "/{}", BigDyadic::decimal(&mag_shl(&[1], self.exp)))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn agrees_with_dyadic_on_small_numbers() {
        let mut seed = 1u64;
        let mut next = || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            seed >> 33
        };
        for _ in 0..2000 {
            let a = Dyadic::new(next() as i128 % 2001 - 1000, (next() % 20) as u32).unwrap();
            let b = Dyadic::new(next() as i128 % 2001 - 1000, (next() % 20) as u32).unwrap();
            let (x, y) = (BigDyadic::from_dyadic(a), BigDyadic::from_dyadic(b));
            assert_eq!(x.add(&y).to_dyadic(), Some(a.checked_add(b).unwrap()));
            assert_eq!(x.to_string(), a.to_string());
            assert_eq!(x.negated().to_dyadic(), Some(-a));
            assert_eq!(x.floor(), Some(a.floor() as i64));
            assert_eq!(
                x.halved(3).to_dyadic(),
                Some(a.half().unwrap().half().unwrap().half().unwrap())
            );
        }
        let tiny = BigDyadic::integer(1).halved(200);
        assert_eq!(tiny.to_dyadic(), None);
        assert_eq!(tiny.floor(), Some(0));
        assert_eq!(tiny.negated().floor(), Some(-1));
        assert_eq!(
            BigDyadic::integer(3).halved(70).to_string(),
            "3/1180591620717411303424"
        );
    }
}
