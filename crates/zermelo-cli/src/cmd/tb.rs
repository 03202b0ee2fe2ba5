//! `zermelo tb`: chess endgame tablebases (generate, probe, line, stats, verify).

use std::io::BufRead;
use std::path::{Path, PathBuf};
use std::time::Instant;

use clap::{Args, Subcommand};
use zermelo_chess::{
    discard_checkpoint, generate_with, verify, FenError, GenError, GenOptions, Longest, Material,
    Position, ProbeError, Table, Tablebase, Value, MAX_PIECES,
};

use zermelo::game::compact::CompactError;
use zermelo::report::{MoveProbe, PositionProbe};

use crate::error::{CliResult, Failure};
use crate::output::emit;
use crate::progress::Progress;

/// Arguments of `zermelo tb`.
#[derive(Debug, Args)]
pub struct TbArgs {
    #[command(subcommand)]
    command: TbCommand,
}

#[derive(Debug, Subcommand)]
enum TbCommand {
    /// Generate a table (and any smaller table it depends on that DIR lacks), or all of them.
    Gen(GenArgs),
    /// Outcome and depth to mate of a FEN, and every legal move with its value, best first.
    Probe(ProbeArgs),
    /// The principal line to mate from a FEN.
    Line(LineArgs),
    /// Per-outcome counts and the longest win and loss of a table, for each side to move.
    Stats(StatsArgs),
    /// Re-check every table in a directory with the certificate rules (exit 1 on a violation).
    Verify(VerifyArgs),
}

#[derive(Debug, Args)]
struct TablesArg {
    /// Directory holding the tables (`<material>.zct`).
    #[arg(long, value_name = "DIR", default_value = "./tables")]
    tables: PathBuf,
}

#[derive(Debug, Args)]
struct GenArgs {
    /// The material, e.g. KQvKR.
    #[arg(required_unless_present = "all")]
    material: Option<String>,
    /// Every ending with up to N pieces (3 to the most tables hold).
    #[arg(long, value_name = "N", conflicts_with = "material")]
    all: Option<usize>,
    #[command(flatten)]
    tables: TablesArg,
    /// Work folder for checkpoints (default: DIR/.work); the same command resumes a killed run.
    #[arg(long, value_name = "WORK")]
    work_dir: Option<PathBuf>,
    /// Least seconds between two checkpoints (taken at layer boundaries).
    #[arg(long, value_name = "SECONDS", default_value_t = 60)]
    checkpoint_every: u64,
    /// Keep the solver's state (two bytes per index of the group being solved) in a
    /// memory-mapped file in the work folder instead of in memory.
    #[arg(long)]
    mapped: bool,
    /// Print each table's time, thread count and the peak memory so far on standard error.
    #[arg(long)]
    stats: bool,
}

#[derive(Debug, Args)]
struct ProbeArgs {
    /// The position (FEN; castling rights must be `-`).
    #[arg(required_unless_present = "stdin")]
    fen: Option<String>,
    /// Read one FEN per line and print one JSON object per line.
    #[arg(long, conflicts_with = "fen")]
    stdin: bool,
    #[command(flatten)]
    tables: TablesArg,
}

#[derive(Debug, Args)]
struct LineArgs {
    /// The position (FEN).
    fen: String,
    #[command(flatten)]
    tables: TablesArg,
}

#[derive(Debug, Args)]
struct StatsArgs {
    /// The material, e.g. KRvK.
    material: String,
    #[command(flatten)]
    tables: TablesArg,
}

#[derive(Debug, Args)]
struct VerifyArgs {
    /// Directory to check (default: the --tables directory).
    dir: Option<PathBuf>,
    #[command(flatten)]
    tables: TablesArg,
}

/// Runs `zermelo tb`.
pub fn run(args: TbArgs) -> CliResult {
    match args.command {
        TbCommand::Gen(a) => gen(a),
        TbCommand::Probe(a) => probe(a),
        TbCommand::Line(a) => line(a),
        TbCommand::Stats(a) => stats(a),
        TbCommand::Verify(a) => verify_dir(a),
    }
}

fn probe_failure(e: ProbeError) -> Failure {
    Failure::input(e)
}

