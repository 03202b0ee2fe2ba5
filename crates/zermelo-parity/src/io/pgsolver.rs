//! PGSolver's parity-game format and the `paritysol` solution format (Oink and PGSolver).
//!
//! Game (docs/formats.md): a header `parity N;` — `N` is the highest vertex id (as PGSolver
//! writes it) or the vertex count (as some tools write it): both are accepted, decided by which
//! ids the file defines — then an optional `start V;`, then one line per vertex
//! `id priority owner succ,succ,... ["name"];`. Blank lines, `#` comments (outside a name),
//! CRLF line ends and a missing final `;` are accepted. A duplicate vertex, an undefined
//! successor, a vertex without successors or an id beyond the header is an error naming the line.
//!
//! Solution: `paritysol N;` then lines `v winner [successor];`, the successor given where the
//! winner owns `v`.
//!
//! The parsers take bytes and a source name (no files), check sizes declared by a header against
//! the input's length before allocating, and never panic.

use std::io::{self, Write};

use crate::{Arena, ParitySolution, Priority};
use zermelo::graph::{GraphBuilder, MAX_NODES};
use zermelo::{NodeId, Player};

use zermelo::io::lossy;
use zermelo::io::push_u64;
use zermelo::io::ParseError;

/// The shortest vertex line (`0 0 0 0`) plus a line end: a bound on how many vertices a file of
/// a given length can define, checked before a header's count is allocated.
const MIN_LINE: usize = 8;

/// Reads a game in PGSolver format.
///
/// ```
/// let text = b"parity 2;\n0 3 0 1,2 \"a\";\n1 2 1 0;\n2 1 1 2;\n";
/// let arena = zermelo_parity::io::parse_pgsolver(text, "g.pg")?;
/// assert_eq!(arena.vertex_count(), 3);
/// assert_eq!(arena.successors(0), &[1, 2]);
/// # Ok::<(), zermelo::io::ParseError>(())
/// ```
///
/// # Errors
/// A [`ParseError`] naming the line and what was expected.
pub fn parse_pgsolver(bytes: &[u8], source: &str) -> Result<Arena, ParseError> {
    let mut lines = Lines::new(bytes, source);
    let Some(mut line) = lines.next() else {
        return Err(ParseError::whole(
            source,
            "empty input: expected a header `parity N;`",
        ));
    };
    let declared = line.keyword_number("parity", "a header `parity N;`")?;
    let slots = check_declared(declared, bytes.len(), &line)?;
    let mut defined = vec![false; slots];
    let mut owner = vec![Player::Zero; slots];
    let mut priority: Vec<Priority> = vec![0; slots];
    let (mut sources, mut targets) = (Vec::<NodeId>::new(), Vec::<NodeId>::new());
    let mut start = None;
    let mut first = true;
    while let Some(next) = lines.next() {
        line = next;
        if first && line.starts_with_word(b"start") {
            start = Some((line.keyword_number("start", "`start V;`")?, line.number));
            first = false;
            continue;
        }
        first = false;
        let (v, p, o) = line.vertex(declared, |v, w| {
            sources.push(v);
            targets.push(w);
        })?;
        if std::mem::replace(&mut defined[v as usize], true) {
            return Err(line.error(format!("vertex {v} is defined a second time")));
        }
        priority[v as usize] = p;
        owner[v as usize] = o;
    }
    let count = vertex_count(&defined, declared, source)?;
    if let Some(i) =
        (0..targets.len()).find(|&i| targets[i] as usize >= count || !defined[targets[i] as usize])
    {
        let (v, w) = (sources[i], targets[i]);
        let at = line_of(bytes, source, v);
        return Err(ParseError::at(
            source,
            at,
            format!("vertex {v} has successor {w}, which is not defined"),
        ));
    }
    defined.truncate(count);
    owner.truncate(count);
    priority.truncate(count);
    let graph = GraphBuilder::from_checked(count as u64, sources, targets)
        .build()
        .map_err(|e| ParseError::whole(source, e.to_string()))?;
    let arena =
        Arena::new(graph, owner, priority).map_err(|e| ParseError::whole(source, e.to_string()))?;
    let start = match start {
        Some((s, at)) if s >= count as u64 => {
            return Err(ParseError::at(
                source,
                at,
                format!("start vertex {s} is not defined"),
            ))
        }
        other => other.map(|(s, _)| s as NodeId),
    };
    arena
        .with_start(start)
        .map_err(|e| ParseError::whole(source, e.to_string()))
}

