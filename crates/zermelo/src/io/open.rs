//! The one way in: [`open`] reads a game from a path, standard input, a reader or bytes, checks
//! its declared size against the limits before anything sized by the input is allocated, loads
//! the rows that were asked for and merges the convention and verdicts into its [`Rules`].
//!
//! ```text
//! Source --detect format--> declared size (header, JSON counts, .zg header)
//!        --size + memory checks--> parser or parallel loader or .zg reader --> rows
//!        --Rules::combined(misère, verdicts)--> Loaded
//! ```
//!
//! Regular files are read at offsets (the parallel loader, or a `.zg` mapped when the caller
//! opts in); anything else — a pipe, a FIFO, `/dev/stdin`, a device — is read sequentially into
//! memory, up to the memory limit, and parsed like bytes.

use std::fs::File;
use std::io::Read;
use std::path::Path;
use std::sync::atomic::AtomicU64;

use super::lexer::Lexer;
use super::{binary, ErrorKind, ParseError, ReadAt};
use crate::graph::{Csr, Predecessors, ReverseCsr, Rules, TwoPlayerGraph, MAX_NODES};
use crate::memory::{self, Estimate, Job};
use crate::outcome::Outcome;
use crate::solve::Solution;

/// Where a game comes from.
pub enum Source<'a> {
    /// A file (regular files are read in parallel or mapped; pipes and devices sequentially).
    Path(&'a Path),
    /// Standard input (named `<stdin>`).
    Stdin,
    /// Bytes already in memory, with a name for messages.
    Bytes {
        /// The name messages give the input.
        name: &'a str,
        /// The input.
        bytes: &'a [u8],
    },
    /// Any reader, read to its end, with a name for messages.
    Reader {
        /// The name messages give the input.
        name: &'a str,
        /// The input.
        reader: &'a mut dyn Read,
    },
}

/// Which rows to build.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Rows {
    /// Forward and reverse rows: everything (best moves, lines, verification).
    #[default]
    Both,
    /// Out-degrees and reverse rows only, when the input allows it (edge-list and `.zg` files):
    /// enough to solve, in about half the memory. Other inputs still load both.
    ReverseOnly,
}

/// Extra terminal verdicts: the text of a verdicts file (`node outcome` lines; two-player
/// `position player outcome`) and its name.
#[derive(Clone, Copy, Debug)]
pub struct Verdicts<'a> {
    /// The file's name for messages.
    pub name: &'a str,
    /// Its contents.
    pub text: &'a [u8],
}

/// Told about each loading phase, for progress displays.
pub trait LoadProgress: Sync {
    /// Phase `name` (`read`, `map`, `load`, `check`) starts, with `total` units of work when
    /// known; work done is then added to [`counter`](Self::counter).
    fn start(&self, name: &'static str, total: Option<u64>);
    /// The counter of the current phase.
    fn counter(&self) -> &AtomicU64;
    /// The current phase is over.
    fn finish(&self);
}

/// How to open a game. `LoadOptions::default()` detects the format, loads both row sets,
/// normal play, no extra verdicts, the memory available as the limit, no memory mapping.
#[derive(Clone, Copy, Default)]
pub struct LoadOptions<'a> {
    /// The format; `None` detects it (see [`InputFormat::detect`]).
    pub format: Option<InputFormat>,
    /// Which rows to build.
    pub rows: Rows,
    /// Misère play (also when the input itself says so).
    pub misere: bool,
    /// Explicit verdicts to add to the input's own.
    pub verdicts: Option<Verdicts<'a>>,
    /// The memory the job may use; checked before loading, from the declared sizes.
    pub memory: memory::Limit,
    /// Memory-map a `.zg` file instead of reading it. Faster and lighter, but the caller
    /// promises that nobody changes the file while the graph lives (truncating it would raise
    /// SIGBUS; other changes would be read unchecked).
    pub mmap: bool,
    /// Progress reports.
    pub progress: Option<&'a dyn LoadProgress>,
}

/// A game as loaded.
#[derive(Debug)]
pub enum LoadedGraph {
    /// Forward and reverse rows.
    Full(Csr),
    /// Out-degrees and reverse rows ([`Rows::ReverseOnly`]).
    Reverse(ReverseCsr),
    /// A partizan game, solved as its `(position, player)` state graph.
    TwoPlayer(TwoPlayerGraph),
}

