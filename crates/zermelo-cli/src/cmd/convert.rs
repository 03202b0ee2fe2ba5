//! `zermelo convert`: between the text formats and the binary `.zg` graph format.

use std::path::PathBuf;

use clap::Args;
use zermelo::io::binary;

use crate::error::CliResult;
use crate::input::{load, GameArgs};
use crate::output::emit;

/// Arguments of `zermelo convert`.
#[derive(Debug, Args)]
pub struct ConvertArgs {
    #[command(flatten)]
    game: GameArgs,
    /// Where to write: a name ending in `.zg` gets the binary format, anything else an edge list.
    output: PathBuf,
}

/// Runs `zermelo convert`. The binary format stores the graph only: a JSON file's `misere` and
/// `verdicts` are not kept (pass `--misere` / `--verdicts` when solving the `.zg` file).
pub fn run(args: ConvertArgs) -> CliResult {
    let game = load(&args.game)?;
    if game.two_player().is_some() {
        eprintln!(
            "zermelo: note: the (position, player) state graph is written; state 2p+i is \
             position p with player i to move"
        );
    }
    if game.rules.convention() != zermelo::graph::Convention::Normal
        || !game.rules.verdicts().is_empty()
    {
        eprintln!(
            "zermelo: note: the output stores the graph only; pass --misere / --verdicts when \
             solving it"
        );
    }
    let graph = game.graph();
    let binary_out = args
        .output
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("zg"));
    emit(Some(&args.output), |out| {
        if binary_out {
            binary::write_graph(out, graph)
        } else {
            writeln!(out, "{} {}", graph.node_count(), graph.edge_count())?;
            for (u, v) in graph.edges() {
                writeln!(out, "{u} {v}")?;
            }
            Ok(())
        }
    })
}