/// A generation's errors: a missing or damaged table, a damaged or foreign work folder, an
/// unsupported material are bad input (exit 2), a memory limit exit 3, the rest internal.
fn gen_failure(e: GenError) -> Failure {
    match &e {
        GenError::Engine {
            source: CompactError::TooBig { .. },
            ..
        } => Failure::TooBig(e.to_string()),
        GenError::Dependency { .. }
        | GenError::Unsupported(..)
        | GenError::Checkpoint { .. }
        | GenError::Engine {
            source: CompactError::Checkpoint { .. },
            ..
        } => Failure::input(e),
        _ => Failure::Internal(anyhow::anyhow!(e)),
    }
}

fn parse_fen(fen: &str) -> CliResult<Position> {
    Position::from_fen(fen).map_err(|e: FenError| Failure::input(e))
}

fn parse_material(text: &str) -> CliResult<Material> {
    let m: Material = text.parse().map_err(Failure::input)?;
    let m = m.canonical().0;
    if !(3..=MAX_PIECES).contains(&m.piece_count()) {
        return Err(Failure::input(format!(
            "{m}: tables exist for 3 to {MAX_PIECES} pieces, this has {}",
            m.piece_count()
        )));
    }
    Ok(m)
}

/// The tables of `dir`, memory-mapped: a probe reads only the blocks it needs.
fn open_mapped(dir: &Path) -> Tablebase {
    // SAFETY: zermelo writes a table to a temporary file and renames it into place, so a
    // mapped table never changes under us; the `tb` commands never write a table they probe.
    #[allow(unsafe_code)]
    unsafe {
        Tablebase::open_mapped(dir)
    }
}

fn gen(args: GenArgs) -> CliResult {
    let targets = match (args.all, &args.material) {
        (Some(n), _) if (3..=MAX_PIECES).contains(&n) => Material::all_up_to(n),
        (Some(n), _) => {
            return Err(Failure::input(format!(
                "--all {n}: tables exist for 3 to {MAX_PIECES} pieces"
            )))
        }
        (None, Some(m)) => Material::generation_order(&[parse_material(m)?]),
        (None, None) => return Err(Failure::input("name a material or give --all N")),
    };
    let dir = &args.tables.tables;
    std::fs::create_dir_all(dir)
        .map_err(|e| Failure::input(format!("{}: cannot create: {e}", dir.display())))?;
    let tb = Tablebase::open(dir);
    let work = args.work_dir.clone().unwrap_or_else(|| dir.join(".work"));
    let options = GenOptions {
        work_dir: Some(work.clone()),
        checkpoint_interval: std::time::Duration::from_secs(args.checkpoint_every),
        mapped: args.mapped,
        ..GenOptions::default()
    };
    let started = Instant::now();
    for m in targets {
        if tb.has(&m) {
            tb.table(&m).map_err(probe_failure)?;
            println!("{m}: present");
            continue;
        }
        // The smaller tables are read whole into memory while this one is generated.
        let dependencies: u64 = m
            .successors()
            .iter()
            .filter_map(|d| std::fs::metadata(dir.join(Table::file_name(d))).ok())
            .map(|meta| meta.len())
            .sum();
        crate::input::check_memory(
            &format!("tb gen {m}"),
            zermelo::memory::Estimate {
                graph: dependencies,
                loading: 0,
                solving: zermelo_chess::estimate_memory(&m, &options),
            },
        )?;
        let t0 = Instant::now();
        let size = zermelo_chess::Indexer::new(&m).size();
        let bar = Progress::global().layers(&m.to_string(), size);
        let options = GenOptions {
            layer: Some(bar.shared_layer()),
            ..options.clone()
        };
        let table = generate_with(&m, &tb, &bar.shared_counter(), &options).map_err(gen_failure)?;
        bar.finish();
        let path = dir.join(Table::file_name(&m));
        let mut written = 0;
        emit(Some(&path), |w| {
            written = table.write_to(w)?;
            Ok(())
        })?;
        discard_checkpoint(&work, &m)
            .map_err(|e| Failure::input(format!("{}: {e}", work.display())))?;
        let longest = table
            .stats()
            .map_err(|e| anyhow::anyhow!(e))?
            .longest_win
            .map(|l| l.map_or(0, |l| Value::Win(l.plies).moves().unwrap_or(0)));
        println!(
            "{m}: {written} bytes, {:.2} s, longest mate {} moves with white to move, {} with black",
            t0.elapsed().as_secs_f64(),
            longest[0],
            longest[1],
        );
        if args.stats {
            eprintln!(
                "stats: {m}: {size} indices in {:.3}s; {} threads; peak memory {}",
                t0.elapsed().as_secs_f64(),
                rayon::current_num_threads(),
                crate::cmd::solve::peak_memory_text(),
            );
        }
        // Later tables read it back from the file, compressed: a generated pawnless table
        // holds every entry uncompressed (335 MB for KRBvKR).
        drop(table);
    }
    println!("done in {:.1} s", started.elapsed().as_secs_f64());
    Ok(())
}

