//! The pursuit games: cop and robber on a graph, policeman and thief on a board.

use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::Ordering::Relaxed;
use std::sync::Arc;
use std::time::{Duration, Instant};

use clap::{Args, ValueEnum};
use serde_json::{json, Value as Json};
use zermelo::game::compact::{self, CompactError, CompactOptions, CounterMode, IndexedGame};
use zermelo::game::{CompactSolution, LineStop};
use zermelo::graph::Csr;
use zermelo::io::stream::GraphLines;
use zermelo::io::{self, InputFormat};
use zermelo::{Depth, Outcome};
use zermelo_games::cop_robber::CopRobber;
use zermelo_games::police_thief::{Board, BoardLines, PoliceThief, Step};
use zermelo_games::pursuit::{Chase, Pursuit, Side};

use crate::error::{CliResult, Failure};
use crate::output::emit;
use crate::progress::Progress;
use crate::read::read_text_input;
use crate::shown::{count, Report};

/// How the pursuit games run the compact engine (shared by both games).
#[derive(Debug, Args)]
pub struct EngineArgs {
    /// Work folder for checkpoints at layer boundaries: killed and started again with the same
    /// command, the run resumes from its last checkpoint.
    #[arg(long, value_name = "DIR")]
    work_dir: Option<PathBuf>,
    /// Keep the solver's state in a memory-mapped file in --work-dir instead of in memory, so
    /// that a game larger than the memory available still solves.
    #[arg(long, requires = "work_dir")]
    mapped: bool,
    /// Least seconds between two checkpoints in --work-dir (0: at every layer).
    #[arg(long, value_name = "SECS", default_value_t = 30)]
    checkpoint_every: u64,
    /// How lost positions are found: a move counter packed in each state, or generating the
    /// moves again when a successor is won (the default: pursuit moves are cheap to generate,
    /// and it measured faster, see BENCHMARKS.md).
    #[arg(long, value_enum, default_value_t = Counting::Recompute)]
    counting: Counting,
    /// Also write every state's value to FILE: 2 bytes per state in rank order, little-endian
    /// (top 2 bits 01 win, 10 lose, 11 draw; low 14 bits the depth in plies).
    #[arg(long, value_name = "FILE")]
    values: Option<PathBuf>,
}

/// `--counting` of the pursuit games.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Counting {
    /// A move counter in each state's two bytes.
    Counter,
    /// No counter: regenerate the moves.
    Recompute,
}

/// Arguments of `zermelo game cop-robber`.
#[derive(Debug, Args)]
pub struct CopRobberArgs {
    /// The graph: an edge list `N M` + edges (or JSON); edges are used both ways.
    graph: PathBuf,
    /// Only this start: the cop's vertex and the robber's vertex.
    #[arg(long, num_args = 2, value_names = ["COP", "ROBBER"])]
    from: Option<Vec<u64>>,
    /// Who moves at the --from start.
    #[arg(long, value_enum, default_value_t = Mover::Cop, requires = "from")]
    to_move: Mover,
    /// Print the solve time, threads and peak memory on standard error.
    #[arg(long)]
    stats: bool,
    #[command(flatten)]
    engine: EngineArgs,
}

/// `--to-move` of cop and robber.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Mover {
    /// The cop moves first (the rule of the game).
    Cop,
    /// The robber moves first.
    Robber,
}

/// Arguments of `zermelo game police-thief`.
#[derive(Debug, Args)]
pub struct PoliceThiefArgs {
    /// The board file: `n m`, then n rows of m cells from `.` free, `*` wall, `E` exit,
    /// `P` policeman, `T` thief.
    board: PathBuf,
    /// How many plies of the principal line to print.
    #[arg(long, default_value_t = 10, value_name = "N")]
    plies: usize,
    /// Print the solve time, state count, threads and peak memory on standard error.
    #[arg(long)]
    stats: bool,
    #[command(flatten)]
    engine: EngineArgs,
}

fn side_name(side: Side, cop: &str, robber: &str) -> String {
    match side {
        Side::Pursuer => cop.to_string(),
        Side::Evader => robber.to_string(),
    }
}

fn depth_json(d: Option<Depth>) -> Json {
    d.map_or(Json::Null, |d| json!(d.0))
}

fn load_graph(bytes: &[u8], name: &str) -> CliResult<Csr> {
    match InputFormat::detect(name, bytes) {
        InputFormat::Json => {
            let game = io::parse_json_graph(bytes, name)?;
            if game.rules != zermelo::graph::Rules::normal() {
                return Err(Failure::input(format!(
                    "{name}: cop and robber takes a plain graph; misère and verdicts do not apply"
                )));
            }
            Ok(game.graph)
        }
        _ => Ok(io::parse_edge_list(bytes, name)?),
    }
}

