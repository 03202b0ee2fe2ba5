//! Who owns which node, and the rows a worker holds for the nodes it owns.
//!
//! Nodes are owned by id range, worker by worker; the workers of a process own consecutive
//! ranges, so a process owns one window of ids, loads the rows of that window once and shares
//! them (and the labels, `labels.rs`) between its workers.
//!
//! Memory per process: an owned node costs 4 bytes of out-degree (while loading), 8 of reverse
//! row offset, 4 of state word and 8 of best-move key (only when best moves are wanted); an
//! owned edge costs 4 bytes in its target's reverse row, plus 10 bytes while loading (the
//! radix entries, `zermelo::io::WindowPart`), whether parsed here or received.

use std::fs::File;
use std::path::Path;
use std::sync::Arc;

use zermelo::graph::{Predecessors, ReverseCsr};
use zermelo::io::{EdgeListRanges, InputFormat, WindowRows};
use zermelo::NodeId;

use crate::ClusterError;

/// Node ownership by id range: worker `w` owns `[w·block, (w+1)·block)` (clipped to the nodes).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Ownership {
    nodes: u64,
    block: u64,
    /// `⌊2^64 / block⌋ + 1`: `u / block` as a multiplication, exact for `u, block < 2^32`
    /// (the error is below `u / 2^64 < 1 / block`): every report to another process is routed.
    inverse: u128,
}

impl Ownership {
    pub(crate) fn new(nodes: u64, peers: usize) -> Ownership {
        let block = nodes.div_ceil(peers as u64).max(1);
        Ownership {
            nodes,
            block,
            inverse: (1u128 << 64) / u128::from(block) + 1,
        }
    }

    /// The worker that owns `u`.
    #[inline]
    pub(crate) fn owner(&self, u: NodeId) -> usize {
        ((u128::from(u) * self.inverse) >> 64) as usize
    }

    /// The nodes the `workers` workers of process `p` own together.
    pub(crate) fn window(&self, p: usize, workers: usize) -> (NodeId, NodeId) {
        (
            self.range(p * workers).0,
            self.range(p * workers + workers - 1).1,
        )
    }

    /// The nodes worker `w` owns.
    pub(crate) fn range(&self, w: usize) -> (NodeId, NodeId) {
        let at = |k: u64| (k * self.block).min(self.nodes) as NodeId;
        (at(w as u64), at(w as u64 + 1))
    }
}

/// Which kind of shared input a job reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InputKind {
    /// A text edge list, read by byte ranges.
    Edges,
    /// A `.zg` binary graph, memory-mapped by every process.
    Binary,
}

/// The kind, node count and edge count of a cluster input, from its header.
///
/// # Errors
/// [`ClusterError::Input`] for unreadable files and for formats cluster mode does not read.
pub fn input_size(path: &Path) -> Result<(InputKind, u64, u64), ClusterError> {
    let name = path.display().to_string();
    let file = open_regular(path)?;
    let mut head = vec![0u8; 4096];
    let got = zermelo::io::ReadAt::read_at(&file, &mut head, 0)
        .map_err(|e| ClusterError::Unreadable(format!("{name}: cannot read: {e}")))?;
    head.truncate(got);
    match InputFormat::detect(&name, &head) {
        InputFormat::Binary => {
            let (n, m) = zermelo::io::binary::graph_counts(&file, &name)
                .map_err(|e| ClusterError::Input(e.to_string()))?;
            Ok((InputKind::Binary, n, m))
        }
        InputFormat::Edges => match EdgeListRanges::open(&file) {
            Ok(Some(r)) => Ok((InputKind::Edges, r.nodes, r.edges)),
            Ok(None) => Err(sequential_error(path)),
            Err(e) => Err(ClusterError::Unreadable(format!(
                "{name}: cannot read: {e}"
            ))),
        },
        other => Err(ClusterError::Input(format!(
            "{name}: --cluster reads edge lists and .zg graphs, not {other:?} input \
             (convert it with `zermelo convert`)"
        ))),
    }
}

/// Opens a cluster input: a regular file, because every process reads it by byte ranges (or
/// maps it), at the same path. Standard input, FIFOs and devices are refused (exit 2) rather
/// than read without end; a missing or unreadable file is [`ClusterError::Unreadable`].
fn open_regular(path: &Path) -> Result<File, ClusterError> {
    let name = path.display().to_string();
    if path.as_os_str() == "-" {
        return Err(ClusterError::Input(
            "-: --cluster reads a regular file that every process opens at the same path, not \
             standard input (write it to a file first)"
                .into(),
        ));
    }
    // `stat` first: opening a FIFO would wait for a writer.
    let meta = std::fs::metadata(path)
        .map_err(|e| ClusterError::Unreadable(format!("{name}: cannot read: {e}")))?;
    if meta.is_dir() {
        return Err(ClusterError::Unreadable(format!(
            "{name}: is a directory, expected a file"
        )));
    }
    if !meta.is_file() {
        return Err(ClusterError::Input(format!(
            "{name}: --cluster reads a regular file (every process reads it by byte ranges), \
             not a FIFO or a device (write it to a file first)"
        )));
    }
    File::open(path).map_err(|e| ClusterError::Unreadable(format!("{name}: cannot read: {e}")))
}

