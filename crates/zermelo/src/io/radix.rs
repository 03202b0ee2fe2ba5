//! The reverse-only edge-list load by radix partition: one parse, then a cache-resident build
//! of each block of reverse rows.
//!
//! Placing each move straight into its reverse row (as the two-pass loader does) costs a random
//! memory access per move into arrays far larger than any cache: on a machine where a miss costs
//! about 100 ns that, not parsing, dominates the load. Here the one parse instead appends each
//! move `u -> v` to the *block* of its target (`v >> shift`, blocks of up to 2^16 nodes) as one
//! 8-byte entry, in chunks that are only ever written at their end: sequential writes. Then each
//! block is built on its own: count the in-degrees of its nodes (a table that fits the L2
//! cache), prefix sums (its slice of the row offsets), place the sources (its slice of the rows,
//! also cache-sized). Blocks are independent, so they are built in parallel.
//!
//! Out-degrees are counted the same way: the parse also appends each move's source to the block
//! of its source (two bytes), and each block's counters are then filled in cache. (Counting
//! straight into a per-thread array of `u32`s cost as much as the rest of the parse; so did
//! byte-wide counters with carries.)
//!
//! Order: a range's entries come before the next range's in every block, and each range appends
//! in input order, so every reverse row lists its sources in input order, exactly as the
//! sequential parser does. Memory at peak: the entries (8 + 2 bytes per move; the 8-byte ones
//! freed block by block as the rows are built), the final rows (4 bytes per move, 8 per node)
//! and the out-degrees (4 bytes per node): about 14 bytes per move at 5 moves per node.

use std::sync::atomic::Ordering::Relaxed;

use rayon::prelude::*;

use super::parallel::{for_each_edge, Malformed, Progress, ReadAt};
use crate::graph::ReverseCsr;
use crate::outcome::NodeId;

/// Entries per closed chunk (64 KiB).
const CHUNK: usize = 8192;
/// Entries in a block's first chunk.
const FIRST_CHUNK: usize = 64;
/// Nodes per block, at most: the block's in-degree table (256 KiB) fits an L2 cache.
const BLOCK_BITS: u32 = 16;

/// The entries of one range for one block, in input order, in chunks that are never copied.
struct Entries<T> {
    full: Vec<Box<[T]>>,
    last: Vec<T>,
}

impl<T> Default for Entries<T> {
    fn default() -> Self {
        Entries {
            full: Vec::new(),
            last: Vec::new(),
        }
    }
}

impl<T: Copy> Entries<T> {
    /// Appends an entry; the open chunk grows by doubling up to [`CHUNK`] entries (so that
    /// many small blocks waste little), then is closed and a new one opened (never copied).
    #[inline(always)]
    fn push(&mut self, entry: T) {
        let cap = self.last.capacity();
        if self.last.len() == cap {
            if cap >= CHUNK {
                let done = std::mem::replace(&mut self.last, Vec::with_capacity(CHUNK));
                self.full.push(done.into_boxed_slice());
            } else {
                self.last.reserve_exact(cap.max(FIRST_CHUNK));
            }
        }
        self.last.push(entry);
    }

    fn len(&self) -> usize {
        self.full.iter().map(|c| c.len()).sum::<usize>() + self.last.len()
    }

    fn iter(&self) -> impl Iterator<Item = T> + '_ {
        self.full
            .iter()
            .flat_map(|c| c.iter())
            .chain(self.last.iter())
            .copied()
    }
}

/// What one range of the input yields: its moves by target block (`(u << 16) | (v & mask)`)
/// and by source block (`u & mask`, for counting out-degrees the same cache-friendly way).
struct Part {
    targets: Vec<Entries<u64>>,
    sources: Vec<Entries<u16>>,
}

