//! `zermelo solve`: label every position WIN / LOSE / DRAW with depth and best move.

use std::path::PathBuf;
use std::time::Instant;

use clap::{Args, ValueEnum};
use zermelo::graph::{Predecessors, Rules};
use zermelo::io::LoadedGraph;
use zermelo::{solve, Solution};

use crate::error::{CliResult, Failure};
use crate::input::{load, load_reverse, GameArgs};
use crate::output::emit;
use crate::progress::Progress;
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
    /// Write to FILE (atomically) instead of standard output. A name ending in `.zs` gets the
    /// compact binary solution format (2-bit outcomes and depths), whatever `--format` says.
    #[arg(long, short, value_name = "FILE")]
    output: Option<PathBuf>,
    /// Solver to use.
    #[arg(long, value_enum, default_value_t = Algorithm::Retrograde)]
    algorithm: Algorithm,
    /// Print phase timings on standard error.
    #[arg(long)]
    stats: bool,
    #[command(flatten)]
    cluster: super::solve_cluster::ClusterArgs,
}

/// Runs `zermelo solve`.
pub fn run(args: SolveArgs) -> CliResult {
    if args.cluster.cluster {
        if args.algorithm != Algorithm::Retrograde {
            return Err(Failure::input(
                "--cluster solves by retrograde analysis only",
            ));
        }
        let output = super::solve_cluster::Output {
            format: args.format,
            file: args.output.as_deref(),
            summary: args.summary,
            stats: args.stats,
        };
        return super::solve_cluster::run(&args.cluster, &args.game, output);
    }
    let t0 = Instant::now();
    let to_binary = args
        .output
        .as_ref()
        .and_then(|p| p.extension())
        .is_some_and(|e| e.eq_ignore_ascii_case("zs"));
    if args.summary && !to_binary && args.algorithm == Algorithm::Retrograde {
        // Counts need no forward moves: load and solve the reverse half only.
        let game = load_reverse(&args.game)?;
        let t1 = Instant::now();
        // Dispatch on the concrete row type: the solver's hot loop stays free of virtual calls.
        let solution = match &game.graph {
            LoadedGraph::Full(g) => solve_any(g, &game.rules),
            LoadedGraph::Reverse(g) => solve_any(g, &game.rules),
            LoadedGraph::TwoPlayer(g) => solve_any(g.states(), &game.rules),
        };
        let t2 = Instant::now();
        let counts = solution.counts();
        let (nodes, edges) = (game.node_count(), game.edge_count());
        drop((solution, game));
        emit(args.output.as_deref(), |out| {
            write_summary(out, nodes, edges, &counts, args.format)
        })?;
        if args.stats {
            print_stats([t0, t1, t2, Instant::now()], nodes, edges);
        }
        return Ok(());
    }
    let game = load(&args.game)?;
    let t1 = Instant::now();
    let solution = match args.algorithm {
        Algorithm::Retrograde => solve_any(game.graph(), &game.rules),
        Algorithm::Acyclic => solve::acyclic(game.graph(), &game.rules).map_err(|cycle| {
            Failure::input(format!(
                "{}: --algorithm acyclic needs an acyclic graph, but it has the cycle {cycle}",
                args.game.file.display()
            ))
        })?,
    };
    let t2 = Instant::now();
    let counts = solution.counts();
    let (nodes, edges) = (game.graph().node_count(), game.graph().edge_count());
    let binary_out = args
        .output
        .as_ref()
        .and_then(|p| p.extension())
        .is_some_and(|e| e.eq_ignore_ascii_case("zs"));
    emit(args.output.as_deref(), |out| {
        if binary_out {
            zermelo::io::binary::write_solution(out, &solution)
        } else if args.summary {
            write_summary(out, nodes, edges, &counts, args.format)
        } else {
            write_solution(out, &game, &solution, args.format)
        }
    })?;
    if args.stats {
        print_stats([t0, t1, t2, Instant::now()], nodes, edges);
    }
    Ok(())
}

/// Retrograde analysis (the library picks sequential or parallel), under a spinner.
fn solve_any<G: Predecessors + ?Sized>(graph: &G, rules: &Rules) -> Solution {
    let bar = Progress::global().spinner("solve");
    let solution = solve::retrograde_auto(graph, rules);
    bar.finish();
    solution
}

/// `--stats`: phase timings, thread count and peak memory on standard error.
fn print_stats(t: [Instant; 4], nodes: usize, edges: u64) {
    let secs = |a: Instant, b: Instant| (b - a).as_secs_f64();
    crate::note!(
        "stats: load {:.3}s, solve {:.3}s, write {:.3}s, total {:.3}s; {nodes} nodes, {edges} \
         edges; {} threads; peak memory {}",
        secs(t[0], t[1]),
        secs(t[1], t[2]),
        secs(t[2], t[3]),
        secs(t[0], t[3]),
        rayon::current_num_threads(),
        peak_memory_text(),
    );
}

/// The peak memory for `--stats` lines: `123.4 MiB`, or `unknown` off Linux.
pub(crate) fn peak_memory_text() -> String {
    peak_memory().map_or("unknown".into(), |kib| {
        format!("{:.1} MiB", kib as f64 / 1024.0)
    })
}

/// Peak resident memory of this process in KiB (Linux: `VmHWM` in /proc/self/status).
pub(crate) fn peak_memory() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}
