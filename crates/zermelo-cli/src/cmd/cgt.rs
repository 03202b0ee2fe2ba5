//! `zermelo cgt`: Conway values of short partizan games (canonical forms, CGSuite notation).
//!
//! `cgt value FILE --from NODE` and `cgt sum FILE --at A,B,...` read the two-player format
//! (`n m0 m1`; player 0 is Left, player 1 Right); `cgt show VALUE` evaluates a value written in
//! the notation. Each prints lines for people or, with `--format json`, one object with at least
//! `value` (CGSuite notation) and `outcome` (`L`, `R`, `N` or `P`). The logic lives in
//! `zermelo_cgt`.

use std::path::PathBuf;

use clap::{Args, Subcommand};
use serde_json::{json, Value as Json};
use zermelo::NodeId;
use zermelo_cgt::{self as cgt, CgtError, Value};

use crate::error::{CliResult, Failure};
use crate::output::emit;
use crate::read::read_text_input;
use crate::shown::{Report, Shown};
use zermelo::io::stream::NumberLines;

/// Arguments of `zermelo cgt`.
#[derive(Debug, Args)]
pub struct CgtArgs {
    #[command(subcommand)]
    which: Which,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Shown::Table, global = true)]
    format: Shown,
}

#[derive(Debug, Subcommand)]
enum Which {
    /// The canonical value of a position of a two-player file (`n m0 m1`, player 0 = Left).
    Value(ValueArgs),
    /// The value of the sum of positions of a two-player file: who wins it.
    Sum(SumArgs),
    /// Evaluate a value in CGSuite notation, e.g. `"^ + *"` or `"{3||2|0}"`.
    Show(ShowArgs),
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
}

/// Runs `zermelo cgt`.
pub fn run(args: CgtArgs) -> CliResult {
    crate::limits::limit_cgt_memory();
    let report = cgt::on_deep_stack(|| match args.which {
        Which::Value(a) => value(a),
        Which::Sum(a) => sum(a),
        Which::Show(a) => show(a),
    })?;
    emit(None, |out| report.write(out, args.format))
}

/// The values of the positions `at` of the file.
fn load_values(file: &std::path::Path, at: &[u64]) -> CliResult<(String, Vec<Value>)> {
    let (bytes, name) = read_text_input(file, &mut NumberLines::two_player())?;
    let game = zermelo::io::parse_two_player(&bytes, &name)?;
    let n = game.position_count() as u64;
    let starts = at
        .iter()
        .map(|&p| {
            if p < n {
                Ok(p as NodeId)
            } else {
                Err(Failure::input(format!(
                    "{name}: position {p} is out of range: the game has {n} positions"
                )))
            }
        })
        .collect::<CliResult<Vec<NodeId>>>()?;
    let values = cgt::graph_values(&game, &starts).map_err(|e| failure(&name, e))?;
    let picked = starts
        .iter()
        .map(|&s| values[s as usize].expect("every start is valued"))
        .collect();
    Ok((name, picked))
}

fn failure(name: &str, e: CgtError) -> Failure {
    match e {
        CgtError::Cycle(cycle) => Failure::input(format!(
            "{name}: the positions have a cycle ({cycle}); canonical values exist only for \
             finite (acyclic) games: for who wins, use `zermelo solve --input two-player {name}`"
        )),
        CgtError::TooBig(_) | CgtError::NumberTooLarge => crate::limits::cgt_too_big(name, e),
        e => Failure::input(format!("{name}: {e}")),
    }
}

/// `value`, `outcome`, and mean/temperature when known, as JSON fields and lines.
fn describe(v: Value, mut json: Json, report_lines: &mut Vec<String>) -> Json {
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
    match v.mean_and_temperature() {
        Some((m, t)) => {
            json["mean"] = json!(m.to_string());
            json["temperature"] = json!(t.to_string());
            report_lines.push(format!("mean {m}, temperature {t}"));
        }
        None => {
            json["mean"] = Json::Null;
            json["temperature"] = Json::Null;
        }
    }
    json
}

fn finish(json: Json, lines: Vec<String>) -> Report {
    let mut r = Report::new(json);
    for l in lines {
        r.line(l);
    }
    r
}

fn value(a: ValueArgs) -> CliResult<Report> {
    let (_, values) = load_values(&a.file, &[a.from])?;
    let v = values[0];
    let mut lines = vec![format!("position {}", a.from)];
    let json = describe(v, json!({ "from": a.from }), &mut lines);
    let mut json = json;
    let opts = |o: Vec<Value>| o.iter().map(|x| x.to_string()).collect::<Vec<_>>();
    json["left"] = json!(opts(v.left_options()));
    json["right"] = json!(opts(v.right_options()));
    Ok(finish(json, lines))
}

fn sum(a: SumArgs) -> CliResult<Report> {
    let (name, values) = load_values(&a.file, &a.at)?;
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
    );
    Ok(finish(json, lines))
}

fn show(a: ShowArgs) -> CliResult<Report> {
    let v = Value::parse_with_work_limit(&a.value, Some(a.max_work)).map_err(|e| {
        let hint = if e.message == CgtError::TooMuchWork(a.max_work).to_string() {
            "; raise the limit with --max-work"
        } else {
            ""
        };
        Failure::input(format!("value {:?}: {e}{hint}", a.value))
    })?;
    let mut lines = Vec::new();
    let json = describe(v, json!({}), &mut lines);
    Ok(finish(json, lines))
}
