//! `zermelo gen`: deterministic graphs for tests and benchmarks, as edge lists.

use std::path::PathBuf;

use clap::{Args, Subcommand};
use zermelo::graph::generate::{self, RandomSpec};

use crate::error::{CliResult, Failure};
use crate::output::emit;

/// Arguments of `zermelo gen`.
#[derive(Debug, Args)]
pub struct GenArgs {
    #[command(subcommand)]
    kind: Kind,
    /// Write to FILE (atomically) instead of standard output.
    #[arg(long, short, value_name = "FILE", global = true)]
    output: Option<PathBuf>,
}

#[derive(Debug, Subcommand)]
enum Kind {
    /// Uniform random edges; a fixed fraction of nodes is forced terminal (no moves).
    Random {
        /// Number of nodes.
        #[arg(long)]
        nodes: u64,
        /// Number of edges.
        #[arg(long)]
        edges: u64,
        /// Random seed.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Fraction of nodes forced terminal, in [0, 1].
        #[arg(long, default_value_t = 0.03)]
        terminal_fraction: f64,
    },
    /// A forced chain 0 -> 1 -> ... -> N-1: depths N-1 down to 0.
    Chain {
        /// Number of nodes.
        #[arg(long)]
        nodes: u64,
    },
    /// Cop and robber on a W x H grid with random walls: states (cop, robber, side to move),
    /// (W*H)^2 * 2 nodes, many cycles.
    Grid {
        /// Columns.
        #[arg(long)]
        width: u64,
        /// Rows.
        #[arg(long)]
        height: u64,
        /// Fraction of wall cells, in [0, 1).
        #[arg(long, default_value_t = 0.1)]
        walls: f64,
        /// Random seed for the walls.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// Parity games in PGSolver format: random, ladder, recursive-ladder, friedmann,
    /// two-counters, jurdzinski, synthesis.
    #[command(subcommand)]
    Parity(super::gen_parity::ParityGen),
}

/// Runs `zermelo gen`.
pub fn run(args: GenArgs) -> CliResult {
    match args.kind {
        Kind::Parity(kind) => {
            let arena = super::gen_parity::build(&kind)?;
            emit(args.output.as_deref(), |out| {
                zermelo_parity::io::write_pgsolver(out, &arena)
            })
        }
        Kind::Random {
            nodes,
            edges,
            seed,
            terminal_fraction,
        } => {
            if !(0.0..=1.0).contains(&terminal_fraction) {
                return Err(Failure::input(
                    "--terminal-fraction must be between 0 and 1",
                ));
            }
            check_nodes(nodes)?;
            if nodes == 0 && edges > 0 {
                return Err(Failure::input("a graph with no nodes cannot have edges"));
            }
            let spec = RandomSpec {
                nodes,
                edges,
                terminal_fraction,
                seed,
            };
            if edges > 0 && generate::random_edges(spec).next().is_none() {
                return Err(Failure::input(format!(
                    "--terminal-fraction {terminal_fraction} makes every node terminal: \
                     there is no node to place the {edges} edges on"
                )));
            }
            let m = edges;
            emit(args.output.as_deref(), |out| {
                zermelo::io::write_edge_list(out, nodes, m, generate::random_edges(spec))
            })
        }
        Kind::Grid {
            width,
            height,
            walls,
            seed,
        } => {
            if !(0.0..1.0).contains(&walls) {
                return Err(Failure::input("--walls must be at least 0 and below 1"));
            }
            let cells = width.checked_mul(height).filter(|&c| c > 0);
            let nodes = cells
                .and_then(|c| c.checked_mul(c))
                .and_then(|c| c.checked_mul(2));
            let Some(nodes) = nodes else {
                return Err(Failure::input(
                    "--width and --height must be positive and small enough",
                ));
            };
            check_nodes(nodes)?;
            let spec = generate::GridSpec {
                width,
                height,
                wall_fraction: walls,
                seed,
            };
            let m = generate::grid_pursuit(spec).1.count() as u64;
            emit(args.output.as_deref(), |out| {
                let (n, edges) = generate::grid_pursuit(spec);
                zermelo::io::write_edge_list(out, n, m, edges)
            })
        }
        Kind::Chain { nodes } => {
            check_nodes(nodes)?;
            let m = nodes.saturating_sub(1);
            emit(args.output.as_deref(), |out| {
                zermelo::io::write_edge_list(out, nodes, m, generate::chain_edges(nodes))
            })
        }
    }
}

fn check_nodes(nodes: u64) -> CliResult {
    if nodes > zermelo::graph::MAX_NODES {
        return Err(Failure::input(format!(
            "--nodes {nodes} is more than the supported maximum of {}",
            zermelo::graph::MAX_NODES
        )));
    }
    Ok(())
}
