//! Hackenbush pictures split before they are solved: the parts of a picture that meet only at
//! the ground are a disjunctive sum, so each is valued alone and the values added.
//!
//! * a green part: its Grundy value by the fusion and colon principles
//!   ([`green_graph_value`], *Winning Ways* ch. 7), O(edges);
//! * a Blue-Red tree: Berlekamp's rule ([`Picture::tree_number`]), exact at any size;
//! * any other part of at most [`MAX_SEARCH_EDGES`](crate::blue_red_hackenbush::MAX_SEARCH_EDGES) edges: the search over its standing edges,
//!   memoized across parts drawn alike (the same edges, numbered in the same order).
//!
//! The numbers add exactly, the nimbers by XOR. A searched part worth a number plus an
//! infinitesimal (both stops equal: every Hackenbush picture is cold) gives its number to the
//! numbers and its nimber to the nimbers; only what is left, the infinitesimals, is summed as
//! games, the smallest forms first and pairwise. A star of n green edges on the ground is n
//! parts of `*`, `O(n)`; the search of the whole picture would take `2^n` positions.
//!
//! **Written out.** A canonical form is a DAG; its notation is a tree. A picture of 1,000 edges
//! in parts of 12, 30% of them of all three colours, has a canonical form of 75 positions that
//! takes 1.4 x 10^11 characters to write (all of them mixed: 319 positions, more than 1.8 x
//! 10^19 characters; CGSuite, which writes canonical forms too, would not finish), so a value
//! longer than [`MAX_WRITTEN`] is written as the sum of its parts, `x*n + G1 + G2 + ...`, parts
//! added where their sum writes shorter. The outcome is exact either way: from the stops of the
//! sum when they decide it, else from the canonical form.

use std::collections::HashMap;
use std::fmt;

use zermelo_cgt::{BigDyadic, CgtError, Dyadic, OutcomeClass, Value};

use crate::blue_red_hackenbush::{Colour, Picture, PictureError};
use crate::hackenbush::green_graph_value;

/// Largest nimber built as a canonical form when a green part is summed with parts that are
/// neither numbers nor nimbers (`*n` has `n` options, and its sums cost about `n^2` forms).
pub const MAX_SUMMED_NIMBER: u64 = 1024;

/// Longest canonical form written out by [`PictureValue::notation`], in characters; a longer
/// one is written as the sum of the parts.
pub const MAX_WRITTEN: u64 = 10_000;

/// The value of a picture as its parts give it: `number + *nimber + terms`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PictureValue {
    /// The numbers: the Blue-Red trees' (exact at any size) and those of the other parts worth a
    /// number plus an infinitesimal.
    pub number: BigDyadic,
    /// The XOR of the green parts' Grundy values and of the other parts' nimbers.
    pub nimber: u64,
    /// The other parts' values less their numbers and nimbers, in the order of the parts
    /// (infinitesimals; a hot part as it is).
    pub terms: Vec<Value>,
    /// The canonical form of the sum of the terms (0 when there are none).
    pub rest: Value,
    /// How many parts the picture has.
    pub parts: usize,
}

impl PictureValue {
    /// The value as one canonical form.
    ///
    /// # Errors
    /// [`CgtError::NumberTooLarge`] when the number outgrows [`zermelo_cgt::Dyadic`];
    /// [`CgtError::TooBig`] for a nimber past [`MAX_SUMMED_NIMBER`] beside other parts.
    pub fn to_value(&self) -> Result<Value, CgtError> {
        let x = self.number.to_dyadic().ok_or(CgtError::NumberTooLarge)?;
        if self.nimber > MAX_SUMMED_NIMBER {
            return Err(CgtError::TooBig(format!(
                "the green parts are worth *{}, more than the *{MAX_SUMMED_NIMBER} this \
                 program sums with other games",
                self.nimber
            )));
        }
        let star = Value::nimber(self.nimber as u32)?;
        Value::sum(&[self.rest, Value::number(x), star])
    }

