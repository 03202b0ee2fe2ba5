//! `zermelo cgt`: values of partizan games in CGSuite notation: canonical forms of short games,
//! simplest forms and sides of loopy ones (cgt_loopy.rs).
//!
//! `cgt value FILE --from NODE` and `cgt sum FILE --at A,B,...` read the two-player format
//! (`n m0 m1`; player 0 is Left, player 1 Right); `cgt show VALUE` evaluates a value written in
//! the notation; `cgt thermograph` draws a thermograph (cgt_thermograph.rs). Each prints lines
//! for people or, with `--format json`, one object with at least `value` (CGSuite notation) and
//! `outcome` (`L`, `R`, `N` or `P`). The logic lives in `zermelo_cgt`.

use std::path::PathBuf;

use clap::{Args, Subcommand, ValueEnum};
use serde_json::{json, Value as Json};
use zermelo_cgt::loopy::{is_loopy_text, parse_loopy, LoopyExpr, LoopyGraph};
use zermelo_cgt::{self as cgt, CgtError, Value};

use super::cgt_load::{failure, load_game, parse_value, positions, short_values};
use super::cgt_loopy;
use super::cgt_thermograph::{thermograph, Drawn, ThermographArgs};
use crate::error::{CliResult, Failure};
use crate::output::emit;
use crate::shown::{Report, Shown};

/// Arguments of `zermelo cgt`.
#[derive(Debug, Args)]
pub struct CgtArgs {
    #[command(subcommand)]
    which: Which,
    /// Output format (`svg`: the picture of `cgt thermograph`).
    #[arg(long, value_enum, default_value_t = Format::Table, global = true)]
    format: Format,
}

/// `--format` of `zermelo cgt`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Format {
    /// Lines of text.
    Table,
    /// One JSON object.
    Json,
    /// An SVG picture (`cgt thermograph` only).
    Svg,
}

#[derive(Debug, Subcommand)]
enum Which {
    /// The value of a position of a two-player file (`n m0 m1`, player 0 = Left): its canonical
    /// form, or for a loopy position its simplest form or sides, and who wins (draws included).
    Value(ValueArgs),
    /// The value of the sum of positions of a two-player file (each valued alone, the values
    /// added) and who wins it.
    Sum(SumArgs),
    /// Evaluate a value in CGSuite notation, e.g. `"^ + *"` or `"{3||2|0}"`.
    Show(ShowArgs),
    /// The thermograph of a value (or of a position of a two-player file with --from): mean,
    /// temperature, walls; `--format svg` draws it.
    Thermograph(ThermographArgs),
}

/// Arguments of `zermelo cgt value`.
#[derive(Debug, Args)]
pub struct ValueArgs {
    /// The game in the two-player format (`-` for standard input).
    file: PathBuf,
    /// The position.
    #[arg(long, value_name = "NODE")]
    from: u64,
}

/// Arguments of `zermelo cgt sum`.
#[derive(Debug, Args)]
pub struct SumArgs {
    /// The game in the two-player format (`-` for standard input).
    file: PathBuf,
    /// The positions of the components, e.g. `--at 3,5,7` (repeats allowed).
    #[arg(long, required = true, value_delimiter = ',', value_name = "A,B,...")]
    at: Vec<u64>,
}

/// Arguments of `zermelo cgt show`.
#[derive(Debug, Args)]
pub struct ShowArgs {
    /// The value, e.g. `^*`, `{1|*}`, `3/8 + +-1`.
    #[arg(allow_hyphen_values = true)]
    value: String,
    /// The most sums and comparisons of games the evaluation may take (a dozen characters can
    /// ask for minutes of work: `2*52+-52*52` takes 141 million steps, 5 s).
    #[arg(long, value_name = "STEPS", default_value_t = zermelo_cgt::NOTATION_WORK)]
    max_work: u64,
    /// Also the atomic weight (all-small games only: exit 2 for others).
    #[arg(long)]
    atomic_weight: bool,
}

/// Runs `zermelo cgt`.
pub fn run(args: CgtArgs) -> CliResult {
    crate::limits::limit_cgt_memory();
    let svg = args.format == Format::Svg;
    if svg && !matches!(args.which, Which::Thermograph(_)) {
        return Err(Failure::input(
            "--format svg draws a thermograph: use it with `cgt thermograph`",
        ));
    }
    let shown = match args.format {
        Format::Json => Shown::Json,
        Format::Table | Format::Svg => Shown::Table,
    };
    let drawn = cgt::on_deep_stack(|| match args.which {
        Which::Value(a) => value(a).map(Drawn::Report),
        Which::Sum(a) => sum(a).map(Drawn::Report),
        Which::Show(a) => show(a).map(Drawn::Report),
        Which::Thermograph(a) => thermograph(a, svg),
    })?;
    match drawn {
        Drawn::Report(report) => {
            emit(None, |out| report.write(out, shown))?;
            report.missing().map_or(Ok(()), Err)
        }
        Drawn::Svg(text) => emit(None, |out| out.write_all(text.as_bytes())),
    }
}

