//! Policeman and thief on a grid board, with exactly the rules of seed 001.
//!
//! Board file: a header line `n m` (rows, columns), then `n` lines of `m` characters: `.` free,
//! `*` wall, `E` exit, `P` the policeman's start, `T` the thief's start (both on free cells).
//! Exactly one `P` and one `T`; any number of exits. Blank lines may follow the board.
//!
//! Rules: the policeman moves to one of the 8 neighbouring cells, the thief to one of the 4
//! orthogonal ones, never onto a wall or off the board; either may skip a turn; the policeman
//! moves first. Same cell: the policeman wins. The thief on an exit (the policeman elsewhere):
//! the thief wins. Play that goes on forever is a draw. Cells are `(row, column)`, 0-based.
//!
//! The game is a [`Pursuit`] on the free cells (policeman = pursuer, thief = evader), solved
//! over all `2F²` states (`F` free cells) by the compact engine: about 2.4 bytes per state,
//! so a 100×100 open board (2×10⁸ states) needs under 0.5 GB.

use zermelo::game::compact::{CompactError, CompactOptions};
use zermelo::game::{
    dense_principal_line, dense_value, CompactSolution, IndexValues, LineStop, Value,
};
use zermelo::io::stream::LineCheck;
use zermelo::io::{ErrorKind, ParseError};
use zermelo::Outcome;

use super::pursuit::{Chase, Pursuit, Side};

/// Largest number of free cells accepted (`2F²` states of about 2.4 bytes: 0.5 GB).
pub const MAX_FREE_CELLS: usize = 10_000;

/// Largest number of cells (free or not) a board file may declare.
pub const MAX_CELLS: u64 = 1 << 24;

/// One cell of the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Square {
    /// Free (including the starting cells).
    Free,
    /// A wall: nobody enters it.
    Wall,
    /// An exit: the thief escapes here.
    Exit,
}

/// A parsed board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    rows: usize,
    cols: usize,
    squares: Vec<Square>,
    police: (usize, usize),
    thief: (usize, usize),
}

impl Board {
    /// Parses a board file (see the module docs); `source` names it in errors.
    ///
    /// # Errors
    /// A [`ParseError`] naming the line: a bad header, a row of the wrong length, a character
    /// outside `.*EPT`, missing rows, a text line after the board, no or several `P`/`T`, or
    /// more than [`MAX_CELLS`] cells / [`MAX_FREE_CELLS`] free cells.
    pub fn parse(bytes: &[u8], source: &str) -> Result<Board, ParseError> {
        let text = std::str::from_utf8(bytes)
            .map_err(|e| ParseError::whole(source, format!("not UTF-8 text: {e}")))?;
        let mut lines = text.lines().map(str::trim_end);
        let header = lines
            .next()
            .ok_or_else(|| ParseError::whole(source, "empty file: expected a header `n m`"))?;
        let (rows, cols) = parse_header(header, source)?;
        let mut marks = Marks::default();
        let mut squares = Vec::with_capacity(rows * cols);
        for r in 0..rows {
            let line_no = r as u64 + 2;
            let line = lines.next().ok_or_else(|| {
                let want = format!("expected {rows} rows of {cols} cells");
                ParseError::at(source, line_no, format!("missing row {}: {want}", r + 1))
            })?;
            parse_row(line, (r, cols), line_no, source, &mut squares, &mut marks)?;
        }
        if let Some((i, _)) = lines.enumerate().find(|(_, l)| !l.is_empty()) {
            let message = format!("text after the {rows} rows of the board");
            return Err(ParseError::at(source, (rows + 2 + i) as u64, message));
        }
        let board = Board {
            rows,
            cols,
            police: exactly_one(&marks.police, 'P', "the policeman", source)?,
            thief: exactly_one(&marks.thief, 'T', "the thief", source)?,
            squares,
        };
        let free = board.squares.iter().filter(|&&s| s != Square::Wall).count();
        if free > MAX_FREE_CELLS {
            let limit = format!("the supported maximum of {MAX_FREE_CELLS}");
            return Err(ParseError::whole(
                source,
                format!("{free} free cells is more than {limit}"),
            )
            .with_kind(ErrorKind::TooBig));
        }
        Ok(board)
    }

