//! `zermelo game fox-geese`: Fox and Geese (*Winning Ways* vol. 3 ch. 20) as CGSuite plays it,
//! a loopy game whose positions are all stoppers (`zermelo_games::fox_geese`). One position's
//! value and outcome, or with `--table` the value of the fox on every dark square below the
//! geese (CGSuite's `ValuesTable`). JSON: `game`, `geese`, `width`, then `fox`, `value`,
//! `outcome`, `left_first`, `right_first`, `positions` (one position) or `rows` (the table, top
//! row first: `"X"` for a goose, `null` for a light square, else the value).

use std::time::Instant;

use clap::Args;
use serde_json::{json, Value as Json};
use zermelo_cgt::loopy::Sides;
use zermelo_cgt::CgtError;
use zermelo_games::fox_geese::{
    parse_squares, values_table, Cell, FoxGeese, FoxGeeseError, Position, Square,
};

use crate::error::{CliResult, Failure};
use crate::shown::{count, Report};

/// Arguments of `zermelo game fox-geese`.
#[derive(Debug, Args)]
pub struct FoxGeeseArgs {
    /// The geese (Left, moving one square diagonally down): squares `(row,col)` as CGSuite
    /// writes them, row 1 at the bottom, on dark squares (row + col even), e.g.
    /// `(3,1),(3,3),(3,5),(3,7)`.
    #[arg(long, value_name = "SQUARES")]
    geese: String,
    /// The fox (Right, one square diagonally any way): `(row,col)` or `row,col`.
    #[arg(long, value_name = "SQUARE", required_unless_present = "table")]
    fox: Option<String>,
    /// Instead of one position: the value with the fox on every dark square from the highest
    /// goose's row down to row 1.
    #[arg(long, conflicts_with = "fox")]
    table: bool,
    /// The board's width (columns); rows have no end upwards.
    #[arg(long, value_name = "N", default_value_t = 8)]
    width: u16,
}

fn bad(what: &str, e: FoxGeeseError) -> Failure {
    match e {
        FoxGeeseError::TooBig => Failure::TooBig(format!("fox-geese: {e}")),
        FoxGeeseError::Value(e @ CgtError::TooBig(_)) => Failure::TooBig(format!("fox-geese: {e}")),
        e => Failure::input(format!("{what}: {e}")),
    }
}

/// `zermelo game fox-geese`.
pub fn fox_geese(args: FoxGeeseArgs) -> CliResult<Report> {
    crate::limits::limit_cgt_memory();
    let geese = parse_squares(&args.geese).map_err(|e| bad("--geese", e))?;
    let mut json = json!({
        "game": "fox-geese", "width": args.width,
        "geese": geese.iter().map(|s| [s.row, s.col]).collect::<Vec<_>>(),
    });
    let listed = |s: &[Square]| {
        s.iter()
            .map(|s| s.to_string())
            .collect::<Vec<_>>()
            .join(",")
    };
    let Some(fox) = args.fox else {
        return table(args.width, &geese, json);
    };
    let fox = match parse_squares(&fox).map_err(|e| bad("--fox", e))?[..] {
        [one] => one,
        _ => return Err(Failure::input("--fox: one square, e.g. (1,1)")),
    };
    let p = Position::new(args.width, &geese, fox).map_err(|e| bad("position", e))?;
    let game = FoxGeese::explore(args.width, &[p]).map_err(|e| bad("position", e))?;
    let value = zermelo_cgt::on_deep_stack(|| game.values())
        .map_err(|e| bad("position", e.into()))?
        .swap_remove(0);
    let outcome = game.outcomes()[0];
    json["fox"] = json!([fox.row, fox.col]);
    json["positions"] = json!(game.positions().len());
    json["depth"] = Json::Null;
    json["move"] = Json::Null;
    let mut lines = vec![format!(
        "fox and geese: geese {}, fox {fox}, board {} wide ({})",
        listed(&geese),
        args.width,
        count(game.positions().len() as u64, "position", "positions")
    )];
    let value = Ok(Sides::of_stopper(value));
    super::super::cgt_loopy::describe(&value, outcome, &mut json, &mut lines);
    Ok(report(json, lines))
}

/// The values table: rows from the highest goose's down to 1, a column per file.
fn table(width: u16, geese: &[Square], mut json: Json) -> CliResult<Report> {
    let start = Instant::now();
    let rows =
        zermelo_cgt::on_deep_stack(|| values_table(width, geese)).map_err(|e| bad("--geese", e))?;
    let text: Vec<Vec<String>> = rows
        .iter()
        .map(|r| {
            r.iter()
                .map(|c| match c {
                    Cell::Goose => "X".to_string(),
                    Cell::Light => String::new(),
                    Cell::Fox(v) => v.to_string(),
                })
                .collect()
        })
        .collect();
    let widths: Vec<usize> = (0..width as usize)
        .map(|c| text.iter().map(|r| r[c].len()).max().unwrap_or(0))
        .collect();
    let top = rows.len();
    let mut lines = vec![format!(
        "fox and geese: the fox on each dark square below geese {} (board {width} wide)",
        geese
            .iter()
            .map(|s| s.to_string())
            .collect::<Vec<_>>()
            .join(",")
    )];
    let header: Vec<String> = widths
        .iter()
        .enumerate()
        .map(|(c, &w)| format!("{:>w$}", c + 1, w = w.max(1)))
        .collect();
    lines.push(format!("col    {}", header.join(" | ")));
    for (i, r) in text.iter().enumerate() {
        let cells: Vec<String> = r
            .iter()
            .zip(&widths)
            .map(|(t, &w)| format!("{t:>w$}", w = w.max(1)))
            .collect();
        lines.push(format!("row {:>2} {}", top - i, cells.join(" | ")));
    }
    let seconds = start.elapsed().as_secs_f64();
    lines.push(format!("{seconds:.3} s"));
    json["rows"] = json!(rows
        .iter()
        .zip(&text)
        .map(|(r, t)| r
            .iter()
            .zip(t)
            .map(|(c, t)| match c {
                Cell::Light => Json::Null,
                _ => json!(t),
            })
            .collect::<Vec<_>>())
        .collect::<Vec<_>>());
    json["seconds"] = json!(seconds);
    Ok(report(json, lines))
}

fn report(json: Json, lines: Vec<String>) -> Report {
    let mut r = Report::new(json);
    for l in lines {
        r.line(l);
    }
    r
}
