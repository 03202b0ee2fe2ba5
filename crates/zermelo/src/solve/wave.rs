//! The backward counter wave shared by retrograde analysis and the attractors of
//! parity games (the `zermelo-parity` crate).
//!
//! Cost: O(V + E) — every node enters the queue at most once and each reverse edge of a queued
//! node is looked at once.
//!
//! Reference: seed 003 §8.1. A node `u` joins the growing set either *existentially* (one move
//! into the set suffices: the attracting player moves at `u`, or `u`'s child is a lost position)
//! or *universally* (every move of `u` leads into the set: a counter of open moves reaches zero).
//! Retrograde analysis is the attractor whose quantifier is read off the child's label; an
//! attractor in an arena reads it off `u`'s owner. The rule of [`Wave`] decides which; this
//! module owns the queue and the order of events.
//!
//! Invariant: nodes leave the queue in the order they joined (FIFO), so the set grows in rounds
//! of the fixpoint iteration (depth `d + 1` nodes are pushed while depth `d` nodes are popped).

use crate::graph::Predecessors;
use crate::outcome::NodeId;

/// How a predecessor can join the set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Quantifier {
    /// One move into the set suffices.
    Exists,
    /// Every move must lead into the set: counted down, joins at zero.
    ForAll,
}

/// The rule of one backward wave: which predecessors may join, how, and what joining records.
pub trait Wave {
    /// `v` leaves the queue; its predecessors are visited next. Returns the quantifier of all of
    /// them when it depends on `v` alone (retrograde analysis: `v`'s label), `None` when it
    /// depends on each predecessor (an attractor: its owner) — the kernel then asks
    /// [`quantifier`](Wave::quantifier). Knowing it per popped node lets the compiler split the
    /// hot loop in two.
    fn enter(&mut self, v: NodeId) -> Option<Quantifier>;
    /// All predecessors of `v` have been visited.
    #[inline(always)]
    fn leave(&mut self, _v: NodeId) {}
    /// Whether `u` is still outside the set (undecided, and in the subgame).
    fn is_open(&mut self, u: NodeId) -> bool;
    /// How the open node `u` may join, when [`enter`](Wave::enter) did not say.
    fn quantifier(&mut self, u: NodeId) -> Quantifier;
    /// One more move of `u` (the one into `v`) leads into the set; true when none is left open.
    fn count_down(&mut self, u: NodeId, v: NodeId) -> bool;
    /// `u` joins the set through its move into `v`.
    fn join(&mut self, u: NodeId, v: NodeId, by: Quantifier);
}

/// Runs the wave from the nodes already in `queue` (popped from index `head` on) until it
/// drains; joined nodes are appended to `queue`, which ends up listing the whole set in order.
#[inline(always)]
pub fn propagate<G: Predecessors + ?Sized, W: Wave>(
    graph: &G,
    queue: &mut Vec<NodeId>,
    mut head: usize,
    wave: &mut W,
) {
    while head < queue.len() {
        let v = queue[head];
        head += 1;
        let uniform = wave.enter(v);
        for &u in graph.predecessors(v) {
            if !wave.is_open(u) {
                continue;
            }
            let by = match uniform {
                Some(q) => q,
                None => wave.quantifier(u),
            };
            if by == Quantifier::Exists || wave.count_down(u, v) {
                wave.join(u, v, by);
                queue.push(u);
            }
        }
        wave.leave(v);
    }
}
