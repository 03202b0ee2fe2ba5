//! Fox and Geese (*Winning Ways*, 2nd ed., vol. 3, ch. 20), the loopy game as CGSuite plays it:
//! on the dark squares of a board `width` columns wide and unbounded upwards, Left's geese each
//! move one square diagonally *down*, Right's fox one square diagonally in any direction, never
//! onto a goose (no captures). Whoever cannot move loses; the fox can shuttle forever, so
//! positions repeat, but the geese cannot, so every position is a **stopper** (no infinite
//! alternating play) and has a value in simplest form.
//!
//! Squares are `(row, column)` as in CGSuite: row 1 is the bottom edge the geese move towards,
//! columns run `1..=width`, and a square is dark when `row + column` is even. A fox that stands
//! level with or above the highest goose, or one row below it with an open square diagonally
//! above, has escaped: the geese can never catch him, he never runs out of moves, and the
//! position is `off` (CGSuite's `Decomposition` of its `FoxAndGeese`). Such a position is a node
//! whose one move is Right's back to itself; the tests check the rule against a board played
//! out a row above the geese.
//!
//! The graphs are large (thousands of positions), more than [`Stopper::new`] orders at once, so
//! every position is valued by [`stopper_values`]: one strongly connected component (a goose
//! formation with the fox's squares) at a time, from the lowest geese up.

use std::collections::HashMap;
use std::fmt;

use zermelo_cgt::loopy::{stopper_values, LoopyGraph, LoopyOutcome, Stopper};
use zermelo_cgt::CgtError;

/// The most positions one exploration may reach.
pub const MAX_POSITIONS: usize = 1 << 20;

/// The widest board.
pub const MAX_WIDTH: u16 = 32;

/// The highest row a piece may start on.
pub const MAX_ROW: u16 = 64;

/// A square `(row, column)`, row 1 at the bottom.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square {
    /// The row, from 1 (the bottom edge, towards which the geese move).
    pub row: u16,
    /// The column, `1..=width`.
    pub col: u16,
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({},{})", self.row, self.col)
    }
}

/// A position: where the geese and the fox stand (geese sorted).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    geese: Vec<Square>,
    fox: Square,
}

/// Why a position or a square list was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FoxGeeseError {
    /// Text that is not a list of `(row,col)` squares.
    #[error("column {column}: {expected}")]
    Syntax {
        /// The 1-based character position.
        column: usize,
        /// What was expected there.
        expected: String,
    },
    /// A board width out of range.
    #[error("board width {0}: expected 1 to {MAX_WIDTH}")]
    Width(u16),
    /// A square off the board or a light one.
    #[error("square {square}: {why}")]
    Square {
        /// The square.
        square: Square,
        /// What is wrong with it.
        why: String,
    },
    /// No geese, two pieces on a square.
    #[error("{0}")]
    Pieces(String),
    /// Past [`MAX_POSITIONS`].
    #[error("more than {MAX_POSITIONS} positions")]
    TooBig,
    /// The values could not be formed.
    #[error("{0}")]
    Value(#[from] CgtError),
}

/// Reads squares written as CGSuite writes coordinates: `(3,1),(3,3)`; one square may also be
/// written without parentheses (`1,1`). Spaces are ignored. The squares are not checked against
/// a board ([`Position::new`] does that).
///
/// # Errors
/// [`FoxGeeseError::Syntax`] naming the column.
pub fn parse_squares(text: &str) -> Result<Vec<Square>, FoxGeeseError> {
    let chars: Vec<(usize, char)> = text
        .chars()
        .enumerate()
        .filter(|(_, c)| !c.is_whitespace())
        .map(|(i, c)| (i + 1, c))
        .collect();
    let end = text.chars().count() + 1;
    let mut p = Reader {
        chars: &chars,
        at: 0,
        end,
    };
    let mut out = Vec::new();
    if p.peek() != Some('(') {
        let row = p.number()?;
        p.expect(',')?;
        let col = p.number()?;
        p.finish()?;
        return Ok(vec![Square { row, col }]);
    }
    loop {
        p.expect('(')?;
        let row = p.number()?;
        p.expect(',')?;
        let col = p.number()?;
        p.expect(')')?;
        out.push(Square { row, col });
        if p.peek().is_none() {
            return Ok(out);
        }
        p.expect(',')?;
    }
}

struct Reader<'a> {
    chars: &'a [(usize, char)],
    at: usize,
    end: usize,
}

