//! The partizan edge-list format of seed 004: header `n m0 m1`, then `m0` moves `u v` of player
//! 0 (from `(u, 0)` to `(v, 1)`), then `m1` moves of player 1 (from `(u, 1)` to `(v, 0)`).

use super::edgelist::{expect_end, read_edges, reservation};
use super::lexer::Lexer;
use super::{ErrorKind, ParseError};
use crate::graph::TwoPlayerGraph;
use crate::outcome::Player;

/// Parses a two-player game.
///
/// ```
/// let g = zermelo::io::parse_two_player(b"2 1 0\n0 1\n", "p.txt").unwrap();
/// assert_eq!(g.position_count(), 2);
/// assert_eq!(g.states().edge_count(), 1);
/// ```
///
/// # Errors
/// A [`ParseError`] naming the line, as for [`parse_edge_list`](super::parse_edge_list).
pub fn parse_two_player(bytes: &[u8], source: &str) -> Result<TwoPlayerGraph, ParseError> {
    let mut lx = Lexer::new(bytes, source);
    let line = lx
        .next_line()
        .ok_or_else(|| lx.error("empty input: expected a header line `n m0 m1`".into()))?;
    let [n, m0, m1] = lx.numbers::<3>(
        line,
        "a header line `n m0 m1` (positions, moves of each player)",
    )?;
    let header_line = lx.line();
    let mut b = TwoPlayerGraph::builder(n)
        .map_err(|e| lx.error(e.to_string()).with_kind(ErrorKind::TooBig))?;
    b.reserve(reservation(m0.saturating_add(m1), bytes.len()));
    for (player, m) in [(Player::Zero, m0), (Player::One, m1)] {
        let what = format!("a move `u v` of player {player}");
        let plural = format!("moves of player {player}");
        read_edges(&mut lx, m, header_line, &what, &plural, |u, v| {
            TwoPlayerGraph::add_move(&mut b, n, player, u, v)
        })?;
    }
    expect_end(&mut lx, m0.saturating_add(m1), header_line)?;
    TwoPlayerGraph::from_state_builder(n, b)
        .map_err(|e| ParseError::whole(source, e.to_string()).with_kind(ErrorKind::OutOfRange))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_both_players_moves() {
        let g = parse_two_player(b"3 1 2\n0 1\n1 2\n2 0\n", "p").unwrap();
        let s = g.states();
        assert_eq!(s.node_count(), 6);
        assert_eq!(s.successors(TwoPlayerGraph::state(0, Player::Zero)), &[3]);
        assert_eq!(s.successors(TwoPlayerGraph::state(1, Player::One)), &[4]);
        assert_eq!(s.successors(TwoPlayerGraph::state(2, Player::One)), &[0]);
    }

    #[test]
    fn errors_name_the_line() {
        let e = parse_two_player(b"2 1 1\n0 1\n", "p").unwrap_err();
        assert_eq!(
            e.to_string(),
            "p:2: expected 1 moves of player 1 (header, line 1), but the input ends after 0"
        );
        let e = parse_two_player(b"2 1\n", "p").unwrap_err();
        assert!(e
            .to_string()
            .starts_with("p:1: expected a header line `n m0 m1`"));
        let e = parse_two_player(b"2 0 1\n0 5\n", "p").unwrap_err();
        assert!(e.to_string().starts_with("p:2: node 5 is out of range"));
    }
}
