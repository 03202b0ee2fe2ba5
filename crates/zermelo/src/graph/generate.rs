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
    fn chain_is_a_path() {
        let e: Vec<_> = chain_edges(4).collect();
        assert_eq!(e, vec![(0, 1), (1, 2), (2, 3)]);
        assert_eq!(chain_edges(0).count(), 0);
    }
}