    /// `L`, `R`, `N` or `P`: for numbers and nimbers without building the nimber; else by the
    /// stops when they decide it (the Right stop of `G + H` is at least the sum of theirs, the
    /// Left stop at most, and a game whose Right stop is above 0 is above 0), else by the
    /// canonical form.
    ///
    /// # Errors
    /// As [`PictureValue::to_value`].
    pub fn outcome(&self) -> Result<OutcomeClass, CgtError> {
        if self.rest != Value::ZERO {
            let (left_stop, right_stop) = self.rest.stops();
            let with = |stop: Dyadic| self.number.add(&BigDyadic::from_dyadic(stop)).signum();
            if with(right_stop) > 0 {
                return Ok(OutcomeClass::L);
            }
            if with(left_stop) < 0 {
                return Ok(OutcomeClass::R);
            }
            return Ok(self.to_value()?.outcome());
        }
        Ok(match (self.number.signum(), self.nimber) {
            (1, _) => OutcomeClass::L,
            (-1, _) => OutcomeClass::R,
            (_, 0) => OutcomeClass::P,
            _ => OutcomeClass::N,
        })
    }

    /// The value in CGSuite notation (`1/2*3`, `*1000`, `{1|*}`): the canonical form when it
    /// writes out in at most [`MAX_WRITTEN`] characters, else the sum of the parts
    /// ([`PictureValue::as_sum`]).
    ///
    /// # Errors
    /// As [`PictureValue::as_sum`].
    pub fn notation(&self) -> Result<String, CgtError> {
        if self.rest == Value::ZERO {
            // No terms, or terms that cancel (`^* + v*`): a number and a nimber.
            let plain = PictureValue {
                terms: Vec::new(),
                number: self.number.clone(),
                ..*self
            };
            return Ok(plain.to_string());
        }
        match self.to_value() {
            Ok(v) if v.written_len() <= MAX_WRITTEN => Ok(v.to_string()),
            _ => Ok(self.as_sum()?.to_string()),
        }
    }

    /// Is the canonical form written out by [`PictureValue::notation`] (rather than a sum)?
    pub fn written_canonical(&self) -> bool {
        self.rest == Value::ZERO
            || self
                .to_value()
                .is_ok_and(|v| v.written_len() <= MAX_WRITTEN)
    }

    /// The same value with terms added where their sum writes no longer than the two apart
    /// (equal parts, parts that cancel: `^ + v*` is `*`), the numbers and nimbers this frees
    /// moved to [`PictureValue::number`] and [`PictureValue::nimber`]; `rest` is unchanged.
    ///
    /// # Errors
    /// [`CgtError`] when a sum outgrows the limits.
    pub fn as_sum(&self) -> Result<PictureValue, CgtError> {
        let mut joined: Vec<Value> = Vec::new();
        for &t in &self.terms {
            let mut placed = false;
            for j in joined.iter_mut() {
                let s = j.checked_add(t)?;
                if s.written_len() <= j.written_len() + t.written_len() + 3 {
                    *j = s;
                    placed = true;
                    break;
                }
            }
            if !placed {
                joined.push(t);
            }
        }
        let mut sum = PictureValue {
            terms: Vec::new(),
            ..self.clone()
        };
        for t in joined {
            sum.add_part(t)?;
        }
        Ok(sum)
    }

    /// Adds a part's value: its number (when both stops are equal) to the numbers, its nimber
    /// to the nimbers, the rest to the terms (`rest` is left for the caller to sum).
    fn add_part(&mut self, v: Value) -> Result<(), CgtError> {
        let (left_stop, right_stop) = v.stops();
        let e = if left_stop == right_stop && left_stop != Dyadic::ZERO {
            self.number = self.number.add(&BigDyadic::from_dyadic(left_stop));
            v.checked_sub(Value::number(left_stop))?
        } else {
            v
        };
        match e.as_nimber() {
            Some(m) => self.nimber ^= u64::from(m),
            None => self.terms.push(e),
        }
        Ok(())
    }
}

impl fmt::Display for PictureValue {
    /// `x*n` for the numbers and nimbers, then `+ G` for each term.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let zero = self.number.signum() == 0;
        if !zero || (self.nimber == 0 && self.terms.is_empty()) {
            write!(f, "{}", self.number)?;
        }
        match self.nimber {
            0 => {}
            1 => f.write_str("*")?,
            n => write!(f, "*{n}")?,
        }
        for (i, t) in self.terms.iter().enumerate() {
            if i > 0 || !zero || self.nimber != 0 {
                f.write_str(" + ")?;
            }
            write!(f, "{t}")?;
        }
        Ok(())
    }
}

