//! `zermelo parity`: parity, reachability, safety, Büchi and co-Büchi games in PGSolver format,
//! solutions in `paritysol` format (or JSON), and `zermelo parity verify`.

use std::path::PathBuf;
use std::time::Instant;

use clap::{Args, Subcommand, ValueEnum};
use zermelo::Player;
use zermelo_parity::io::{
    estimate_memory, parse_game, parse_paritysol, write_parity_json, write_paritysol, GameLines,
    ParitysolLines,
};
use zermelo_parity::{self as parity, Arena, Objective, SolveOptions, Solver};

use crate::error::{CliResult, Failure};
use crate::output::emit;
use crate::progress::Progress;
use crate::read::read_text_input;

/// Arguments of `zermelo parity`.
#[derive(Debug, Args)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct ParityArgs {
    #[command(subcommand)]
    command: Option<ParityCommand>,
    /// The game in PGSolver format, or a SYNTCOMP extended-HOA parity automaton (`.ehoa`,
    /// detected by its `HOA:` header) turned into its game (`-` for standard input).
    #[arg(required = true)]
    file: Option<PathBuf>,
    /// Parity solver: `auto` (tangle learning, priority promotion and recursive tangle
    /// learning in turn with growing budgets), `pp` (priority promotion), `zielonka`, `tl`
    /// (tangle learning), `rtl` (recursive tangle learning), `ortl` (one-sided rtl), `qpz`
    /// (quasi-polynomial Zielonka), `fpj` (fixpoint iteration with justifications), `si`
    /// (strategy improvement).
    #[arg(long, default_value = Solver::DEFAULT.name(), value_parser = parse_solver)]
    solver: Solver,
    #[command(flatten)]
    objective: ObjectiveArgs,
    /// Output format.
    #[arg(long, value_enum, default_value_t = SolutionFormat::Paritysol)]
    format: SolutionFormat,
    /// Write the solution to FILE (atomically) instead of standard output.
    #[arg(long, short, value_name = "FILE")]
    output: Option<PathBuf>,
    /// Skip preprocessing (priority compression, winning self-loops).
    #[arg(long)]
    no_preprocess: bool,
    /// Solve the strongly connected components bottom first, attracting their regions upwards
    /// (pays on games made of many components; off by default, as in Oink).
    #[arg(long, overrides_with = "no_scc")]
    scc: bool,
    /// Solve the whole game at once (the default).
    #[arg(long, overrides_with = "scc")]
    no_scc: bool,
}

#[derive(Debug, Subcommand)]
enum ParityCommand {
    /// Check a solution (`paritysol`) as a certificate: exit 0 valid, 1 naming the first
    /// violation, 2 bad input.
    Verify {
        /// The game in PGSolver format.
        file: PathBuf,
        /// The claimed solution in `paritysol` format.
        solution: PathBuf,
        #[command(flatten)]
        objective: ObjectiveArgs,
    },
}

/// The winning condition: parity (the default) or a target-set objective.
#[derive(Clone, Debug, Args)]
struct ObjectiveArgs {
    /// Winning condition; the target-set objectives ignore priorities except to pick the target.
    #[arg(long, value_enum, default_value_t = Condition::Parity)]
    objective: Condition,
    /// The target set: vertex ids separated by commas (default: vertices of priority > 0).
    #[arg(long, value_name = "IDS")]
    target: Option<String>,
    /// The player whose objective it is (0 = Even, 1 = Odd); the other player opposes it.
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u8).range(0..=1))]
    player: u8,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Condition {
    /// The highest priority seen infinitely often decides (even: player 0, odd: player 1).
    Parity,
    /// Visit the target.
    Reach,
    /// Never visit the target.
    Safety,
    /// Visit the target infinitely often.
    Buchi,
    /// Visit the target only finitely often.
    CoBuchi,
}

/// `--format`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum SolutionFormat {
    /// `paritysol N;` then `v winner [successor];` (Oink, PGSolver).
    Paritysol,
    /// `{"solver", "vertices", "won": [even, odd], "winner": [...], "strategy": [...]}`.
    Json,
}

/// `--solver`: a name of the registry (also `zermelo synth --solver`).
pub(crate) fn parse_solver(name: &str) -> Result<Solver, String> {
    Solver::from_name(name).ok_or_else(|| {
        let known: Vec<&str> = Solver::names().collect();
        format!(
            "unknown solver {name:?}: expected one of {}",
            known.join(", ")
        )
    })
}

