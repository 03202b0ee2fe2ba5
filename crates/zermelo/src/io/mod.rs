//! Reading and writing games and solutions. Formats are specified in `docs/formats.md`.
//!
//! Parsers take the input as bytes plus a name for messages (a file name, `<stdin>`), so they can
//! be tested and fuzzed without files. Every failure is a [`ParseError`] naming the source, the
//! line (when there is one) and what was expected; no input makes a parser panic.

pub mod binary;
mod edgelist;
mod json;
mod lexer;
pub use lexer::lossy;
pub(crate) mod mapped;
mod open;
mod parallel;
mod radix;
mod scan;
mod solution_csv;
pub mod stream;
mod two_player;
mod verdicts;

use std::fmt;

pub use edgelist::{parse_edge_list, write_edge_list, write_graph_edge_list};
pub use json::{parse_json_graph, JsonGame};
pub use mapped::Mapping;
pub use open::{
    declared_size, open, InputFormat, LoadOptions, LoadProgress, Loaded, LoadedGraph, Rows, Source,
    Verdicts,
};
pub use parallel::{read_edge_list, read_edge_list_reverse, EdgeListRanges};
pub use radix::{Away, TooManyMoves, WindowPart, WindowRows};
pub use scan::{edge_list_header, Progress, ReadAt};
pub use solution_csv::{
    parse_solution_csv, write_solution_csv, write_two_player_csv, ClaimedSolution,
    SolutionCsvLines, CSV_HEADER, TWO_PLAYER_CSV_HEADER,
};
pub use two_player::parse_two_player;
pub use verdicts::{parse_two_player_verdicts, parse_verdicts, VerdictLines};

/// What kind of problem a [`ParseError`] is, so that front ends can map it to an exit code or an
/// HTTP status in one place.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The input could not be read (missing file, permissions, a read error).
    Io,
    /// The text does not follow the format (the default).
    #[default]
    Syntax,
    /// A well-formed value outside what the input allows (a node id past `N`, a count too large).
    OutOfRange,
    /// The input ends before what its header announced.
    Truncated,
    /// A binary file whose checksum or structure is wrong.
    Corrupt,
    /// The input is valid but over a size limit (nodes, edges, memory).
    TooBig,
    /// Well-formed values that contradict each other in a claim (a solution row with a draw and
    /// a depth, or a win without one): the claim is wrong rather than unreadable.
    Inconsistent,
}

impl ErrorKind {
    /// A short lower-case name (`io`, `syntax`, `out-of-range`, `truncated`, `corrupt`,
    /// `too-big`, `inconsistent`).
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorKind::Io => "io",
            ErrorKind::Syntax => "syntax",
            ErrorKind::OutOfRange => "out-of-range",
            ErrorKind::Truncated => "truncated",
            ErrorKind::Corrupt => "corrupt",
            ErrorKind::TooBig => "too-big",
            ErrorKind::Inconsistent => "inconsistent",
        }
    }
}

/// Bad input: where it is, what was expected and what kind of problem it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// The input's name (a path or `<stdin>`).
    pub source: String,
    /// 1-based line number, when the problem is on one line.
    pub line: Option<u64>,
    /// What is wrong and what was expected.
    pub message: String,
    /// The kind of problem ([`ErrorKind::Syntax`] unless a constructor says otherwise).
    pub kind: ErrorKind,
}

impl ParseError {
    /// A syntax error on `line` of `source`.
    pub fn at(source: &str, line: u64, message: impl Into<String>) -> ParseError {
        ParseError {
            source: source.to_string(),
            line: Some(line),
            message: message.into(),
            kind: ErrorKind::Syntax,
        }
    }

    /// A syntax error about `source` as a whole.
    pub fn whole(source: &str, message: impl Into<String>) -> ParseError {
        ParseError {
            source: source.to_string(),
            line: None,
            message: message.into(),
            kind: ErrorKind::Syntax,
        }
    }

    /// `source` could not be read.
    pub fn io(source: &str, error: &std::io::Error) -> ParseError {
        ParseError::whole(source, format!("cannot read: {error}")).with_kind(ErrorKind::Io)
    }

    /// The same error with another kind.
    #[must_use]
    pub fn with_kind(mut self, kind: ErrorKind) -> ParseError {
        self.kind = kind;
        self
    }

    /// The kind of problem.
    pub fn kind(&self) -> ErrorKind {
        self.kind
    }
}

/// Gives a [`GraphError`](crate::graph::GraphError) its kind: too many nodes is
/// [`ErrorKind::TooBig`], everything else [`ErrorKind::OutOfRange`].
pub fn graph_error(e: ParseError, cause: &crate::graph::GraphError) -> ParseError {
    match cause {
        crate::graph::GraphError::TooManyNodes(_)
        | crate::graph::GraphError::TooManyPositions(_) => e.with_kind(ErrorKind::TooBig),
        _ => e.with_kind(ErrorKind::OutOfRange),
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(line) => write!(f, "{}:{}: {}", self.source, line, self.message),
            None => write!(f, "{}: {}", self.source, self.message),
        }
    }
}

impl std::error::Error for ParseError {}

/// Appends the decimal digits of `v` (the writers' fast path: no formatting machinery).
pub fn push_u64(buf: &mut Vec<u8>, mut v: u64) {
    let mut digits = [0u8; 20];
    let mut i = digits.len();
    loop {
        i -= 1;
        digits[i] = b'0' + (v % 10) as u8;
        v /= 10;
        if v == 0 {
            break;
        }
    }
    buf.extend_from_slice(&digits[i..]);
}
