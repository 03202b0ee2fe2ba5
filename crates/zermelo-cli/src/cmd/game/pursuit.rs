//! The pursuit games: cop and robber on a graph, policeman and thief on a board.

use std::path::{Path, PathBuf};
use std::time::Instant;

use clap::{Args, ValueEnum};
use serde_json::{json, Value as Json};
use zermelo::game::{LineStop, Ranked};
use zermelo::games::cop_robber::CopRobber;
use zermelo::games::police_thief::{Board, PoliceThief, Step};
use zermelo::games::pursuit::{Chase, Side};
use zermelo::graph::Csr;
use zermelo::io::{self, InputFormat};
use zermelo::{Depth, Outcome, Solution};

use super::{count, Report};
use crate::error::{CliResult, Failure};
use crate::output::read_input;

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
    /// Print the solve time on standard error.
    #[arg(long)]
    stats: bool,
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
    /// Print the solve time and state count on standard error.
    #[arg(long)]
    stats: bool,
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

fn load_graph(path: &Path) -> CliResult<Csr> {
    let (bytes, name) = read_input(path)?;
    match InputFormat::detect(&name, &bytes) {
        InputFormat::Json => {
            let game = io::parse_json_graph(&bytes, &name)?;
            if game.rules != zermelo::graph::Rules::normal() {
                return Err(Failure::input(format!(
                    "{name}: cop and robber takes a plain graph; misère and verdicts do not apply"
                )));
            }
            Ok(game.graph)
        }
        _ => Ok(io::parse_edge_list(&bytes, &name)?),
    }
}

/// `zermelo game cop-robber`.
pub fn cop_robber(args: CopRobberArgs) -> CliResult<Report> {
    let graph = load_graph(&args.graph)?;
    let name = args.graph.display();
    let game = CopRobber::new(&graph).map_err(|e| Failure::input(format!("{name}: {e}")))?;
    let t = Instant::now();
    let s = game.solve().map_err(|e| Failure::Internal(e.into()))?;
    if args.stats {
        print_stats(game.pursuit().index_count(), t);
    }
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

fn one_start(game: &CopRobber, s: &Solution, cop: u32, robber: u32, side: Side) -> Report {
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

fn all_states(game: &CopRobber, s: &Solution) -> Report {
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
fn state_row(game: &CopRobber, s: &Solution, state: &Chase) -> (Json, String) {
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
    let (bytes, name) = read_input(&args.board)?;
    let board = Board::parse(&bytes, &name)?;
    drop(bytes);
    let t = Instant::now();
    let game = PoliceThief::new(board);
    let s = game.solve().map_err(|e| Failure::Internal(e.into()))?;
    if args.stats {
        print_stats(game.pursuit().index_count(), t);
    }
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
        "states": game.pursuit().index_count(),
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

/// `--stats`: how many states were solved and how long it took.
fn print_stats(states: impl std::fmt::Display, started: Instant) {
    eprintln!(
        "stats: solved {states} states in {:.3}s",
        started.elapsed().as_secs_f64()
    );
}
