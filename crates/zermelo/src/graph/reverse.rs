//! [`ReverseCsr`]: only what retrograde analysis needs — out-degrees and reverse rows.

use crate::graph::column::Column;
use crate::graph::{Csr, Predecessors};
use crate::outcome::NodeId;

/// The backward half of a game graph: each node's out-degree and the rows of moves into it.
///
/// It takes about half the memory of a [`Csr`] and is enough to solve (outcomes and depths);
/// strategies and verification need the forward moves, i.e. a full [`Csr`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReverseCsr {
    pub(crate) out_degree: Vec<u32>,
    pub(crate) rev_offsets: Column<u64>,
    pub(crate) rev_sources: Column<NodeId>,
}

impl ReverseCsr {
    /// The reverse half of a full graph (copied).
    pub fn from_csr(graph: &Csr) -> ReverseCsr {
        ReverseCsr {
            out_degree: graph.nodes().map(|u| graph.out_degree(u)).collect(),
            rev_offsets: graph.rev_offsets.clone(),
            rev_sources: graph.rev_sources.clone(),
        }
    }

    /// Number of positions.
    pub fn node_count(&self) -> usize {
        self.out_degree.len()
    }

    /// Number of moves.
    pub fn edge_count(&self) -> u64 {
        self.rev_sources.len() as u64
    }

    /// Bytes of memory the arrays occupy.
    pub fn heap_bytes(&self) -> usize {
        self.out_degree.len() * 4 + self.rev_offsets.len() * 8 + self.rev_sources.len() * 4
    }
}

impl Predecessors for ReverseCsr {
    #[inline]
    fn node_count(&self) -> usize {
        self.out_degree.len()
    }
    #[inline]
    fn out_degree(&self, u: NodeId) -> u32 {
        self.out_degree[u as usize]
    }
    #[inline]
    fn predecessors(&self, v: NodeId) -> &[NodeId] {
        let v = v as usize;
        &self.rev_sources[self.rev_offsets[v] as usize..self.rev_offsets[v + 1] as usize]
    }
    #[inline(always)]
    fn prefetch_row(&self, v: NodeId) {
        crate::prefetch::prefetch(&self.rev_offsets, v as usize);
    }
}
