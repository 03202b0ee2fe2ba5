//! Attack sets on 64-bit boards (a1 = bit 0), for the generator's hot loops.
//!
//! Kings, knights and pawns use one precomputed mask per square; sliders walk eight ray masks
//! and cut each ray at its first blocker (the classical approach: one bit scan per direction),
//! which needs no large magic tables and is fast with at most six pieces on the board.

use crate::square::{Color, Role, KING_STEPS, KNIGHT_STEPS};

/// The eight ray directions: the first four increase the square index (north, east,
/// north-east, north-west), the last four decrease it.
const DIRS: [(i8, i8); 8] = [
    (0, 1),
    (1, 0),
    (1, 1),
    (-1, 1),
    (0, -1),
    (-1, 0),
    (-1, -1),
    (1, -1),
];

struct Tables {
    king: [u64; 64],
    knight: [u64; 64],
    /// `[color][square]`: the squares a pawn of that colour attacks.
    pawn: [[u64; 64]; 2],
    /// `[direction][square]`: every square along the ray, the square itself excluded.
    rays: [[u64; 64]; 8],
    /// `[square]`: a rook's and a bishop's squares on an empty board.
    rook_lines: [u64; 64],
    bishop_lines: [u64; 64],
    /// `[a][b]`: the squares strictly between two squares on one rank, file or diagonal
    /// (empty otherwise).
    between: [[u64; 64]; 64],
}

/// The square `(df, dr)` away from `sq`, or 64 when off the board.
const fn on_board(sq: usize, df: i8, dr: i8) -> usize {
    let (f, r) = ((sq % 8) as i8 + df, (sq / 8) as i8 + dr);
    if f >= 0 && f < 8 && r >= 0 && r < 8 {
        (r * 8 + f) as usize
    } else {
        64
    }
}

const fn steps(sq: usize, steps: &[(i8, i8)]) -> u64 {
    let mut b = 0u64;
    let mut i = 0;
    while i < steps.len() {
        let s = on_board(sq, steps[i].0, steps[i].1);
        if s < 64 {
            b |= 1 << s;
        }
        i += 1;
    }
    b
}

/// Computed at compile time: no initialisation check in the hot loops.
static TABLES: Tables = build();

const fn build() -> Tables {
    let mut t = Tables {
        king: [0; 64],
        knight: [0; 64],
        pawn: [[0; 64]; 2],
        rays: [[0; 64]; 8],
        rook_lines: [0; 64],
        bishop_lines: [0; 64],
        between: [[0; 64]; 64],
    };
    let mut sq = 0;
    while sq < 64 {
        t.king[sq] = steps(sq, &KING_STEPS);
        t.knight[sq] = steps(sq, &KNIGHT_STEPS);
        t.pawn[0][sq] = steps(sq, &[(-1, 1), (1, 1)]);
        t.pawn[1][sq] = steps(sq, &[(-1, -1), (1, -1)]);
        let mut d = 0;
        while d < 8 {
            let mut cur = on_board(sq, DIRS[d].0, DIRS[d].1);
            while cur < 64 {
                t.rays[d][sq] |= 1 << cur;
                cur = on_board(cur, DIRS[d].0, DIRS[d].1);
            }
            d += 1;
        }
        sq += 1;
    }
    // Rays are complete now: `b` on `a`'s ray in direction `d` has the rest of that ray.
    let mut a = 0;
    while a < 64 {
        let mut d = 0;
        while d < 8 {
            let ray = t.rays[d][a];
            if d % 4 < 2 {
                t.rook_lines[a] |= ray;
            } else {
                t.bishop_lines[a] |= ray;
            }
            let mut b = 0;
            while b < 64 {
                if ray & 1 << b != 0 {
                    t.between[a][b] = ray & !t.rays[d][b] & !(1 << b);
                }
                b += 1;
            }
            d += 1;
        }
        a += 1;
    }
    t
}

#[inline(always)]
fn tables() -> &'static Tables {
    &TABLES
}

/// The squares strictly between `a` and `b` if they share a rank, file or diagonal (a slider
/// on one attacks the other through them), or none.
#[inline(always)]
pub(crate) fn between(a: u8, b: u8) -> u64 {
    tables().between[a as usize][b as usize]
}

/// Whether a piece of `role` on `a` would attack `b` on an empty board (a slider: they share
/// one of its lines).
#[inline(always)]
pub(crate) fn lined_up(role: Role, a: u8, b: u8) -> bool {
    let t = tables();
    let s = a as usize;
    let reach = match role {
        Role::King => t.king[s],
        Role::Knight => t.knight[s],
        Role::Pawn => 0,
        Role::Rook => t.rook_lines[s],
        Role::Bishop => t.bishop_lines[s],
        Role::Queen => t.rook_lines[s] | t.bishop_lines[s],
    };
    reach & bit(b) != 0
}