/// What [`open`] returns: the graph, its merged rules, its name and format.
#[derive(Debug)]
pub struct Loaded {
    /// The graph.
    pub graph: LoadedGraph,
    /// Convention and verdicts: the input's own, `misere` and the extra verdicts, merged.
    pub rules: Rules,
    /// The input's name for messages.
    pub name: String,
    /// The format it was read as.
    pub format: InputFormat,
}

impl Loaded {
    /// The full graph every solver works on (the state graph of a two-player game); `None` when
    /// only the reverse rows were loaded.
    pub fn csr(&self) -> Option<&Csr> {
        match &self.graph {
            LoadedGraph::Full(g) => Some(g),
            LoadedGraph::TwoPlayer(g) => Some(g.states()),
            LoadedGraph::Reverse(_) => None,
        }
    }

    /// The two-player game, if this is one.
    pub fn two_player(&self) -> Option<&TwoPlayerGraph> {
        match &self.graph {
            LoadedGraph::TwoPlayer(g) => Some(g),
            _ => None,
        }
    }

    /// What retrograde analysis needs, whichever rows were loaded.
    pub fn predecessors(&self) -> &dyn Predecessors {
        match &self.graph {
            LoadedGraph::Full(g) => g,
            LoadedGraph::Reverse(g) => g,
            LoadedGraph::TwoPlayer(g) => g.states(),
        }
    }

    /// Number of nodes (states of a two-player game).
    pub fn node_count(&self) -> usize {
        self.predecessors().node_count()
    }

    /// Number of moves.
    pub fn edge_count(&self) -> u64 {
        match &self.graph {
            LoadedGraph::Full(g) => g.edge_count(),
            LoadedGraph::Reverse(g) => g.edge_count(),
            LoadedGraph::TwoPlayer(g) => g.states().edge_count(),
        }
    }

    /// Solves the game by retrograde analysis ([`crate::solve::retrograde_auto`]).
    pub fn solve(&self) -> Solution {
        // Concrete row types, not `predecessors()`: no virtual call per move in the solver.
        match &self.graph {
            LoadedGraph::Full(g) => crate::solve::retrograde_auto(g, &self.rules),
            LoadedGraph::Reverse(g) => crate::solve::retrograde_auto(g, &self.rules),
            LoadedGraph::TwoPlayer(g) => crate::solve::retrograde_auto(g.states(), &self.rules),
        }
    }
}

/// Opens a game: detects the format, checks the declared size against the memory limit before
/// anything sized by the input is allocated, loads the rows asked for (regular files in
/// parallel or mapped, pipes and devices as streams) and merges `misere` and the extra verdicts
/// into the input's rules.
///
/// ```
/// use zermelo::io::{open, LoadOptions, Source};
/// let options = LoadOptions { misere: true, ..LoadOptions::default() };
/// let game = open(Source::Bytes { name: "chain", bytes: b"3 2\n0 1\n1 2\n" }, &options)?;
/// let solution = game.solve();
/// assert_eq!(solution.outcome(2), zermelo::Outcome::Win); // stuck wins in misère play
/// # Ok::<(), zermelo::io::ParseError>(())
/// ```
///
/// # Errors
/// A [`ParseError`] whose [`kind`](ParseError::kind) says what went wrong: unreadable input
/// ([`ErrorKind::Io`]), malformed, truncated or corrupt input, an id out of range, or a job
/// over the memory limit or [`MAX_NODES`] ([`ErrorKind::TooBig`]).
pub fn open(source: Source<'_>, options: &LoadOptions<'_>) -> Result<Loaded, ParseError> {
    let (graph, base, name, format) = match source {
        Source::Path(path) => open_path(path, options)?,
        Source::Stdin => {
            let bytes = read_stream(&mut std::io::stdin().lock(), "<stdin>", options)?;
            from_bytes(&bytes, "<stdin>", options)?
        }
        Source::Reader { name, reader } => {
            let bytes = read_stream(reader, name, options)?;
            from_bytes(&bytes, name, options)?
        }
        Source::Bytes { name, bytes } => from_bytes(bytes, name, options)?,
    };
    let mut loaded = Loaded {
        graph,
        rules: Rules::normal(),
        name,
        format,
    };
    loaded.rules = merged_rules(&loaded, &base, options)?;
    Ok(loaded)
}

