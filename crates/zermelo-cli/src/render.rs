//! Rendering solutions as tables, CSV and JSON.

use std::io::{self, Write};

use clap::ValueEnum;
use zermelo::graph::TwoPlayerGraph;
use zermelo::solve::{best_move, Counts};
use zermelo::{NodeId, Solution};

use crate::input::Game;

/// `--format`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// Aligned columns for people.
    #[default]
    Table,
    /// Comma-separated values with a header line.
    Csv,
    /// JSON.
    Json,
}

/// Writes `v` as a JSON value: a number, or `null`.
pub fn json_opt(out: &mut dyn Write, v: Option<impl std::fmt::Display>) -> io::Result<()> {
    match v {
        Some(v) => write!(out, "{v}"),
        None => out.write_all(b"null"),
    }
}

fn opt(v: Option<impl std::fmt::Display>) -> String {
    v.map(|v| v.to_string()).unwrap_or_default()
}

/// The node column(s) of a state: `node` or `position,to_move`.
pub fn node_fields(game: &Game, u: NodeId) -> Vec<(&'static str, u32)> {
    match game.two_player() {
        None => vec![("node", u)],
        Some(_) => {
            let (p, player) = TwoPlayerGraph::split(u);
            vec![("position", p), ("to_move", player.index() as u32)]
        }
    }
}

/// The best move as the user sees it: a node, or the position moved to.
pub fn shown_move(game: &Game, solution: &Solution, u: NodeId) -> Option<NodeId> {
    let m = best_move(game.graph(), &game.rules, solution, u)?;
    Some(match game.two_player() {
        Some(_) => TwoPlayerGraph::split(m).0,
        None => m,
    })
}

/// Full solution, one row per node.
pub fn write_solution(
    out: &mut dyn Write,
    game: &Game,
    solution: &Solution,
    format: Format,
) -> io::Result<()> {
    match format {
        Format::Csv => match game.two_player() {
            Some(tp) => zermelo::io::write_two_player_csv(out, tp, &game.rules, solution),
            None => zermelo::io::write_solution_csv(out, game.graph(), &game.rules, solution),
        },
        Format::Table => write_table(out, game, solution),
        Format::Json => write_json(out, game, solution),
    }
}

fn write_table(out: &mut dyn Write, game: &Game, solution: &Solution) -> io::Result<()> {
    let graph = game.graph();
    let digits = graph.node_count().max(1).to_string().len();
    let first = node_fields(game, 0);
    let widths: Vec<usize> = first
        .iter()
        .map(|(name, _)| name.len().max(digits))
        .collect();
    let mv = "best_move".len().max(digits);
    for ((name, _), w) in first.iter().zip(&widths) {
        write!(out, "{name:>w$}  ")?;
    }
    writeln!(
        out,
        "{:<7}  {:>5}  {:>mv$}",
        "outcome", "depth", "best_move"
    )?;
    for u in graph.nodes() {
        for ((_, v), w) in node_fields(game, u).iter().zip(&widths) {
            write!(out, "{v:>w$}  ")?;
        }
        let row = format!(
            "{:<7}  {:>5}  {:>mv$}",
            solution.outcome(u).as_str(),
            opt(solution.depth(u)),
            opt(shown_move(game, solution, u)),
        );
        writeln!(out, "{}", row.trim_end())?;
    }
    Ok(())
}

/// The JSON of [`zermelo::report::SolveReport`] (what `POST /api/solve` answers), streamed by
/// hand: a solution can have 10^7 rows, and building them all as serde values first would double
/// the memory. `tests/report_json.rs` checks it equals the serde rendering.
fn write_json(out: &mut dyn Write, game: &Game, solution: &Solution) -> io::Result<()> {
    out.write_all(b"{")?;
    let g = game.graph();
    write_summary_fields(out, g.node_count(), g.edge_count(), &solution.counts())?;
    out.write_all(b",\"solution\":[")?;
    for u in game.graph().nodes() {
        if u > 0 {
            out.write_all(b",")?;
        }
        out.write_all(b"\n{")?;
        for (name, v) in node_fields(game, u) {
            write!(out, "\"{name}\":{v},")?;
        }
        write!(out, "\"outcome\":\"{}\",\"depth\":", solution.outcome(u))?;
        json_opt(out, solution.depth(u))?;
        out.write_all(b",\"best_move\":")?;
        json_opt(out, shown_move(game, solution, u))?;
        out.write_all(b"}")?;
    }
    out.write_all(b"\n]}\n")
}

fn write_summary_fields(
    out: &mut dyn Write,
    nodes: usize,
    edges: u64,
    c: &Counts,
) -> io::Result<()> {
    write!(
        out,
        "\"nodes\":{nodes},\"edges\":{edges},\"win\":{},\"lose\":{},\"draw\":{},\"max_depth\":",
        c.win, c.lose, c.draw
    )?;
    json_opt(out, c.max_depth)
}

/// Counts only (`--summary`).
pub fn write_summary(
    out: &mut dyn Write,
    nodes: usize,
    edges: u64,
    counts: &Counts,
    format: Format,
) -> io::Result<()> {
    match format {
        Format::Json => {
            let summary = zermelo::report::Summary::new(nodes, edges, counts);
            serde_json::to_writer(&mut *out, &summary)?;
            out.write_all(b"\n")
        }
        Format::Csv => writeln!(
            out,
            "nodes,edges,win,lose,draw,max_depth\n{nodes},{edges},{},{},{},{}",
            counts.win,
            counts.lose,
            counts.draw,
            opt(counts.max_depth)
        ),
        Format::Table => {
            let max = counts.max_depth.map_or("-".to_string(), |d| d.to_string());
            writeln!(out, "nodes      {nodes}")?;
            writeln!(out, "edges      {edges}")?;
            writeln!(out, "win        {}", counts.win)?;
            writeln!(out, "lose       {}", counts.lose)?;
            writeln!(out, "draw       {}", counts.draw)?;
            writeln!(out, "max_depth  {max}")
        }
    }
}