/// The syntax of a PGSolver game line by line, for input read as it arrives
/// ([`stream::read_checked`](zermelo::io::stream::read_checked)): the header, an optional `start`,
/// then vertex lines, each checked as [`parse_pgsolver`] checks it (ids against the header), so
/// that an endless stream fails on its first bad line. What needs the whole file (duplicates,
/// undefined successors, missing vertices) is left to [`parse_pgsolver`].
#[derive(Default)]
pub struct PgsolverLines {
    declared: Option<u64>,
    first: bool,
}

impl zermelo::io::stream::LineCheck for PgsolverLines {
    fn check(&mut self, number: u64, text: &[u8], source: &str) -> Result<(), ParseError> {
        let mut line = Line {
            text,
            at: 0,
            number,
            source,
        };
        line.skip_space();
        if line.done() {
            return Ok(());
        }
        let Some(declared) = self.declared else {
            let declared = line.keyword_number("parity", "a header `parity N;`")?;
            check_limit(declared, &line)?;
            (self.declared, self.first) = (Some(declared), true);
            return Ok(());
        };
        if std::mem::take(&mut self.first) && line.starts_with_word(b"start") {
            return line.keyword_number("start", "`start V;`").map(drop);
        }
        line.vertex(declared, |_, _| {}).map(drop)
    }
}

/// A header's `N` over [`MAX_NODES`] is too big (exit 3 in the CLI), not malformed.
fn check_limit(declared: u64, line: &Line) -> Result<(), ParseError> {
    if declared >= MAX_NODES {
        return Err(line
            .error(format!(
                "the header declares {declared} vertices, more than the supported maximum of {}",
                MAX_NODES - 1
            ))
            .with_kind(zermelo::io::ErrorKind::TooBig));
    }
    Ok(())
}

/// Checks a header's `N` against the limits and the input's length; returns the slots to
/// allocate (`N + 1`, enough for both readings of `N`).
fn check_declared(declared: u64, len: usize, line: &Line) -> Result<usize, ParseError> {
    check_limit(declared, line)?;
    if declared as usize > len / MIN_LINE + 1 {
        return Err(line.error(format!(
            "the header declares {declared} vertices, but the input has only {len} bytes (each \
             vertex needs a line of at least {MIN_LINE})"
        )));
    }
    Ok(declared as usize + 1)
}

/// The vertex count: `N + 1` if ids `0..=N` are all defined (PGSolver), `N` if exactly `0..N` are.
fn vertex_count(defined: &[bool], declared: u64, source: &str) -> Result<usize, ParseError> {
    let n = declared as usize;
    let missing = defined[..n].iter().position(|&d| !d);
    match (missing, defined[n]) {
        (None, _) => Ok(if defined[n] { n + 1 } else { n }),
        (Some(v), _) => Err(ParseError::whole(
            source,
            format!(
                "vertex {v} is not defined (the header `parity {declared};` needs ids 0 to \
                 {declared}, or 0 to {} when it counts vertices)",
                declared.saturating_sub(1)
            ),
        )),
    }
}

/// The line on which vertex `v` is defined (for an error found after reading).
fn line_of(bytes: &[u8], source: &str, v: NodeId) -> u64 {
    let mut lines = Lines::new(bytes, source);
    lines.next();
    while let Some(mut line) = lines.next() {
        if line.vertex_id(u64::from(NodeId::MAX), "").ok() == Some(v) {
            return line.number;
        }
    }
    1
}

