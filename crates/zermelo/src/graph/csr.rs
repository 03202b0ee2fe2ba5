//! Compressed-sparse-row storage of a game graph, forward and reverse.

use crate::graph::column::Column;
use crate::outcome::NodeId;

/// A validated game graph: positions `0..n` and moves between them, stored twice in
/// compressed-sparse-row form — forward rows (the moves out of a position) and reverse rows (the
/// moves into it), which retrograde analysis walks.
///
/// Offsets are `u64`, so the edge count may exceed 4 billion; node ids are `u32`.
/// Multi-edges and self-loops are kept exactly as given: a self-loop is a real move (a pass).
///
/// Build one with [`GraphBuilder`](crate::graph::GraphBuilder) or [`Csr::from_edges`].
/// Invariants (checked once, at build time): every target is `< n`, both offset arrays have
/// `n + 1` entries, start at 0, never decrease and end at the edge count, and every node's
/// out-degree fits in a `u32`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Csr {
    pub(crate) fwd_offsets: Column<u64>,
    pub(crate) fwd_targets: Column<NodeId>,
    pub(crate) rev_offsets: Column<u64>,
    pub(crate) rev_sources: Column<NodeId>,
}

impl Csr {
    /// Number of positions.
    #[inline]
    pub fn node_count(&self) -> usize {
        self.fwd_offsets.len() - 1
    }

    /// Number of moves (multi-edges and self-loops counted).
    #[inline]
    pub fn edge_count(&self) -> u64 {
        self.fwd_targets.len() as u64
    }

    /// The positions reachable in one move from `u`, in input order (duplicates kept).
    #[inline]
    pub fn successors(&self, u: NodeId) -> &[NodeId] {
        let (a, b) = row(&self.fwd_offsets, u);
        &self.fwd_targets[a..b]
    }

    /// The positions with a move into `v`, in input order (duplicates kept).
    #[inline]
    pub fn predecessors(&self, v: NodeId) -> &[NodeId] {
        let (a, b) = row(&self.rev_offsets, v);
        &self.rev_sources[a..b]
    }

    /// Number of moves out of `u`.
    #[inline]
    pub fn out_degree(&self, u: NodeId) -> u32 {
        let (a, b) = row(&self.fwd_offsets, u);
        // The builder guarantees every out-degree fits in a u32.
        (b - a) as u32
    }

    /// Iterator over all node ids.
    pub fn nodes(&self) -> impl Iterator<Item = NodeId> + '_ {
        0..self.node_count() as NodeId
    }

    /// Iterator over all moves `(from, to)` in forward-row order.
    pub fn edges(&self) -> impl Iterator<Item = (NodeId, NodeId)> + '_ {
        self.nodes()
            .flat_map(move |u| self.successors(u).iter().map(move |&v| (u, v)))
    }

    /// Bytes of memory the graph's arrays occupy.
    pub fn heap_bytes(&self) -> usize {
        (self.fwd_offsets.len() + self.rev_offsets.len()) * 8
            + (self.fwd_targets.len() + self.rev_sources.len()) * 4
    }
}

#[inline]
fn row(offsets: &[u64], u: NodeId) -> (usize, usize) {
    let u = u as usize;
    (offsets[u] as usize, offsets[u + 1] as usize)
}
