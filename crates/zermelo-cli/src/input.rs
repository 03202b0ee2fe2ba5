//! Loading a game from the command line: the flags become [`zermelo::io::LoadOptions`] and
//! [`zermelo::io::open`] does the rest.

use std::path::PathBuf;
use std::sync::atomic::AtomicU64;
use std::sync::{Arc, Mutex};

use clap::{Args, ValueEnum};
use zermelo::graph::{Csr, Rules, TwoPlayerGraph};
use zermelo::io::{self, InputFormat, LoadOptions, Loaded, Rows, Source, Verdicts};
use zermelo::{NodeId, Player};

use crate::error::{CliResult, Failure};
use crate::limits::memory_limit;
use crate::progress::{Bar, Progress};
use crate::read::read_text_input;

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
    /// zermelo's binary graph (`.zg`, written by `zermelo convert`), memory-mapped.
    Binary,
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

/// A loaded game with forward rows: the graph that gets solved and its rules.
pub struct Game {
    /// The terminal rules.
    pub rules: Rules,
    /// The input's name for messages.
    pub name: String,
    loaded: Loaded,
}

impl Game {
    /// The graph every solver works on (the `(position, player)` graph for two-player games).
    pub fn graph(&self) -> &Csr {
        self.loaded
            .csr()
            .expect("the CLI loads forward rows for a Game")
    }

    /// The two-player game, if this is one.
    pub fn two_player(&self) -> Option<&TwoPlayerGraph> {
        self.loaded.two_player()
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

/// Reads and validates the game named by `args`, with forward and reverse rows.
pub fn load(args: &GameArgs) -> CliResult<Game> {
    let loaded = open(args, Rows::Both)?;
    Ok(Game {
        rules: loaded.rules.clone(),
        name: loaded.name.clone(),
        loaded,
    })
}

/// Reads the game named by `args` for solving only: out-degrees and reverse rows when the input
/// allows it (edge-list and `.zg` files), both row sets otherwise.
pub fn load_reverse(args: &GameArgs) -> CliResult<Loaded> {
    open(args, Rows::ReverseOnly)
}

/// The flags as [`LoadOptions`], then [`io::open`].
fn open(args: &GameArgs, rows: Rows) -> CliResult<Loaded> {
    let verdicts = match &args.verdicts {
        Some(path) => Some(read_text_input(path, &mut zermelo::io::VerdictLines)?),
        None => None,
    };
    let progress = CliProgress::default();
    let options = LoadOptions {
        format: match args.input {
            InputKind::Auto => None,
            InputKind::Edges => Some(InputFormat::Edges),
            InputKind::Json => Some(InputFormat::Json),
            InputKind::TwoPlayer => Some(InputFormat::TwoPlayer),
            InputKind::Binary => Some(InputFormat::Binary),
        },
        rows,
        misere: args.misere,
        verdicts: verdicts
            .as_ref()
            .map(|(text, name)| Verdicts { name, text }),
        memory: memory_limit(),
        // The CLI reads files it was just given; nobody rewrites them during a run.
        mmap: true,
        progress: Some(&progress),
    };
    let source = if args.file.as_os_str() == "-" {
        Source::Stdin
    } else {
        Source::Path(&args.file)
    };
    Ok(io::open(source, &options)?)
}

/// Loading phases as progress bars.
#[derive(Default)]
struct CliProgress {
    counter: Arc<AtomicU64>,
    bar: Mutex<Option<Bar>>,
}

impl io::LoadProgress for CliProgress {
    fn start(&self, name: &'static str, total: Option<u64>) {
        self.counter.store(0, std::sync::atomic::Ordering::Relaxed);
        let progress = Progress::global();
        let bar = match total {
            Some(t) => progress.bytes_with(name, t, self.counter.clone()),
            None => progress.spinner(name),
        };
        if let Ok(mut slot) = self.bar.lock() {
            *slot = Some(bar);
        }
    }

    fn counter(&self) -> &AtomicU64 {
        &self.counter
    }

    fn finish(&self) {
        if let Ok(mut slot) = self.bar.lock() {
            slot.take();
        }
    }
}