/// The error the sequential parser reports for a malformed edge list (file, line, what).
pub(crate) fn sequential_error(path: &Path) -> ClusterError {
    let name = path.display().to_string();
    match std::fs::read(path) {
        Err(e) => ClusterError::Unreadable(format!("{name}: cannot read: {e}")),
        Ok(bytes) => match zermelo::io::parse_edge_list(&bytes, &name) {
            Err(e) => ClusterError::Input(e.to_string()),
            Ok(_) => {
                ClusterError::Input(format!("{name}: the file changed while it was being read"))
            }
        },
    }
}

/// The shared input, opened by every process.
pub(crate) enum Input {
    Edges { file: File, ranges: EdgeListRanges },
    Binary(Arc<ReverseCsr>),
}

impl Input {
    pub(crate) fn open(path: &Path) -> Result<Input, ClusterError> {
        let name = path.display().to_string();
        let (kind, _, _) = input_size(path)?;
        let file = open_regular(path)?;
        Ok(match kind {
            InputKind::Edges => {
                let ranges = EdgeListRanges::open(&file)
                    .map_err(|e| ClusterError::Unreadable(format!("{name}: cannot read: {e}")))?
                    .ok_or_else(|| sequential_error(path))?;
                Input::Edges { file, ranges }
            }
            InputKind::Binary => Input::Binary(Arc::new(
                zermelo::io::binary::open_reverse(&file, &name)
                    .map_err(|e| ClusterError::Input(e.to_string()))?,
            )),
        })
    }

    pub(crate) fn nodes(&self) -> u64 {
        match self {
            Input::Edges { ranges, .. } => ranges.nodes,
            Input::Binary(g) => g.node_count() as u64,
        }
    }

    pub(crate) fn edges(&self) -> u64 {
        match self {
            Input::Edges { ranges, .. } => ranges.edges,
            Input::Binary(g) => g.edge_count(),
        }
    }
}

/// The rows of the nodes a process owns, shared by its workers.
pub(crate) enum Shard {
    /// Loaded from the process's byte range of an edge list plus the moves other processes
    /// sent (the rows of the process's window).
    Owned(WindowRows),
    /// A memory-mapped `.zg` graph: every node's rows.
    Mapped(Arc<ReverseCsr>),
}

impl Shard {
    #[inline]
    pub(crate) fn out_degree(&self, u: NodeId) -> u32 {
        match self {
            Shard::Owned(rows) => rows.out_degree(u),
            Shard::Mapped(g) => g.out_degree(u),
        }
    }

    #[inline]
    pub(crate) fn predecessors(&self, v: NodeId) -> &[NodeId] {
        match self {
            Shard::Owned(rows) => rows.predecessors(v),
            Shard::Mapped(g) => g.predecessors(v),
        }
    }

    /// Hints that the row of `v` will be read soon.
    #[inline(always)]
    pub(crate) fn prefetch_row(&self, v: NodeId) {
        match self {
            Shard::Owned(rows) => rows.prefetch_row(v),
            Shard::Mapped(g) => g.prefetch_row(v),
        }
    }

    /// Frees what only initialisation needs.
    pub(crate) fn drop_degrees(&mut self) {
        if let Shard::Owned(rows) = self {
            rows.drop_out_degrees();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_cover_every_node_once() {
        for nodes in [0u64, 1, 5, 7, 100] {
            for peers in 1..6 {
                let own = Ownership::new(nodes, peers);
                let mut next = 0;
                for w in 0..peers {
                    let (lo, hi) = own.range(w);
                    assert_eq!(u64::from(lo), next.min(nodes));
                    for u in lo..hi {
                        assert_eq!(own.owner(u), w);
                    }
                    next = u64::from(hi).max(next);
                }
                assert_eq!(next, nodes);
            }
        }
    }

    #[test]
    fn owner_is_exact_at_the_top_of_the_id_range() {
        let mut rng = zermelo::graph::generate::SplitMix64::new(1);
        for peers in [1, 2, 3, 7, 64, 1000] {
            let own = Ownership::new(u64::from(u32::MAX), peers);
            for _ in 0..10_000 {
                let u = (u64::from(u32::MAX) - rng.below(1 << 20)) as NodeId;
                assert_eq!(own.owner(u) as u64, u64::from(u) / own.block);
                let v = rng.below(u64::from(u32::MAX)) as NodeId;
                assert_eq!(own.owner(v) as u64, u64::from(v) / own.block);
            }
        }
    }
}
