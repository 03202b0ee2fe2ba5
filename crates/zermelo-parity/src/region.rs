//! The subgame an attractor works in and the set it grows, as a capability ([`Region`]) so that
//! the FIFO attractor ([`attractor`](crate::attractor)), the layered one
//! ([`layered`](crate::layered)) and the solvers that keep their own regions (tangle learning)
//! share one kernel; [`Masked`] is the plain one, two boolean masks and a strategy array.

use zermelo::NodeId;

/// The subgame an attractor works in and the set it grows.
pub(crate) trait Region {
    /// Whether `v` belongs to the subgame (inside or outside the set).
    fn in_game(&self, v: NodeId) -> bool;
    /// Whether `v` is in the set already.
    fn contains(&self, v: NodeId) -> bool;
    /// Adds `v` to the set; `via` is the move into the set when the attracting player owns `v`.
    fn add(&mut self, v: NodeId, via: Option<NodeId>);
}

/// A subgame given by a membership mask, and a set given by a second mask; the attracting
/// player's moves are written to `strategy`.
pub(crate) struct Masked<'a> {
    pub(crate) alive: &'a [bool],
    pub(crate) inside: &'a mut [bool],
    pub(crate) strategy: &'a mut [NodeId],
}

impl Region for Masked<'_> {
    #[inline(always)]
    fn in_game(&self, v: NodeId) -> bool {
        self.alive[v as usize]
    }
    #[inline(always)]
    fn contains(&self, v: NodeId) -> bool {
        self.inside[v as usize]
    }
    #[inline(always)]
    fn add(&mut self, v: NodeId, via: Option<NodeId>) {
        self.inside[v as usize] = true;
        if let Some(to) = via {
            self.strategy[v as usize] = to;
        }
    }
}
