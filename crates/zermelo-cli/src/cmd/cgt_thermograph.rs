//! `zermelo cgt thermograph`: the thermograph of a value written in notation, or of a position
//! of a two-player file (`--from N`): mean, temperature and both walls, as lines, one JSON
//! object (`left_wall` and `right_wall` as lists of `[temperature, value]` points, the mast
//! standing vertically above the last) or an SVG picture.

use std::path::Path;

use clap::Args;
use serde_json::{json, Value as Json};
use zermelo_cgt::{CgtError, Dyadic, Thermograph, Trajectory, Value};

use super::cgt_load::{failure, load_game, parse_value, positions};
use crate::error::{CliResult, Failure};
use crate::shown::Report;

/// Arguments of `zermelo cgt thermograph`.
#[derive(Debug, Args)]
pub struct ThermographArgs {
    /// A value in CGSuite notation (e.g. `{2||1|0}`), or with `--from` a two-player file.
    #[arg(allow_hyphen_values = true, value_name = "VALUE|FILE")]
    value: String,
    /// Read the game from the two-player file VALUE|FILE and draw this position.
    #[arg(long, value_name = "NODE")]
    from: Option<u64>,
    /// The most sums and comparisons of games the evaluation of VALUE may take.
    #[arg(long, value_name = "STEPS", default_value_t = zermelo_cgt::NOTATION_WORK)]
    max_work: u64,
}

/// What `cgt thermograph` prints: a report (lines or JSON), or a picture.
pub enum Drawn {
    /// Lines and a JSON object.
    Report(Report),
    /// An SVG document.
    Svg(String),
}

/// Runs `zermelo cgt thermograph` (`svg`: draw the picture instead of the report).
pub fn thermograph(a: ThermographArgs, svg: bool) -> CliResult<Drawn> {
    let (name, value, mut json) = match a.from {
        Some(p) => {
            let (name, game) = load_game(Path::new(&a.value))?;
            let start = positions(&name, &game, &[p])?[0];
            let values = zermelo_cgt::graph_values(&game, &[start]).map_err(|e| match e {
                CgtError::Cycle(cycle) => Failure::input(format!(
                    "{name}: position {p} is loopy: a cycle of positions lies below it \
                     ({cycle}); thermographs are of short games (no cycle below them): for its \
                     value, `zermelo cgt value {name} --from {p}`"
                )),
                e => failure(&name, e),
            })?;
            let v = values[start as usize].expect("the start is valued");
            (name, v, json!({ "from": p }))
        }
        None => {
            let v = parse_value(&a.value, a.max_work)?;
            (format!("value {:?}", a.value), v, json!({}))
        }
    };
    let th = value.thermograph().map_err(|e| failure(&name, e))?;
    if svg {
        return Ok(Drawn::Svg(th.to_svg(&format!("thermograph of {value}"))));
    }
    json["value"] = json!(value.to_string());
    json["mean"] = json!(th.mean().to_string());
    json["temperature"] = json!(th.temperature().to_string());
    json["left_wall"] = points(th.left_wall());
    json["right_wall"] = points(th.right_wall());
    let mut r = Report::new(json);
    for line in lines(value, &th) {
        r.line(line);
    }
    Ok(Drawn::Report(r))
}

/// A wall as `[[t, value], ...]`, exact.
pub fn points(wall: &Trajectory) -> Json {
    Json::Array(
        wall.points()
            .into_iter()
            .map(|(t, v)| json!([t.to_string(), v.to_string()]))
            .collect(),
    )
}

/// The report's lines: value, mean, temperature and the walls' breakpoints.
pub fn lines(value: Value, th: &Thermograph) -> Vec<String> {
    let wall = |w: &Trajectory| -> String {
        let pts: Vec<String> = w
            .points()
            .into_iter()
            .map(|(t, v): (Dyadic, Dyadic)| format!("({t}, {v})"))
            .collect();
        format!(
            "{}, then the mast at {} above t = {}",
            pts.join(" "),
            th.mean(),
            th.temperature()
        )
    };
    vec![
        format!("value {value}"),
        format!("mean {}", th.mean()),
        format!("temperature {}", th.temperature()),
        format!("left wall (t, value): {}", wall(th.left_wall())),
        format!("right wall (t, value): {}", wall(th.right_wall())),
    ]
}

/// Thermographs for `zermelo serve` (the values page): notation with the default work limit,
/// the canonical forms' memory limit of the `cgt` commands.
pub struct ServedValues;

impl ServedValues {
    /// The values served, with the memory limit set.
    pub fn with_memory_limit() -> ServedValues {
        crate::limits::limit_cgt_memory();
        ServedValues
    }
}

impl zermelo_server::Values for ServedValues {
    fn thermograph(&self, text: &str) -> Result<Json, zermelo_server::ValuesError> {
        let bad = |m: String| zermelo_server::ValuesError::BadValue(m);
        zermelo_cgt::on_deep_stack(|| {
            let value: Value = text.parse().map_err(|e| bad(format!("{text:?}: {e}")))?;
            let th = value.thermograph().map_err(|e| bad(e.to_string()))?;
            Ok(json!({
                "value": value.to_string(),
                "outcome": value.outcome().as_str(),
                "mean": th.mean().to_string(),
                "temperature": th.temperature().to_string(),
                "left_wall": points(th.left_wall()),
                "right_wall": points(th.right_wall()),
                "svg": th.to_svg(&format!("thermograph of {value}")),
            }))
        })
    }
}
