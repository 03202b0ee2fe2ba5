//! The partizan games: Domineering and Blue-Red(-Green) Hackenbush, valued in canonical form
//! (`zermelo_cgt`). JSON: `game`, `value` (CGSuite notation), `outcome` (the outcome class
//! `L`, `R`, `N` or `P`: who wins with Left / Right first), `depth` and `move` (`null`).

use std::time::Instant;

use clap::Args;
use serde_json::{json, Value as Json};
use zermelo_cgt::{self as cgt, OutcomeClass, Value};
use zermelo_games::blue_red_hackenbush::{Picture, PictureError};
use zermelo_games::domineering::{Board, Domineering};

use crate::error::{CliResult, Failure};
use crate::output::emit;
use crate::shown::{count, Report, Shown};

/// Arguments of `zermelo game domineering`.
#[derive(Debug, Args)]
pub struct DomineeringArgs {
    /// The board: rows of `.` (empty) and `#` (filled), separated by `/`, e.g. `.../.#./...`.
    /// Left places vertical dominoes, Right horizontal ones.
    #[arg(value_name = "BOARD", required_unless_present = "rectangles")]
    board: Option<String>,
    /// Instead of one board, every empty W x H rectangle with 1 <= W, H <= N: value and time.
    #[arg(long, value_name = "N", conflicts_with = "board")]
    rectangles: Option<usize>,
}

fn describe(game: &str, v: Value, mut extra: Json, r: &mut Vec<String>) -> Json {
    let outcome = v.outcome();
    extra["game"] = json!(game);
    extra["value"] = json!(v.to_string());
    extra["outcome"] = json!(outcome.as_str());
    extra["depth"] = Json::Null;
    extra["move"] = Json::Null;
    r.push(format!("value {v}"));
    r.push(format!(
        "outcome {} ({})",
        outcome.as_str(),
        who_wins(outcome)
    ));
    extra
}

fn report(json: Json, lines: Vec<String>) -> Report {
    let mut r = Report::new(json);
    for l in lines {
        r.line(l);
    }
    r
}

/// `zermelo game domineering`.
pub fn domineering(args: DomineeringArgs) -> CliResult<Report> {
    crate::limits::limit_cgt_memory();
    cgt::on_deep_stack(|| match (args.board, args.rectangles) {
        (Some(text), _) => {
            let board = Board::parse(&text).map_err(|e| Failure::input(format!("board: {e}")))?;
            let mut solver = Domineering::new();
            let v = solver
                .value(&board)
                .map_err(|e| crate::limits::cgt_too_big("game", e))?;
            let mut lines = vec![format!(
                "domineering: {} empty cells, {} regions valued",
                board.empty_cells(),
                solver.regions_valued()
            )];
            let json = describe("domineering", v, json!({"board": text}), &mut lines);
            Ok(report(json, lines))
        }
        (None, Some(n)) => rectangles(n),
        (None, None) => Err(Failure::input("give a BOARD or --rectangles N")),
    })
}

fn rectangles(n: usize) -> CliResult<Report> {
    if n == 0 || n * n > zermelo_games::domineering::MAX_CELLS {
        return Err(Failure::input(format!(
            "--rectangles {n}: expected 1 to 8 (boards of at most 64 cells)"
        )));
    }
    let mut lines = vec![format!("{:>5}  {:>10}  value", "board", "seconds")];
    let mut rows = Vec::new();
    for h in 1..=n {
        for w in 1..=n {
            let board = Board::rectangle(w, h).map_err(|e| Failure::input(e.to_string()))?;
            let start = Instant::now();
            let v = Domineering::new()
                .value(&board)
                .map_err(|e| crate::limits::cgt_too_big("game", e))?;
            let secs = start.elapsed().as_secs_f64();
            lines.push(format!("{:>5}  {secs:>10.4}  {v}", format!("{w}x{h}")));
            rows.push(json!({"width": w, "height": h, "value": v.to_string(),
                "outcome": v.outcome().as_str(), "seconds": secs}));
        }
    }
    Ok(report(
        json!({"game": "domineering", "rectangles": rows}),
        lines,
    ))
}

fn picture_error(flag: &str, e: PictureError) -> Failure {
    match e {
        PictureError::Value(e) => crate::limits::cgt_too_big(flag, e),
        PictureError::TooLarge { .. } => Failure::TooBig(format!("{flag}: {e}")),
        e => Failure::input(format!("{flag}: {e}")),
    }
}

