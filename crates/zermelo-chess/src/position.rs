//! Positions without castling: FEN, attacks, legal moves (with en passant and promotions).

use std::fmt;

use crate::bitboard;
use crate::square::{Color, Piece, Role, Square, KING_STEPS, KNIGHT_STEPS};

const ROOK_DIRS: [(i8, i8); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const BISHOP_DIRS: [(i8, i8); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

/// A move: from, to, and the promotion role if any.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    /// Origin square.
    pub from: Square,
    /// Destination square.
    pub to: Square,
    /// The role a pawn promotes to.
    pub promotion: Option<Role>,
    /// Whether the move captures (including en passant).
    pub capture: bool,
}

impl fmt::Display for Move {
    /// UCI notation, e.g. `e7e8q`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from, self.to)?;
        if let Some(r) = self.promotion {
            write!(f, "{}", r.upper().to_ascii_lowercase())?;
        }
        Ok(())
    }
}

/// Why a FEN was rejected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FenError {
    /// The text does not follow the FEN grammar.
    #[error("invalid FEN {}: {reason}", quoted(fen))]
    Syntax {
        /// The FEN given.
        fen: String,
        /// What was wrong.
        reason: String,
    },
    /// Well-formed, but not a legal position.
    #[error("illegal position {}: {reason}", quoted(fen))]
    Illegal {
        /// The FEN given.
        fen: String,
        /// What is illegal.
        reason: String,
    },
}

/// A FEN quoted for an error message; past 120 characters only its start and its length (a
/// megabyte of text sent as a FEN is not echoed back whole).
fn quoted(fen: &str) -> String {
    const SHOWN: usize = 120;
    match fen.char_indices().nth(SHOWN) {
        None => format!("{fen:?}"),
        Some((cut, _)) => format!("{:?}... ({} bytes)", &fen[..cut], fen.len()),
    }
}

/// Why a [`Setup`] is not a legal position.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PositionError {
    /// A side has no king or several.
    #[error("{color:?} has {kings} kings, expected 1")]
    Kings {
        /// The side.
        color: Color,
        /// How many kings it has.
        kings: usize,
    },
    /// A pawn on the first or last rank.
    #[error("a pawn stands on the first or last rank")]
    PawnOnBackRank,
    /// The side that just moved is in check.
    #[error("the side not to move is in check")]
    OppositeCheck,
    /// The en passant square does not follow a double pawn push.
    #[error("en passant square {0} does not follow a double pawn push")]
    EnPassant(Square),
    /// A halfmove clock past the 75-move rule's 150 plies (the game is over by then).
    #[error("halfmove clock {0}: expected 0 to {MAX_CLOCK} (the 75-move rule ends the game at 150 plies)")]
    Clock(u32),
    /// A halfmove clock other than 0 right after a double pawn push (an en passant square).
    #[error(
        "halfmove clock {0} with an en passant square: a double pawn push sets the clock to 0"
    )]
    ClockAfterPush(u32),
}

/// The largest halfmove clock a position may carry.
pub const MAX_CLOCK: u32 = 150;

/// A position as given, unchecked: any pieces anywhere, either side to move. Fill its fields
/// (or parse a FEN with [`Setup::from_fen`]), then validate it once with
/// [`Position::from_setup`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Setup {
    /// The piece on each square, a1 = 0, b1 = 1, ..., h8 = 63.
    pub board: [Option<Piece>; 64],
    /// The side to move.
    pub turn: Color,
    /// The en passant target square, if the last move was a double pawn push.
    pub ep_square: Option<Square>,
    /// Plies since the last capture or pawn move (FEN's fifth field; 0 when absent).
    pub halfmove_clock: u32,
}

impl Setup {
    /// An empty board, white to move.
    pub fn empty() -> Setup {
        Setup {
            board: [None; 64],
            turn: Color::White,
            ep_square: None,
            halfmove_clock: 0,
        }
    }

    /// Puts (or removes) a piece.
    pub fn set(&mut self, sq: Square, piece: Option<Piece>) {
        self.board[sq.index()] = piece;
    }

