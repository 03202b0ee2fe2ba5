//! Comparison, sum, negative and the canonical form of `{L | R}`.
//!
//! Reference: Conway, *On Numbers and Games* (1976), ch. 10 (simplest form: delete dominated
//! options, bypass reversible ones; the result is unique); Albert, Nowakowski and Wolfe,
//! *Lessons in Play* (2007), ch. 4. The recursive definitions, memoized on handles:
//!
//! * `G <= H` iff no `G^L >= H` and no `H^R <= G`; two numbers compare as rationals.
//! * `G + H = {G^L + H, G + H^L | G^R + H, G + H^R}`; two numbers add as rationals; a number
//!   `x` plus a non-number `G` is `{x + G^L | x + G^R}` (translation, *Winning Ways* ch. 2).
//! * `-G = {-G^R | -G^L}`, canonical as it stands.
//!
//! **Canonical form of `{L | R}`** (options canonical): repeat (1) drop dominated options (a
//! Left option `A <= B` for another Left option `B`; dually on the right), (2) if every option is
//! a number and all Left options are below all Right options, the game is the simplest number
//! between them, (3) replace every reversible Left option `A` (some `A^R <= G`) by the Left
//! options of that `A^R`, and dually, until nothing changes. Comparisons against the game `G`
//! being simplified, whose form is not canonical yet, recurse on its option lists.
//!
//! **Cost.** Each pair of interned games is compared at most once and each pair summed at most
//! once (memo tables); a sum of canonical forms with `a` and `b` positions in their option trees
//! costs O(a b) sums, each followed by a canonicalization quadratic in its option count.
//! Recursion depth is bounded by the birthdays involved.

use std::ops::Neg;

use super::value::{check_work, spend, Form, Store, Value};
use crate::error::CgtError;
use crate::Dyadic;

impl Store {
    /// `a <= b`.
    pub(crate) fn leq_v(&mut self, a: Value, b: Value) -> bool {
        if a == b {
            return true;
        }
        if let (Some(x), Some(y)) = (self.as_number(a), self.as_number(b)) {
            return x <= y;
        }
        spend();
        if let Some(&r) = self.leq.get(&(a, b)) {
            return r;
        }
        let r = !self.left(a).into_iter().any(|al| self.leq_v(b, al))
            && !self.right(b).into_iter().any(|br| self.leq_v(br, a));
        self.leq.insert((a, b), r);
        r
    }

    /// `-a`.
    pub(crate) fn neg_v(&mut self, a: Value) -> Value {
        if let Some(x) = self.as_number(a) {
            return self.number(x.neg());
        }
        if let Some(&n) = self.neg.get(&a) {
            return n;
        }
        let (l, r) = (self.left(a), self.right(a));
        let mut left: Vec<Value> = r.into_iter().map(|x| self.neg_v(x)).collect();
        let mut right: Vec<Value> = l.into_iter().map(|x| self.neg_v(x)).collect();
        left.sort_unstable();
        right.sort_unstable();
        let n = self.intern(Form::Options {
            left: left.into(),
            right: right.into(),
        });
        self.neg.insert(a, n);
        self.neg.insert(n, a);
        n
    }

    /// `a + b`.
    pub(crate) fn add_v(&mut self, a: Value, b: Value) -> Result<Value, CgtError> {
        if a == Value::ZERO {
            return Ok(b);
        }
        if b == Value::ZERO {
            return Ok(a);
        }
        let (a, b) = (a.min(b), a.max(b));
        if let (Some(&x), Some(&y)) = (self.nimber_of.get(&a), self.nimber_of.get(&b)) {
            return Ok(self.nimber(x ^ y)); // the nim-sum
        }
        if let Some(&s) = self.sum.get(&(a, b)) {
            return Ok(s);
        }
        spend();
        check_work()?;
        // (x + *m) + (y + *n) = (x + y) + *(m ^ n): without it, `2*54 + *54` summed every
        // `2*i + *j` (the fuzzer's timeout, about 54^2 canonical forms of 54 options each).
        // The same for a number plus `y + *n` (`452*52 + 22`: the switch `452*52+-22` summed
        // with `2*52` was the fuzzer's next timeout, its options not known as `x + *m`).
        if let (Some((x, m)), Some((y, n))) = (self.number_nimber(a), self.number_nimber(b)) {
            // Not a plain number plus a plain nimber: that one is built below, by translation.
            let plain = |d: Dyadic, k: u32| d == Dyadic::ZERO || k == 0;
            if !(plain(x, m) && plain(y, n)) {
                let number = self.number(x.checked_add(y)?);
                let nimber = self.nimber(m ^ n);
                let s = self.add_v(number, nimber)?;
                self.sum.insert((a, b), s);
                return Ok(s);
            }
        }
        let s = match (self.as_number(a), self.as_number(b)) {
            (Some(x), Some(y)) => self.number(x.checked_add(y)?),
            (Some(_), None) | (None, Some(_)) => {
                let (x, g) = if self.as_number(a).is_some() {
                    (a, b)
                } else {
                    (b, a)
                };
                let (gl, gr) = (self.left(g), self.right(g));
                let left = self.translate(x, gl)?;
                let right = self.translate(x, gr)?;
                let s = self.canonical(left, right)?;
                if let Some(&m) = self.nimber_of.get(&g) {
                    let number = self.as_number(x).expect("x is a number");
                    self.number_nimber.insert(s, (number, m));
                }
                s
            }
            (None, None) => {
                let (al, ar, bl, br) = (self.left(a), self.right(a), self.left(b), self.right(b));
                let mut left = self.translate(b, al)?;
                left.extend(self.translate(a, bl)?);
                let mut right = self.translate(b, ar)?;
                right.extend(self.translate(a, br)?);
                self.canonical(left, right)?
            }
        };
        self.sum.insert((a, b), s);
        Ok(s)
    }