impl ObjectiveArgs {
    fn objective(&self) -> Option<Objective> {
        match self.objective {
            Condition::Parity => None,
            Condition::Reach => Some(Objective::Reach),
            Condition::Safety => Some(Objective::Safety),
            Condition::Buchi => Some(Objective::Buchi),
            Condition::CoBuchi => Some(Objective::CoBuchi),
        }
    }

    fn player(&self) -> Player {
        if self.player == 0 {
            Player::Zero
        } else {
            Player::One
        }
    }

    /// The target set as a mask over the arena's vertices.
    fn target(&self, arena: &Arena) -> CliResult<Vec<bool>> {
        let n = arena.vertex_count();
        let Some(list) = &self.target else {
            return Ok(arena.vertices().map(|v| arena.priority(v) > 0).collect());
        };
        let mut mask = vec![false; n];
        for item in list.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let v: u64 = item.parse().map_err(|_| {
                Failure::input(format!("--target: expected vertex ids, found {item:?}"))
            })?;
            if v >= n as u64 {
                return Err(Failure::input(format!(
                    "--target: vertex {v} is not in the game ({n} vertices)"
                )));
            }
            mask[v as usize] = true;
        }
        Ok(mask)
    }
}

/// Runs `zermelo parity`.
pub fn run(args: ParityArgs) -> CliResult {
    match args.command {
        Some(ParityCommand::Verify {
            file,
            solution,
            objective,
        }) => verify(&file, &solution, &objective),
        None => solve(args),
    }
}

fn load(path: &std::path::Path) -> CliResult<(Arena, String)> {
    let (bytes, name) = read_text_input(path, &mut GameLines::default())?;
    crate::limits::check_memory(&name, estimate_memory(&bytes))?;
    let spinner = Progress::global().spinner("parse");
    let arena = parse_game(&bytes, &name)?;
    spinner.finish();
    Ok((arena, name))
}

fn solve(args: ParityArgs) -> CliResult {
    let t0 = Instant::now();
    let file = args.file.clone().unwrap_or_default();
    let (arena, name) = load(&file)?;
    let t1 = Instant::now();
    let spinner = Progress::global().spinner("solve");
    let (solution, method) = match args.objective.objective() {
        None => (
            parity::solve_with(
                &arena,
                args.solver,
                SolveOptions {
                    preprocess: !args.no_preprocess,
                    scc: args.scc && !args.no_scc,
                },
            ),
            args.solver.name().to_string(),
        ),
        Some(o) => {
            let target = args.objective.target(&arena)?;
            let player = args.objective.player();
            let s = parity::solve_objective(&arena, o, player, &target);
            (s, format!("{} for player {player}", o.name()))
        }
    };
    spinner.finish();
    let t2 = Instant::now();
    emit(args.output.as_deref(), |out| match args.format {
        SolutionFormat::Paritysol => write_paritysol(out, &arena, &solution),
        SolutionFormat::Json => write_parity_json(out, &arena, &solution, &method),
    })?;
    let t3 = Instant::now();
    let [even, odd] = solution.counts();
    let start = arena.start().map_or(String::new(), |s| {
        format!("; start vertex {s} is won by player {}", solution.winner(s))
    });
    crate::note!(
        "{name}: {} vertices, {} edges, priorities 0..={}; {method}: player 0 wins {even}, \
         player 1 wins {odd}{start}; parse {:.3}s, solve {:.3}s, write {:.3}s",
        arena.vertex_count(),
        arena.edge_count(),
        arena.max_priority(),
        (t1 - t0).as_secs_f64(),
        (t2 - t1).as_secs_f64(),
        (t3 - t2).as_secs_f64(),
    );
    Ok(())
}

fn verify(
    file: &std::path::Path,
    solution: &std::path::Path,
    objective: &ObjectiveArgs,
) -> CliResult {
    let (arena, _) = load(file)?;
    let mut check = ParitysolLines::new(arena.vertex_count());
    let (bytes, sol_name) = read_text_input(solution, &mut check)?;
    let claim = parse_paritysol(&bytes, &sol_name, arena.vertex_count())?;
    let invalid = |v| Failure::Rejected(format!("invalid: {v}"));
    let checked = match objective.objective() {
        None => {
            parity::verify(&arena, &claim).map_err(invalid)?;
            arena
        }
        Some(o) => {
            let target = objective.target(&arena)?;
            parity::verify_objective(&arena, o, objective.player(), &target, &claim)
                .map_err(invalid)?
        }
    };
    let [even, odd] = claim.counts();
    crate::say!(
        "valid: {} vertices, {} edges; player 0 wins {even}, player 1 wins {odd}",
        checked.vertex_count(),
        checked.edge_count()
    );
    Ok(())
}
