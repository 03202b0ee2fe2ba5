//! `zermelo verify`: check a claimed solution with the certificate rules, in O(V + E).

use std::path::PathBuf;

use clap::Args;
use zermelo::graph::TwoPlayerGraph;
use zermelo::io::parse_solution_csv;
use zermelo::solve;
use zermelo::NodeId;

use crate::error::{CliResult, Failure};
use crate::input::{load, GameArgs, InputKind};
use crate::read::read_text_input;

/// Arguments of `zermelo verify`.
#[derive(Debug, Args)]
pub struct VerifyArgs {
    #[command(flatten)]
    game: GameArgs,
    /// The claimed solution: CSV `node,outcome,depth,best_move` (or
    /// `position,to_move,outcome,depth,best_move`; `best_move` optional), or a binary `.zs`.
    solution: PathBuf,
}

/// Runs `zermelo verify`: exit 0 when the certificate holds, 1 naming the first violation.
pub fn run(mut args: VerifyArgs) -> CliResult {
    // A pipe is checked row by row as it arrives (a `.zs` is read whole).
    let mut check = zermelo::io::SolutionCsvLines::default();
    let (csv, csv_name) = read_text_input(&args.solution, &mut check)?;
    // A two-player CSV implies a two-player game file.
    let first_line = csv
        .split(|&b| b == b'\n')
        .find(|l| !l.trim_ascii().is_empty());
    if args.game.input == InputKind::Auto
        && first_line.is_some_and(|l| l.trim_ascii().starts_with(b"position"))
    {
        args.game.input = InputKind::TwoPlayer;
    }
    let game = load(&args.game)?;
    let graph = game.graph();
    let claimed = if zermelo::io::binary::is_binary_solution(&csv) {
        zermelo::io::ClaimedSolution {
            solution: zermelo::io::binary::read_solution(&csv, &csv_name, graph.node_count())?,
            best_moves: None,
            two_player: game.two_player().is_some(),
        }
    } else {
        parse_solution_csv(&csv, &csv_name, graph.node_count()).map_err(|e| {
            // A row that reads but claims the impossible is the solution's fault: invalid.
            if e.kind() == zermelo::io::ErrorKind::Inconsistent {
                Failure::Rejected(format!("invalid: {e}"))
            } else {
                e.into()
            }
        })?
    };
    if claimed.two_player != game.two_player().is_some() {
        return Err(Failure::input(format!(
            "{csv_name}: the solution's layout ({}) does not match the game ({})",
            if claimed.two_player {
                "two-player"
            } else {
                "one-player"
            },
            if game.two_player().is_some() {
                "two-player"
            } else {
                "one-player"
            },
        )));
    }
    solve::verify(
        graph,
        &game.rules,
        &claimed.solution,
        claimed.best_moves.as_deref(),
    )
    .map_err(|v| {
        let message = if game.two_player().is_some() {
            let subject = |s: NodeId| {
                let (p, player) = TwoPlayerGraph::split(s);
                format!("position {p} with player {player} to move")
            };
            let other = |s: NodeId| {
                let (p, player) = TwoPlayerGraph::split(s);
                format!("position {p} (player {player} to move)")
            };
            v.describe(&subject, &other)
        } else {
            v.to_string()
        };
        Failure::Rejected(format!("invalid: {message}"))
    })?;
    let c = claimed.solution.counts();
    crate::say!(
        "valid: {} nodes, {} edges; {} win, {} lose, {} draw; max depth {}{}",
        graph.node_count(),
        graph.edge_count(),
        c.win,
        c.lose,
        c.draw,
        c.max_depth.map_or("-".to_string(), |d| d.to_string()),
        if claimed.best_moves.is_some() {
            "; best moves optimal"
        } else {
            ""
        },
    );
    Ok(())
}
