//! The validating builder that turns a list of moves into a [`Csr`].

use super::Csr;
use crate::outcome::NodeId;

/// Largest number of nodes a graph may have (`u32::MAX` is kept free as a sentinel).
pub const MAX_NODES: u64 = u32::MAX as u64;

/// Why a graph could not be built.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum GraphError {
    /// The declared node count is larger than [`MAX_NODES`].
    #[error("{0} nodes is more than the supported maximum of {MAX_NODES}")]
    TooManyNodes(u64),
    /// A two-player game declares more positions than [`MAX_NODES`] states hold (two states a
    /// position: one for each player to move).
    #[error(
        "{0} positions need twice as many states (one for each player to move), more than the \
         supported maximum of {MAX_NODES} states: at most {max} positions",
        max = MAX_NODES / 2
    )]
    TooManyPositions(u64),
    /// An edge endpoint is not a node of the graph.
    #[error("node {node} is out of range: the graph has {nodes} nodes (ids 0..{nodes})")]
    NodeOutOfRange {
        /// The offending id.
        node: u64,
        /// The node count.
        nodes: u64,
    },
    /// One node has more than `u32::MAX` moves.
    #[error("node {0} has more than {max} moves", max = u32::MAX)]
    DegreeTooLarge(NodeId),
}

/// Collects moves, then checks and packs them into a [`Csr`] with a counting sort.
///
/// ```
/// use zermelo::graph::GraphBuilder;
/// let mut b = GraphBuilder::new(3)?;
/// b.add_edge(0, 1)?;
/// b.add_edge(1, 2)?;
/// let g = b.build()?;
/// assert_eq!(g.successors(0), &[1]);
/// assert_eq!(g.predecessors(2), &[1]);
/// # Ok::<(), zermelo::graph::GraphError>(())
/// ```
#[derive(Clone, Debug)]
pub struct GraphBuilder {
    n: u64,
    sources: Vec<NodeId>,
    targets: Vec<NodeId>,
}

impl GraphBuilder {
    /// A builder for a graph with nodes `0..n`.
    ///
    /// # Errors
    /// [`GraphError::TooManyNodes`] when `n > MAX_NODES`.
    pub fn new(n: u64) -> Result<Self, GraphError> {
        if n > MAX_NODES {
            return Err(GraphError::TooManyNodes(n));
        }
        Ok(GraphBuilder {
            n,
            sources: Vec::new(),
            targets: Vec::new(),
        })
    }

    /// A builder over edge arrays whose endpoints the caller has checked to be `< n` (parsers
    /// that validate while they read, and must not copy 10^7 edges once more).
    pub fn from_checked(n: u64, sources: Vec<NodeId>, targets: Vec<NodeId>) -> Self {
        debug_assert!(n <= MAX_NODES && sources.len() == targets.len());
        debug_assert!(sources.iter().chain(&targets).all(|&v| u64::from(v) < n));
        GraphBuilder {
            n,
            sources,
            targets,
        }
    }

    /// Reserves room for `additional` more edges.
    pub fn reserve(&mut self, additional: usize) {
        self.sources.reserve(additional);
        self.targets.reserve(additional);
    }

    /// Number of nodes the graph will have.
    pub fn node_count(&self) -> u64 {
        self.n
    }

    /// Number of edges added so far.
    pub fn edge_count(&self) -> usize {
        self.sources.len()
    }

    /// Adds the move `u -> v`.
    ///
    /// # Errors
    /// [`GraphError::NodeOutOfRange`] when `u` or `v` is not `< n`.
    #[inline]
    pub fn add_edge(&mut self, u: u64, v: u64) -> Result<(), GraphError> {
        for node in [u, v] {
            if node >= self.n {
                return Err(GraphError::NodeOutOfRange {
                    node,
                    nodes: self.n,
                });
            }
        }
        self.sources.push(u as NodeId);
        self.targets.push(v as NodeId);
        Ok(())
    }

