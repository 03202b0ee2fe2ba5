//! Toads and Frogs (*Winning Ways* ch. 1; Erickson, "New toads and frogs results", 1996): on a
//! strip, Left's toads `T` move one square right into an empty square `.` or jump right over a
//! single frog into an empty square; Right's frogs `F` do the same leftwards. Who cannot move
//! loses.
//!
//! Values: the canonical form by search over strips (one canonicalization per distinct strip
//! reached, memoized), so the cost is exponential in the number of pieces; strips of at most
//! [`MAX_CELLS`] squares. A strip is first cut at its pieces that can never move again
//! ([`Strip::segments`]) into runs whose values add, and so is every strip the search reaches.

use std::collections::HashMap;

use zermelo_cgt::{CgtError, Value};

/// Longest strip accepted.
pub const MAX_CELLS: usize = 64;

/// Why a strip could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum StripError {
    /// A character other than `T`, `F` or `.`.
    #[error("square {square}: {found:?} is not T (toad), F (frog) or . (empty)")]
    BadSquare {
        /// 1-based square.
        square: usize,
        /// The character found.
        found: char,
    },
    /// No squares, or more than [`MAX_CELLS`].
    #[error("a strip has 1 to {MAX_CELLS} squares, this one {0}")]
    Length(usize),
}

/// A strip of squares.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Strip(Vec<u8>);

impl Strip {
    /// Parses `TT..FF` (case-insensitive).
    ///
    /// # Errors
    /// [`StripError`] naming the square.
    pub fn parse(text: &str) -> Result<Strip, StripError> {
        let text = text.trim();
        let n = text.chars().count();
        if n == 0 || n > MAX_CELLS {
            return Err(StripError::Length(n));
        }
        text.chars()
            .enumerate()
            .map(|(i, c)| match c.to_ascii_uppercase() {
                'T' => Ok(b'T'),
                'F' => Ok(b'F'),
                '.' | '_' => Ok(b'.'),
                found => Err(StripError::BadSquare {
                    square: i + 1,
                    found,
                }),
            })
            .collect::<Result<Vec<u8>, _>>()
            .map(Strip)
    }

    /// The strips after each move of Left (toads) or Right (frogs).
    pub fn moves(&self, left: bool) -> Vec<Strip> {
        let s = &self.0;
        let (me, other) = if left { (b'T', b'F') } else { (b'F', b'T') };
        let step = |i: usize, d: usize| -> Option<usize> {
            if left {
                i.checked_add(d).filter(|&j| j < s.len())
            } else {
                i.checked_sub(d)
            }
        };
        let mut out = Vec::new();
        for i in 0..s.len() {
            if s[i] != me {
                continue;
            }
            let target = match step(i, 1) {
                Some(j) if s[j] == b'.' => Some(j),
                Some(j) if s[j] == other => step(i, 2).filter(|&k| s[k] == b'.'),
                _ => None,
            };
            if let Some(t) = target {
                let mut next = s.clone();
                next[i] = b'.';
                next[t] = me;
                out.push(Strip(next));
            }
        }
        out
    }
}

impl Strip {
    /// Which squares hold a piece that can never move again: the greatest set of pieces each
    /// blocked by the edge of the strip or by pieces of the set (a toad by a toad on its right,
    /// or by a frog on its right with the square beyond it an edge or blocked too; a frog in
    /// mirror image). None of them moves first, so none ever moves.
    pub fn frozen(&self) -> Vec<bool> {
        let s = &self.0;
        let n = s.len();
        let mut frozen: Vec<bool> = s.iter().map(|&c| c != b'.').collect();
        let mut changed = true;
        while changed {
            changed = false;
            for i in 0..n {
                if !frozen[i] {
                    continue;
                }
                let (me, other) = (s[i], if s[i] == b'T' { b'F' } else { b'T' });
                // The next two squares in the piece's direction (None past the edge).
                let ahead = |k: usize| -> Option<usize> {
                    if me == b'T' {
                        (i + k < n).then_some(i + k)
                    } else {
                        i.checked_sub(k)
                    }
                };
                let wall = |j: Option<usize>| j.is_none_or(|j| frozen[j]);
                let blocked = match ahead(1) {
                    None => true,
                    Some(j) if frozen[j] && s[j] == me => true,
                    Some(j) if frozen[j] && s[j] == other => wall(ahead(2)),
                    Some(_) => false,
                };
                if !blocked {
                    frozen[i] = false;
                    changed = true;
                }
            }
        }
        frozen
    }