/// `zermelo game hackenbush` with colours: Blue-Red(-Green) Hackenbush, the picture split into
/// the parts that meet only at the ground (green parts by fusion and the colon principle,
/// Blue-Red trees by Berlekamp's rule, other parts by search), their values added.
pub fn hackenbush(picture: Result<Picture, PictureError>, flag: &str) -> CliResult<Report> {
    crate::limits::limit_cgt_memory();
    let picture = picture.map_err(|e| picture_error(flag, e))?;
    let start = Instant::now();
    cgt::on_deep_stack(|| {
        let v = picture.split_value().map_err(|e| picture_error(flag, e))?;
        let too_big = |e| crate::limits::cgt_too_big(flag, e);
        let (value, outcome) = (
            v.notation().map_err(too_big)?,
            v.outcome().map_err(too_big)?,
        );
        let canonical = v.written_canonical();
        let mut r = Report::new(json!({
            "game": "hackenbush", "edges": picture.edge_count(), "parts": v.parts,
            "value": value, "outcome": outcome.as_str(), "depth": null, "move": null,
            "written_as": if canonical { "canonical form" } else { "sum of parts" },
        }));
        r.line(format!(
            "hackenbush: {} in {} meeting at the ground, {:.3} s",
            count(picture.edge_count() as u64, "edge", "edges"),
            count(v.parts as u64, "part", "parts"),
            start.elapsed().as_secs_f64()
        ));
        r.line(format!("value {value}"));
        if !canonical {
            r.line(written_as_sum(&v));
        }
        r.line(format!(
            "outcome {} ({})",
            outcome.as_str(),
            who_wins(outcome)
        ));
        Ok(r)
    })
}

/// Why a picture's value is written as the sum of its parts: how big its canonical form is.
fn written_as_sum(v: &zermelo_games::hackenbush_sum::PictureValue) -> String {
    let limit = zermelo_games::hackenbush_sum::MAX_WRITTEN;
    match v.to_value() {
        Ok(whole) => {
            let chars = match whole.written_len() {
                u64::MAX => "more than 1.8e19".to_string(),
                n => format!("{:.1e}", n as f64),
            };
            format!(
                "(written as the sum of the parts: the canonical form has {} and takes {chars} \
                 characters written out, more than the {limit} written here)",
                count(whole.positions() as u64, "position", "positions")
            )
        }
        Err(e) => format!("(written as the sum of the parts: {e})"),
    }
}

fn who_wins(outcome: OutcomeClass) -> &'static str {
    match outcome {
        OutcomeClass::L => "Left wins, whoever starts",
        OutcomeClass::R => "Right wins, whoever starts",
        OutcomeClass::N => "the first player wins",
        OutcomeClass::P => "the second player wins",
    }
}

/// Arguments of `zermelo game toads-frogs`.
#[derive(Debug, Args)]
pub struct ToadsFrogsArgs {
    /// The strip: `T` (Left's toads, moving right), `F` (Right's frogs, moving left), `.`
    /// (empty), e.g. `TT..FF`.
    #[arg(value_name = "STRIP", required_unless_present = "all")]
    strip: Option<String>,
    /// Backsliding Toads and Frogs (*Winning Ways* ch. 11): a toad may also slide one square
    /// back into an empty square, a frog likewise: loopy, infinite play a draw.
    #[arg(long)]
    backsliding: bool,
    /// With --backsliding, instead of one strip: every strip of 1 to N squares (3^n each, N at
    /// most 12), each valued (a stopper's simplest form, else its sides), with outcomes,
    /// stoppers, distinct values and the most frequent ones per length, and times.
    #[arg(
        long,
        value_name = "N",
        requires = "backsliding",
        conflicts_with = "strip"
    )]
    all: Option<usize>,
    /// With --all: also every strip and its value, one a line (`STRIP VALUE`; with
    /// `--format json` one JSON object a line, `{"strip": ..., "value": ...}`), written as each
    /// length is valued, before the summary.
    #[arg(long, requires = "all")]
    values: bool,
}

/// `zermelo game toads-frogs`.
pub fn toads_frogs(args: ToadsFrogsArgs, format: Shown) -> CliResult<Report> {
    crate::limits::limit_cgt_memory();
    use zermelo_games::toads_frogs::{Strip, ToadsFrogs};
    if let Some(n) = args.all {
        return backsliding_all(n, args.values.then_some(format));
    }
    let text = args.strip.unwrap_or_default();
    let strip = Strip::parse(&text).map_err(|e| Failure::input(format!("strip: {e}")))?;
    if args.backsliding {
        return backsliding(&strip);
    }
    cgt::on_deep_stack(|| {
        let v = ToadsFrogs::new()
            .value(&strip)
            .map_err(|e| crate::limits::cgt_too_big("game", e))?;
        let mut lines = vec![format!("toads and frogs: {strip}")];
        let json = describe(
            "toads-frogs",
            v,
            json!({"strip": strip.to_string()}),
            &mut lines,
        );
        Ok(report(json, lines))
    })
}

fn backsliding(strip: &zermelo_games::toads_frogs::Strip) -> CliResult<Report> {
    use zermelo_games::backsliding::Backsliding;
    let b = Backsliding::explore(strip);
    let outcome = b.outcomes()[0];
    let value = cgt::on_deep_stack(|| super::super::cgt_loopy::value_of(b.graph(), 0))?;
    let mut json = json!({
        "game": "toads-frogs", "backsliding": true, "strip": strip.to_string(),
        "positions": b.strips().len(), "depth": null, "move": null,
    });
    let mut lines = vec![format!(
        "backsliding toads and frogs: {strip} ({})",
        count(b.strips().len() as u64, "position", "positions")
    )];
    let missing = super::super::cgt_loopy::describe(&value, outcome, &mut json, &mut lines);
    let what = format!("strip {strip}");
    Ok(super::super::cgt_loopy::report(json, lines, &what, missing))
}

