//! `zermelo solve`: label every position WIN / LOSE / DRAW with depth and best move.

use std::path::PathBuf;
use std::time::Instant;

use clap::{Args, ValueEnum};
use zermelo::solve;

use crate::error::{CliResult, Failure};
use crate::input::{load, GameArgs};
use crate::output::emit;
use crate::render::{write_solution, write_summary, Format};

/// `--algorithm`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum Algorithm {
    /// Retrograde analysis: any graph, cycles allowed.
    #[default]
    Retrograde,
    /// Backward induction in topological order: acyclic graphs only (a cycle is an error).
    Acyclic,
}

/// Arguments of `zermelo solve`.
#[derive(Debug, Args)]
pub struct SolveArgs {
    #[command(flatten)]
    game: GameArgs,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Table)]
    format: Format,
    /// Print only the counts: nodes, edges, win, lose, draw, max_depth.
    #[arg(long)]
    summary: bool,
    /// Write to FILE (atomically) instead of standard output.
    #[arg(long, short, value_name = "FILE")]
    output: Option<PathBuf>,
    /// Solver to use.
    #[arg(long, value_enum, default_value_t = Algorithm::Retrograde)]
    algorithm: Algorithm,
    /// Print phase timings on standard error.
    #[arg(long)]
    stats: bool,
}

/// Runs `zermelo solve`.
pub fn run(args: SolveArgs) -> CliResult {
    let t0 = Instant::now();
    let game = load(&args.game)?;
    let t1 = Instant::now();
    let solution = match args.algorithm {
        Algorithm::Retrograde => solve::retrograde(game.graph(), &game.rules),
        Algorithm::Acyclic => solve::acyclic(game.graph(), &game.rules).map_err(|cycle| {
            Failure::input(format!(
                "{}: --algorithm acyclic needs an acyclic graph, but it has the cycle {cycle}",
                args.game.file.display()
            ))
        })?,
    };
    let t2 = Instant::now();
    let counts = solution.counts();
    emit(args.output.as_deref(), |out| {
        if args.summary {
            write_summary(out, &game, &counts, args.format)
        } else {
            write_solution(out, &game, &solution, args.format)
        }
    })?;
    if args.stats {
        let t3 = Instant::now();
        eprintln!(
            "stats: load {:.3}s, solve {:.3}s, write {:.3}s, total {:.3}s; {} nodes, {} edges",
            (t1 - t0).as_secs_f64(),
            (t2 - t1).as_secs_f64(),
            (t3 - t2).as_secs_f64(),
            (t3 - t0).as_secs_f64(),
            game.graph().node_count(),
            game.graph().edge_count(),
        );
    }
    Ok(())
}