/// Non-blank lines with their numbers.
struct Lines<'a> {
    bytes: &'a [u8],
    pos: usize,
    number: u64,
    source: &'a str,
}

impl<'a> Lines<'a> {
    fn new(bytes: &'a [u8], source: &'a str) -> Self {
        Lines {
            bytes,
            pos: 0,
            number: 0,
            source,
        }
    }

    fn next(&mut self) -> Option<Line<'a>> {
        while self.pos < self.bytes.len() {
            let rest = &self.bytes[self.pos..];
            let end = memchr::memchr(b'\n', rest).unwrap_or(rest.len());
            self.pos += end + 1;
            self.number += 1;
            let mut line = Line {
                text: &rest[..end],
                at: 0,
                number: self.number,
                source: self.source,
            };
            line.skip_space();
            if !line.done() {
                return Some(line);
            }
        }
        None
    }
}

/// A cursor over one line.
struct Line<'a> {
    text: &'a [u8],
    at: usize,
    number: u64,
    source: &'a str,
}

impl Line<'_> {
    fn error(&self, message: impl Into<String>) -> ParseError {
        ParseError::at(self.source, self.number, message)
    }

    fn skip_space(&mut self) {
        while self.at < self.text.len() && matches!(self.text[self.at], b' ' | b'\t' | b'\r') {
            self.at += 1;
        }
    }

    /// At the end of the line or a comment.
    fn done(&self) -> bool {
        self.at >= self.text.len() || self.text[self.at] == b'#'
    }

    fn peek(&self) -> Option<u8> {
        (!self.done()).then(|| self.text[self.at])
    }

    fn found(&self) -> String {
        if self.done() {
            "the end of the line".into()
        } else {
            let rest = &self.text[self.at..];
            let end = rest
                .iter()
                .position(|b| b.is_ascii_whitespace())
                .unwrap_or(rest.len());
            format!("{:?}", lossy(&rest[..end.max(1)]))
        }
    }

    fn starts_with_word(&self, word: &[u8]) -> bool {
        self.text[self.at..].starts_with(word)
    }

    fn number(&mut self, what: &str) -> Result<u64, ParseError> {
        self.skip_space();
        let start = self.at;
        let mut value: u64 = 0;
        while let Some(d) = self
            .text
            .get(self.at)
            .map(|b| b.wrapping_sub(b'0'))
            .filter(|&d| d < 10)
        {
            value = value
                .checked_mul(10)
                .and_then(|x| x.checked_add(u64::from(d)))
                .ok_or_else(|| self.error(format!("expected {what}, found a number too large")))?;
            self.at += 1;
        }
        if self.at == start {
            return Err(self.error(format!("expected {what}, found {}", self.found())));
        }
        Ok(value)
    }

    /// `keyword N;` and nothing else.
    fn keyword_number(&mut self, keyword: &str, what: &str) -> Result<u64, ParseError> {
        if !self.starts_with_word(keyword.as_bytes()) {
            return Err(self.error(format!("expected {what}, found {}", self.found())));
        }
        self.at += keyword.len();
        let n = self.number(what)?;
        self.semicolon_and_end(what)?;
        Ok(n)
    }

    fn semicolon_and_end(&mut self, what: &str) -> Result<(), ParseError> {
        self.skip_space();
        if self.peek() == Some(b';') {
            self.at += 1;
            self.skip_space();
        }
        if !self.done() {
            return Err(self.error(format!(
                "expected the end of {what}, found {}",
                self.found()
            )));
        }
        Ok(())
    }

    /// A solution line `vertex winner [successor][;]` of a game of `n` vertices.
    fn solution(&mut self, n: u64) -> Result<(NodeId, Player, Option<NodeId>), ParseError> {
        let what = "a solution line `vertex winner [successor];`";
        let v = self.number(what)?;
        if v >= n {
            return Err(self.error(format!("vertex {v} is not in the game ({n} vertices)")));
        }
        let w = self.number("a winner (0 or 1)")?;
        let winner = Player::from_index(w)
            .ok_or_else(|| self.error(format!("expected a winner (0 or 1), found {w}")))?;
        self.skip_space();
        let strategy = match self.peek() {
            Some(b) if b.is_ascii_digit() => {
                let s = self.number("a successor")?;
                if s >= n {
                    return Err(
                        self.error(format!("successor {s} is not in the game ({n} vertices)"))
                    );
                }
                Some(s as NodeId)
            }
            _ => None,
        };
        self.semicolon_and_end(what)?;
        Ok((v as NodeId, winner, strategy))
    }

    /// A vertex line `id priority owner succ,... ["name"][;]`: its id, priority and owner, its
    /// moves passed to `edge`.
    fn vertex(
        &mut self,
        declared: u64,
        mut edge: impl FnMut(NodeId, NodeId),
    ) -> Result<(NodeId, Priority, Player), ParseError> {
        let v = self.vertex_id(declared, "a vertex line `id priority owner succ,...;`")?;
        let p = self.priority()?;
        let o = self.owner()?;
        self.successors(declared, |w| edge(v, w))?;
        self.rest()?;
        Ok((v, p, o))
    }

    fn vertex_id(&mut self, declared: u64, what: &str) -> Result<NodeId, ParseError> {
        let v = self.number(what)?;
        if v > declared {
            return Err(self.error(format!(
                "vertex id {v} is beyond the header's `parity {declared};`"
            )));
        }
        Ok(v as NodeId)
    }

    fn priority(&mut self) -> Result<Priority, ParseError> {
        let p = self.number("a priority")?;
        Priority::try_from(p).map_err(|_| {
            self.error(format!(
                "priority {p} is too large (at most {})",
                Priority::MAX
            ))
        })
    }

    fn owner(&mut self) -> Result<Player, ParseError> {
        let o = self.number("an owner (0 or 1)")?;
        Player::from_index(o)
            .ok_or_else(|| self.error(format!("expected an owner (0 or 1), found {o}")))
    }

    fn successors(
        &mut self,
        declared: u64,
        mut edge: impl FnMut(NodeId),
    ) -> Result<(), ParseError> {
        loop {
            let w = self.number("a successor (every vertex needs at least one)")?;
            if w > declared {
                return Err(self.error(format!(
                    "successor {w} is beyond the header's `parity {declared};`"
                )));
            }
            edge(w as NodeId);
            self.skip_space();
            if self.peek() != Some(b',') {
                return Ok(());
            }
            self.at += 1;
        }
    }

    /// An optional `"name"`, an optional `;`, then the end of the line.
    fn rest(&mut self) -> Result<(), ParseError> {
        self.skip_space();
        if self.peek() == Some(b'"') {
            let close = self.text[self.at + 1..].iter().position(|&b| b == b'"');
            match close {
                Some(c) => self.at += c + 2,
                None => return Err(self.error("a name opened with \" is not closed")),
            }
        }
        self.semicolon_and_end("a vertex line")
    }
}

