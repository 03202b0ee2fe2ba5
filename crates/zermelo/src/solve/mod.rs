//! Solvers, strategies and the certificate verifier.
//!
//! | function | games | cost | gives |
//! |---|---|---|---|
//! | [`retrograde`] | any (cycles, self-loops, multi-edges) | O(V + E) | outcome + depth |
//! | [`retrograde_parallel`] | any; same result for every thread count | O(V + E) work | outcome + depth |
//! | [`retrograde_auto`] | any: picks one of the two above by size and threads | O(V + E) | outcome + depth |
//! | [`acyclic`] | acyclic | O(V + E) | outcome + depth |
//! | [`grundy`] | impartial, acyclic, normal play | O(V + E) | Grundy values |
//! | [`loopy_grundy`] | impartial, cycles allowed, normal play | O(V + E) per value level | generalized Sprague-Grundy values (finite or `inf{K}`) |
//! | [`verify`] | any | O(V + E) | proof that a [`Solution`] is the least fixpoint |
//!
//! Every solver returns the same [`Solution`]; [`best_move`] and [`principal_line`] derive
//! optimal play from it.

mod acyclic;
mod cycle;
mod grundy;
mod loopy_grundy;
mod packed;
mod parallel;
mod retrograde;
mod solution;
mod strategy;
mod verify;
pub mod wave;

pub use acyclic::acyclic;

pub use cycle::{find_cycle, postorder, Cycle};
pub use grundy::{analyse_sum, grundy, Nimber, SumAnalysis, SumMove};
pub use loopy_grundy::{
    analyse_loopy_sum, grundy_values, loopy_grundy, loopy_sum_value, normal_play, LoopySumAnalysis,
    LoopyValue, LoopyValues, NotNormalPlay, SumValue,
};
pub use parallel::retrograde_parallel;
pub use retrograde::{retrograde, solve_observed, Event, Observer};
pub use solution::{Counts, Solution};
pub use strategy::{best_move, principal_line, Line, LineEnd};
pub use verify::{verify, Violation, ViolationKind};

/// Graphs smaller than this are solved sequentially by [`retrograde_auto`]: their state fits in
/// cache and the layer-synchronous solver's synchronisation costs more than it saves (see
/// BENCHMARKS.md).
pub const PARALLEL_FROM_NODES: usize = 1 << 22;

/// Retrograde analysis on the current rayon pool, sequential or parallel as fits: the parallel
/// solver for graphs of [`PARALLEL_FROM_NODES`] nodes or more when the pool has more than one
/// thread, [`retrograde`] otherwise. Both give the same [`Solution`].
pub fn retrograde_auto<G: Predecessors + ?Sized>(graph: &G, rules: &Rules) -> Solution {
    if rayon::current_num_threads() > 1 && graph.node_count() >= PARALLEL_FROM_NODES {
        retrograde_parallel(graph, rules)
    } else {
        retrograde(graph, rules)
    }
}

use crate::graph::{Csr, Predecessors, Rules};
use crate::outcome::NodeId;

/// The best move of every node (see [`best_move`]).
pub fn best_moves(graph: &Csr, rules: &Rules, solution: &Solution) -> Vec<Option<NodeId>> {
    graph
        .nodes()
        .map(|u| best_move(graph, rules, solution, u))
        .collect()
}
