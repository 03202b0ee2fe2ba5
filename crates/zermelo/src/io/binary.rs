//! Binary formats: `.zg` graphs (CSR rows, memory-mapped when read) and `.zs` solutions
//! (2-bit outcomes and narrow depths). Both are versioned and checksummed; the layout is in
//! `docs/formats.md`.
//!
//! A file that is truncated, corrupted, of another version or inconsistent is a [`ParseError`]
//! saying so — never a panic and never a silently wrong graph: the reader checks the header
//! checksum, the payload checksum (CRC-32, computed in parallel) and then every structural
//! invariant a [`Csr`] promises, so even a well-checksummed but crafted file cannot make a solver
//! index out of bounds.

use std::fs::File;
use std::io::{self, Write};
use std::sync::Arc;

use rayon::prelude::*;

use super::mapped::Mapping;
use super::{ErrorKind, ParseError};
use crate::graph::column::Column;
use crate::graph::{Csr, ReverseCsr, MAX_NODES};
use crate::outcome::{Depth, NodeId, Outcome};
use crate::solve::Solution;

/// First bytes of a `.zg` graph file.
pub const GRAPH_MAGIC: &[u8; 8] = b"ZERMELOG";
/// First bytes of a `.zs` solution file.
pub const SOLUTION_MAGIC: &[u8; 8] = b"ZERMELOS";
/// The format version this build writes and reads.
pub const VERSION: u32 = 1;

const GRAPH_HEADER: usize = 128;
const SOLUTION_HEADER: usize = 64;
const ALIGN: usize = 64;
/// Bytes per checksum task.
const CRC_CHUNK: usize = 1 << 23;

/// Whether `bytes` start like a zermelo binary graph.
pub fn is_binary_graph(bytes: &[u8]) -> bool {
    bytes.starts_with(GRAPH_MAGIC)
}

/// Whether `bytes` start like a zermelo binary solution.
pub fn is_binary_solution(bytes: &[u8]) -> bool {
    bytes.starts_with(SOLUTION_MAGIC)
}

// ---------------------------------------------------------------------------------------------
// Graphs
// ---------------------------------------------------------------------------------------------

/// Writes `graph` in the `.zg` format.
///
/// # Errors
/// Any error of `out`.
pub fn write_graph(out: &mut (impl Write + ?Sized), graph: &Csr) -> io::Result<()> {
    let sections: [&[u8]; 4] = [
        bytemuck::cast_slice(&graph.fwd_offsets),
        bytemuck::cast_slice(&graph.fwd_targets),
        bytemuck::cast_slice(&graph.rev_offsets),
        bytemuck::cast_slice(&graph.rev_sources),
    ];
    let mut header = [0u8; GRAPH_HEADER];
    header[..8].copy_from_slice(GRAPH_MAGIC);
    put_u32(&mut header, 8, VERSION);
    put_u64(&mut header, 16, graph.node_count() as u64);
    put_u64(&mut header, 24, graph.edge_count());
    let mut at = GRAPH_HEADER;
    for (i, s) in sections.iter().enumerate() {
        put_u64(&mut header, 32 + 16 * i, at as u64);
        put_u64(&mut header, 40 + 16 * i, s.len() as u64);
        at = padded(at + s.len());
    }
    put_u32(&mut header, 96, crc(&sections));
    let header_crc = crc32fast::hash(&header[..100]);
    put_u32(&mut header, 100, header_crc);
    out.write_all(&header)?;
    for s in sections {
        out.write_all(s)?;
        out.write_all(&[0u8; ALIGN][..padded(s.len()) - s.len()])?;
    }
    Ok(())
}

/// Opens a `.zg` file as a full graph whose rows are memory-mapped (nothing is copied).
///
/// # Errors
/// A [`ParseError`] for a file that is not a valid zermelo graph (see the module docs).
pub fn open_graph(file: &File, name: &str) -> Result<Csr, ParseError> {
    let map =
        Mapping::open(file).map_err(|e| binary_error(name, format!("cannot map the file: {e}")))?;
    graph_from(map, name)
}

