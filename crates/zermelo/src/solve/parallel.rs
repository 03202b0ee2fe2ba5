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
use crate::solve::packed::{fits_u32, initial_state, pack, payload, tag, LOSE, UNDECIDED, WIN};
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
    if !fits_u32(graph) {
        return retrograde(graph, rules);
    }
    let mut frontier: Vec<NodeId> = Vec::new();
    let state: Vec<u32> = initial_state(graph, rules, |node, outcome| {
        if outcome != Outcome::Draw {
            frontier.push(node);
        }
    });
    // Rebuilt as atomics (same layout; the compiler turns this into a plain copy).
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
    super::packed::into_solution(&words)
}

/// Processes the nodes of one layer (all at depth `depth`), pushing newly decided nodes.
#[inline]
fn expand<G: Predecessors + ?Sized>(
    graph: &G,
    state: &[AtomicU32],
    layer: &[NodeId],
    depth: u64,
    next: &mut Vec<NodeId>,
) {
    let d = depth + 1;
    for &v in layer {
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
