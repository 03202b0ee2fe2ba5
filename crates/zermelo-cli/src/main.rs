//! `zermelo`: solve two-player games on graphs from the command line.
//!
//! This binary is glue: argument parsing, rendering and exit codes. All game logic lives in the
//! `zermelo` library.
//!
//! Exit codes: 0 success; 1 a claimed solution is invalid (`verify`) or an internal failure;
//! 2 bad input (unreadable or malformed file, out-of-range id, bad flag).

mod cmd;
mod error;
mod input;
mod output;
mod render;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Solve two-player games on graphs: WIN / LOSE / DRAW for the player to move, depth to the end
/// (fast win, slow loss), best moves, and certificates.
#[derive(Debug, Parser)]
#[command(name = "zermelo", version, about, propagate_version = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Label every position: outcome, depth in plies, best move.
    Solve(cmd::solve::SolveArgs),
    /// Print the principal line (optimal play) from a start position.
    Line(cmd::line::LineArgs),
    /// Sprague-Grundy values of an impartial acyclic game; `--sum` analyses sums of games.
    Grundy(cmd::grundy::GrundyArgs),
    /// Check a solution CSV against the certificate rules (exit 0 valid, 1 invalid).
    Verify(cmd::verify::VerifyArgs),
    /// Generate graphs (random, chain) as edge lists.
    Gen(cmd::gen::GenArgs),
    /// Classic and pursuit games by their rules: nim, subtraction, wythoff, police-thief, ...
    Game(cmd::game::GameArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Solve(a) => cmd::solve::run(a),
        Command::Line(a) => cmd::line::run(a),
        Command::Grundy(a) => cmd::grundy::run(a),
        Command::Verify(a) => cmd::verify::run(a),
        Command::Gen(a) => cmd::gen::run(a),
        Command::Game(a) => cmd::game::run(a),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            match &e {
                error::Failure::Internal(inner) => eprintln!("zermelo: error: {inner:#}"),
                error::Failure::Rejected(m) => println!("{m}"),
                error::Failure::BadInput(m) => eprintln!("zermelo: error: {m}"),
            }
            e.exit_code()
        }
    }
}
