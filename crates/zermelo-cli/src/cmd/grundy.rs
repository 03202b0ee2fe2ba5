//! `zermelo grundy`: Sprague–Grundy values of an impartial game, and sums of games. Acyclic
//! graphs get ordinary Grundy values; graphs with cycles the generalized values of Smith and
//! Fraenkel (`3`, `inf{0,2}`), whose sums may also be drawn.

use std::io::{self, Write};
use std::path::PathBuf;

use clap::Args;
use zermelo::solve::{self, LoopySumAnalysis, LoopyValues};
use zermelo::{NodeId, Outcome};

use crate::error::{CliResult, Failure};
use crate::input::{load, GameArgs};
use crate::output::emit;
use crate::render::Format;

/// Arguments of `zermelo grundy`.
#[derive(Debug, Args)]
pub struct GrundyArgs {
    #[command(flatten)]
    game: GameArgs,
    /// Analyse the sum of games standing at these nodes, e.g. `--sum 3,5,7`: its value, the
    /// outcome (win, lose, or draw with cycles) and a winning or drawing move.
    #[arg(long, value_delimiter = ',', value_name = "NODES")]
    sum: Option<Vec<u64>>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Table)]
    format: Format,
    /// Write to FILE (atomically) instead of standard output.
    #[arg(long, short, value_name = "FILE")]
    output: Option<PathBuf>,
}

/// Runs `zermelo grundy`.
pub fn run(args: GrundyArgs) -> CliResult {
    let game = load(&args.game)?;
    let name = args.game.file.display().to_string();
    if game.two_player().is_some() {
        return Err(Failure::input(format!(
            "{name}: Grundy values are for impartial games; a two-player (partizan) game has none"
        )));
    }
    let graph = game.graph();
    let values = solve::grundy_values(graph, &game.rules)
        .map_err(|e| Failure::input(format!("{name}: {e}")))?;
    match &args.sum {
        None => emit(args.output.as_deref(), |out| {
            write_values(out, &values, args.format)
        }),
        Some(starts) => {
            let starts = starts
                .iter()
                .map(|&s| game.start("--sum", s, None))
                .collect::<CliResult<Vec<NodeId>>>()?;
            let analysis = solve::analyse_loopy_sum(graph, &values, &starts);
            emit(args.output.as_deref(), |out| {
                write_sum(out, &values, &starts, &analysis, args.format)
            })
        }
    }
}

/// A value as JSON: a number when finite, the string `"inf{0,2}"` when infinite.
fn json_value(value: impl std::fmt::Display, finite: bool) -> String {
    if finite {
        value.to_string()
    } else {
        format!("\"{value}\"")
    }
}

fn write_values(out: &mut dyn Write, values: &LoopyValues, format: Format) -> io::Result<()> {
    let nodes = 0..values.len() as NodeId;
    match format {
        Format::Csv => {
            writeln!(out, "node,grundy")?;
            for u in nodes {
                writeln!(out, "{u},{}", csv_field(values.get(u).to_string()))?;
            }
        }
        Format::Table => {
            let w = values.len().max(1).to_string().len().max(4);
            writeln!(out, "{:>w$}  grundy", "node")?;
            for u in nodes {
                writeln!(out, "{u:>w$}  {:>6}", values.get(u).to_string())?;
            }
        }
        Format::Json => {
            out.write_all(b"{\"grundy\":[")?;
            for u in nodes {
                if u > 0 {
                    out.write_all(b",")?;
                }
                let g = values.get(u);
                out.write_all(json_value(g, g.finite().is_some()).as_bytes())?;
            }
            out.write_all(b"]}\n")?;
        }
    }
    Ok(())
}

/// A CSV field: `inf{0,2}` has a comma, so it is quoted.
fn csv_field(text: String) -> String {
    if text.contains(',') {
        format!("\"{text}\"")
    } else {
        text
    }
}

fn outcome_name(o: Outcome) -> &'static str {
    match o {
        Outcome::Win => "win",
        Outcome::Lose => "lose",
        Outcome::Draw => "draw",
    }
}

fn write_sum(
    out: &mut dyn Write,
    values: &LoopyValues,
    starts: &[NodeId],
    a: &LoopySumAnalysis,
    format: Format,
) -> io::Result<()> {
    let outcome = outcome_name(a.outcome);
    let sum_finite = matches!(a.value, solve::SumValue::Finite(_));
    let (winning, drawing) = match a.outcome {
        Outcome::Win => (a.best_move, None),
        Outcome::Draw => (None, a.best_move),
        Outcome::Lose => (None, None),
    };
    match format {
        Format::Json => {
            out.write_all(b"{\"components\":[")?;
            for (i, &s) in starts.iter().enumerate() {
                let sep = if i > 0 { "," } else { "" };
                let g = values.get(s);
                let g = json_value(g, g.finite().is_some());
                write!(out, "{sep}{{\"node\":{s},\"grundy\":{g}}}")?;
            }
            write!(
                out,
                "],\"nim_sum\":{},\"outcome\":\"{outcome}\",\"winning_move\":",
                json_value(&a.value, sum_finite)
            )?;
            let write_move = |out: &mut dyn Write, m: Option<solve::SumMove>| match m {
                Some(m) => write!(
                    out,
                    "{{\"component\":{},\"from\":{},\"to\":{}}}",
                    m.component, m.from, m.to
                ),
                None => out.write_all(b"null"),
            };
            write_move(out, winning)?;
            if a.outcome == Outcome::Draw {
                out.write_all(b",\"drawing_move\":")?;
                write_move(out, drawing)?;
            }
            out.write_all(b"}\n")
        }
        Format::Csv => {
            // One table: every row repeats the sum's value and outcome; `move_to` is set on the
            // row of the component that makes the winning (or, in a draw, drawing) move.
            writeln!(out, "component,node,grundy,nim_sum,outcome,move_to")?;
            for (i, &s) in starts.iter().enumerate() {
                let to = a
                    .best_move
                    .filter(|m| m.component == i)
                    .map(|m| m.to.to_string())
                    .unwrap_or_default();
                let g = values.get(s).to_string();
                let v = a.value.to_string();
                writeln!(
                    out,
                    "{i},{s},{},{},{outcome},{to}",
                    csv_field(g),
                    csv_field(v)
                )?;
            }
            Ok(())
        }
        Format::Table => {
            writeln!(out, "component  {:>8}  grundy", "node")?;
            for (i, &s) in starts.iter().enumerate() {
                writeln!(out, "{i:>9}  {s:>8}  {:>6}", values.get(s).to_string())?;
            }
            let what = if sum_finite { "nim-sum" } else { "value" };
            writeln!(out, "{what} {}: {outcome} for the player to move", a.value)?;
            if let Some(m) = winning {
                writeln!(
                    out,
                    "winning move: in component {}, move {} -> {} (grundy {})",
                    m.component,
                    m.from,
                    m.to,
                    values.get(m.to)
                )?;
            }
            if let Some(m) = drawing {
                writeln!(
                    out,
                    "drawing move: in component {}, move {} -> {} (grundy {}); drawing strategy: \
                     always move to a drawn sum (infinite value, finite part not in its set), \
                     which every drawn sum allows",
                    m.component,
                    m.from,
                    m.to,
                    values.get(m.to)
                )?;
            }
            Ok(())
        }
    }
}
