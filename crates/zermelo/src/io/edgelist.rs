//! The edge-list text format: a header `N M`, then `M` lines `u v` (0-based ids).

use std::io::{self, Write};

use super::lexer::Lexer;
use super::push_u64;
use super::{graph_error, ErrorKind, ParseError};
use crate::graph::{Csr, GraphBuilder};

/// Parses an edge list into a graph.
///
/// ```
/// let g = zermelo::io::parse_edge_list(b"# a chain\n3 2\n0 1\n1 2\n", "chain.txt").unwrap();
/// assert_eq!(g.edge_count(), 2);
/// ```
///
/// # Errors
/// A [`ParseError`] naming the line: an empty input, a malformed header or edge line, an id out
/// of range, or an edge count that does not match the header.
pub fn parse_edge_list(bytes: &[u8], source: &str) -> Result<Csr, ParseError> {
    let mut lx = Lexer::new(bytes, source);
    let (n, m) = header(&mut lx)?;
    let header_line = lx.line();
    let mut b = GraphBuilder::new(n).map_err(|e| graph_error(lx.error(e.to_string()), &e))?;
    b.reserve(reservation(m, bytes.len()));
    read_edges(&mut lx, m, header_line, "an edge `u v`", "edges", |u, v| {
        b.add_edge(u, v)
    })?;
    expect_end(&mut lx, m, header_line)?;
    b.build()
        .map_err(|e| graph_error(ParseError::whole(source, e.to_string()), &e))
}

/// Writes the edge-list format: the header `n m`, then the `m` moves of `edges`, one `u v` a
/// line. Numbers are formatted by hand: this is the hot loop when making benchmark inputs of
/// 10^8 edges.
///
/// # Errors
/// Any error of `out`.
pub fn write_edge_list(
    out: &mut (impl Write + ?Sized),
    n: u64,
    m: u64,
    edges: impl Iterator<Item = (u64, u64)>,
) -> io::Result<()> {
    writeln!(out, "{n} {m}")?;
    let mut buf = Vec::with_capacity(1 << 16);
    for (u, v) in edges {
        push_u64(&mut buf, u);
        buf.push(b' ');
        push_u64(&mut buf, v);
        buf.push(b'\n');
        if buf.len() > (1 << 16) - 48 {
            out.write_all(&buf)?;
            buf.clear();
        }
    }
    out.write_all(&buf)
}

/// Writes `graph` as an edge list (rows in order), which [`parse_edge_list`] reads back equal.
///
/// # Errors
/// Any error of `out`.
pub fn write_graph_edge_list(out: &mut (impl Write + ?Sized), graph: &Csr) -> io::Result<()> {
    let edges = graph.edges().map(|(u, v)| (u64::from(u), u64::from(v)));
    write_edge_list(out, graph.node_count() as u64, graph.edge_count(), edges)
}

fn header(lx: &mut Lexer<'_>) -> Result<(u64, u64), ParseError> {
    let line = lx
        .next_line()
        .ok_or_else(|| lx.error("empty input: expected a header line `N M`".into()))?;
    let [n, m] = lx.numbers::<2>(line, "a header line `N M` (node and edge counts)")?;
    Ok((n, m))
}

/// How many edges to reserve room for: never more than the input could hold (each edge line has
/// at least four bytes), so a lying header cannot exhaust memory.
pub(super) fn reservation(declared: u64, input_len: usize) -> usize {
    declared.min(input_len as u64 / 4) as usize
}

/// Reads `m` edge lines, handing each to `add`.
pub(super) fn read_edges<E: std::fmt::Display>(
    lx: &mut Lexer<'_>,
    m: u64,
    header_line: u64,
    what: &str,
    plural: &str,
    mut add: impl FnMut(u64, u64) -> Result<(), E>,
) -> Result<(), ParseError> {
    for i in 0..m {
        let line = lx.next_line().ok_or_else(|| {
            ParseError::at(
                lx.source,
                lx.eof_line(),
                format!(
                    "expected {m} {plural} (header, line {header_line}), but the input ends after {i}"
                ),
            )
            .with_kind(ErrorKind::Truncated)
        })?;
        let [u, v] = lx.numbers::<2>(line, what)?;
        add(u, v).map_err(|e| lx.error(e.to_string()).with_kind(ErrorKind::OutOfRange))?;
    }
    Ok(())
}

pub(super) fn expect_end(lx: &mut Lexer<'_>, m: u64, header_line: u64) -> Result<(), ParseError> {
    if lx.next_line().is_some() {
        return Err(lx.error(format!(
            "more edges than the {m} declared in the header (line {header_line})"
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(text: &str) -> String {
        parse_edge_list(text.as_bytes(), "g.txt")
            .unwrap_err()
            .to_string()
    }

    #[test]
    fn writer_round_trips() {
        let g = Csr::from_edges(4, [(0, 1), (0, 1), (1, 1), (2, 3), (3, 0)]).unwrap();
        let mut out = Vec::new();
        write_graph_edge_list(&mut out, &g).unwrap();
        assert_eq!(parse_edge_list(&out, "g").unwrap(), g);
        let mut out = Vec::new();
        write_edge_list(&mut out, 2, 1, [(0u64, 10_000_000_000u64)].into_iter()).unwrap();
        assert_eq!(out, b"2 1\n0 10000000000\n");
    }

    #[test]
    fn parses_with_comments_anywhere() {
        let g = parse_edge_list(b"\n# c\n2 2 # header\n\n0 1\n# mid\n1 1\n#end", "g").unwrap();
        assert_eq!(g.successors(0), &[1]);
        assert_eq!(g.successors(1), &[1]);
    }

    #[test]
    fn errors_name_the_line() {
        assert_eq!(
            err(""),
            "g.txt:1: empty input: expected a header line `N M`"
        );
        assert_eq!(
            err("# only\n\n"),
            "g.txt:2: empty input: expected a header line `N M`"
        );
        assert_eq!(
            err("2 1\n0 2\n"),
            "g.txt:2: node 2 is out of range: the graph has 2 nodes (ids 0..2)"
        );
        assert_eq!(
            err("2 3\n0 1\n1 0\n"),
            "g.txt:3: expected 3 edges (header, line 1), but the input ends after 2"
        );
        assert_eq!(
            err("2 1\n0 1\n1 0\n"),
            "g.txt:3: more edges than the 1 declared in the header (line 1)"
        );
        assert!(err("2 1\n0 a\n").starts_with("g.txt:2: expected an edge `u v`, found \"a\""));
        assert!(err("x 1\n").starts_with("g.txt:1: expected a header line"));
        assert!(err("5000000000 0\n").contains("supported maximum"));
    }

    #[test]
    fn lying_header_does_not_allocate() {
        assert!(err("1 18446744073709551615\n0 0\n").contains("ends after 1"));
    }
}