    /// The strip cut at its frozen pieces ([`Strip::frozen`]) into the runs between them, each
    /// a strip of its own: no piece crosses a frozen one (a frog is frozen only with a frozen
    /// square or the edge on its left, so no toad reaches it to jump), and a frozen square
    /// stops a piece as the edge does. The strip is the sum of its runs. Runs without a piece
    /// are left out.
    pub fn segments(&self) -> Vec<Strip> {
        let frozen = self.frozen();
        let mut runs = Vec::new();
        let mut start = 0;
        // A frozen sentinel past the end closes the last run.
        for (i, &f) in frozen.iter().chain([&true]).enumerate() {
            if f {
                let run = &self.0[start..i];
                if run.iter().any(|&c| c != b'.') {
                    runs.push(Strip(run.to_vec()));
                }
                start = i + 1;
            }
        }
        runs
    }
}

impl Strip {
    /// The squares: `T`, `F` or `.` as bytes.
    pub fn cells(&self) -> &[u8] {
        &self.0
    }

    /// A strip from squares already checked (`T`, `F`, `.`).
    pub(crate) fn from_cells(cells: Vec<u8>) -> Strip {
        Strip(cells)
    }
}

impl std::fmt::Display for Strip {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&String::from_utf8_lossy(&self.0))
    }
}

/// Values of Toads-and-Frogs strips, memoized by segment.
#[derive(Default)]
pub struct ToadsFrogs {
    memo: HashMap<Strip, Value>,
    whole: HashMap<Strip, Value>,
}

impl ToadsFrogs {
    /// A solver with an empty memo.
    pub fn new() -> ToadsFrogs {
        ToadsFrogs::default()
    }

    /// The canonical value of a strip.
    ///
    /// # Errors
    /// [`CgtError::NumberTooLarge`] (not reached on strips of 64 squares); [`CgtError::TooBig`]
    /// past the memory limit ([`zermelo_cgt::set_memory_limit`]).
    pub fn value(&mut self, strip: &Strip) -> Result<Value, CgtError> {
        let parts = strip
            .segments()
            .iter()
            .map(|s| self.segment(s))
            .collect::<Result<Vec<_>, _>>()?;
        Value::sum(&parts)
    }

    /// The value of a segment (a strip with no frozen piece), its options split again.
    fn segment(&mut self, strip: &Strip) -> Result<Value, CgtError> {
        if let Some(&v) = self.memo.get(strip) {
            return Ok(v);
        }
        let mut sides = [Vec::new(), Vec::new()];
        for (side, left) in [(0, true), (1, false)] {
            for m in strip.moves(left) {
                sides[side].push(self.value(&m)?);
            }
        }
        let v = Value::from_options(&sides[0], &sides[1])?;
        self.memo.insert(strip.clone(), v);
        zermelo_cgt::check_memory(zermelo_cgt::memo_bytes(&self.memo))?;
        Ok(v)
    }

    /// The value by search over whole strips, never split (the check of [`ToadsFrogs::value`]).
    ///
    /// # Errors
    /// As [`ToadsFrogs::value`].
    pub fn value_whole(&mut self, strip: &Strip) -> Result<Value, CgtError> {
        if let Some(&v) = self.whole.get(strip) {
            return Ok(v);
        }
        let mut sides = [Vec::new(), Vec::new()];
        for (side, left) in [(0, true), (1, false)] {
            for m in strip.moves(left) {
                sides[side].push(self.value_whole(&m)?);
            }
        }
        let v = Value::from_options(&sides[0], &sides[1])?;
        self.whole.insert(strip.clone(), v);
        zermelo_cgt::check_memory(zermelo_cgt::memo_bytes(&self.whole))?;
        Ok(v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn value(s: &str) -> String {
        ToadsFrogs::new()
            .value(&Strip::parse(s).unwrap())
            .unwrap()
            .to_string()
    }

    /// Small strips worked by hand (the rules of *Winning Ways* ch. 1).
    #[test]
    fn hand_worked_values() {
        assert_eq!(value("T."), "1"); // one toad move
        assert_eq!(value(".F"), "-1");
        assert_eq!(value("TF"), "0"); // nobody can move
        assert_eq!(value("T.."), "2");
        // T.F: Left -> .TF, where only Right moves (a jump) -> FT., where only Left moves ->
        // F.T, the end: F.T = 0, FT. = 1, .TF = {|1} = 0; Right -> TF., the end: 0. {0|0} = *.
        assert_eq!(value("T.F"), "*");
        assert!(Strip::parse("TXF").is_err());
        assert!(Strip::parse("").is_err());
    }
}
