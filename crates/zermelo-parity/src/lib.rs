//! # zermelo-parity
//!
//! Games on arenas: reachability, safety, Büchi, co-Büchi and parity games, the infinite games
//! that retrograde analysis is the base case of. This crate is for model checking and reactive
//! synthesis work: it reads PGSolver games and SYNTCOMP's extended HOA automata ([`io`]), solves
//! them with a portfolio of solvers behind one registry ([`Solver`], [`solve`]), and certifies
//! every answer independently ([`verify`]). It stands on the core crate `zermelo` (the CSR graph,
//! the backward counter wave that both retrograde analysis and the attractor run) and on nothing
//! else of the workspace.
//!
//! ## The principal types
//!
//! * [`Arena`]: a game graph with an owner and a [`Priority`] per vertex;
//! * [`Solver`]: the algorithms, their names and [`Solver::Auto`], the portfolio;
//! * [`ParitySolution`]: the winner of every vertex and a positional strategy for the winner;
//! * [`Objective`]: reachability, safety, Büchi and co-Büchi targets, solved by attractors.
//!
//! (Before the workspace split these were `zermelo::parity::*` and `zermelo::io::parse_pgsolver`
//! and friends; they are now `zermelo_parity::*` and `zermelo_parity::io::*`.)
//!
//! ## Algorithms
//!
//!
//! An [`Arena`] is the core's CSR graph plus an owner (Even = [`Player::Zero`](zermelo::Player::Zero), Odd =
//! [`Player::One`](zermelo::Player::One)) and a [`Priority`] per vertex. Every answer is a [`ParitySolution`]: the
//! winner of every vertex and a positional strategy for the winner, which [`verify`] certifies
//! without trusting the solver. [`solve`] runs the pipeline: priority compression, winning
//! self-loops, then the strongly connected components bottom first, each with the chosen solver;
//! [`solve_with`] and [`SolveOptions`] turn the steps off for comparison.
//!
//! | algorithm | file | games | cost | reference | checked by |
//! |---|---|---|---|---|---|
//! | attractor | `attractor.rs` | reachability | O(V + E) | seed 003 §8; the retrograde wave (`solve/wave.rs`) | retrograde WIN/LOSE/DRAW on game graphs; brute force |
//! | layered attractor (from 8192 seeds; parallel on a rayon pool of 2+ threads) | `layered.rs` | reachability | O(V + E) work, one sync per layer | seed 003 §8; the CAS scheme of `solve/parallel.rs` | equals the FIFO attractor on 1-4 threads; same solution for any thread count; [`verify`] |
//! | [`reachability`], [`safety`] | `objectives.rs` | target set | O(V + E) | one attractor | reduction to parity + [`verify`]; Zielonka |
//! | [`buchi`], [`co_buchi`] | `objectives.rs` | target set | O(V · E) | iterated attractors (Chatterjee, Henzinger, Jurdziński) | reduction to priorities {1, 2} / {0, 1} + [`verify`] |
//! | [`Solver::Zielonka`] | `zielonka.rs` | parity | O(E · V^d) worst | Zielonka, TCS 1998 | brute force over positional strategies; [`verify`] |
//! | [`Solver::PriorityPromotion`] | `promotion.rs` | parity | exponential worst, no recursion | Benerecetti, Dell'Erba, Mogavero, CAV 2016 | brute force; Zielonka; [`verify`] |
//! | [`Solver::TangleLearning`] (`tl`) | `tangle.rs` | parity; good on recursive ladders, ladders, Friedmann; exponential on two-counters (built against it) | exponential worst, O(V + E + tangles) per pass | van Dijk, CAV 2018 | brute force; Zielonka on random and family games; [`verify`] |
//! | [`Solver::RecursiveTangleLearning`] (`rtl`), [`Solver::OneSidedTangleLearning`] (`ortl`) | `rtl.rs` | parity; fast on two-counters (`rtl` 0.01 s at 20 bits); `ortl` slow on recursive ladders | exponential worst, a recursion per region | van Dijk, GandALF 2019 | brute force; Zielonka; [`verify`] |
//! | [`Solver::QuasiPolynomialZielonka`] (`qpz`) | `qpz.rs` | parity; as Zielonka on random and synthesis games; cannot be driven exponential (Friedmann, two-counters); slower than Zielonka on ladders with many priorities | n^O(log d), recursion depth d + 2 log2 n | Parys, MFCS 2019; Lehtinen, Parys, Schewe, Wojtczak, LMCS 2022 | brute force; Zielonka; [`verify`] |
//! | [`Solver::FixpointJustifications`] (`fpj`) | `fpj.rs` | parity; good on random and synthesis games and ladders; bad on Friedmann's games and two-counters | exponential worst, O(V + E) per pass, no recursion | Lapauw, Bruynooghe, Denecker, VMCAI 2020; van Dijk, Rubbens, GandALF 2019 | brute force; Zielonka; [`verify`] |
//! | [`Solver::StrategyImprovement`] (`si`) | `si.rs` | parity; good on two-counters and random games with few priorities; bad on Friedmann's games (built against it) and long ladders; memory V · d (above 2^26 counters it runs priority promotion) | exponential worst, O(V · d) per evaluation | Björklund, Vorobyov, DAM 2007; Fearnley, CAV 2017 | brute force; Zielonka; [`verify`] |
//! | [`compress_priorities`], [`solve_self_loops`] | `preprocess.rs` | parity | O(V + E) | Oink / PGSolver preprocessing | solving with and without them agrees |
//! | SCC decomposition ([`SolveOptions::scc`], opt-in as in Oink: `--scc`) | `scc.rs` | parity | O(V + E) iterative Tarjan + the solver per component | Oink's bottom-SCC loop (van Dijk, TACAS 2018) | property tests on layered games vs brute force and Zielonka; [`verify`] |
//! | [`verify`] | `verify.rs` | parity | O(d · (V + E)) | nested SCC decomposition (Tarjan of `scc.rs`) | negative tests: every hand-broken certificate is rejected |
//! | [`generate`] | `generate.rs` | - | linear in output | PGSolver and Oink generators | solved and verified in tests |
//!
//! ## Automatic choice
//!
//! [`Solver::Auto`] (the command line's default) is a deterministic portfolio rather than a
//! guess: the solvers take turns on what is still unsolved, each with a work budget (vertices
//! attracted and moves scanned, never time, so a game always takes the same path on any
//! machine and thread count). The first budget is 16 units per vertex and move of the
//! subgame, and it grows fourfold per round. A solver that runs out keeps what it solved
//! (dominions and their attractors, which leave a subgame), so the next one starts smaller.
//! The order comes from one feature of the subgame after preprocessing: with at least one
//! distinct priority per 16 vertices (the lower-bound families: recursive ladders,
//! Friedmann's, two-counters) tangle learning, fixpoint iteration with justifications,
//! priority promotion, recursive tangle learning; else (random, synthesis and Jurdziński's
//! games) priority promotion first, then fixpoint iteration with justifications, tangle
//! learning, recursive tangle learning. Fixpoint iteration solves nothing until it is done, so
//! when it runs out it gives the whole subgame back; it is in the portfolio because it solves
//! Friedmann's and Jurdziński's games several times faster than the others. The total work is
//! within a constant factor (about 4 x 4/3 x 4) of the fastest of the four on every game;
//! measured figures are in BENCHMARKS.md. With SCC decomposition on, the choice is made per component.
//!
//! ```
//! use zermelo_parity::{self as parity, Arena, Solver};
//! use zermelo::Player;
//! // Even owns 0 (priority 2) and can go to 1 (Odd, priority 1) or 2 (Odd, priority 3);
//! // 1 and 2 both return to 0. Even avoids priority 3 by always choosing 1.
//! let a = Arena::from_edges(
//!     &[(Player::Zero, 2), (Player::One, 1), (Player::One, 3)],
//!     [(0, 1), (0, 2), (1, 0), (2, 0)],
//! )?;
//! let s = parity::solve(&a, Solver::PriorityPromotion);
//! assert_eq!(s.winner(0), Player::Zero);
//! assert_eq!(s.strategy(0), Some(1));
//! parity::verify(&a, &s)?; // an independent check of the certificate
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![deny(missing_docs)]