/// `zermelo game cop-robber`.
pub fn cop_robber(args: CopRobberArgs) -> CliResult<Report> {
    let (bytes, source) = read_text_input(&args.graph, &mut GraphLines::default())?;
    let graph = load_graph(&bytes, &source)?;
    let name = args.graph.display();
    let game = CopRobber::new(&graph).map_err(|e| Failure::input(format!("{name}: {e}")))?;
    let what = format!("cop-robber {}", name);
    let s = solve(game.pursuit(), &what, &bytes, &args.engine, args.stats)?;
    match args.from.as_deref() {
        Some(&[cop, robber]) => {
            let n = u64::from(game.vertex_count());
            for (who, v) in [("cop", cop), ("robber", robber)] {
                if v >= n {
                    return Err(Failure::input(format!(
                        "--from: the {who}'s vertex {v} is out of range: {name} has {n} vertices"
                    )));
                }
            }
            let side = match args.to_move {
                Mover::Cop => Side::Pursuer,
                Mover::Robber => Side::Evader,
            };
            Ok(one_start(&game, &s, cop as u32, robber as u32, side))
        }
        _ => Ok(all_states(&game, &s)),
    }
}

fn one_start(game: &CopRobber, s: &CompactSolution, cop: u32, robber: u32, side: Side) -> Report {
    let state = CopRobber::state(cop, robber, side);
    let value = game.value(s, &state);
    let captured = value.outcome() != Outcome::Draw;
    let mover = side_name(side, "cop", "robber");
    let to = game.best_move(s, &state);
    let from = if side == Side::Pursuer { cop } else { robber };
    let mut r = Report::new(json!({
        "game": "cop-robber",
        "cop": cop,
        "robber": robber,
        "to_move": mover,
        "outcome": value.outcome().as_str(),
        "depth": depth_json(value.depth()),
        "captured": captured,
        "capture_time": depth_json(value.depth()),
        "move": to.map(|v| json!({"mover": mover, "from": from, "to": v})),
    }));
    r.line(format!("cop {cop}, robber {robber}, {mover} to move"));
    r.line(match value.depth() {
        Some(d) => format!(
            "outcome: {} for the {mover}: the cop captures the robber in {}",
            value.outcome(),
            count(d.0, "ply", "plies")
        ),
        None => "outcome: draw: the robber evades capture forever".to_string(),
    });
    if let Some(v) = to {
        let what = if v == from {
            format!("stays at {v}")
        } else {
            format!("{from} -> {v}")
        };
        r.line(format!("move: {mover} {what}"));
    }
    r
}

fn all_states(game: &CopRobber, s: &CompactSolution) -> Report {
    let n = game.vertex_count();
    let mut lines = vec![format!(
        "{:>6}  {:>6}  {:<7}  {:<7}  {:>12}  {:>9}",
        "cop", "robber", "to_move", "outcome", "capture_time", "best_move"
    )];
    let mut states = Vec::new();
    for side in [Side::Pursuer, Side::Evader] {
        for cop in 0..n {
            for robber in 0..n {
                let state = CopRobber::state(cop, robber, side);
                let (json, line) = state_row(game, s, &state);
                states.push(json);
                lines.push(line);
            }
        }
    }
    let cop_wins_everywhere = (0..n).all(|c| {
        (0..n).all(|r| {
            let v = game.value(s, &CopRobber::state(c, r, Side::Pursuer));
            v.outcome() == Outcome::Win
        })
    });
    let mut r = Report::new(json!({
        "game": "cop-robber",
        "vertices": n,
        "cop_wins_from_every_start": cop_wins_everywhere,
        "states": states,
    }));
    lines.into_iter().for_each(|l| r.line(l));
    r
}

/// One state of the full listing, as JSON and as a table row.
fn state_row(game: &CopRobber, s: &CompactSolution, state: &Chase) -> (Json, String) {
    let value = game.value(s, state);
    let mover = side_name(state.to_move, "cop", "robber");
    let to = game.best_move(s, state);
    let json = json!({
        "cop": state.pursuer,
        "robber": state.evader,
        "to_move": mover,
        "outcome": value.outcome().as_str(),
        "depth": depth_json(value.depth()),
        "capture_time": depth_json(value.depth()),
        "move": to,
    });
    let dash = |v: Option<String>| v.unwrap_or_else(|| "-".to_string());
    let line = format!(
        "{:>6}  {:>6}  {mover:<7}  {:<7}  {:>12}  {:>9}",
        state.pursuer,
        state.evader,
        value.outcome().as_str(),
        dash(value.depth().map(|d| d.to_string())),
        dash(to.map(|v| v.to_string())),
    );
    (json, line)
}