    /// Parses a FEN without judging the position (castling rights must be `-`; move counters
    /// are optional).
    pub fn from_fen(fen: &str) -> Result<Setup, FenError> {
        let syntax = |reason: &str| FenError::Syntax {
            fen: fen.to_string(),
            reason: reason.to_string(),
        };
        let fields: Vec<&str> = fen.split_whitespace().collect();
        if fields.is_empty() || fields.len() > 6 {
            return Err(syntax("expected 1 to 6 space-separated fields"));
        }
        let mut setup = Setup::empty();
        let ranks: Vec<&str> = fields[0].split('/').collect();
        if ranks.len() != 8 {
            return Err(syntax("the board needs 8 ranks separated by '/'"));
        }
        for (i, row) in ranks.iter().enumerate() {
            let rank = 7 - i as i8;
            let mut file = 0i8;
            for c in row.chars() {
                if let Some(d) = c.to_digit(10) {
                    if !(1..=8).contains(&d) {
                        return Err(syntax("empty-square counts are 1 to 8"));
                    }
                    file += d as i8;
                } else {
                    let role = Role::from_char(c)
                        .ok_or_else(|| syntax(&format!("unknown piece {c:?}")))?;
                    let color = if c.is_ascii_uppercase() {
                        Color::White
                    } else {
                        Color::Black
                    };
                    let sq = Square::from_coords(file, rank)
                        .ok_or_else(|| syntax("a rank has more than 8 squares"))?;
                    setup.set(sq, Some(Piece { color, role }));
                    file += 1;
                }
                if file > 8 {
                    return Err(syntax("a rank has more than 8 squares"));
                }
            }
            if file != 8 {
                return Err(syntax("a rank has fewer than 8 squares"));
            }
        }
        setup.turn = match fields.get(1).copied().unwrap_or("w") {
            "w" => Color::White,
            "b" => Color::Black,
            _ => return Err(syntax("the side to move is 'w' or 'b'")),
        };
        let castling = fields.get(2).copied().unwrap_or("-");
        if castling != "-" {
            return Err(FenError::Illegal {
                fen: fen.to_string(),
                reason: "castling rights are not supported in endgame tables".into(),
            });
        }
        match fields.get(3).copied().unwrap_or("-") {
            "-" => {}
            s => {
                setup.ep_square =
                    Some(Square::parse(s).ok_or_else(|| syntax("bad en passant square"))?)
            }
        }
        for (i, f) in fields.iter().enumerate().skip(4) {
            if f.parse::<u32>().is_err() {
                let name = if i == 4 {
                    "the halfmove clock"
                } else {
                    "the move number"
                };
                return Err(syntax(&format!(
                    "field {} ({name}) must be a number, found {f:?}",
                    i + 1
                )));
            }
        }
        if let Some(f) = fields.get(4) {
            setup.halfmove_clock = f.parse().expect("checked above");
        }
        Ok(setup)
    }
}

/// A legal chess position without castling rights.
///
/// Built only validated: by [`Position::from_setup`], [`Position::from_fen`], or by the table
/// index (which checks legality itself); moves are played with [`Position::play`]. It has no
/// public setters: edit a [`Setup`] ([`Position::to_setup`]) and validate it again.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position {
    board: [Option<Piece>; 64],
    /// Occupied squares, one bit each (a1 = bit 0): iterating them is much faster than
    /// scanning 64 squares in a position of 3 or 4 pieces.
    occupied: u64,
    turn: Color,
    ep: Option<Square>,
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({})", self.fen())
    }
}

impl Position {
    /// An empty board with `turn` to move (not legal until kings are placed).
    pub(crate) fn empty(turn: Color) -> Position {
        Position {
            board: [None; 64],
            occupied: 0,
            turn,
            ep: None,
        }
    }