impl Picture {
    /// The parts of the picture that meet only at the ground (vertex 0), each numbered afresh
    /// (its vertices in the order its edges first name them, the ground still 0), in the order
    /// of their first edges. An edge from the ground to itself is a part of its own.
    pub fn components(&self) -> Vec<Picture> {
        let (vertices, edges) = self.parts();
        let mut root: Vec<u32> = (0..vertices as u32).collect();
        fn find(root: &mut [u32], mut x: u32) -> u32 {
            while root[x as usize] != x {
                root[x as usize] = root[root[x as usize] as usize];
                x = root[x as usize];
            }
            x
        }
        for &(u, v, _) in edges {
            if u != 0 && v != 0 {
                let (a, b) = (find(&mut root, u), find(&mut root, v));
                root[a.max(b) as usize] = a.min(b);
            }
        }
        // Each part by its representative (a vertex other than the ground, or the edge's own
        // index for a loop on the ground).
        let mut index: HashMap<u64, usize> = HashMap::new();
        let mut parts: Vec<Vec<(u32, u32, Colour)>> = Vec::new();
        for (e, &(u, v, c)) in edges.iter().enumerate() {
            let key = match u.max(v) {
                0 => (1 << 32) + e as u64,
                w => u64::from(find(&mut root, w)),
            };
            let at = *index.entry(key).or_insert_with(|| {
                parts.push(Vec::new());
                parts.len() - 1
            });
            parts[at].push((u, v, c));
        }
        parts.into_iter().map(renumbered).collect()
    }

    /// The value, the picture split into its parts first (module docs).
    ///
    /// # Errors
    /// [`PictureError::TooLarge`] for a part that needs the search and has more than
    /// [`MAX_SEARCH_EDGES`](crate::blue_red_hackenbush::MAX_SEARCH_EDGES) edges; [`PictureError::Value`] when a sum outgrows the limits.
    pub fn split_value(&self) -> Result<PictureValue, PictureError> {
        let parts = self.components();
        let mut total = PictureValue {
            number: BigDyadic::zero(),
            nimber: 0,
            terms: Vec::new(),
            rest: Value::ZERO,
            parts: parts.len(),
        };
        let mut searched: HashMap<Vec<(u32, u32, Colour)>, Value> = HashMap::new();
        for part in &parts {
            let (vertices, edges) = part.parts();
            if edges.iter().all(|e| e.2 == Colour::Green) {
                let plain: Vec<(u32, u32)> = edges.iter().map(|e| (e.0, e.1)).collect();
                total.nimber ^= green_graph_value(vertices, &plain);
            } else if let Some(x) = part.tree_number() {
                total.number = total.number.add(&x);
            } else {
                let v = match searched.get(edges) {
                    Some(&v) => v,
                    None => {
                        let v = part.search_value()?;
                        searched.insert(edges.to_vec(), v);
                        v
                    }
                };
                total.add_part(v)?;
            }
        }
        total.rest = sum_small_first(&total.terms)?;
        Ok(total)
    }
}

/// The sum of games, the forms with fewest positions first and pairwise (a running sum would
/// add every part to the largest form), the memory limit checked after each sum.
fn sum_small_first(terms: &[Value]) -> Result<Value, CgtError> {
    let mut layer = terms.to_vec();
    layer.sort_by_cached_key(|v| v.positions());
    while layer.len() > 1 {
        layer = layer
            .chunks(2)
            .map(|pair| {
                let s = Value::sum(pair)?;
                zermelo_cgt::check_memory(0)?;
                Ok(s)
            })
            .collect::<Result<_, CgtError>>()?;
    }
    Ok(layer.first().copied().unwrap_or(Value::ZERO))
}

/// A part with its vertices numbered in the order its edges name them (the ground stays 0).
fn renumbered(edges: Vec<(u32, u32, Colour)>) -> Picture {
    let mut name: HashMap<u32, u32> = HashMap::from([(0, 0)]);
    let mut rename = |x: u32| -> u32 {
        let next = name.len() as u32;
        *name.entry(x).or_insert(next)
    };
    let edges: Vec<(u32, u32, Colour)> = edges
        .into_iter()
        .map(|(u, v, c)| (rename(u), rename(v), c))
        .collect();
    let vertices = name.len();
    Picture::from_parts(vertices, edges)
}