type Parts = (LoadedGraph, Rules, String, InputFormat);

fn open_path(path: &Path, options: &LoadOptions<'_>) -> Result<Parts, ParseError> {
    let name = path.display().to_string();
    if path.is_dir() {
        return Err(
            ParseError::whole(&name, "is a directory, expected a file").with_kind(ErrorKind::Io)
        );
    }
    let file = File::open(path).map_err(|e| ParseError::io(&name, &e))?;
    let meta = file.metadata().map_err(|e| ParseError::io(&name, &e))?;
    if !meta.is_file() {
        // A FIFO, a pipe behind /dev/stdin, a device: no offsets, no length.
        let bytes = read_stream(&mut &file, &name, options)?;
        return from_bytes(&bytes, &name, options);
    }
    let mut head = vec![0u8; 4096];
    let got = file
        .read_at(&mut head, 0)
        .map_err(|e| ParseError::io(&name, &e))?;
    head.truncate(got);
    let format = options
        .format
        .unwrap_or_else(|| InputFormat::detect(&name, &head));
    let len = meta.len();
    let threads = rayon::current_num_threads() as u64;
    let forward = options.rows == Rows::Both;
    let graph = match format {
        InputFormat::Binary => {
            let (n, m) = binary::graph_counts(&file, &name)?;
            let solving = memory::estimate(Job {
                nodes: n,
                edges: m,
                forward,
                threads,
            })
            .solving;
            let estimate = Estimate {
                graph: len,
                loading: if forward { 0 } else { 4 * n },
                solving,
            };
            check_memory(&name, estimate, options)?;
            let g = phase(options, "map", None, || {
                if options.mmap {
                    binary::open_graph(&file, &name)
                } else {
                    binary::read_graph(&file, &name)
                }
            })?;
            if forward {
                LoadedGraph::Full(g)
            } else {
                LoadedGraph::Reverse(binary::reverse_half(g))
            }
        }
        InputFormat::Edges => {
            let (n, m) = text_header::<2>(&file, &name)?.map_or((0, 0), |[n, m]| (n, m));
            if n <= MAX_NODES {
                let estimate = memory::estimate(Job {
                    nodes: n,
                    // Each edge needs at least four bytes; a lying header is the parser's.
                    edges: m.min(len / 4),
                    forward,
                    threads,
                });
                check_memory(&name, estimate, options)?;
            }
            let counter = AtomicU64::new(0);
            phase(options, "load", Some(2 * len), || {
                let c = options.progress.map_or(&counter, |p| p.counter());
                if forward {
                    super::read_edge_list(&file, &name, c).map(LoadedGraph::Full)
                } else {
                    super::read_edge_list_reverse(&file, &name, c).map(LoadedGraph::Reverse)
                }
            })?
        }
        InputFormat::Json | InputFormat::TwoPlayer => {
            check_memory(&name, memory::estimate_in_memory(0, 0, len), options)?;
            let bytes = phase(options, "read", None, || {
                std::fs::read(path).map_err(|e| ParseError::io(&name, &e))
            })?;
            let (graph, rules, name, format) = from_bytes(&bytes, &name, options)?;
            return Ok((graph, rules, name, format));
        }
    };
    Ok((graph, Rules::normal(), name, format))
}

/// Reads a stream to its end, stopping at the memory limit. A text graph is read line by line
/// through its format's [`LineCheck`](super::stream::LineCheck), so an endless stream fails on
/// its first bad line (a NUL byte, a line that is not the format's) holding one line in memory.
fn read_stream(
    reader: &mut dyn Read,
    name: &str,
    options: &LoadOptions<'_>,
) -> Result<Vec<u8>, ParseError> {
    use super::stream::{read_checked, read_lines, AnyLine, LineReader, NumberLines};
    let cap = options.memory.input_cap();
    // Enough of the start to tell the format (a binary graph's magic, JSON's `{`).
    let mut head = Vec::new();
    let mut chunk = vec![0u8; 1 << 16];
    while head.len() < 64 {
        match reader.read(&mut chunk) {
            Ok(0) => break,
            Ok(got) => head.extend_from_slice(&chunk[..got]),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(ParseError::io(name, &e)),
        }
    }
    let format = options
        .format
        .unwrap_or_else(|| InputFormat::detect(name, &head));
    let rest = head.as_slice().chain(reader);
    match format {
        InputFormat::Edges => read_checked(rest, name, cap, &mut NumberLines::edge_list()),
        InputFormat::TwoPlayer => read_checked(rest, name, cap, &mut NumberLines::two_player()),
        // JSON may be one long line: only the memory limit bounds it.
        InputFormat::Json => {
            let lines =
                LineReader::new(rest, name).with_max_line(cap.min(usize::MAX as u64) as usize);
            read_lines(lines, cap, &mut AnyLine)
        }
        InputFormat::Binary => read_binary_stream(rest, name, options, cap),
    }
}

