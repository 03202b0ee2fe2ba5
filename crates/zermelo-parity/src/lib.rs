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
mod fpj;
pub mod generate;
pub mod io;
mod layered;
mod objectives;
mod preprocess;
mod promotion;
mod qpz;
mod region;
mod rtl;
mod scc;
mod si;
mod solution;
mod tangle;
mod verify;
mod zielonka;

pub use arena::{favours, Arena, ArenaError, Priority};
pub use objectives::{
    buchi, co_buchi, objective_arena, reachability, safety, solve_objective, Objective,
};
pub use preprocess::{compress_priorities, solve_self_loops};
pub use solution::ParitySolution;
pub use verify::{verify, ParityViolation};

/// The parity-game algorithms, and [`Solver::Auto`], which picks one of them per game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Solver {
    /// Zielonka's recursive algorithm.
    Zielonka,
    /// Priority promotion (PP).
    PriorityPromotion,
    /// Tangle learning (TL).
    TangleLearning,
    /// Recursive tangle learning (RTL).
    RecursiveTangleLearning,
    /// One-sided recursive tangle learning (ORTL).
    OneSidedTangleLearning,
    /// Quasi-polynomial Zielonka (Parys; Lehtinen, Parys, Schewe, Wojtczak).
    QuasiPolynomialZielonka,
    /// Fixpoint iteration with justifications (Lapauw, Bruynooghe, Denecker).
    FixpointJustifications,
    /// Strategy improvement with halting (Björklund-Vorobyov; Fearnley's valuations).
    StrategyImprovement,
    /// The solvers in turn with growing budgets (module docs, "Automatic choice").
    Auto,
}

/// A solver's entry in [`REGISTRY`].
struct Entry {
    solver: Solver,
    /// The command-line name, then other accepted names.
    names: &'static [&'static str],
    /// Solves the subgame given by a mask into a solution, or gives up when the budget runs
    /// out, returning the mask of what it left unsolved.
    run: SubSolver,
    /// Needs dense (compressed) priorities.
    dense: bool,
    /// How deep its recursion goes: the stack it runs on.
    stack: Stack,
}

/// A solver of a subgame under a work budget: `Err(rest)` when it gave up with `rest` (a
/// subgame: what it solved are dominions with their attractors) unsolved.
type SubSolver = fn(&Arena, Vec<bool>, &mut ParitySolution, &mut Budget) -> Result<(), Vec<bool>>;

/// Work a solver may do before it gives up (deterministic: counted in attracted vertices and
/// scanned moves, never in time, so the same game always takes the same path).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Budget {
    left: u64,
}

impl Budget {
    /// No limit.
    pub(crate) const UNLIMITED: Budget = Budget { left: u64::MAX };

    pub(crate) fn new(work: u64) -> Budget {
        Budget { left: work.max(1) }
    }

    /// Spends `work`; false once the budget is used up.
    #[inline]
    pub(crate) fn spend(&mut self, work: u64) -> bool {
        self.left = self.left.saturating_sub(work);
        self.left > 0
    }
}

/// The recursion depth of a solver.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Stack {
    /// No recursion.
    Flat,
    /// Up to the number of distinct priorities.
    Priorities,
    /// Up to the number of distinct priorities plus twice log2 of the number of vertices
    /// (quasi-polynomial Zielonka: the precisions halve).
    PrioritiesAndHalvings,
    /// Up to the number of vertices (at most `rtl::MAX_DEPTH`).
    Vertices,
}

/// The solvers, one line each (as Oink's solver table): value, names, entry point, needs.
#[rustfmt::skip]
const REGISTRY: &[Entry] = &[
    Entry { solver: Solver::Zielonka,                names: &["zielonka", "zlk"],                   run: zielonka::zielonka_budget, dense: false, stack: Stack::Priorities },
    Entry { solver: Solver::PriorityPromotion,       names: &["pp", "priority-promotion", "promotion"], run: promotion::promotion_sub, dense: true, stack: Stack::Flat },
    Entry { solver: Solver::TangleLearning,          names: &["tl", "tangle", "tangle-learning"],   run: tangle::tangle_sub,      dense: false, stack: Stack::Flat },
    Entry { solver: Solver::RecursiveTangleLearning, names: &["rtl"],                               run: rtl::rtl_sub,            dense: false, stack: Stack::Vertices },
    Entry { solver: Solver::OneSidedTangleLearning,  names: &["ortl"],                              run: rtl::ortl_sub,           dense: false, stack: Stack::Vertices },
    Entry { solver: Solver::QuasiPolynomialZielonka, names: &["qpz", "zlkq", "quasi-polynomial-zielonka"], run: qpz::qpz_sub, dense: false, stack: Stack::PrioritiesAndHalvings },
    Entry { solver: Solver::FixpointJustifications,  names: &["fpj", "fixpoint-justifications"],   run: fpj::fpj_sub,            dense: false, stack: Stack::Flat },
    Entry { solver: Solver::StrategyImprovement,     names: &["si", "strategy-improvement"], run: si::si_sub,              dense: false, stack: Stack::Flat },
];

impl Default for Solver {
    fn default() -> Solver {
        Solver::DEFAULT
    }
}

impl Solver {
    /// The solver used when none is named: the command line's `--solver` default and the
    /// Python package's, both read from here.
    pub const DEFAULT: Solver = Solver::Auto;

    /// Every solver of the registry, then [`Solver::Auto`].
    pub const ALL: [Solver; REGISTRY.len() + 1] = {
        let mut all = [Solver::Auto; REGISTRY.len() + 1];
        let mut i = 0;
        while i < REGISTRY.len() {
            all[i] = REGISTRY[i].solver;
            i += 1;
        }
        all
    };

