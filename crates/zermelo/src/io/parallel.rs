//! The parallel edge-list loader: big files straight into CSR rows, without holding the text or
//! an edge list in memory.
//!
//! Cost: two parallel passes over the input (count, then place), O(V + E) work and
//! `O(threads · V)` scratch counters; no per-line allocation. Memory at peak: the final rows plus
//! two `u32` counters per node and thread, plus one read buffer per thread.
//!
//! The body after the header is cut into one contiguous byte range per thread; a line belongs to
//! the range holding its first byte. Pass 1 counts every node's in- and out-degree per range;
//! prefix sums give the row offsets and each range's first slot in every row; pass 2 re-parses
//! and places each move in its slot. Rows therefore list moves in input order, exactly as
//! [`GraphBuilder`](crate::graph::GraphBuilder) does: the result equals
//! [`parse_edge_list`](super::parse_edge_list)'s whatever the thread count.
//!
//! Loading only the reverse half (all a solve needs) takes another route, [`super::radix`]: one
//! parse that partitions the moves by block, then a cache-resident build of each block.
//!
//! Errors are found in the parallel passes but reported by re-reading the input with the
//! sequential parser, which names the line and what was expected.

use std::io;
use std::sync::atomic::{AtomicU32, Ordering::Relaxed};

use rayon::prelude::*;

use super::radix::{Away, WindowPart};
use super::scan::{for_each_edge, header, read_full, split, Malformed, Progress, ReadAt};
use super::ParseError;
use crate::graph::{Csr, ReverseCsr, MAX_NODES};
use crate::outcome::NodeId;

/// Reads an edge list into a full [`Csr`] (forward and reverse rows) on the current rayon pool.
///
/// # Errors
/// A [`ParseError`] naming the line, exactly as [`parse_edge_list`](super::parse_edge_list)
/// reports it, or a read error.
pub fn read_edge_list<R: ReadAt + ?Sized>(
    src: &R,
    name: &str,
    progress: &Progress,
) -> Result<Csr, ParseError> {
    match load(src, name, true, progress)? {
        Loaded::Full(g) => Ok(g),
        Loaded::Reverse(_) => unreachable!("forward rows were requested"),
    }
}

/// Reads an edge list into a [`ReverseCsr`] (out-degrees and reverse rows only: enough to solve,
/// in about half the memory).
///
/// # Errors
/// As [`read_edge_list`].
pub fn read_edge_list_reverse<R: ReadAt + ?Sized>(
    src: &R,
    name: &str,
    progress: &Progress,
) -> Result<ReverseCsr, ParseError> {
    match load(src, name, false, progress)? {
        Loaded::Reverse(g) => Ok(g),
        Loaded::Full(g) => Ok(ReverseCsr::from_csr(&g)),
    }
}

enum Loaded {
    Full(Csr),
    Reverse(ReverseCsr),
}