    /// `(x, m)` when `v = x + *m` is known as such: a number (`m = 0`), a nimber, or a sum of
    /// a number and a nimber built by [`Store::add_v`].
    fn number_nimber(&self, v: Value) -> Option<(Dyadic, u32)> {
        if let Some(x) = self.as_number(v) {
            return Some((x, 0));
        }
        if let Some(&m) = self.nimber_of.get(&v) {
            return Some((Dyadic::ZERO, m));
        }
        self.number_nimber.get(&v).copied()
    }

    fn translate(&mut self, x: Value, options: Vec<Value>) -> Result<Vec<Value>, CgtError> {
        options.into_iter().map(|o| self.add_v(x, o)).collect()
    }

    /// The canonical form of `{left | right}` (module docs).
    pub(crate) fn canonical(
        &mut self,
        mut left: Vec<Value>,
        mut right: Vec<Value>,
    ) -> Result<Value, CgtError> {
        loop {
            check_work()?;
            self.drop_dominated(&mut left, true);
            self.drop_dominated(&mut right, false);
            if let Some(x) = self.number_form(&left, &right)? {
                return Ok(self.number(x));
            }
            let mut changed = false;
            let mut new_left = Vec::with_capacity(left.len());
            for &a in &left {
                let reversing = self
                    .right(a)
                    .into_iter()
                    .find(|&ar| self.raw_ge(&left, &right, ar));
                match reversing {
                    Some(ar) => {
                        changed = true;
                        new_left.extend(self.left(ar));
                    }
                    None => new_left.push(a),
                }
            }
            let mut new_right = Vec::with_capacity(right.len());
            for &b in &right {
                let reversing = self
                    .left(b)
                    .into_iter()
                    .find(|&bl| self.raw_le(&left, &right, bl));
                match reversing {
                    Some(bl) => {
                        changed = true;
                        new_right.extend(self.right(bl));
                    }
                    None => new_right.push(b),
                }
            }
            left = new_left;
            right = new_right;
            if !changed {
                return Ok(self.intern(Form::Options {
                    left: left.into(),
                    right: right.into(),
                }));
            }
        }
    }

    /// Sorts, removes repeats and dominated options: for Left (`max`) those below another,
    /// for Right those above another.
    fn drop_dominated(&mut self, options: &mut Vec<Value>, max: bool) {
        options.sort_unstable();
        options.dedup();
        let all = options.clone();
        options.retain(|&a| {
            !all.iter().any(|&b| {
                b != a
                    && if max {
                        self.leq_v(a, b)
                    } else {
                        self.leq_v(b, a)
                    }
            })
        });
    }

    /// The simplest number between the options when they are all numbers and every Left
    /// option is below every Right option.
    fn number_form(&self, left: &[Value], right: &[Value]) -> Result<Option<Dyadic>, CgtError> {
        let nums = |opts: &[Value]| -> Option<Vec<Dyadic>> {
            opts.iter().map(|&o| self.as_number(o)).collect()
        };
        let (Some(l), Some(r)) = (nums(left), nums(right)) else {
            return Ok(None);
        };
        let lo = l.into_iter().max();
        let hi = r.into_iter().min();
        if let (Some(a), Some(b)) = (lo, hi) {
            if a >= b {
                return Ok(None);
            }
        }
        Dyadic::simplest_between(lo, hi).map(Some)
    }

    /// `G >= x` for `G = {left | right}` not yet canonical: no `G^R <= x` and no `x^L >= G`.
    fn raw_ge(&mut self, left: &[Value], right: &[Value], x: Value) -> bool {
        !right.iter().any(|&gr| self.leq_v(gr, x))
            && !self
                .left(x)
                .into_iter()
                .any(|xl| self.raw_le(left, right, xl))
    }

    /// `G <= y`: no `G^L >= y` and no `y^R <= G`.
    fn raw_le(&mut self, left: &[Value], right: &[Value], y: Value) -> bool {
        !left.iter().any(|&gl| self.leq_v(y, gl))
            && !self
                .right(y)
                .into_iter()
                .any(|yr| self.raw_ge(left, right, yr))
    }
}