/// `value`, `outcome`, mean and temperature, as JSON fields and lines.
fn describe(v: Value, mut json: Json, report_lines: &mut Vec<String>) -> Result<Json, CgtError> {
    let outcome = v.outcome();
    json["value"] = json!(v.to_string());
    json["outcome"] = json!(outcome.as_str());
    let who = match outcome.as_str() {
        "L" => "Left wins, whoever starts",
        "R" => "Right wins, whoever starts",
        "N" => "the first player wins",
        _ => "the second player wins",
    };
    report_lines.push(format!("value {v}"));
    report_lines.push(format!("outcome {} ({who})", outcome.as_str()));
    let (m, t) = v.mean_and_temperature()?;
    json["mean"] = json!(m.to_string());
    json["temperature"] = json!(t.to_string());
    report_lines.push(format!("mean {m}, temperature {t}"));
    Ok(json)
}

fn finish(json: Json, lines: Vec<String>) -> Report {
    let mut r = Report::new(json);
    for l in lines {
        r.line(l);
    }
    r
}

fn value(a: ValueArgs) -> CliResult<Report> {
    let (name, game) = load_game(&a.file)?;
    let from = positions(&name, &game, &[a.from])?[0];
    if !LoopyGraph::from_two_player(&game).is_loopfree(from) {
        return cgt_loopy::value(&game, a.from);
    }
    let v = short_values(&name, &game, &[a.from])?[0];
    let mut lines = vec![format!("position {}", a.from)];
    let mut json =
        describe(v, json!({ "from": a.from }), &mut lines).map_err(|e| failure(&name, e))?;
    let opts = |o: Vec<Value>| o.iter().map(|x| x.to_string()).collect::<Vec<_>>();
    json["left"] = json!(opts(v.left_options()));
    json["right"] = json!(opts(v.right_options()));
    Ok(finish(json, lines))
}

fn sum(a: SumArgs) -> CliResult<Report> {
    let (name, game) = load_game(&a.file)?;
    let starts = positions(&name, &game, &a.at)?;
    let loopy = LoopyGraph::from_two_player(&game);
    if starts.iter().any(|&s| !loopy.is_loopfree(s)) {
        return cgt_loopy::sum(&name, &game, &a.at);
    }
    let values = short_values(&name, &game, &a.at)?;
    let total = Value::sum(&values).map_err(|e| failure(&name, e))?;
    let mut lines: Vec<String> =
        a.at.iter()
            .zip(&values)
            .map(|(p, v)| format!("position {p}: {v}"))
            .collect();
    let components: Vec<Json> =
        a.at.iter()
            .zip(&values)
            .map(|(p, v)| json!({ "position": p, "value": v.to_string() }))
            .collect();
    let json = describe(
        total,
        json!({ "at": a.at, "components": components }),
        &mut lines,
    )
    .map_err(|e| failure(&name, e))?;
    Ok(finish(json, lines))
}

fn show(a: ShowArgs) -> CliResult<Report> {
    if is_loopy_text(&a.value) {
        if a.atomic_weight {
            return Err(Failure::input(
                "--atomic-weight: atomic weights are computed for short all-small games",
            ));
        }
        let bad = |e| Failure::input(format!("value {:?}: {e}", a.value));
        return match parse_loopy(&a.value).map_err(bad)? {
            LoopyExpr::Game { graph, node } => cgt_loopy::show_game(&graph, node),
            LoopyExpr::Sides(sides) => cgt_loopy::show_sides(&sides),
            LoopyExpr::Relation {
                left,
                op,
                right,
                holds,
            } => Ok(cgt_loopy::show_relation(&left, op, &right, holds)),
        };
    }
    let v = parse_value(&a.value, a.max_work)?;
    let name = format!("value {:?}", a.value);
    let mut lines = Vec::new();
    let mut json = describe(v, json!({}), &mut lines).map_err(|e| failure(&name, e))?;
    if a.atomic_weight {
        let w = v.atomic_weight().map_err(|e| failure(&name, e))?;
        json["atomic_weight"] = json!(w.to_string());
        lines.push(format!("atomic weight {w}"));
    }
    Ok(finish(json, lines))
}
