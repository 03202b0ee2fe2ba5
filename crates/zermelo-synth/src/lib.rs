//! # zermelo-synth
//!
//! Reactive synthesis from SYNTCOMP's extended HOA: given a deterministic parity automaton whose
//! propositions are split into the environment's inputs and the controller's outputs, decide
//! whether a controller exists that makes every run accepted (realizability), and build one as
//! an AIGER circuit; check any circuit against the specification (the closed loop).
//!
//! The pipeline, one file per step:
//!
//! | step | file | what |
//! |---|---|---|
//! | [`Spec`] | `spec.rs` | the automaton (`zermelo_parity::io::parse_automaton`), checked: parity, deterministic, complete, controllable propositions; labels as BDDs |
//! | game | `game.rs` | environment picks an input class, controller a (target, priority) choice; solved by `zermelo_parity` ([`Solver`]) |
//! | Mealy machine | `mealy.rs` | the strategy's reachable states, outputs fixed, bisimulation minimisation |
//! | circuit | `encode.rs`, `aig.rs`, `rewrite.rs` | binary or one-hot states, factored ISOP or BDD multiplexers, structural hashing, resynthesis over cuts; the smallest kept |
//! | files | `aiger.rs` | AIGER 1.9, ASCII and binary, written and read |
//! | check | `check.rs` | circuit x automaton over every input sequence; a rejected run as a lasso |
//! | BDDs | `bdd.rs` | the small BDD package under all of it |
//!
//! ```
//! use zermelo_synth::{check_closed_loop, synthesize, Options, Spec, Verdict};
//! // One state; the controller must copy input i to output o: colour 0 (accepting) when it
//! // does, 1 when it does not.
//! let text = "HOA: v1\nStates: 1\nStart: 0\nAP: 2 \"i\" \"o\"\ncontrollable-AP: 1\n\
//!     acc-name: parity max even 2\nAcceptance: 2 Fin(1) & Inf(0)\n--BODY--\nState: 0\n\
//!     [0&1 | !0&!1] 0 {0}\n[0&!1 | !0&1] 0 {1}\n--END--\n";
//! let mut spec = Spec::parse(text.as_bytes(), "copy.ehoa")?;
//! let result = synthesize(&mut spec, &Options::default())?;
//! assert!(result.realizable);
//! let circuit = result.controller.expect("a controller");
//! assert_eq!((circuit.ands.len(), circuit.latch_count()), (0, 0)); // o = i: a wire
//! assert!(matches!(check_closed_loop(&mut spec, &circuit, "c")?, Verdict::Correct { .. }));
//! # Ok::<(), zermelo::io::ParseError>(())
//! ```
//!
//! ## Errors
//!
//! Every failure is a [`zermelo::io::ParseError`]: a malformed or unsuitable specification
//! or circuit (file, line, what was expected), or a limit passed ([`ErrorKind::TooBig`](zermelo::io::ErrorKind::TooBig):
//! [`MAX_AUTOMATON_APS`](zermelo_parity::io::MAX_AUTOMATON_APS) propositions, [`MAX_BDD_NODES`]
//! BDD nodes, [`MAX_GAME_VERTICES`], [`MAX_PRODUCT_STATES`], [`MAX_AIGER_VARS`]), named in the
//! message. Nothing enumerates the `2^n` valuations of the propositions.

#![deny(missing_docs)]

mod aig;
mod aiger;
mod bdd;
mod check;
mod encode;
mod game;
mod mealy;
mod rewrite;
mod spec;

use std::time::{Duration, Instant};

use zermelo::io::ParseError;
use zermelo_parity::Solver;

pub use aig::{Aig, Lit};
pub use aiger::{parse_aiger, write_aiger, MAX_AIGER_VARS};
pub use check::{check_closed_loop, Lasso, Step, Verdict, MAX_PRODUCT_STATES};
pub use game::MAX_GAME_VERTICES;
pub use spec::{Spec, MAX_BDD_NODES};

/// What [`synthesize`] does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// The parity game solver.
    pub solver: Solver,
    /// Stop after the realizability answer (no controller).
    pub realizability_only: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            solver: Solver::DEFAULT,
            realizability_only: false,
        }
    }
}

/// Sizes and times of a synthesis run.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Vertices of the game.
    pub game_vertices: usize,
    /// Moves of the game.
    pub game_edges: u64,
    /// States of the strategy's Mealy machine before minimisation.
    pub strategy_states: usize,
    /// States after bisimulation minimisation.
    pub minimised_states: usize,
    /// Time to build the game (from the checked spec).
    pub build: Duration,
    /// Time to solve it.
    pub solve: Duration,
    /// Time from the solution to the circuit.
    pub circuit: Duration,
}

/// The answer of [`synthesize`].
#[derive(Clone, Debug)]
pub struct Synthesis {
    /// Whether a controller exists.
    pub realizable: bool,
    /// The controller, when realizable (and not [`Options::realizability_only`]).
    pub controller: Option<Aig>,
    /// Sizes and times.
    pub stats: Stats,
}

/// Decides realizability and, unless asked not to, builds a small controller (crate docs).
///
/// # Errors
/// "Too big" ([`ErrorKind::TooBig`](zermelo::io::ErrorKind::TooBig)) past a limit (crate docs).
pub fn synthesize(spec: &mut Spec, options: &Options) -> Result<Synthesis, ParseError> {
    let t0 = Instant::now();
    let game = game::Game::build(spec, !options.realizability_only)?;
    let t1 = Instant::now();
    let (realizable, solution) = game::solve(&game, options.solver);
    let t2 = Instant::now();
    let mut stats = Stats {
        game_vertices: game.arena.vertex_count(),
        game_edges: game.arena.edge_count(),
        build: t1 - t0,
        solve: t2 - t1,
        ..Stats::default()
    };
    if !realizable || options.realizability_only {
        return Ok(Synthesis {
            realizable,
            controller: None,
            stats,
        });
    }
    let mut machine = mealy::Mealy::from_strategy(spec, &game, &solution);
    stats.strategy_states = machine.states.len();
    let outputs: Vec<u32> = spec.outputs.iter().map(|&a| a as u32).collect();
    machine.fix_outputs(&mut spec.bdd, &outputs);
    let machine = machine.minimise(&mut spec.bdd);
    stats.minimised_states = machine.states.len();
    if spec.bdd.overflowed() {
        return Err(spec.too_big("the controller"));
    }
    let aig = encode::encode_best(spec, &machine);
    stats.circuit = t2.elapsed();
    Ok(Synthesis {
        realizable,
        controller: Some(aig),
        stats,
    })
}