mod arena;
mod attractor;
mod budget;
mod fpj;
pub mod generate;
pub mod io;
mod layered;
mod objectives;
mod preprocess;
mod promotion;
mod qpz;
mod region;
mod registry;
mod rtl;
mod scc;
mod si;
mod solution;
mod tangle;
mod verify;
mod zielonka;

pub use arena::{favours, Arena, ArenaError, Priority};
pub use objectives::{
    buchi, co_buchi, objective_arena, reachability, safety, solve_objective, verify_objective,
    Objective,
};
pub use preprocess::{compress_priorities, solve_self_loops};
pub use registry::Solver;
pub use solution::ParitySolution;
pub use verify::{verify, ParityViolation};

/// What [`solve_with`] does around the solver. The default preprocesses and solves the whole
/// game at once: SCC decomposition is opt-in, as in Oink, because on games that are one giant
/// component (random games, the published families) its extra Tarjan pass costs about 0.5 s per
/// 10^6 vertices and saves nothing, while on chains of components (synthesis games) it halves
/// the time (BENCHMARKS.md, "Parity games").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SolveOptions {
    /// Priority compression and winning self-loops ([`compress_priorities`],
    /// [`solve_self_loops`]).
    pub preprocess: bool,
    /// SCC decomposition: solve bottom components first and attract their regions upwards
    /// (`scc.rs`).
    pub scc: bool,
}

impl Default for SolveOptions {
    fn default() -> SolveOptions {
        SolveOptions {
            preprocess: true,
            scc: false,
        }
    }
}

impl SolveOptions {
    /// The solver alone, on the whole game.
    pub const NONE: SolveOptions = SolveOptions {
        preprocess: false,
        scc: false,
    };
    /// Preprocessing and SCC decomposition.
    pub const ALL: SolveOptions = SolveOptions {
        preprocess: true,
        scc: true,
    };
}

/// Solves a parity game with `solver`, after priority compression and winning self-loops
/// ([`SolveOptions::default`]; [`solve_with`] and [`SolveOptions::ALL`] add SCC decomposition).
pub fn solve(arena: &Arena, solver: Solver) -> ParitySolution {
    solve_with(arena, solver, SolveOptions::default())
}

/// Solves a parity game with `solver` and the preprocessing steps `options` turns on.
pub fn solve_with(arena: &Arena, solver: Solver, options: SolveOptions) -> ParitySolution {
    let mut solution = ParitySolution::new(arena.vertex_count());
    let compressed;
    let (game, alive) = if options.preprocess {
        compressed = compress_priorities(arena);
        let alive = solve_self_loops(&compressed, &mut solution);
        (&compressed, alive)
    } else {
        (arena, vec![true; arena.vertex_count()])
    };
    if !alive.iter().any(|&a| a) {
        return solution;
    }
    let dense = options.preprocess;
    let work = move |mut solution: ParitySolution| {
        if options.scc {
            scc::solve_by_components(game, alive, solver, dense, &mut solution);
        } else {
            registry::solve_subgame(game, alive, solver, dense, &mut solution);
        }
        solution
    };
    let depth = registry::stack_depth(solver, game);
    zielonka::on_deep_stack(depth, move || work(solution))
}