/// The probe of `pos` as `tb probe --stdin` and `GET /api/tb` both print it: one serde row type
/// ([`PositionProbe`]), each move with the value of the position it leads to.
pub fn position_probe(tb: &Tablebase, pos: &Position) -> Result<PositionProbe, ProbeError> {
    let value = tb.probe(pos)?;
    let mut moves = Vec::new();
    for (m, _) in tb.probe_moves(pos)? {
        let after = pos.play(m);
        let v = tb.probe(&after)?;
        moves.push(MoveProbe::new(m.to_string(), after.fen(), v));
    }
    Ok(PositionProbe::new(pos.fen(), value, moves))
}

fn probe_json(tb: &Tablebase, fen: &str) -> Result<serde_json::Value, Failure> {
    let pos = parse_fen(fen)?;
    let probe = position_probe(tb, &pos).map_err(probe_failure)?;
    serde_json::to_value(probe).map_err(|e| Failure::Internal(e.into()))
}

fn describe(v: Value) -> String {
    match v {
        Value::Draw => "draw".to_string(),
        Value::Win(p) => format!("win, mate in {} ({p} plies)", v.moves().unwrap_or(0)),
        Value::Lose(0) => "lose, checkmated".to_string(),
        Value::Lose(p) => format!("lose, mated in {} ({p} plies)", v.moves().unwrap_or(0)),
    }
}

fn probe(args: ProbeArgs) -> CliResult {
    let tb = open_mapped(&args.tables.tables);
    if args.stdin {
        return probe_batch(&tb);
    }
    let fen = args.fen.unwrap_or_default();
    let pos = parse_fen(&fen)?;
    let value = tb.probe(&pos).map_err(probe_failure)?;
    let moves = tb.probe_moves(&pos).map_err(probe_failure)?;
    emit(None, |w| {
        writeln!(w, "fen       {}", pos.fen())?;
        writeln!(w, "outcome   {}", value.outcome())?;
        match (value.plies(), value.moves()) {
            (Some(p), Some(m)) => writeln!(
                w,
                "dtm       {}, {}",
                zermelo::plural(p, "ply", "plies"),
                zermelo::plural(m, "move", "moves")
            )?,
            _ => writeln!(w, "dtm       -")?,
        }
        writeln!(w, "moves (value for the side to move, best first):")?;
        for (m, v) in &moves {
            writeln!(w, "  {:<6} {}", m.to_string(), describe(*v))?;
        }
        Ok(())
    })
}

/// One JSON object per input line; a bad line gives `{"fen", "error"}` and exit code 2.
fn probe_batch(tb: &Tablebase) -> CliResult {
    let mut failed = 0usize;
    let stdin = std::io::stdin();
    let mut lines = Vec::new();
    for line in stdin.lock().lines() {
        let line = line.map_err(|e| Failure::input(format!("<stdin>: cannot read: {e}")))?;
        if !line.trim().is_empty() {
            lines.push(line.trim().to_string());
        }
    }
    emit(None, |w| {
        for fen in &lines {
            let obj = probe_json(tb, fen).unwrap_or_else(|e| {
                failed += 1;
                serde_json::json!({ "fen": fen, "error": e.to_string() })
            });
            writeln!(w, "{obj}")?;
        }
        Ok(())
    })?;
    if failed > 0 {
        return Err(Failure::input(format!(
            "{failed} of {} FENs failed",
            lines.len()
        )));
    }
    Ok(())
}

