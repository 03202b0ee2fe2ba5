//! Backward induction for acyclic games (Zermelo 1913): one pass in reverse topological order.
//!
//! Cost: O(V + E). It needs no counters and no queue, only a topological order, and it shares no
//! code with [`retrograde`](crate::solve::retrograde) beyond the [`Solution`] type — which makes
//! it an independent oracle for the retrograde solver on DAGs (seed 000, "Acyclic baseline").
//!
//! Invariant: when a node is evaluated, every successor already has its final label and depth.

use crate::graph::{Csr, Rules};
use crate::outcome::{Depth, Outcome};
use crate::solve::{postorder, Cycle, Solution};

/// Solves an acyclic game. Moves out of explicit-verdict nodes are ignored (those nodes are
/// terminal), so a cycle through such a node does not count.
///
/// # Errors
/// A [`Cycle`] when the game graph (without the ignored moves) is cyclic.
pub fn acyclic(graph: &Csr, rules: &Rules) -> Result<Solution, Cycle> {
    let terminal = rules.terminal_table(graph);
    let order = postorder(graph, |u| terminal[u as usize].is_none())?;
    let mut outcomes = vec![Outcome::Draw; graph.node_count()];
    let mut depths: Vec<Option<Depth>> = vec![None; graph.node_count()];
    for u in order {
        let ui = u as usize;
        if let Some(verdict) = terminal[ui] {
            outcomes[ui] = verdict;
            depths[ui] = (verdict != Outcome::Draw).then_some(Depth::ZERO);
            continue;
        }
        let mut fastest_win: Option<Depth> = None; // over LOSE children
        let mut slowest_loss = Depth::ZERO; // over WIN children
        let mut all_win = true;
        for &v in graph.successors(u) {
            let vi = v as usize;
            match (outcomes[vi], depths[vi]) {
                (Outcome::Lose, Some(d)) => {
                    fastest_win = Some(fastest_win.map_or(d, |f| f.min(d)));
                    all_win = false;
                }
                (Outcome::Win, Some(d)) => slowest_loss = slowest_loss.max(d),
                _ => all_win = false,
            }
        }
        (outcomes[ui], depths[ui]) = match fastest_win {
            Some(d) => (Outcome::Win, Some(d.succ())),
            None if all_win => (Outcome::Lose, Some(slowest_loss.succ())),
            None => (Outcome::Draw, None), // a tie child and no winning move
        };
    }
    Ok(Solution::from_parts(outcomes, depths))
}
