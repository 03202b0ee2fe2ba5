//! Deterministic graph generators for tests, examples and benchmarks.
//!
//! Every generator is a pure function of its parameters and seed (a fixed SplitMix64 stream),
//! so `zermelo gen random --seed 2` names the same graph on every machine and every version.

/// A small, fast, fixed pseudo-random generator (SplitMix64, Steele et al. 2014).
#[derive(Clone, Debug)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    /// A generator from a seed.
    pub fn new(seed: u64) -> Self {
        SplitMix64(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..bound` (`bound > 0`), by Lemire's multiply-shift (bias below 2^-32 for
    /// the bounds used here).
    pub fn below(&mut self, bound: u64) -> u64 {
        ((u128::from(self.next_u64()) * u128::from(bound)) >> 64) as u64
    }
}

/// Parameters of [`random_edges`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RandomSpec {
    /// Number of nodes.
    pub nodes: u64,
    /// Number of edges.
    pub edges: u64,
    /// Fraction of nodes forced to be terminal (given no moves), in `[0, 1)`.
    pub terminal_fraction: f64,
    /// Random seed.
    pub seed: u64,
}

/// Whether node `u` is one of the forced terminals of a [`RandomSpec`]: a fixed hash of the node
/// and seed, so the choice needs no memory.
pub fn is_forced_terminal(spec: &RandomSpec, u: u64) -> bool {
    let threshold = (spec.terminal_fraction.clamp(0.0, 1.0) * 2f64.powi(32)) as u64;
    let mut h = SplitMix64::new(spec.seed ^ u.wrapping_mul(0xD6E8_FEB8_6659_FD93));
    (h.next_u64() >> 32) < threshold
}

/// Uniformly random edges: each edge's source is a uniform node that is not a forced terminal,
/// its target a uniform node. Self-loops and multi-edges occur as they fall.
///
/// Yields nothing when every node is a forced terminal (or there are no nodes).
pub fn random_edges(spec: RandomSpec) -> impl Iterator<Item = (u64, u64)> {
    let mut rng = SplitMix64::new(spec.seed);
    let n = spec.nodes;
    // Stops at the first usable source, almost always node 0 or 1.
    let usable = (0..n).any(|u| !is_forced_terminal(&spec, u));
    let count = if usable { spec.edges } else { 0 };
    (0..count).map(move |_| {
        let u = loop {
            let u = rng.below(n);
            if !is_forced_terminal(&spec, u) {
                break u;
            }
        };
        (u, rng.below(n))
    })
}

/// A forced march `0 -> 1 -> ... -> n-1`: the deepest possible game on `n` nodes
/// (node `n-1` is terminal, depths run `n-1, ..., 1, 0`).
pub fn chain_edges(nodes: u64) -> impl Iterator<Item = (u64, u64)> {
    (1..nodes).map(|v| (v - 1, v))
}

/// Parameters of [`grid_pursuit`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GridSpec {
    /// Columns.
    pub width: u64,
    /// Rows.
    pub height: u64,
    /// Fraction of cells that are walls, in `[0, 1)`.
    pub wall_fraction: f64,
    /// Random seed for the walls.
    pub seed: u64,
}

/// A cop-and-robber pursuit game on a grid with random walls: a graph with many cycles.
///
/// States are `(cop cell, robber cell, side to move)`, id `((cop * cells) + robber) * 2 + side`
/// (side 0: cop to move, 1: robber to move); cells are numbered row by row, wall cells included
/// (their states have no moves and no predecessors). Each side moves to a free orthogonal
/// neighbour or stays put. The cop moving onto the robber reaches a capture state, where the
/// robber is to move and has no moves (normal play: lost). The robber never steps onto the cop;
/// a capture state with the cop to move has the single move of passing the turn.
///
/// Returns the node count and the edges.
pub fn grid_pursuit(spec: GridSpec) -> (u64, impl Iterator<Item = (u64, u64)>) {
    let (w, h) = (spec.width, spec.height);
    let cells = w * h;
    let threshold = (spec.wall_fraction.clamp(0.0, 1.0) * 2f64.powi(32)) as u64;
    let wall: Vec<bool> = (0..cells)
        .map(|c| {
            let mut r = SplitMix64::new(spec.seed ^ c.wrapping_mul(0x9E37_79B9_7F4A_7C15));
            (r.next_u64() >> 32) < threshold
        })
        .collect();
    let steps = move |c: u64| {
        let (x, y) = (c % w, c / w);
        let mut out = [None; 5];
        out[0] = Some(c);
        if x > 0 {
            out[1] = Some(c - 1);
        }
        if x + 1 < w {
            out[2] = Some(c + 1);
        }
        if y > 0 {
            out[3] = Some(c - w);
        }
        if y + 1 < h {
            out[4] = Some(c + w);
        }
        out.into_iter().flatten()
    };
    let id = move |cop: u64, robber: u64, side: u64| (cop * cells + robber) * 2 + side;
    let edges = (0..cells * cells * 2).flat_map(move |state| {
        let (side, pair) = (state % 2, state / 2);
        let (cop, robber) = (pair / cells, pair % cells);
        let blocked = wall[cop as usize] || wall[robber as usize];
        let moves: Vec<(u64, u64)> = if blocked || (cop == robber && side == 1) {
            Vec::new()
        } else if cop == robber {
            vec![(state, id(cop, robber, 1))]
        } else if side == 0 {
            steps(cop)
                .filter(|&c| !wall[c as usize])
                .map(|c| (state, id(c, robber, 1)))
                .collect()
        } else {
            steps(robber)
                .filter(|&r| !wall[r as usize] && r != cop)
                .map(|r| (state, id(cop, r, 0)))
                .collect()
        };
        moves
    });
    (cells * cells * 2, edges)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn random_is_deterministic_and_in_range() {
        let spec = RandomSpec {
            nodes: 100,
            edges: 1000,
            terminal_fraction: 0.03,
            seed: 7,
        };
        let a: Vec<_> = random_edges(spec).collect();
        let b: Vec<_> = random_edges(spec).collect();
        assert_eq!(a, b);
        assert_eq!(a.len(), 1000);
        for &(u, v) in &a {
            assert!(u < 100 && v < 100);
            assert!(!is_forced_terminal(&spec, u));
        }
    }

    #[test]
    fn all_terminal_yields_no_edges() {
        let spec = RandomSpec {
            nodes: 10,
            edges: 5,
            terminal_fraction: 1.0,
            seed: 1,
        };
        assert_eq!(random_edges(spec).count(), 0);
    }

    #[test]
    fn grid_pursuit_is_well_formed() {
        let spec = GridSpec {
            width: 4,
            height: 3,
            wall_fraction: 0.2,
            seed: 3,
        };
        let (n, edges) = grid_pursuit(spec);
        let edges: Vec<_> = edges.collect();
        assert_eq!(n, 12 * 12 * 2);
        assert!(edges.iter().all(|&(u, v)| u < n && v < n && u % 2 != v % 2));
        let g = crate::graph::Csr::from_edges(n, edges).unwrap();
        let s = crate::solve::retrograde(&g, &crate::graph::Rules::normal());
        // Without walls in the way the cop wins from somewhere, and the capture states are lost
        // for the robber to move.
        assert!(s.counts().win > 0);
        assert_eq!(
            s.outcome(((5 * 12 + 5) * 2 + 1) as u32),
            crate::Outcome::Lose
        );
    }

    #[test]
    fn chain_is_a_path() {
        let e: Vec<_> = chain_edges(4).collect();
        assert_eq!(e, vec![(0, 1), (1, 2), (2, 3)]);
        assert_eq!(chain_edges(0).count(), 0);
    }
}
