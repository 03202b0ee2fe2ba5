//! Squares, colours, roles and pieces.

use std::fmt;

/// King steps: the four orthogonal directions first, then the four diagonals (un-move
/// generation slices them that way).
pub(crate) const KING_STEPS: [(i8, i8); 8] = [
    (1, 0),
    (-1, 0),
    (0, 1),
    (0, -1),
    (1, 1),
    (1, -1),
    (-1, 1),
    (-1, -1),
];
/// Knight steps.
pub(crate) const KNIGHT_STEPS: [(i8, i8); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];

/// A square, `0 = a1`, `7 = h1`, `63 = h8`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(transparent)]
pub struct Square(u8);

impl Square {
    /// The square with index `i` (0..64).
    pub fn new(i: u8) -> Option<Square> {
        (i < 64).then_some(Square(i))
    }

    /// The square on `file` (0 = a) and `rank` (0 = first rank).
    pub fn from_coords(file: i8, rank: i8) -> Option<Square> {
        ((0..8).contains(&file) && (0..8).contains(&rank)).then(|| Square((rank * 8 + file) as u8))
    }

    /// The index 0..64.
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// File 0..8 (a..h).
    #[inline]
    pub fn file(self) -> i8 {
        (self.0 & 7) as i8
    }

    /// Rank 0..8 (first..eighth).
    #[inline]
    pub fn rank(self) -> i8 {
        (self.0 >> 3) as i8
    }

    /// The square `df` files and `dr` ranks away, if on the board.
    #[inline]
    pub fn offset(self, df: i8, dr: i8) -> Option<Square> {
        Square::from_coords(self.file() + df, self.rank() + dr)
    }

    /// Parses `e4`.
    pub fn parse(text: &str) -> Option<Square> {
        let b = text.as_bytes();
        if b.len() != 2 || !(b'a'..=b'h').contains(&b[0]) || !(b'1'..=b'8').contains(&b[1]) {
            return None;
        }
        Square::from_coords((b[0] - b'a') as i8, (b[1] - b'1') as i8)
    }

    /// The square mirrored top to bottom (a1 <-> a8).
    #[inline]
    pub fn flip_vertical(self) -> Square {
        Square(self.0 ^ 56)
    }

    /// Applies one of the 8 board symmetries: bit 0 mirrors files, bit 1 mirrors ranks, bit 2
    /// swaps files and ranks (after the mirrors).
    #[inline]
    pub fn transform(self, t: u8) -> Square {
        let (mut f, mut r) = (self.file(), self.rank());
        if t & 1 != 0 {
            f = 7 - f;
        }
        if t & 2 != 0 {
            r = 7 - r;
        }
        if t & 4 != 0 {
            std::mem::swap(&mut f, &mut r);
        }
        Square((r * 8 + f) as u8)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}{}",
            (b'a' + self.file() as u8) as char,
            (b'1' + self.rank() as u8) as char
        )
    }
}

/// A side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    /// White, moving up the board.
    White,
    /// Black.
    Black,
}

impl Color {
    /// The other side.
    #[inline]
    pub fn other(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// 0 for white, 1 for black.
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }

    /// The direction pawns of this colour move in (+1 up, -1 down).
    #[inline]
    pub fn forward(self) -> i8 {
        match self {
            Color::White => 1,
            Color::Black => -1,
        }
    }
}

/// A kind of piece, weakest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Role {
    /// Pawn.
    Pawn,
    /// Knight.
    Knight,
    /// Bishop.
    Bishop,
    /// Rook.
    Rook,
    /// Queen.
    Queen,
    /// King.
    King,
}

impl Role {
    /// The roles a pawn may promote to, strongest first.
    pub const PROMOTIONS: [Role; 4] = [Role::Queen, Role::Rook, Role::Bishop, Role::Knight];

    /// Upper-case letter (`P N B R Q K`).
    pub fn upper(self) -> char {
        match self {
            Role::Pawn => 'P',
            Role::Knight => 'N',
            Role::Bishop => 'B',
            Role::Rook => 'R',
            Role::Queen => 'Q',
            Role::King => 'K',
        }
    }

    /// The role of a letter in either case.
    pub fn from_char(c: char) -> Option<Role> {
        Some(match c.to_ascii_uppercase() {
            'P' => Role::Pawn,
            'N' => Role::Knight,
            'B' => Role::Bishop,
            'R' => Role::Rook,
            'Q' => Role::Queen,
            'K' => Role::King,
            _ => return None,
        })
    }
}

/// A coloured piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Its side.
    pub color: Color,
    /// Its kind.
    pub role: Role,
}

impl Piece {
    /// The FEN letter: upper case for white.
    pub fn char(self) -> char {
        match self.color {
            Color::White => self.role.upper(),
            Color::Black => self.role.upper().to_ascii_lowercase(),
        }
    }
}