fn load<R: ReadAt + ?Sized>(
    src: &R,
    name: &str,
    forward: bool,
    progress: &Progress,
) -> Result<Loaded, ParseError> {
    let io_error = |e: io::Error| ParseError::io(name, &e);
    let len = src.size().map_err(io_error)?;
    let Some((n, m, body)) = header(src, len).map_err(io_error)? else {
        return sequential(src, name, forward);
    };
    if n > MAX_NODES || m > u64::from(u32::MAX) {
        // Too large for u32 scratch counters (or invalid): the sequential parser decides.
        return sequential(src, name, forward);
    }
    let n = n as usize;
    let threads = rayon::current_num_threads().max(1);
    let ranges = split(body, len, threads);
    if !forward {
        return match super::radix::load_reverse(src, &ranges, body, n, m, progress) {
            Ok(g) => Ok(Loaded::Reverse(g)),
            Err(Malformed) => sequential(src, name, forward),
        };
    }

    // Pass 1: per-range degree counts.
    let mut counts: Vec<(Vec<u32>, Vec<u32>)> = ranges.iter().map(|_| Default::default()).collect();
    let edges: Result<Vec<u64>, Malformed> = counts
        .par_iter_mut()
        .zip(ranges.par_iter())
        .map(|((ins, outs), &range)| {
            *ins = vec![0; n];
            *outs = vec![0; n];
            for_each_edge(src, range, body, n as u64, progress, |batch| {
                for &(u, v) in batch {
                    ins[v as usize] += 1;
                    outs[u as usize] += 1;
                }
            })
        })
        .collect();
    let edges: u64 = match edges {
        Ok(per_range) => per_range.iter().sum(),
        Err(Malformed) => return sequential(src, name, forward),
    };
    if edges != m {
        return sequential(src, name, forward);
    }
    let (mut ins, mut outs): (Vec<Vec<u32>>, Vec<Vec<u32>>) = counts.into_iter().unzip();
    let rev_offsets = offsets_and_cursors(&mut ins, n, edges);
    let (fwd_offsets, out_degree) = if forward {
        (Some(offsets_and_cursors(&mut outs, n, edges)), None)
    } else {
        let degrees = sum_counts(std::mem::take(&mut outs), n);
        outs = vec![Vec::new(); ranges.len()]; // no forward rows: no cursors
        (None, Some(degrees))
    };

    // Pass 2: place every move in its slot.
    let rev_sources: Vec<AtomicU32> = zeroed_atomics(edges as usize);
    let fwd_targets: Vec<AtomicU32> = zeroed_atomics(if forward { edges as usize } else { 0 });
    let placed: Result<Vec<u64>, Malformed> = ins
        .par_iter_mut()
        .zip(outs.par_iter_mut())
        .zip(ranges.par_iter())
        .map(|((in_cursor, out_cursor), &range)| {
            for_each_edge(src, range, body, n as u64, progress, |batch| {
                for &(u, v) in batch {
                    let slot = &mut in_cursor[v as usize];
                    rev_sources[*slot as usize].store(u, Relaxed);
                    *slot += 1;
                }
                if forward {
                    for &(u, v) in batch {
                        let slot = &mut out_cursor[u as usize];
                        fwd_targets[*slot as usize].store(v, Relaxed);
                        *slot += 1;
                    }
                }
            })
        })
        .collect();
    drop((ins, outs));
    if placed.is_err() {
        // The input changed between the passes.
        return sequential(src, name, forward);
    }
    let rev_sources = plain(rev_sources);
    Ok(match (fwd_offsets, out_degree) {
        (Some(fwd_offsets), _) => Loaded::Full(Csr {
            fwd_offsets: fwd_offsets.into(),
            fwd_targets: plain(fwd_targets).into(),
            rev_offsets: rev_offsets.into(),
            rev_sources: rev_sources.into(),
        }),
        (None, Some(out_degree)) => Loaded::Reverse(ReverseCsr {
            out_degree,
            rev_offsets: rev_offsets.into(),
            rev_sources: rev_sources.into(),
        }),
        (None, None) => unreachable!(),
    })
}

/// Row offsets from per-range counts (`n + 1` entries), turning each range's counts into its
/// first slot in every row — an absolute slot, which fits a `u32` because the fast path is only
/// taken for fewer than 2^32 edges.
fn offsets_and_cursors(counts: &mut [Vec<u32>], n: usize, edges: u64) -> Vec<u64> {
    let mut offsets = Vec::with_capacity(n + 1);
    let mut total = 0u64;
    offsets.push(0);
    for v in 0..n {
        for c in counts.iter_mut() {
            let k = c[v];
            c[v] = total as u32;
            total += u64::from(k);
        }
        offsets.push(total);
    }
    debug_assert_eq!(total, edges);
    offsets
}

fn sum_counts(counts: Vec<Vec<u32>>, n: usize) -> Vec<u32> {
    let mut iter = counts.into_iter();
    let mut sum = iter.next().unwrap_or_else(|| vec![0; n]);
    for c in iter {
        sum.par_iter_mut()
            .zip(c.par_iter())
            .for_each(|(s, x)| *s += x);
    }
    sum
}

fn zeroed_atomics(len: usize) -> Vec<AtomicU32> {
    // Collected in place from a zeroed allocation: no second buffer.
    vec![0u32; len].into_iter().map(AtomicU32::new).collect()
}

fn plain(v: Vec<AtomicU32>) -> Vec<NodeId> {
    v.into_iter().map(AtomicU32::into_inner).collect()
}

