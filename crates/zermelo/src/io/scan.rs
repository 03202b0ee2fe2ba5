//! Reading a big edge list by byte ranges, from several threads at once: [`ReadAt`] input, the
//! header `N M`, the body cut into one contiguous range per thread (a line belongs to the range
//! holding its first byte), and the scanner that hands over the edges of one range in batches.
//! The parallel loader ([`super::parallel`]), the reverse-only loader ([`super::radix`]) and the
//! cluster's per-worker ranges all read through it.
//!
//! Cost: one pass over the range's bytes, no per-line allocation; a malformed line stops the scan
//! with [`Malformed`], and the caller re-reads the input with the sequential parser to say where.

use std::io;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use super::lexer::Lexer;

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

/// A malformed line somewhere: the sequential parser will say where.
pub(super) struct Malformed;

/// Bytes read per call; lines longer than this grow the buffer.
const BUF: usize = 1 << 22;
/// How much of the input to search for the header before giving up on the fast path.
const HEADER_WINDOW: usize = 1 << 20;

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
pub(super) fn header<R: ReadAt + ?Sized>(src: &R, len: u64) -> io::Result<Option<(u64, u64, u64)>> {
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

pub(super) fn read_full<R: ReadAt + ?Sized>(
    src: &R,
    buf: &mut [u8],
    offset: u64,
) -> io::Result<usize> {
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
pub(super) fn split(body: u64, len: u64, parts: usize) -> Vec<(u64, u64)> {
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