    /// The piece on `sq`.
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.board[sq.index()]
    }

    /// Puts (or removes) a piece, unchecked.
    #[inline]
    pub(crate) fn set(&mut self, sq: Square, piece: Option<Piece>) {
        self.board[sq.index()] = piece;
        let bit = 1u64 << sq.index();
        if piece.is_some() {
            self.occupied |= bit;
        } else {
            self.occupied &= !bit;
        }
    }

    /// The side to move.
    #[inline]
    pub fn turn(&self) -> Color {
        self.turn
    }

    /// The en passant target square, if the last move was a double pawn push.
    pub fn ep_square(&self) -> Option<Square> {
        self.ep
    }

    /// Sets the en passant target square (unchecked).
    pub(crate) fn set_ep_square(&mut self, ep: Option<Square>) {
        self.ep = ep;
    }

    /// The same pieces with `turn` to move.
    pub(crate) fn with_turn(mut self, turn: Color) -> Position {
        self.turn = turn;
        self
    }

    /// Same pieces and side to move (en passant rights ignored).
    pub fn same_board(&self, other: &Position) -> bool {
        self.board == other.board && self.turn == other.turn
    }

    /// Every occupied square with its piece, a1 first.
    pub fn pieces(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        let mut bits = self.occupied;
        std::iter::from_fn(move || {
            if bits == 0 {
                return None;
            }
            let i = bits.trailing_zeros() as u8;
            bits &= bits - 1;
            let sq = Square::new(i)?;
            Some((sq, self.board[i as usize]?))
        })
    }

    /// The square of `color`'s king.
    pub fn king(&self, color: Color) -> Option<Square> {
        self.pieces()
            .find(|(_, p)| p.role == Role::King && p.color == color)
            .map(|(s, _)| s)
    }

    /// The same position with colours swapped and the board mirrored top to bottom: its value
    /// for the side to move is the same.
    pub fn flip_colors(&self) -> Position {
        let mut out = Position::empty(self.turn.other());
        for (sq, p) in self.pieces() {
            out.set(
                sq.flip_vertical(),
                Some(Piece {
                    color: p.color.other(),
                    role: p.role,
                }),
            );
        }
        out.ep = self.ep.map(Square::flip_vertical);
        out
    }

    /// Whether `sq` is attacked by a piece of `by`: some piece of `by` reaches it on an empty
    /// board (a slider: shares a line with it) and nothing stands between them. Over the
    /// occupied squares only, which in an endgame are few.
    pub fn attacked(&self, sq: Square, by: Color) -> bool {
        let target = sq.index() as u8;
        let mut bits = self.occupied;
        while bits != 0 {
            let from = bits.trailing_zeros() as u8;
            bits &= bits - 1;
            let Some(p) = self.board[usize::from(from)] else {
                continue;
            };
            if p.color != by {
                continue;
            }
            let hits = match p.role {
                Role::Pawn => {
                    bitboard::attacks(Role::Pawn, by, from, 0) & bitboard::bit(target) != 0
                }
                Role::King | Role::Knight => bitboard::lined_up(p.role, from, target),
                slider => {
                    bitboard::lined_up(slider, from, target)
                        && bitboard::between(from, target) & self.occupied == 0
                }
            };
            if hits {
                return true;
            }
        }
        false
    }

    /// Whether the side to move is in check.
    pub fn is_check(&self) -> bool {
        self.king(self.turn)
            .is_some_and(|k| self.attacked(k, self.turn.other()))
    }

    /// Whether the side *not* to move is in check (which makes the position illegal).
    pub fn opponent_in_check(&self) -> bool {
        let them = self.turn.other();
        self.king(them).is_some_and(|k| self.attacked(k, self.turn))
    }

    /// All pseudo-legal moves (own king may be left in check).
    fn pseudo_moves(&self, out: &mut Vec<Move>) {
        let us = self.turn;
        for (from, p) in self.pieces() {
            if p.color != us {
                continue;
            }
            match p.role {
                Role::Pawn => self.pawn_moves(from, out),
                Role::Knight => self.step_moves(from, &KNIGHT_STEPS, out),
                Role::King => self.step_moves(from, &KING_STEPS, out),
                Role::Bishop => self.slide_moves(from, &BISHOP_DIRS, out),
                Role::Rook => self.slide_moves(from, &ROOK_DIRS, out),
                Role::Queen => {
                    self.slide_moves(from, &BISHOP_DIRS, out);
                    self.slide_moves(from, &ROOK_DIRS, out);
                }
            }
        }
    }

    fn push_target(&self, from: Square, to: Square, out: &mut Vec<Move>) -> bool {
        match self.piece_at(to) {
            None => {
                out.push(Move {
                    from,
                    to,
                    promotion: None,
                    capture: false,
                });
                true
            }
            Some(p) if p.color != self.turn && p.role != Role::King => {
                out.push(Move {
                    from,
                    to,
                    promotion: None,
                    capture: true,
                });
                false
            }
            Some(_) => false,
        }
    }

    fn step_moves(&self, from: Square, steps: &[(i8, i8)], out: &mut Vec<Move>) {
        for &(df, dr) in steps {
            if let Some(to) = from.offset(df, dr) {
                self.push_target(from, to, out);
            }
        }
    }

    fn slide_moves(&self, from: Square, dirs: &[(i8, i8)], out: &mut Vec<Move>) {
        for &(df, dr) in dirs {
            let mut cur = from;
            while let Some(to) = cur.offset(df, dr) {
                if !self.push_target(from, to, out) {
                    break;
                }
                cur = to;
            }
        }
    }

    fn pawn_moves(&self, from: Square, out: &mut Vec<Move>) {
        let fwd = self.turn.forward();
        let last_rank = if self.turn == Color::White { 7 } else { 0 };
        let start_rank = if self.turn == Color::White { 1 } else { 6 };
        let mut add = |to: Square, capture: bool| {
            if to.rank() == last_rank {
                for r in Role::PROMOTIONS {
                    out.push(Move {
                        from,
                        to,
                        promotion: Some(r),
                        capture,
                    });
                }
            } else {
                out.push(Move {
                    from,
                    to,
                    promotion: None,
                    capture,
                });
            }
        };
        if let Some(one) = from.offset(0, fwd) {
            if self.piece_at(one).is_none() {
                add(one, false);
                if from.rank() == start_rank {
                    if let Some(two) = from.offset(0, 2 * fwd) {
                        if self.piece_at(two).is_none() {
                            add(two, false);
                        }
                    }
                }
            }
        }
        for df in [-1, 1] {
            let Some(to) = from.offset(df, fwd) else {
                continue;
            };
            match self.piece_at(to) {
                Some(p) if p.color != self.turn && p.role != Role::King => add(to, true),
                None if self.ep == Some(to) => add(to, true),
                _ => {}
            }
        }
    }

    /// The position after `m` (assumed pseudo-legal), with the side to move switched.
    pub fn play(&self, m: Move) -> Position {
        let mut next = *self;
        let Some(mut piece) = self.piece_at(m.from) else {
            return next;
        };
        if piece.role == Role::Pawn && self.ep == Some(m.to) && self.piece_at(m.to).is_none() {
            // En passant: the captured pawn stands beside the origin, on the destination file.
            if let Some(victim) = Square::from_coords(m.to.file(), m.from.rank()) {
                next.set(victim, None);
            }
        }
        next.ep = None;
        if piece.role == Role::Pawn && (m.to.rank() - m.from.rank()).abs() == 2 {
            next.ep = Square::from_coords(m.from.file(), (m.from.rank() + m.to.rank()) / 2);
        }
        if let Some(r) = m.promotion {
            piece.role = r;
        }
        next.set(m.from, None);
        next.set(m.to, Some(piece));
        next.turn = self.turn.other();
        next.normalize_ep();
        next
    }

    /// Drops an en passant square that no legal capture uses, so that equal positions compare
    /// equal (the FEN convention of recording it only when it matters).
    fn normalize_ep(&mut self) {
        if self.ep.is_some() && !self.has_legal_ep() {
            self.ep = None;
        }
    }

    fn has_legal_ep(&self) -> bool {
        let Some(ep) = self.ep else { return false };
        let back = -self.turn.forward();
        [-1, 1].into_iter().any(|df| {
            let Some(from) = ep.offset(df, back) else {
                return false;
            };
            let ours = matches!(self.piece_at(from), Some(p) if p.color == self.turn && p.role == Role::Pawn);
            ours && self.is_legal(Move {
                from,
                to: ep,
                promotion: None,
                capture: true,
            })
        })
    }

    fn is_legal(&self, m: Move) -> bool {
        let next = self.play_raw(m);
        !next.opponent_in_check()
    }

    /// [`play`](Self::play) without the en passant normalisation (used by legality checks).
    fn play_raw(&self, m: Move) -> Position {
        let mut next = *self;
        if let Some(piece) = self.piece_at(m.from) {
            if piece.role == Role::Pawn && self.ep == Some(m.to) && self.piece_at(m.to).is_none() {
                if let Some(victim) = Square::from_coords(m.to.file(), m.from.rank()) {
                    next.set(victim, None);
                }
            }
            next.set(m.from, None);
            next.set(m.to, Some(piece));
        }
        next.ep = None;
        next.turn = self.turn.other();
        next
    }

    /// Every legal move, appended to `out` (cleared first).
    pub fn legal_moves_into(&self, out: &mut Vec<Move>) {
        out.clear();
        self.pseudo_moves(out);
        out.retain(|&m| self.is_legal(m));
    }

    /// Every legal capture (en passant and capturing promotions included), appended to `out`
    /// (cleared first): legality is checked for the captures only, which is what a probe
    /// that searches captures first (Syzygy's) needs at every node.
    pub fn legal_captures_into(&self, out: &mut Vec<Move>) {
        out.clear();
        self.pseudo_moves(out);
        out.retain(|&m| m.capture && self.is_legal(m));
    }

    /// Every legal move.
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut v = Vec::with_capacity(48);
        self.legal_moves_into(&mut v);
        v
    }

    /// Checkmate: in check with no legal move.
    pub fn is_checkmate(&self) -> bool {
        self.is_check() && self.legal_moves().is_empty()
    }

    /// Stalemate: not in check, no legal move (a draw).
    pub fn is_stalemate(&self) -> bool {
        !self.is_check() && self.legal_moves().is_empty()
    }

    /// Parses a FEN and validates the position, keeping its halfmove clock (the fifth field,
    /// 0 when absent; at most [`MAX_CLOCK`], and 0 after a double pawn push).
    pub fn from_fen_with_clock(fen: &str) -> Result<(Position, u32), FenError> {
        let setup = Setup::from_fen(fen)?;
        let pos = Position::from_setup(setup).map_err(|e| FenError::Illegal {
            fen: fen.to_string(),
            reason: e.to_string(),
        })?;
        Ok((pos, setup.halfmove_clock))
    }

    /// Whether the legal move `m` resets the halfmove clock: a capture or a pawn move (the
    /// zeroing moves of the 50-move rule).
    pub fn is_zeroing(&self, m: Move) -> bool {
        m.capture || self.piece_at(m.from).is_some_and(|p| p.role == Role::Pawn)
    }

    /// Standard algebraic notation of the legal move `m` (`Nf3`, `exd6`, `Rae1`, `a8=Q+`,
    /// `Qh7#`): piece letter, the origin's file, rank or both when another piece of the same
    /// kind could go to the same square, `x` for a capture, promotion, check or mate.
    pub fn san(&self, m: Move) -> String {
        let piece = self
            .piece_at(m.from)
            .expect("a legal move starts on a piece");
        let mut out = String::new();
        if piece.role == Role::Pawn {
            if m.capture {
                out.push((b'a' + m.from.file() as u8) as char);
            }
        } else {
            out.push(piece.role.upper());
            let rivals: Vec<Move> = self
                .legal_moves()
                .into_iter()
                .filter(|o| {
                    o.to == m.to && o.from != m.from && self.piece_at(o.from) == Some(piece)
                })
                .collect();
            if !rivals.is_empty() {
                let same_file = rivals.iter().any(|o| o.from.file() == m.from.file());
                let same_rank = rivals.iter().any(|o| o.from.rank() == m.from.rank());
                if !same_file {
                    out.push((b'a' + m.from.file() as u8) as char);
                } else if !same_rank {
                    out.push((b'1' + m.from.rank() as u8) as char);
                } else {
                    out.push_str(&m.from.to_string());
                }
            }
        }
        if m.capture {
            out.push('x');
        }
        out.push_str(&m.to.to_string());
        if let Some(r) = m.promotion {
            out.push('=');
            out.push(r.upper());
        }
        let after = self.play(m);
        if after.is_check() {
            out.push(if after.legal_moves().is_empty() {
                '#'
            } else {
                '+'
            });
        }
        out
    }

    /// Parses a FEN (castling rights must be `-`; move counters are optional) and validates
    /// the position.
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        Position::from_setup(Setup::from_fen(fen)?).map_err(|e| FenError::Illegal {
            fen: fen.to_string(),
            reason: e.to_string(),
        })
    }

    /// Validates a setup: one king each, no pawn on the first or last rank, the side not to
    /// move not in check, an en passant square only behind a pawn that just double-pushed
    /// (dropped when no en passant capture is legal, as FEN's convention allows).
    pub fn from_setup(setup: Setup) -> Result<Position, PositionError> {
        if setup.halfmove_clock > MAX_CLOCK {
            return Err(PositionError::Clock(setup.halfmove_clock));
        }
        if setup.ep_square.is_some() && setup.halfmove_clock != 0 {
            return Err(PositionError::ClockAfterPush(setup.halfmove_clock));
        }
        let mut pos = Position::empty(setup.turn);
        for (i, piece) in setup.board.iter().enumerate() {
            if let Some(sq) = Square::new(i as u8) {
                pos.set(sq, *piece);
            }
        }
        pos.ep = setup.ep_square;
        pos.validate()?;
        Ok(pos)
    }

    /// The setup of this position (to edit it and validate it again).
    pub fn to_setup(&self) -> Setup {
        Setup {
            board: self.board,
            turn: self.turn,
            ep_square: self.ep,
            halfmove_clock: 0,
        }
    }

    /// Checks the rules of a legal position; drops a harmless en passant square.
    fn validate(&mut self) -> Result<(), PositionError> {
        for color in [Color::White, Color::Black] {
            let kings = self
                .pieces()
                .filter(|(_, p)| p.color == color && p.role == Role::King)
                .count();
            if kings != 1 {
                return Err(PositionError::Kings { color, kings });
            }
        }
        if self
            .pieces()
            .any(|(s, p)| p.role == Role::Pawn && (s.rank() == 0 || s.rank() == 7))
        {
            return Err(PositionError::PawnOnBackRank);
        }
        if self.opponent_in_check() {
            return Err(PositionError::OppositeCheck);
        }
        if let Some(ep) = self.ep {
            let (ep_rank, fwd) = match self.turn {
                Color::White => (5, -1),
                Color::Black => (2, 1),
            };
            let pawn = ep.offset(0, fwd);
            let ok = ep.rank() == ep_rank
                && self.piece_at(ep).is_none()
                && matches!(pawn.and_then(|s| self.piece_at(s)), Some(p) if p.role == Role::Pawn && p.color != self.turn)
                && ep
                    .offset(0, -fwd)
                    .is_some_and(|s| self.piece_at(s).is_none());
            if !ok {
                return Err(PositionError::EnPassant(ep));
            }
            self.normalize_ep();
        }
        Ok(())
    }

    /// The FEN of this position (castling `-`, counters `0 1`).
    pub fn fen(&self) -> String {
        let mut s = String::new();
        for rank in (0..8).rev() {
            let mut empty = 0;
            for file in 0..8 {
                match Square::from_coords(file, rank).and_then(|sq| self.piece_at(sq)) {
                    Some(p) => {
                        if empty > 0 {
                            s.push(char::from(b'0' + empty));
                            empty = 0;
                        }
                        s.push(p.char());
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                s.push(char::from(b'0' + empty));
            }
            if rank > 0 {
                s.push('/');
            }
        }
        let turn = if self.turn == Color::White { 'w' } else { 'b' };
        let ep = self.ep.map_or("-".to_string(), |e| e.to_string());
        format!("{s} {turn} - {ep} 0 1")
    }

    /// Finds the legal move written in UCI (`e7e8q`).
    pub fn parse_uci(&self, text: &str) -> Option<Move> {
        self.legal_moves()
            .into_iter()
            .find(|m| m.to_string() == text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn perft(pos: &Position, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = pos.legal_moves();
        if depth == 1 {
            return moves.len() as u64;
        }
        moves.iter().map(|&m| perft(&pos.play(m), depth - 1)).sum()
    }

    #[test]
    fn perft_position_3() {
        // The chessprogramming wiki's "Position 3" (no castling): 14, 191, 2812, 43238, 674624.
        let pos = Position::from_fen("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1").unwrap();
        assert_eq!(perft(&pos, 1), 14);
        assert_eq!(perft(&pos, 2), 191);
        assert_eq!(perft(&pos, 3), 2812);
        assert_eq!(perft(&pos, 4), 43238);
        assert_eq!(perft(&pos, 5), 674624);
    }

    #[test]
    fn perft_special_cases() {
        // Martin Sedlak's perft suite (positions without castling rights).
        for (fen, depth, nodes) in [
            ("8/P1k5/K7/8/8/8/8/8 w - - 0 1", 6, 92683), // underpromote to check
            ("K1k5/8/P7/8/8/8/8/8 w - - 0 1", 6, 2217),  // self stalemate
            ("4k3/1P6/8/8/8/8/K7/8 w - - 0 1", 6, 217342), // promote to give check
            ("8/k1P5/8/1K6/8/8/8/8 w - - 0 1", 7, 567584), // stalemate and checkmate
            ("3k4/3p4/8/K1P4r/8/8/8/8 b - - 0 1", 6, 1134888), // avoid illegal en passant
            ("8/8/1k6/2b5/2pP4/8/5K2/8 b - d3 0 1", 6, 1440467), // en passant gives check
            ("8/8/4k3/8/2p5/8/B2P2K1/8 w - - 0 1", 6, 1015133), // avoid illegal en passant
        ] {
            let pos = Position::from_fen(fen).unwrap();
            assert_eq!(perft(&pos, depth), nodes, "{fen}");
        }
    }

    #[test]
    fn setup_validates_once_into_a_position() {
        let setup = |fen: &str| Setup::from_fen(fen).unwrap();
        let legal = setup("8/8/8/3k4/8/8/8/K6R w - - 0 1");
        let pos = Position::from_setup(legal).unwrap();
        assert_eq!(pos.to_setup(), legal);
        assert_eq!(Position::from_setup(pos.to_setup()), Ok(pos));
        let cases = [
            (
                "8/8/8/3k4/8/8/8/K5KR w - - 0 1",
                PositionError::Kings {
                    color: Color::White,
                    kings: 2,
                },
            ),
            (
                "8/8/8/8/8/8/8/K6R w - - 0 1",
                PositionError::Kings {
                    color: Color::Black,
                    kings: 0,
                },
            ),
            (
                "3P4/8/8/3k4/8/8/8/K7 w - - 0 1",
                PositionError::PawnOnBackRank,
            ),
            (
                "8/8/8/3k4/8/8/8/K2R4 w - - 0 1",
                PositionError::OppositeCheck,
            ),
            (
                "8/8/8/3k4/8/8/8/K6R w - e6 0 1",
                PositionError::EnPassant(Square::parse("e6").unwrap()),
            ),
        ];
        for (fen, want) in cases {
            assert_eq!(Position::from_setup(setup(fen)), Err(want.clone()), "{fen}");
            // FEN parsing reports the same reason.
            let err = Position::from_fen(fen).unwrap_err().to_string();
            assert!(err.contains(&want.to_string()), "{err}");
        }
        // A setup is edited through its public fields, then validated again.
        let mut edited = legal;
        edited.turn = Color::Black;
        edited.set(
            Square::parse("d4").unwrap(),
            Some(Piece {
                color: Color::White,
                role: Role::Queen,
            }),
        );
        assert!(Position::from_setup(edited).is_ok());
        edited.turn = Color::White;
        assert_eq!(
            Position::from_setup(edited),
            Err(PositionError::OppositeCheck)
        );
    }

    #[test]
    fn fen_round_trip_and_errors() {
        let fen = "8/8/8/8/8/8/8/Kk6 w - - 0 1";
        assert!(Position::from_fen(fen).is_err()); // kings adjacent: side not to move in check
        let fen = "8/8/8/8/8/8/8/K1k1Q3 b - - 0 1";
        assert_eq!(Position::from_fen(fen).unwrap().fen(), fen);
        assert!(Position::from_fen("8/8/8 w - - 0 1").is_err());
        assert!(Position::from_fen("8/8/8/8/8/8/8/K6k w KQ - 0 1").is_err());
        assert!(Position::from_fen("8/8/8/8/8/8/8/K6P w - - 0 1").is_err());
        assert!(Position::from_fen("").is_err());
    }

    #[test]
    fn mate_and_stalemate() {
        let mate = Position::from_fen("k7/1Q6/1K6/8/8/8/8/8 b - - 0 1").unwrap();
        assert!(mate.is_checkmate());
        let stale = Position::from_fen("k7/8/1QK5/8/8/8/8/8 b - - 0 1").unwrap();
        assert!(stale.is_stalemate());
    }

    #[test]
    fn en_passant_is_generated_and_kept_only_when_legal() {
        let pos = Position::from_fen("8/8/8/8/1p6/8/P7/K6k w - - 0 1").unwrap();
        let m = pos.parse_uci("a2a4").unwrap();
        let next = pos.play(m);
        assert_eq!(next.ep_square(), Square::parse("a3"));
        let ep = next.parse_uci("b4a3").unwrap();
        let after = next.play(ep);
        assert!(after.piece_at(Square::parse("a4").unwrap()).is_none());
        assert!(Position::from_fen("8/8/8/8/1p6/8/8/K6k w - a3 0 1").is_err());
    }
}
