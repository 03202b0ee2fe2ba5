//! Parallel retrograde analysis: layer-synchronous frontiers over atomic packed state words.
//!
//! Cost: O(V + E) work, spread over the threads of a rayon pool; one synchronisation per depth
//! layer. Memory: one `u32` state word per node plus the frontiers.
//!
//! Layer `d` holds every node decided at depth `d` (layer 0: the WIN/LOSE terminals). Its nodes
//! are processed in parallel: a LOSE node makes each undecided predecessor WIN at depth `d + 1`;
//! a WIN node decrements each undecided predecessor's counter, and the predecessor whose counter
//! reaches zero becomes LOSE at depth `d + 1`. Updates are compare-and-swap loops on the packed
//! word, so a predecessor is decided exactly once.
//!
//! Why the result equals the sequential FIFO solver's whatever the thread count or interleaving:
//! a node with a LOSE child never has its counter reach zero, so WIN and LOSE decisions never
//! race; a WIN is decided in the first layer that holds one of its LOSE children, and a LOSE in
//! the layer that holds its last WIN child — both are properties of layers, not of the order
//! inside a layer. So outcomes and depths (hence best moves, derived from them) are identical;
//! only the order of nodes inside a frontier varies, and nothing depends on it.

use std::sync::atomic::{AtomicU32, Ordering::Relaxed};

use rayon::prelude::*;

use crate::graph::{Predecessors, Rules};
use crate::outcome::{NodeId, Outcome};
use crate::prefetch::{prefetch, prefetch_start};
use crate::solve::packed::{pack, payload, payload_max, tag, verdict_tag, LOSE, UNDECIDED, WIN};
use crate::solve::{retrograde, Solution};

/// Frontiers smaller than this are processed on the calling thread.
const PARALLEL_MIN: usize = 4096;
/// Nodes per parallel task.
const CHUNK: usize = 1024;

/// Solves like [`retrograde`], on the current rayon pool (use
/// [`rayon::ThreadPoolBuilder`] or `RAYON_NUM_THREADS` to choose the thread count).
///
/// Graphs whose counters or depths do not fit a `u32` word (2^30 nodes or more) are solved by
/// the sequential solver instead.
pub fn retrograde_parallel<G: Predecessors + ?Sized>(graph: &G, rules: &Rules) -> Solution {
    let n = graph.node_count();
    let Some(state) = initial_state(graph, rules) else {
        return retrograde(graph, rules);
    };
    let mut frontier: Vec<NodeId> = (0..n as NodeId)
        .into_par_iter()
        .filter(|&u| matches!(tag(state[u as usize]), WIN | LOSE))
        .collect();
    // Rebuilt as atomics (same layout; collected in place, no copy).
    let state: Vec<AtomicU32> = state.into_iter().map(AtomicU32::new).collect();
    let mut depth = 0u64;
    let mut next: Vec<NodeId> = Vec::new();
    while !frontier.is_empty() {
        if frontier.len() < PARALLEL_MIN {
            // Small layers (deep, thin games): no tasks, and the buffers are reused.
            next.clear();
            expand(graph, &state, &frontier, depth, &mut next);
            std::mem::swap(&mut frontier, &mut next);
        } else {
            frontier = frontier
                .par_chunks(CHUNK)
                .fold(Vec::new, |mut next, chunk| {
                    expand(graph, &state, chunk, depth, &mut next);
                    next
                })
                .reduce(Vec::new, |mut a, mut b| {
                    if a.len() < b.len() {
                        std::mem::swap(&mut a, &mut b);
                    }
                    a.extend_from_slice(&b);
                    a
                });
        }
        depth += 1;
    }
    let words: Vec<u32> = state.into_iter().map(AtomicU32::into_inner).collect();
    into_solution(&words)
}

/// Every node undecided with its out-degree, or tagged with its terminal verdict; `None` when a
/// counter or depth would not fit a `u32` word (2^30 nodes, or a node with 2^30 moves).
fn initial_state<G: Predecessors + ?Sized>(graph: &G, rules: &Rules) -> Option<Vec<u32>> {
    let max = payload_max::<u32>();
    if graph.node_count() as u64 > max {
        return None;
    }
    let stuck = rules.convention().stuck_outcome();
    let explicit = !rules.verdicts().is_empty();
    (0..graph.node_count() as NodeId)
        .into_par_iter()
        .map(|u| {
            let degree = u64::from(graph.out_degree(u));
            let verdict = explicit
                .then(|| rules.explicit_verdict(u))
                .flatten()
                .or((degree == 0).then_some(stuck));
            match verdict {
                Some(v) => Some(pack(verdict_tag(v), 0)),
                None => (degree <= max).then(|| pack(UNDECIDED, degree)),
            }
        })
        .collect()
}

fn into_solution(state: &[u32]) -> Solution {
    let outcomes = state
        .par_iter()
        .map(|&w| match tag(w) {
            WIN => Outcome::Win,
            LOSE => Outcome::Lose,
            _ => Outcome::Draw,
        })
        .collect();
    let depths = state
        .par_iter()
        .map(|&w| match tag(w) {
            WIN | LOSE => payload(w) as u32,
            _ => u32::MAX,
        })
        .collect();
    Solution::from_raw(outcomes, depths)
}

/// How many nodes ahead of the one being processed each prefetch stage works (see [`expand`]).
const AHEAD: usize = 4;

/// Processes the nodes of one layer (all at depth `depth`), pushing newly decided nodes.
///
/// The accesses are random (a node's row, then its predecessors' state words), so a software
/// pipeline overlaps their cache misses: `3 * AHEAD` nodes ahead the row's offsets are
/// prefetched, `2 * AHEAD` ahead the row itself and the node's state, `AHEAD` ahead the state
/// words of its predecessors. The updates themselves are unchanged.
#[inline]
fn expand<G: Predecessors + ?Sized>(
    graph: &G,
    state: &[AtomicU32],
    layer: &[NodeId],
    depth: u64,
    next: &mut Vec<NodeId>,
) {
    let d = depth + 1;
    for (i, &v) in layer.iter().enumerate() {
        if let Some(&w) = layer.get(i + 3 * AHEAD) {
            graph.prefetch_row(w);
        }
        if let Some(&w) = layer.get(i + 2 * AHEAD) {
            prefetch_start(graph.predecessors(w));
            prefetch(state, w as usize);
        }
        if let Some(&w) = layer.get(i + AHEAD) {
            for &u in graph.predecessors(w) {
                prefetch(state, u as usize);
            }
        }
        let child_lost = tag(state[v as usize].load(Relaxed)) == LOSE;
        for &u in graph.predecessors(v) {
            let cell = &state[u as usize];
            let mut cur = cell.load(Relaxed);
            loop {
                if tag(cur) != UNDECIDED {
                    break;
                }
                let (new, decided) = if child_lost {
                    (pack::<u32>(WIN, d), true)
                } else if payload(cur) == 1 {
                    (pack::<u32>(LOSE, d), true)
                } else {
                    (pack::<u32>(UNDECIDED, payload(cur) - 1), false)
                };
                match cell.compare_exchange_weak(cur, new, Relaxed, Relaxed) {
                    Ok(_) => {
                        if decided {
                            next.push(u);
                        }
                        break;
                    }
                    Err(actual) => cur = actual,
                }
            }
        }
    }
}
