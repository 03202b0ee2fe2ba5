//! [`Arena`]: a game graph with an owner and a priority per vertex.

use std::sync::Arc;

use zermelo::graph::{Csr, GraphError, Predecessors};
use zermelo::{NodeId, Player};

/// The priority (colour) of a vertex. On an infinite play the highest priority seen infinitely
/// often decides: even for [`Player::Zero`] (Even), odd for [`Player::One`] (Odd).
pub type Priority = u32;

/// The player a priority favours: Even for even priorities, Odd for odd ones.
#[inline]
pub fn favours(p: Priority) -> Player {
    if p % 2 == 0 {
        Player::Zero
    } else {
        Player::One
    }
}

/// A validated arena: the core's [`Csr`] (forward and reverse rows) plus an owner and a
/// priority per vertex, and optionally a start vertex.
///
/// Invariants (checked once by [`Arena::new`]): one owner and one priority per vertex, every
/// vertex has at least one successor (plays are infinite), the start vertex exists.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Arena {
    /// Shared, so that a copy with other priorities (compression, objective reductions) costs
    /// only the priorities.
    graph: Arc<Csr>,
    owner: Vec<Player>,
    priority: Vec<Priority>,
    start: Option<NodeId>,
}

/// Why an arena cannot be built.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ArenaError {
    /// The graph could not be built.
    #[error(transparent)]
    Graph(#[from] GraphError),
    /// Owners or priorities are not one per vertex.
    #[error("{what}: {found} entries for {vertices} vertices")]
    Length {
        /// `owners` or `priorities`.
        what: &'static str,
        /// Entries given.
        found: usize,
        /// Vertices in the graph.
        vertices: usize,
    },
    /// A vertex has no successor, so a play through it would end.
    #[error("vertex {0} has no successor (every vertex of an arena needs one)")]
    NoSuccessor(NodeId),
    /// The start vertex does not exist.
    #[error("start vertex {0} does not exist")]
    BadStart(NodeId),
}

impl Arena {
    /// Builds an arena from a graph, one owner and one priority per vertex.
    ///
    /// # Errors
    /// [`ArenaError`] if the lengths differ or a vertex has no successor.
    pub fn new(
        graph: Csr,
        owner: Vec<Player>,
        priority: Vec<Priority>,
    ) -> Result<Arena, ArenaError> {
        let n = graph.node_count();
        for (what, found) in [("owners", owner.len()), ("priorities", priority.len())] {
            if found != n {
                return Err(ArenaError::Length {
                    what,
                    found,
                    vertices: n,
                });
            }
        }
        if let Some(v) = graph.nodes().find(|&v| graph.out_degree(v) == 0) {
            return Err(ArenaError::NoSuccessor(v));
        }
        Ok(Arena {
            graph: Arc::new(graph),
            owner,
            priority,
            start: None,
        })
    }

    /// Builds an arena from `(owner, priority)` per vertex and a list of edges.
    ///
    /// ```
    /// use zermelo_parity::Arena;
    /// use zermelo::Player;
    /// // 0 (Even, priority 2) <-> 1 (Odd, priority 1): every play sees 2 infinitely often.
    /// let a = Arena::from_edges(&[(Player::Zero, 2), (Player::One, 1)], [(0, 1), (1, 0)])?;
    /// assert_eq!(a.vertex_count(), 2);
    /// # Ok::<(), zermelo_parity::ArenaError>(())
    /// ```
    ///
    /// # Errors
    /// [`ArenaError`] for an out-of-range endpoint or a vertex without successor.
    pub fn from_edges(
        vertices: &[(Player, Priority)],
        edges: impl IntoIterator<Item = (u64, u64)>,
    ) -> Result<Arena, ArenaError> {
        let graph = Csr::from_edges(vertices.len() as u64, edges)?;
        let (owner, priority) = vertices.iter().copied().unzip();
        Arena::new(graph, owner, priority)
    }

    /// The same arena with a start vertex (PGSolver's `start V;`).
    ///
    /// # Errors
    /// [`ArenaError::BadStart`] if `start` is not a vertex.
    pub fn with_start(mut self, start: Option<NodeId>) -> Result<Arena, ArenaError> {
        if let Some(s) = start {
            if s as usize >= self.vertex_count() {
                return Err(ArenaError::BadStart(s));
            }
        }
        self.start = start;
        Ok(self)
    }

    /// The same arena with other priorities (one per vertex).
    pub(crate) fn with_priorities(&self, priority: Vec<Priority>) -> Arena {
        debug_assert_eq!(priority.len(), self.vertex_count());
        Arena {
            priority,
            ..self.clone()
        }
    }

    /// Number of vertices.
    #[inline]
    pub fn vertex_count(&self) -> usize {
        self.owner.len()
    }

    /// Number of edges.
    #[inline]
    pub fn edge_count(&self) -> u64 {
        self.graph.edge_count()
    }

    /// The graph.
    #[inline]
    pub fn graph(&self) -> &Csr {
        &self.graph
    }

    /// Who moves at `v`.
    #[inline]
    pub fn owner(&self, v: NodeId) -> Player {
        self.owner[v as usize]
    }

    /// The priority of `v`.
    #[inline]
    pub fn priority(&self, v: NodeId) -> Priority {
        self.priority[v as usize]
    }

    /// All priorities, by vertex.
    #[inline]
    pub fn priorities(&self) -> &[Priority] {
        &self.priority
    }

    /// The start vertex, if the input named one.
    pub fn start(&self) -> Option<NodeId> {
        self.start
    }

    /// The highest priority (0 for an empty arena).
    pub fn max_priority(&self) -> Priority {
        self.priority.iter().copied().max().unwrap_or(0)
    }

    /// The successors of `v`, in input order.
    #[inline]
    pub fn successors(&self, v: NodeId) -> &[NodeId] {
        self.graph.successors(v)
    }

    /// Iterator over all vertex ids.
    pub fn vertices(&self) -> impl Iterator<Item = NodeId> {
        0..self.vertex_count() as NodeId
    }

    /// Bytes of memory the arena's arrays occupy.
    pub fn heap_bytes(&self) -> usize {
        self.graph.heap_bytes() + self.owner.len() + self.priority.len() * 4
    }
}

impl Predecessors for Arena {
    #[inline]
    fn node_count(&self) -> usize {
        self.vertex_count()
    }
    #[inline]
    fn out_degree(&self, u: NodeId) -> u32 {
        self.graph.out_degree(u)
    }
    #[inline]
    fn predecessors(&self, v: NodeId) -> &[NodeId] {
        self.graph.predecessors(v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rejects_dead_ends_and_bad_lengths() {
        let e = Arena::from_edges(&[(Player::Zero, 0), (Player::One, 1)], [(0, 1)]);
        assert_eq!(e, Err(ArenaError::NoSuccessor(1)));
        let g = Csr::from_edges(1, [(0, 0)]).unwrap();
        assert!(matches!(
            Arena::new(g, vec![], vec![0]),
            Err(ArenaError::Length { what: "owners", .. })
        ));
        let a = Arena::from_edges(&[(Player::Zero, 0)], [(0, 0)]).unwrap();
        assert_eq!(a.clone().with_start(Some(1)), Err(ArenaError::BadStart(1)));
        assert_eq!(a.with_start(Some(0)).unwrap().start(), Some(0));
    }
}
