//! Staircase Nim: coins on stairs `1..=n`; a move takes one or more coins from stair `i` down
//! to stair `i - 1`, coins from stair 1 leaving the staircase. The player who cannot move loses.
//!
//! Closed form (seed 004): with 1-based stairs, the position is lost for the player to move iff
//! the XOR of the coins on the **odd** stairs is 0; its Grundy value is that XOR. Moves from an
//! even stair to an odd one only add coins that the opponent can move on again, so the game is
//! Nim on the odd stairs. A winning move: on the lowest odd stair `i` whose count `c` satisfies
//! `c ^ x < c` (`x` the odd XOR), move `c - (c ^ x)` coins down. Cost: O(stairs).

use zermelo::game::Game;
use zermelo::Outcome;

/// Staircase Nim by its rules: a position lists the coins per stair, stair 1 first.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Staircase;

impl Game for Staircase {
    type Position = Vec<u64>;

    fn moves(&self, stairs: &Vec<u64>, out: &mut Vec<Vec<u64>>) {
        for (i, &c) in stairs.iter().enumerate() {
            for k in 1..=c {
                let mut next = stairs.clone();
                next[i] -= k;
                if i > 0 {
                    next[i - 1] += k;
                }
                out.push(next);
            }
        }
    }
}

/// A Staircase Nim move: `coins` coins from stair `stair` (1-based) to stair `stair - 1`
/// (to the ground from stair 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StairMove {
    /// The stair the coins leave, 1-based.
    pub stair: usize,
    /// How many coins move (at least 1).
    pub coins: u64,
}

impl StairMove {
    /// The stairs after the move.
    ///
    /// # Panics
    /// If the move is not legal in `stairs`, or the stair below would hold more than
    /// `u64::MAX` coins (keep the total number of coins within `u64`).
    pub fn apply(&self, stairs: &[u64]) -> Vec<u64> {
        let mut next = stairs.to_vec();
        next[self.stair - 1] -= self.coins;
        if self.stair > 1 {
            let below = &mut next[self.stair - 2];
            *below = below
                .checked_add(self.coins)
                .expect("the total number of coins fits in u64");
        }
        next
    }
}

/// The closed-form analysis of a staircase.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StaircaseAnalysis {
    /// WIN or LOSE for the player to move.
    pub outcome: Outcome,
    /// The XOR of the coins on the odd stairs: the Grundy value.
    pub odd_xor: u64,
    /// A winning move when the outcome is WIN (see the module docs).
    pub winning_move: Option<StairMove>,
}

/// Analyses `stairs` (stair 1 first).
///
/// ```
/// use zermelo_games::staircase::{analyse, StairMove};
/// // Stairs 1..=3 hold 3, 1, 2: odd stairs XOR to 3 ^ 2 = 1.
/// let a = analyse(&[3, 1, 2]);
/// assert_eq!(a.odd_xor, 1);
/// assert_eq!(a.winning_move, Some(StairMove { stair: 1, coins: 1 }));
/// ```
pub fn analyse(stairs: &[u64]) -> StaircaseAnalysis {
    let odd_xor = stairs.iter().step_by(2).fold(0, |x, &c| x ^ c);
    let winning_move = (odd_xor != 0)
        .then(|| {
            stairs.iter().enumerate().step_by(2).find_map(|(i, &c)| {
                let target = c ^ odd_xor;
                (target < c).then(|| StairMove {
                    stair: i + 1,
                    coins: c - target,
                })
            })
        })
        .flatten();
    StaircaseAnalysis {
        outcome: if odd_xor == 0 {
            Outcome::Lose
        } else {
            Outcome::Win
        },
        odd_xor,
        winning_move,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use zermelo::game::explore;
    use zermelo::solve;

    /// Grundy values of every staircase reachable from [2, 2, 2, 2] are the odd XOR, and each
    /// winning move leads to a zero.
    #[test]
    fn closed_form_is_the_grundy_value() {
        let explored = explore(&Staircase, [vec![2, 2, 2, 2]]).unwrap();
        let values = solve::grundy(explored.graph()).unwrap();
        for (u, p) in explored.positions().iter().enumerate() {
            let a = analyse(p);
            assert_eq!(u64::from(values[u].0), a.odd_xor, "{p:?}");
            if let Some(m) = a.winning_move {
                assert_eq!(analyse(&m.apply(p)).odd_xor, 0);
                let to = explored.id(&m.apply(p)).unwrap();
                assert!(explored.graph().successors(u as u32).contains(&to));
            }
        }
    }
}