/// The most strips `--all` values: 3^12 = 531,441 of 12 squares.
const MAX_ALL_LENGTH: usize = 12;

/// How many of the most frequent values each length lists.
const MOST_FREQUENT: usize = 5;

/// Every strip of 1 to `n` squares valued (`zermelo_games::backsliding::Backsliding::values`:
/// all strips of a length as one graph, each distinct value found once), with outcomes (draws
/// included), stoppers and distinct values per length; with `strips`, each strip and its value
/// written as the length is done.
fn backsliding_all(n: usize, strips: Option<Shown>) -> CliResult<Report> {
    use std::collections::HashMap;
    use zermelo_games::backsliding::Backsliding;
    if n == 0 || n > MAX_ALL_LENGTH {
        return Err(Failure::input(format!(
            "--all {n}: expected 1 to {MAX_ALL_LENGTH} (3^12 = 531,441 strips)"
        )));
    }
    let started = Instant::now();
    let mut lines = vec![format!(
        "{:>6}  {:>7}  {:>8}  {:>7}  {:>6}  {:>8}  {:>8}",
        "length", "strips", "stoppers", "draws", "values", "unvalued", "seconds"
    )];
    let mut frequent_lines = Vec::new();
    let mut rows = Vec::new();
    let mut unvalued_all = 0usize;
    for len in 1..=n {
        let t = Instant::now();
        let b = Backsliding::all(len);
        let outcomes = b.outcomes();
        let stoppers = b.graph().stoppers().iter().filter(|&&s| s).count();
        let draws = outcomes.iter().filter(|o| o.class().is_none()).count();
        let values = cgt::on_deep_stack(|| b.values())
            .map_err(|e| crate::limits::cgt_too_big("--all", e))?;
        let secs = t.elapsed().as_secs_f64();
        // Each distinct value written once; strips only count them.
        let mut text: HashMap<_, String> = HashMap::new();
        let mut tally: HashMap<_, usize> = HashMap::new();
        let mut unvalued = 0usize;
        for v in 0..outcomes.len() as u32 {
            match values.sides_ids(v) {
                Some(ids) => {
                    *tally.entry(ids).or_default() += 1;
                    text.entry(ids)
                        .or_insert_with(|| values.sides(v).expect("valued").to_string());
                }
                None => unvalued += 1,
            }
        }
        unvalued_all += unvalued;
        if let Some(format) = strips {
            emit(None, |out| write_strips(out, format, &b, &values, &text))?;
        }
        let mut ranked: Vec<(&String, usize)> =
            tally.iter().map(|(ids, &c)| (&text[ids], c)).collect();
        ranked.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(b.0)));
        ranked.truncate(MOST_FREQUENT);
        lines.push(format!(
            "{len:>6}  {:>7}  {stoppers:>8}  {draws:>7}  {:>6}  {unvalued:>8}  {secs:>8.3}",
            outcomes.len(),
            tally.len()
        ));
        frequent_lines.push(format!(
            "{len:>6}  {}",
            ranked
                .iter()
                .map(|(v, c)| format!("{v} ({c})"))
                .collect::<Vec<_>>()
                .join(", ")
        ));
        rows.push(
            json!({"length": len, "strips": outcomes.len(), "stoppers": stoppers,
            "draws": draws, "values": tally.len(), "unvalued": unvalued,
            "most_frequent": ranked.iter().map(|(v, c)| json!({"value": v, "strips": c}))
                .collect::<Vec<_>>(),
            "seconds": secs}),
        );
    }
    let total = started.elapsed().as_secs_f64();
    lines.push(format!("all lengths: {total:.3} s"));
    lines.push("most frequent values (strips), by length:".to_string());
    lines.extend(frequent_lines);
    let mut r = report(
        json!({"game": "toads-frogs", "backsliding": true, "lengths": rows, "seconds": total}),
        lines,
    );
    if unvalued_all > 0 {
        r.lacks(format!(
            "{} without a value (sides not found as stoppers, or past the sizes the method takes)",
            count(unvalued_all as u64, "strip", "strips")
        ));
    }
    Ok(r)
}

/// Each strip of `b` and its value, one a line: `STRIP VALUE`, or a JSON object.
fn write_strips(
    out: &mut dyn std::io::Write,
    format: Shown,
    b: &zermelo_games::backsliding::Backsliding,
    values: &zermelo_cgt::loopy::Values,
    text: &std::collections::HashMap<
        (zermelo_cgt::loopy::StopperId, zermelo_cgt::loopy::StopperId),
        String,
    >,
) -> std::io::Result<()> {
    for (v, strip) in b.strips().iter().enumerate() {
        let value = values.sides_ids(v as u32).map(|ids| text[&ids].as_str());
        match format {
            Shown::Table => writeln!(out, "{strip} {}", value.unwrap_or("-"))?,
            Shown::Json => {
                serde_json::to_writer(
                    &mut *out,
                    &json!({"strip": strip.to_string(), "value": value}),
                )?;
                writeln!(out)?;
            }
        }
    }
    Ok(())
}
