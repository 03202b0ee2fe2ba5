//! Atomic weights of all-small games: the `W` with `G ~ W.^` (outcomes equal in every sum with
//! a remote star).
//!
//! Reference: *Winning Ways* ch. 8 ("the atomic weight calculus"); Siegel, *Combinatorial Game
//! Theory* ch. II.7 (eccentric cases with the far star). By induction on the canonical form:
//!
//! * `x + k.^ + *m` (here `x = 0`) has atomic weight `k`;
//! * otherwise let `G' = {aw(G^L) - 2 | aw(G^R) + 2}`. If `G'` is not an integer, `aw(G) = G'`.
//!   If it is, compare `G` with the far star `☆ = *N`, `N` one more than the largest nimber
//!   among the followers of `G` (at least 1), as CGSuite does: for `G < ☆` the atomic weight
//!   is the least integer `n` with `n |> G^L'` for every Left option (0 if there is none), for
//!   `G > ☆` the greatest integer `n` with `n <| G^R'` for every Right option (0 if none), and
//!   `G'` otherwise.
//!
//! Cost: one canonical form per follower (memoized), plus the comparisons with `☆`.

use std::collections::HashMap;

use crate::error::CgtError;
use crate::{Dyadic, Value};

impl Value {
    /// Is every follower of this game (itself included) either `0`-like (no options at all)
    /// or one with options for both players? Numbers other than 0 are not.
    pub fn is_all_small(self) -> bool {
        fn walk(g: Value, seen: &mut HashMap<Value, bool>) -> bool {
            if let Some(&b) = seen.get(&g) {
                return b;
            }
            let (l, r) = (g.left_options(), g.right_options());
            let b = match (l.is_empty(), r.is_empty()) {
                (true, true) => true,
                (false, false) => l.into_iter().chain(r).all(|o| walk(o, seen)),
                _ => false,
            };
            seen.insert(g, b);
            b
        }
        walk(self, &mut HashMap::new())
    }

    /// The atomic weight of an all-small game (module `atomic`).
    ///
    /// # Errors
    /// [`CgtError::NotAllSmall`] for a game that is not all-small; [`CgtError::NumberTooLarge`].
    pub fn atomic_weight(self) -> Result<Value, CgtError> {
        if !self.is_all_small() {
            return Err(CgtError::NotAllSmall);
        }
        AtomicWeights::default().of(self)
    }
}

#[derive(Default)]
struct AtomicWeights {
    memo: HashMap<Value, Value>,
    far: HashMap<Value, u32>,
}

impl AtomicWeights {
    fn of(&mut self, g: Value) -> Result<Value, CgtError> {
        if let Some(&w) = self.memo.get(&g) {
            return Ok(w);
        }
        let w = match ups(g)? {
            Some(k) => Value::integer(k),
            None => self.eccentric(g)?,
        };
        self.memo.insert(g, w);
        Ok(w)
    }

    fn eccentric(&mut self, g: Value) -> Result<Value, CgtError> {
        let two = Value::integer(2);
        let left = g
            .left_options()
            .into_iter()
            .map(|o| self.of(o)?.checked_sub(two))
            .collect::<Result<Vec<_>, _>>()?;
        let right = g
            .right_options()
            .into_iter()
            .map(|o| self.of(o)?.checked_add(two))
            .collect::<Result<Vec<_>, _>>()?;
        let naive = Value::from_options(&left, &right)?;
        if !naive.as_number().is_some_and(Dyadic::is_integer) {
            return Ok(naive);
        }
        let star = Value::nimber(self.far_star(g))?;
        let (below, above) = (g.leq(star), star.leq(g));
        let integer = |n: i128| -> Result<Value, CgtError> {
            let n = i64::try_from(n).map_err(|_| CgtError::NumberTooLarge)?;
            Ok(Value::integer(n))
        };
        if below && !above {
            // The least n with n |> every G^L': from ceil(R(G^L')), or one more where that
            // integer is still <= the option (Right's stop is where it could be).
            let least = left
                .iter()
                .map(|&h| {
                    let n = h.stops().1.ceil();
                    Ok(if integer(n)?.leq(h) { n + 1 } else { n })
                })
                .collect::<Result<Vec<i128>, CgtError>>()?;
            return integer(least.into_iter().max().unwrap_or(0));
        }
        if above && !below {
            let greatest = right
                .iter()
                .map(|&h| {
                    let n = h.stops().0.floor();
                    Ok(if h.leq(integer(n)?) { n - 1 } else { n })
                })
                .collect::<Result<Vec<i128>, CgtError>>()?;
            return integer(greatest.into_iter().min().unwrap_or(0));
        }
        Ok(naive)
    }

    /// One more than the largest nimber among the followers of `g` (at least 1).
    fn far_star(&mut self, g: Value) -> u32 {
        if let Some(&n) = self.far.get(&g) {
            return n;
        }
        let n = match nimber(g) {
            Some(m) => m + 1,
            None => g
                .left_options()
                .into_iter()
                .chain(g.right_options())
                .map(|o| self.far_star(o))
                .max()
                .unwrap_or(1)
                .max(1),
        };
        self.far.insert(g, n);
        n
    }
}

/// `m` when `g = *m`.
fn nimber(g: Value) -> Option<u32> {
    let (l, r) = (g.left_options(), g.right_options());
    if l != r {
        return None;
    }
    let mut seen = vec![false; l.len()];
    for o in l {
        let m = nimber(o)? as usize;
        *seen.get_mut(m)? = true;
    }
    seen.iter().all(|&s| s).then_some(seen.len() as u32)
}

/// `k` when `g = k.^ + *m` for some nimber `*m` (`k` up to the size of the game).
fn ups(g: Value) -> Result<Option<i64>, CgtError> {
    let (l, r) = g.stops();
    if l != Dyadic::ZERO || r != Dyadic::ZERO {
        return Ok(None);
    }
    let up: Value = Value::from_options(&[Value::ZERO], &[Value::nimber(1)?])?;
    // k ups have birthday k + 1 (k + 2 with a star), so the count is bounded by the depth of g.
    let bound = depth(g) as i64 + 1;
    let (mut pos, mut neg) = (g, g);
    for k in 0..=bound {
        if nimber(pos).is_some() {
            return Ok(Some(k));
        }
        if nimber(neg).is_some() {
            return Ok(Some(-k));
        }
        pos = pos.checked_sub(up)?;
        neg = neg.checked_add(up)?;
    }
    Ok(None)
}

/// The birthday of a canonical form (the height of its game tree).
fn depth(g: Value) -> u32 {
    fn walk(g: Value, memo: &mut HashMap<Value, u32>) -> u32 {
        if let Some(&d) = memo.get(&g) {
            return d;
        }
        let d = g
            .left_options()
            .into_iter()
            .chain(g.right_options())
            .map(|o| walk(o, memo) + 1)
            .max()
            .unwrap_or(0);
        memo.insert(g, d);
        d
    }
    walk(g, &mut HashMap::new())
}
