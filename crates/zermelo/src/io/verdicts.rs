//! Explicit terminal verdicts: lines `node outcome` (or `position player outcome` for a
//! two-player game), `outcome` one of `win`, `lose`, `draw`.

use std::collections::HashMap;

use super::lexer::{lossy, Lexer};
use super::ParseError;
use crate::graph::TwoPlayerGraph;
use crate::outcome::{Outcome, Player};

/// Parses verdicts for a graph of `nodes` nodes.
///
/// ```
/// use zermelo::Outcome;
/// let v = zermelo::io::parse_verdicts(b"3 draw\n0 win # goal\n", "v.txt", 4).unwrap();
/// assert_eq!(v, vec![(3, Outcome::Draw), (0, Outcome::Win)]);
/// ```
///
/// # Errors
/// A [`ParseError`] naming the line: a malformed line, an unknown outcome, a node out of range,
/// or two different verdicts for one node.
pub fn parse_verdicts(
    bytes: &[u8],
    source: &str,
    nodes: usize,
) -> Result<Vec<(u64, Outcome)>, ParseError> {
    parse(bytes, source, "node", |lx, tokens| {
        let [node, outcome] = tokens else {
            return Err(lx.error(wrong_count("`node outcome`", tokens.len())));
        };
        let node = id(lx, node, nodes as u64, "node")?;
        Ok((node, outcome_of(lx, outcome)?))
    })
}

/// Parses verdicts for a two-player game of `positions` positions: lines
/// `position player outcome`, returned with state ids ([`TwoPlayerGraph::state`]).
///
/// # Errors
/// As [`parse_verdicts`], and for a player other than 0 or 1.
pub fn parse_two_player_verdicts(
    bytes: &[u8],
    source: &str,
    positions: usize,
) -> Result<Vec<(u64, Outcome)>, ParseError> {
    const WHAT: &str = "`position player outcome`";
    parse(bytes, source, "position and player", |lx, tokens| {
        let [position, player, outcome] = tokens else {
            return Err(lx.error(wrong_count(WHAT, tokens.len())));
        };
        let position = id(lx, position, positions as u64, "position")?;
        let player = id(lx, player, 2, "player")
            .ok()
            .and_then(Player::from_index)
            .ok_or_else(|| {
                lx.error(format!(
                    "expected a player 0 or 1, found {:?}",
                    lossy(player)
                ))
            })?;
        let state = TwoPlayerGraph::state(position as u32, player);
        Ok((u64::from(state), outcome_of(lx, outcome)?))
    })
}

