//! Game graphs: positions are nodes, moves are directed edges.
//!
//! [`Csr`] is the validated, immutable graph every solver reads; [`GraphBuilder`] checks input
//! once and builds it; [`Rules`] says how terminal positions score; [`TwoPlayerGraph`] encodes a
//! partizan game as `(position, player)` states; [`generate`] makes random and structured graphs
//! for tests and benchmarks.

mod builder;
pub(crate) mod column;
mod csr;
pub mod generate;
mod reverse;
mod rules;
mod two_player;

pub use builder::{GraphBuilder, GraphError, MAX_NODES};
pub use csr::Csr;
pub use reverse::ReverseCsr;
pub use rules::{Convention, Rules, RulesError};
pub use two_player::TwoPlayerGraph;

use crate::outcome::NodeId;

/// What backward propagation needs from a graph: node count, out-degrees and reverse rows.
///
/// [`Csr`] has it; so does [`ReverseCsr`], which keeps only the reverse half (and is what a
/// solve that needs no forward moves loads).
pub trait Predecessors: Sync {
    /// Number of positions.
    fn node_count(&self) -> usize;
    /// Number of moves out of `u`.
    fn out_degree(&self, u: NodeId) -> u32;
    /// The positions with a move into `v` (duplicates kept).
    fn predecessors(&self, v: NodeId) -> &[NodeId];
    /// A hint that `predecessors(v)` will be asked for soon: implementations start loading
    /// where its row begins, so that solvers can overlap the cache misses of many nodes. The
    /// default does nothing.
    #[inline(always)]
    fn prefetch_row(&self, _v: NodeId) {}
}

impl Predecessors for Csr {
    #[inline]
    fn node_count(&self) -> usize {
        Csr::node_count(self)
    }
    #[inline]
    fn out_degree(&self, u: NodeId) -> u32 {
        Csr::out_degree(self, u)
    }
    #[inline]
    fn predecessors(&self, v: NodeId) -> &[NodeId] {
        Csr::predecessors(self, v)
    }
    #[inline(always)]
    fn prefetch_row(&self, v: NodeId) {
        crate::prefetch::prefetch(&self.rev_offsets, v as usize);
    }
}