impl Reader<'_> {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.at).map(|&(_, c)| c)
    }

    fn column(&self) -> usize {
        self.chars.get(self.at).map_or(self.end, |&(i, _)| i)
    }

    fn fail<T>(&self, expected: &str) -> Result<T, FoxGeeseError> {
        let found = match self.peek() {
            Some(c) => format!("`{c}`"),
            None => "the end".into(),
        };
        Err(FoxGeeseError::Syntax {
            column: self.column(),
            expected: format!("expected {expected}, found {found}"),
        })
    }

    fn expect(&mut self, c: char) -> Result<(), FoxGeeseError> {
        if self.peek() == Some(c) {
            self.at += 1;
            Ok(())
        } else {
            self.fail(&format!("`{c}`"))
        }
    }

    fn number(&mut self) -> Result<u16, FoxGeeseError> {
        let start = self.at;
        let mut n: u32 = 0;
        while let Some(d) = self.peek().and_then(|c| c.to_digit(10)) {
            n = (n * 10 + d).min(u32::from(u16::MAX));
            self.at += 1;
        }
        if self.at == start {
            return self.fail("a number");
        }
        Ok(n as u16)
    }

    fn finish(&self) -> Result<(), FoxGeeseError> {
        match self.peek() {
            None => Ok(()),
            Some(_) => self.fail("the end"),
        }
    }
}

/// The geese sorted, once checked (with the fox, if given): every piece on a dark square of
/// the board no higher than [`MAX_ROW`], at least one goose, no two pieces on one square.
fn check_pieces(
    width: u16,
    geese: &[Square],
    fox: Option<Square>,
) -> Result<Vec<Square>, FoxGeeseError> {
    if width == 0 || width > MAX_WIDTH {
        return Err(FoxGeeseError::Width(width));
    }
    for &s in geese.iter().chain(fox.as_ref()) {
        let why = if s.row == 0 || s.col == 0 || s.col > width || s.row > MAX_ROW {
            format!("off the board (rows 1 to {MAX_ROW}, columns 1 to {width})")
        } else if (s.row + s.col) % 2 == 1 {
            "a light square (row + column odd); pieces stand on the dark ones".into()
        } else {
            continue;
        };
        return Err(FoxGeeseError::Square { square: s, why });
    }
    if geese.is_empty() {
        return Err(FoxGeeseError::Pieces("no geese".into()));
    }
    let mut sorted = geese.to_vec();
    sorted.sort_unstable();
    if let Some(w) = sorted.windows(2).find(|w| w[0] == w[1]) {
        return Err(FoxGeeseError::Pieces(format!("two geese on {}", w[0])));
    }
    if let Some(fox) = fox.filter(|f| sorted.contains(f)) {
        return Err(FoxGeeseError::Pieces(format!(
            "the fox on a goose at {fox}"
        )));
    }
    Ok(sorted)
}

/// Is `s` a dark square of a board `width` wide?
fn on_board(s: Square, width: u16) -> bool {
    s.row >= 1 && s.col >= 1 && s.col <= width && (s.row + s.col) % 2 == 0
}

impl Position {
    /// A position on a board `width` columns wide, checked: every piece on a dark square of
    /// the board no higher than [`MAX_ROW`], at least one goose, no two pieces on one square.
    ///
    /// # Errors
    /// [`FoxGeeseError`] naming the square or the rule.
    pub fn new(width: u16, geese: &[Square], fox: Square) -> Result<Position, FoxGeeseError> {
        let geese = check_pieces(width, geese, Some(fox))?;
        Ok(Position { geese, fox })
    }

    /// The geese, sorted.
    pub fn geese(&self) -> &[Square] {
        &self.geese
    }

    /// The fox.
    pub fn fox(&self) -> Square {
        self.fox
    }

    /// Has the fox escaped (level with or above the highest goose, or one row below it with an
    /// open dark square diagonally above)? Then the position is `off`.
    pub fn escaped(&self, width: u16) -> bool {
        let top = self.geese.iter().map(|g| g.row).max().unwrap_or(0);
        let f = self.fox;
        let open = |col: u16| {
            let s = Square {
                row: f.row + 1,
                col,
            };
            on_board(s, width) && !self.geese.contains(&s)
        };
        f.row >= top || (f.row + 1 == top && ((f.col > 1 && open(f.col - 1)) || open(f.col + 1)))
    }

    /// The positions after each move of Left (a goose one square diagonally down) or Right
    /// (the fox one square diagonally), on a board `width` wide.
    pub fn moves(&self, width: u16, left: bool) -> Vec<Position> {
        let free = |s: Square| on_board(s, width) && !self.geese.contains(&s);
        let diagonal = |s: Square, up: bool, right: bool| -> Option<Square> {
            let row = if up { s.row.checked_add(1)? } else { s.row - 1 };
            let col = if right {
                s.col + 1
            } else {
                s.col.checked_sub(1)?
            };
            Some(Square { row, col })
        };
        let mut out = Vec::new();
        if left {
            for (i, &g) in self.geese.iter().enumerate() {
                for right in [false, true] {
                    let to = diagonal(g, false, right).filter(|&t| free(t) && t != self.fox);
                    if let Some(to) = to {
                        let mut geese = self.geese.clone();
                        geese[i] = to;
                        geese.sort_unstable();
                        out.push(Position {
                            geese,
                            fox: self.fox,
                        });
                    }
                }
            }
        } else {
            for (up, right) in [(true, false), (true, true), (false, false), (false, true)] {
                if let Some(to) = diagonal(self.fox, up, right).filter(|&t| free(t)) {
                    out.push(Position {
                        geese: self.geese.clone(),
                        fox: to,
                    });
                }
            }
        }
        out
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "geese ")?;
        for (i, g) in self.geese.iter().enumerate() {
            write!(f, "{}{g}", if i == 0 { "" } else { "," })?;
        }
        write!(f, ", fox {}", self.fox)
    }
}

