//! Nim: heaps of counters; a move takes any positive number from one heap.
//!
//! Closed forms (Bouton 1901; seed 004): under normal play the position is lost for the player
//! to move iff the XOR of the heaps (the nim-sum) is 0, and a winning move reduces a heap `h`
//! with `h ^ s < h` to `h ^ s`. Under misère play (the last player to move loses) the rule is
//! the same while some heap holds 2 or more; when every heap holds 0 or 1, the player to move
//! wins iff the number of 1-heaps is even. Cost: O(heaps).
//!
//! [`Nim`] is the game by its rules, for the generic solvers that check the closed forms.

use zermelo::game::Game;
use zermelo::graph::Convention;
use zermelo::Outcome;

/// Nim by its rules: a position is the list of heap sizes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Nim {
    /// Normal play (the last to move wins) or misère (the last to move loses).
    pub convention: Convention,
}

impl Game for Nim {
    type Position = Vec<u64>;

    fn moves(&self, heaps: &Vec<u64>, out: &mut Vec<Vec<u64>>) {
        for (i, &h) in heaps.iter().enumerate() {
            for left in 0..h {
                let mut next = heaps.clone();
                next[i] = left;
                out.push(next);
            }
        }
    }

    fn convention(&self) -> Convention {
        self.convention
    }
}

/// A Nim move: take `take` counters from heap number `heap` (0-based).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NimMove {
    /// Index of the heap.
    pub heap: usize,
    /// How many counters to take (at least 1).
    pub take: u64,
}

impl NimMove {
    /// The heaps after the move.
    pub fn apply(&self, heaps: &[u64]) -> Vec<u64> {
        let mut next = heaps.to_vec();
        next[self.heap] -= self.take;
        next
    }
}

/// The closed-form analysis of a Nim position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NimAnalysis {
    /// WIN or LOSE for the player to move (Nim never draws).
    pub outcome: Outcome,
    /// The XOR of the heaps.
    pub nim_sum: u64,
    /// A winning move when the outcome is WIN: the lowest heap that works, and under misère
    /// play the move that leaves an odd number of 1-heaps when only one heap is larger than 1.
    pub winning_move: Option<NimMove>,
}

/// Analyses `heaps` under `convention` by the closed forms above.
///
/// ```
/// use zermelo_games::nim::{analyse, NimMove};
/// use zermelo::{graph::Convention, Outcome};
/// let a = analyse(&[3, 4, 5], Convention::Normal);
/// assert_eq!((a.outcome, a.nim_sum), (Outcome::Win, 2));
/// assert_eq!(a.winning_move, Some(NimMove { heap: 0, take: 2 })); // to 1 4 5
/// ```
pub fn analyse(heaps: &[u64], convention: Convention) -> NimAnalysis {
    let nim_sum = heaps.iter().fold(0, |s, &h| s ^ h);
    let large = heaps.iter().filter(|&&h| h >= 2).count();
    let winning_move = match (convention, large) {
        (Convention::Misere, 0) => misere_endgame_move(heaps),
        (Convention::Misere, 1) => Some(misere_last_large_move(heaps)),
        _ => normal_move(heaps, nim_sum),
    };
    let outcome = match (convention, large) {
        // All heaps 0 or 1: the player to move wins iff the count of 1-heaps is even.
        (Convention::Misere, 0) if nim_sum == 0 => Outcome::Win,
        (Convention::Misere, 0) => Outcome::Lose,
        _ if nim_sum != 0 => Outcome::Win,
        _ => Outcome::Lose,
    };
    NimAnalysis {
        outcome,
        nim_sum,
        winning_move,
    }
}

/// The normal-play winning move: reduce the lowest heap `h` with `h ^ s < h` to `h ^ s`.
fn normal_move(heaps: &[u64], nim_sum: u64) -> Option<NimMove> {
    (nim_sum != 0).then_some(())?;
    heaps.iter().enumerate().find_map(|(heap, &h)| {
        let target = h ^ nim_sum;
        (target < h).then(|| NimMove {
            heap,
            take: h - target,
        })
    })
}

/// Misère, all heaps 0 or 1, an even number of 1-heaps: take any 1-heap (the lowest).
fn misere_endgame_move(heaps: &[u64]) -> Option<NimMove> {
    let ones = heaps.iter().filter(|&&h| h == 1).count();
    if ones == 0 || ones % 2 == 1 {
        return None;
    }
    let heap = heaps.iter().position(|&h| h == 1)?;
    Some(NimMove { heap, take: 1 })
}

/// Misère, exactly one heap of 2 or more: reduce it to 0 or 1 so that an odd number of
/// 1-heaps remains (the opponent then takes the last counter).
fn misere_last_large_move(heaps: &[u64]) -> NimMove {
    let heap = heaps
        .iter()
        .position(|&h| h >= 2)
        .expect("called with one large heap");
    let other_ones = heaps.iter().filter(|&&h| h == 1).count() as u64;
    let keep = if other_ones % 2 == 1 { 0 } else { 1 };
    NimMove {
        heap,
        take: heaps[heap] - keep,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use zermelo::game::solve_reachable;

    /// Every position with up to three heaps of at most 4, both conventions, against the
    /// generic solver; the winning move must lead to a lost position.
    #[test]
    fn closed_forms_match_brute_force() {
        for convention in [Convention::Normal, Convention::Misere] {
            let game = Nim { convention };
            let solved = solve_reachable(&game, [vec![4, 4, 4]]).unwrap();
            for p in solved.explored().positions() {
                let a = analyse(p, convention);
                let value = solved.value(p).unwrap();
                assert_eq!(a.outcome, value.outcome(), "{p:?} {convention:?}");
                match a.winning_move {
                    Some(m) => {
                        let next = solved.value(&m.apply(p)).unwrap();
                        assert_eq!(next.outcome(), Outcome::Lose, "{p:?} {m:?}");
                    }
                    // Lost, or a misère terminal: won without a move to make.
                    None => assert!(
                        a.outcome == Outcome::Lose || p.iter().all(|&h| h == 0),
                        "{p:?}"
                    ),
                }
            }
        }
    }

    #[test]
    fn misere_endgames() {
        let a = analyse(&[1, 1, 0], Convention::Misere);
        assert_eq!(a.outcome, Outcome::Win);
        assert_eq!(a.winning_move, Some(NimMove { heap: 0, take: 1 }));
        assert_eq!(analyse(&[], Convention::Misere).outcome, Outcome::Win);
        assert_eq!(analyse(&[1], Convention::Misere).outcome, Outcome::Lose);
        let a = analyse(&[1, 5], Convention::Misere);
        assert_eq!(a.winning_move, Some(NimMove { heap: 1, take: 5 }));
    }
}