    /// Packs the edges into forward and reverse rows, both in input order (so the same list of
    /// moves always gives the same graph, whichever loader read it). O(V + E) time.
    ///
    /// # Errors
    /// [`GraphError::DegreeTooLarge`] if one node has more than `u32::MAX` moves.
    pub fn build(self) -> Result<Csr, GraphError> {
        let n = self.n as usize;
        let fwd_offsets = offsets_from_keys(n, &self.sources, true)?;
        let fwd_targets = scatter(&fwd_offsets, &self.sources, &self.targets);
        let rev_offsets = offsets_from_keys(n, &self.targets, false)?;
        let rev_sources = scatter(&rev_offsets, &self.targets, &self.sources);
        Ok(Csr {
            fwd_offsets: fwd_offsets.into(),
            fwd_targets: fwd_targets.into(),
            rev_offsets: rev_offsets.into(),
            rev_sources: rev_sources.into(),
        })
    }
}

/// Row offsets (length `n + 1`) for a counting sort by `keys`; with `out_rows`, rows are moves out
/// of a node and must fit a `u32` count.
fn offsets_from_keys(n: usize, keys: &[NodeId], out_rows: bool) -> Result<Vec<u64>, GraphError> {
    let mut offsets = vec![0u64; n + 1];
    for &k in keys {
        offsets[k as usize + 1] += 1;
    }
    for u in 0..n {
        if out_rows && offsets[u + 1] > u64::from(u32::MAX) {
            return Err(GraphError::DegreeTooLarge(u as NodeId));
        }
        offsets[u + 1] += offsets[u];
    }
    Ok(offsets)
}

/// Places `values[i]` in row `keys[i]`, rows in input order (a stable counting sort).
fn scatter(offsets: &[u64], keys: &[NodeId], values: &[NodeId]) -> Vec<NodeId> {
    let mut out = vec![0; values.len()];
    let mut cursor = offsets[..offsets.len() - 1].to_vec();
    for (&k, &v) in keys.iter().zip(values) {
        let slot = &mut cursor[k as usize];
        out[*slot as usize] = v;
        *slot += 1;
    }
    out
}

/// Building a [`Csr`] in one call goes through the builder, which checks every move.
impl Csr {
    /// Builds a graph from `n` nodes and a list of `(from, to)` moves.
    ///
    /// # Errors
    /// [`GraphError`] when an endpoint is out of range or `n` is too
    /// large.
    pub fn from_edges(
        n: u64,
        edges: impl IntoIterator<Item = (u64, u64)>,
    ) -> Result<Csr, GraphError> {
        let mut b = GraphBuilder::new(n)?;
        for (u, v) in edges {
            b.add_edge(u, v)?;
        }
        b.build()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_multi_edges_and_self_loops() {
        let g = Csr::from_edges(3, [(0, 1), (0, 1), (2, 2), (1, 0)]).unwrap();
        assert_eq!(g.node_count(), 3);
        assert_eq!(g.edge_count(), 4);
        assert_eq!(g.successors(0), &[1, 1]);
        assert_eq!(g.successors(2), &[2]);
        assert_eq!(g.predecessors(1), &[0, 0]);
        assert_eq!(g.predecessors(2), &[2]);
        assert_eq!(g.out_degree(1), 1);
        let edges: Vec<_> = g.edges().collect();
        assert_eq!(edges, vec![(0, 1), (0, 1), (1, 0), (2, 2)]);
    }

    #[test]
    fn rejects_out_of_range_endpoints() {
        let err = Csr::from_edges(2, [(0, 2)]).unwrap_err();
        assert_eq!(err, GraphError::NodeOutOfRange { node: 2, nodes: 2 });
        assert!(GraphBuilder::new(MAX_NODES + 1).is_err());
    }

    #[test]
    fn empty_graph_is_valid() {
        let g = Csr::from_edges(0, []).unwrap();
        assert_eq!(g.node_count(), 0);
        assert_eq!(g.edges().count(), 0);
    }
}
