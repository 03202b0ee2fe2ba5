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

use super::scan::{for_each_edge, Malformed, Progress, ReadAt};
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

impl Part {
    fn new(blocks: usize) -> Part {
        Part {
            targets: (0..blocks).map(|_| Entries::default()).collect(),
            sources: (0..blocks).map(|_| Entries::default()).collect(),
        }
    }
}

/// A window `[lo, lo + len)` of the nodes, cut into blocks of `2^shift`.
#[derive(Clone, Copy)]
struct Window {
    lo: u64,
    len: u64,
    shift: u32,
}

impl Window {
    fn new(lo: u64, len: usize) -> Window {
        Window {
            lo,
            len: len as u64,
            shift: block_shift(len),
        }
    }

    fn blocks(self) -> usize {
        if self.len == 0 {
            0
        } else {
            (((self.len - 1) >> self.shift) + 1) as usize
        }
    }

    /// Files the move `u -> v` under its target's block and its source's block, or hands them
    /// to `away`.
    #[inline(always)]
    fn file(self, part: &mut Part, u: NodeId, v: NodeId, away: &mut impl FnMut(Away)) {
        let mask = (1u64 << self.shift) - 1;
        let (gu, gv) = (u64::from(u), u64::from(v));
        let (lu, lv) = (gu.wrapping_sub(self.lo), gv.wrapping_sub(self.lo));
        if lu < self.len {
            part.sources[(lu >> self.shift) as usize].push((lu & mask) as u16);
        } else {
            away(Away::Source(u));
        }
        if lv < self.len {
            part.targets[(lv >> self.shift) as usize].push((gu << BLOCK_BITS) | (lv & mask));
        } else {
            away(Away::Move(u, v));
        }
    }

    /// Files a move whose target is in the window (received from the window that parsed it).
    #[inline(always)]
    fn file_target(self, part: &mut Part, u: NodeId, v: NodeId) {
        let mask = (1u64 << self.shift) - 1;
        let lv = u64::from(v).wrapping_sub(self.lo);
        assert!(
            lv < self.len,
            "a received move into node {v} outside the window"
        );
        part.targets[(lv >> self.shift) as usize].push((u64::from(u) << BLOCK_BITS) | (lv & mask));
    }

    /// Files the source of a move (received from the window that parsed it; `u` is in this one).
    #[inline(always)]
    fn file_source(self, part: &mut Part, u: NodeId) {
        let mask = (1u64 << self.shift) - 1;
        let lu = u64::from(u).wrapping_sub(self.lo);
        assert!(lu < self.len, "a received source {u} outside the window");
        part.sources[(lu >> self.shift) as usize].push((lu & mask) as u16);
    }
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
    let window = Window::new(0, n);
    let shift = window.shift;
    let parts = parse(src, ranges, body, n as u64, window, progress)?;
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
    n: u64,
    window: Window,
    progress: &Progress,
) -> Result<Vec<Part>, Malformed> {
    ranges
        .par_iter()
        .map(|&range| {
            let mut part = Part::new(window.blocks());
            for_each_edge(src, range, body, n, progress, |batch| {
                for &(u, v) in batch {
                    // The window is every node: nothing is away.
                    window.file(&mut part, u, v, &mut |_| {});
                }
            })?;
            Ok(part)
        })
        .collect()
}

/// A move, or the source of one, that belongs to another window than the one being loaded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Away {
    /// The move `u -> v`, whose target lies outside the window (its row is another's).
    Move(NodeId, NodeId),
    /// A move out of `u`, which lies outside the window (its out-degree is another's).
    Source(NodeId),
}

/// A share of the rows of one window of nodes `[lo, hi)` (a cluster process's nodes): the moves
/// into the window and out of its nodes that one byte range of the edge list holds, or that
/// other windows' parses sent here, filed by block. [`WindowRows::build`] joins the shares.
pub struct WindowPart {
    window: Window,
    part: Part,
    edges: u64,
}