fn line(args: LineArgs) -> CliResult {
    let tb = open_mapped(&args.tables.tables);
    let mut pos = parse_fen(&args.fen)?;
    let start = tb.probe(&pos).map_err(probe_failure)?;
    let plies = start.plies().unwrap_or(0) as usize;
    let line = tb.principal_line(&pos, plies).map_err(probe_failure)?;
    emit(None, |w| {
        writeln!(w, "{}: {}", pos.fen(), describe(start))?;
        for (i, m) in line.iter().enumerate() {
            pos = pos.play(*m);
            let v = tb.probe(&pos).map_err(std::io::Error::other)?;
            writeln!(w, "{:>3}. {:<6} {}", i + 1, m.to_string(), describe(v))?;
        }
        if start == Value::Draw {
            writeln!(w, "draw: no side can force mate")?;
        } else if pos.is_checkmate() {
            writeln!(w, "checkmate")?;
        }
        Ok(())
    })
}

fn stats(args: StatsArgs) -> CliResult {
    let m = parse_material(&args.material)?;
    let tb = Tablebase::open(&args.tables.tables);
    let s = tb
        .table(&m)
        .map_err(probe_failure)?
        .stats()
        .map_err(Failure::input)?;
    emit(None, |w| {
        writeln!(w, "material  {m} (symmetry-reduced index positions)")?;
        for (side, name) in [(0, "white"), (1, "black")] {
            let [win, lose, draw] = s.counts[side];
            writeln!(w, "{name} to move: win {win}, lose {lose}, draw {draw}")?;
        }
        writeln!(w, "illegal or redundant indices: {}", s.illegal)?;
        for (side, name) in [(0, "white"), (1, "black")] {
            let win = longest_line(s.longest_win[side], Value::Win);
            writeln!(w, "longest win, {name} to move: {win}")?;
            let loss = longest_line(s.longest_loss[side], Value::Lose);
            writeln!(w, "longest loss, {name} to move: {loss}")?;
        }
        Ok(())
    })
}

/// `N moves (P plies), reached by K positions`, or `none`.
fn longest_line(longest: Option<Longest>, value: fn(u32) -> Value) -> String {
    match longest {
        None => "none".to_string(),
        Some(l) => format!(
            "{} moves ({} plies), reached by {} position{}",
            value(l.plies).moves().unwrap_or(0),
            l.plies,
            l.positions,
            if l.positions == 1 { "" } else { "s" }
        ),
    }
}

fn verify_dir(args: VerifyArgs) -> CliResult {
    let dir = args.dir.unwrap_or(args.tables.tables);
    let materials = table_files(&dir)?;
    let tb = Tablebase::open(&dir);
    let mut bad = Vec::new();
    for m in Material::generation_order(&materials) {
        if !materials.contains(&m) {
            continue;
        }
        match verify(&m, &tb) {
            Ok(None) => println!("{m}: ok"),
            Ok(Some(x)) => {
                println!(
                    "{m}: INVALID at index {} ({}): stored {:?}, move generation says {:?}",
                    x.index,
                    x.fen.as_deref().unwrap_or("illegal"),
                    x.stored,
                    x.expected
                );
                bad.push(m);
            }
            Err(e) => {
                println!("{m}: cannot verify: {e}");
                bad.push(m);
            }
        }
    }
    if bad.is_empty() {
        println!("{} tables verified", materials.len());
        Ok(())
    } else {
        Err(Failure::Rejected(format!(
            "{} of {} tables failed",
            bad.len(),
            materials.len()
        )))
    }
}

fn table_files(dir: &Path) -> CliResult<Vec<Material>> {
    let entries = std::fs::read_dir(dir)
        .map_err(|e| Failure::input(format!("{}: cannot read directory: {e}", dir.display())))?;
    let mut out = Vec::new();
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().to_string();
        if let Some(stem) = name.strip_suffix(".zct") {
            match stem.parse::<Material>() {
                Ok(m) => out.push(m),
                Err(_) => eprintln!("zermelo: skipping {name}: not a material name"),
            }
        }
    }
    if out.is_empty() {
        return Err(Failure::input(format!(
            "{}: no tables (*.zct)",
            dir.display()
        )));
    }
    out.sort();
    Ok(out)
}
