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
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering::Relaxed};

use rayon::prelude::*;

use super::lexer::Lexer;
use super::radix::{Away, WindowPart};
use super::ParseError;
use crate::graph::{Csr, ReverseCsr, MAX_NODES};
use crate::outcome::NodeId;

/// Input that can be read at any offset, from several threads: a file, or bytes in memory.
pub trait ReadAt: Sync {
    /// Total length in bytes.
    fn size(&self) -> io::Result<u64>;
    /// Reads up to `buf.len()` bytes at `offset`; returns 0 only at the end of input.
    fn read_at(&self, buf: &mut [u8], offset: u64) -> io::Result<usize>;
}

impl ReadAt for std::fs::File {
    fn size(&self) -> io::Result<u64> {
        Ok(self.metadata()?.len())
    }

    #[cfg(unix)]
    fn read_at(&self, buf: &mut [u8], offset: u64) -> io::Result<usize> {
        loop {
            match std::os::unix::fs::FileExt::read_at(self, buf, offset) {
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                other => return other,
            }
        }
    }

    #[cfg(windows)]
    fn read_at(&self, buf: &mut [u8], offset: u64) -> io::Result<usize> {
        std::os::windows::fs::FileExt::seek_read(self, buf, offset)
    }
}

impl ReadAt for [u8] {
    fn size(&self) -> io::Result<u64> {
        Ok(self.len() as u64)
    }

    fn read_at(&self, buf: &mut [u8], offset: u64) -> io::Result<usize> {
        let start = (offset as usize).min(self.len());
        let n = buf.len().min(self.len() - start);
        buf[..n].copy_from_slice(&self[start..start + n]);
        Ok(n)
    }
}

/// Counts bytes processed (both passes), for progress bars: the total is twice the input size.
pub type Progress = AtomicU64;

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

/// A malformed line somewhere: the sequential parser will say where.
pub(super) struct Malformed;

/// Bytes read per call; lines longer than this grow the buffer.
const BUF: usize = 1 << 22;
/// How much of the input to search for the header before giving up on the fast path.
const HEADER_WINDOW: usize = 1 << 20;

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

/// The header `N M` of an edge list, if it is in the first megabyte and well-formed: lets a
/// caller size a job before loading it.
///
/// # Errors
/// A read error.
pub fn edge_list_header<R: ReadAt + ?Sized>(src: &R) -> io::Result<Option<(u64, u64)>> {
    let len = src.size()?;
    Ok(header(src, len)?.map(|(n, m, _)| (n, m)))
}

/// Finds the header `N M` in the first window of the input; returns it and the offset of the
/// body, or `None` when the fast path should not be used (no complete, valid header there).
fn header<R: ReadAt + ?Sized>(src: &R, len: u64) -> io::Result<Option<(u64, u64, u64)>> {
    let window = (len as usize).min(HEADER_WINDOW);
    let mut buf = vec![0u8; window];
    read_full(src, &mut buf, 0)?;
    let mut lx = Lexer::new(&buf, "");
    let Some(line) = lx.next_line() else {
        return Ok(None);
    };
    let complete = lx.offset() <= buf.len() && buf.get(lx.offset() - 1) == Some(&b'\n');
    if !complete && (window as u64) < len {
        return Ok(None);
    }
    Ok(lx
        .numbers::<2>(line, "")
        .ok()
        .map(|[n, m]| (n, m, lx.offset() as u64)))
}

fn read_full<R: ReadAt + ?Sized>(src: &R, buf: &mut [u8], offset: u64) -> io::Result<usize> {
    let mut done = 0;
    while done < buf.len() {
        let got = src.read_at(&mut buf[done..], offset + done as u64)?;
        if got == 0 {
            break;
        }
        done += got;
    }
    Ok(done)
}

/// Cuts `[body, len)` into `parts` contiguous ranges of about equal size.
fn split(body: u64, len: u64, parts: usize) -> Vec<(u64, u64)> {
    let size = len.saturating_sub(body);
    (0..parts as u64)
        .map(|i| {
            let at = |k: u64| body + size * k / parts as u64;
            (at(i), at(i + 1))
        })
        .collect()
}

/// Edges handed over per call: enough independent memory accesses in one tight loop for the
/// processor to overlap their cache misses.
const BATCH: usize = 512;

/// Calls `edges(batch)` for the edge lines whose first byte lies in `range`, in input order and
/// in batches of up to [`BATCH`]; returns the number of edges, or [`Malformed`] at the first line
/// that is not blank, a comment or `u v` with `u, v < n`.
pub(super) fn for_each_edge<R: ReadAt + ?Sized>(
    src: &R,
    range: (u64, u64),
    body: u64,
    n: u64,
    progress: &Progress,
    mut edges: impl FnMut(&[(u32, u32)]),
) -> Result<u64, Malformed> {
    let mut batch: Vec<(u32, u32)> = Vec::with_capacity(BATCH);
    let count = for_each_line(src, range, body, n, progress, |u, v| {
        batch.push((u as u32, v as u32));
        if batch.len() == BATCH {
            edges(&batch);
            batch.clear();
        }
    })?;
    edges(&batch);
    Ok(count)
}

