//! `zermelo convert`: between the text formats and the binary `.zg` graph format.

use std::path::PathBuf;

use clap::Args;
use zermelo::io::binary;

use crate::error::{CliResult, Failure};
use crate::input::{load, GameArgs};
use crate::output::emit;

/// Arguments of `zermelo convert`.
#[derive(Debug, Args)]
pub struct ConvertArgs {
    #[command(flatten)]
    game: GameArgs,
    /// Where to write: a name ending in `.zg` gets the binary format, anything else an edge list
    /// (also accepted as `-o FILE`, like the other subcommands).
    #[arg(value_name = "OUT", required_unless_present = "output")]
    out: Option<PathBuf>,
    /// Same as OUT.
    #[arg(long, short, value_name = "FILE", conflicts_with = "out")]
    output: Option<PathBuf>,
}

/// Runs `zermelo convert`. The binary format stores the graph only: a JSON file's `misere` and
/// `verdicts` are not kept (pass `--misere` / `--verdicts` when solving the `.zg` file).
pub fn run(args: ConvertArgs) -> CliResult {
    let game = load(&args.game)?;
    if game.two_player().is_some() {
        crate::note!(
            "zermelo: note: the (position, player) state graph is written; state 2p+i is \
             position p with player i to move"
        );
    }
    if game.rules.convention() != zermelo::graph::Convention::Normal
        || !game.rules.verdicts().is_empty()
    {
        crate::note!(
            "zermelo: note: the output stores the graph only; pass --misere / --verdicts when \
             solving it"
        );
    }
    let graph = game.graph();
    let Some(path) = args.out.or(args.output) else {
        return Err(Failure::input(
            "convert needs an output file: OUT or -o FILE",
        ));
    };
    let binary_out = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("zg"));
    emit(Some(&path), |out| {
        if binary_out {
            binary::write_graph(out, graph)
        } else {
            zermelo::io::write_graph_edge_list(out, graph)
        }
    })
}
