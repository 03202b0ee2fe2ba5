//! The classic games: Nim, subtraction games, staircase Nim, Wythoff, Green Hackenbush,
//! tic-tac-toe.

use clap::Args;
use serde_json::{json, Value as Json};
use zermelo::game::explore;
use zermelo::graph::Convention;
use zermelo::Depth;
use zermelo_games::blue_red_hackenbush::Picture;
use zermelo_games::hackenbush::Forest;
use zermelo_games::subtraction::{self, SubtractionSet};
use zermelo_games::tictactoe::{Board, TicTacToe};
use zermelo_games::{nim, staircase, wythoff};

use crate::error::{CliResult, Failure};
use crate::shown::{count, Report};

/// Arguments of `zermelo game nim`.
#[derive(Debug, Args)]
pub struct NimArgs {
    /// The heap sizes, e.g. `3 4 5` (a sum of one-heap games).
    #[arg(required = true, value_name = "HEAP")]
    heaps: Vec<u64>,
    /// Misère play: whoever takes the last counter loses.
    #[arg(long)]
    misere: bool,
}

/// Arguments of `zermelo game subtraction`.
#[derive(Debug, Args)]
pub struct SubtractionArgs {
    /// The subtraction set, e.g. `--set 1,3,4`: a move takes one of these numbers of counters.
    #[arg(long, required = true, value_delimiter = ',', value_name = "S,...")]
    set: Vec<u64>,
    /// The pile size.
    #[arg(value_name = "N")]
    pile: u64,
    /// Misère play: whoever makes the last move loses.
    #[arg(long)]
    misere: bool,
}

/// Arguments of `zermelo game staircase`.
#[derive(Debug, Args)]
pub struct StaircaseArgs {
    /// Coins on each stair, stair 1 (next to the ground) first.
    #[arg(required = true, value_name = "COINS")]
    stairs: Vec<u64>,
}

/// Arguments of `zermelo game wythoff`.
#[derive(Debug, Args)]
pub struct WythoffArgs {
    /// The first pile.
    #[arg(value_name = "A")]
    a: u64,
    /// The second pile.
    #[arg(value_name = "B")]
    b: u64,
}

/// Arguments of `zermelo game hackenbush`.
#[derive(Debug, Args)]
pub struct HackenbushArgs {
    /// The parent of each vertex 0, 1, 2, ..., `-` for a root on the ground, e.g.
    /// `--parents -,0,0,1` (each non-root vertex tops the edge to its parent).
    #[arg(
        long,
        required_unless_present = "edges",
        allow_hyphen_values = true,
        value_name = "P0,P1,..."
    )]
    parents: Option<String>,
    /// Blue-Red(-Green) Hackenbush: the colour of the edge below each vertex, `b` (Left), `r`
    /// (Right) or `g` (either), `-` for a root, e.g. `--colours -brb`; prints the Conway value.
    #[arg(
        long,
        allow_hyphen_values = true,
        value_name = "COLOURS",
        requires = "parents"
    )]
    colours: Option<String>,
    /// Blue-Red-Green Hackenbush on a rooted graph: edges `u-v:c` (vertex 0 is the ground),
    /// e.g. `--edges 0-1:b,1-2:r,0-2:g`. Any number of edges (up to 2^24): the parts meeting
    /// only at the ground are valued alone, each green part or Blue-Red tree at any size, any
    /// other part searched up to 64 edges.
    #[arg(long, conflicts_with = "parents", value_name = "U-V:C,...")]
    edges: Option<String>,
}

/// Arguments of `zermelo game tictactoe`.
#[derive(Debug, Args)]
pub struct TicTacToeArgs {
    /// The board, 9 cells of x, o or . row by row (`/` between rows allowed); empty by default.
    #[arg(long, value_name = "CELLS")]
    board: Option<String>,
}

fn convention(misere: bool) -> Convention {
    if misere {
        Convention::Misere
    } else {
        Convention::Normal
    }
}

fn convention_name(c: Convention) -> &'static str {
    match c {
        Convention::Normal => "normal",
        Convention::Misere => "misere",
    }
}

fn depth_json(d: Option<Depth>) -> Json {
    d.map_or(Json::Null, |d| json!(d.0))
}

fn numbers(v: &[u64]) -> String {
    v.iter().map(u64::to_string).collect::<Vec<_>>().join(" ")
}