/// Reads a `.zg` file into memory (no mapping), with the same checks as [`open_graph`].
///
/// # Errors
/// As [`open_graph`], and a read error.
pub fn read_graph(file: &File, name: &str) -> Result<Csr, ParseError> {
    let map = Mapping::read(file).map_err(|e| ParseError::io(name, &e))?;
    graph_from(map, name)
}

/// Reads a `.zg` graph held in memory (copied into aligned storage), with the same checks as
/// [`open_graph`].
///
/// # Errors
/// As [`open_graph`].
pub fn graph_from_bytes(bytes: &[u8], name: &str) -> Result<Csr, ParseError> {
    graph_from(Mapping::copied(bytes), name)
}

/// The node and edge counts of a `.zg` graph held in memory (its header checked), as
/// [`graph_counts`].
///
/// # Errors
/// As [`graph_counts`].
pub fn counts_from_bytes(bytes: &[u8], name: &str) -> Result<(u64, u64), ParseError> {
    let head = &bytes[..bytes.len().min(GRAPH_HEADER)];
    check_graph_header(head).map_err(|m| binary_error(name, m))?;
    let (n, m) = (get_u64(head, 16), get_u64(head, 24));
    if n > MAX_NODES {
        return Err(binary_error(
            name,
            format!("corrupted header: {n} nodes, more than {MAX_NODES}"),
        ));
    }
    Ok((n, m))
}

fn graph_from(map: Mapping, name: &str) -> Result<Csr, ParseError> {
    let (map, cols) = open_checked(map, name)?;
    let [fo, ft, ro, rs] = cols;
    Ok(Csr {
        fwd_offsets: mapped(&map, fo),
        fwd_targets: mapped(&map, ft),
        rev_offsets: mapped(&map, ro),
        rev_sources: mapped(&map, rs),
    })
}

/// Opens a `.zg` file for solving only: the reverse rows stay mapped, out-degrees are computed
/// from the forward offsets.
///
/// # Errors
/// As [`open_graph`].
pub fn open_reverse(file: &File, name: &str) -> Result<ReverseCsr, ParseError> {
    Ok(reverse_half(open_graph(file, name)?))
}

/// The reverse half of a graph: out-degrees and reverse rows (kept mapped if they are).
pub(crate) fn reverse_half(g: Csr) -> ReverseCsr {
    let out_degree = g
        .fwd_offsets
        .par_windows(2)
        .map(|w| (w[1] - w[0]) as u32)
        .collect();
    ReverseCsr {
        out_degree,
        rev_offsets: g.rev_offsets,
        rev_sources: g.rev_sources,
    }
}

/// The node and edge counts of a `.zg` file, for sizing a job before opening it. Only the header
/// is read, but it is checked (magic, version, header checksum, node limit), so a damaged header
/// is reported as corrupt rather than believed.
///
/// # Errors
/// A [`ParseError`] for a file that does not start with a valid graph header.
pub fn graph_counts(file: &File, name: &str) -> Result<(u64, u64), ParseError> {
    use super::ReadAt;
    let mut head = [0u8; GRAPH_HEADER];
    let got = file
        .read_at(&mut head, 0)
        .map_err(|e| ParseError::io(name, &e))?;
    counts_from_bytes(&head[..got], name)
}

/// A checked section: byte offset and number of values.
#[derive(Clone, Copy)]
struct Section {
    offset: usize,
    len: usize,
}

fn mapped<T: bytemuck::Pod>(map: &Arc<Mapping>, s: Section) -> Column<T> {
    Column::Mapped {
        map: map.clone(),
        offset: s.offset,
        len: s.len,
    }
}