    /// `(rows, columns)`.
    pub fn size(&self) -> (usize, usize) {
        (self.rows, self.cols)
    }

    /// The square at `(row, col)`.
    pub fn square(&self, row: usize, col: usize) -> Square {
        self.squares[row * self.cols + col]
    }

    /// The policeman's starting cell.
    pub fn police(&self) -> (usize, usize) {
        self.police
    }

    /// The thief's starting cell.
    pub fn thief(&self) -> (usize, usize) {
        self.thief
    }
}

/// Where the `P` and `T` marks were seen: (line, cell).
#[derive(Default)]
struct Marks {
    police: Vec<(u64, (usize, usize))>,
    thief: Vec<(u64, (usize, usize))>,
}

/// A board file line by line, for input read as it arrives
/// ([`read_checked`](zermelo::io::stream::read_checked)): the header, then each row checked as
/// [`Board::parse`] checks it, then only blank lines; the marks are counted by [`Board::parse`].
#[derive(Default)]
pub struct BoardLines {
    size: Option<(usize, usize)>,
    row: usize,
}

impl LineCheck for BoardLines {
    fn check(&mut self, number: u64, line: &[u8], source: &str) -> Result<(), ParseError> {
        let line = std::str::from_utf8(line)
            .map_err(|e| ParseError::at(source, number, format!("not UTF-8 text: {e}")))?
            .trim_end();
        let Some((rows, cols)) = self.size else {
            self.size = Some(parse_header(line, source)?);
            return Ok(());
        };
        if self.row < rows {
            let mut squares = Vec::with_capacity(cols);
            parse_row(
                line,
                (self.row, cols),
                number,
                source,
                &mut squares,
                &mut Marks::default(),
            )?;
            self.row += 1;
        } else if !line.is_empty() {
            let message = format!("text after the {rows} rows of the board");
            return Err(ParseError::at(source, number, message));
        }
        Ok(())
    }
}

/// Appends row `r` (of `cols` cells) to `squares`, noting the start marks.
fn parse_row(
    line: &str,
    (r, cols): (usize, usize),
    line_no: u64,
    source: &str,
    squares: &mut Vec<Square>,
    marks: &mut Marks,
) -> Result<(), ParseError> {
    let found = line.chars().count();
    if found != cols {
        let message = format!("row {} has {found} cells, expected {cols}", r + 1);
        return Err(ParseError::at(source, line_no, message));
    }
    for (c, ch) in line.chars().enumerate() {
        squares.push(match ch {
            '.' => Square::Free,
            '*' => Square::Wall,
            'E' => Square::Exit,
            'P' | 'T' => {
                let list = if ch == 'P' {
                    &mut marks.police
                } else {
                    &mut marks.thief
                };
                list.push((line_no, (r, c)));
                Square::Free
            }
            other => {
                let message = format!("column {}: {other:?} is not one of . * E P T", c + 1);
                return Err(ParseError::at(source, line_no, message));
            }
        });
    }
    Ok(())
}

fn parse_header(header: &str, source: &str) -> Result<(usize, usize), ParseError> {
    let bad = || {
        ParseError::at(
            source,
            1,
            format!(
                "expected a header `n m` (rows and columns, both at least 1), found {header:?}"
            ),
        )
    };
    let fields: Vec<&str> = header.split_whitespace().collect();
    let [n, m] = fields[..] else {
        return Err(bad());
    };
    let (n, m) = (
        n.parse::<u64>().map_err(|_| bad())?,
        m.parse::<u64>().map_err(|_| bad())?,
    );
    if n == 0 || m == 0 {
        return Err(bad());
    }
    if n.saturating_mul(m) > MAX_CELLS {
        return Err(ParseError::at(
            source,
            1,
            format!("{n}x{m} cells is more than the supported maximum of {MAX_CELLS}"),
        )
        .with_kind(ErrorKind::TooBig));
    }
    Ok((n as usize, m as usize))
}

