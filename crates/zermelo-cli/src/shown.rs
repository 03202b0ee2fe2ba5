//! What the game and value commands print: a few lines for people, or one JSON object
//! (`--format json`).

use std::io::{self, Write};

use clap::ValueEnum;
use serde_json::Value as Json;

/// `--format` of the games: a table for people, or one JSON object.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum Shown {
    /// Lines of text.
    #[default]
    Table,
    /// One JSON object.
    Json,
}

/// `1 ply`, `3 plies`; `1 coin`, `2 coins`: a count with its noun.
pub fn count(n: impl Into<u64>, one: &str, many: &str) -> String {
    let n = n.into();
    format!("{n} {}", if n == 1 { one } else { many })
}

/// What a game prints: lines for the table, one object for JSON; and, for a report that lacks
/// what was asked (a value past a work limit), why: printed, then exit 2.
pub struct Report {
    lines: Vec<String>,
    json: Json,
    missing: Option<String>,
}

impl Report {
    /// A report from its JSON object; lines are added with [`Report::line`].
    pub fn new(json: Json) -> Report {
        Report {
            lines: Vec::new(),
            json,
            missing: None,
        }
    }

    /// Adds a line of the table.
    pub fn line(&mut self, text: impl Into<String>) {
        self.lines.push(text.into());
    }

    /// Marks the report as lacking what was asked, and why: the command prints it and fails
    /// with exit 2 ([`Report::missing`]).
    pub fn lacks(&mut self, why: impl Into<String>) {
        self.missing = Some(why.into());
    }

    /// The failure a report lacking what was asked ends with, after it is printed.
    pub fn missing(&self) -> Option<crate::error::Failure> {
        self.missing.as_ref().map(crate::error::Failure::input)
    }

    pub fn write(&self, out: &mut dyn Write, format: Shown) -> io::Result<()> {
        match format {
            Shown::Table => self.lines.iter().try_for_each(|l| writeln!(out, "{l}")),
            Shown::Json => {
                serde_json::to_writer(&mut *out, &self.json)?;
                writeln!(out)
            }
        }
    }
}
