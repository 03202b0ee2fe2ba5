//! Hackenbush pictures split before they are solved: the parts of a picture that meet only at
//! the ground are a disjunctive sum, so each is valued alone and the values added.
//!
//! * a green part: its Grundy value by the fusion and colon principles
//!   ([`green_graph_value`], *Winning Ways* ch. 7), O(edges);
//! * a Blue-Red tree: Berlekamp's rule ([`Picture::tree_number`]), exact at any size;
//! * any other part of at most [`MAX_SEARCH_EDGES`](crate::blue_red_hackenbush::MAX_SEARCH_EDGES) edges: the search over its standing edges,
//!   memoized across parts drawn alike (the same edges, numbered in the same order).
//!
//! The numbers add exactly, the nimbers by XOR, and only the other parts' canonical forms are
//! summed as games. A star of n green edges on the ground is n parts of `*`, `O(n)`; the search
//! of the whole picture would take `2^n` positions.

use std::collections::HashMap;
use std::fmt;

use zermelo_cgt::{BigDyadic, CgtError, Value};

use crate::blue_red_hackenbush::{Colour, Picture, PictureError};
use crate::hackenbush::green_graph_value;

/// Largest nimber built as a canonical form when a green part is summed with parts that are
/// neither numbers nor nimbers (`*n` has `n` options, and its sums cost about `n^2` forms).
pub const MAX_SUMMED_NIMBER: u64 = 1024;

/// The value of a picture as its parts give it: `number + *nimber + rest`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PictureValue {
    /// The sum of the Blue-Red trees (exact at any size).
    pub number: BigDyadic,
    /// The XOR of the green parts' Grundy values.
    pub nimber: u64,
    /// The sum of the other parts' canonical forms (0 when there are none).
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

    /// `L`, `R`, `N` or `P` (without building the nimber when the picture is only numbers and
    /// nimbers).
    ///
    /// # Errors
    /// As [`PictureValue::to_value`].
    pub fn outcome(&self) -> Result<zermelo_cgt::OutcomeClass, CgtError> {
        use zermelo_cgt::OutcomeClass;
        if self.rest != Value::ZERO {
            return Ok(self.to_value()?.outcome());
        }
        Ok(match (self.number.signum(), self.nimber) {
            (1, _) => OutcomeClass::L,
            (-1, _) => OutcomeClass::R,
            (_, 0) => OutcomeClass::P,
            _ => OutcomeClass::N,
        })
    }

    /// The value in CGSuite notation (`1/2*3`, `*1000`, `{1|*}`).
    ///
    /// # Errors
    /// As [`PictureValue::to_value`], when there are parts other than numbers and nimbers.
    pub fn notation(&self) -> Result<String, CgtError> {
        if self.rest != Value::ZERO {
            return Ok(self.to_value()?.to_string());
        }
        Ok(self.to_string())
    }
}

impl fmt::Display for PictureValue {
    /// `x*n` for the numbers and nimbers; `+ rest` when there are other parts.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let zero = self.number.signum() == 0;
        if !zero || (self.nimber == 0 && self.rest == Value::ZERO) {
            write!(f, "{}", self.number)?;
        }
        match self.nimber {
            0 => {}
            1 => f.write_str("*")?,
            n => write!(f, "*{n}")?,
        }
        if self.rest != Value::ZERO {
            if !zero || self.nimber != 0 {
                f.write_str(" + ")?;
            }
            write!(f, "{}", self.rest)?;
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
            rest: Value::ZERO,
            parts: parts.len(),
        };
        let mut searched: HashMap<Vec<(u32, u32, Colour)>, Value> = HashMap::new();
        let mut others = Vec::new();
        for part in &parts {
            let (vertices, edges) = part.parts();
            if edges.iter().all(|e| e.2 == Colour::Green) {
                let plain: Vec<(u32, u32)> = edges.iter().map(|e| (e.0, e.1)).collect();
                total.nimber ^= green_graph_value(vertices, &plain);
            } else if let Some(x) = part.tree_number() {
                total.number = total.number.add(&x);
            } else if let Some(&v) = searched.get(edges) {
                others.push(v);
            } else {
                let v = part.search_value()?;
                searched.insert(edges.to_vec(), v);
                others.push(v);
            }
        }
        total.rest = Value::sum(&others)?;
        Ok(total)
    }
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
