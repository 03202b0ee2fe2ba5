//! Partizan games as `(position, player)` states.

use crate::graph::{Csr, GraphBuilder, GraphError};
use crate::outcome::{NodeId, Player};

/// A partizan game: the two players have their own moves between the same positions.
///
/// It is solved as an ordinary game graph over `2 n` states, state `2 p + i` being
/// "position `p`, player `i` to move"; a move of player `i` from `u` to `v` is the edge
/// `(u, i) -> (v, 1 - i)`. Everything that works on a [`Csr`] — solving, strategies,
/// verification — works on [`TwoPlayerGraph::states`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TwoPlayerGraph {
    positions: usize,
    states: Csr,
}

impl TwoPlayerGraph {
    /// Builds the state graph from each player's moves.
    ///
    /// # Errors
    /// [`GraphError`] when a position is out of range or there are too many positions.
    pub fn from_moves(
        positions: u64,
        moves: [&[(u64, u64)]; 2],
    ) -> Result<TwoPlayerGraph, GraphError> {
        let mut b = Self::builder(positions)?;
        for player in Player::BOTH {
            for &(u, v) in moves[player.index()] {
                Self::add_move(&mut b, positions, player, u, v)?;
            }
        }
        Self::from_state_builder(positions, b)
    }

    /// A [`GraphBuilder`] for the state graph of `positions` positions.
    pub(crate) fn builder(positions: u64) -> Result<GraphBuilder, GraphError> {
        let states = positions
            .checked_mul(2)
            .ok_or(GraphError::TooManyPositions(positions))?;
        GraphBuilder::new(states).map_err(|_| GraphError::TooManyPositions(positions))
    }

    /// Adds a move of `player` from position `u` to position `v`.
    pub(crate) fn add_move(
        b: &mut GraphBuilder,
        positions: u64,
        player: Player,
        u: u64,
        v: u64,
    ) -> Result<(), GraphError> {
        for node in [u, v] {
            if node >= positions {
                return Err(GraphError::NodeOutOfRange {
                    node,
                    nodes: positions,
                });
            }
        }
        let i = player.index() as u64;
        b.add_edge(2 * u + i, 2 * v + (1 - i))
    }

    pub(crate) fn from_state_builder(
        positions: u64,
        b: GraphBuilder,
    ) -> Result<TwoPlayerGraph, GraphError> {
        Ok(TwoPlayerGraph {
            positions: positions as usize,
            states: b.build()?,
        })
    }

    /// Number of positions (half the number of states).
    pub fn position_count(&self) -> usize {
        self.positions
    }

    /// The state graph over `(position, player)` states.
    pub fn states(&self) -> &Csr {
        &self.states
    }

    /// The state id of `position` with `player` to move.
    pub fn state(position: NodeId, player: Player) -> NodeId {
        2 * position + player as NodeId
    }

    /// The `(position, player to move)` of a state id.
    pub fn split(state: NodeId) -> (NodeId, Player) {
        let player = if state % 2 == 0 {
            Player::Zero
        } else {
            Player::One
        };
        (state / 2, player)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_alternate_players() {
        let g = TwoPlayerGraph::from_moves(2, [&[(0, 1)], &[(1, 1)]]).unwrap();
        let s = g.states();
        assert_eq!(s.node_count(), 4);
        let p0 = TwoPlayerGraph::state(0, Player::Zero);
        assert_eq!(s.successors(p0), &[TwoPlayerGraph::state(1, Player::One)]);
        let p1 = TwoPlayerGraph::state(1, Player::One);
        assert_eq!(s.successors(p1), &[TwoPlayerGraph::state(1, Player::Zero)]);
        assert_eq!(TwoPlayerGraph::split(p1), (1, Player::One));
        assert!(TwoPlayerGraph::from_moves(2, [&[(0, 2)], &[]]).is_err());
    }
}
