//! The output rows every front end prints, as serde structs: the CLI's JSON and the HTTP API's
//! are these, so they say the same thing with the same words (`win` | `lose` | `draw` for the
//! side to move; `depth` in plies for graphs; `dtm_plies` and `dtm_moves` for tablebases).

use serde::{Deserialize, Serialize};

use crate::outcome::{NodeId, Outcome};
use crate::solve::{Counts, Solution};
use crate::value::Value;

/// The counts of a solved graph (`zermelo solve --summary`, and the head of every answer).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Summary {
    /// Positions (states of a two-player game).
    pub nodes: usize,
    /// Moves.
    pub edges: u64,
    /// Positions won for the side to move.
    pub win: u64,
    /// Positions lost for the side to move.
    pub lose: u64,
    /// Drawn positions.
    pub draw: u64,
    /// The largest depth in plies; `null` when every position is a draw.
    pub max_depth: Option<u32>,
}

impl Summary {
    /// The summary of a graph of `nodes` and `edges` with these counts.
    pub fn new(nodes: usize, edges: u64, counts: &Counts) -> Summary {
        Summary {
            nodes,
            edges,
            win: counts.win,
            lose: counts.lose,
            draw: counts.draw,
            max_depth: counts.max_depth.map(|d| d.plies()),
        }
    }
}

/// One solved node.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NodeRow {
    /// The node.
    pub node: NodeId,
    /// WIN / LOSE / DRAW for the side to move.
    pub outcome: Outcome,
    /// Plies to the end; `null` for a draw.
    pub depth: Option<u32>,
    /// An optimal move; `null` at a terminal or where every move is as good.
    pub best_move: Option<NodeId>,
}

/// A solved one-player graph: the summary, then one row per node.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SolveReport {
    /// Counts.
    #[serde(flatten)]
    pub summary: Summary,
    /// One row per node, in node order.
    pub solution: Vec<NodeRow>,
}

impl SolveReport {
    /// The report of `solution` on a graph with `edges` moves, with `best[u]` the best move of
    /// `u`.
    pub fn new(edges: u64, solution: &Solution, best: &[Option<NodeId>]) -> SolveReport {
        let rows = (0..solution.len() as NodeId)
            .map(|u| NodeRow {
                node: u,
                outcome: solution.outcome(u),
                depth: solution.depth(u).map(|d| d.plies()),
                best_move: best.get(u as usize).copied().flatten(),
            })
            .collect();
        SolveReport {
            summary: Summary::new(solution.len(), edges, &solution.counts()),
            solution: rows,
        }
    }
}

/// A position of a tablebase (named by a string such as a FEN): its value for the side to move
/// and every legal move, best first.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PositionProbe {
    /// The position, normalised.
    pub fen: String,
    /// WIN / LOSE / DRAW for the side to move.
    pub outcome: Outcome,
    /// Plies to mate under optimal play (fast win, slow loss); `null` for a draw, and where
    /// no table holds the depth to mate (Syzygy's tables hold none).
    pub dtm_plies: Option<u32>,
    /// The same in moves of the side to move; `null` likewise.
    pub dtm_moves: Option<u32>,
    /// Under the 50-move rule, where DTZ (or Syzygy's WDL) tables are present: `win`,
    /// `cursed-win`, `draw`, `blessed-loss` or `loss` for the side to move, the position's
    /// halfmove clock applied, or `maybe-win` / `maybe-loss` where a rounded DTZ leaves it
    /// open (lichess's words; absent without such tables).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub category: Option<String>,
    /// Plies to the next capture, pawn move or mate under the rule, signed as Syzygy signs
    /// it: positive when the side to move wins, negative when it loses (-1 when checkmated),
    /// 0 for a draw (absent without DTZ tables).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dtz: Option<i32>,
    /// `true` when `dtz` may be one ply short of the truth (read from a Syzygy table that
    /// stores moves rather than plies: lichess then gives no `precise_dtz`); absent otherwise.
    #[serde(default, skip_serializing_if = "is_false")]
    pub dtz_rounded: bool,
    /// Every legal move, best first.
    pub moves: Vec<MoveProbe>,
}

fn is_false(b: &bool) -> bool {
    !b
}

/// One legal move and the position it leads to.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoveProbe {
    /// The move (UCI for chess: `e2e4`, `a7a8q`).
    pub uci: String,
    /// The position after the move.
    pub fen: String,
    /// WIN / LOSE / DRAW for the side to move *after* the move (so `lose` is a winning move).
    pub outcome: Outcome,
    /// Plies to mate after the move; `null` for a draw, and where no table holds it.
    pub dtm_plies: Option<u32>,
    /// The same in moves of the side to move after the move; `null` likewise.
    pub dtm_moves: Option<u32>,
    /// The move in standard algebraic notation (`Kd7`, `exd6`, `a8=Q+`), where known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub san: Option<String>,
    /// Whether the move resets the halfmove clock (a capture or a pawn move); with DTZ tables.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub zeroing: Option<bool>,
    /// The class under the 50-move rule of the position after the move, for its side to move
    /// (so `loss` is a winning move), its clock applied; with DTZ tables.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub category: Option<String>,
    /// DTZ of the position after the move, for its side to move, signed as Syzygy signs it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dtz: Option<i32>,
    /// `true` when `dtz` may be one ply short of the truth (as [`PositionProbe::dtz_rounded`]).
    #[serde(default, skip_serializing_if = "is_false")]
    pub dtz_rounded: bool,
}

impl PositionProbe {
    /// A probe of `fen` of value `value`, with its `moves`.
    pub fn new(fen: String, value: Value, moves: Vec<MoveProbe>) -> PositionProbe {
        PositionProbe {
            fen,
            outcome: value.outcome(),
            dtm_plies: value.plies(),
            dtm_moves: value.moves(),
            category: None,
            dtz: None,
            dtz_rounded: false,
            moves,
        }
    }

    /// The value for the side to move.
    pub fn value(&self) -> Value {
        Value::new(self.outcome, self.dtm_plies.map(crate::Depth))
    }
}

impl MoveProbe {
    /// The move's value for the player who makes it (depth to mate).
    pub fn value_for_mover(&self) -> Value {
        Value::new(self.outcome, self.dtm_plies.map(crate::Depth)).for_parent()
    }

    /// The move `uci` into `fen`, whose value for its side to move is `after`.
    pub fn new(uci: String, fen: String, after: Value) -> MoveProbe {
        MoveProbe {
            uci,
            fen,
            outcome: after.outcome(),
            dtm_plies: after.plies(),
            dtm_moves: after.moves(),
            san: None,
            zeroing: None,
            category: None,
            dtz: None,
            dtz_rounded: false,
        }
    }
}
