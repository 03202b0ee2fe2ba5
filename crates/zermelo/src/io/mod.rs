//! Reading and writing games and solutions. Formats are specified in `docs/formats.md`.
//!
//! Parsers take the input as bytes plus a name for messages (a file name, `<stdin>`), so they can
//! be tested and fuzzed without files. Every failure is a [`ParseError`] naming the source, the
//! line (when there is one) and what was expected; no input makes a parser panic.

pub mod binary;
mod edgelist;
mod json;
mod lexer;
pub(crate) mod mapped;
mod parallel;
mod radix;
mod solution_csv;
mod two_player;
mod verdicts;

use std::fmt;

pub use edgelist::parse_edge_list;
pub use json::{parse_json_graph, JsonGame};
pub use parallel::{edge_list_header, read_edge_list, read_edge_list_reverse, Progress, ReadAt};
pub use solution_csv::{
    parse_solution_csv, write_solution_csv, write_two_player_csv, ClaimedSolution, CSV_HEADER,
    TWO_PLAYER_CSV_HEADER,
};
pub use two_player::parse_two_player;
pub use verdicts::{parse_two_player_verdicts, parse_verdicts};

/// Bad input: where it is and what was expected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// The input's name (a path or `<stdin>`).
    pub source: String,
    /// 1-based line number, when the problem is on one line.
    pub line: Option<u64>,
    /// What is wrong and what was expected.
    pub message: String,
}

impl ParseError {
    pub(crate) fn at(source: &str, line: u64, message: impl Into<String>) -> ParseError {
        ParseError {
            source: source.to_string(),
            line: Some(line),
            message: message.into(),
        }
    }

    pub(crate) fn whole(source: &str, message: impl Into<String>) -> ParseError {
        ParseError {
            source: source.to_string(),
            line: None,
            message: message.into(),
        }
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
