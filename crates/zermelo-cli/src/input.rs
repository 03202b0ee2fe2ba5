//! Loading a game from the command line: file, format, convention and verdicts.

use std::fs::File;
use std::path::{Path, PathBuf};

use clap::{Args, ValueEnum};
use zermelo::graph::{Convention, Csr, ReverseCsr, Rules, TwoPlayerGraph};
use zermelo::io::{self, InputFormat};
use zermelo::{NodeId, Player};

use crate::error::{CliResult, Failure};
use crate::output::read_input;
use crate::progress::Progress;

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
///
/// Edge lists in files go through the parallel loader; everything else is read whole.
pub fn load(args: &GameArgs) -> CliResult<Game> {
    let progress = Progress::global();
    let format = detect(args)?;
    let (shape, rules, name) = if format == InputFormat::Binary {
        let (file, name) = open(&args.file)?;
        check_file_memory(&file, &name, true, true)?;
        let bar = progress.spinner("map");
        let graph = io::binary::open_graph(&file, &name)?;
        bar.finish();
        (Shape::Plain(graph), Rules::normal(), name)
    } else if format == InputFormat::Edges && !is_stdin(args) {
        let (file, name) = open(&args.file)?;
        check_file_memory(&file, &name, false, true)?;
        let bar = progress.bytes("load", 2 * file_len(&file));
        let graph = io::read_edge_list(&file, &name, bar.counter())?;
        bar.finish();
        (Shape::Plain(graph), Rules::normal(), name)
    } else {
        let (bytes, name) = read_input(&args.file)?;
        let format = match args.input {
            InputKind::Auto => InputFormat::detect(&name, &bytes),
            _ => format,
        };
        if format == InputFormat::Binary {
            return Err(Failure::input(format!(
                "{name}: a binary graph is memory-mapped: give it as a file, not on standard input"
            )));
        }
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
            InputFormat::Binary => unreachable!("handled above"),
        };
        (shape, rules, name)
    };
    let mut game = Game { rules, name, shape };
    let positions = game.two_player().map(TwoPlayerGraph::position_count);
    game.rules = combined_rules(
        args,
        &game.rules,
        &game.name,
        game.graph().node_count(),
        positions,
    )?;
    Ok(game)
}

/// Loads only what solving needs — out-degrees and reverse rows — when the input is an edge-list
/// file; `None` for other inputs (load them with [`load`]).
pub fn load_reverse(args: &GameArgs) -> CliResult<Option<(ReverseCsr, Rules, String)>> {
    let progress = Progress::global();
    let format = detect(args)?;
    if is_stdin(args) || !matches!(format, InputFormat::Edges | InputFormat::Binary) {
        return Ok(None);
    }
    let (file, name) = open(&args.file)?;
    check_file_memory(&file, &name, format == InputFormat::Binary, false)?;
    let graph = if format == InputFormat::Binary {
        let bar = progress.spinner("map");
        let graph = io::binary::open_reverse(&file, &name)?;
        bar.finish();
        graph
    } else {
        let bar = progress.bytes("load", 2 * file_len(&file));
        let graph = io::read_edge_list_reverse(&file, &name, bar.counter())?;
        bar.finish();
        graph
    };
    let rules = combined_rules(args, &Rules::normal(), &name, graph.node_count(), None)?;
    Ok(Some((graph, rules, name)))
}

static MEMORY_LIMIT: std::sync::OnceLock<Option<u64>> = std::sync::OnceLock::new();

/// Sets `--max-memory` (once, from `main`).
pub fn set_memory_limit(limit: Option<u64>) {
    let _ = MEMORY_LIMIT.set(limit);
}

/// Refuses a job whose estimate exceeds `--max-memory`, or the memory available.
pub fn check_memory(name: &str, estimate: zermelo::memory::Estimate) -> CliResult {
    let gib = |b: u64| b as f64 / f64::from(1u32 << 30);
    let (limit, what) = match MEMORY_LIMIT.get().copied().flatten() {
        Some(l) => (l, "allowed by --max-memory"),
        None => match zermelo::memory::available() {
            Some(a) => (a, "available on this machine"),
            None => return Ok(()),
        },
    };
    if estimate.peak() > limit {
        return Err(Failure::TooBig(format!(
            "{name}: this job needs about {:.2} GiB (graph {:.2}, loading {:.2}, solving {:.2}) \
             but only {:.2} GiB is {what}",
            gib(estimate.peak()),
            gib(estimate.graph),
            gib(estimate.loading),
            gib(estimate.solving),
            gib(limit),
        )));
    }
    Ok(())
}