/// A binary graph from a stream: read whole, up to the memory limit.
fn read_binary_stream(
    mut reader: impl Read,
    name: &str,
    options: &LoadOptions<'_>,
    cap: u64,
) -> Result<Vec<u8>, ParseError> {
    let mut bytes = Vec::new();
    let mut chunk = vec![0u8; 1 << 16];
    loop {
        let got = match reader.read(&mut chunk) {
            Ok(0) => break,
            Ok(got) => got,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(ParseError::io(name, &e)),
        };
        bytes.extend_from_slice(&chunk[..got]);
        if bytes.len() <= (1 << 16) {
            // Judge the first 64 KiB early: /dev/zero or /dev/urandom must not be read forever.
            if let Some(e) = binary_noise(&bytes, name, options.format) {
                return Err(e);
            }
        }
        if bytes.len() as u64 > cap {
            return Err(ParseError::whole(
                name,
                format!("the input is larger than the memory limit ({cap} bytes) allows"),
            )
            .with_kind(ErrorKind::TooBig));
        }
    }
    Ok(bytes)
}

/// A NUL byte in what should be text: the text formats never contain one.
fn binary_noise(bytes: &[u8], name: &str, format: Option<InputFormat>) -> Option<ParseError> {
    let text = match format {
        Some(f) => f != InputFormat::Binary,
        None => !binary::is_binary_graph(bytes) && !binary::GRAPH_MAGIC.starts_with(bytes),
    };
    let at = memchr::memchr(0, bytes)?;
    text.then(|| {
        ParseError::whole(
            name,
            format!("binary data (a NUL byte at offset {at}): expected a text graph"),
        )
    })
}

/// Parses a whole input held in memory, after the size and memory checks.
fn from_bytes(bytes: &[u8], name: &str, options: &LoadOptions<'_>) -> Result<Parts, ParseError> {
    let format = options
        .format
        .unwrap_or_else(|| InputFormat::detect(name, bytes));
    if format != InputFormat::Binary {
        if let Some(e) = binary_noise(bytes, name, Some(format)) {
            return Err(e);
        }
    }
    if let Some((nodes, edges)) = declared_size(bytes, format)? {
        if nodes > MAX_NODES {
            return Err(ParseError::whole(
                name,
                format!("{nodes} nodes is more than the supported maximum of {MAX_NODES}"),
            )
            .with_kind(ErrorKind::TooBig));
        }
        let estimate = memory::estimate_in_memory(nodes, edges.min(bytes.len() as u64), 0);
        check_memory(name, estimate, options)?;
    }
    let (graph, rules) = match format {
        InputFormat::Edges => (
            LoadedGraph::Full(super::parse_edge_list(bytes, name)?),
            Rules::normal(),
        ),
        InputFormat::Json => {
            let game = super::parse_json_graph(bytes, name)?;
            (LoadedGraph::Full(game.graph), game.rules)
        }
        InputFormat::TwoPlayer => (
            LoadedGraph::TwoPlayer(super::parse_two_player(bytes, name)?),
            Rules::normal(),
        ),
        InputFormat::Binary => {
            let g = binary::graph_from_bytes(bytes, name)?;
            let graph = match options.rows {
                Rows::Both => LoadedGraph::Full(g),
                Rows::ReverseOnly => LoadedGraph::Reverse(binary::reverse_half(g)),
            };
            (graph, Rules::normal())
        }
    };
    Ok((graph, rules, name.to_string(), format))
}

