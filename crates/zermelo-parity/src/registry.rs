//! The solvers, one line each (as Oink's solver table), and what runs them: a solver by name,
//! the stack its recursion needs, and [`Solver::Auto`]'s portfolio of budgeted runs (crate
//! docs, "Automatic choice"). A new solver is one file and one line of [`REGISTRY`].

use crate::budget::Budget;
use crate::preprocess::{compress_priorities, distinct_priorities};
use crate::{fpj, promotion, qpz, rtl, si, tangle, zielonka};
use crate::{Arena, ParitySolution};

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

/// The depth of stack a run of `solver` on `game` needs (Auto may run any solver but Zielonka).
pub(crate) fn stack_depth(solver: Solver, game: &Arena) -> usize {
    match solver.entry().map_or(Stack::Vertices, |e| e.stack) {
        Stack::Flat => 0,
        Stack::Priorities => distinct_priorities(game),
        Stack::PrioritiesAndHalvings => {
            let halvings = usize::BITS - game.vertex_count().leading_zeros();
            distinct_priorities(game) + 2 * halvings as usize
        }
        Stack::Vertices => game.vertex_count().min(rtl::MAX_DEPTH as usize),
    }
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
