//! Material signatures such as `KQvKR`: which pieces each side has.

use std::fmt;
use std::str::FromStr;

use crate::position::Position;
use crate::square::{Color, Role};

/// The most pieces (kings included) a table may have: generation, probing, the `tb` command
/// and the server all refuse more.
pub const MAX_PIECES: usize = 6;

/// The pieces of both sides besides the kings, each side strongest first.
///
/// A table is stored for the *canonical* orientation only (the stronger side as white, see
/// [`Material::is_canonical`]); positions of the other orientation are probed colour-flipped.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Material {
    sides: [Vec<Role>; 2],
}

/// A material string that is not of the form `K...vK...`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid material {0:?}: expected e.g. KQvKR (kings first, pieces from QRBNP)")]
pub struct ParseMaterialError(pub String);

/// A request for tables that no table answers: a material that does not parse, or one (or a
/// piece count) outside the 3 to [`MAX_PIECES`] pieces tables exist for.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum TargetError {
    /// Not of the form `K...vK...`.
    #[error(transparent)]
    Syntax(#[from] ParseMaterialError),
    /// A material with too few or too many pieces.
    #[error("{material}: tables exist for 3 to {MAX_PIECES} pieces, this has {pieces}")]
    Pieces {
        /// The material (canonical).
        material: Material,
        /// Its piece count, kings included.
        pieces: usize,
    },
    /// Every table of up to this many pieces, which is outside 3 to [`MAX_PIECES`].
    #[error("tables of up to {0} pieces: tables exist for 3 to {MAX_PIECES} pieces")]
    AllPieces(usize),
}

impl Material {
    /// The material of a position (white as white).
    pub fn of(pos: &Position) -> Material {
        let mut sides = [Vec::new(), Vec::new()];
        for (_, p) in pos.pieces() {
            if p.role != Role::King {
                sides[p.color.index()].push(p.role);
            }
        }
        Material::from_sides(sides)
    }

    /// The material of a table named by `text` (`KQvKR`, `krvkq`): parsed, in its canonical
    /// orientation, and with 3 to [`MAX_PIECES`] pieces; what `tb gen`, `tb plan` and `tb stats`
    /// accept.
    ///
    /// # Errors
    /// [`TargetError::Syntax`] or [`TargetError::Pieces`].
    pub fn parse_table(text: &str) -> Result<Material, TargetError> {
        text.parse::<Material>()?.table()
    }

    /// The canonical orientation if tables exist for this many pieces.
    ///
    /// # Errors
    /// [`TargetError::Pieces`] outside 3 to [`MAX_PIECES`] pieces.
    pub fn table(&self) -> Result<Material, TargetError> {
        let m = self.canonical().0;
        let pieces = m.piece_count();
        if (3..=MAX_PIECES).contains(&pieces) {
            Ok(m)
        } else {
            Err(TargetError::Pieces {
                material: m,
                pieces,
            })
        }
    }

    /// The material with these non-king pieces per side (white first), in any order.
    pub(crate) fn from_roles(sides: [Vec<Role>; 2]) -> Material {
        Material::from_sides(sides)
    }

    fn from_sides(mut sides: [Vec<Role>; 2]) -> Material {
        for s in &mut sides {
            s.sort_by(|a, b| b.cmp(a));
        }
        Material { sides }
    }

    /// The non-king pieces of `color`, strongest first.
    pub fn side(&self, color: Color) -> &[Role] {
        &self.sides[color.index()]
    }

    /// Number of pieces including both kings.
    pub fn piece_count(&self) -> usize {
        2 + self.sides[0].len() + self.sides[1].len()
    }

    /// Whether any pawn is on the board.
    pub fn has_pawns(&self) -> bool {
        self.sides.iter().flatten().any(|&r| r == Role::Pawn)
    }

    /// Whether one side has two or more pieces of one kind (kings aside): their squares are
    /// indexed as one combination.
    pub fn has_repeated_piece(&self) -> bool {
        self.sides.iter().any(|side| {
            side.iter()
                .enumerate()
                .any(|(i, r)| *r != Role::King && side[..i].contains(r))
        })
    }

    /// The same material with the colours swapped.
    pub fn flipped(&self) -> Material {
        Material {
            sides: [self.sides[1].clone(), self.sides[0].clone()],
        }
    }

    fn strength(side: &[Role]) -> (usize, &[Role]) {
        (side.len(), side)
    }

    /// Whether white is at least as strong as black (more pieces, then stronger pieces).
    pub fn is_canonical(&self) -> bool {
        Material::strength(&self.sides[0]) >= Material::strength(&self.sides[1])
    }

    /// The canonical orientation, and whether it swapped the colours.
    pub fn canonical(&self) -> (Material, bool) {
        if self.is_canonical() {
            (self.clone(), false)
        } else {
            (self.flipped(), true)
        }
    }

