//! Solutions as CSV: `node,outcome,depth,best_move` (or, for two-player games,
//! `position,to_move,outcome,depth,best_move`). `depth` and `best_move` are empty where undefined.

use std::io::{self, Write};

use super::lexer::lossy;
use super::{ErrorKind, ParseError};
use crate::graph::{Csr, Rules, TwoPlayerGraph};
use crate::outcome::{Depth, NodeId, Outcome, Player};
use crate::solve::{best_move, Solution};

/// Header of a one-player solution CSV.
pub const CSV_HEADER: &str = "node,outcome,depth,best_move";
/// Header of a two-player solution CSV.
pub const TWO_PLAYER_CSV_HEADER: &str = "position,to_move,outcome,depth,best_move";

/// Writes one row per node, with the best move derived from the solution.
///
/// # Errors
/// Any error of `out`.
pub fn write_solution_csv(
    out: &mut (impl Write + ?Sized),
    graph: &Csr,
    rules: &Rules,
    solution: &Solution,
) -> io::Result<()> {
    writeln!(out, "{CSV_HEADER}")?;
    for u in graph.nodes() {
        write!(out, "{u},")?;
        write_label(out, solution, u)?;
        write_opt(out, best_move(graph, rules, solution, u))?;
        out.write_all(b"\n")?;
    }
    Ok(())
}

/// Writes one row per `(position, player to move)`; `best_move` is the position moved to.
///
/// # Errors
/// Any error of `out`.
pub fn write_two_player_csv(
    out: &mut (impl Write + ?Sized),
    game: &TwoPlayerGraph,
    rules: &Rules,
    solution: &Solution,
) -> io::Result<()> {
    writeln!(out, "{TWO_PLAYER_CSV_HEADER}")?;
    for s in game.states().nodes() {
        let (position, player) = TwoPlayerGraph::split(s);
        write!(out, "{position},{player},")?;
        write_label(out, solution, s)?;
        let mv = best_move(game.states(), rules, solution, s).map(|t| TwoPlayerGraph::split(t).0);
        write_opt(out, mv)?;
        out.write_all(b"\n")?;
    }
    Ok(())
}

fn write_label(out: &mut (impl Write + ?Sized), solution: &Solution, u: NodeId) -> io::Result<()> {
    write!(out, "{},", solution.outcome(u))?;
    write_opt(out, solution.depth(u).map(|d| d.0))?;
    out.write_all(b",")
}

fn write_opt(out: &mut (impl Write + ?Sized), value: Option<u32>) -> io::Result<()> {
    match value {
        Some(v) => write!(out, "{v}"),
        None => Ok(()),
    }
}

/// A solution read back from CSV, to be checked by [`verify`](crate::solve::verify).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClaimedSolution {
    /// Outcomes and depths, indexed by node (state for two-player games).
    pub solution: Solution,
    /// Best moves (as node or state ids), when the file has a `best_move` column.
    pub best_moves: Option<Vec<Option<NodeId>>>,
    /// Whether the file was in the two-player layout.
    pub two_player: bool,
}

/// Parses a solution CSV for a graph of `nodes` nodes (`2 × positions` states for a two-player
/// game). The layout is told by the header; every node must appear exactly once, in any order.
///
/// # Errors
/// A [`ParseError`] naming the line: an unknown header, a malformed or duplicate row, an
/// out-of-range id, a WIN/LOSE without depth or a DRAW with one, or a missing node.
pub fn parse_solution_csv(
    bytes: &[u8],
    source: &str,
    nodes: usize,
) -> Result<ClaimedSolution, ParseError> {
    let text = std::str::from_utf8(bytes)
        .map_err(|e| ParseError::whole(source, format!("not UTF-8 text: {e}")))?;
    let mut lines = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i as u64 + 1, l.trim_end_matches('\r')));
    let (header_line, header) = lines
        .by_ref()
        .find(|(_, l)| !l.trim().is_empty())
        .ok_or_else(|| {
            ParseError::at(
                source,
                1,
                format!("empty input: expected the header `{CSV_HEADER}`"),
            )
        })?;
    let layout = Layout::from_header(header.trim())
        .ok_or_else(|| header_error(source, header_line, header))?;
    let mut rows = Rows::new(nodes, layout.has_best_move);
    for (line, row) in lines {
        if row.trim().is_empty() {
            continue;
        }
        rows.add(&layout, row, nodes).map_err(|e| match e {
            RowError::Malformed(m) => ParseError::at(source, line, m),
            RowError::Inconsistent(m) => {
                ParseError::at(source, line, m).with_kind(ErrorKind::Inconsistent)
            }
        })?;
    }
    rows.finish(layout)
        .map_err(|m| ParseError::whole(source, m))
}

fn header_error(source: &str, line: u64, header: &str) -> ParseError {
    ParseError::at(
        source,
        line,
        format!(
            "expected the header `{CSV_HEADER}` or `{TWO_PLAYER_CSV_HEADER}` (best_move \
             optional), found {:?}",
            lossy(header.as_bytes())
        ),
    )
}

