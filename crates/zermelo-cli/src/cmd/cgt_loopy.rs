//! `zermelo cgt value|sum|show` on loopy games: positions of a two-player file from which play
//! can return (a cycle below them), and values written in the loopy notation. Each prints the
//! result for Left with Left and with Right moving first (`left_first`, `right_first`: win,
//! loss or draw, infinite play a draw), the outcome class where neither is a draw (else
//! `null`), and the value: a stopper in its simplest form, or the sides of a game that is not a
//! stopper (`S & T`, with `onside` and `offside` in JSON), or `null` with the reason when they
//! are not found. A sum's value is its components' values added (`zermelo_cgt::loopy::sum_of`),
//! its outcome that of the product graph where it fits.

use serde_json::{json, Value as Json};
use zermelo::graph::TwoPlayerGraph;
use zermelo_cgt::loopy::{loopy_value, sum_of, LoopyGraph, LoopyOutcome, Sides, Summand};
use zermelo_cgt::{CgtError, OutcomeClass};

use crate::error::{CliResult, Failure};
use crate::shown::Report;

/// Most positions of a sum's product graph (built for the outcome by retrograde analysis).
const MAX_SUM_POSITIONS: usize = 1 << 22;

/// The value of node `v` of `g`: a stopper's simplest form or a game's sides, or why there are
/// none.
pub fn value_of(g: &LoopyGraph, v: u32) -> CliResult<Result<Sides, String>> {
    loopy_value(g, v).map_err(|e| crate::limits::cgt_too_big("value", e))
}

fn who(class: OutcomeClass) -> &'static str {
    match class {
        OutcomeClass::L => "Left wins, whoever starts",
        OutcomeClass::R => "Right wins, whoever starts",
        OutcomeClass::N => "the first player wins",
        OutcomeClass::P => "the second player wins",
    }
}

/// The report's value, outcome and results, as JSON fields and lines; the reason when there is
/// no value (also JSON's `reason`).
pub fn describe(
    value: &Result<Sides, String>,
    outcome: LoopyOutcome,
    json: &mut Json,
    lines: &mut Vec<String>,
) -> Option<String> {
    let missing = match value {
        Ok(s) => {
            json["value"] = json!(s.to_string());
            lines.push(format!("value {s}"));
            if !s.is_stopper() {
                json["onside"] = json!(s.onside().to_string());
                json["offside"] = json!(s.offside().to_string());
            }
            None
        }
        Err(why) => {
            json["value"] = Json::Null;
            json["reason"] = json!(why);
            lines.push(format!("value: {why}"));
            Some(why.clone())
        }
    };
    let class = outcome.class();
    json["outcome"] = json!(class.map(|c| c.as_str()));
    json["left_first"] = json!(outcome.left_first.as_str());
    json["right_first"] = json!(outcome.right_first.as_str());
    lines.push(match class {
        Some(c) => format!("outcome {} ({})", c.as_str(), who(c)),
        None => "outcome: none (infinite play, a draw, with someone moving first)".into(),
    });
    lines.push(format!(
        "Left moving first: {}; Right moving first: {} (for Left)",
        outcome.left_first.as_str(),
        outcome.right_first.as_str()
    ));
    missing
}

/// The report of `what` (`position 3`, `the sum`), failing with exit 2 after it is printed
/// when the value is missing: the outcome is there, the value the command was asked for is not.
pub fn report(json: Json, lines: Vec<String>, what: &str, missing: Option<String>) -> Report {
    let mut r = Report::new(json);
    for l in lines {
        r.line(l);
    }
    if let Some(why) = missing {
        r.lacks(format!(
            "{what}: no value: {why} (the outcome printed is exact)"
        ));
    }
    r
}

/// `cgt value FILE --from N` for a position with a cycle below it.
pub fn value(game: &TwoPlayerGraph, from: u64) -> CliResult<Report> {
    let g = LoopyGraph::from_two_player(game);
    let outcome = g.outcomes()[from as usize];
    let value = value_of(&g, from as u32)?;
    let mut json = json!({ "from": from });
    let mut lines = vec![format!("position {from} (loopy)")];
    let missing = describe(&value, outcome, &mut json, &mut lines);
    Ok(report(json, lines, &format!("position {from}"), missing))
}