fn exactly_one(
    found: &[(u64, (usize, usize))],
    mark: char,
    who: &str,
    source: &str,
) -> Result<(usize, usize), ParseError> {
    match found {
        [(_, cell)] => Ok(*cell),
        [] => Err(ParseError::whole(
            source,
            format!("no `{mark}` on the board: mark {who}'s start"),
        )),
        [_, (line, _), ..] => Err(ParseError::at(
            source,
            *line,
            format!("a second `{mark}`: the board must have exactly one"),
        )),
    }
}

/// The policeman-and-thief game on a board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PoliceThief {
    board: Board,
    /// Free-cell number of each cell (`u32::MAX` for walls).
    number: Vec<u32>,
    /// The cell of each free-cell number.
    cell: Vec<(usize, usize)>,
    pursuit: Pursuit,
}

/// The policeman's 8 and the thief's 4 directions.
const KING: [(isize, isize); 8] = [
    (-1, -1),
    (-1, 0),
    (-1, 1),
    (0, -1),
    (0, 1),
    (1, -1),
    (1, 0),
    (1, 1),
];
const ROOK: [(isize, isize); 4] = [(-1, 0), (0, -1), (0, 1), (1, 0)];

/// How a line of play is described: the mover, and where it went.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    /// `Side::Pursuer` for the policeman, `Side::Evader` for the thief.
    pub mover: Side,
    /// Its cell before the move.
    pub from: (usize, usize),
    /// Its cell after the move (equal to `from` when it skips).
    pub to: (usize, usize),
}

impl PoliceThief {
    /// Sets up the game on `board`.
    pub fn new(board: Board) -> PoliceThief {
        let mut number = vec![u32::MAX; board.squares.len()];
        let mut cell = Vec::new();
        for (i, s) in board.squares.iter().enumerate() {
            if *s != Square::Wall {
                number[i] = cell.len() as u32;
                cell.push((i / board.cols, i % board.cols));
            }
        }
        let neighbours = |dirs: &[(isize, isize)]| -> Vec<Vec<u32>> {
            cell.iter()
                .map(|&(r, c)| {
                    dirs.iter()
                        .filter_map(|&(dr, dc)| {
                            let (r2, c2) = (r.checked_add_signed(dr)?, c.checked_add_signed(dc)?);
                            (r2 < board.rows && c2 < board.cols)
                                .then(|| number[r2 * board.cols + c2])
                                .filter(|&k| k != u32::MAX)
                        })
                        .collect()
                })
                .collect()
        };
        let exits = cell
            .iter()
            .map(|&(r, c)| board.square(r, c) == Square::Exit)
            .collect();
        let pursuit = Pursuit::new(&neighbours(&KING), &neighbours(&ROOK), exits)
            .expect("the parser bounds the free cells below the pursuit limit");
        PoliceThief {
            board,
            number,
            cell,
            pursuit,
        }
    }

    /// The board.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The pursuit game over the free cells.
    pub fn pursuit(&self) -> &Pursuit {
        &self.pursuit
    }

    /// The starting state: both on their marked cells, the policeman to move.
    pub fn start(&self) -> Chase {
        let at = |(r, c): (usize, usize)| self.number[r * self.board.cols + c];
        Chase {
            pursuer: at(self.board.police),
            evader: at(self.board.thief),
            to_move: Side::Pursuer,
        }
    }

    /// The cell of a free-cell number.
    pub fn cell(&self, number: u32) -> (usize, usize) {
        self.cell[number as usize]
    }

    /// Solves every state.
    ///
    /// # Errors
    /// As [`Pursuit::solve`].
    pub fn solve(&self) -> Result<CompactSolution, CompactError> {
        self.pursuit.solve()
    }

    /// Solves every state with `options`.
    ///
    /// # Errors
    /// As [`Pursuit::solve_with`].
    pub fn solve_with(&self, options: &CompactOptions) -> Result<CompactSolution, CompactError> {
        self.pursuit.solve_with(options)
    }

    /// The value of the starting position (for the policeman, who moves first).
    pub fn value<S: IndexValues + ?Sized>(&self, solution: &S) -> Value {
        dense_value(&self.pursuit, solution, &self.start())
    }

