//! Per-node solver state packed into one machine word, so that visiting a predecessor costs one
//! memory access (one cache miss on large graphs).
//!
//! The top two bits hold a tag (undecided, WIN, LOSE, tie); the rest hold the remaining-moves
//! counter while the node is undecided and its depth once it is decided — the two are never
//! needed at the same time. `u32` words fit graphs with fewer than 2^30 nodes and out-degrees
//! below 2^30 (every practical case); `u64` words fit everything.

use crate::graph::{Predecessors, Rules};
use crate::outcome::{NodeId, Outcome};
use crate::solve::Solution;

/// A state word: `u32` or `u64`.
pub(crate) trait Word: Copy + Send + Sync + 'static {
    /// Width in bits.
    const BITS: u32;
    /// The word as a `u64`.
    fn get(self) -> u64;
    /// A word from a `u64` that fits.
    fn new(v: u64) -> Self;
}

impl Word for u32 {
    const BITS: u32 = 32;
    #[inline(always)]
    fn get(self) -> u64 {
        u64::from(self)
    }
    #[inline(always)]
    fn new(v: u64) -> Self {
        v as u32
    }
}

impl Word for u64 {
    const BITS: u32 = 64;
    #[inline(always)]
    fn get(self) -> u64 {
        self
    }
    #[inline(always)]
    fn new(v: u64) -> Self {
        v
    }
}

pub(crate) const UNDECIDED: u64 = 0;
pub(crate) const WIN: u64 = 1;
pub(crate) const LOSE: u64 = 2;
pub(crate) const TIE: u64 = 3;

#[inline(always)]
pub(crate) fn tag<W: Word>(w: W) -> u64 {
    w.get() >> (W::BITS - 2)
}

#[inline(always)]
pub(crate) fn payload<W: Word>(w: W) -> u64 {
    w.get() & payload_max::<W>()
}

#[inline(always)]
pub(crate) fn pack<W: Word>(tag: u64, payload: u64) -> W {
    W::new((tag << (W::BITS - 2)) | payload)
}

#[inline(always)]
pub(crate) const fn payload_max<W: Word>() -> u64 {
    (1u64 << (W::BITS - 2)) - 1
}

/// The tag of a terminal verdict.
pub(crate) fn verdict_tag(o: Outcome) -> u64 {
    match o {
        Outcome::Win => WIN,
        Outcome::Lose => LOSE,
        Outcome::Draw => TIE,
    }
}

/// Whether every counter and depth of `graph` fits a `u32` word: fewer than 2^30 nodes (so every
/// depth, at most `n - 1`, fits) and every out-degree below 2^30.
pub(crate) fn fits_u32<G: Predecessors + ?Sized>(graph: &G) -> bool {
    use rayon::prelude::*;
    let max = payload_max::<u32>();
    graph.node_count() as u64 <= max
        && (0..graph.node_count() as NodeId)
            .into_par_iter()
            .all(|u| u64::from(graph.out_degree(u)) <= max)
}

/// The initial state of every node: undecided with its out-degree, or its terminal verdict.
/// Calls `seeded(node, verdict)` for every terminal, in node order.
pub(crate) fn initial_state<W: Word, G: Predecessors + ?Sized>(
    graph: &G,
    rules: &Rules,
    mut seeded: impl FnMut(NodeId, Outcome),
) -> Vec<W> {
    let stuck = rules.convention().stuck_outcome();
    let mut explicit = rules.verdicts().iter().peekable();
    (0..graph.node_count() as NodeId)
        .map(|u| {
            let degree = graph.out_degree(u);
            let verdict = match explicit.peek() {
                Some(&&(node, v)) if node == u => {
                    explicit.next();
                    v
                }
                _ if degree == 0 => stuck,
                _ => return pack(UNDECIDED, u64::from(degree)),
            };
            seeded(u, verdict);
            pack(verdict_tag(verdict), 0)
        })
        .collect()
}

/// Turns final state words into a [`Solution`]: undecided nodes are draws.
pub(crate) fn into_solution<W: Word>(state: &[W]) -> Solution {
    let mut s = Solution::all_draws(state.len());
    for (u, &w) in state.iter().enumerate() {
        let outcome = match tag(w) {
            WIN => Outcome::Win,
            LOSE => Outcome::Lose,
            _ => continue,
        };
        s.set(u as NodeId, outcome, payload(w) as u32);
    }
    s
}