/// The whole input through the sequential parser: the exact error message, or — if the input
/// turns out valid after all — the graph.
fn sequential<R: ReadAt + ?Sized>(
    src: &R,
    name: &str,
    forward: bool,
) -> Result<Loaded, ParseError> {
    let io_error = |e: io::Error| ParseError::io(name, &e);
    let len = src.size().map_err(io_error)?;
    let mut bytes = vec![0u8; len as usize];
    let got = read_full(src, &mut bytes, 0).map_err(io_error)?;
    bytes.truncate(got);
    let g = super::parse_edge_list(&bytes, name)?;
    Ok(if forward {
        Loaded::Full(g)
    } else {
        Loaded::Reverse(ReverseCsr::from_csr(&g))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn both(text: &str, threads: usize) -> (Result<Csr, ParseError>, Result<Csr, ParseError>) {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        let fast = pool.install(|| read_edge_list(text.as_bytes(), "g", &Progress::new(0)));
        (fast, super::super::parse_edge_list(text.as_bytes(), "g"))
    }

    #[test]
    fn matches_the_sequential_parser() {
        let texts = [
            "3 3\n0 1\n1 2\n2 0\n",
            "3 3\n0 1\n1 2\n2 0",
            "# c\n\n3 3 # h\n0 1 # e\n\n# x\n1\t2\r\n  2 0  \n# end",
            "2 0\n",
            "0 0",
            "",
            "3 2\n0 1\n",
            "3 1\n0 1\n1 2\n",
            "3 1\n0 5\n",
            "3 1\n0 x\n",
            "3 1\n0 1 2\n",
        ];
        for text in texts {
            for threads in 1..=5 {
                let (fast, slow) = both(text, threads);
                assert_eq!(fast, slow, "{text:?} with {threads} threads");
            }
        }
    }

    #[test]
    fn long_lines_and_many_ranges() {
        let mut text = String::from("50 60\n");
        for i in 0..60u64 {
            text.push_str(&format!(
                "{} {}{}\n",
                i % 50,
                (i * 7) % 50,
                if i % 9 == 0 {
                    format!(" #{}", "y".repeat(5000))
                } else {
                    String::new()
                }
            ));
        }
        for threads in [1, 2, 7, 16] {
            let (fast, slow) = both(&text, threads);
            assert_eq!(fast.unwrap(), slow.unwrap());
        }
    }
}

/// An edge list seen as byte ranges, for loaders that each read a part of one shared file (the
/// cluster solver: every worker of every process reads its own range).
///
/// A line belongs to the range holding its first byte, as in [`read_edge_list`]; the ranges of
/// [`range`](Self::range) for `0..parts` cover the body exactly once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EdgeListRanges {
    /// `N` of the header.
    pub nodes: u64,
    /// `M` of the header.
    pub edges: u64,
    body: u64,
    len: u64,
}

impl EdgeListRanges {
    /// Reads the header; `None` when there is no complete, valid `N M` header in the first
    /// megabyte or `N` exceeds the id range (the sequential parser says what is wrong).
    ///
    /// # Errors
    /// A read error.
    pub fn open<R: ReadAt + ?Sized>(src: &R) -> io::Result<Option<EdgeListRanges>> {
        let len = src.size()?;
        Ok(header(src, len)?
            .filter(|&(n, _, _)| n <= MAX_NODES)
            .map(|(nodes, edges, body)| EdgeListRanges {
                nodes,
                edges,
                body,
                len,
            }))
    }

    /// Byte range `part` of `parts` equal ranges of the body.
    pub fn range(&self, part: usize, parts: usize) -> (u64, u64) {
        split(self.body, self.len, parts)[part]
    }

    /// Calls `edges(batch)` for the edges whose line starts in `range`, in input order; returns
    /// their number, or `None` at a line that is not blank, a comment or `u v` with `u, v < N`.
    pub fn for_each_edge<R: ReadAt + ?Sized>(
        &self,
        src: &R,
        range: (u64, u64),
        edges: impl FnMut(&[(u32, u32)]),
    ) -> Option<u64> {
        let progress = Progress::new(0);
        for_each_edge(src, range, self.body, self.nodes, &progress, edges).ok()
    }

    /// Parses the edges whose line starts in `range` into a share of the rows of the nodes
    /// `window` ([`WindowPart`]), handing what belongs to other windows to `away`, in input
    /// order; `None` at a line that is not blank, a comment or `u v` with `u, v < N`.
    pub fn parse_window<R: ReadAt + ?Sized>(
        &self,
        src: &R,
        range: (u64, u64),
        window: (NodeId, NodeId),
        away: impl FnMut(Away),
    ) -> Option<WindowPart> {
        WindowPart::parse(src, (range, self.body, self.nodes), window, away).ok()
    }
}
