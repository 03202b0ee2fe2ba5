//! Cycle detection and topological order by iterative depth-first search.
//!
//! Cost: O(V + E) time, O(V) memory; no recursion, so million-node chains are fine.

use std::fmt;

use crate::graph::Csr;
use crate::outcome::NodeId;

/// A directed cycle found in a graph: `nodes[0] -> nodes[1] -> ... -> nodes[k-1] -> nodes[0]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cycle {
    /// The nodes on the cycle in move order (a self-loop is one node).
    pub nodes: Vec<NodeId>,
}

impl fmt::Display for Cycle {
    /// `3 -> 5 -> 3`; long cycles are shortened in the middle.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const SHOWN: usize = 8;
        let k = self.nodes.len();
        for (i, u) in self.nodes.iter().enumerate() {
            if k > 2 * SHOWN && i == SHOWN {
                write!(f, "... ({} more) -> ", k - 2 * SHOWN)?;
            }
            if k > 2 * SHOWN && (SHOWN..k - SHOWN).contains(&i) {
                continue;
            }
            write!(f, "{u} -> ")?;
        }
        match self.nodes.first() {
            Some(first) => write!(f, "{first}"),
            None => Ok(()),
        }
    }
}

/// Some directed cycle of `graph`, or `None` if it is acyclic.
pub fn find_cycle(graph: &Csr) -> Option<Cycle> {
    postorder(graph, |_| true).err()
}

/// Every node listed after all of its successors (a reverse topological order), visiting only
/// the moves of nodes for which `expand` is true; or a cycle through expanded nodes.
pub fn postorder(graph: &Csr, expand: impl Fn(NodeId) -> bool) -> Result<Vec<NodeId>, Cycle> {
    const WHITE: u8 = 0;
    const GREY: u8 = 1;
    const BLACK: u8 = 2;
    let n = graph.node_count();
    let mut colour = vec![WHITE; n];
    let mut order = Vec::with_capacity(n);
    // (node, index of the next successor to look at)
    let mut stack: Vec<(NodeId, usize)> = Vec::new();
    for root in graph.nodes() {
        if colour[root as usize] != WHITE {
            continue;
        }
        colour[root as usize] = GREY;
        stack.push((root, 0));
        while let Some(top) = stack.last_mut() {
            let (u, next) = *top;
            let succ = if expand(u) { graph.successors(u) } else { &[] };
            if let Some(&v) = succ.get(next) {
                top.1 += 1;
                match colour[v as usize] {
                    WHITE => {
                        colour[v as usize] = GREY;
                        stack.push((v, 0));
                    }
                    GREY => {
                        let start = stack.iter().rposition(|&(w, _)| w == v).unwrap_or(0);
                        let nodes = stack[start..].iter().map(|&(w, _)| w).collect();
                        return Err(Cycle { nodes });
                    }
                    _ => {}
                }
            } else {
                colour[u as usize] = BLACK;
                order.push(u);
                stack.pop();
            }
        }
    }
    Ok(order)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn is_cycle_of(g: &Csr, c: &Cycle) -> bool {
        let k = c.nodes.len();
        k > 0 && (0..k).all(|i| g.successors(c.nodes[i]).contains(&c.nodes[(i + 1) % k]))
    }

    #[test]
    fn finds_real_cycles() {
        let g = Csr::from_edges(5, [(0, 1), (1, 2), (2, 3), (3, 1), (0, 4)]).unwrap();
        let c = find_cycle(&g).unwrap();
        assert!(is_cycle_of(&g, &c));
        assert_eq!(c.nodes.len(), 3);
        let loop_ = Csr::from_edges(2, [(0, 1), (1, 1)]).unwrap();
        assert_eq!(find_cycle(&loop_).unwrap().nodes, vec![1]);
        assert_eq!(find_cycle(&loop_).unwrap().to_string(), "1 -> 1");
    }

    #[test]
    fn postorder_puts_children_first() {
        let g = Csr::from_edges(4, [(0, 1), (0, 2), (1, 3), (2, 3)]).unwrap();
        let order = postorder(&g, |_| true).unwrap();
        let pos: Vec<usize> = (0..4)
            .map(|u| order.iter().position(|&w| w == u).unwrap())
            .collect();
        for (u, v) in g.edges() {
            assert!(pos[v as usize] < pos[u as usize]);
        }
    }

    #[test]
    fn unexpanded_nodes_break_cycles() {
        let g = Csr::from_edges(2, [(0, 1), (1, 0)]).unwrap();
        assert!(postorder(&g, |_| true).is_err());
        assert!(postorder(&g, |u| u != 1).is_ok());
    }

    #[test]
    fn long_cycles_are_shortened_in_messages() {
        let c = Cycle {
            nodes: (0..40).collect(),
        };
        let s = c.to_string();
        assert!(s.starts_with("0 -> 1 -> "));
        assert!(s.contains("(24 more)"));
        assert!(s.ends_with("39 -> 0"));
    }
}