/// Loads the reverse half of an edge list whose header said `n` nodes and `m` moves, from the
/// byte `ranges` of its body. `Err` when a line is malformed or the count is not `m` (the caller
/// then lets the sequential parser report the error).
pub(super) fn load_reverse<R: ReadAt + ?Sized>(
    src: &R,
    ranges: &[(u64, u64)],
    body: u64,
    n: usize,
    m: u64,
    progress: &Progress,
) -> Result<ReverseCsr, Malformed> {
    let shift = block_shift(n);
    let parts = parse(src, ranges, body, n, shift, progress)?;
    let (targets, sources): (Vec<_>, Vec<_>) =
        parts.into_iter().map(|p| (p.targets, p.sources)).unzip();
    let targets = by_block(targets);
    if targets.iter().map(|b| block_len(b)).sum::<u64>() != m {
        return Err(Malformed);
    }
    let out_degree = out_degrees(by_block(sources), n, shift);
    // Each block's share of the progress bar: its share of the moves, in bytes of input.
    let len = src.size().unwrap_or(0);
    let bytes = |moves: u64| (u128::from(len) * u128::from(moves)).checked_div(u128::from(m));
    let (rev_offsets, rev_sources) = build_rows(targets, n, m, shift, |moves| {
        progress.fetch_add(bytes(moves).unwrap_or(0) as u64, Relaxed);
    });
    Ok(ReverseCsr {
        out_degree,
        rev_offsets: rev_offsets.into(),
        rev_sources: rev_sources.into(),
    })
}

/// The one parse: every range's moves appended to the entries of their blocks, in parallel.
fn parse<R: ReadAt + ?Sized>(
    src: &R,
    ranges: &[(u64, u64)],
    body: u64,
    n: usize,
    shift: u32,
    progress: &Progress,
) -> Result<Vec<Part>, Malformed> {
    let blocks = if n == 0 { 0 } else { ((n - 1) >> shift) + 1 };
    let mask = (1u64 << shift) - 1;
    ranges
        .par_iter()
        .map(|&range| {
            let mut part = Part {
                targets: (0..blocks).map(|_| Entries::default()).collect(),
                sources: (0..blocks).map(|_| Entries::default()).collect(),
            };
            for_each_edge(src, range, body, n as u64, progress, |batch| {
                for &(u, v) in batch {
                    let (u, v) = (u64::from(u), u64::from(v));
                    part.sources[(u >> shift) as usize].push((u & mask) as u16);
                    part.targets[(v >> shift) as usize].push((u << BLOCK_BITS) | (v & mask));
                }
            })?;
            Ok(part)
        })
        .collect()
}

/// Regroups per-range lists of per-block entries into per-block lists in range order.
fn by_block<T>(parts: Vec<Vec<Entries<T>>>) -> Vec<Vec<Entries<T>>> {
    let mut blocks: Vec<Vec<Entries<T>>> = Vec::new();
    for part in parts {
        blocks.resize_with(blocks.len().max(part.len()), Vec::new);
        for (block, entries) in blocks.iter_mut().zip(part) {
            block.push(entries);
        }
    }
    blocks
}

fn block_len<T: Copy>(block: &[Entries<T>]) -> u64 {
    block.iter().map(|e| e.len() as u64).sum()
}

/// The reverse rows, built block by block in parallel; each block's entries are freed once it
/// is built, and `done(moves)` is told its size.
fn build_rows(
    blocks: Vec<Vec<Entries<u64>>>,
    n: usize,
    m: u64,
    shift: u32,
    done: impl Fn(u64) + Sync,
) -> (Vec<u64>, Vec<NodeId>) {
    let mut rev_offsets = vec![0u64; n + 1];
    let mut rev_sources: Vec<NodeId> = vec![0; m as usize];
    // Cut both arrays into each block's slice, so the blocks can be written in parallel.
    let mut jobs = Vec::with_capacity(blocks.len());
    let (mut offsets, mut sources) = (&mut rev_offsets[1..], &mut rev_sources[..]);
    let mut start = 0u64;
    for entries in blocks {
        let size = block_len(&entries);
        let nodes = offsets.len().min(1 << shift);
        let (o, rest) = std::mem::take(&mut offsets).split_at_mut(nodes);
        offsets = rest;
        let (s, rest) = std::mem::take(&mut sources).split_at_mut(size as usize);
        sources = rest;
        jobs.push((entries, o, s, start));
        start += size;
    }
    jobs.into_par_iter()
        .for_each(|(entries, offsets, sources, start)| {
            build_block(&entries, offsets, sources, start);
            done(sources.len() as u64);
        });
    (rev_offsets, rev_sources)
}