    /// The (canonical) materials one capture or one promotion away, bare kings excluded.
    pub fn successors(&self) -> Vec<Material> {
        let mut out = Vec::new();
        for c in 0..2 {
            for i in 0..self.sides[c].len() {
                let mut sides = self.sides.clone();
                let role = sides[c].remove(i);
                out.push(Material::from_sides(sides.clone()));
                if role == Role::Pawn {
                    for p in Role::PROMOTIONS {
                        let mut promoted = sides.clone();
                        promoted[c].push(p);
                        out.push(Material::from_sides(promoted));
                    }
                }
            }
        }
        let mut out: Vec<Material> = out
            .into_iter()
            .map(|m| m.canonical().0)
            .filter(|m| m.piece_count() > 2)
            .collect();
        out.sort();
        out.dedup();
        out
    }

    /// `m` and every material it depends on, each after its dependencies (generation order).
    pub fn generation_order(targets: &[Material]) -> Vec<Material> {
        fn visit(m: &Material, seen: &mut Vec<Material>) {
            if seen.contains(m) {
                return;
            }
            for s in m.successors() {
                visit(&s, seen);
            }
            seen.push(m.clone());
        }
        let mut seen = Vec::new();
        for t in targets {
            visit(&t.canonical().0, &mut seen);
        }
        seen
    }

    /// Every canonical material with 3 to `max_pieces` pieces, in generation order.
    pub fn all_up_to(max_pieces: usize) -> Vec<Material> {
        const ROLES: [Role; 5] = [
            Role::Queen,
            Role::Rook,
            Role::Bishop,
            Role::Knight,
            Role::Pawn,
        ];
        fn multisets(k: usize, from: usize, cur: &mut Vec<Role>, out: &mut Vec<Vec<Role>>) {
            if k == 0 {
                out.push(cur.clone());
                return;
            }
            for (i, &role) in ROLES.iter().enumerate().skip(from) {
                cur.push(role);
                multisets(k - 1, i, cur, out);
                cur.pop();
            }
        }
        let mut all = Vec::new();
        for extra in 1..=max_pieces.saturating_sub(2) {
            for w in 0..=extra {
                let (mut ws, mut bs) = (Vec::new(), Vec::new());
                multisets(w, 0, &mut Vec::new(), &mut ws);
                multisets(extra - w, 0, &mut Vec::new(), &mut bs);
                for a in &ws {
                    for b in &bs {
                        let m = Material::from_sides([a.clone(), b.clone()]);
                        if m.is_canonical() {
                            all.push(m);
                        }
                    }
                }
            }
        }
        all.sort();
        all.dedup();
        Material::generation_order(&all)
    }
}

impl fmt::Display for Material {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let side = |s: &[Role]| -> String {
            std::iter::once('K')
                .chain(s.iter().map(|r| r.upper()))
                .collect()
        };
        write!(f, "{}v{}", side(&self.sides[0]), side(&self.sides[1]))
    }
}

impl FromStr for Material {
    type Err = ParseMaterialError;

    fn from_str(s: &str) -> Result<Material, ParseMaterialError> {
        let err = || ParseMaterialError(s.to_string());
        let (w, b) = s.split_once(['v', 'V']).ok_or_else(err)?;
        let parse_side = |t: &str| -> Result<Vec<Role>, ParseMaterialError> {
            let t = t.to_ascii_uppercase();
            let rest = t.strip_prefix('K').ok_or_else(err)?;
            rest.chars()
                .map(|c| match Role::from_char(c) {
                    Some(Role::King) | None => Err(err()),
                    Some(r) => Ok(r),
                })
                .collect()
        };
        Ok(Material::from_sides([parse_side(w)?, parse_side(b)?]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_print_canonical() {
        let m: Material = "KRvKQ".parse().unwrap();
        assert!(!m.is_canonical());
        assert_eq!(m.canonical().0.to_string(), "KQvKR");
        assert_eq!("kbnvk".parse::<Material>().unwrap().to_string(), "KBNvK");
        assert!("KQK".parse::<Material>().is_err());
        assert!("KKvK".parse::<Material>().is_err());
    }

    #[test]
    fn table_materials_are_canonical_and_have_three_to_six_pieces() {
        assert_eq!(Material::parse_table("krvkq").unwrap().to_string(), "KQvKR");
        let e = Material::parse_table("KvK").unwrap_err();
        assert_eq!(
            e.to_string(),
            "KvK: tables exist for 3 to 6 pieces, this has 2"
        );
        assert_eq!(Material::parse_table("KRBNvKQ").unwrap().piece_count(), 6);
        assert_eq!(
            Material::parse_table("kvkqrbn").unwrap().to_string(),
            "KQRBNvK"
        );
        let e = Material::parse_table("KQRBNvKQ").unwrap_err();
        assert!(matches!(e, TargetError::Pieces { pieces: 7, .. }), "{e}");
        let e = Material::parse_table("KQ").unwrap_err();
        assert!(e.to_string().starts_with("invalid material \"KQ\""), "{e}");
    }

    #[test]
    fn all_tables_up_to_four() {
        let all = Material::all_up_to(4);
        assert_eq!(all.len(), 5 + 15 + 15);
        // Every table comes after the tables it depends on.
        for (i, m) in all.iter().enumerate() {
            for s in m.successors() {
                assert!(all[..i].contains(&s), "{m} before {s}");
            }
        }
        let kpkp: Material = "KPvKP".parse().unwrap();
        assert!(kpkp.successors().contains(&"KQvKP".parse().unwrap()));
    }
}