fn parse(
    bytes: &[u8],
    source: &str,
    noun: &str,
    mut line_to_verdict: impl FnMut(&Lexer<'_>, &[&[u8]]) -> Result<(u64, Outcome), ParseError>,
) -> Result<Vec<(u64, Outcome)>, ParseError> {
    let mut lx = Lexer::new(bytes, source);
    let mut out = Vec::new();
    let mut seen: HashMap<u64, (Outcome, u64)> = HashMap::new();
    while let Some(line) = lx.next_line() {
        let tokens: Vec<&[u8]> = line
            .split(|b| b.is_ascii_whitespace())
            .filter(|t| !t.is_empty())
            .take(4)
            .collect();
        let (node, outcome) = line_to_verdict(&lx, &tokens)?;
        if let Some(&(first, first_line)) = seen.get(&node) {
            if first != outcome {
                return Err(lx.error(format!(
                    "verdict {outcome} contradicts verdict {first} for the same {noun} on line \
                     {first_line}"
                )));
            }
            continue;
        }
        seen.insert(node, (outcome, lx.line()));
        out.push((node, outcome));
    }
    Ok(out)
}

/// The syntax of a verdict file line by line, for input read as it arrives
/// ([`read_checked`](super::stream::read_checked)): `node outcome` or `position player
/// outcome` (which one needs the game: both are let through), ids as numbers, outcomes as
/// words. Ranges and contradictions are left to [`parse_verdicts`].
#[derive(Default)]
pub struct VerdictLines;

impl super::stream::LineCheck for VerdictLines {
    fn check(&mut self, number: u64, line: &[u8], source: &str) -> Result<(), ParseError> {
        let mut lx = Lexer::new(line, source);
        let Some(content) = lx.next_line() else {
            return Ok(());
        };
        let at = |e: ParseError| ParseError {
            line: Some(number),
            ..e
        };
        let tokens: Vec<&[u8]> = content
            .split(|b| b.is_ascii_whitespace())
            .filter(|t| !t.is_empty())
            .take(4)
            .collect();
        let Some((outcome, ids)) = tokens
            .split_last()
            .filter(|_| (2..=3).contains(&tokens.len()))
        else {
            let what = "`node outcome` (or `position player outcome`)";
            return Err(at(lx.error(wrong_count(what, tokens.len()))));
        };
        for token in ids {
            id(&lx, token, u64::MAX, "node").map_err(at)?;
        }
        outcome_of(&lx, outcome).map(drop).map_err(at)
    }
}

fn wrong_count(what: &str, found: usize) -> String {
    format!("expected a verdict {what}, found {found} field(s)")
}

fn id(lx: &Lexer<'_>, token: &[u8], bound: u64, what: &str) -> Result<u64, ParseError> {
    let digits = !token.is_empty() && token.iter().all(u8::is_ascii_digit);
    if !digits {
        return Err(lx.error(format!(
            "expected a {what} id (a non-negative integer), found {:?}",
            lossy(token)
        )));
    }
    match std::str::from_utf8(token)
        .ok()
        .and_then(|t| t.parse::<u64>().ok())
    {
        Some(v) if v < bound => Ok(v),
        _ => Err(lx.error(format!(
            "{what} {} is out of range: the game has {bound} {what}s (ids 0..{bound})",
            lossy(token)
        ))),
    }
}

fn outcome_of(lx: &Lexer<'_>, token: &[u8]) -> Result<Outcome, ParseError> {
    std::str::from_utf8(token)
        .ok()
        .and_then(|t| t.parse().ok())
        .ok_or_else(|| {
            lx.error(format!(
                "expected an outcome win, lose or draw, found {:?}",
                lossy(token)
            ))
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(text: &str) -> String {
        parse_verdicts(text.as_bytes(), "v", 3)
            .unwrap_err()
            .to_string()
    }

    #[test]
    fn malformed_verdicts_name_the_line() {
        assert_eq!(
            err("0 win\n1 maybe\n"),
            "v:2: expected an outcome win, lose or draw, found \"maybe\""
        );
        assert_eq!(
            err("5 win\n"),
            "v:1: node 5 is out of range: the game has 3 nodes (ids 0..3)"
        );
        assert_eq!(
            err("x win\n"),
            "v:1: expected a node id (a non-negative integer), found \"x\""
        );
        assert_eq!(
            err("1\n"),
            "v:1: expected a verdict `node outcome`, found 1 field(s)"
        );
        assert_eq!(
            err("1 win extra\n"),
            "v:1: expected a verdict `node outcome`, found 3 field(s)"
        );
        assert_eq!(
            err("1 win\n\n1 lose\n"),
            "v:3: verdict lose contradicts verdict win for the same node on line 1"
        );
        assert_eq!(parse_verdicts(b"1 win\n1 WIN\n", "v", 3).unwrap().len(), 1);
    }

    #[test]
    fn two_player_verdicts_map_to_states() {
        let v = parse_two_player_verdicts(b"1 1 lose\n0 0 draw\n", "v", 2).unwrap();
        assert_eq!(v, vec![(3, Outcome::Lose), (0, Outcome::Draw)]);
        let e = parse_two_player_verdicts(b"1 2 lose\n", "v", 2).unwrap_err();
        assert_eq!(e.to_string(), "v:1: expected a player 0 or 1, found \"2\"");
    }
}