/// Blocks of `2^shift` nodes: at most 2^16, fewer for small graphs so that there are enough
/// blocks to share among threads.
fn block_shift(n: usize) -> u32 {
    let bits = usize::BITS - n.saturating_sub(1).leading_zeros();
    bits.saturating_sub(6).clamp(0, BLOCK_BITS)
}

/// Builds one block: `offsets[i]` = end of row `i` of the block (global slot numbers; the row
/// starts where the previous one ends), `sources` = the block's rows, from its `entries`.
fn build_block(entries: &[Entries<u64>], offsets: &mut [u64], sources: &mut [NodeId], start: u64) {
    let mask = (1u64 << BLOCK_BITS) - 1;
    let mut cursor = vec![0u32; offsets.len()];
    for e in entries.iter().flat_map(Entries::iter) {
        cursor[(e & mask) as usize] += 1;
    }
    let mut end = 0u32;
    for (c, o) in cursor.iter_mut().zip(offsets.iter_mut()) {
        let first = end;
        end += *c;
        *o = start + u64::from(end);
        *c = first;
    }
    for e in entries.iter().flat_map(Entries::iter) {
        let slot = &mut cursor[(e & mask) as usize];
        sources[*slot as usize] = (e >> BLOCK_BITS) as NodeId;
        *slot += 1;
    }
}

/// Out-degrees, block by block in parallel, from the source entries of every range.
fn out_degrees(blocks: Vec<Vec<Entries<u16>>>, n: usize, shift: u32) -> Vec<u32> {
    let mut degree = vec![0u32; n];
    degree
        .par_chunks_mut(1 << shift)
        .zip(blocks.into_par_iter())
        .for_each(|(degree, entries)| {
            for e in entries.iter().flat_map(Entries::iter) {
                degree[usize::from(e)] += 1;
            }
        });
    degree
}

#[cfg(test)]
mod tests {
    use super::super::{parse_edge_list, read_edge_list_reverse, Progress};
    use crate::graph::generate::SplitMix64;
    use crate::graph::ReverseCsr;

    fn check(text: &str) {
        let expected = parse_edge_list(text.as_bytes(), "g").map(|g| ReverseCsr::from_csr(&g));
        for threads in 1..=4 {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            let got =
                pool.install(|| read_edge_list_reverse(text.as_bytes(), "g", &Progress::new(0)));
            assert_eq!(got, expected, "{threads} threads");
        }
    }

    fn graph(n: u64, edges: &[(u64, u64)]) -> String {
        let mut text = format!("{n} {}\n", edges.len());
        for (u, v) in edges {
            text.push_str(&format!("{u} {v}\n"));
        }
        text
    }

    #[test]
    fn small_and_malformed_inputs_match_the_sequential_parser() {
        for text in [
            "3 3\n0 1\n1 2\n2 0\n",
            "# c\n\n3 3 # h\n0 1 # e\n\n# x\n1\t2\r\n  2 0  \n# end",
            "1 2\n0 0\n0 0",
            "2 0\n",
            "0 0",
            "3 2\n0 1\n",
            "3 1\n0 1\n1 2\n",
            "3 1\n0 5\n",
        ] {
            check(text);
        }
    }

    #[test]
    fn many_blocks_keep_rows_in_input_order() {
        // Sizes on both sides of every block boundary; random moves plus hubs whose rows cross
        // chunk boundaries (in-degree > 8192) and whose out-degree exceeds a byte.
        for n in [1u64, 2, 63, 64, 65, 4097, 70_000, 200_003] {
            let mut rng = SplitMix64::new(n);
            let mut edges: Vec<(u64, u64)> = (0..3 * n + 10)
                .map(|_| (rng.below(n), rng.below(n)))
                .collect();
            edges.extend((0..20_000).map(|i| (i % n, n - 1)));
            edges.extend((0..600).map(|i| (n / 2, (i * 7919) % n)));
            check(&graph(n, &edges));
        }
    }
}