/// One bit per square.
#[inline]
pub(crate) fn bit(sq: u8) -> u64 {
    1u64 << sq
}

#[inline]
fn ray_attacks(t: &Tables, sq: usize, occ: u64, dirs: std::ops::Range<usize>) -> u64 {
    let mut out = 0;
    for d in dirs {
        let ray = t.rays[d][sq];
        let blockers = ray & occ;
        out |= if blockers == 0 {
            ray
        } else if d < 4 {
            ray ^ t.rays[d][blockers.trailing_zeros() as usize]
        } else {
            ray ^ t.rays[d][63 - blockers.leading_zeros() as usize]
        };
    }
    out
}

/// The squares a piece of `role` and `color` on `sq` attacks given the occupied squares `occ`
/// (pawns: their two capture squares).
#[inline(always)]
pub(crate) fn attacks(role: Role, color: Color, sq: u8, occ: u64) -> u64 {
    let t = tables();
    let s = sq as usize;
    match role {
        Role::King => t.king[s],
        Role::Knight => t.knight[s],
        Role::Pawn => t.pawn[color.index()][s],
        Role::Rook => rook_attacks(t, s, occ),
        Role::Bishop => bishop_attacks(t, s, occ),
        Role::Queen => rook_attacks(t, s, occ) | bishop_attacks(t, s, occ),
    }
}

#[inline]
fn rook_attacks(t: &Tables, s: usize, occ: u64) -> u64 {
    ray_attacks(t, s, occ, 0..2) | ray_attacks(t, s, occ, 4..6)
}

#[inline]
fn bishop_attacks(t: &Tables, s: usize, occ: u64) -> u64 {
    ray_attacks(t, s, occ, 2..4) | ray_attacks(t, s, occ, 6..8)
}

/// The squares from which a non-pawn piece of `role` could have moved to `sq` (the same set as
/// its attacks: those moves are symmetric).
#[inline]
pub(crate) fn origins(role: Role, sq: u8, occ: u64) -> u64 {
    attacks(role, Color::White, sq, occ)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Position;
    use crate::square::{Piece, Square};

    /// Every role but the pawn (whose attacks depend on its colour).
    const ROLES: [Role; 5] = [
        Role::Knight,
        Role::Bishop,
        Role::Rook,
        Role::Queen,
        Role::King,
    ];

    /// Every attack set equals the mailbox `Position::attacked` on random sparse boards.
    #[test]
    fn attacks_match_mailbox() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for _ in 0..2000 {
            let occ = next() & next() & next();
            let sq = (next() % 64) as u8;
            for role in ROLES {
                let mut pos = Position::empty(Color::White);
                for s in 0..64u8 {
                    if occ & bit(s) != 0 && s != sq {
                        pos.set(
                            Square::new(s).unwrap(),
                            Some(Piece {
                                color: Color::White,
                                role: Role::Pawn,
                            }),
                        );
                    }
                }
                pos.set(
                    Square::new(sq).unwrap(),
                    Some(Piece {
                        color: Color::Black,
                        role,
                    }),
                );
                let expected = (0..64u8)
                    .filter(|&s| s != sq && pos.attacked(Square::new(s).unwrap(), Color::Black))
                    .fold(0u64, |b, s| b | bit(s));
                // Pawns on the board never attack for black here: only the piece on `sq` does.
                assert_eq!(
                    attacks(role, Color::Black, sq, occ & !bit(sq)),
                    expected,
                    "{role:?} {sq} {occ:x}"
                );
            }
        }
    }

    /// `between` and `lined_up` against their definitions by walking the board: the squares
    /// between two squares on a line are those a slider on one crosses to reach the other
    /// (and none off a line), and a piece is lined up with a square it attacks on an empty
    /// board.
    #[test]
    fn between_and_lined_up_by_walking() {
        for a in 0..64u8 {
            for b in 0..64u8 {
                let (df, dr) = (
                    i16::from(b % 8) - i16::from(a % 8),
                    i16::from(b / 8) - i16::from(a / 8),
                );
                let line = a != b && (df == 0 || dr == 0 || df.abs() == dr.abs());
                let mut want = 0u64;
                if line {
                    let (sf, sr) = (df.signum(), dr.signum());
                    let (mut f, mut r) = (i16::from(a % 8) + sf, i16::from(a / 8) + sr);
                    while (f, r) != (i16::from(b % 8), i16::from(b / 8)) {
                        want |= bit((r * 8 + f) as u8);
                        f += sf;
                        r += sr;
                    }
                }
                assert_eq!(between(a, b), want, "{a} {b}");
                for role in ROLES {
                    assert_eq!(
                        lined_up(role, a, b),
                        attacks(role, Color::White, a, 0) & bit(b) != 0,
                        "{role:?} {a} {b}"
                    );
                }
            }
        }
    }
}
