//! The seam between the server and a tablebase: the [`Tablebase`] trait and the `/api/tb`
//! endpoints built on it.
//!
//! The server knows nothing about chess. A tablebase crate (or anything else that labels
//! positions named by a string) implements [`Tablebase::probe`]; the `zermelo serve --tables DIR`
//! command opens it and passes it to [`AppState`](crate::AppState). Without one, every `/api/tb`
//! endpoint answers 404 `{"error": "no tablebases are served (start with --tables DIR)"}`.

/// A tablebase the server can probe.
pub trait Tablebase: Send + Sync + 'static {
    /// The position named by `fen`: its outcome and DTM for the side to move, and every legal
    /// move, best first.
    ///
    /// # Errors
    /// [`TablebaseError::BadFen`] for a malformed or illegal position (answered 400),
    /// [`TablebaseError::Unsupported`] for a legal position no table of this kind can hold (400),
    /// [`TablebaseError::NoTable`] when the table that covers it is missing or unusable (404).
    fn probe(&self, fen: &str) -> Result<PositionProbe, TablebaseError>;

    /// The position named by `fen` in the JSON shape of lichess's tablebase server
    /// (`GET /standard`: `category`, `dtz`, `precise_dtz`, `dtm`, `checkmate`, `stalemate`,
    /// `insufficient_material`, ... and `moves`, best first), so that a client written for
    /// lichess works unchanged. The default answers that this tablebase has no such view.
    ///
    /// # Errors
    /// As [`probe`](Tablebase::probe).
    fn standard(&self, fen: &str) -> Result<serde_json::Value, TablebaseError> {
        Err(TablebaseError::NoTable(format!(
            "{fen}: this tablebase does not answer /standard"
        )))
    }

    /// The line of play under the 50-move rule from `fen` in the JSON shape of lichess's
    /// tablebase server (`GET /standard/mainline`: `dtz`, `precise_dtz`, `mainline` as
    /// `{uci, san, dtz, precise_dtz}` steps, `winner` as `"w"`, `"b"` or `null`): best moves
    /// by DTZ from the FEN's halfmove clock until mate or until the clock reaches the rule
    /// (where a draw can be claimed); empty for a draw. The default answers that this
    /// tablebase has no such view.
    ///
    /// # Errors
    /// As [`probe`](Tablebase::probe).
    fn standard_mainline(&self, fen: &str) -> Result<serde_json::Value, TablebaseError> {
        Err(TablebaseError::NoTable(format!(
            "{fen}: this tablebase does not answer /standard/mainline"
        )))
    }
}

/// Why a probe failed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TablebaseError {
    /// The FEN is malformed or the position illegal.
    #[error("bad FEN: {0}")]
    BadFen(String),
    /// A legal position outside what the tables hold (chess: more than 6 pieces).
    #[error("no table holds this position: {0}")]
    Unsupported(String),
    /// The table that covers the position is missing or unusable.
    #[error("no table for this position: {0}")]
    NoTable(String),
}

pub use zermelo::report::{MoveProbe, PositionProbe};

/// The longest main line `/api/tb/mainline` follows, a guard against a table with a cycle bug.
pub const MAX_MAINLINE: usize = 1_000;

/// Optimal play from `fen`: the best move of each position until none is left (mate,
/// stalemate) or the position is a draw, where play could go on forever.
///
/// # Errors
/// The first failed probe.
pub fn mainline(tb: &dyn Tablebase, fen: &str) -> Result<Vec<MoveProbe>, TablebaseError> {
    let mut line = Vec::new();
    let mut here = tb.probe(fen)?;
    while here.outcome != zermelo::Outcome::Draw && line.len() < MAX_MAINLINE {
        let Some(best) = here.moves.first().cloned() else {
            break;
        };
        here = tb.probe(&best.fen)?;
        line.push(best);
    }
    Ok(line)
}