/// The syntax of a solution CSV line by line, for input read as it arrives
/// ([`read_checked`](super::stream::read_checked)): the header, then rows of the right width
/// with numbers and an outcome where [`parse_solution_csv`] wants them. Ranges, duplicates and
/// missing rows need the game and the whole file: they are left to [`parse_solution_csv`].
#[derive(Default)]
pub struct SolutionCsvLines {
    layout: Option<Layout>,
}

impl super::stream::LineCheck for SolutionCsvLines {
    fn check(&mut self, number: u64, line: &[u8], source: &str) -> Result<(), ParseError> {
        let row = std::str::from_utf8(line)
            .map_err(|e| ParseError::at(source, number, format!("not UTF-8 text: {e}")))?
            .trim_end_matches('\r');
        if row.trim().is_empty() {
            return Ok(());
        }
        match &self.layout {
            None => {
                let layout = Layout::from_header(row.trim())
                    .ok_or_else(|| header_error(source, number, row))?;
                self.layout = Some(layout);
                Ok(())
            }
            Some(layout) => row_syntax(layout, row).map_err(|m| ParseError::at(source, number, m)),
        }
    }
}

/// What [`Rows::add`] reads of a row, without the ranges it checks against the game.
fn row_syntax(layout: &Layout, row: &str) -> Result<(), String> {
    let fields: Vec<&str> = row.split(',').map(str::trim).collect();
    if fields.len() != layout.width() {
        return Err(format!(
            "expected {} comma-separated fields, found {}",
            layout.width(),
            fields.len()
        ));
    }
    let ids = 1 + usize::from(layout.two_player);
    for field in &fields[..ids] {
        number(field, if ids == 1 { "node" } else { "position" }, None)?;
    }
    let rest = &fields[ids..];
    rest[0].parse::<Outcome>().map_err(|e| format!("{e}"))?;
    if !rest[1].is_empty() {
        number(rest[1], "depth", None)?;
    }
    if layout.has_best_move && !rest[2].is_empty() {
        number(rest[2], "best_move", None)?;
    }
    Ok(())
}

struct Layout {
    two_player: bool,
    has_best_move: bool,
}

impl Layout {
    fn from_header(header: &str) -> Option<Layout> {
        let fields: Vec<&str> = header.split(',').map(str::trim).collect();
        let (two_player, rest) = match fields.as_slice() {
            ["node", rest @ ..] => (false, rest),
            ["position", "to_move", rest @ ..] => (true, rest),
            _ => return None,
        };
        let has_best_move = match rest {
            ["outcome", "depth"] => false,
            ["outcome", "depth", "best_move"] => true,
            _ => return None,
        };
        Some(Layout {
            two_player,
            has_best_move,
        })
    }

    fn width(&self) -> usize {
        3 + usize::from(self.two_player) + usize::from(self.has_best_move)
    }
}

/// Why a row was refused: it cannot be read, or it reads but claims the impossible.
enum RowError {
    Malformed(String),
    Inconsistent(String),
}

impl From<String> for RowError {
    fn from(m: String) -> RowError {
        RowError::Malformed(m)
    }
}

struct Rows {
    outcomes: Vec<Outcome>,
    depths: Vec<Option<Depth>>,
    best_moves: Vec<Option<NodeId>>,
    seen: Vec<bool>,
}

impl Rows {
    fn new(nodes: usize, has_best_move: bool) -> Rows {
        Rows {
            outcomes: vec![Outcome::Draw; nodes],
            depths: vec![None; nodes],
            best_moves: if has_best_move {
                vec![None; nodes]
            } else {
                Vec::new()
            },
            seen: vec![false; nodes],
        }
    }

    fn add(&mut self, layout: &Layout, row: &str, nodes: usize) -> Result<(), RowError> {
        let fields: Vec<&str> = row.split(',').map(str::trim).collect();
        if fields.len() != layout.width() {
            return Err(RowError::Malformed(format!(
                "expected {} comma-separated fields, found {}",
                layout.width(),
                fields.len()
            )));
        }
        let (node, rest) = if layout.two_player {
            let positions = nodes as u64 / 2;
            let p = number(fields[0], "position", Some(positions))?;
            let player = number(fields[1], "to_move", Some(2))?;
            (2 * p + player, &fields[2..])
        } else {
            (number(fields[0], "node", Some(nodes as u64))?, &fields[1..])
        };
        let i = node as usize;
        if std::mem::replace(&mut self.seen[i], true) {
            return Err(format!("a second row for {}", describe(layout, node)).into());
        }
        let outcome: Outcome = rest[0].parse().map_err(|e| format!("{e}"))?;
        let depth = match rest[1] {
            "" => None,
            d => Some(Depth(number(d, "depth", Some(u64::from(u32::MAX)))? as u32)),
        };
        match (outcome, depth) {
            (Outcome::Draw, Some(_)) => {
                return Err(RowError::Inconsistent(format!(
                    "{}: a draw has no depth: leave it empty",
                    describe(layout, node)
                )))
            }
            (Outcome::Win | Outcome::Lose, None) => {
                return Err(RowError::Inconsistent(format!(
                    "{}: a {outcome} needs a depth",
                    describe(layout, node)
                )))
            }
            _ => {}
        }
        self.outcomes[i] = outcome;
        self.depths[i] = depth;
        if layout.has_best_move && !rest[2].is_empty() {
            let bound = if layout.two_player { nodes / 2 } else { nodes } as u64;
            let target = number(rest[2], "best_move", Some(bound))?;
            let state = if layout.two_player {
                2 * target + (1 - node % 2)
            } else {
                target
            };
            self.best_moves[i] = Some(state as NodeId);
        }
        Ok(())
    }