/// `paritysol N;` for a game of `vertices` vertices (`N` the highest id or the count); returns
/// the vertex count.
fn paritysol_header(line: &mut Line, vertices: usize) -> Result<u64, ParseError> {
    let declared = line.keyword_number("paritysol", "a header `paritysol N;`")?;
    let n = vertices as u64;
    if declared != n && declared + 1 != n {
        return Err(line.error(format!(
            "the header declares {declared}, but the game has {n} vertices (expected `paritysol {};`)",
            n.saturating_sub(1)
        )));
    }
    Ok(n)
}

/// The syntax of a `paritysol` solution line by line, for input read as it arrives (as
/// [`PgsolverLines`] for games); duplicates and missing vertices are left to
/// [`parse_paritysol`].
pub struct ParitysolLines {
    vertices: usize,
    header: bool,
}

impl ParitysolLines {
    /// The check for a solution of a game of `vertices` vertices.
    pub fn new(vertices: usize) -> Self {
        ParitysolLines {
            vertices,
            header: false,
        }
    }
}

impl zermelo::io::stream::LineCheck for ParitysolLines {
    fn check(&mut self, number: u64, text: &[u8], source: &str) -> Result<(), ParseError> {
        let mut line = Line {
            text,
            at: 0,
            number,
            source,
        };
        line.skip_space();
        if line.done() {
            return Ok(());
        }
        if !std::mem::replace(&mut self.header, true) {
            return paritysol_header(&mut line, self.vertices).map(drop);
        }
        line.solution(self.vertices as u64).map(drop)
    }
}