impl WindowPart {
    /// An empty share of the window `[lo, hi)`, to receive moves into.
    pub fn new((lo, hi): (NodeId, NodeId)) -> WindowPart {
        let window = Window::new(u64::from(lo), (hi - lo) as usize);
        WindowPart {
            window,
            part: Part::new(window.blocks()),
            edges: 0,
        }
    }

    /// Parses the lines that start in `range`, handing what belongs to other windows to `away`
    /// in input order; `Err` at a malformed line.
    pub(super) fn parse<R: ReadAt + ?Sized>(
        src: &R,
        (range, body, n): ((u64, u64), u64, u64),
        window: (NodeId, NodeId),
        mut away: impl FnMut(Away),
    ) -> Result<WindowPart, Malformed> {
        let mut share = WindowPart::new(window);
        let w = share.window;
        let progress = Progress::new(0);
        share.edges = for_each_edge(src, range, body, n, &progress, |batch| {
            for &(u, v) in batch {
                w.file(&mut share.part, u, v, &mut away);
            }
        })?;
        Ok(share)
    }

    /// Edges parsed into this share (0 for one that only received).
    pub fn edges(&self) -> u64 {
        self.edges
    }

    /// Files moves `u -> v` another window's parse found (every `v` in this window).
    ///
    /// # Panics
    /// If a target lies outside the window.
    pub fn receive_moves(&mut self, moves: &[(NodeId, NodeId)]) {
        for &(u, v) in moves {
            self.window.file_target(&mut self.part, u, v);
        }
    }

    /// Files the sources of moves another window's parse found (one per move, every source in
    /// this window).
    ///
    /// # Panics
    /// If a source lies outside the window.
    pub fn receive_sources(&mut self, sources: &[NodeId]) {
        for &u in sources {
            self.window.file_source(&mut self.part, u);
        }
    }
}

/// The reverse rows of the nodes `[lo, hi)` of a graph, and their out-degrees; predecessors are
/// any nodes of the graph.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WindowRows {
    lo: NodeId,
    out_degree: Vec<u32>,
    offsets: Vec<u64>,
    sources: Vec<NodeId>,
}

impl WindowRows {
    /// The first node of the window.
    pub fn lo(&self) -> NodeId {
        self.lo
    }

    /// Nodes in the window.
    pub fn len(&self) -> usize {
        self.offsets.len() - 1
    }

    /// Whether the window holds no node.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Moves out of `u` (in the window); 0 once [`drop_out_degrees`](Self::drop_out_degrees).
    #[inline]
    pub fn out_degree(&self, u: NodeId) -> u32 {
        self.out_degree
            .get((u - self.lo) as usize)
            .copied()
            .unwrap_or(0)
    }

    /// The sources of the moves into `v` (in the window).
    #[inline]
    pub fn predecessors(&self, v: NodeId) -> &[NodeId] {
        let i = (v - self.lo) as usize;
        &self.sources[self.offsets[i] as usize..self.offsets[i + 1] as usize]
    }

    /// Hints that the row of `v` (in the window) will be read soon.
    #[inline(always)]
    pub fn prefetch_row(&self, v: NodeId) {
        crate::prefetch::prefetch(&self.offsets, v.wrapping_sub(self.lo) as usize);
    }

    /// Frees the out-degrees (a solver needs them only to start its counters).
    pub fn drop_out_degrees(&mut self) {
        self.out_degree = Vec::new();
    }
}

/// Too many moves into or out of one block of a window for the `u32` counters of
/// [`WindowRows::build`] (2^32 or more).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TooManyMoves;

