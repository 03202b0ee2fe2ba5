//! `zermelo line`: the principal line of optimal play from a start position.

use std::io::{self, Write};

use clap::Args;
use zermelo::solve::{self, Line, LineEnd};
use zermelo::Solution;

use crate::error::CliResult;
use crate::input::{load, Game, GameArgs};
use crate::output::emit;
use crate::render::{json_opt, node_fields, Format};

/// Arguments of `zermelo line`.
#[derive(Debug, Args)]
pub struct LineArgs {
    #[command(flatten)]
    game: GameArgs,
    /// The start node (the start position for two-player games).
    #[arg(long, value_name = "N")]
    from: u64,
    /// For two-player games: the player to move at the start (0 or 1, default 0).
    #[arg(long, value_name = "PLAYER")]
    to_move: Option<u8>,
    /// Output format (table or json; csv prints the table's columns comma-separated).
    #[arg(long, value_enum, default_value_t = Format::Table)]
    format: Format,
}

/// Runs `zermelo line`.
pub fn run(args: LineArgs) -> CliResult {
    let game = load(&args.game)?;
    let start = game.start("--from", args.from, args.to_move)?;
    let solution = solve::retrograde(game.graph(), &game.rules);
    let line = solve::principal_line(game.graph(), &game.rules, &solution, start);
    emit(None, |out| match args.format {
        Format::Json => write_json(out, &game, &solution, &line),
        Format::Table => write_rows(out, &game, &solution, &line, "  "),
        Format::Csv => write_rows(out, &game, &solution, &line, ","),
    })
}

fn write_rows(
    out: &mut dyn Write,
    game: &Game,
    s: &Solution,
    line: &Line,
    sep: &str,
) -> io::Result<()> {
    let table = sep != ",";
    let cell = |text: &str, width: usize| {
        if table {
            format!("{text:>width$}")
        } else {
            text.to_string()
        }
    };
    let mut header = vec![cell("ply", 4)];
    header.extend(node_fields(game, 0).iter().map(|(n, _)| cell(n, 8)));
    header.extend([cell("outcome", 7), cell("depth", 5)]);
    writeln!(out, "{}", header.join(sep))?;
    for (ply, &u) in line.nodes.iter().enumerate() {
        let mut row = vec![cell(&ply.to_string(), 4)];
        row.extend(
            node_fields(game, u)
                .iter()
                .map(|(_, v)| cell(&v.to_string(), 8)),
        );
        let depth = s.depth(u).map(|d| d.to_string()).unwrap_or_default();
        row.extend([cell(s.outcome(u).as_str(), 7), cell(&depth, 5)]);
        writeln!(out, "{}", row.join(sep))?;
    }
    if table {
        match line.end {
            LineEnd::Terminal => writeln!(
                out,
                "end: terminal position after {} plies",
                line.nodes.len() - 1
            )?,
            LineEnd::Repeats(i) => {
                writeln!(out, "end: optimal play repeats from ply {i} (a draw)")?
            }
        }
    }
    Ok(())
}

fn write_json(out: &mut dyn Write, game: &Game, s: &Solution, line: &Line) -> io::Result<()> {
    let start = line.nodes[0];
    write!(out, "{{\"outcome\":\"{}\",\"depth\":", s.outcome(start))?;
    json_opt(out, s.depth(start))?;
    out.write_all(b",\"line\":[")?;
    for (i, &u) in line.nodes.iter().enumerate() {
        if i > 0 {
            out.write_all(b",")?;
        }
        out.write_all(b"{")?;
        for (name, v) in node_fields(game, u) {
            write!(out, "\"{name}\":{v},")?;
        }
        write!(out, "\"outcome\":\"{}\",\"depth\":", s.outcome(u))?;
        json_opt(out, s.depth(u))?;
        out.write_all(b"}")?;
    }
    match line.end {
        LineEnd::Terminal => out.write_all(b"],\"end\":\"terminal\",\"repeats_from\":null}\n"),
        LineEnd::Repeats(i) => writeln!(out, "],\"end\":\"repetition\",\"repeats_from\":{i}}}"),
    }
}
