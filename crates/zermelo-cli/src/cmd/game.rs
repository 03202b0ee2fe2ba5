//! `zermelo game NAME ...`: classic games with closed forms, and pursuit games.
//!
//! Every game prints a short table for people or, with `--format json`, one JSON object with at
//! least `outcome` (win | lose | draw for the player to move), `depth` (plies under fast win /
//! slow loss, `null` where the closed form does not give it) and `move` (`null` when there is
//! none). The logic lives in `zermelo_games`; this module parses arguments and renders.

mod classic;
mod fox_geese;
mod partizan;
mod pursuit;

use clap::{Args, Subcommand};

use crate::error::CliResult;
use crate::output::emit;
use crate::shown::Shown;

/// Arguments of `zermelo game`.
#[derive(Debug, Args)]
pub struct GameArgs {
    #[command(subcommand)]
    game: Which,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Shown::Table, global = true)]
    format: Shown,
}

#[derive(Debug, Subcommand)]
enum Which {
    /// Nim: heaps of counters, take any number from one heap (XOR rule; --misere).
    Nim(classic::NimArgs),
    /// A subtraction game: take s counters for s in a set (Grundy values and their period).
    Subtraction(classic::SubtractionArgs),
    /// Staircase Nim: move coins one stair down (stair 1 first; odd stairs decide).
    Staircase(classic::StaircaseArgs),
    /// Wythoff's game: take from one pile or the same from both (exact for u64 piles).
    Wythoff(classic::WythoffArgs),
    /// Hackenbush: Green on a forest given as a parent list (colon principle); Blue-Red(-Green)
    /// with --colours or --edges (canonical form, or the sum of the parts' when too long).
    Hackenbush(classic::HackenbushArgs),
    /// Domineering on a board with holes (Left vertical, Right horizontal): Conway value.
    Domineering(partizan::DomineeringArgs),
    /// Toads and Frogs on a strip (Left's toads move right, Right's frogs left): Conway value;
    /// with --backsliding (loopy) its simplest form or sides.
    ToadsFrogs(partizan::ToadsFrogsArgs),
    /// Fox and Geese (loopy; Left's geese move down, Right's fox any way): value in simplest
    /// form, as CGSuite gives it.
    FoxGeese(fox_geese::FoxGeeseArgs),
    /// Tic-tac-toe: the value of a board (the empty board by default) and its reachable positions.
    #[command(name = "tictactoe", alias = "tic-tac-toe")]
    TicTacToe(classic::TicTacToeArgs),
    /// Cop and robber on an undirected graph (edge list): every state, or one with --from.
    CopRobber(pursuit::CopRobberArgs),
    /// Policeman and thief on a grid board file (seed 001's rules).
    PoliceThief(pursuit::PoliceThiefArgs),
}

/// Runs `zermelo game`.
pub fn run(args: GameArgs) -> CliResult {
    let report = match args.game {
        Which::Nim(a) => classic::nim(a)?,
        Which::Subtraction(a) => classic::subtraction(a)?,
        Which::Staircase(a) => classic::staircase(a)?,
        Which::Wythoff(a) => classic::wythoff(a)?,
        Which::Hackenbush(a) => classic::hackenbush(a)?,
        Which::Domineering(a) => partizan::domineering(a)?,
        Which::ToadsFrogs(a) => partizan::toads_frogs(a, args.format)?,
        Which::FoxGeese(a) => fox_geese::fox_geese(a)?,
        Which::TicTacToe(a) => classic::tictactoe(a)?,
        Which::CopRobber(a) => pursuit::cop_robber(a)?,
        Which::PoliceThief(a) => pursuit::police_thief(a)?,
    };
    emit(None, |out| report.write(out, args.format))?;
    report.missing().map_or(Ok(()), Err)
}
