//! Domineering: Left places vertical dominoes, Right horizontal ones, on the empty cells of a
//! board; who cannot place loses (*Winning Ways* ch. 5; Lessons in Play ch. 1).
//!
//! **Board.** Rows of `.` (empty) and `#` or `x` (a hole or a filled cell), separated by `/` or
//! new lines, all of one width; at most [`MAX_CELLS`] cells in all.
//!
//! **Values.** A position is split into its 4-connected regions of empty cells, whose values
//! add (a disjunctive sum). Each region is cropped to its bounding box and memoized under the
//! least of its four mirror images (left-right and top-bottom flips keep both players' moves);
//! a region's transpose swaps the players, so its value is looked up negated as well. A
//! region's value is `{ values after each vertical domino | values after each horizontal one }`
//! in canonical form ([`zermelo_cgt`]). Cost: one canonicalization per distinct region reached
//! (exponential in the board size, as for every exact Domineering solver; the memo keeps it to
//! the distinct regions).

use std::collections::HashMap;
use std::ops::Neg;

use zermelo_cgt::{CgtError, Value};

/// Largest number of cells of a board.
pub const MAX_CELLS: usize = 64;

/// Why a board could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum BoardError {
    /// A character other than `.`, `#`, `x`, `/` or a line break.
    #[error(
        "row {row}, column {column}: {found:?} is not a cell; expected `.` (empty) or `#` (filled)"
    )]
    BadCell {
        /// 1-based row.
        row: usize,
        /// 1-based column.
        column: usize,
        /// The character found.
        found: char,
    },
    /// Rows of different widths.
    #[error("row {row} has {found} cells, but row 1 has {expected}")]
    Ragged {
        /// 1-based row.
        row: usize,
        /// Its width.
        found: usize,
        /// The first row's width.
        expected: usize,
    },
    /// No cells.
    #[error("the board is empty: give rows of `.` and `#` separated by `/`")]
    Empty,
    /// More than [`MAX_CELLS`] cells.
    #[error("{0} cells is more than the {MAX_CELLS} supported")]
    TooLarge(usize),
}

/// A region of a board: `bits` (bit `r * width + c` set for an empty cell) in a `width` x
/// `height` box.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Board {
    width: u8,
    height: u8,
    bits: u64,
}

impl Board {
    /// Parses a board (module docs).
    ///
    /// # Errors
    /// [`BoardError`] saying which row and column.
    pub fn parse(text: &str) -> Result<Board, BoardError> {
        let rows: Vec<&str> = text
            .split(['/', '\n'])
            .map(|r| r.trim_end_matches('\r').trim())
            .filter(|r| !r.is_empty())
            .collect();
        let Some(first) = rows.first() else {
            return Err(BoardError::Empty);
        };
        let width = first.chars().count();
        let cells = width * rows.len();
        if cells > MAX_CELLS {
            return Err(BoardError::TooLarge(cells));
        }
        let mut bits = 0u64;
        for (r, row) in rows.iter().enumerate() {
            let found = row.chars().count();
            if found != width {
                return Err(BoardError::Ragged {
                    row: r + 1,
                    found,
                    expected: width,
                });
            }
            for (c, ch) in row.chars().enumerate() {
                match ch {
                    '.' => bits |= 1 << (r * width + c),
                    '#' | 'x' | 'X' => {}
                    found => {
                        return Err(BoardError::BadCell {
                            row: r + 1,
                            column: c + 1,
                            found,
                        })
                    }
                }
            }
        }
        Ok(Board {
            width: width as u8,
            height: rows.len() as u8,
            bits,
        })
    }

    /// An empty `width` x `height` rectangle.
    ///
    /// # Errors
    /// [`BoardError::TooLarge`] past [`MAX_CELLS`] cells, [`BoardError::Empty`] for no cells.
    pub fn rectangle(width: usize, height: usize) -> Result<Board, BoardError> {
        let cells = width * height;
        if cells == 0 {
            return Err(BoardError::Empty);
        }
        if cells > MAX_CELLS {
            return Err(BoardError::TooLarge(cells));
        }
        Ok(Board {
            width: width as u8,
            height: height as u8,
            bits: if cells == 64 {
                u64::MAX
            } else {
                (1 << cells) - 1
            },
        })
    }