impl WindowRows {
    /// The rows of the window `[lo, hi)` from every share of it (in parallel on the current
    /// rayon pool; a row lists its sources share by share, in each share's order).
    ///
    /// # Errors
    /// [`TooManyMoves`] when a block of the window has 2^32 moves or more into or out of it.
    ///
    /// # Panics
    /// If a share is of another window.
    pub fn build(
        (lo, hi): (NodeId, NodeId),
        shares: Vec<WindowPart>,
    ) -> Result<WindowRows, TooManyMoves> {
        let window = Window::new(u64::from(lo), (hi - lo) as usize);
        let (targets, sources): (Vec<_>, Vec<_>) = shares
            .into_iter()
            .map(|s| {
                assert!(s.window.lo == window.lo && s.window.len == window.len);
                (s.part.targets, s.part.sources)
            })
            .unzip();
        let (targets, sources) = (by_block(targets), by_block(sources));
        let fits = |len: u64| len <= u64::from(u32::MAX);
        if !targets.iter().all(|b| fits(block_len(b)))
            || !sources.iter().all(|b| fits(block_len(b)))
        {
            return Err(TooManyMoves);
        }
        let n = window.len as usize;
        let m = targets.iter().map(|b| block_len(b)).sum();
        let out_degree = out_degrees(sources, n, window.shift);
        let (offsets, sources) = build_rows(targets, n, m, window.shift, |_| {});
        Ok(WindowRows {
            lo,
            out_degree,
            offsets,
            sources,
        })
    }
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

    #[test]
    fn windows_hold_the_rows_of_their_nodes() {
        use super::super::EdgeListRanges;
        use super::{Away, NodeId, WindowPart, WindowRows};
        use crate::graph::Predecessors;
        for (n, windows, ranges) in [
            (1u64, 1usize, 1usize),
            (1000, 3, 7),
            (70_000, 2, 4),
            (200_003, 5, 3),
        ] {
            let mut rng = SplitMix64::new(n);
            let edges: Vec<(u64, u64)> = (0..4 * n).map(|_| (rng.below(n), rng.below(n))).collect();
            let text = graph(n, &edges);
            let full = ReverseCsr::from_csr(&parse_edge_list(text.as_bytes(), "g").unwrap());
            let src = text.as_bytes();
            let lists = EdgeListRanges::open(src).unwrap().unwrap();
            let block = n.div_ceil(windows as u64);
            let window = |w: u64| {
                (
                    (w * block).min(n) as NodeId,
                    ((w + 1) * block).min(n) as NodeId,
                )
            };
            let mut shares: Vec<Vec<WindowPart>> = (0..windows as u64)
                .map(|w| vec![WindowPart::new(window(w))])
                .collect();
            // Range r is parsed for window r % windows; what is away goes to its window's first share.
            for r in 0..ranges {
                let mine = window((r % windows) as u64);
                let mut away = Vec::new();
                let share = lists
                    .parse_window(src, lists.range(r, ranges), mine, |a| away.push(a))
                    .unwrap();
                shares[r % windows].push(share);
                for a in away {
                    match a {
                        Away::Move(u, v) => {
                            shares[(u64::from(v) / block) as usize][0].receive_moves(&[(u, v)])
                        }
                        Away::Source(u) => {
                            shares[(u64::from(u) / block) as usize][0].receive_sources(&[u])
                        }
                    }
                }
            }
            let parsed: u64 = shares.iter().flatten().map(WindowPart::edges).sum();
            assert_eq!(parsed, edges.len() as u64);
            for (w, shares) in shares.into_iter().enumerate() {
                let (lo, hi) = window(w as u64);
                let rows = WindowRows::build((lo, hi), shares).unwrap();
                assert_eq!(rows.len(), (hi - lo) as usize);
                for v in lo..hi {
                    let mut got = rows.predecessors(v).to_vec();
                    let mut want = full.predecessors(v).to_vec();
                    got.sort_unstable();
                    want.sort_unstable();
                    assert_eq!(got, want, "n {n}, node {v}");
                    assert_eq!(rows.out_degree(v), full.out_degree(v), "n {n}, node {v}");
                }
            }
        }
    }
}