    fn finish(self, layout: Layout) -> Result<ClaimedSolution, String> {
        if let Some(missing) = self.seen.iter().position(|&s| !s) {
            let total = self.seen.iter().filter(|&&s| !s).count();
            return Err(format!(
                "no row for {} ({total} missing in all)",
                describe(&layout, missing as u64)
            ));
        }
        Ok(ClaimedSolution {
            solution: Solution::from_parts(self.outcomes, self.depths),
            best_moves: layout.has_best_move.then_some(self.best_moves),
            two_player: layout.two_player,
        })
    }
}

fn describe(layout: &Layout, node: u64) -> String {
    if layout.two_player {
        let player = Player::from_index(node % 2).unwrap_or(Player::Zero);
        format!("position {} with player {player} to move", node / 2)
    } else {
        format!("node {node}")
    }
}

fn number(field: &str, what: &str, bound: Option<u64>) -> Result<u64, String> {
    let value: u64 = field
        .parse()
        .ok()
        .filter(|_| field.bytes().all(|b| b.is_ascii_digit()))
        .ok_or_else(|| format!("expected {what} to be a non-negative integer, found {field:?}"))?;
    match bound {
        Some(b) if value >= b => Err(format!(
            "{what} {value} is out of range (must be below {b})"
        )),
        _ => Ok(value),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::retrograde;

    #[test]
    fn round_trip() {
        let g = Csr::from_edges(5, [(0, 1), (0, 2), (1, 3), (2, 1), (2, 4), (4, 2)]).unwrap();
        let r = Rules::normal();
        let s = retrograde(&g, &r);
        let mut out = Vec::new();
        write_solution_csv(&mut out, &g, &r, &s).unwrap();
        let text = String::from_utf8(out.clone()).unwrap();
        assert_eq!(
            text,
            "node,outcome,depth,best_move\n0,draw,,2\n1,win,1,3\n2,draw,,4\n3,lose,0,\n4,draw,,2\n"
        );
        let back = parse_solution_csv(&out, "s.csv", 5).unwrap();
        assert_eq!(back.solution, s);
        assert_eq!(
            back.best_moves.unwrap(),
            vec![Some(2), Some(3), Some(4), None, Some(2)]
        );
    }

    #[test]
    fn two_player_round_trip() {
        let game = TwoPlayerGraph::from_moves(2, [&[(0, 1)], &[(1, 0)]]).unwrap();
        let r = Rules::normal();
        let s = retrograde(game.states(), &r);
        let mut out = Vec::new();
        write_two_player_csv(&mut out, &game, &r, &s).unwrap();
        let back = parse_solution_csv(&out, "s.csv", 4).unwrap();
        assert!(back.two_player);
        assert_eq!(back.solution, s);
        assert_eq!(back.best_moves.unwrap(), vec![Some(3), None, None, Some(0)]);
    }

    #[test]
    fn malformed_rows_name_the_line() {
        let err = |t: &str| {
            parse_solution_csv(t.as_bytes(), "s", 2)
                .unwrap_err()
                .to_string()
        };
        assert!(err("").starts_with("s:1: empty input"));
        assert!(err("id,outcome\n").starts_with("s:1: expected the header"));
        assert_eq!(
            err("node,outcome,depth\n0,win,\n"),
            "s:2: node 0: a win needs a depth"
        );
        assert_eq!(
            err("node,outcome,depth\n0,draw,1\n"),
            "s:2: node 0: a draw has no depth: leave it empty"
        );
        assert_eq!(
            err("node,outcome,depth\n0,lose,0\n0,lose,0\n"),
            "s:3: a second row for node 0"
        );
        assert_eq!(
            err("node,outcome,depth\n0,lose,0\n"),
            "s: no row for node 1 (1 missing in all)"
        );
        assert!(err("node,outcome,depth\n7,lose,0\n").contains("node 7 is out of range"));
        assert!(err("node,outcome,depth\n0,lose\n").contains("expected 3 comma-separated fields"));
        assert!(err("node,outcome,depth\n0,lost,1\n").contains("expected win, lose or draw"));
    }
}