fn open_checked(map: Mapping, name: &str) -> Result<(Arc<Mapping>, [Section; 4]), ParseError> {
    let err = |m: String| binary_error(name, m);
    if cfg!(target_endian = "big") {
        return Err(err(
            "binary graphs are little-endian; this machine is not".into()
        ));
    }
    let bytes = map.bytes();
    let len = bytes.len();
    check_graph_header(bytes).map_err(err)?;
    let n = get_u64(bytes, 16);
    let m = get_u64(bytes, 24);
    if n > MAX_NODES {
        return Err(err(format!(
            "corrupted header: it claims {n} nodes, more than {MAX_NODES}"
        )));
    }
    let names = [
        "forward offsets",
        "forward targets",
        "reverse offsets",
        "reverse sources",
    ];
    let widths = [8u64, 4, 8, 4];
    let counts = [n + 1, m, n + 1, m];
    let mut sections = [Section { offset: 0, len: 0 }; 4];
    for i in 0..4 {
        let offset = get_u64(bytes, 32 + 16 * i);
        let size = get_u64(bytes, 40 + 16 * i);
        let expected = counts[i].checked_mul(widths[i]);
        if Some(size) != expected || offset % widths[i] != 0 {
            return Err(err(format!(
                "corrupted header: the {} section is inconsistent with {n} nodes and {m} edges",
                names[i]
            )));
        }
        if offset.checked_add(size).is_none_or(|end| end > len as u64) {
            return Err(err(format!(
                "truncated: the {} section needs bytes {offset}..{} but the file has {len}",
                names[i],
                offset.saturating_add(size)
            )));
        }
        sections[i] = Section {
            offset: offset as usize,
            len: counts[i] as usize,
        };
    }
    let last = get_u64(bytes, 32 + 16 * 3) + get_u64(bytes, 40 + 16 * 3);
    let expected = padded(last as usize);
    if len != expected {
        let what = if len < expected {
            "truncated"
        } else {
            "trailing bytes"
        };
        return Err(err(format!(
            "{what}: the file has {len} bytes, the header implies {expected}"
        )));
    }
    let slices: Vec<&[u8]> = sections
        .iter()
        .zip(widths)
        .map(|(s, w)| &bytes[s.offset..s.offset + s.len * w as usize])
        .collect();
    if crc(&slices) != get_u32(bytes, 96) {
        return Err(err("corrupted data: the checksum does not match".into()));
    }
    let fo: &[u64] = bytemuck::cast_slice(slices[0]);
    let ft: &[u32] = bytemuck::cast_slice(slices[1]);
    let ro: &[u64] = bytemuck::cast_slice(slices[2]);
    let rs: &[u32] = bytemuck::cast_slice(slices[3]);
    check_rows(fo, ft, n, m, true).map_err(|m| err(format!("inconsistent forward rows: {m}")))?;
    check_rows(ro, rs, n, m, false).map_err(|m| err(format!("inconsistent reverse rows: {m}")))?;
    if !is_transpose(fo, ft, ro, rs) {
        return Err(err(
            "corrupted data: the reverse rows are not the transpose of the forward rows".into(),
        ));
    }
    let map = Arc::new(map);
    Ok((map, sections))
}

/// The invariants of a CSR half: offsets start at 0, never decrease, end at `m`; ids `< n`;
/// out-rows fit a `u32` degree.
fn check_rows(offsets: &[u64], ids: &[u32], n: u64, m: u64, out_rows: bool) -> Result<(), String> {
    if offsets.first() != Some(&0) || offsets.last() != Some(&m) {
        return Err(format!("offsets must run from 0 to {m}"));
    }
    let bad_row = offsets
        .par_windows(2)
        .position_any(|w| w[1] < w[0] || (out_rows && w[1] - w[0] > u64::from(u32::MAX)));
    if let Some(u) = bad_row {
        return Err(format!("row {u} has a bad extent"));
    }
    if let Some(i) = ids.par_iter().position_any(|&v| u64::from(v) >= n) {
        return Err(format!(
            "entry {i} names node {}, but there are {n} nodes",
            ids[i]
        ));
    }
    Ok(())
}

/// Whether the reverse rows hold exactly the moves of the forward rows (as a multiset of
/// `(source, target)` pairs), in O(E) parallel work and no extra memory.
///
/// Both sides are summed (mod 2^64) under two hash functions keyed at random for this call, and
/// the sums compared: two different multisets agree with probability about 2^-128, and a file
/// cannot be crafted to collide because the keys are not known when it is written. Rows already
/// passed [`check_rows`], so every id is in range.
fn is_transpose(fo: &[u64], ft: &[u32], ro: &[u64], rs: &[u32]) -> bool {
    use std::hash::{BuildHasher, Hasher};
    let key = |i: u64| {
        let mut h = std::collections::hash_map::RandomState::new().build_hasher();
        h.write_u64(i);
        h.finish()
    };
    let keys = [key(1), key(2)];
    let forward = pair_sums(fo, ft, keys, |row, id| (row, id));
    let reverse = pair_sums(ro, rs, keys, |row, id| (id, row));
    forward == reverse
}

