//! The piece orders a written sub-table may use. The format lets a file choose, per sub-table,
//! which pieces lead the index, the order of the other groups and where the leading part
//! stands among them (the order bytes); that choice decides which positions sit next to each
//! other in the sequence, hence how well it compresses. [`candidates`] lists every order
//! the format allows for a material, as permutations of its kinds of pieces.

use super::encode::Layout;
use super::pairs::Corrupt;
use super::table::{layout, Shape};

/// One order of the pieces: the codes in index order and the order bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Candidate {
    /// Piece codes (bit 3 black, low bits pawn = 1 .. king = 6), identical pieces adjacent.
    pub(crate) codes: Vec<u8>,
    /// Where the leading part stands among the parts, least significant first.
    pub(crate) order: u8,
    /// Where the second colour's pawns stand (`0x0f`: no such part).
    pub(crate) order2: u8,
}

impl Candidate {
    /// The layout of this order for the sub-table of leading-pawn file `file`.
    pub(crate) fn layout(&self, shape: Shape, file: usize) -> Result<Layout, Corrupt> {
        layout(self.codes.clone(), shape, self.order, self.order2, file)
    }
}

/// Every order of a material's pieces the format allows. `kinds` are the piece codes with
/// their counts; for a pawn table `lead` is the code of the leading pawns. Kinds are taken in
/// every permutation, least significant first: without pawns the last three adjacent kinds
/// of single pieces (two for a king pair) lead the index, listed in reverse; with pawns the
/// leading pawns and the other colour's pawns come first in the codes and their places in the
/// permutation give the order bytes.
pub(crate) fn candidates(kinds: &[(u8, usize)], shape: Shape, lead: u8) -> Vec<Candidate> {
    let mut out = Vec::new();
    for perm in permutations(kinds.len()) {
        let kind = |k: usize| kinds[perm[k]];
        let repeat = |k: usize| std::iter::repeat_n(kind(k).0, kind(k).1);
        let candidate = match shape {
            Shape::Pawnless(leading) => {
                let n = leading.count();
                let Some(j) = (0..=kinds.len() - n)
                    .rev()
                    .find(|&j| (j..j + n).all(|k| kind(k).1 == 1))
                else {
                    continue;
                };
                let mut codes: Vec<u8> = (j..j + n).rev().map(|k| kind(k).0).collect();
                codes.extend(
                    (0..kinds.len())
                        .filter(|k| !(j..j + n).contains(k))
                        .flat_map(repeat),
                );
                Candidate {
                    codes,
                    order: j as u8,
                    order2: 0x0f,
                }
            }
            Shape::Pawns { .. } => {
                let place = |code: u8| (0..kinds.len()).find(|&k| kind(k).0 == code);
                let first = place(lead).expect("the leading pawns are a kind");
                let second = place(lead ^ 8);
                let pawns = [Some(first), second];
                let mut codes: Vec<u8> = pawns.iter().flatten().flat_map(|&k| repeat(k)).collect();
                codes.extend(
                    (0..kinds.len())
                        .filter(|&k| !pawns.contains(&Some(k)))
                        .flat_map(repeat),
                );
                Candidate {
                    codes,
                    order: first as u8,
                    order2: second.map_or(0x0f, |k| k as u8),
                }
            }
        };
        if !out.contains(&candidate) {
            out.push(candidate);
        }
    }
    out
}

/// Every permutation of `0..n` (n is at most 7), in lexicographic order.
fn permutations(n: usize) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    let mut p: Vec<usize> = (0..n).collect();
    loop {
        out.push(p.clone());
        let Some(i) = (1..n).rev().find(|&i| p[i - 1] < p[i]) else {
            return out;
        };
        let j = (i..n)
            .rev()
            .find(|&j| p[j] > p[i - 1])
            .expect("a larger element");
        p.swap(i - 1, j);
        p[i..].reverse();
    }
}

#[cfg(test)]
mod tests {
    use super::super::encode::Leading;
    use super::*;

    /// Whether the kinds make a pawnless table led by three single pieces or the kings.
    fn leading_of(kinds: &[(u8, usize)]) -> Leading {
        if kinds.iter().filter(|k| k.1 == 1).count() >= 3 {
            Leading::ThreeUnique
        } else {
            Leading::KingPair
        }
    }

    #[test]
    fn orders_of_some_materials() {
        assert_eq!(permutations(3).len(), 6);
        // KRvK: three single pieces, all leading: 6 orders of the leaders.
        let krk = [(6, 1), (4, 1), (14, 1)];
        let c = candidates(&krk, Shape::Pawnless(leading_of(&krk)), 0);
        assert_eq!(c.len(), 6);
        assert!(c.iter().all(|c| c.order == 0 && c.codes.len() == 3));
        // KRRvK: only the kings are single: they lead, the rooks before or after them.
        let krrk = [(6, 1), (4, 2), (14, 1)];
        let c = candidates(&krrk, Shape::Pawnless(leading_of(&krrk)), 0);
        assert!(c.iter().all(|c| c.codes[2..] == [4, 4]));
        assert!(c.iter().any(|c| c.order == 0) && c.iter().any(|c| c.order == 1));
        // Every order gives a layout of the same size.
        let sizes: Vec<u64> = c
            .iter()
            .map(|c| {
                c.layout(Shape::Pawnless(Leading::KingPair), 0)
                    .unwrap()
                    .size
            })
            .collect();
        assert!(sizes.iter().all(|&s| s == 462 * 1891), "{sizes:?}");
        // KPvKP: the white pawn leads, the black pawn follows.
        let kpkp = [(6, 1), (1, 1), (14, 1), (9, 1)];
        let shape = Shape::Pawns { lead: 1, other: 1 };
        let c = candidates(&kpkp, shape, 1);
        assert_eq!(c.len(), 24);
        assert!(c.iter().all(|c| c.codes[..2] == [1, 9]));
        for f in 0..4 {
            let sizes: Vec<u64> = c.iter().map(|c| c.layout(shape, f).unwrap().size).collect();
            assert!(sizes.iter().all(|&s| s == sizes[0]));
        }
    }
}