/// The node and edge counts an input declares (states and moves for a two-player game), read
/// without building anything: the header line wherever it is (after any amount of comments),
/// the JSON `nodes` and the length of its `edges`, or the `.zg` header. `None` when the input is
/// malformed there (its parser will then say how).
///
/// # Errors
/// A damaged `.zg` header.
pub fn declared_size(bytes: &[u8], format: InputFormat) -> Result<Option<(u64, u64)>, ParseError> {
    Ok(match format {
        InputFormat::Edges => header_line::<2>(bytes).map(|[n, m]| (n, m)),
        InputFormat::TwoPlayer => {
            header_line::<3>(bytes).map(|[n, m0, m1]| (n.saturating_mul(2), m0.saturating_add(m1)))
        }
        InputFormat::Json => super::json::declared_size(bytes),
        InputFormat::Binary => Some(binary::counts_from_bytes(bytes, "input")?),
    })
}

fn header_line<const N: usize>(bytes: &[u8]) -> Option<[u64; N]> {
    let mut lx = Lexer::new(bytes, "");
    let line = lx.next_line()?;
    lx.numbers::<N>(line, "").ok()
}

/// The header of a text file, wherever it is: the first line with content.
fn text_header<const N: usize>(file: &File, name: &str) -> Result<Option<[u64; N]>, ParseError> {
    let mut offset = 0u64;
    let mut buf = vec![0u8; 1 << 16];
    let mut line: Vec<u8> = Vec::new();
    loop {
        let got = file
            .read_at(&mut buf, offset)
            .map_err(|e| ParseError::io(name, &e))?;
        if got == 0 {
            return Ok(header_line::<N>(&line));
        }
        offset += got as u64;
        for &b in &buf[..got] {
            line.push(b);
            if b == b'\n' {
                let mut lx = Lexer::new(&line, "");
                if lx.next_line().is_some() {
                    return Ok(header_line::<N>(&line));
                }
                line.clear();
            }
        }
    }
}

fn check_memory(
    name: &str,
    estimate: Estimate,
    options: &LoadOptions<'_>,
) -> Result<(), ParseError> {
    options
        .memory
        .check(estimate)
        .map_err(|m| ParseError::whole(name, m).with_kind(ErrorKind::TooBig))
}

fn phase<T>(
    options: &LoadOptions<'_>,
    name: &'static str,
    total: Option<u64>,
    work: impl FnOnce() -> T,
) -> T {
    if let Some(p) = options.progress {
        p.start(name, total);
    }
    let out = work();
    if let Some(p) = options.progress {
        p.finish();
    }
    out
}

/// The input's rules merged with the options' convention and verdicts.
fn merged_rules(
    loaded: &Loaded,
    base: &Rules,
    options: &LoadOptions<'_>,
) -> Result<Rules, ParseError> {
    let nodes = loaded.node_count();
    let mut extra: Vec<(u64, Outcome)> = Vec::new();
    let mut source = loaded.name.clone();
    if let Some(v) = options.verdicts {
        extra = match loaded.two_player() {
            Some(g) => super::parse_two_player_verdicts(v.text, v.name, g.position_count())?,
            None => super::parse_verdicts(v.text, v.name, nodes)?,
        };
        source = format!("{} and {}", loaded.name, v.name);
    }
    base.combined(options.misere, nodes, extra).map_err(|e| {
        ParseError::whole(&source, format!("verdicts: {e}")).with_kind(ErrorKind::OutOfRange)
    })
}

/// The text formats a game graph can be read from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InputFormat {
    /// Edge list: header `N M`, then `M` lines `u v`.
    Edges,
    /// JSON: `{"nodes": N, "edges": [[u, v], ...], "misere": false, "verdicts": [...]}`.
    Json,
    /// Partizan edge list: header `n m0 m1`, then player 0's and player 1's moves.
    TwoPlayer,
    /// zermelo's binary graph format (`.zg`), memory-mapped.
    Binary,
}

impl InputFormat {
    /// Guesses the format of a one-player graph from its name and first bytes: binary if it
    /// starts with the `.zg` magic number, JSON if the name ends in `.json` or the first
    /// non-blank byte is `{`, else an edge list.
    pub fn detect(name: &str, bytes: &[u8]) -> InputFormat {
        let first = bytes.iter().find(|b| !b.is_ascii_whitespace());
        if binary::is_binary_graph(bytes) {
            InputFormat::Binary
        } else if name.to_ascii_lowercase().ends_with(".json") || first == Some(&b'{') {
            InputFormat::Json
        } else {
            InputFormat::Edges
        }
    }
}