fn pair_sums(
    offsets: &[u64],
    ids: &[u32],
    keys: [u64; 2],
    pair: impl Fn(u64, u64) -> (u64, u64) + Sync,
) -> [u64; 2] {
    let rows = offsets.len().saturating_sub(1);
    (0..rows)
        .into_par_iter()
        .with_min_len(1 << 12)
        .map(|row| {
            let (a, b) = (offsets[row] as usize, offsets[row + 1] as usize);
            let mut sums = [0u64; 2];
            for &id in &ids[a..b] {
                let (u, v) = pair(row as u64, u64::from(id));
                let x = (u << 32) | v;
                sums[0] = sums[0].wrapping_add(mix(x ^ keys[0]));
                sums[1] = sums[1].wrapping_add(mix(x.wrapping_add(keys[1])));
            }
            sums
        })
        .reduce(
            || [0, 0],
            |a, b| [a[0].wrapping_add(b[0]), a[1].wrapping_add(b[1])],
        )
}

/// SplitMix64's finaliser: a bijective mix of 64 bits.
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

// ---------------------------------------------------------------------------------------------
// Solutions
// ---------------------------------------------------------------------------------------------

/// Writes `solution` in the `.zs` format: 2 bits per outcome and the narrowest depth width
/// (1, 2 or 4 bytes) that holds the largest depth.
///
/// # Errors
/// Any error of `out`.
pub fn write_solution(out: &mut (impl Write + ?Sized), solution: &Solution) -> io::Result<()> {
    let width = depth_width(solution);
    let outcomes = pack_outcomes(solution);
    let depths = encode_depths(solution, width);
    let mut header = [0u8; SOLUTION_HEADER];
    header[..8].copy_from_slice(SOLUTION_MAGIC);
    put_u32(&mut header, 8, VERSION);
    put_u32(&mut header, 12, width as u32);
    put_u64(&mut header, 16, solution.len() as u64);
    put_u32(&mut header, 24, crc(&[&outcomes, &depths]));
    let header_crc = crc32fast::hash(&header[..28]);
    put_u32(&mut header, 28, header_crc);
    out.write_all(&header)?;
    out.write_all(&outcomes)?;
    out.write_all(&depths)
}

/// Reads a `.zs` solution of `nodes` positions.
///
/// # Errors
/// A [`ParseError`] for a truncated, corrupted or inconsistent file, or one of another size.
pub fn read_solution(bytes: &[u8], name: &str, nodes: usize) -> Result<Solution, ParseError> {
    let err = |m: String| binary_error(name, m);
    check_header(bytes, SOLUTION_MAGIC, SOLUTION_HEADER, 28, "solution").map_err(err)?;
    let width = get_u32(bytes, 12) as usize;
    let n = get_u64(bytes, 16);
    if ![1, 2, 4].contains(&width) {
        return Err(err(format!("corrupted header: depth width {width}")));
    }
    if n != nodes as u64 {
        return Err(err(format!(
            "the solution has {n} positions but the graph has {nodes}"
        )));
    }
    let packed = nodes.div_ceil(4);
    let expected = SOLUTION_HEADER + packed + nodes * width;
    if bytes.len() != expected {
        return Err(err(format!(
            "truncated or padded: {} bytes, expected {expected}",
            bytes.len()
        )));
    }
    let (outcomes, depths) = bytes[SOLUTION_HEADER..].split_at(packed);
    if crc(&[outcomes, depths]) != get_u32(bytes, 24) {
        return Err(err("corrupted data: the checksum does not match".into()));
    }
    let mut out_o = Vec::with_capacity(nodes);
    let mut out_d = Vec::with_capacity(nodes);
    for u in 0..nodes {
        let code = (outcomes[u / 4] >> (2 * (u % 4))) & 3;
        let mut d = [0u8; 4];
        d[..width].copy_from_slice(&depths[u * width..(u + 1) * width]);
        let depth = u32::from_le_bytes(d);
        let (o, d) = match code {
            0 => (Outcome::Win, Some(Depth(depth))),
            1 => (Outcome::Lose, Some(Depth(depth))),
            2 if depth == 0 => (Outcome::Draw, None),
            _ => return Err(err(format!("corrupted data at position {u}"))),
        };
        if depth == u32::MAX {
            return Err(err(format!("corrupted data at position {u}")));
        }
        out_o.push(o);
        out_d.push(d);
    }
    Ok(Solution::from_parts(out_o, out_d))
}

