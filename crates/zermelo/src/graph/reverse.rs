//! [`ReverseCsr`]: only what retrograde analysis needs — out-degrees and reverse rows.

use crate::graph::column::Column;
use crate::graph::{Csr, GraphError, Predecessors};
use crate::outcome::NodeId;

/// The backward half of a game graph: each node's out-degree and the rows of moves into it.
///
/// It takes about half the memory of a [`Csr`] and is enough to solve (outcomes and depths);
/// strategies and verification need the forward moves, i.e. a full [`Csr`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReverseCsr {
    pub(crate) out_degree: Vec<u32>,
    pub(crate) rev_offsets: Column<u64>,
    pub(crate) rev_sources: Column<NodeId>,
}

impl ReverseCsr {
    /// The reverse half of a full graph (copied).
    pub fn from_csr(graph: &Csr) -> ReverseCsr {
        ReverseCsr {
            out_degree: graph.nodes().map(|u| graph.out_degree(u)).collect(),
            rev_offsets: graph.rev_offsets.clone(),
            rev_sources: graph.rev_sources.clone(),
        }
    }

    /// Builds the reverse rows of a graph given by its forward rows: `rows()` yields, for each
    /// node `u = 0, 1, ...` in order, the targets of `u`'s moves, and is called twice (once to
    /// count, once to fill), so a caller can stream rows it holds in chunks without building
    /// a [`Csr`] (it must yield the same rows both times). A counting sort: O(V + E) time, 4 bytes per move and 12 per node.
    ///
    /// ```
    /// use zermelo::graph::{Predecessors, ReverseCsr};
    /// let rows: [&[u32]; 3] = [&[1, 2], &[2], &[]];
    /// let g = ReverseCsr::from_rows(3, || rows.iter().copied())?;
    /// assert_eq!((g.out_degree(0), g.predecessors(2)), (2, &[0, 1][..]));
    /// # Ok::<(), zermelo::graph::GraphError>(())
    /// ```
    pub fn from_rows<'a, I>(
        node_count: usize,
        rows: impl Fn() -> I,
    ) -> Result<ReverseCsr, GraphError>
    where
        I: Iterator<Item = &'a [NodeId]>,
    {
        let nodes = node_count as u64;
        let mut out_degree = Vec::with_capacity(node_count);
        let mut offsets = vec![0u64; node_count + 1];
        for (u, row) in rows().enumerate() {
            if u >= node_count {
                return Err(GraphError::NodeOutOfRange {
                    node: u as u64,
                    nodes,
                });
            }
            let degree =
                u32::try_from(row.len()).map_err(|_| GraphError::DegreeTooLarge(u as NodeId))?;
            out_degree.push(degree);
            for &v in row {
                let slot = offsets
                    .get_mut(v as usize + 1)
                    .ok_or(GraphError::NodeOutOfRange {
                        node: u64::from(v),
                        nodes,
                    })?;
                *slot += 1;
            }
        }
        out_degree.resize(node_count, 0);
        for i in 1..offsets.len() {
            offsets[i] += offsets[i - 1];
        }
        let mut fill = offsets.clone();
        let mut sources = vec![0 as NodeId; offsets[node_count] as usize];
        for (u, row) in rows().enumerate().take(node_count) {
            for &v in row {
                let at = &mut fill[v as usize];
                assert!(
                    *at < offsets[v as usize + 1],
                    "ReverseCsr::from_rows: rows() yielded other rows the second time"
                );
                sources[*at as usize] = u as NodeId;
                *at += 1;
            }
        }
        Ok(ReverseCsr {
            out_degree,
            rev_offsets: offsets.into(),
            rev_sources: sources.into(),
        })
    }

    /// Number of positions.
    pub fn node_count(&self) -> usize {
        self.out_degree.len()
    }

    /// Number of moves.
    pub fn edge_count(&self) -> u64 {
        self.rev_sources.len() as u64
    }

    /// Bytes of memory the arrays occupy.
    pub fn heap_bytes(&self) -> usize {
        self.out_degree.len() * 4 + self.rev_offsets.len() * 8 + self.rev_sources.len() * 4
    }
}

impl Predecessors for ReverseCsr {
    #[inline]
    fn node_count(&self) -> usize {
        self.out_degree.len()
    }
    #[inline]
    fn out_degree(&self, u: NodeId) -> u32 {
        self.out_degree[u as usize]
    }
    #[inline]
    fn predecessors(&self, v: NodeId) -> &[NodeId] {
        let v = v as usize;
        &self.rev_sources[self.rev_offsets[v] as usize..self.rev_offsets[v + 1] as usize]
    }
    #[inline(always)]
    fn prefetch_row(&self, v: NodeId) {
        crate::prefetch::prefetch(&self.rev_offsets, v as usize);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::GraphBuilder;

    #[test]
    fn from_rows_equals_from_csr_on_random_graphs() {
        let mut x = 12345u64;
        let mut next = |m: u64| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x % m
        };
        for _ in 0..500 {
            let n = 1 + next(30);
            let mut b = GraphBuilder::new(n).unwrap();
            for _ in 0..next(4 * n) {
                b.add_edge(next(n), next(n)).unwrap();
            }
            let g = b.build().unwrap();
            let rows =
                ReverseCsr::from_rows(n as usize, || g.nodes().map(|u| g.successors(u))).unwrap();
            let want = ReverseCsr::from_csr(&g);
            for v in 0..n as NodeId {
                assert_eq!(rows.out_degree(v), want.out_degree(v));
                let mut preds = want.predecessors(v).to_vec();
                preds.sort_unstable();
                assert_eq!(rows.predecessors(v), preds, "node {v}");
            }
        }
    }

    #[test]
    fn from_rows_refuses_targets_and_rows_out_of_range() {
        let rows: [&[NodeId]; 2] = [&[1], &[2]];
        assert!(ReverseCsr::from_rows(2, || rows.iter().copied()).is_err());
        assert!(ReverseCsr::from_rows(1, || rows.iter().copied()).is_err());
    }
}
