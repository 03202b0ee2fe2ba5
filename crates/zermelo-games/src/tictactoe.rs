//! Tic-tac-toe (noughts and crosses) on a 3×3 board; X moves first.
//!
//! Known facts the tests check: from the empty board the game is a draw; 5,478 distinct
//! positions are reachable (the empty board included, play stopping at a win or a full board);
//! 765 of them are distinct up to the 8 symmetries of the square.
//!
//! [`TicTacToe`] has every capability: [`Game`], [`Ranked`] (base-3 index of the board, holes
//! for boards that cannot arise in play), [`Unmoves`] (lift one of the last mover's marks) and
//! [`Symmetry`] (rotations and reflections), so it exercises every solver.

use std::fmt;

use zermelo::game::{Game, Ranked, Symmetry, Unmoves};
use zermelo::Outcome;

/// The eight lines, as cell masks (cells numbered 0..9 row by row).
const LINES: [u16; 8] = [
    0b000_000_111,
    0b000_111_000,
    0b111_000_000,
    0b001_001_001,
    0b010_010_010,
    0b100_100_100,
    0b100_010_001,
    0b001_010_100,
];

const FULL: u16 = 0b111_111_111;

/// The 8 symmetries of the square as cell permutations: `SYMMETRIES[s][c]` is where cell `c`
/// goes under symmetry `s`.
const SYMMETRIES: [[u8; 9]; 8] = [
    [0, 1, 2, 3, 4, 5, 6, 7, 8], // identity
    [2, 5, 8, 1, 4, 7, 0, 3, 6], // rotate 90°
    [8, 7, 6, 5, 4, 3, 2, 1, 0], // rotate 180°
    [6, 3, 0, 7, 4, 1, 8, 5, 2], // rotate 270°
    [2, 1, 0, 5, 4, 3, 8, 7, 6], // mirror left-right
    [6, 7, 8, 3, 4, 5, 0, 1, 2], // mirror top-bottom
    [0, 3, 6, 1, 4, 7, 2, 5, 8], // transpose
    [8, 5, 2, 7, 4, 1, 6, 3, 0], // anti-transpose
];

/// A board: the cells holding X and those holding O (bit `c` for cell `c`, row by row).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Board {
    x: u16,
    o: u16,
}

/// Why a board description was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum BoardError {
    /// Not 9 cells of `x`, `o` or `.`.
    #[error("a board is 9 cells of x, o or . (row by row, `/` between rows allowed); found {0:?}")]
    Syntax(String),
    /// The marks cannot arise in play (counts, or two winners).
    #[error("the board {0} cannot arise in play (X moves first; play stops at a win)")]
    Unreachable(String),
}

impl Board {
    /// The empty board.
    pub const EMPTY: Board = Board { x: 0, o: 0 };

    /// Parses 9 cells `x`, `o`, `.` (any case; `/` and spaces between rows are ignored).
    ///
    /// # Errors
    /// [`BoardError`] for bad syntax or a board that cannot arise in play.
    pub fn parse(text: &str) -> Result<Board, BoardError> {
        let cells: Vec<char> = text
            .chars()
            .filter(|c| *c != '/' && !c.is_whitespace())
            .collect();
        if cells.len() != 9 {
            return Err(BoardError::Syntax(text.to_string()));
        }
        let mut b = Board::EMPTY;
        for (i, c) in cells.iter().enumerate() {
            match c.to_ascii_lowercase() {
                'x' => b.x |= 1 << i,
                'o' => b.o |= 1 << i,
                '.' | '-' => {}
                _ => return Err(BoardError::Syntax(text.to_string())),
            }
        }
        if !b.is_legal() {
            return Err(BoardError::Unreachable(b.to_string()));
        }
        Ok(b)
    }

    /// True when it is X's turn (equal numbers of marks).
    pub fn x_to_move(&self) -> bool {
        self.x.count_ones() == self.o.count_ones()
    }

    /// The empty cells, ascending.
    pub fn empty_cells(&self) -> impl Iterator<Item = usize> {
        let free = FULL & !(self.x | self.o);
        (0..9).filter(move |c| free >> c & 1 == 1)
    }

    /// The board after the player to move marks `cell`.
    pub fn play(&self, cell: usize) -> Board {
        let mut b = *self;
        if self.x_to_move() {
            b.x |= 1 << cell;
        } else {
            b.o |= 1 << cell;
        }
        b
    }

    /// The cell where `self` and `next` differ (the cell of the move between them).
    pub fn changed_cell(&self, next: &Board) -> Option<usize> {
        let diff = (self.x ^ next.x) | (self.o ^ next.o);
        (diff.count_ones() == 1).then(|| diff.trailing_zeros() as usize)
    }

    fn has_line(marks: u16) -> bool {
        // A line is complete when none of its cells is missing from `marks`.
        LINES.iter().any(|&line| line & !marks == 0)
    }

