//! `zermelo`: solve two-player games on graphs from the command line.
//!
//! This binary is glue: argument parsing, rendering and exit codes. All game logic lives in the
//! `zermelo` library.
//!
//! Exit codes ([`EXIT_CODES`], also in `--help`): 0 success; 1 a claimed solution is invalid
//! (`verify`) or an internal failure; 2 bad input; 3 too big; 4 a cluster peer lost or silent
//! (`solve --cluster`); 5 unreadable input; 10 / 20 `synth`'s realizable / unrealizable (as
//! SYNTCOMP's); 130 interrupted.

mod cmd;
mod error;
mod input;
mod limits;
mod output;
mod progress;
mod read;
mod render;
mod shown;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// The exit codes, shown at the end of `--help`.
const EXIT_CODES: &str = "\
Exit codes:
  0    success
  1    verify: the solution is invalid; or an internal error (e.g. the output cannot be written)
  2    bad input: malformed, truncated or corrupt file, id out of range, bad flag; a value
       not found within a work limit (the outcome and the reason printed first)
  3    too big: over --max-memory, the memory available, or a size limit
  4    solve --cluster: a peer process was lost or stopped answering
  5    an input cannot be read (missing file, permissions, a read error)
  10   synth: the specification is realizable (REALIZABLE)
  20   synth: the specification is unrealizable (UNREALIZABLE)
  130  interrupted (Ctrl-C, SIGTERM); no partial output file is left";

/// Solve two-player games on graphs: WIN / LOSE / DRAW for the player to move, depth to the end
/// (fast win, slow loss), best moves, and certificates.
#[derive(Debug, Parser)]
#[command(
    name = "zermelo",
    version,
    about,
    propagate_version = true,
    after_help = EXIT_CODES
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
    /// Worker threads for loading and solving (default: one per core; at most 4 per core,
    /// larger values are capped with a note).
    #[arg(long, global = true, value_name = "N")]
    threads: Option<usize>,
    /// No progress bars.
    #[arg(long, short, global = true)]
    quiet: bool,
    /// Refuse jobs whose estimated memory exceeds SIZE (e.g. 800M, 4G); the default limit is the
    /// memory the machine has available, except for `tb gen`, whose default is 3/4 of the
    /// machine's memory (or of its memory cgroup's limit). `tb gen` keeps its peak under the
    /// limit, the process itself counted (32 MiB): a table whose state does not fit is
    /// generated out of core, and one that needs more than the limit even so is refused.
    #[arg(long, global = true, value_name = "SIZE", value_parser = parse_size)]
    max_memory: Option<u64>,
}

/// More threads than this per core only add scratch memory and start-up time (the loader keeps
/// counters per node and thread): 1,500 threads took a minute to load a 17-byte graph.
const THREADS_PER_CORE: usize = 4;

/// `--threads`, capped at [`THREADS_PER_CORE`] per core with a note on standard error.
fn capped_threads(asked: usize) -> usize {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let cap = cores * THREADS_PER_CORE;
    if asked > cap {
        crate::note!(
            "zermelo: note: --threads {asked} capped at {cap} ({THREADS_PER_CORE} per core, \
             {cores} cores)"
        );
        return cap;
    }
    asked
}

fn parse_size(text: &str) -> Result<u64, String> {
    zermelo::memory::parse_size(text)
        .ok_or_else(|| format!("expected a size like 800M or 4G, found {text:?}"))
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Label every position: outcome, depth in plies, best move.
    Solve(cmd::solve::SolveArgs),
    /// Print the principal line (optimal play) from a start position.
    Line(cmd::line::LineArgs),
    /// Sprague-Grundy values of an impartial game (generalized `inf{..}` values on cycles);
    /// `--sum` analyses sums of games.
    Grundy(cmd::grundy::GrundyArgs),
    /// Check a solution CSV against the certificate rules (exit 0 valid, 1 invalid).
    Verify(cmd::verify::VerifyArgs),
    /// Generate graphs (random, chain, grid pursuit) as edge lists.
    Gen(cmd::gen::GenArgs),
    /// Convert a graph to the binary .zg format (memory-mapped, checksummed) or back to text.
    Convert(cmd::convert::ConvertArgs),
    /// Classic and pursuit games by their rules: nim, subtraction, wythoff, police-thief, ...
    Game(cmd::game::GameArgs),
    /// Serve the HTTP API and the visualiser of retrograde analysis (default 127.0.0.1:8080).
    Serve(cmd::serve::ServeArgs),
    /// Chess endgame tablebases: gen, probe, line, stats, verify (3 to 6 pieces).
    Tb(cmd::tb::TbArgs),
    /// Parity games (PGSolver format) and reachability / safety / Büchi / co-Büchi objectives:
    /// solve to `paritysol` or JSON; `parity verify FILE SOLUTION` checks a certificate.
    Parity(cmd::parity::ParityArgs),
    /// Values of partizan games, short (canonical forms) and loopy (simplest forms, sides):
    /// `cgt value FILE --from NODE`, `cgt sum FILE --at A,B`, `cgt show VALUE`, `cgt
    /// thermograph` (CGSuite notation; two-player files, player 0 = Left).
    Cgt(cmd::cgt::CgtArgs),
    /// Reactive synthesis from SYNTCOMP's extended HOA: REALIZABLE (exit 10) or UNREALIZABLE
    /// (exit 20), the controller as AIGER (`-o c.aag`); `synth verify SPEC CIRCUIT` checks a
    /// controller in closed loop.
    Synth(cmd::synth::SynthArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    progress::Progress::init(cli.quiet);
    limits::set_memory_limit(cli.max_memory);
    if !matches!(cli.command, Command::Serve(_)) {
        output::clean_up_on_interrupt(); // serve shuts down gracefully by itself
    }
    if let Some(threads) = cli.threads {
        if threads == 0 {
            crate::note!("zermelo: error: --threads must be at least 1");
            return ExitCode::from(2);
        }
        let threads = capped_threads(threads);
        // Fails only if a pool exists already, which cannot happen this early.
        let _ = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build_global();
    }
    let done = |r: error::CliResult| r.map(|()| ExitCode::SUCCESS);
    let result = match cli.command {
        Command::Solve(a) => done(cmd::solve::run(a)),
        Command::Line(a) => done(cmd::line::run(a)),
        Command::Grundy(a) => done(cmd::grundy::run(a)),
        Command::Verify(a) => done(cmd::verify::run(a)),
        Command::Gen(a) => done(cmd::gen::run(a)),
        Command::Convert(a) => done(cmd::convert::run(a)),
        Command::Game(a) => done(cmd::game::run(a)),
        Command::Serve(a) => done(cmd::serve::run(a)),
        Command::Tb(a) => done(cmd::tb::run(a)),
        Command::Parity(a) => done(cmd::parity::run(a)),
        Command::Cgt(a) => done(cmd::cgt::run(a)),
        Command::Synth(a) => cmd::synth::run(a).map(ExitCode::from),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            match &e {
                error::Failure::Internal(inner) => crate::note!("zermelo: error: {inner:#}"),
                error::Failure::Rejected(m) => crate::say!("{m}"),
                error::Failure::BadInput(m)
                | error::Failure::TooBig(m)
                | error::Failure::Cluster(m)
                | error::Failure::Unreadable(m) => {
                    crate::note!("zermelo: error: {m}")
                }
            }
            e.exit_code()
        }
    }
}
