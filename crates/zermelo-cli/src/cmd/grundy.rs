//! `zermelo grundy`: Sprague–Grundy values of an impartial acyclic game, and sums of games.

use std::io::{self, Write};
use std::path::PathBuf;

use clap::Args;
use zermelo::graph::Convention;
use zermelo::solve::{self, Nimber, SumAnalysis};
use zermelo::NodeId;

use crate::error::{CliResult, Failure};
use crate::input::{load, GameArgs};
use crate::output::emit;
use crate::render::Format;

/// Arguments of `zermelo grundy`.
#[derive(Debug, Args)]
pub struct GrundyArgs {
    #[command(flatten)]
    game: GameArgs,
    /// Analyse the sum of games standing at these nodes, e.g. `--sum 3,5,7`: nim-sum and a
    /// winning move.
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
    if game.rules.convention() == Convention::Misere || !game.rules.verdicts().is_empty() {
        return Err(Failure::input(format!(
            "{name}: Grundy values (and the XOR rule for sums) hold for normal play only, \
             without misère or explicit verdicts"
        )));
    }
    let graph = game.graph();
    let values = solve::grundy(graph).map_err(|cycle| {
        Failure::input(format!(
            "{name}: the graph has a cycle ({cycle}); Grundy values exist only for acyclic games"
        ))
    })?;
    match &args.sum {
        None => emit(args.output.as_deref(), |out| {
            write_values(out, &values, args.format)
        }),
        Some(starts) => {
            let starts = starts
                .iter()
                .map(|&s| game.start("--sum", s, None))
                .collect::<CliResult<Vec<NodeId>>>()?;
            let analysis = solve::analyse_sum(graph, &values, &starts);
            emit(args.output.as_deref(), |out| {
                write_sum(out, &values, &starts, &analysis, args.format)
            })
        }
    }
}

fn write_values(out: &mut dyn Write, values: &[Nimber], format: Format) -> io::Result<()> {
    match format {
        Format::Csv => {
            writeln!(out, "node,grundy")?;
            for (u, g) in values.iter().enumerate() {
                writeln!(out, "{u},{g}")?;
            }
        }
        Format::Table => {
            let w = values.len().max(1).to_string().len().max(4);
            writeln!(out, "{:>w$}  grundy", "node")?;
            for (u, g) in values.iter().enumerate() {
                writeln!(out, "{u:>w$}  {g:>6}")?;
            }
        }
        Format::Json => {
            out.write_all(b"{\"grundy\":[")?;
            for (u, g) in values.iter().enumerate() {
                if u > 0 {
                    out.write_all(b",")?;
                }
                write!(out, "{g}")?;
            }
            out.write_all(b"]}\n")?;
        }
    }
    Ok(())
}

fn write_sum(
    out: &mut dyn Write,
    values: &[Nimber],
    starts: &[NodeId],
    a: &SumAnalysis,
    format: Format,
) -> io::Result<()> {
    let outcome = if a.nim_sum.0 == 0 { "lose" } else { "win" };
    match format {
        Format::Json => {
            out.write_all(b"{\"components\":[")?;
            for (i, &s) in starts.iter().enumerate() {
                let sep = if i > 0 { "," } else { "" };
                write!(
                    out,
                    "{sep}{{\"node\":{s},\"grundy\":{}}}",
                    values[s as usize]
                )?;
            }
            write!(
                out,
                "],\"nim_sum\":{},\"outcome\":\"{outcome}\",\"winning_move\":",
                a.nim_sum
            )?;
            match a.winning_move {
                Some(m) => write!(
                    out,
                    "{{\"component\":{},\"from\":{},\"to\":{}}}",
                    m.component, m.from, m.to
                )?,
                None => out.write_all(b"null")?,
            }
            out.write_all(b"}\n")
        }
        Format::Csv => {
            // One table: every row repeats the sum's nim-sum and outcome; `move_to` is set on
            // the row of the component that makes the winning move.
            writeln!(out, "component,node,grundy,nim_sum,outcome,move_to")?;
            for (i, &s) in starts.iter().enumerate() {
                let to = a
                    .winning_move
                    .filter(|m| m.component == i)
                    .map(|m| m.to.to_string())
                    .unwrap_or_default();
                writeln!(
                    out,
                    "{i},{s},{},{},{outcome},{to}",
                    values[s as usize], a.nim_sum
                )?;
            }
            Ok(())
        }
        Format::Table => {
            writeln!(out, "component  {:>8}  grundy", "node")?;
            for (i, &s) in starts.iter().enumerate() {
                writeln!(out, "{i:>9}  {s:>8}  {:>6}", values[s as usize])?;
            }
            if format == Format::Table {
                writeln!(
                    out,
                    "nim-sum {}: {outcome} for the player to move",
                    a.nim_sum
                )?;
                if let Some(m) = a.winning_move {
                    writeln!(
                        out,
                        "winning move: in component {}, move {} -> {} (grundy {})",
                        m.component, m.from, m.to, values[m.to as usize]
                    )?;
                }
            }
            Ok(())
        }
    }
}