    fn at(&self, r: usize, c: usize) -> bool {
        self.bits >> (r * self.width as usize + c) & 1 == 1
    }

    /// The boards after each vertical (`vertical`, Left's) or horizontal (Right's) domino.
    pub fn moves(&self, vertical: bool) -> Vec<Board> {
        let (w, h) = (self.width as usize, self.height as usize);
        let mut out = Vec::new();
        for r in 0..h {
            for c in 0..w {
                let (r2, c2) = if vertical { (r + 1, c) } else { (r, c + 1) };
                if r2 < h && c2 < w && self.at(r, c) && self.at(r2, c2) {
                    let mask = 1 << (r * w + c) | 1 << (r2 * w + c2);
                    out.push(Board {
                        bits: self.bits & !mask,
                        ..*self
                    });
                }
            }
        }
        out
    }

    /// The 4-connected regions of empty cells, each cropped to its bounding box.
    fn regions(&self) -> Vec<Board> {
        let w = self.width as usize;
        let mut left = self.bits;
        let mut out = Vec::new();
        while left != 0 {
            let mut region = 0u64;
            let mut frontier = 1u64 << left.trailing_zeros();
            while frontier != 0 {
                region |= frontier;
                left &= !frontier;
                let mut next = 0u64;
                let mut f = frontier;
                while f != 0 {
                    let i = f.trailing_zeros() as usize;
                    f &= f - 1;
                    let (r, c) = (i / w, i % w);
                    if c > 0 {
                        next |= 1 << (i - 1);
                    }
                    if c + 1 < w {
                        next |= 1 << (i + 1);
                    }
                    if r > 0 {
                        next |= 1 << (i - w);
                    }
                    next |= (1u64 << (i + w)) * u64::from(i + w < 64);
                }
                frontier = next & left;
            }
            out.push(self.crop(region));
        }
        out
    }

    fn crop(&self, region: u64) -> Board {
        let w = self.width as usize;
        let (mut r0, mut r1, mut c0, mut c1) = (usize::MAX, 0, usize::MAX, 0);
        let mut f = region;
        while f != 0 {
            let i = f.trailing_zeros() as usize;
            f &= f - 1;
            let (r, c) = (i / w, i % w);
            r0 = r0.min(r);
            r1 = r1.max(r);
            c0 = c0.min(c);
            c1 = c1.max(c);
        }
        let (nw, nh) = (c1 - c0 + 1, r1 - r0 + 1);
        let mut bits = 0u64;
        for r in 0..nh {
            for c in 0..nw {
                if region >> ((r + r0) * w + c + c0) & 1 == 1 {
                    bits |= 1 << (r * nw + c);
                }
            }
        }
        Board {
            width: nw as u8,
            height: nh as u8,
            bits,
        }
    }

    /// The image under `f(r, c) -> (r', c')` into a `nw` x `nh` box.
    fn map(&self, nw: usize, nh: usize, f: impl Fn(usize, usize) -> (usize, usize)) -> Board {
        let mut bits = 0u64;
        for r in 0..self.height as usize {
            for c in 0..self.width as usize {
                if self.at(r, c) {
                    let (r2, c2) = f(r, c);
                    bits |= 1 << (r2 * nw + c2);
                }
            }
        }
        Board {
            width: nw as u8,
            height: nh as u8,
            bits,
        }
    }

    /// The least of the four mirror images (same value).
    fn canonical(&self) -> Board {
        let (w, h) = (self.width as usize, self.height as usize);
        let a = self.map(w, h, |r, c| (r, w - 1 - c));
        let b = self.map(w, h, |r, c| (h - 1 - r, c));
        let d = self.map(w, h, |r, c| (h - 1 - r, w - 1 - c));
        *[*self, a, b, d].iter().min().expect("four images")
    }

