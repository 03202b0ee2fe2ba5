//! Sprague–Grundy values of impartial acyclic games, and sums of games.
//!
//! Cost: O(V + E) — one pass in reverse topological order, each node's mex found with a scratch
//! table of `out_degree + 1` flags (the mex of `d` values is at most `d`).
//!
//! Reference: Sprague (1935), Grundy (1939); seed 003 §10 and seed 004. Normal play only: the
//! XOR rule does not hold for misère sums, and values do not exist on cyclic graphs.

use std::fmt;

use crate::graph::Csr;
use crate::outcome::NodeId;
use crate::solve::{postorder, Cycle};

/// A Grundy value (nim-heap size).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
#[repr(transparent)]
pub struct Nimber(pub u32);

impl fmt::Display for Nimber {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl std::ops::BitXor for Nimber {
    type Output = Nimber;
    fn bitxor(self, rhs: Nimber) -> Nimber {
        Nimber(self.0 ^ rhs.0)
    }
}

/// The Grundy value of every node: `g(u) = mex { g(v) : u -> v }`.
///
/// ```
/// use zermelo::graph::Csr;
/// use zermelo::solve::{grundy, Nimber};
/// // Subtract 1 or 2 from a pile of 0..=5: values 0, 1, 2, 0, 1, 2.
/// let g = Csr::from_edges(6, (1..6u64).flat_map(|n| [(n, n - 1)].into_iter()
///     .chain((n >= 2).then(|| (n, n - 2))))).unwrap();
/// let values = grundy(&g).unwrap();
/// assert_eq!(values, [0, 1, 2, 0, 1, 2].map(Nimber));
/// ```
///
/// # Errors
/// A [`Cycle`] of the graph when it is not acyclic.
pub fn grundy(graph: &Csr) -> Result<Vec<Nimber>, Cycle> {
    let order = postorder(graph, |_| true)?;
    let mut value = vec![Nimber(0); graph.node_count()];
    let mut seen: Vec<bool> = Vec::new();
    for u in order {
        let succ = graph.successors(u);
        seen.clear();
        seen.resize(succ.len() + 1, false);
        for &v in succ {
            let g = value[v as usize].0 as usize;
            if g < seen.len() {
                seen[g] = true;
            }
        }
        let mex = seen.iter().position(|&s| !s).unwrap_or(seen.len());
        value[u as usize] = Nimber(mex as u32);
    }
    Ok(value)
}

/// One move in a sum of games: in component `component` (an index into the starts), move from
/// `from` to `to`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SumMove {
    /// Index of the component that moves.
    pub component: usize,
    /// Its current position.
    pub from: NodeId,
    /// The position it moves to.
    pub to: NodeId,
}

/// The analysis of a disjunctive sum of games.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SumAnalysis {
    /// XOR of the components' Grundy values; the sum is lost for the player to move iff 0.
    pub nim_sum: Nimber,
    /// A move to a sum of nim-sum 0, when the sum is won (lowest component, then lowest target).
    pub winning_move: Option<SumMove>,
}

/// Analyses the sum of games whose components stand at `starts` (nodes of one graph with Grundy
/// values `values`).
///
/// # Panics
/// If a start is not a node of `graph` or `values` does not belong to `graph`.
pub fn analyse_sum(graph: &Csr, values: &[Nimber], starts: &[NodeId]) -> SumAnalysis {
    let nim_sum = starts
        .iter()
        .fold(Nimber(0), |acc, &s| acc ^ values[s as usize]);
    let winning_move = (nim_sum.0 != 0)
        .then(|| {
            starts.iter().enumerate().find_map(|(component, &from)| {
                let target = values[from as usize] ^ nim_sum;
                if target >= values[from as usize] {
                    return None;
                }
                // By the mex rule, a child with every smaller value exists.
                graph
                    .successors(from)
                    .iter()
                    .copied()
                    .filter(|&v| values[v as usize] == target)
                    .min()
                    .map(|to| SumMove {
                        component,
                        from,
                        to,
                    })
            })
        })
        .flatten();
    SumAnalysis {
        nim_sum,
        winning_move,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sum_of_subtraction_piles() {
        // Piles 0..=8 of "remove 1 or 2": g = n mod 3.
        let edges =
            (1..9u64).flat_map(|n| std::iter::once((n, n - 1)).chain((n >= 2).then(|| (n, n - 2))));
        let g = Csr::from_edges(9, edges).unwrap();
        let values = grundy(&g).unwrap();
        assert_eq!(
            values.iter().map(|v| v.0).collect::<Vec<_>>(),
            [0, 1, 2, 0, 1, 2, 0, 1, 2]
        );
        // 3 + 5 + 7: 0 ^ 2 ^ 1 = 3, won; component 1 (pile 5, g=2) must go to g=1: pile 4.
        let a = analyse_sum(&g, &values, &[3, 5, 7]);
        assert_eq!(a.nim_sum, Nimber(3));
        assert_eq!(
            a.winning_move,
            Some(SumMove {
                component: 1,
                from: 5,
                to: 4
            })
        );
        // 3 + 6: 0 ^ 0, lost.
        let a = analyse_sum(&g, &values, &[3, 6]);
        assert_eq!(a.nim_sum, Nimber(0));
        assert_eq!(a.winning_move, None);
    }

    #[test]
    fn cyclic_graph_is_an_error() {
        let g = Csr::from_edges(2, [(0, 1), (1, 0)]).unwrap();
        assert!(grundy(&g).is_err());
    }
}
