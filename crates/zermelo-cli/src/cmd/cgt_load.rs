//! What the `cgt` commands share: values read from a two-player file or written in notation,
//! and their failures as exit codes.

use std::path::Path;

use zermelo::graph::TwoPlayerGraph;
use zermelo::io::stream::NumberLines;
use zermelo::NodeId;
use zermelo_cgt::{self as cgt, CgtError, Value};

use crate::error::{CliResult, Failure};
use crate::read::read_text_input;

/// A two-player file, and its name: refused with exit 3 before anything is allocated when what
/// its header declares would not fit the memory limit (`zermelo_cgt::check_two_player_header`,
/// which Python's `zermelo.cgt.value` makes too).
pub fn load_game(file: &Path) -> CliResult<(String, TwoPlayerGraph)> {
    let (bytes, name) = read_text_input(file, &mut NumberLines::two_player())?;
    cgt::check_two_player_header(&bytes, crate::limits::memory_limit()).map_err(|e| match e {
        CgtError::TooBig(m) => Failure::TooBig(format!("{name}: {m}")),
        e => Failure::input(format!("{name}: {e}")),
    })?;
    let game = zermelo::io::parse_two_player(&bytes, &name)?;
    Ok((name, game))
}

/// The positions `at` checked against the file's size.
pub fn positions(name: &str, game: &TwoPlayerGraph, at: &[u64]) -> CliResult<Vec<NodeId>> {
    let n = game.position_count() as u64;
    at.iter()
        .map(|&p| {
            if p < n {
                Ok(p as NodeId)
            } else {
                Err(Failure::input(format!(
                    "{name}: position {p} is out of range: the game has {n} positions"
                )))
            }
        })
        .collect()
}

/// The canonical values of the positions `at` (acyclic below them).
pub fn short_values(name: &str, game: &TwoPlayerGraph, at: &[u64]) -> CliResult<Vec<Value>> {
    let starts = positions(name, game, at)?;
    let values = cgt::graph_values(game, &starts).map_err(|e| failure(name, e))?;
    Ok(starts
        .iter()
        .map(|&s| values[s as usize].expect("every start is valued"))
        .collect())
}

/// A value computation that failed on the input `name`: exit 2 for a cycle or bad input, 3
/// past a limit.
pub fn failure(name: &str, e: CgtError) -> Failure {
    match e {
        CgtError::Cycle(cycle) => Failure::input(format!(
            "{name}: the positions have a cycle ({cycle}); canonical forms are of short \
             (acyclic) games: `zermelo cgt value {name} --from NODE` gives a loopy position's \
             value"
        )),
        CgtError::TooBig(_) | CgtError::NumberTooLarge => crate::limits::cgt_too_big(name, e),
        e => Failure::input(format!("{name}: {e}")),
    }
}

/// A value written in CGSuite notation, evaluated with at most `max_work` steps.
pub fn parse_value(text: &str, max_work: u64) -> CliResult<Value> {
    Value::parse_with_work_limit(text, Some(max_work)).map_err(|e| {
        let hint = if e.message == CgtError::TooMuchWork(max_work).to_string() {
            "; raise the limit with --max-work"
        } else {
            ""
        };
        Failure::input(format!("value {text:?}: {e}{hint}"))
    })
}