fn depth_width(s: &Solution) -> usize {
    match s.counts().max_depth.map_or(0, |d| d.0) {
        0..=0xFF => 1,
        0x100..=0xFFFF => 2,
        _ => 4,
    }
}

fn pack_outcomes(s: &Solution) -> Vec<u8> {
    let mut packed = vec![0u8; s.len().div_ceil(4)];
    for (u, o) in s.outcomes().iter().enumerate() {
        let code = match o {
            Outcome::Win => 0,
            Outcome::Lose => 1,
            Outcome::Draw => 2,
        };
        packed[u / 4] |= code << (2 * (u % 4));
    }
    packed
}

fn encode_depths(s: &Solution, width: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(s.len() * width);
    for u in 0..s.len() as NodeId {
        let d = s.depth(u).map_or(0, |d| d.0);
        out.extend_from_slice(&d.to_le_bytes()[..width]);
    }
    out
}

// ---------------------------------------------------------------------------------------------
// Shared pieces
// ---------------------------------------------------------------------------------------------

/// A `.zg`/`.zs` reading error with its kind. Every message of this module starts with what
/// happened, so the kind follows from that word; a file that passed its header checksum but
/// claims an impossible size is corrupt, not too big.
fn binary_error(name: &str, message: String) -> ParseError {
    let kind = if message.starts_with("truncated") {
        ErrorKind::Truncated
    } else if message.starts_with("cannot map") {
        ErrorKind::Io
    } else if message.starts_with("not a zermelo binary") {
        ErrorKind::Syntax
    } else {
        ErrorKind::Corrupt
    };
    ParseError::whole(name, message).with_kind(kind)
}

/// A graph header: magic, version, checksum, then flags, of which this version defines none
/// (a file with flags set was written by a later zermelo or forged: refused, not misread).
fn check_graph_header(bytes: &[u8]) -> Result<(), String> {
    check_header(bytes, GRAPH_MAGIC, GRAPH_HEADER, 100, "graph")?;
    match get_u32(bytes, 12) {
        0 => Ok(()),
        flags => Err(format!(
            "unsupported flags {flags:#x} in the header (bytes 12..16; version {VERSION} defines \
             none, so they must be 0)"
        )),
    }
}

fn check_header(
    bytes: &[u8],
    magic: &[u8; 8],
    size: usize,
    crc_at: usize,
    what: &str,
) -> Result<(), String> {
    if bytes.len() < 8 || &bytes[..8] != magic {
        return Err(format!(
            "not a zermelo binary {what} file (bad magic number)"
        ));
    }
    if bytes.len() < size {
        return Err(format!(
            "truncated: {} bytes, shorter than the {size}-byte header",
            bytes.len()
        ));
    }
    let version = get_u32(bytes, 8);
    if version != VERSION {
        return Err(format!(
            "unsupported format version {version} (this zermelo reads version {VERSION})"
        ));
    }
    if crc32fast::hash(&bytes[..crc_at]) != get_u32(bytes, crc_at) {
        return Err("corrupted header: the checksum does not match".into());
    }
    Ok(())
}

/// CRC-32 of the concatenation of `parts`, computed in parallel chunks and combined.
fn crc(parts: &[&[u8]]) -> u32 {
    let chunks: Vec<&[u8]> = parts.iter().flat_map(|p| p.chunks(CRC_CHUNK)).collect();
    let hashers: Vec<crc32fast::Hasher> = chunks
        .par_iter()
        .map(|c| {
            let mut h = crc32fast::Hasher::new();
            h.update(c);
            h
        })
        .collect();
    let mut total = crc32fast::Hasher::new();
    for h in &hashers {
        total.combine(h);
    }
    total.finalize()
}