    /// The name the command line uses (`zielonka`, `pp`, `tl`, ..., `auto`).
    pub fn name(self) -> &'static str {
        self.entry().map_or("auto", |e| e.names[0])
    }

    /// The solver called `name` (case-insensitive; the other names of the registry too, such
    /// as `zlk` and `priority-promotion`).
    pub fn from_name(name: &str) -> Option<Solver> {
        let name = name.to_ascii_lowercase();
        if name == "auto" {
            return Some(Solver::Auto);
        }
        REGISTRY
            .iter()
            .find(|e| e.names.contains(&name.as_str()))
            .map(|e| e.solver)
    }

    /// The command-line names of every solver, `auto` last.
    pub fn names() -> impl Iterator<Item = &'static str> {
        Solver::ALL.into_iter().map(Solver::name)
    }

    /// Whether the solver must run on dense (compressed) priorities.
    pub(crate) fn needs_dense(self) -> bool {
        self.entry().is_some_and(|e| e.dense)
    }

    fn entry(self) -> Option<&'static Entry> {
        REGISTRY.iter().find(|e| e.solver == self)
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
    // A recursion gets a stack to match its depth.
    // Auto may run any solver but Zielonka.
    let depth = match solver.entry().map_or(Stack::Vertices, |e| e.stack) {
        Stack::Flat => 0,
        Stack::Priorities => preprocess::distinct_priorities(game),
        Stack::PrioritiesAndHalvings => {
            let halvings = usize::BITS - game.vertex_count().leading_zeros();
            preprocess::distinct_priorities(game) + 2 * halvings as usize
        }
        Stack::Vertices => game.vertex_count().min(rtl::MAX_DEPTH as usize),
    };
    zielonka::on_deep_stack(depth, move || work(solution))
}

/// The orders in which [`Solver::Auto`] gives the solvers a budget: on games with many
/// priorities for their size (at least one per [`AUTO_VERTICES_PER_PRIORITY`] vertices: the
/// published lower-bound families) tangle learning first, else priority promotion first
/// (random and synthesis games); fixpoint iteration with justifications second (it solves
/// Friedmann's and Jurdziński's games in a fraction of the others' time, but gives back
/// everything when it runs out); recursive tangle learning last.
const AUTO_MANY_PRIORITIES: [Solver; 4] = [
    Solver::TangleLearning,
    Solver::FixpointJustifications,
    Solver::PriorityPromotion,
    Solver::RecursiveTangleLearning,
];
const AUTO_FEW_PRIORITIES: [Solver; 4] = [
    Solver::PriorityPromotion,
    Solver::FixpointJustifications,
    Solver::TangleLearning,
    Solver::RecursiveTangleLearning,
];
const AUTO_VERTICES_PER_PRIORITY: usize = 16;
/// The first budget of each solver, per vertex and move of the subgame, and its growth.
const AUTO_FIRST_BUDGET: u64 = 16;
const AUTO_GROWTH: u64 = 4;

/// Runs `solver` on the subgame `alive` of `game`; `dense` says the priorities are compressed.
pub(crate) fn solve_subgame(
    game: &Arena,
    alive: Vec<bool>,
    solver: Solver,
    dense: bool,
    solution: &mut ParitySolution,
) {
    if solver == Solver::Auto {
        portfolio(game, alive, dense, solution);
        return;
    }
    let mut unlimited = Budget::UNLIMITED;
    let done = run_budgeted(game, alive, solver, dense, solution, &mut unlimited);
    debug_assert!(done.is_ok(), "an unlimited budget never runs out");
}

/// [`Solver::Auto`]: each solver of [`AUTO_ORDER`] in turn on what is left unsolved, with a
/// budget that grows by [`AUTO_GROWTH`] per round. What a solver solves before it gives up is
/// kept (dominions and their attractors), and the rest is a subgame again.
fn portfolio(game: &Arena, alive: Vec<bool>, dense: bool, solution: &mut ParitySolution) {
    let (mut vertices, mut size) = (0usize, 0u64);
    let mut priorities = Vec::new();
    for v in game.vertices().filter(|&v| alive[v as usize]) {
        vertices += 1;
        size += 1 + game.successors(v).len() as u64;
        priorities.push(game.priority(v));
    }
    priorities.sort_unstable();
    priorities.dedup();
    let order = if priorities.len() * AUTO_VERTICES_PER_PRIORITY >= vertices {
        AUTO_MANY_PRIORITIES
    } else {
        AUTO_FEW_PRIORITIES
    };
    let mut budget = size.saturating_mul(AUTO_FIRST_BUDGET);
    let mut rest = alive;
    loop {
        for solver in order {
            match run_budgeted(
                game,
                rest,
                solver,
                dense,
                solution,
                &mut Budget::new(budget),
            ) {
                Ok(()) => return,
                Err(left) => rest = left,
            }
        }
        budget = budget.saturating_mul(AUTO_GROWTH);
    }
}

fn run_budgeted(
    game: &Arena,
    alive: Vec<bool>,
    solver: Solver,
    dense: bool,
    solution: &mut ParitySolution,
    budget: &mut Budget,
) -> Result<(), Vec<bool>> {
    let entry = solver.entry().expect("a registered solver");
    if entry.dense && !dense {
        // One region list per priority value (PP): run it on dense priorities.
        (entry.run)(&compress_priorities(game), alive, solution, budget)
    } else {
        (entry.run)(game, alive, solution, budget)
    }
}
