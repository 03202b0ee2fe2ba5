//! `zermelo gen parity`: parity games in PGSolver format, random or from the families of the
//! literature that are hard for some algorithms (see `zermelo::parity::generate`).

use clap::Subcommand;
use zermelo::parity::{generate, Arena};

use crate::error::{CliResult, Failure};

/// The largest family index accepted (the games grow linearly, or quadratically for
/// two-counters and Jurdziński's games).
const MAX_INDEX: u64 = 50_000_000;
const MAX_QUADRATIC: u64 = 5_000;

/// `zermelo gen parity KIND`.
#[derive(Debug, Subcommand)]
pub enum ParityGen {
    /// Uniform random game (as Oink's rngame): priority, owner and degree uniform, distinct
    /// successors.
    Random {
        /// Number of vertices.
        #[arg(long)]
        vertices: u64,
        /// Priorities are drawn from 0..=MAX.
        #[arg(long, value_name = "MAX", default_value_t = 8)]
        max_priority: u32,
        /// Smallest out-degree.
        #[arg(long, default_value_t = 1)]
        min_degree: u64,
        /// Largest out-degree.
        #[arg(long, default_value_t = 10)]
        max_degree: u64,
        /// Allow a vertex to be its own successor.
        #[arg(long)]
        self_loops: bool,
        /// Random seed.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// PGSolver's ladder game: 2N vertices.
    Ladder {
        /// Index N.
        n: u64,
    },
    /// PGSolver's recursive ladder (Friedmann): 5N vertices, exponential for Zielonka.
    RecursiveLadder {
        /// Index N.
        n: u64,
    },
    /// Friedmann's lower-bound game for Zielonka's algorithm: 5N vertices.
    Friedmann {
        /// Index N.
        n: u64,
    },
    /// Van Dijk's two-counters game (Oink's tc) with N bits: O(N^2) vertices.
    TwoCounters {
        /// Number of bits N.
        n: u64,
    },
    /// Jurdziński's game of height H and width W (PGSolver's jurdzinskigame).
    Jurdzinski {
        /// Height H.
        height: u64,
        /// Width W.
        width: u64,
    },
}

/// Builds the requested game, checking its size first.
pub fn build(kind: &ParityGen) -> CliResult<Arena> {
    let too_big =
        |what: &str, max: u64| Failure::input(format!("{what} is too large (at most {max})"));
    let arena = match *kind {
        ParityGen::Random {
            vertices,
            max_priority,
            min_degree,
            max_degree,
            self_loops,
            seed,
        } => {
            let edges = vertices.saturating_mul(max_degree);
            if vertices >= zermelo::graph::MAX_NODES || edges > u64::from(u32::MAX) {
                return Err(Failure::input(format!(
                    "--vertices {vertices} with --max-degree {max_degree} is too large \
                     (at most {} vertices and {} edges)",
                    zermelo::graph::MAX_NODES - 1,
                    u32::MAX
                )));
            }
            let spec = generate::RandomGame {
                vertices,
                max_priority,
                min_degree,
                max_degree,
                self_loops,
                seed,
            };
            generate::random(spec).map_err(Failure::input)?
        }
        ParityGen::Ladder { n } | ParityGen::RecursiveLadder { n } | ParityGen::Friedmann { n } => {
            if n > MAX_INDEX {
                return Err(too_big("N", MAX_INDEX));
            }
            let built = match kind {
                ParityGen::Ladder { .. } => generate::ladder(n),
                ParityGen::RecursiveLadder { .. } => generate::recursive_ladder(n),
                _ => generate::friedmann(n),
            };
            built.map_err(Failure::input)?
        }
        ParityGen::TwoCounters { n } => {
            if n > MAX_QUADRATIC {
                return Err(too_big("N", MAX_QUADRATIC));
            }
            generate::two_counters(n).map_err(Failure::input)?
        }
        ParityGen::Jurdzinski { height, width } => {
            if height > MAX_QUADRATIC || width > MAX_QUADRATIC {
                return Err(too_big("the height or width", MAX_QUADRATIC));
            }
            generate::jurdzinski(height, width).map_err(Failure::input)?
        }
    };
    Ok(arena)
}