/// `zermelo game police-thief`.
pub fn police_thief(args: PoliceThiefArgs) -> CliResult<Report> {
    let (bytes, name) = read_text_input(&args.board, &mut BoardLines::default())?;
    let board = Board::parse(&bytes, &name)?;
    let game = PoliceThief::new(board);
    let what = format!("police-thief {name}");
    let s = solve(game.pursuit(), &what, &bytes, &args.engine, args.stats)?;
    drop(bytes);
    let value = game.value(&s);
    let (steps, end) = game.principal_line(&s, args.plies);
    let end_name = match end {
        LineStop::Terminal => "terminal",
        LineStop::Repeats(_) => "repetition",
        LineStop::Cut => "cut",
    };
    let mut r = Report::new(json!({
        "game": "police-thief",
        "result": game.verdict_line(&s),
        "outcome": value.outcome().as_str(),
        "depth": depth_json(value.depth()),
        "move": steps.first().map(|st| step_json(0, st)),
        "line": steps.iter().enumerate().map(|(i, st)| step_json(i, st)).collect::<Vec<_>>(),
        "line_end": end_name,
        "states": IndexedGame::index_count(game.pursuit()),
    }));
    r.line(game.verdict_line(&s));
    r.line(match value.depth() {
        Some(d) => format!("depth: {}", count(d.0, "ply", "plies")),
        None => "depth: none (a draw: play goes on forever)".to_string(),
    });
    for (i, st) in steps.iter().enumerate() {
        r.line(step_line(i, st));
    }
    r.line(match end {
        LineStop::Terminal if value.outcome() == Outcome::Win => {
            "the policeman catches the thief".to_string()
        }
        LineStop::Terminal => "the thief reaches an exit".to_string(),
        LineStop::Repeats(i) => format!("play repeats from ply {i} on"),
        LineStop::Cut => "...".to_string(),
    });
    Ok(r)
}

/// Ply `i` (0-based) of the line as JSON.
fn step_json(i: usize, st: &Step) -> Json {
    json!({
        "ply": i + 1,
        "mover": side_name(st.mover, "police", "thief"),
        "from": [st.from.0, st.from.1],
        "to": [st.to.0, st.to.1],
    })
}

/// Ply `i` (0-based) of the line as text: `3. police (1,0) -> (2,0)`, `4. thief stays at (4,0)`.
fn step_line(i: usize, st: &Step) -> String {
    let who = side_name(st.mover, "police", "thief");
    let ((fr, fc), (tr, tc)) = (st.from, st.to);
    if st.from == st.to {
        format!("{}. {who} stays at ({fr},{fc})", i + 1)
    } else {
        format!("{}. {who} ({fr},{fc}) -> ({tr},{tc})", i + 1)
    }
}

/// Solves a pursuit game with the compact engine: memory checked up front, a progress bar per
/// layer, checkpoints in `--work-dir`, `--values` written, `--stats` printed.
fn solve(
    pursuit: &Pursuit,
    what: &str,
    input: &[u8],
    engine: &EngineArgs,
    stats: bool,
) -> CliResult<CompactSolution> {
    let states = IndexedGame::index_count(pursuit);
    let counters = match engine.counting {
        Counting::Counter => CounterMode::Counter,
        Counting::Recompute => CounterMode::Recompute,
    };
    let mut options = CompactOptions {
        work_dir: engine.work_dir.clone(),
        mapped: engine.mapped,
        checkpoint_every: (engine.checkpoint_every > 0)
            .then(|| Duration::from_secs(engine.checkpoint_every)),
        fingerprint: compact::fingerprint(&[what.as_bytes(), input]),
        counters,
        ..CompactOptions::default()
    };
    crate::limits::check_memory(
        what,
        zermelo::memory::Estimate {
            graph: 0,
            loading: 0,
            solving: compact::estimate_memory(states, &options),
        },
    )?;
    let t = Instant::now();
    let bar = Progress::global().layers("solve", states);
    let (decided, layer) = (bar.shared_counter(), bar.shared_layer());
    options.progress = Some(Arc::new(move |p| {
        decided.store(p.decided, Relaxed);
        layer.store(u64::from(p.layer) + 1, Relaxed);
    }));
    let solution = pursuit
        .solve_with(&options)
        .map_err(|e| engine_failure(what, e))?;
    bar.finish();
    if stats {
        print_stats(states, t);
        if let Some(layer) = solution.resumed_from() {
            crate::note!("stats: resumed from the checkpoint at layer {layer}");
        }
    }
    if let Some(path) = &engine.values {
        emit(Some(path), |out| write_values(&solution, out))?;
    }
    Ok(solution)
}

/// The engine's errors: limits are exit 3, a work folder that holds another game exit 2.
fn engine_failure(what: &str, e: CompactError) -> Failure {
    match e {
        CompactError::TooBig { .. } => Failure::TooBig(format!("{what}: {e}")),
        CompactError::Checkpoint { .. } | CompactError::MappedNeedsWorkDir => {
            Failure::input(format!("{what}: {e}"))
        }
        e => Failure::Internal(anyhow::anyhow!("{what}: {e}")),
    }
}

/// `--values`: 2 bytes per state, little-endian, in rank order.
fn write_values(solution: &CompactSolution, out: &mut dyn Write) -> std::io::Result<()> {
    let mut buf = Vec::with_capacity(1 << 17);
    for i in 0..solution.index_count() {
        buf.extend_from_slice(&solution.code(i).to_le_bytes());
        if buf.len() >= 1 << 17 {
            out.write_all(&buf)?;
            buf.clear();
        }
    }
    out.write_all(&buf)
}

/// `--stats`: how many states were solved, how long it took, threads and peak memory.
fn print_stats(states: impl std::fmt::Display, started: Instant) {
    crate::note!(
        "stats: solved {states} states in {:.3}s; {} threads; peak memory {}",
        started.elapsed().as_secs_f64(),
        rayon::current_num_threads(),
        crate::cmd::solve::peak_memory_text(),
    );
}