/// `zermelo game nim`.
pub fn nim(args: NimArgs) -> CliResult<Report> {
    let c = convention(args.misere);
    let a = nim::analyse(&args.heaps, c);
    let after = a.winning_move.map(|m| m.apply(&args.heaps));
    let mut r = Report::new(json!({
        "game": "nim",
        "heaps": args.heaps,
        "convention": convention_name(c),
        "outcome": a.outcome.as_str(),
        "depth": null,
        "nim_sum": a.nim_sum,
        "move": a.winning_move.map(|m| json!({
            "heap": m.heap + 1,
            "take": m.take,
            "heaps_after": after,
        })),
    }));
    r.line(format!(
        "nim {} ({} play)",
        numbers(&args.heaps),
        convention_name(c)
    ));
    r.line(format!(
        "outcome: {} for the player to move (nim-sum {})",
        a.outcome, a.nim_sum
    ));
    if let (Some(m), Some(after)) = (a.winning_move, &after) {
        r.line(format!(
            "move: take {} from heap {} ({} -> {}), leaving {}",
            m.take,
            m.heap + 1,
            args.heaps[m.heap],
            after[m.heap],
            numbers(after)
        ));
    }
    Ok(r)
}

/// `zermelo game subtraction`.
pub fn subtraction(args: SubtractionArgs) -> CliResult<Report> {
    let set = SubtractionSet::new(args.set.iter().copied()).map_err(Failure::input)?;
    let c = convention(args.misere);
    let seq = subtraction::analyse(&set, c);
    let n = args.pile;
    let subtraction::PileValue {
        outcome,
        depth,
        take,
    } = subtraction::pile_value(&set, c, &seq, n).map_err(|e| match e {
        subtraction::PileError::Solver(e) => Failure::Internal(anyhow::anyhow!(e)),
        e => Failure::input(e.to_string()),
    })?;
    let (of, values) = first_values(&seq);
    let mut r = Report::new(json!({
        "game": "subtraction",
        "set": set.values(),
        "pile": n,
        "convention": convention_name(c),
        "outcome": outcome.as_str(),
        "depth": depth_json(depth),
        "grundy": seq.grundy(n).map(|g| g.0),
        "move": take.map(|t| json!({"take": t, "pile_after": n - t})),
        "period": seq.periodicity.map(|p| json!({
            "preperiod": p.preperiod, "period": p.period, "of": of,
        })),
        "values": values,
    }));
    r.line(format!(
        "subtraction game, set {{{}}}, pile {n}, {} play",
        numbers(set.values()).replace(' ', ", "),
        convention_name(c)
    ));
    let grundy = seq.grundy(n).map(|g| format!(" (grundy value {g})"));
    let depth = depth.map(|d| format!(", depth {}", count(d.0, "ply", "plies")));
    r.line(format!(
        "outcome: {outcome} for the player to move{}{}",
        grundy.unwrap_or_default(),
        depth.unwrap_or_default()
    ));
    if let Some(t) = take {
        r.line(format!("move: take {t}, leaving {}", n - t));
    }
    let shown: Vec<String> = values
        .iter()
        .map(|v| match v.as_str() {
            Some(o) => o[..1].to_uppercase(),
            None => v.to_string(),
        })
        .collect();
    r.line(format!("{of} values from pile 0: {}", shown.join(" ")));
    r.line(match seq.periodicity {
        Some(p) => format!("periodic: period {} from pile {}", p.period, p.preperiod),
        None => format!("no period found in the first {} values", seq.outcomes.len()),
    });
    Ok(r)
}

/// The first values of the sequence, one full period when there is one (at most 200): Grundy
/// values under normal play, outcomes under misère.
fn first_values(seq: &subtraction::Sequence) -> (&'static str, Vec<Json>) {
    let shown = seq
        .periodicity
        .map_or(32, |p| (p.preperiod + p.period) as usize)
        .clamp(1, 200);
    match &seq.grundy {
        Some(g) => ("grundy", g[..shown].iter().map(|v| json!(v.0)).collect()),
        None => {
            let outcomes = seq.outcomes[..shown].iter();
            ("outcome", outcomes.map(|o| json!(o.as_str())).collect())
        }
    }
}

/// `zermelo game staircase`.
pub fn staircase(args: StaircaseArgs) -> CliResult<Report> {
    // Coins only move down the stairs, so every position fits in u64 iff the total does.
    if args
        .stairs
        .iter()
        .try_fold(0u64, |t, &c| t.checked_add(c))
        .is_none()
    {
        return Err(Failure::input(
            "the total number of coins must be at most 18446744073709551615",
        ));
    }
    let a = staircase::analyse(&args.stairs);
    let after = a.winning_move.map(|m| m.apply(&args.stairs));
    let mut r = Report::new(json!({
        "game": "staircase",
        "stairs": args.stairs,
        "outcome": a.outcome.as_str(),
        "depth": null,
        "odd_xor": a.odd_xor,
        "move": a.winning_move.map(|m| json!({
            "stair": m.stair,
            "coins": m.coins,
            "to_stair": m.stair - 1,
            "stairs_after": after,
        })),
    }));
    r.line(format!(
        "staircase nim {} (stair 1 first)",
        numbers(&args.stairs)
    ));
    r.line(format!(
        "outcome: {} for the player to move (odd stairs XOR to {})",
        a.outcome, a.odd_xor
    ));
    if let (Some(m), Some(after)) = (a.winning_move, &after) {
        let to = if m.stair == 1 {
            "the ground".to_string()
        } else {
            format!("stair {}", m.stair - 1)
        };
        r.line(format!(
            "move: {} from stair {} to {to}, leaving {}",
            count(m.coins, "coin", "coins"),
            m.stair,
            numbers(after)
        ));
    }
    Ok(r)
}

