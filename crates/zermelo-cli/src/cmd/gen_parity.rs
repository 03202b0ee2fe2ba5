//! `zermelo gen parity`: parity games in PGSolver format, random or from the families of the
//! literature that are hard for some algorithms, or synthesis-style products of a plant and a
//! parity automaton (see `zermelo_parity::generate`).

use clap::Subcommand;
use zermelo_parity::{generate, Arena};

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
    /// Reactive-synthesis-style game (as SYNTCOMP's LTL-to-parity games): the product of a
    /// random plant with a random deterministic parity automaton (DPA). From each (plant state,
    /// automaton state) the environment (player 1) picks an input valuation, then the
    /// controller (player 0) an output valuation; the DPA reads the pair and its state's
    /// priority is the vertex's. The DPA's states form a chain of components, so the game is a
    /// chain of strongly connected components (`zermelo parity --scc`). Only the part
    /// reachable from the start vertex 0 is written: at most STATES x AUTOMATON_STATES x
    /// (1 + 2^INPUTS) vertices.
    Synthesis {
        /// States of the plant (each allows an input valuation, and an output after it, with
        /// probability 3/4, and moves to a random state); 1 for the automaton alone.
        #[arg(long, default_value_t = 4)]
        states: u64,
        /// States of the parity automaton.
        #[arg(long, default_value_t = 64)]
        automaton_states: u64,
        /// Components of the automaton, in a chain: a transition leaves its component for a
        /// later one with probability 1/8.
        #[arg(long, default_value_t = 4)]
        components: u64,
        /// Boolean input signals (at most 6): the environment picks one of 2^INPUTS valuations.
        #[arg(long, default_value_t = 2)]
        inputs: u32,
        /// Boolean output signals (at most 6): the controller picks one of 2^OUTPUTS.
        #[arg(long, default_value_t = 2)]
        outputs: u32,
        /// The largest automaton priority: each component draws a top T in 0..=MAX, each of
        /// its states a priority in 0..=T.
        #[arg(long, value_name = "MAX", default_value_t = 5)]
        max_priority: u32,
        /// Random seed.
        #[arg(long, default_value_t = 1)]
        seed: u64,
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
        ParityGen::Synthesis {
            states,
            automaton_states,
            components,
            inputs,
            outputs,
            max_priority,
            seed,
        } => generate::synthesis(generate::SynthesisGame {
            plant_states: states,
            automaton_states,
            components,
            inputs,
            outputs,
            max_priority,
            seed,
        })
        .map_err(Failure::input)?,
    };
    Ok(arena)
}
