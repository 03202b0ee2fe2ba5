//! Optimal strategies, derived on demand from outcomes and depths (seed 003 §7.2).
//!
//! Cost: O(out-degree) per position; nothing is stored in the [`Solution`].

use crate::graph::{Csr, Rules};
use crate::outcome::{NodeId, Outcome};
use crate::solve::Solution;

/// The optimal move from `u`, or `None` at a terminal.
///
/// * WIN: a LOSE child of least depth (win as fast as possible);
/// * LOSE: a child of greatest depth (delay the loss as long as possible);
/// * DRAW: a DRAW child (hold the draw).
///
/// Ties go to the lowest node id, so the strategy is deterministic.
pub fn best_move(graph: &Csr, rules: &Rules, solution: &Solution, u: NodeId) -> Option<NodeId> {
    if rules.terminal_verdict(graph, u).is_some() {
        return None;
    }
    let succ = graph.successors(u).iter().copied();
    match solution.outcome(u) {
        Outcome::Win => succ
            .filter(|&v| solution.outcome(v) == Outcome::Lose)
            .min_by_key(|&v| (solution.depth(v), v)),
        Outcome::Lose => succ.min_by_key(|&v| (std::cmp::Reverse(solution.depth(v)), v)),
        Outcome::Draw => succ.filter(|&v| solution.outcome(v) == Outcome::Draw).min(),
    }
}

/// How a principal line ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LineEnd {
    /// The last node is terminal.
    Terminal,
    /// The last node's best move leads back to the node at this index of the line: optimal play
    /// cycles from there on (a draw).
    Repeats(usize),
}

/// Optimal play from a start node.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// The positions visited, the start first.
    pub nodes: Vec<NodeId>,
    /// Why the line stops.
    pub end: LineEnd,
}

/// Follows [`best_move`] from `start` until a terminal is reached or a position repeats.
///
/// A decided start reaches a terminal in exactly `depth` plies; a drawn one cycles.
/// Cost: O(length · out-degree); memory O(length) (plus a visited set for draws).
pub fn principal_line(graph: &Csr, rules: &Rules, solution: &Solution, start: NodeId) -> Line {
    let mut nodes = vec![start];
    let mut index_of = std::collections::HashMap::new();
    index_of.insert(start, 0usize);
    let mut u = start;
    while let Some(v) = best_move(graph, rules, solution, u) {
        if let Some(&i) = index_of.get(&v) {
            return Line {
                nodes,
                end: LineEnd::Repeats(i),
            };
        }
        index_of.insert(v, nodes.len());
        nodes.push(v);
        u = v;
    }
    Line {
        nodes,
        end: LineEnd::Terminal,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::retrograde;

    #[test]
    fn winner_hurries_and_loser_stalls() {
        // 0 can win via 1 (a terminal) or via 2 (LOSE at depth 2, chain 2 -> 3 -> 4).
        let g = Csr::from_edges(5, [(0, 2), (0, 1), (2, 3), (3, 4)]).unwrap();
        let r = Rules::normal();
        let s = retrograde(&g, &r);
        assert_eq!(best_move(&g, &r, &s, 0), Some(1));
        assert_eq!(best_move(&g, &r, &s, 1), None);
        let line = principal_line(&g, &r, &s, 2);
        assert_eq!(line.nodes, vec![2, 3, 4]);
        assert_eq!(line.end, LineEnd::Terminal);
    }

    #[test]
    fn draws_cycle() {
        let g = Csr::from_edges(5, [(0, 1), (0, 2), (1, 3), (2, 1), (2, 4), (4, 2)]).unwrap();
        let r = Rules::normal();
        let s = retrograde(&g, &r);
        let line = principal_line(&g, &r, &s, 0);
        assert_eq!(line.nodes, vec![0, 2, 4]);
        assert_eq!(line.end, LineEnd::Repeats(1));
    }

    #[test]
    fn loser_picks_the_deepest_child() {
        // 0 -> {1, 2}; 1 -> 3 (1 WIN d1); 2 -> 4 -> 5 -> 6 (2 WIN d3). 0 LOSE d4 via 2.
        let g = Csr::from_edges(7, [(0, 1), (0, 2), (1, 3), (2, 4), (4, 5), (5, 6)]).unwrap();
        let r = Rules::normal();
        let s = retrograde(&g, &r);
        assert_eq!(s.outcome(0), Outcome::Lose);
        assert_eq!(best_move(&g, &r, &s, 0), Some(2));
    }
}