fn padded(x: usize) -> usize {
    x.div_ceil(ALIGN) * ALIGN
}

fn put_u32(b: &mut [u8], at: usize, v: u32) {
    b[at..at + 4].copy_from_slice(&v.to_le_bytes());
}

fn put_u64(b: &mut [u8], at: usize, v: u64) {
    b[at..at + 8].copy_from_slice(&v.to_le_bytes());
}

fn get_u32(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().unwrap_or_default())
}

fn get_u64(b: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(b[at..at + 8].try_into().unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::Rules;

    fn sample() -> Csr {
        Csr::from_edges(5, [(0, 1), (0, 2), (1, 3), (2, 1), (2, 4), (4, 2), (4, 4)]).unwrap()
    }

    fn write_tmp(bytes: &[u8]) -> (tempfile::NamedTempFile, File) {
        let mut tmp = tempfile::NamedTempFile::new().unwrap();
        tmp.write_all(bytes).unwrap();
        let f = File::open(tmp.path()).unwrap();
        (tmp, f)
    }

    fn encoded(g: &Csr) -> Vec<u8> {
        let mut out = Vec::new();
        write_graph(&mut out, g).unwrap();
        out
    }

    #[test]
    fn graph_round_trip() {
        let g = sample();
        let bytes = encoded(&g);
        let (_d, f) = write_tmp(&bytes);
        let back = open_graph(&f, "g.zg").unwrap();
        assert_eq!(back, g);
        let rev = open_reverse(&f, "g.zg").unwrap();
        assert_eq!(rev, ReverseCsr::from_csr(&g));
        let r = Rules::normal();
        assert_eq!(
            crate::solve::retrograde(&rev, &r),
            crate::solve::retrograde(&g, &r)
        );
    }

    #[test]
    fn every_truncation_and_every_bit_flip_is_an_error() {
        let g = sample();
        let bytes = encoded(&g);
        for cut in 0..bytes.len() {
            let (_d, f) = write_tmp(&bytes[..cut]);
            assert!(open_graph(&f, "g.zg").is_err(), "cut at {cut}");
        }
        for i in 0..bytes.len() {
            for bit in [0, 3, 7] {
                let mut b = bytes.clone();
                b[i] ^= 1 << bit;
                let (_d, f) = write_tmp(&b);
                match open_graph(&f, "g.zg") {
                    Err(e) => assert!(!e.message.is_empty()),
                    // A flip in padding changes nothing that is read.
                    Ok(back) => assert_eq!(back, g, "flip at byte {i} bit {bit}"),
                }
            }
        }
    }

    #[test]
    fn messages_say_what_is_wrong() {
        let bytes = encoded(&sample());
        let open = |b: &[u8]| {
            let (_d, f) = write_tmp(b);
            open_graph(&f, "g.zg").unwrap_err().to_string()
        };
        assert_eq!(
            open(b"5 3\n0 1\n"),
            "g.zg: not a zermelo binary graph file (bad magic number)"
        );
        assert!(open(&bytes[..100]).contains("truncated"));
        assert!(open(&bytes[..bytes.len() - 70]).contains("truncated: the reverse sources section"));
        let mut b = bytes.clone();
        b[8] = 9;
        assert!(open(&b).contains("unsupported format version"));
        let mut b = bytes.clone();
        b[GRAPH_HEADER + 3] ^= 1;
        assert!(open(&b).contains("checksum"));
        // Flags set behind a valid header checksum (issue 22: they were ignored).
        let mut b = bytes.clone();
        b[12] = 1;
        let crc = crc32fast::hash(&b[..100]);
        b[100..104].copy_from_slice(&crc.to_le_bytes());
        assert_eq!(
            open(&b),
            "g.zg: unsupported flags 0x1 in the header (bytes 12..16; version 1 defines none, so \
             they must be 0)"
        );
        let (_d, f) = write_tmp(&b);
        assert!(graph_counts(&f, "g.zg").is_err());
    }

    /// A file with valid checksums whose sections disagree (issue 12): rows written by hand.
    fn forged(fo: &[u64], ft: &[u32], ro: &[u64], rs: &[u32]) -> Vec<u8> {
        let g = Csr {
            fwd_offsets: Column::Owned(fo.to_vec()),
            fwd_targets: Column::Owned(ft.to_vec()),
            rev_offsets: Column::Owned(ro.to_vec()),
            rev_sources: Column::Owned(rs.to_vec()),
        };
        encoded(&g)
    }

    #[test]
    fn reverse_rows_must_be_the_transpose_of_forward_rows() {
        let open = |b: &[u8]| {
            let (_d, f) = write_tmp(b);
            open_graph(&f, "g.zg").map(|_| ())
        };
        // 0 -> 1, 1 -> 2; reverse rows as written: 1 <- 0, 2 <- 1.
        assert!(open(&forged(&[0, 1, 2, 2], &[1, 2], &[0, 0, 1, 2], &[0, 1])).is_ok());
        // The reverse rows say 2 <- 0 instead of 2 <- 1.
        let e = open(&forged(&[0, 1, 2, 2], &[1, 2], &[0, 0, 1, 2], &[0, 0])).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Corrupt);
        assert!(e.message.contains("not the transpose"), "{e}");
        // Forward targets all 0 with the original reverse rows.
        assert!(open(&forged(&[0, 1, 2, 2], &[0, 0], &[0, 0, 1, 2], &[0, 1])).is_err());
        // Same multiset per row sizes, swapped between rows.
        assert!(open(&forged(&[0, 1, 2, 2], &[1, 2], &[0, 0, 1, 2], &[1, 0])).is_err());
    }

    #[test]
    fn transpose_check_accepts_every_real_graph() {
        for seed in 0..50 {
            let mut rng = crate::graph::generate::SplitMix64::new(seed);
            let edges: Vec<(u64, u64)> = (0..1000)
                .map(|_| (rng.below(200), rng.below(200)))
                .collect();
            let g = Csr::from_edges(200, edges).unwrap();
            let (_d, f) = write_tmp(&encoded(&g));
            assert_eq!(open_graph(&f, "g.zg").unwrap(), g);
            assert_eq!(read_graph(&f, "g.zg").unwrap(), g);
        }
    }

    #[test]
    fn a_damaged_header_is_corrupt_not_huge() {
        let mut b = encoded(&sample());
        b[20] ^= 0x40; // node count: header checksum no longer matches
        let (_d, f) = write_tmp(&b);
        let e = graph_counts(&f, "g.zg").unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Corrupt, "{e}");
        let (_d, f) = write_tmp(&encoded(&sample()));
        assert_eq!(graph_counts(&f, "g.zg").unwrap(), (5, 7));
    }

    #[test]
    fn solution_round_trip_and_corruption() {
        let g = sample();
        let s = crate::solve::retrograde(&g, &Rules::normal());
        let mut out = Vec::new();
        write_solution(&mut out, &s).unwrap();
        assert_eq!(read_solution(&out, "s.zs", 5).unwrap(), s);
        assert!(read_solution(&out, "s.zs", 6).is_err());
        for cut in 0..out.len() {
            assert!(read_solution(&out[..cut], "s.zs", 5).is_err());
        }
        for i in 0..out.len() {
            let mut b = out.clone();
            b[i] ^= 0x10;
            if let Ok(back) = read_solution(&b, "s.zs", 5) {
                assert_eq!(back, s, "flip at {i}");
            }
        }
    }

    #[test]
    fn wide_depths_use_wider_fields() {
        let n = 70_000u64;
        let g = Csr::from_edges(n, (1..n).map(|v| (v - 1, v))).unwrap();
        let s = crate::solve::retrograde(&g, &Rules::normal());
        let mut out = Vec::new();
        write_solution(&mut out, &s).unwrap();
        assert_eq!(get_u32(&out, 12), 4);
        assert_eq!(read_solution(&out, "s.zs", n as usize).unwrap(), s);
    }
}