fn for_each_line<R: ReadAt + ?Sized>(
    src: &R,
    (start, end): (u64, u64),
    body: u64,
    n: u64,
    progress: &Progress,
    mut edge: impl FnMut(u64, u64),
) -> Result<u64, Malformed> {
    // A range that does not start the body starts mid-line unless the byte before is a newline:
    // that line belongs to the previous range, so skip to the next line.
    let mut skip_partial = start > body;
    let mut base = if skip_partial { start - 1 } else { start };
    let mut buf = vec![0u8; BUF];
    let (mut filled, mut i, mut eof, mut count) = (0usize, 0usize, false, 0u64);
    loop {
        // Every line before `complete` ends in a newline inside the buffer.
        let complete = memchr::memrchr(b'\n', &buf[i..filled]).map_or(i, |p| i + p + 1);
        while i < complete {
            if skip_partial {
                i += memchr::memchr(b'\n', &buf[i..complete]).map_or(complete - i, |p| p + 1);
                skip_partial = false;
                continue;
            }
            if base + i as u64 >= end {
                progress.fetch_add(i as u64, Relaxed);
                return Ok(count);
            }
            if let Some((u, v, next)) = fast_line(&buf, i, n) {
                edge(u, v);
                count += 1;
                i = next;
                continue;
            }
            let p = memchr::memchr(b'\n', &buf[i..complete]).unwrap_or(complete - i - 1);
            if let Some((u, v)) = parse_line(&buf[i..i + p], n)? {
                edge(u, v);
                count += 1;
            }
            i += p + 1;
        }
        if eof {
            // A last line without a newline.
            if !skip_partial && i < filled && base + (i as u64) < end {
                if let Some((u, v)) = parse_line(&buf[i..filled], n)? {
                    edge(u, v);
                    count += 1;
                }
            }
            progress.fetch_add(filled as u64, Relaxed);
            return Ok(count);
        }
        progress.fetch_add(i as u64, Relaxed);
        buf.copy_within(i..filled, 0);
        base += i as u64;
        filled -= i;
        i = 0;
        if filled == buf.len() {
            buf.resize(buf.len() * 2, 0); // a line longer than the buffer
        }
        let got = src
            .read_at(&mut buf[filled..], base + filled as u64)
            .map_err(|_| Malformed)?;
        eof = got == 0;
        filled += got;
    }
}

/// The common line `u v\n` (single spaces, no comment), parsed in one sweep; `None` sends the
/// line to the general parser. The caller guarantees a newline at or after `i`.
#[inline(always)]
fn fast_line(buf: &[u8], i: usize, n: u64) -> Option<(u64, u64, usize)> {
    let (u, j) = fast_number(buf, i)?;
    if buf[j] != b' ' {
        return None;
    }
    let (v, k) = fast_number(buf, j + 1)?;
    if buf[k] != b'\n' || u >= n || v >= n {
        return None;
    }
    Some((u, v, k + 1))
}

#[inline(always)]
fn fast_number(buf: &[u8], start: usize) -> Option<(u64, usize)> {
    let mut j = start;
    let mut value = 0u64;
    loop {
        let d = buf[j].wrapping_sub(b'0');
        if d > 9 {
            break;
        }
        value = value.wrapping_mul(10).wrapping_add(u64::from(d));
        j += 1;
    }
    // Ids are below 2^32: more than 10 digits is out of range or malformed anyway.
    (j > start && j - start <= 10).then_some((value, j))
}

/// One line without its `\n`: `Some((u, v))` for an edge, `None` for a blank or comment line.
#[inline]
fn parse_line(line: &[u8], n: u64) -> Result<Option<(u64, u64)>, Malformed> {
    let mut j = 0;
    skip_space(line, &mut j);
    if j == line.len() || line[j] == b'#' {
        return Ok(None);
    }
    let u = number(line, &mut j)?;
    let before = j;
    skip_space(line, &mut j);
    if j == before {
        return Err(Malformed);
    }
    let v = number(line, &mut j)?;
    skip_space(line, &mut j);
    if j < line.len() && line[j] != b'#' {
        return Err(Malformed);
    }
    if u >= n || v >= n {
        return Err(Malformed);
    }
    Ok(Some((u, v)))
}

#[inline(always)]
fn skip_space(line: &[u8], j: &mut usize) {
    while *j < line.len() && matches!(line[*j], b' ' | b'\t' | b'\r' | b'\x0b' | b'\x0c') {
        *j += 1;
    }
}

/// A non-negative integer of at most 19 digits (ids are far smaller; longer is malformed here).
#[inline(always)]
fn number(line: &[u8], j: &mut usize) -> Result<u64, Malformed> {
    let start = *j;
    let mut value = 0u64;
    while *j < line.len() {
        let d = line[*j].wrapping_sub(b'0');
        if d > 9 {
            break;
        }
        value = value * 10 + u64::from(d);
        *j += 1;
    }
    if *j == start || *j - start > 19 {
        return Err(Malformed);
    }
    Ok(value)
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