    /// The transpose (players swapped: value negated).
    fn transpose(&self) -> Board {
        self.map(self.height as usize, self.width as usize, |r, c| (c, r))
    }

    /// Number of empty cells.
    pub fn empty_cells(&self) -> u32 {
        self.bits.count_ones()
    }
}

/// Values of Domineering positions, memoized by region.
#[derive(Default)]
pub struct Domineering {
    memo: HashMap<Board, Value>,
}

impl Domineering {
    /// A solver with an empty memo.
    pub fn new() -> Domineering {
        Domineering::default()
    }

    /// Regions valued so far.
    pub fn regions_valued(&self) -> usize {
        self.memo.len()
    }

    /// The value of a board (Left vertical).
    ///
    /// # Errors
    /// [`CgtError::NumberTooLarge`] (not reached on boards of 64 cells); [`CgtError::TooBig`]
    /// past the memory limit ([`zermelo_cgt::set_memory_limit`]).
    pub fn value(&mut self, board: &Board) -> Result<Value, CgtError> {
        let parts = board
            .regions()
            .iter()
            .map(|r| self.region(r))
            .collect::<Result<Vec<_>, _>>()?;
        Value::sum(&parts)
    }

    fn region(&mut self, board: &Board) -> Result<Value, CgtError> {
        if board.bits.count_ones() < 2 {
            return Ok(Value::ZERO);
        }
        let key = board.canonical();
        if let Some(&v) = self.memo.get(&key) {
            return Ok(v);
        }
        if let Some(&v) = self.memo.get(&board.transpose().canonical()) {
            return Ok(v.neg());
        }
        let left = self.options(&key, true)?;
        let right = self.options(&key, false)?;
        let v = Value::from_options(&left, &right)?;
        self.memo.insert(key, v);
        zermelo_cgt::check_memory(zermelo_cgt::memo_bytes(&self.memo))?;
        Ok(v)
    }

    fn options(&mut self, board: &Board, vertical: bool) -> Result<Vec<Value>, CgtError> {
        let mut out = board
            .moves(vertical)
            .iter()
            .map(|b| self.value(b))
            .collect::<Result<Vec<_>, _>>()?;
        out.sort_unstable();
        out.dedup();
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn value(board: &str) -> String {
        Domineering::new()
            .value(&Board::parse(board).unwrap())
            .unwrap()
            .to_string()
    }

    /// Values from *Winning Ways* (2nd ed., vol. 1, ch. 5) and *Lessons in Play* (ch. 1-2),
    /// each re-derived by hand in the comment.
    #[test]
    fn published_values() {
        assert_eq!(value(".."), "-1"); // a 1x2 strip: one horizontal move
        assert_eq!(value("./."), "1"); // a 2x1 strip: one vertical move
        assert_eq!(value("../.."), "+-1"); // the 2x2 square: {1 + 0 | -1 + 0}
        assert_eq!(value("..."), "-1"); // 1x3: Right moves once
        assert_eq!(value("...."), "-2"); // 1x4: {| -1, 0} = -2
                                         // The L of four cells: Left -> -1 (two cells in a row); Right -> 1 or 0: {-1|0} = -1/2.
        assert_eq!(value("##./..."), "-1/2");
        // 2x3: Left's middle column leaves 1 + 1 = 2 (dominating +-1); Right leaves the L: -1/2.
        assert_eq!(value(".../..."), "{2|-1/2}");
        assert_eq!(value("../../.."), "{1/2|-2}"); // 3x2, the transpose
    }

    #[test]
    fn bad_boards() {
        assert_eq!(Board::parse(""), Err(BoardError::Empty));
        assert!(matches!(
            Board::parse("..\n.a"),
            Err(BoardError::BadCell {
                row: 2,
                column: 2,
                found: 'a'
            })
        ));
        assert!(matches!(
            Board::parse("../..."),
            Err(BoardError::Ragged { row: 2, .. })
        ));
        assert!(matches!(
            Board::rectangle(9, 8),
            Err(BoardError::TooLarge(72))
        ));
    }
}