    /// Could this board arise in play? Counts X = O or O + 1, at most one winner, and a
    /// winner must have made the last move.
    fn is_legal(&self) -> bool {
        let (nx, no) = (self.x.count_ones(), self.o.count_ones());
        let (wx, wo) = (Board::has_line(self.x), Board::has_line(self.o));
        self.x & self.o == 0
            && (nx == no || nx == no + 1)
            && !(wx && wo)
            && (!wx || nx == no + 1)
            && (!wo || nx == no)
    }

    fn transform(&self, s: &[u8; 9]) -> Board {
        let map = |m: u16| {
            (0..9)
                .filter(|c| m >> c & 1 == 1)
                .fold(0, |t, c| t | 1 << s[c])
        };
        Board {
            x: map(self.x),
            o: map(self.o),
        }
    }
}

impl fmt::Display for Board {
    /// Row by row with `/` between rows: `x.o/.x./..o`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for c in 0..9 {
            if c > 0 && c % 3 == 0 {
                f.write_str("/")?;
            }
            let mark = match (self.x >> c & 1, self.o >> c & 1) {
                (1, _) => 'x',
                (_, 1) => 'o',
                _ => '.',
            };
            write!(f, "{mark}")?;
        }
        Ok(())
    }
}

/// Tic-tac-toe by its rules.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TicTacToe;

impl Game for TicTacToe {
    type Position = Board;

    fn moves(&self, board: &Board, out: &mut Vec<Board>) {
        out.extend(board.empty_cells().map(|c| board.play(c)));
    }

    /// The player who just moved completed a line: the player to move has lost. A full board
    /// without a line is a tie.
    fn verdict(&self, board: &Board) -> Option<Outcome> {
        let (mover, last) = if board.x_to_move() {
            (board.x, board.o)
        } else {
            (board.o, board.x)
        };
        if Board::has_line(last) {
            Some(Outcome::Lose)
        } else if Board::has_line(mover) {
            Some(Outcome::Win) // cannot arise in play; kept total for any board
        } else if board.x | board.o == FULL {
            Some(Outcome::Draw)
        } else {
            None
        }
    }
}

impl Ranked for TicTacToe {
    fn index_count(&self) -> u64 {
        3u64.pow(9)
    }

    /// Base 3, cell 0 least significant: empty 0, X 1, O 2.
    fn rank(&self, board: &Board) -> u64 {
        (0..9).rev().fold(0, |r, c| {
            r * 3 + u64::from(board.x >> c & 1) + 2 * u64::from(board.o >> c & 1)
        })
    }

    fn unrank(&self, mut index: u64) -> Option<Board> {
        let mut b = Board::EMPTY;
        for c in 0..9 {
            match index % 3 {
                1 => b.x |= 1 << c,
                2 => b.o |= 1 << c,
                _ => {}
            }
            index /= 3;
        }
        b.is_legal().then_some(b)
    }
}

impl Unmoves for TicTacToe {
    /// Lift one mark of the player who moved last.
    fn unmoves(&self, board: &Board, out: &mut Vec<Board>) {
        let last = if board.x_to_move() { board.o } else { board.x };
        for c in (0..9).filter(|c| last >> c & 1 == 1) {
            let mut b = *board;
            b.x &= !(1 << c);
            b.o &= !(1 << c);
            out.push(b);
        }
    }
}

impl Symmetry for TicTacToe {
    /// The image of least rank among the 8 symmetric boards.
    fn canonical(&self, board: &Board) -> Board {
        SYMMETRIES
            .iter()
            .map(|s| board.transform(s))
            .min_by_key(|b| self.rank(b))
            .expect("eight symmetries")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use zermelo::game::{explore, Reduced};

    #[test]
    fn known_counts_and_value() {
        let solved = explore(&TicTacToe, [Board::EMPTY]).unwrap().solve();
        assert_eq!(solved.explored().len(), 5478);
        assert_eq!(
            solved.value(&Board::EMPTY).unwrap().outcome(),
            Outcome::Draw
        );
        let reduced = explore(&Reduced(TicTacToe), [Board::EMPTY]).unwrap();
        assert_eq!(reduced.len(), 765);
    }

    #[test]
    fn legal_indices_are_the_reachable_boards() {
        let legal = (0..TicTacToe.index_count())
            .filter_map(|i| TicTacToe.unrank(i))
            .inspect(|b| assert_eq!(TicTacToe.unrank(TicTacToe.rank(b)), Some(*b)))
            .count();
        assert_eq!(legal, 5478);
    }

    #[test]
    fn parse_and_display() {
        let b = Board::parse("x.o/.x./..o").unwrap();
        assert_eq!(b.to_string(), "x.o/.x./..o");
        assert!(b.x_to_move());
        assert!(Board::parse("xxx/ooo/...").is_err());
        assert!(Board::parse("xx").is_err());
        assert!(Board::parse("oo./.../...").is_err());
    }
}
