//! A parity game file of either format: PGSolver's `parity N;` or SYNTCOMP's extended HOA
//! (`HOA:` first), told apart by the first non-blank line, as `zermelo parity` and
//! `zermelo.parity.load` read them; and the memory a game needs, judged from its text before
//! it is parsed.

use zermelo::io::stream::LineCheck;
use zermelo::io::ParseError;
use zermelo::memory::Estimate;

use super::{looks_like_hoa, parse_ehoa, parse_pgsolver, PgsolverLines};
use crate::Arena;

/// Parses a parity game in either format: extended HOA when the text starts with `HOA:`
/// (leading blank space aside), PGSolver otherwise.
///
/// # Errors
/// The format's parser's [`ParseError`] (source, line, what was expected).
pub fn parse_game(bytes: &[u8], source: &str) -> Result<Arena, ParseError> {
    if looks_like_hoa(bytes) {
        parse_ehoa(bytes, source)
    } else {
        parse_pgsolver(bytes, source)
    }
}

/// The line check of a streamed game of either format: the first non-blank line decides;
/// PGSolver lines are checked as they arrive, extended HOA's are left to its parser.
#[derive(Default)]
pub struct GameLines {
    hoa: Option<bool>,
    pgsolver: PgsolverLines,
}

impl LineCheck for GameLines {
    fn check(&mut self, number: u64, line: &[u8], source: &str) -> Result<(), ParseError> {
        if self.hoa.is_none() && line.iter().any(|b| !b.is_ascii_whitespace()) {
            self.hoa = Some(looks_like_hoa(line));
        }
        match self.hoa {
            Some(true) => Ok(()),
            _ => self.pgsolver.check(number, line, source),
        }
    }
}

/// The memory of parsing and solving a game, from its text, for a check before parsing: at
/// most one vertex per line and one move per comma plus one per line. Per move: the parser's
/// pair and the builder's keys (12 B, freed before solving) and the forward and reverse rows
/// (8 B); per vertex: the parser's arrays (6 B), row offsets (16 B), owner and priority (5 B),
/// the solver's state (about 32 B) and the solution (5 B). The text stays in memory until the
/// game is solved. Measured: 169 MiB peak for 10^6 vertices and 5.5 x 10^6 moves (50 MB of
/// text); this estimate gives 178 MiB.
pub fn estimate_memory(bytes: &[u8]) -> Estimate {
    let lines = bytes.iter().filter(|&&b| b == b'\n').count() as u64 + 1;
    let commas = bytes.iter().filter(|&&b| b == b',').count() as u64;
    let (vertices, moves) = (lines, commas.saturating_add(lines));
    Estimate {
        graph: (bytes.len() as u64)
            .saturating_add(moves.saturating_mul(8))
            .saturating_add(vertices.saturating_mul(21)),
        loading: moves
            .saturating_mul(12)
            .saturating_add(vertices.saturating_mul(6)),
        solving: vertices.saturating_mul(37),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use zermelo::io::stream::passes_whole;

    #[test]
    fn either_format_by_its_first_line() {
        let pg = b"parity 1;\n0 1 0 1;\n1 2 1 0;\n";
        assert_eq!(parse_game(pg, "g").unwrap().vertex_count(), 2);
        assert!(passes_whole(pg, &mut GameLines::default()));
        // A bad PGSolver line is refused by the check as it arrives; HOA lines are not checked.
        assert!(!passes_whole(
            b"parity 1;\nnonsense\n",
            &mut GameLines::default()
        ));
        assert!(passes_whole(
            b"\n  HOA: v1\nanything\n",
            &mut GameLines::default()
        ));
        let e = parse_game(b"HOA: v1\n", "spec.ehoa").unwrap_err();
        assert!(e.to_string().starts_with("spec.ehoa"), "{e}");
    }

    #[test]
    fn the_estimate_grows_with_the_text() {
        let small = estimate_memory(b"parity 1;\n0 1 0 1;\n");
        let large = estimate_memory(&b"0 1 0 1,2,3;\n".repeat(1000));
        assert!(large.graph > small.graph && large.solving > small.solving);
    }
}
