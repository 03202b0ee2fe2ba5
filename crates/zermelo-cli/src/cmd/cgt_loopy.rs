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

/// The report's value, outcome and results, as JSON fields and lines.
pub fn describe(
    value: &Result<Sides, String>,
    outcome: LoopyOutcome,
    json: &mut Json,
    lines: &mut Vec<String>,
) {
    match value {
        Ok(s) => {
            json["value"] = json!(s.to_string());
            lines.push(format!("value {s}"));
            if !s.is_stopper() {
                json["onside"] = json!(s.onside().to_string());
                json["offside"] = json!(s.offside().to_string());
            }
        }
        Err(why) => {
            json["value"] = Json::Null;
            lines.push(format!("value: {why}"));
        }
    }
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
}

fn report(json: Json, lines: Vec<String>) -> Report {
    let mut r = Report::new(json);
    for l in lines {
        r.line(l);
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
    describe(&value, outcome, &mut json, &mut lines);
    Ok(report(json, lines))
}

/// `cgt sum FILE --at A,B,...` when a component has a cycle below it: each component valued
/// alone and the values added (`zermelo_cgt::loopy::sum_of`: stoppers' sums, sides by upsum and
/// downsum); the outcome by retrograde analysis of the components' product graph when it has at
/// most `MAX_SUM_POSITIONS` positions, else from the sum's sides.
pub fn sum(name: &str, game: &TwoPlayerGraph, at: &[u64]) -> CliResult<Report> {
    let g = LoopyGraph::from_two_player(game);
    let mut lines = Vec::new();
    let mut components = Vec::new();
    let mut parts = Some(Vec::new());
    for &p in at {
        let part = if g.is_loopfree(p as u32) {
            let v = super::cgt_load::short_values(name, game, &[p])?[0];
            Ok(Summand::Short(v))
        } else {
            value_of(&g, p as u32)?.map(Summand::Sided)
        };
        let text = match &part {
            Ok(Summand::Short(v)) => Some(v.to_string()),
            Ok(Summand::Sided(s)) => Some(s.to_string()),
            Err(_) => None,
        };
        lines.push(format!(
            "position {p}: {}",
            text.as_deref().unwrap_or("no value found")
        ));
        components.push(json!({ "position": p, "value": text }));
        parts = match (parts, part) {
            (Some(mut ps), Ok(part)) => {
                ps.push(part);
                Some(ps)
            }
            _ => None,
        };
    }
    let value = match parts {
        Some(ps) => sum_of(&ps).map_err(|e| crate::limits::cgt_too_big(name, e))?,
        None => Err("a component's value was not found".to_string()),
    };
    let starts: Vec<u32> = at.iter().map(|&p| p as u32).collect();
    let (outcome, positions) = match g.sum(&starts, MAX_SUM_POSITIONS) {
        Ok(product) => (product.outcomes()[0], Some(product.node_count())),
        Err(CgtError::TooBig(m)) => match &value {
            Ok(s) => (
                s.outcome()
                    .map_err(|e| crate::limits::cgt_too_big(name, e))?,
                None,
            ),
            Err(why) => return Err(Failure::TooBig(format!("{name}: {m}; the value: {why}"))),
        },
        Err(e) => return Err(Failure::input(format!("{name}: {e}"))),
    };
    let mut json = json!({ "at": at, "components": components, "positions": positions });
    describe(&value, outcome, &mut json, &mut lines);
    Ok(report(json, lines))
}

/// `cgt show` of a game written in the loopy notation.
pub fn show_game(g: &LoopyGraph, node: u32) -> CliResult<Report> {
    let g = g.restricted(node);
    let outcome = g.outcomes()[0];
    let value = value_of(&g, 0)?;
    let mut json = json!({});
    let mut lines = Vec::new();
    describe(&value, outcome, &mut json, &mut lines);
    Ok(report(json, lines))
}

/// `cgt show` of a value written by its sides (`S & T`, or a sum with such a part): the sides,
/// and the outcome read from them.
pub fn show_sides(sides: &Sides) -> CliResult<Report> {
    let outcome = sides
        .outcome()
        .map_err(|e| crate::limits::cgt_too_big("value", e))?;
    let mut json = json!({});
    let mut lines = Vec::new();
    describe(&Ok(sides.clone()), outcome, &mut json, &mut lines);
    Ok(report(json, lines))
}

/// `cgt show` of a comparison.
pub fn show_relation(left: &Sides, op: &str, right: &Sides, holds: bool) -> Report {
    let mut r = Report::new(json!({
        "left": left.to_string(), "relation": op, "right": right.to_string(), "holds": holds,
    }));
    r.line(format!("{left} {op} {right}: {holds}"));
    r
}