/// The positions reachable from some starts, as a game graph.
pub struct FoxGeese {
    width: u16,
    graph: LoopyGraph,
    positions: Vec<Position>,
    index: HashMap<Position, u32>,
}

impl FoxGeese {
    /// Every position reachable from `starts` on a board `width` wide (the starts are nodes
    /// `0, 1, ...` unless two are equal). An escaped position gets one move, Right's to itself
    /// (`off`), and is not explored further.
    ///
    /// # Errors
    /// [`FoxGeeseError::TooBig`] past [`MAX_POSITIONS`].
    pub fn explore(width: u16, starts: &[Position]) -> Result<FoxGeese, FoxGeeseError> {
        let mut b = FoxGeese {
            width,
            graph: LoopyGraph::new(),
            positions: Vec::new(),
            index: HashMap::new(),
        };
        for s in starts {
            b.node(s.clone())?;
        }
        let mut head = 0;
        while head < b.positions.len() {
            let p = b.positions[head].clone();
            let from = head as u32;
            head += 1;
            if p.escaped(width) {
                b.graph.add_right(from, from);
                continue;
            }
            for left in [true, false] {
                for m in p.moves(width, left) {
                    let to = b.node(m)?;
                    if left {
                        b.graph.add_left(from, to);
                    } else {
                        b.graph.add_right(from, to);
                    }
                }
            }
        }
        Ok(b)
    }

    fn node(&mut self, p: Position) -> Result<u32, FoxGeeseError> {
        if let Some(&i) = self.index.get(&p) {
            return Ok(i);
        }
        if self.positions.len() >= MAX_POSITIONS {
            return Err(FoxGeeseError::TooBig);
        }
        let i = self.graph.add_node();
        self.index.insert(p.clone(), i);
        self.positions.push(p);
        Ok(i)
    }

    /// The board's width.
    pub fn width(&self) -> u16 {
        self.width
    }

    /// The game graph.
    pub fn graph(&self) -> &LoopyGraph {
        &self.graph
    }

    /// The position of each node.
    pub fn positions(&self) -> &[Position] {
        &self.positions
    }

    /// The node of a position, if it was reached.
    pub fn node_of(&self, p: &Position) -> Option<u32> {
        self.index.get(p).copied()
    }

    /// The outcome of every node, each player first (never a draw: every position is a
    /// stopper).
    pub fn outcomes(&self) -> Vec<LoopyOutcome> {
        self.graph.outcomes()
    }

    /// The value of every node in simplest form, one goose formation at a time.
    ///
    /// # Errors
    /// [`CgtError::TooBig`] when a formation and the values below it pass what
    /// [`Stopper::new`] simplifies.
    pub fn values(&self) -> Result<Vec<Stopper>, CgtError> {
        let all: Vec<u32> = (0..self.positions.len() as u32).collect();
        Ok(stopper_values(&self.graph, &all)?
            .into_iter()
            .map(|s| s.expect("every node is a start"))
            .collect())
    }
}

/// One square of a values table.
#[derive(Clone, Debug)]
pub enum Cell {
    /// A goose stands here.
    Goose,
    /// A light square: no piece stands on it.
    Light,
    /// The value with the fox here.
    Fox(Stopper),
}

/// The value of every position of some geese with the fox on each dark square from the highest
/// goose's row down to row 1 (CGSuite's `ValuesTable`): rows from the top, columns from 1.
///
/// # Errors
/// As [`Position::new`] and [`FoxGeese::values`].
pub fn values_table(width: u16, geese: &[Square]) -> Result<Vec<Vec<Cell>>, FoxGeeseError> {
    check_pieces(width, geese, None)?;
    let top = geese.iter().map(|g| g.row).max().unwrap_or(0);
    let mut starts = Vec::new();
    for row in (1..=top).rev() {
        for col in 1..=width {
            let s = Square { row, col };
            if on_board(s, width) && !geese.contains(&s) {
                starts.push(Position::new(width, geese, s)?);
            }
        }
    }
    let game = FoxGeese::explore(width, &starts)?;
    let values = game.values()?;
    let mut rows = Vec::new();
    for row in (1..=top).rev() {
        let cells = (1..=width)
            .map(|col| {
                let s = Square { row, col };
                if geese.contains(&s) {
                    Cell::Goose
                } else if !on_board(s, width) {
                    Cell::Light
                } else {
                    let p = Position::new(width, geese, s).expect("checked above");
                    let node = game.node_of(&p).expect("a start");
                    Cell::Fox(values[node as usize].clone())
                }
            })
            .collect();
        rows.push(cells);
    }
    Ok(rows)
}