/// `zermelo game wythoff`.
pub fn wythoff(args: WythoffArgs) -> CliResult<Report> {
    let a = wythoff::analyse(args.a, args.b);
    let after = a.winning_move.map(|m| m.apply((args.a, args.b)));
    let mut r = Report::new(json!({
        "game": "wythoff",
        "piles": [args.a, args.b],
        "outcome": a.outcome.as_str(),
        "depth": null,
        "move": a.winning_move.map(|m| json!({
            "take_first": m.from_first,
            "take_second": m.from_second,
            "piles_after": after.map(|(x, y)| [x, y]),
        })),
    }));
    r.line(format!("wythoff ({}, {})", args.a, args.b));
    r.line(format!("outcome: {} for the player to move", a.outcome));
    if let (Some(m), Some((x, y))) = (a.winning_move, after) {
        let what = match (m.from_first, m.from_second) {
            (t, 0) => format!("take {t} from the first pile"),
            (0, t) => format!("take {t} from the second pile"),
            (t, _) => format!("take {t} from both piles"),
        };
        r.line(format!("move: {what}, leaving ({x}, {y})"));
    }
    Ok(r)
}

/// `zermelo game hackenbush`.
pub fn hackenbush(args: HackenbushArgs) -> CliResult<Report> {
    if let Some(edges) = &args.edges {
        return super::partizan::hackenbush(Picture::parse_edges(edges), "--edges");
    }
    let parents = args.parents.as_deref().unwrap_or_default();
    let forest = Forest::parse(parents).map_err(|e| Failure::input(format!("--parents: {e}")))?;
    if let Some(colours) = &args.colours {
        return super::partizan::hackenbush(Picture::from_forest(&forest, colours), "--colours");
    }
    let a = forest.analyse();
    let cut = a
        .winning_cut
        .map(|v| (v, forest.parent(v).expect("a cut edge has a parent")));
    let mut r = Report::new(json!({
        "game": "hackenbush",
        "vertices": forest.vertex_count(),
        "edges": forest.edge_count(),
        "outcome": a.outcome.as_str(),
        "depth": null,
        "value": a.value,
        "move": cut.map(|(v, p)| json!({"cut": [v, p]})),
    }));
    r.line(format!(
        "green hackenbush: {}, {}, {}",
        count(forest.vertex_count() as u64, "vertex", "vertices"),
        count(forest.edge_count() as u64, "edge", "edges"),
        count(forest.roots().count() as u64, "root", "roots"),
    ));
    r.line(format!(
        "outcome: {} for the player to move (value {})",
        a.outcome, a.value
    ));
    if let Some((v, p)) = cut {
        r.line(format!(
            "move: cut the edge between vertex {v} and its parent {p}"
        ));
    }
    Ok(r)
}

/// `zermelo game tictactoe`.
pub fn tictactoe(args: TicTacToeArgs) -> CliResult<Report> {
    let board = match &args.board {
        Some(text) => Board::parse(text).map_err(|e| Failure::input(format!("--board: {e}")))?,
        None => Board::EMPTY,
    };
    let solved = explore(&TicTacToe, [board])
        .map_err(|e| Failure::Internal(e.into()))?
        .solve();
    let value = solved.value(&board).expect("the start is explored");
    let cell = solved.best_move(&board).and_then(|b| board.changed_cell(b));
    let mover = if board.x_to_move() { "x" } else { "o" };
    let mut r = Report::new(json!({
        "game": "tictactoe",
        "board": board.to_string(),
        "to_move": mover,
        "outcome": value.outcome().as_str(),
        "depth": depth_json(value.depth()),
        "move": cell.map(|c| json!({"cell": c, "row": c / 3, "col": c % 3})),
        "positions": solved.explored().len(),
    }));
    r.line(format!("tic-tac-toe {board}, {mover} to move"));
    let depth = value
        .depth()
        .map_or(String::new(), |d| format!(", depth {d} plies"));
    r.line(format!("outcome: {} for {mover}{depth}", value.outcome()));
    if let Some(c) = cell {
        r.line(format!(
            "move: {mover} at row {}, column {} (cell {c})",
            c / 3,
            c % 3
        ));
    }
    r.line(format!(
        "positions reachable from this board: {}",
        solved.explored().len()
    ));
    Ok(r)
}
