//! Games on arenas: reachability, safety, Büchi, co-Büchi and parity games.
//!
//! An [`Arena`] is the core's CSR graph plus an owner (Even = [`Player::Zero`](crate::Player::Zero), Odd =
//! [`Player::One`](crate::Player::One)) and a [`Priority`] per vertex. Every answer is a [`ParitySolution`]: the
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
//! | [`compress_priorities`], [`solve_self_loops`] | `preprocess.rs` | parity | O(V + E) | Oink / PGSolver preprocessing | solving with and without them agrees |
//! | SCC decomposition ([`SolveOptions::scc`], opt-in as in Oink: `--scc`) | `scc.rs` | parity | O(V + E) iterative Tarjan + the solver per component | Oink's bottom-SCC loop (van Dijk, TACAS 2018) | property tests on layered games vs brute force and Zielonka; [`verify`] |
//! | [`verify`] | `verify.rs` | parity | O(d · (V + E)) | nested SCC decomposition (Tarjan of `scc.rs`) | negative tests: every hand-broken certificate is rejected |
//! | [`generate`] | `generate.rs` | - | linear in output | PGSolver and Oink generators | solved and verified in tests |
//!
//! ```
//! use zermelo::parity::{self, Arena, Solver};
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

mod arena;
mod attractor;
pub mod generate;
mod layered;
mod objectives;
mod preprocess;
mod promotion;
mod scc;
mod solution;
mod verify;
mod zielonka;

pub use arena::{favours, Arena, ArenaError, Priority};
pub use objectives::{
    buchi, co_buchi, objective_arena, reachability, safety, solve_objective, Objective,
};
pub use preprocess::{compress_priorities, solve_self_loops};
pub use solution::ParitySolution;
pub use verify::{verify, ParityViolation};

/// The parity-game algorithms.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Solver {
    /// Zielonka's recursive algorithm.
    Zielonka,
    /// Priority promotion (PP).
    PriorityPromotion,
}

impl Solver {
    /// Every solver.
    pub const ALL: [Solver; 2] = [Solver::Zielonka, Solver::PriorityPromotion];

    /// The name the command line uses: `zielonka` or `pp`.
    pub fn name(self) -> &'static str {
        match self {
            Solver::Zielonka => "zielonka",
            Solver::PriorityPromotion => "pp",
        }
    }

    /// The solver called `name` (`zlk` and `priority-promotion` are accepted too).
    pub fn from_name(name: &str) -> Option<Solver> {
        match name.to_ascii_lowercase().as_str() {
            "zielonka" | "zlk" => Some(Solver::Zielonka),
            "pp" | "priority-promotion" | "promotion" => Some(Solver::PriorityPromotion),
            _ => None,
        }
    }
}

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
            solve_subgame(game, alive, solver, dense, &mut solution);
        }
        solution
    };
    match solver {
        Solver::Zielonka => {
            // The recursion is as deep as the number of priorities: give it a stack to match.
            let distinct = preprocess::distinct_priorities(game);
            zielonka::on_deep_stack(distinct, move || work(solution))
        }
        Solver::PriorityPromotion => work(solution),
    }
}

/// Runs `solver` on the subgame `alive` of `game`; `dense` says the priorities are compressed.
pub(crate) fn solve_subgame(
    game: &Arena,
    alive: Vec<bool>,
    solver: Solver,
    dense: bool,
    solution: &mut ParitySolution,
) {
    match solver {
        Solver::Zielonka => zielonka::zielonka_sub(game, alive, solution),
        // PP allocates one region list per priority value: run it on dense priorities.
        Solver::PriorityPromotion if dense => promotion::promotion_sub(game, alive, solution),
        Solver::PriorityPromotion => {
            promotion::promotion_sub(&compress_priorities(game), alive, solution)
        }
    }
}
