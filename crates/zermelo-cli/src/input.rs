//! Loading a game from the command line: file, format, convention and verdicts.

use std::path::PathBuf;

use clap::{Args, ValueEnum};
use zermelo::graph::{Convention, Csr, Rules, TwoPlayerGraph};
use zermelo::io::{self, InputFormat};
use zermelo::{NodeId, Player};

use crate::error::{CliResult, Failure};
use crate::output::read_input;

/// `--input`: how to read the game file.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum InputKind {
    /// JSON if the name ends in .json or the text starts with `{`, else an edge list.
    #[default]
    Auto,
    /// Edge list: header `N M`, then M lines `u v`.
    Edges,
    /// JSON: {"nodes": N, "edges": [[u, v], ...], "misere": false, "verdicts": [[node, "draw"]]}.
    Json,
    /// Partizan edge list: header `n m0 m1`, then the moves of player 0, then of player 1.
    TwoPlayer,
}

/// The options every solving subcommand shares.
#[derive(Clone, Debug, Args)]
pub struct GameArgs {
    /// The game graph (`-` for standard input).
    pub file: PathBuf,
    /// Input format.
    #[arg(long, value_enum, default_value_t = InputKind::Auto)]
    pub input: InputKind,
    /// Misère play: a player who cannot move wins.
    #[arg(long)]
    pub misere: bool,
    /// Explicit terminal verdicts, lines `node outcome` (two-player: `position player outcome`),
    /// outcome win|lose|draw. A node with a verdict is terminal; `draw` is a tie.
    #[arg(long, value_name = "FILE")]
    pub verdicts: Option<PathBuf>,
}

/// A loaded game: the graph that gets solved and its rules.
pub struct Game {
    /// The terminal rules.
    pub rules: Rules,
    /// The input's name for messages.
    pub name: String,
    shape: Shape,
}

enum Shape {
    Plain(Csr),
    TwoPlayer(TwoPlayerGraph),
}

impl Game {
    /// The graph every solver works on (the `(position, player)` graph for two-player games).
    pub fn graph(&self) -> &Csr {
        match &self.shape {
            Shape::Plain(g) => g,
            Shape::TwoPlayer(g) => g.states(),
        }
    }

    /// The two-player game, if this is one.
    pub fn two_player(&self) -> Option<&TwoPlayerGraph> {
        match &self.shape {
            Shape::Plain(_) => None,
            Shape::TwoPlayer(g) => Some(g),
        }
    }

    /// Parses a user-given start (given with `flag`): a node, or a position with `to_move` for
    /// two-player games.
    pub fn start(&self, flag: &str, node: u64, to_move: Option<u8>) -> CliResult<NodeId> {
        match (self.two_player(), to_move) {
            (Some(g), to_move) => {
                let count = g.position_count() as u64;
                if node >= count {
                    return Err(Failure::input(format!(
                        "{flag} {node}: position {node} is out of range: {} has {count} positions",
                        self.name
                    )));
                }
                let player = Player::from_index(u64::from(to_move.unwrap_or(0)))
                    .ok_or_else(|| Failure::input("--to-move must be 0 or 1"))?;
                Ok(TwoPlayerGraph::state(node as NodeId, player))
            }
            (None, Some(_)) => Err(Failure::input(
                "--to-move applies only to two-player games (--input two-player)",
            )),
            (None, None) => {
                let count = self.graph().node_count() as u64;
                if node >= count {
                    return Err(Failure::input(format!(
                        "{flag} {node}: node {node} is out of range: {} has {count} nodes",
                        self.name
                    )));
                }
                Ok(node as NodeId)
            }
        }
    }
}

/// Reads and validates the game named by `args`.
pub fn load(args: &GameArgs) -> CliResult<Game> {
    let (bytes, name) = read_input(&args.file)?;
    let format = match args.input {
        InputKind::Auto => InputFormat::detect(&name, &bytes),
        InputKind::Edges => InputFormat::Edges,
        InputKind::Json => InputFormat::Json,
        InputKind::TwoPlayer => InputFormat::TwoPlayer,
    };
    let (shape, rules) = match format {
        InputFormat::Edges => (
            Shape::Plain(io::parse_edge_list(&bytes, &name)?),
            Rules::normal(),
        ),
        InputFormat::Json => {
            let game = io::parse_json_graph(&bytes, &name)?;
            (Shape::Plain(game.graph), game.rules)
        }
        InputFormat::TwoPlayer => (
            Shape::TwoPlayer(io::parse_two_player(&bytes, &name)?),
            Rules::normal(),
        ),
    };
    drop(bytes);
    let mut game = Game { rules, name, shape };
    game.rules = combined_rules(args, &game)?;
    Ok(game)
}

/// Combines the file's own rules (JSON) with `--misere` and `--verdicts`.
fn combined_rules(args: &GameArgs, game: &Game) -> CliResult<Rules> {
    let convention = if args.misere || game.rules.convention() == Convention::Misere {
        Convention::Misere
    } else {
        Convention::Normal
    };
    let mut verdicts: Vec<(u64, zermelo::Outcome)> = game
        .rules
        .verdicts()
        .iter()
        .map(|&(n, o)| (u64::from(n), o))
        .collect();
    let mut source = game.name.clone();
    if let Some(path) = &args.verdicts {
        let (bytes, name) = read_input(path)?;
        let extra = match game.two_player() {
            Some(g) => io::parse_two_player_verdicts(&bytes, &name, g.position_count())?,
            None => io::parse_verdicts(&bytes, &name, game.graph().node_count())?,
        };
        verdicts.extend(extra);
        source = format!("{} and {}", game.name, name);
    }
    Rules::with_convention(convention)
        .with_verdicts(game.graph().node_count(), verdicts)
        .map_err(|e| Failure::input(format!("{source}: verdicts: {e}")))
}
