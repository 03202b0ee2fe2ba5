//! Material as Syzygy names it (`KQvKR`): the pieces of each side, strongest first, and the
//! normalized orientation under which a file is stored (more pieces first, then stronger).

use std::fmt;

use super::pairs::Corrupt;
use crate::material::Material;
use crate::position::Position;
use crate::square::{Color, Role};

/// Syzygy's letters, strongest first.
const LETTERS: [(char, Role); 6] = [
    ('K', Role::King),
    ('Q', Role::Queen),
    ('R', Role::Rook),
    ('B', Role::Bishop),
    ('N', Role::Knight),
    ('P', Role::Pawn),
];

/// How many pieces of each role each side has (white first, roles as [`LETTERS`]).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct TableName([[u8; 6]; 2]);

impl TableName {
    /// The material of `pos`, white first.
    pub(crate) fn of_white(pos: &Position) -> TableName {
        let mut counts = [[0u8; 6]; 2];
        for (_, p) in pos.pieces() {
            counts[p.color.index()][letter_of(p.role)] += 1;
        }
        TableName(counts)
    }

    /// The material of `m` (kings added), white first.
    pub(crate) fn of_material(m: &Material) -> TableName {
        let mut counts = [[0u8; 6]; 2];
        for color in [Color::White, Color::Black] {
            counts[color.index()][0] = 1;
            for &role in m.side(color) {
                counts[color.index()][letter_of(role)] += 1;
            }
        }
        TableName(counts)
    }

    /// The material a file's piece codes list (bit 3 black, low bits pawn = 1 .. king = 6).
    pub(crate) fn from_codes(codes: &[u8]) -> Result<TableName, Corrupt> {
        let mut counts = [[0u8; 6]; 2];
        for &c in codes {
            let role = match c & 7 {
                1 => Role::Pawn,
                2 => Role::Knight,
                3 => Role::Bishop,
                4 => Role::Rook,
                5 => Role::Queen,
                6 => Role::King,
                _ => return Err(Corrupt::new(format!("piece code {c}"))),
            };
            counts[usize::from(c & 8 != 0)][letter_of(role)] += 1;
        }
        Ok(TableName(counts))
    }

    /// Parses `KQvKR` (each side's letters in any order).
    #[cfg(test)]
    pub(crate) fn parse(text: &str) -> Option<TableName> {
        let (w, b) = text.split_once('v')?;
        let mut counts = [[0u8; 6]; 2];
        for (side, letters) in [w, b].into_iter().enumerate() {
            for c in letters.chars() {
                let k = LETTERS.iter().position(|&(l, _)| l == c)?;
                counts[side][k] += 1;
            }
        }
        Some(TableName(counts))
    }

    /// The same material with the colours swapped.
    pub(crate) fn flipped(&self) -> TableName {
        TableName([self.0[1], self.0[0]])
    }

    /// The orientation Syzygy names the file by: the side with more pieces first, or with
    /// the same number the side with the stronger pieces.
    pub(crate) fn normalized(&self) -> TableName {
        let strength = |side: usize| {
            let n: u8 = self.0[side].iter().sum();
            // Fewer pieces, then weaker (letters later in LETTERS), sort first.
            let letters: Vec<usize> = (0..6)
                .flat_map(|k| std::iter::repeat_n(k, usize::from(self.0[side][k])))
                .collect();
            (n, letters)
        };
        let (w, b) = (strength(0), strength(1));
        if (w.0, &b.1) < (b.0, &w.1) {
            self.flipped()
        } else {
            self.clone()
        }
    }

    /// Whether both sides have the same pieces.
    pub(crate) fn is_symmetric(&self) -> bool {
        self.0[0] == self.0[1]
    }

    pub(crate) fn piece_count(&self) -> usize {
        self.0.iter().flatten().map(|&c| usize::from(c)).sum()
    }

    /// Pawns of side 0 (white) or 1.
    pub(crate) fn pawns(&self, side: usize) -> usize {
        usize::from(self.0[side][5])
    }

    /// How many (side, role) pairs have exactly one piece.
    pub(crate) fn unique_pieces(&self) -> usize {
        self.0.iter().flatten().filter(|&&c| c == 1).count()
    }

    /// Only the two kings.
    pub(crate) fn is_bare_kings(&self) -> bool {
        self.piece_count() == 2 && self.0[0][0] == 1 && self.0[1][0] == 1
    }
}

fn letter_of(role: Role) -> usize {
    LETTERS
        .iter()
        .position(|&(_, r)| r == role)
        .expect("every role has a letter")
}

impl fmt::Display for TableName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for side in 0..2 {
            if side == 1 {
                f.write_str("v")?;
            }
            for (k, &(letter, _)) in LETTERS.iter().enumerate() {
                for _ in 0..self.0[side][k] {
                    write!(f, "{letter}")?;
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_normalize_as_syzygy_files() {
        for (given, file) in [
            ("KvKQ", "KQvK"),
            ("KRvKQ", "KQvKR"),
            ("KPvKR", "KRvKP"),
            ("KvKPP", "KPPvK"),
            ("KPvKP", "KPvKP"),
            ("KNvKB", "KBvKN"),
        ] {
            let n = TableName::parse(given).unwrap();
            assert_eq!(n.normalized().to_string(), file, "{given}");
        }
    }
}
