//! [`Solution`]: what every solver returns.

use crate::outcome::{Depth, NodeId, Outcome};

/// Sentinel in the packed depth array for "no depth" (a draw).
const NO_DEPTH: u32 = u32::MAX;

/// The solved game: an [`Outcome`] for every position and, for decided positions, its [`Depth`]
/// under fast-win / slow-loss.
///
/// Strategies are not stored: they follow from outcomes and depths (see [`crate::solve::best_move`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    outcomes: Vec<Outcome>,
    depths: Vec<u32>,
}

/// How many positions have each outcome, and the largest depth.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Positions won for the player to move.
    pub win: u64,
    /// Positions lost for the player to move.
    pub lose: u64,
    /// Drawn positions.
    pub draw: u64,
    /// The largest depth of a decided position, `None` if every position is a draw.
    pub max_depth: Option<Depth>,
}

impl Solution {
    /// A solution of `n` positions, all drawn.
    pub fn all_draws(n: usize) -> Solution {
        Solution {
            outcomes: vec![Outcome::Draw; n],
            depths: vec![NO_DEPTH; n],
        }
    }

    /// Builds a solution from per-node labels.
    ///
    /// # Panics
    /// If the lengths differ, a WIN/LOSE has no depth, a DRAW has one, or a depth is
    /// `u32::MAX`. Solvers uphold this by construction; parsers must check before calling.
    pub fn from_parts(outcomes: Vec<Outcome>, depths: Vec<Option<Depth>>) -> Solution {
        assert_eq!(outcomes.len(), depths.len(), "one depth per outcome");
        let depths = outcomes
            .iter()
            .zip(depths)
            .map(|(o, d)| match (o, d) {
                (Outcome::Draw, None) => NO_DEPTH,
                (Outcome::Win | Outcome::Lose, Some(d)) if d.0 != NO_DEPTH => d.0,
                _ => panic!("a WIN or LOSE needs a depth below u32::MAX and a DRAW none"),
            })
            .collect();
        Solution { outcomes, depths }
    }

    /// Builds a solution from per-node labels with depths as plain numbers, `u32::MAX` for
    /// "none" (4 bytes per node where [`from_parts`](Self::from_parts) takes 8).
    ///
    /// # Panics
    /// If the lengths differ or `depths[u]` is `u32::MAX` anywhere but exactly at the draws.
    pub fn from_depths(outcomes: Vec<Outcome>, depths: Vec<u32>) -> Solution {
        assert_eq!(outcomes.len(), depths.len(), "one depth per outcome");
        assert!(
            outcomes
                .iter()
                .zip(&depths)
                .all(|(&o, &d)| (o == Outcome::Draw) == (d == NO_DEPTH)),
            "a WIN or LOSE needs a depth below u32::MAX and a DRAW none"
        );
        Solution { outcomes, depths }
    }

    /// A solution from raw columns: `depths[u]` is `u32::MAX` exactly where `outcomes[u]` is a
    /// draw (callers inside the crate uphold this).
    pub(crate) fn from_raw(outcomes: Vec<Outcome>, depths: Vec<u32>) -> Solution {
        debug_assert_eq!(outcomes.len(), depths.len());
        Solution { outcomes, depths }
    }

    /// Sets one position's label; `depth` is ignored for a draw.
    #[inline]
    pub(crate) fn set(&mut self, u: NodeId, outcome: Outcome, depth: u32) {
        self.outcomes[u as usize] = outcome;
        self.depths[u as usize] = if outcome == Outcome::Draw {
            NO_DEPTH
        } else {
            depth
        };
    }

    /// Number of positions.
    pub fn len(&self) -> usize {
        self.outcomes.len()
    }

    /// True for a solution of no positions.
    pub fn is_empty(&self) -> bool {
        self.outcomes.is_empty()
    }

    /// The outcome of `u` for the player to move.
    #[inline]
    pub fn outcome(&self, u: NodeId) -> Outcome {
        self.outcomes[u as usize]
    }

    /// The depth of `u`; `None` for a draw.
    #[inline]
    pub fn depth(&self, u: NodeId) -> Option<Depth> {
        let d = self.depths[u as usize];
        (d != NO_DEPTH).then_some(Depth(d))
    }

    /// All outcomes, indexed by node.
    pub fn outcomes(&self) -> &[Outcome] {
        &self.outcomes
    }

    /// All depths, indexed by node, as plain numbers with `u32::MAX` at the draws (the layout
    /// bindings hand out without copying, e.g. as a numpy array).
    pub fn depth_column(&self) -> &[u32] {
        &self.depths
    }

    /// Per-outcome counts and the largest depth.
    pub fn counts(&self) -> Counts {
        let mut c = Counts::default();
        for (o, &d) in self.outcomes.iter().zip(&self.depths) {
            match o {
                Outcome::Win => c.win += 1,
                Outcome::Lose => c.lose += 1,
                Outcome::Draw => c.draw += 1,
            }
            if d != NO_DEPTH {
                c.max_depth = c.max_depth.max(Some(Depth(d)));
            }
        }
        c
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn from_depths_equals_from_parts_and_checks_draws() {
        let outcomes = vec![Outcome::Win, Outcome::Draw, Outcome::Lose];
        let parts =
            Solution::from_parts(outcomes.clone(), vec![Some(Depth(1)), None, Some(Depth(0))]);
        assert_eq!(
            Solution::from_depths(outcomes.clone(), vec![1, NO_DEPTH, 0]),
            parts
        );
        let bad = std::panic::catch_unwind(|| Solution::from_depths(outcomes, vec![1, 2, 0]));
        assert!(bad.is_err());
    }
}