/// Writes a game in PGSolver format (`parity` followed by the highest id).
pub fn write_pgsolver(out: &mut dyn Write, arena: &Arena) -> io::Result<()> {
    let mut buf = Vec::with_capacity(1 << 16);
    buf.extend_from_slice(
        format!("parity {};\n", arena.vertex_count().saturating_sub(1)).as_bytes(),
    );
    if let Some(s) = arena.start() {
        buf.extend_from_slice(format!("start {s};\n").as_bytes());
    }
    for v in arena.vertices() {
        push_u64(&mut buf, u64::from(v));
        buf.push(b' ');
        push_u64(&mut buf, u64::from(arena.priority(v)));
        buf.push(b' ');
        push_u64(&mut buf, arena.owner(v).index() as u64);
        for (i, &w) in arena.successors(v).iter().enumerate() {
            buf.push(if i == 0 { b' ' } else { b',' });
            push_u64(&mut buf, u64::from(w));
        }
        buf.extend_from_slice(b";\n");
        if buf.len() > (1 << 16) - 64 {
            out.write_all(&buf)?;
            buf.clear();
        }
    }
    out.write_all(&buf)
}

/// Writes a solution in `paritysol` format, as Oink and PGSolver do: `paritysol N;` (N the
/// highest id), then `v winner successor;` where the winner owns `v`, `v winner;` elsewhere.
pub fn write_paritysol(
    out: &mut dyn Write,
    arena: &Arena,
    solution: &ParitySolution,
) -> io::Result<()> {
    let mut buf = Vec::with_capacity(1 << 16);
    buf.extend_from_slice(format!("paritysol {};\n", solution.len().saturating_sub(1)).as_bytes());
    for v in arena.vertices() {
        let winner = solution.winner(v);
        push_u64(&mut buf, u64::from(v));
        buf.extend_from_slice(if winner == Player::Zero { b" 0" } else { b" 1" });
        if arena.owner(v) == winner {
            if let Some(s) = solution.strategy(v) {
                buf.push(b' ');
                push_u64(&mut buf, u64::from(s));
            }
        }
        buf.extend_from_slice(b";\n");
        if buf.len() > (1 << 16) - 48 {
            out.write_all(&buf)?;
            buf.clear();
        }
    }
    out.write_all(&buf)
}