/// Checks the memory of loading `file` (an edge list or a binary graph) before doing it.
fn check_file_memory(file: &File, name: &str, binary: bool, forward: bool) -> CliResult {
    let threads = rayon::current_num_threads() as u64;
    let estimate = if binary {
        let Some((n, m)) = zermelo::io::binary::graph_counts(file) else {
            return Ok(()); // the loader will report what is wrong with the file
        };
        let mapped = file_len(file);
        zermelo::memory::Estimate {
            graph: mapped,
            loading: if forward { 0 } else { 4 * n },
            solving: zermelo::memory::estimate(zermelo::memory::Job {
                nodes: n,
                edges: m,
                forward,
                threads,
            })
            .solving,
        }
    } else {
        match io::edge_list_header(file) {
            // An invalid header is the loader's to report; a header may claim more edges than
            // the file can hold (each needs four bytes), and then the loader reports that.
            Ok(Some((nodes, edges))) if nodes <= zermelo::graph::MAX_NODES => {
                zermelo::memory::estimate(zermelo::memory::Job {
                    nodes,
                    edges: edges.min(file_len(file) / 4),
                    forward,
                    threads,
                })
            }
            _ => return Ok(()),
        }
    };
    check_memory(name, estimate)
}

fn is_stdin(args: &GameArgs) -> bool {
    args.file.as_os_str() == "-"
}

/// The input format: as given, or guessed from the name and the first bytes.
fn detect(args: &GameArgs) -> CliResult<InputFormat> {
    Ok(match args.input {
        InputKind::Edges => InputFormat::Edges,
        InputKind::Json => InputFormat::Json,
        InputKind::TwoPlayer => InputFormat::TwoPlayer,
        InputKind::Binary => InputFormat::Binary,
        InputKind::Auto if is_stdin(args) => InputFormat::Edges, // decided after reading
        InputKind::Auto => {
            let (file, name) = open(&args.file)?;
            let mut head = [0u8; 4096];
            let got = io::ReadAt::read_at(&file, &mut head, 0)
                .map_err(|e| Failure::input(format!("{name}: cannot read: {e}")))?;
            InputFormat::detect(&name, &head[..got])
        }
    })
}

fn open(path: &Path) -> CliResult<(File, String)> {
    let name = path.display().to_string();
    if path.is_dir() {
        return Err(Failure::input(format!(
            "{name}: is a directory, expected a file"
        )));
    }
    let file = File::open(path).map_err(|e| Failure::input(format!("{name}: cannot read: {e}")))?;
    Ok((file, name))
}

fn file_len(file: &File) -> u64 {
    file.metadata().map_or(0, |m| m.len())
}

/// Combines the file's own rules (JSON) with `--misere` and `--verdicts`.
fn combined_rules(
    args: &GameArgs,
    base: &Rules,
    name: &str,
    nodes: usize,
    two_player_positions: Option<usize>,
) -> CliResult<Rules> {
    let convention = if args.misere || base.convention() == Convention::Misere {
        Convention::Misere
    } else {
        Convention::Normal
    };
    let mut verdicts: Vec<(u64, zermelo::Outcome)> = base
        .verdicts()
        .iter()
        .map(|&(n, o)| (u64::from(n), o))
        .collect();
    let mut source = name.to_string();
    if let Some(path) = &args.verdicts {
        let (bytes, vname) = read_input(path)?;
        let extra = match two_player_positions {
            Some(positions) => io::parse_two_player_verdicts(&bytes, &vname, positions)?,
            None => io::parse_verdicts(&bytes, &vname, nodes)?,
        };
        verdicts.extend(extra);
        source = format!("{name} and {vname}");
    }
    Rules::with_convention(convention)
        .with_verdicts(nodes, verdicts)
        .map_err(|e| Failure::input(format!("{source}: verdicts: {e}")))
}