/// `cgt sum FILE --at A,B,...` when a component has a cycle below it: each component valued
/// alone and the values added (`zermelo_cgt::loopy::sum_of`: stoppers' sums, sides by upsum and
/// downsum); the outcome by retrograde analysis of the components' product graph when it has at
/// most `MAX_SUM_POSITIONS` positions, else from the sum's sides.
pub fn sum(name: &str, game: &TwoPlayerGraph, at: &[u64]) -> CliResult<Report> {
    let g = LoopyGraph::from_two_player(game);
    let mut lines = Vec::new();
    let mut components = Vec::new();
    let mut parts = Ok(Vec::new());
    for &p in at {
        let part = if g.is_loopfree(p as u32) {
            let v = super::cgt_load::short_values(name, game, &[p])?[0];
            Ok(Summand::Short(v))
        } else {
            value_of(&g, p as u32)?.map(Summand::Sided)
        };
        match &part {
            Ok(part) => {
                let text = match part {
                    Summand::Short(v) => v.to_string(),
                    Summand::Sided(s) => s.to_string(),
                };
                lines.push(format!("position {p}: {text}"));
                components.push(json!({ "position": p, "value": text }));
            }
            Err(why) => {
                lines.push(format!("position {p}: no value: {why}"));
                components.push(json!({ "position": p, "value": null, "reason": why }));
            }
        }
        parts = match (parts, part) {
            (Ok(mut ps), Ok(part)) => {
                ps.push(part);
                Ok(ps)
            }
            (Ok(_), Err(why)) => Err(format!("position {p} has none: {why}")),
            (Err(first), _) => Err(first),
        };
    }
    let value = match parts {
        Ok(ps) => sum_of(&ps).map_err(|e| crate::limits::cgt_too_big(name, e))?,
        Err(why) => Err(why),
    };
    let starts: Vec<u32> = at.iter().map(|&p| p as u32).collect();
    let product = product_memory(&g, &starts, name).and_then(|()| {
        g.sum(&starts, MAX_SUM_POSITIONS).map_err(|e| match e {
            CgtError::TooBig(m) => Failure::TooBig(format!("{name}: {m}")),
            e => Failure::input(format!("{name}: {e}")),
        })
    });
    let (outcome, positions) = match product {
        Ok(product) => (product.outcomes()[0], Some(product.node_count())),
        Err(Failure::TooBig(m)) => match &value {
            Ok(s) => (
                s.outcome()
                    .map_err(|e| crate::limits::cgt_too_big(name, e))?,
                None,
            ),
            Err(why) => return Err(Failure::TooBig(format!("{m}; the value: {why}"))),
        },
        Err(e) => return Err(e),
    };
    let mut json = json!({ "at": at, "components": components, "positions": positions });
    let missing = describe(&value, outcome, &mut json, &mut lines);
    Ok(report(json, lines, "the sum", missing))
}

/// Refuses (exit 3) a product graph of the components at `starts` whose positions (at most the
/// product of the components' sizes) and moves would not fit the memory limit, before it is
/// built; the sum's outcome then comes from its value.
fn product_memory(g: &LoopyGraph, starts: &[u32], name: &str) -> CliResult {
    let parts: Vec<(u64, u64)> = starts
        .iter()
        .map(|&s| {
            let nodes = g.reachable(&[s]);
            let moves: usize = nodes
                .iter()
                .map(|&v| g.left(v).len() + g.right(v).len())
                .sum();
            (nodes.len() as u64, moves as u64)
        })
        .collect();
    let positions = parts
        .iter()
        .fold(1u64, |a, &(n, _)| a.saturating_mul(n.max(1)));
    // A tuple's moves are its parts' moves: part i's moves times the other parts' positions.
    let moves = parts.iter().fold(0u64, |a, &(n, m)| {
        a.saturating_add(m.saturating_mul(positions / n.max(1)))
    });
    // The product graph (as a loopy graph and a table of tuples), then its outcomes, beside
    // the file's graphs, still held.
    let held = (0..g.node_count() as u32)
        .map(|v| (g.left(v).len() + g.right(v).len()) as u64)
        .sum();
    let held = zermelo_cgt::two_player_estimate(g.node_count() as u64, held, 0).graph;
    let mut estimate = zermelo_cgt::two_player_estimate(positions, moves, 0);
    estimate.graph = estimate
        .graph
        .saturating_add(positions.saturating_mul(8))
        .saturating_add(held);
    crate::limits::check_memory(&format!("{name}: the product graph"), estimate)
}

/// `cgt show` of a game written in the loopy notation.
pub fn show_game(g: &LoopyGraph, node: u32) -> CliResult<Report> {
    let g = g.restricted(node);
    let outcome = g.outcomes()[0];
    let value = value_of(&g, 0)?;
    let mut json = json!({});
    let mut lines = Vec::new();
    let missing = describe(&value, outcome, &mut json, &mut lines);
    Ok(report(json, lines, "the game", missing))
}

/// `cgt show` of a value written by its sides (`S & T`, or a sum with such a part): the sides,
/// and the outcome read from them.
pub fn show_sides(sides: &Sides) -> CliResult<Report> {
    let outcome = sides
        .outcome()
        .map_err(|e| crate::limits::cgt_too_big("value", e))?;
    let mut json = json!({});
    let mut lines = Vec::new();
    let missing = describe(&Ok(sides.clone()), outcome, &mut json, &mut lines);
    Ok(report(json, lines, "the value", missing))
}

/// `cgt show` of a comparison.
pub fn show_relation(left: &Sides, op: &str, right: &Sides, holds: bool) -> Report {
    let mut r = Report::new(json!({
        "left": left.to_string(), "relation": op, "right": right.to_string(), "holds": holds,
    }));
    r.line(format!("{left} {op} {right}: {holds}"));
    r
}