/// Writes a solution as JSON: `{"vertices": n, "won": [even, odd], "winner": [0, 1, ...],
/// "strategy": [successor or null, ...]}` (a successor where the winner owns the vertex).
pub fn write_parity_json(
    out: &mut dyn Write,
    arena: &Arena,
    solution: &ParitySolution,
    solver: &str,
) -> io::Result<()> {
    let [even, odd] = solution.counts();
    let mut buf = Vec::with_capacity(1 << 16);
    buf.extend_from_slice(
        format!(
            "{{\"solver\":{},\"vertices\":{},\"won\":[{even},{odd}],\"winner\":[",
            serde_json::to_string(solver).unwrap_or_default(),
            solution.len()
        )
        .as_bytes(),
    );
    let flush = |buf: &mut Vec<u8>, out: &mut dyn Write| -> io::Result<()> {
        if buf.len() > (1 << 16) - 32 {
            out.write_all(buf)?;
            buf.clear();
        }
        Ok(())
    };
    for v in arena.vertices() {
        if v > 0 {
            buf.push(b',');
        }
        buf.push(b'0' + solution.winner(v).index() as u8);
        flush(&mut buf, out)?;
    }
    buf.extend_from_slice(b"],\"strategy\":[");
    for v in arena.vertices() {
        if v > 0 {
            buf.push(b',');
        }
        match solution
            .strategy(v)
            .filter(|_| arena.owner(v) == solution.winner(v))
        {
            Some(s) => push_u64(&mut buf, u64::from(s)),
            None => buf.extend_from_slice(b"null"),
        }
        flush(&mut buf, out)?;
    }
    buf.extend_from_slice(b"]}\n");
    out.write_all(&buf)
}

/// Reads a `paritysol` solution for a game of `vertices` vertices. Every vertex must have a
/// line; a successor is optional (the verifier requires it where the winner owns the vertex).
///
/// # Errors
/// A [`ParseError`] naming the line: bad header, unknown or repeated vertex, winner not 0/1.
pub fn parse_paritysol(
    bytes: &[u8],
    source: &str,
    vertices: usize,
) -> Result<ParitySolution, ParseError> {
    let mut lines = Lines::new(bytes, source);
    let Some(mut line) = lines.next() else {
        return Err(ParseError::whole(
            source,
            "empty input: expected a header `paritysol N;`",
        ));
    };
    let n = paritysol_header(&mut line, vertices)?;
    let mut solution = ParitySolution::new(vertices);
    let mut seen = vec![false; vertices];
    while let Some(mut line) = lines.next() {
        let (v, winner, strategy) = line.solution(n)?;
        if std::mem::replace(&mut seen[v as usize], true) {
            return Err(line.error(format!("vertex {v} appears a second time")));
        }
        solution.set(v, winner, strategy);
    }
    if let Some(v) = seen.iter().position(|&s| !s) {
        return Err(ParseError::whole(
            source,
            format!("vertex {v} has no solution line (every vertex needs one)"),
        ));
    }
    Ok(solution)
}

#[cfg(test)]
mod tests {
    use super::*;
    use zermelo::io::stream::{passes_whole, random_texts};

    /// The line checks are never stricter than the parsers (as the core's formats are tested in
    /// `zermelo::io::stream`).
    #[test]
    fn checks_never_refuse_what_the_parsers_accept() {
        let alphabet = b"0123 ;,\n\n\n#\"\rparity start.*sol,windrawlose";
        let starts: [&[u8]; 4] = [
            b"paritysol 1;\n0 0;\n1 1 0",
            b"parity 1;\n0 1 0 1;\n1 2 1 0",
            b"",
            b"",
        ];
        let mut accepted = [0usize; 2];
        for text in random_texts(alphabet, &starts, 100_000) {
            if parse_pgsolver(&text, "t").is_ok() {
                accepted[0] += 1;
                assert!(
                    passes_whole(&text, &mut PgsolverLines::default()),
                    "{text:?}"
                );
            }
            if parse_paritysol(&text, "t", 2).is_ok() {
                accepted[1] += 1;
                assert!(passes_whole(&text, &mut ParitysolLines::new(2)), "{text:?}");
            }
        }
        assert!(accepted.iter().all(|&a| a > 500), "{accepted:?}");
    }

    fn err(text: &str) -> String {
        parse_pgsolver(text.as_bytes(), "g.pg")
            .unwrap_err()
            .to_string()
    }

