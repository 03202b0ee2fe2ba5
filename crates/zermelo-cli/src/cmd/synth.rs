//! `zermelo synth`: reactive synthesis from SYNTCOMP's extended HOA, with SYNTCOMP's answer
//! lines and exit codes (`REALIZABLE` 10, `UNREALIZABLE` 20), controllers as AIGER circuits,
//! and `zermelo synth verify SPEC CIRCUIT`, the closed-loop check.

use std::path::{Path, PathBuf};
use std::time::Instant;

use clap::{Args, Subcommand};
use zermelo_parity::Solver;
use zermelo_synth::{
    check_closed_loop, parse_aiger, synthesize, write_aiger, Aig, Lasso, Options, Spec, Verdict,
};

use crate::error::{CliResult, Failure};
use crate::output::emit;
use crate::read::{read_binary_input, read_input};

/// SYNTCOMP's exit code of a realizable specification.
pub const REALIZABLE: u8 = 10;
/// SYNTCOMP's exit code of an unrealizable specification.
pub const UNREALIZABLE: u8 = 20;

/// Arguments of `zermelo synth`.
#[derive(Debug, Args)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct SynthArgs {
    #[command(subcommand)]
    command: Option<SynthCommand>,
    /// The specification: a SYNTCOMP extended-HOA parity automaton (`-` for standard input).
    #[arg(required = true)]
    spec: Option<PathBuf>,
    /// Write the controller to FILE (atomically): ASCII AIGER for `.aag`, binary for `.aig`
    /// (any other name: ASCII). Without it the ASCII circuit follows the answer on standard
    /// output, as SYNTCOMP expects.
    #[arg(long, short, value_name = "FILE")]
    output: Option<PathBuf>,
    /// Parity solver for the game (as `zermelo parity --solver`).
    #[arg(long, default_value = Solver::DEFAULT.name(), value_parser = crate::cmd::parity::parse_solver)]
    solver: Solver,
    /// Stop after the answer: no controller.
    #[arg(long)]
    realizability: bool,
    /// Print sizes and times on standard error: game, strategy states, ANDs, latches.
    #[arg(long)]
    stats: bool,
}

#[derive(Debug, Subcommand)]
enum SynthCommand {
    /// Check a controller against the specification for every input sequence: exit 0 when
    /// every run is accepted, 1 with a rejected run (a lasso), 2 bad input, 3 too big.
    Verify {
        /// The specification (extended HOA).
        spec: PathBuf,
        /// The controller (ASCII or binary AIGER).
        controller: PathBuf,
    },
}

/// Runs `zermelo synth`: the exit code on success (10, 20 or 0).
pub fn run(args: SynthArgs) -> CliResult<u8> {
    match args.command {
        Some(SynthCommand::Verify { spec, controller }) => verify(&spec, &controller).map(|()| 0),
        None => synth(&args),
    }
}

fn load_spec(path: &Path) -> CliResult<Spec> {
    let (bytes, name) = read_input(path)?;
    Ok(Spec::parse(&bytes, &name)?)
}

fn synth(args: &SynthArgs) -> CliResult<u8> {
    let t0 = Instant::now();
    let mut spec = load_spec(args.spec.as_deref().unwrap_or(Path::new("-")))?;
    let t1 = Instant::now();
    let options = Options {
        solver: args.solver,
        realizability_only: args.realizability,
    };
    let result = synthesize(&mut spec, &options)?;
    if !result.realizable {
        crate::say!("UNREALIZABLE");
        stats(args, &spec, &result.stats, None, t1 - t0);
        return Ok(UNREALIZABLE);
    }
    let comment = format!(
        "zermelo synth {} (solver {})",
        spec.source,
        args.solver.name()
    );
    match (&result.controller, &args.output) {
        (Some(aig), Some(path)) => {
            let binary = path.extension().is_some_and(|e| e == "aig");
            emit(Some(path), |out| write_aiger(out, aig, binary, &comment))?;
            crate::say!("REALIZABLE");
        }
        (Some(aig), None) => {
            crate::say!("REALIZABLE");
            emit(None, |out| write_aiger(out, aig, false, &comment))?;
        }
        (None, _) => crate::say!("REALIZABLE"),
    }
    stats(
        args,
        &spec,
        &result.stats,
        result.controller.as_ref(),
        t1 - t0,
    );
    Ok(REALIZABLE)
}

fn stats(
    args: &SynthArgs,
    spec: &Spec,
    s: &zermelo_synth::Stats,
    aig: Option<&Aig>,
    parse: std::time::Duration,
) {
    if !args.stats {
        return;
    }
    let circuit = aig.map_or(String::new(), |a| {
        format!(
            "; strategy {} states, minimised {}; ANDs {}, latches {}",
            s.strategy_states,
            s.minimised_states,
            a.ands.len(),
            a.latch_count()
        )
    });
    crate::note!(
        "{}: {} states, {} inputs, {} outputs; game {} vertices, {} edges{circuit}; parse {:.3}s, \
         game {:.3}s, solve {:.3}s, circuit {:.3}s",
        spec.source,
        spec.automaton.states.len(),
        spec.inputs.len(),
        spec.outputs.len(),
        s.game_vertices,
        s.game_edges,
        parse.as_secs_f64(),
        s.build.as_secs_f64(),
        s.solve.as_secs_f64(),
        s.circuit.as_secs_f64(),
    );
}

fn verify(spec: &Path, controller: &Path) -> CliResult {
    let mut spec = load_spec(spec)?;
    let (bytes, name) = read_binary_input(controller)?;
    let aig = parse_aiger(&bytes, &name)?;
    match check_closed_loop(&mut spec, &aig, &name)? {
        Verdict::Correct { states, edges } => {
            crate::say!(
                "correct: every run of {name} with {} is accepted ({states} product states, \
                 {edges} edges)",
                spec.source
            );
            Ok(())
        }
        Verdict::Wrong(lasso) => Err(Failure::Rejected(describe(&spec, &name, &lasso))),
    }
}

/// The rejected run, a step per line.
fn describe(spec: &Spec, name: &str, lasso: &Lasso) -> String {
    let mut text = format!(
        "wrong: {name} lets the environment force a run that {} rejects \
         (a prefix of {} steps, then a cycle of {} steps forever)",
        spec.source,
        lasso.prefix.len(),
        lasso.cycle.len()
    );
    for (what, steps) in [("prefix", &lasso.prefix), ("cycle", &lasso.cycle)] {
        for step in steps.iter() {
            let state = &spec.automaton.states[step.state as usize];
            let edge = &state.edges[step.edge];
            let colour = edge
                .colour
                .or(state.colour)
                .map_or("no colour".to_string(), |c| format!("colour {c}"));
            let latches: String = step
                .latches
                .iter()
                .map(|&b| if b { '1' } else { '0' })
                .collect();
            text.push_str(&format!(
                "\n  {what}: state {} latches [{latches}] inputs [{}] outputs [{}] -> state {} \
                 ({colour}, line {})",
                step.state,
                spec.describe(step.inputs, &spec.inputs),
                spec.describe(step.outputs, &spec.outputs),
                edge.target,
                edge.line
            ));
        }
    }
    text
}
