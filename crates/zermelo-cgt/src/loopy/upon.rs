//! CGSuite's names for the stoppers that pass beside a number and a nimber: upon's family
//! `x^[on]*m` and uponth's `x^<on>*m`, with `v` for their negatives (Siegel, *Combinatorial
//! Game Theory* ch. VI.5; `upon = {pass|*}` is `^[on]`, `{0||0|0,pass}` is `^<on>`).
//!
//! With `y = x` (for `^`) the up forms are
//!
//! * `y^[on]*m = {pass | y*(m xor 1)}` for `m != 1`, and `y^[on]* = {pass, y | y}`;
//! * `y^<on>*m = {y, y*, ..., y*m || R}` with `R = -((-y)^[on]*(m xor 1))`: `R = {y | pass, y}`
//!   for `m = 0`, else `R = {y*m | pass}`;
//!
//! and `xv[on]*m`, `xv<on>*m` are the negatives of `(-x)^[on]*m`, `(-x)^<on>*m`. Recognised on a
//! simplest form as CGSuite recognises them (its `CanonicalStopper.uponForm`), so that the
//! printed text is CGSuite's, and built back from the text by the parser.

use std::fmt;
use std::ops::Neg;

use super::LoopyGraph;
use crate::error::CgtError;
use crate::{Dyadic, Value};

/// Which family: `[on]` (upon's) or `<on>` (uponth's).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum UponKind {
    /// `x^[on]*m`.
    Upon,
    /// `x^<on>*m`.
    Uponth,
}

/// `number` then `^` (or `v` when `down`), the family's exponent, then `*nimber`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct UponForm {
    pub(crate) kind: UponKind,
    pub(crate) number: Dyadic,
    pub(crate) nimber: u32,
    pub(crate) down: bool,
}

/// The four spellings of the family with its arrow, as the parser looks for them after a
/// number.
pub(crate) const UPON_WORDS: [(&str, UponKind, bool); 4] = [
    ("^[on]", UponKind::Upon, false),
    ("v[on]", UponKind::Upon, true),
    ("^<on>", UponKind::Uponth, false),
    ("v<on>", UponKind::Uponth, true),
];

impl fmt::Display for UponForm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.number != Dyadic::ZERO {
            write!(f, "{}", self.number)?;
        }
        let word = UPON_WORDS
            .iter()
            .find(|(_, kind, down)| *kind == self.kind && *down == self.down)
            .map_or("", |w| w.0);
        f.write_str(word)?;
        match self.nimber {
            0 => Ok(()),
            1 => f.write_str("*"),
            m => write!(f, "*{m}"),
        }
    }
}

/// `(x, m)` when a short value is the number `x` plus the nimber `*m`.
fn number_nimber(v: Value) -> Option<(Dyadic, u32)> {
    let (l, r) = v.stops();
    if l != r {
        return None;
    }
    let m = v.checked_sub(Value::number(l)).ok()?.as_nimber()?;
    Some((l, m))
}

/// A simplest form seen as it is (`down` false) or as its negative (`down` true): options with
/// the sides swapped and short values negated.
struct View<'a, F> {
    g: &'a LoopyGraph,
    value: F,
    down: bool,
}

impl<F: FnMut(u32) -> Option<Value>> View<'_, F> {
    fn options(&self, v: u32, left: bool) -> Vec<u32> {
        self.g.options(v, left != self.down).to_vec()
    }

    fn number_nimber(&mut self, v: u32) -> Option<(Dyadic, u32)> {
        let x = (self.value)(v)?;
        number_nimber(if self.down { x.neg() } else { x })
    }

    /// `(y, m)` when `v` is `y^[on]*m` in this view.
    fn upon(&mut self, v: u32) -> Option<(Dyadic, u32)> {
        let (lo, ro) = (self.options(v, true), self.options(v, false));
        let ([r], true) = (ro.as_slice(), lo.len() <= 2) else {
            return None;
        };
        let (y, k) = self.number_nimber(*r)?;
        if k != 0 {
            return (lo == [v]).then_some((y, k ^ 1));
        }
        let others: Vec<u32> = lo.iter().copied().filter(|&w| w != v).collect();
        match others.as_slice() {
            [w] if lo.len() == 2 && self.number_nimber(*w) == Some((y, 0)) => Some((y, 1)),
            _ => None,
        }
    }

    /// `(y, m)` when `v` is `y^<on>*m` in this view: its one Right option is `-((-y)^[on]*m')`
    /// and its Left options are `y*n` for `n <= m = m' xor 1`.
    fn uponth(&mut self, v: u32) -> Option<(Dyadic, u32)> {
        let ro = self.options(v, false);
        let [r] = ro.as_slice() else {
            return None;
        };
        if *r == v {
            return None;
        }
        self.down = !self.down;
        let minus_r = self.upon(*r);
        self.down = !self.down;
        let (minus_y, k) = minus_r?;
        let (y, m) = (minus_y.neg(), k ^ 1);
        let lo = self.options(v, true);
        let mut seen = vec![false; m as usize + 1];
        for w in lo.iter().copied() {
            match self.number_nimber(w) {
                Some((x, n)) if x == y && (n as usize) < seen.len() => seen[n as usize] = true,
                _ => return None,
            }
        }
        (lo.len() == seen.len() && seen.iter().all(|&s| s)).then_some((y, m))
    }
}

impl UponForm {
    /// The name of node `v` of a simplest form, when it has one; `value` gives a node's short
    /// value (`None` for a loopy node). CGSuite's order: `[on]`, `<on>`, then the negatives.
    pub(crate) fn of(
        g: &LoopyGraph,
        v: u32,
        value: impl FnMut(u32) -> Option<Value>,
    ) -> Option<UponForm> {
        let mut view = View {
            g,
            value,
            down: false,
        };
        for down in [false, true] {
            view.down = down;
            let found = match view.upon(v) {
                Some(f) => Some((UponKind::Upon, f)),
                None => view.uponth(v).map(|f| (UponKind::Uponth, f)),
            };
            if let Some((kind, (y, nimber))) = found {
                let number = if down { y.neg() } else { y };
                return Some(UponForm {
                    kind,
                    number,
                    nimber,
                    down,
                });
            }
        }
        None
    }

    /// The game as a graph (node 0), as the module docs build it.
    pub(crate) fn graph(self) -> Result<LoopyGraph, CgtError> {
        let y = if self.down {
            self.number.neg()
        } else {
            self.number
        };
        let m = self.nimber;
        let mut g = LoopyGraph::new();
        let top = g.add_node();
        let short = |g: &mut LoopyGraph, n: u32| -> Result<u32, CgtError> {
            g.add_value(Value::number(y).checked_add(Value::nimber(n)?)?)
        };
        match self.kind {
            UponKind::Upon if m == 1 => {
                let x = short(&mut g, 0)?;
                g.add_left(top, top);
                g.add_left(top, x);
                g.add_right(top, x);
            }
            UponKind::Upon => {
                let x = short(&mut g, m ^ 1)?;
                g.add_left(top, top);
                g.add_right(top, x);
            }
            UponKind::Uponth => {
                for n in 0..=m {
                    let x = short(&mut g, n)?;
                    g.add_left(top, x);
                }
                let r = g.add_node();
                g.add_right(top, r);
                let x = short(&mut g, m)?;
                g.add_left(r, x);
                g.add_right(r, r);
                if m == 0 {
                    g.add_right(r, x);
                }
            }
        }
        Ok(if self.down { g.negated() } else { g })
    }
}