    /// The seed's verdict line for the start: `Police catches the thief`, `The thief escapes`
    /// or `Draw`.
    pub fn verdict_line<S: IndexValues + ?Sized>(&self, solution: &S) -> &'static str {
        match self.value(solution).outcome() {
            Outcome::Win => "Police catches the thief",
            Outcome::Lose => "The thief escapes",
            Outcome::Draw => "Draw",
        }
    }

    /// The first `plies` moves of optimal play from the start, and how the line stops.
    pub fn principal_line<S: IndexValues + ?Sized>(
        &self,
        solution: &S,
        plies: usize,
    ) -> (Vec<Step>, LineStop) {
        let line = dense_principal_line(&self.pursuit, solution, &self.start(), plies);
        let steps = line
            .positions
            .windows(2)
            .map(|w| {
                let (a, b) = (w[0], w[1]);
                let (from, to) = match a.to_move {
                    Side::Pursuer => (a.pursuer, b.pursuer),
                    Side::Evader => (a.evader, b.evader),
                };
                Step {
                    mover: a.to_move,
                    from: self.cell(from),
                    to: self.cell(to),
                }
            })
            .collect();
        (steps, line.end)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use zermelo::io::stream::{passes_whole, random_texts};
    use zermelo::Depth;

    /// The board's line check is never stricter than its parser (as the core's formats are
    /// tested in `zermelo::io::stream`).
    #[test]
    fn the_line_check_never_refuses_what_the_parser_accepts() {
        let starts: [&[u8]; 2] = [b"1 2\nPT\n", b""];
        let mut accepted = 0;
        for text in random_texts(b"0123 ;,\n\n\n#\"\r.*EPT", &starts, 100_000) {
            if Board::parse(&text, "t").is_ok() {
                accepted += 1;
                assert!(passes_whole(&text, &mut BoardLines::default()), "{text:?}");
            }
        }
        assert!(accepted > 500, "{accepted}");
    }

    fn game(text: &str) -> PoliceThief {
        PoliceThief::new(Board::parse(text.as_bytes(), "test").unwrap())
    }

    #[test]
    fn open_corridor_is_a_catch() {
        let g = game("1 3\nP.T\n");
        let s = g.solve().unwrap();
        assert_eq!(g.verdict_line(&s), "Police catches the thief");
        // Police to the middle, thief skips (cornered), police takes it.
        assert_eq!(g.value(&s).depth(), Some(Depth(3)));
        let (steps, end) = g.principal_line(&s, 10);
        assert_eq!(steps[0].to, (0, 1));
        assert_eq!(end, LineStop::Terminal);
    }

    #[test]
    fn thief_next_to_an_exit_escapes() {
        let g = game("1 4\nP.TE\n");
        let s = g.solve().unwrap();
        assert_eq!(g.verdict_line(&s), "The thief escapes");
        assert_eq!(g.value(&s).depth(), Some(Depth(2)));
    }

    #[test]
    fn walls_can_make_a_draw() {
        // The policeman is walled in; the thief has no exit.
        let g = game("3 3\nP*.\n**.\n..T\n");
        let s = g.solve().unwrap();
        assert_eq!(g.verdict_line(&s), "Draw");
        assert_eq!(g.value(&s).depth(), None);
    }

    #[test]
    fn parse_errors_name_the_line() {
        let err = |t: &str| Board::parse(t.as_bytes(), "b.txt").unwrap_err().to_string();
        assert!(err("").contains("empty file"));
        assert!(err("2\nP.\n").starts_with("b.txt:1:"));
        assert!(err("2 2\nP.\n.\n").starts_with("b.txt:3: row 2 has 1 cells"));
        assert!(err("2 2\nP.\n.x\n").starts_with("b.txt:3: column 2"));
        assert!(err("2 2\nP.\n").starts_with("b.txt:3: missing row 2"));
        assert!(err("1 2\nPT\nxx\n").starts_with("b.txt:3: text after"));
        assert!(err("1 3\nPPT\n").contains("a second `P`"));
        assert!(err("1 2\nP.\n").contains("no `T`"));
        assert!(err("0 2\n").starts_with("b.txt:1:"));
    }
}