    #[test]
    fn accepts_both_header_readings_crlf_comments_and_names() {
        let max_id = "parity 1;\r\n# c\r\n\r\n0 2 0 1 \"x;#y\";\r\n1 1 1 0, 1 # z\r\n";
        let a = parse_pgsolver(max_id.as_bytes(), "g").unwrap();
        assert_eq!(a.vertex_count(), 2);
        assert_eq!(a.successors(1), &[0, 1]);
        let count = "parity 2;\nstart 1;\n1 1 1 0;\n0 2 0 1;\n";
        let a = parse_pgsolver(count.as_bytes(), "g").unwrap();
        assert_eq!((a.vertex_count(), a.start()), (2, Some(1)));
        assert_eq!(a.priority(0), 2);
        assert_eq!(a.owner(1), Player::One);
    }

    #[test]
    fn the_documented_example_parses() {
        let doc = include_str!("../../../../docs/formats.md");
        let start = doc
            .find("```\nparity 4;")
            .expect("example in docs/formats.md")
            + 4;
        let text = &doc[start..start + doc[start..].find("```").unwrap()];
        let a = parse_pgsolver(text.as_bytes(), "doc").unwrap();
        assert_eq!(
            (a.vertex_count(), a.edge_count(), a.start()),
            (5, 8, Some(0))
        );
        let s = crate::solve(&a, crate::Solver::Zielonka);
        let mut out = Vec::new();
        write_paritysol(&mut out, &a, &s).unwrap();
        assert_eq!(parse_paritysol(&out, "sol", 5).unwrap(), s.normalised(&a));
    }

    #[test]
    fn errors_name_the_line() {
        assert_eq!(
            err("parity 1;\n0 0 0 1;\n0 1 1 0;\n"),
            "g.pg:3: vertex 0 is defined a second time"
        );
        assert_eq!(
            err("parity 2;\n0 0 0 1;\n1 1 1 2;\n"),
            "g.pg:3: vertex 1 has successor 2, which is not defined"
        );
        assert_eq!(
            err("parity 1;\n0 0 0 1;\n1 1 1;\n"),
            "g.pg:3: expected a successor (every vertex needs at least one), found \";\""
        );
        assert_eq!(
            err("parity 1;\n0 0 0 5;\n"),
            "g.pg:2: successor 5 is beyond the header's `parity 1;`"
        );
        assert_eq!(
            err("parity 1;\n0 0 2 1;\n"),
            "g.pg:2: expected an owner (0 or 1), found 2"
        );
        assert_eq!(
            err("parity 1;\n0 0 0 1 junk;\n1 0 0 0;\n"),
            "g.pg:2: expected the end of a vertex line, found \"junk;\""
        );
        assert!(err("graph 1;\n").starts_with("g.pg:1: expected a header `parity N;`"));
        assert!(err("parity 99999999;\n0 0 0 0;\n").contains("but the input has only 26 bytes"));
        assert!(err("parity 3;\n0 0 0 0;\n1 0 0 0;\n").contains("vertex 2 is not defined"));
        assert!(err("").contains("empty input"));
    }

    #[test]
    fn solutions_round_trip() {
        let a = parse_pgsolver(b"parity 1;\n0 2 0 1;\n1 1 1 0;\n", "g").unwrap();
        let mut s = ParitySolution::new(2);
        s.set(0, Player::Zero, Some(1));
        s.set(1, Player::Zero, None);
        let mut out = Vec::new();
        write_paritysol(&mut out, &a, &s).unwrap();
        assert_eq!(
            String::from_utf8(out.clone()).unwrap(),
            "paritysol 1;\n0 0 1;\n1 0;\n"
        );
        assert_eq!(parse_paritysol(&out, "s", 2).unwrap(), s);
        let e = parse_paritysol(b"paritysol 1;\n0 0 1;\n0 1;\n", "s", 2).unwrap_err();
        assert_eq!(e.to_string(), "s:3: vertex 0 appears a second time");
        let e = parse_paritysol(b"paritysol 1;\n0 0 1;\n", "s", 2).unwrap_err();
        assert_eq!(
            e.to_string(),
            "s: vertex 1 has no solution line (every vertex needs one)"
        );
    }
}
