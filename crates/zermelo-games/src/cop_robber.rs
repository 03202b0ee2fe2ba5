//! Cop and robber on an undirected graph (seed 002, challenge 4).
//!
//! Rules: a cop and a robber stand on vertices and move alternately along edges; either may
//! stay put; the cop moves first; the cop captures the robber by standing on the same vertex.
//! Both starting vertices are given. There are no exits: the robber can at best evade forever,
//! which is a draw. So for the cop to move, WIN means capture and DRAW means escape; for the
//! robber to move, LOSE means capture. The depth of a decided state is the capture time in
//! plies under optimal play (the cop hurries, the robber stalls).
//!
//! The edge list is read as undirected: each edge is usable both ways; self-loops and repeated
//! edges add nothing (staying put is always allowed). The game is a [`Pursuit`] whose two
//! move graphs are the same, solved over all `2n²` states by the compact engine.

use zermelo::game::compact::{CompactError, CompactOptions};
use zermelo::game::{dense_best_move, dense_value, CompactSolution, IndexValues, Value};
use zermelo::graph::Csr;

use super::pursuit::{Chase, Pursuit, PursuitError, Side};

/// Cop and robber on an undirected graph.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CopRobber {
    pursuit: Pursuit,
}

impl CopRobber {
    /// Largest graph accepted: `2n²` states of about 2.4 bytes, 0.5 GB at the limit.
    pub const MAX_VERTICES: u32 = 10_000;

    /// The game on `graph`, its edges taken in both directions.
    ///
    /// # Errors
    /// [`PursuitError::TooLarge`] beyond [`CopRobber::MAX_VERTICES`] vertices.
    pub fn new(graph: &Csr) -> Result<CopRobber, PursuitError> {
        let n = graph.node_count();
        if n > CopRobber::MAX_VERTICES as usize {
            return Err(PursuitError::TooLarge {
                vertices: n,
                max: CopRobber::MAX_VERTICES,
            });
        }
        let mut adjacent = vec![Vec::new(); n];
        for (u, v) in graph.edges() {
            adjacent[u as usize].push(v);
            adjacent[v as usize].push(u);
        }
        let pursuit = Pursuit::new(&adjacent, &adjacent, vec![false; n])?;
        Ok(CopRobber { pursuit })
    }

    /// The underlying pursuit game (cop = pursuer, robber = evader).
    pub fn pursuit(&self) -> &Pursuit {
        &self.pursuit
    }

    /// Number of vertices.
    pub fn vertex_count(&self) -> u32 {
        self.pursuit.vertex_count()
    }

    /// Solves every `(cop, robber, side to move)` state.
    ///
    /// # Errors
    /// As [`Pursuit::solve`].
    pub fn solve(&self) -> Result<CompactSolution, CompactError> {
        self.pursuit.solve()
    }

    /// Solves every state with `options`.
    ///
    /// # Errors
    /// As [`Pursuit::solve_with`].
    pub fn solve_with(&self, options: &CompactOptions) -> Result<CompactSolution, CompactError> {
        self.pursuit.solve_with(options)
    }

    /// The state with the cop on `cop`, the robber on `robber`, `to_move` to play.
    pub fn state(cop: u32, robber: u32, to_move: Side) -> Chase {
        Chase {
            pursuer: cop,
            evader: robber,
            to_move,
        }
    }

    /// The value of a state in a solution from [`CopRobber::solve`].
    pub fn value<S: IndexValues + ?Sized>(&self, solution: &S, state: &Chase) -> Value {
        dense_value(&self.pursuit, solution, state)
    }

    /// The optimal move from a state: the vertex the mover goes to (its own vertex to stay),
    /// `None` after a capture.
    pub fn best_move<S: IndexValues + ?Sized>(&self, solution: &S, state: &Chase) -> Option<u32> {
        let next = dense_best_move(&self.pursuit, solution, state)?;
        Some(match state.to_move {
            Side::Pursuer => next.pursuer,
            Side::Evader => next.evader,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use zermelo::{Depth, Outcome};

    #[test]
    fn seed_path_of_three() {
        // 002 challenge 4: path 0-1-2, cop 0, robber 2, cop to move: the cop captures.
        let g = Csr::from_edges(3, [(0, 1), (1, 2)]).unwrap();
        let game = CopRobber::new(&g).unwrap();
        let s = game.solve().unwrap();
        let start = CopRobber::state(0, 2, Side::Pursuer);
        let v = game.value(&s, &start);
        assert_eq!(v.outcome(), Outcome::Win);
        // Cop to 1 (robber cornered at 2 must stay or step onto the cop), then capture.
        assert_eq!(v.depth(), Some(Depth(3)));
        assert_eq!(game.best_move(&s, &start), Some(1));
    }

    #[test]
    fn a_four_cycle_lets_the_robber_escape() {
        let g = Csr::from_edges(4, [(0, 1), (1, 2), (2, 3), (3, 0)]).unwrap();
        let game = CopRobber::new(&g).unwrap();
        let s = game.solve().unwrap();
        let start = CopRobber::state(0, 2, Side::Pursuer);
        assert_eq!(game.value(&s, &start).outcome(), Outcome::Draw);
        // Adjacent, cop to move: immediate capture.
        let v = game.value(&s, &CopRobber::state(0, 1, Side::Pursuer));
        assert_eq!((v.outcome(), v.depth()), (Outcome::Win, Some(Depth(1))));
    }
}
