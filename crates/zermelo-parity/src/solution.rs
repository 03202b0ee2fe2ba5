//! [`ParitySolution`]: the winner of every vertex and a positional strategy for the winner.

use crate::Arena;
use zermelo::{NodeId, Player};

/// No move recorded.
pub(crate) const NO_MOVE: NodeId = NodeId::MAX;

/// Winning regions and positional winning strategies of both players.
///
/// Every vertex has a winner. Where the winner owns the vertex, [`strategy`](Self::strategy)
/// names the successor it plays (solvers always record it; a claimed solution read from a file
/// may lack it, which the verifier reports).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParitySolution {
    winner: Vec<Player>,
    strategy: Vec<NodeId>,
}

impl ParitySolution {
    /// A solution of `n` vertices, all won by Even, no moves recorded (to be filled in).
    pub fn new(n: usize) -> ParitySolution {
        ParitySolution {
            winner: vec![Player::Zero; n],
            strategy: vec![NO_MOVE; n],
        }
    }

    /// Records that `winner` wins `v`, playing `strategy` there (if `winner` owns `v`).
    #[inline]
    pub fn set(&mut self, v: NodeId, winner: Player, strategy: Option<NodeId>) {
        self.winner[v as usize] = winner;
        self.strategy[v as usize] = strategy.unwrap_or(NO_MOVE);
    }

    #[inline]
    pub(crate) fn set_winner(&mut self, v: NodeId, winner: Player) {
        self.winner[v as usize] = winner;
    }

    #[inline]
    pub(crate) fn set_move(&mut self, v: NodeId, to: NodeId) {
        self.strategy[v as usize] = to;
    }

    /// Number of vertices.
    pub fn len(&self) -> usize {
        self.winner.len()
    }

    /// Whether there are no vertices.
    pub fn is_empty(&self) -> bool {
        self.winner.is_empty()
    }

    /// Who wins from `v`.
    #[inline]
    pub fn winner(&self, v: NodeId) -> Player {
        self.winner[v as usize]
    }

    /// The recorded move at `v`, if any.
    #[inline]
    pub fn strategy(&self, v: NodeId) -> Option<NodeId> {
        Some(self.strategy[v as usize]).filter(|&s| s != NO_MOVE)
    }

    /// The raw move array (`NO_MOVE` where none).
    pub(crate) fn moves(&self) -> &[NodeId] {
        &self.strategy
    }

    /// How many vertices each player wins: `[even, odd]`.
    pub fn counts(&self) -> [usize; 2] {
        let odd = self.winner.iter().filter(|&&p| p == Player::One).count();
        [self.winner.len() - odd, odd]
    }

    /// Drops recorded moves at vertices the winner does not own (they carry no information), so
    /// that two solutions of the same arena compare by what a certificate contains.
    pub fn normalised(mut self, arena: &Arena) -> ParitySolution {
        for v in arena.vertices() {
            if arena.owner(v) != self.winner(v) {
                self.strategy[v as usize] = NO_MOVE;
            }
        }
        self
    }
}
