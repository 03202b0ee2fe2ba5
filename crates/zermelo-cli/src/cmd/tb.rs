//! `zermelo tb`: chess endgame tablebases (generate, probe, line, stats, verify).

use std::path::{Path, PathBuf};
use std::time::Instant;

use clap::{Args, Subcommand};
use zermelo_chess::dtz::{syzygy_dtz, DEFAULT_RULE};
use zermelo_chess::{
    discard_checkpoint, generate_with, verify, verify_dtz, FenError, GenError, GenOptions, Longest,
    Material, Metric, MoveDtz, Position, ProbeError, Table, Tablebase, Value, Wdl50, MAX_PIECES,
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
    /// Generate a material's tables, DTM and DTZ (and any smaller table it depends on that
    /// DIR lacks), or all of them.
    Gen(GenArgs),
    /// A FEN's result under the 50-move rule (its halfmove clock applied), DTZ and depth to
    /// mate, and every legal move with its own, best first.
    Probe(ProbeArgs),
    /// The principal line from a FEN: the fastest mate (`--metric dtm`) or a line that wins
    /// under the 50-move rule (`--metric dtz`).
    Line(LineArgs),
    /// Per-class counts, longest DTZ and longest mate of a material, for each side to move.
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
    /// The drawing rule's length in plies for the DTZ tables: 100 is the 50-move rule; a
    /// shorter rule makes small tables have cursed wins (for tests).
    #[arg(long, value_name = "PLIES", default_value_t = DEFAULT_RULE,
          value_parser = clap::value_parser!(u32).range(1..=i64::from(zermelo_chess::dtz::MAX_RULE)))]
    rule: u32,
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
    /// The position (FEN; its halfmove clock counts with `--metric dtz`).
    fen: String,
    /// `dtm`: the fastest mate; `dtz`: each side zeroes as the 50-move rule wants (the
    /// winner as soon as it keeps the win), ending at mate or where a draw can be claimed.
    #[arg(long, value_enum, default_value = "dtm")]
    metric: LineMetric,
    #[command(flatten)]
    tables: TablesArg,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum LineMetric {
    Dtm,
    Dtz,
}

#[derive(Debug, Args)]
struct StatsArgs {
    /// The material, e.g. KRvK.
    material: String,
    /// `text`, or `json`: `{"material", "white": {...}, "black": {...}}` with the five
    /// classes and the longest DTZ (needs the DTZ table).
    #[arg(long, value_enum, default_value = "text")]
    format: StatsFormat,
    #[command(flatten)]
    tables: TablesArg,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum StatsFormat {
    Text,
    Json,
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

fn parse_fen_clock(fen: &str) -> CliResult<(Position, u32)> {
    Position::from_fen_with_clock(fen).map_err(|e: FenError| Failure::input(e))
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
    // Tables are written to a temporary file and renamed into place, so a mapped table never
    // changes under the generator; mapping keeps the smaller tables out of the heap.
    let tb = open_mapped(dir).with_rule(args.rule);
    let work = args.work_dir.clone().unwrap_or_else(|| dir.join(".work"));
    let options = GenOptions {
        work_dir: Some(work.clone()),
        checkpoint_interval: std::time::Duration::from_secs(args.checkpoint_every),
        mapped: args.mapped,
        ..GenOptions::default()
    };
    let started = Instant::now();
    let total = targets.len();
    for (k, m) in targets.iter().enumerate() {
        for metric in [Metric::Dtm, Metric::Dtz { rule: args.rule }] {
            let options = GenOptions {
                metric,
                ..options.clone()
            };
            gen_one(m, &tb, dir, &work, &options, args.stats, (k + 1, total))?;
        }
    }
    println!("done in {:.1} s", started.elapsed().as_secs_f64());
    Ok(())
}

/// Generates and writes one table of `options.metric` unless it is present (and readable).
fn gen_one(
    m: &Material,
    tb: &Tablebase,
    dir: &Path,
    work: &Path,
    options: &GenOptions,
    stats: bool,
    (k, total): (usize, usize),
) -> CliResult {
    let metric = options.metric;
    let label = match metric {
        Metric::Dtm => m.to_string(),
        Metric::Dtz { .. } => format!("{m} DTZ"),
    };
    let path = dir.join(metric.file_name(m));
    if path.is_file() {
        tb.table_for(m, metric).map_err(probe_failure)?;
        println!("{label}: present");
        return Ok(());
    }
    // The smaller tables are mapped while this one is generated.
    let dependencies: u64 = m
        .successors()
        .iter()
        .filter_map(|d| std::fs::metadata(dir.join(metric.file_name(d))).ok())
        .map(|meta| meta.len())
        .sum();
    crate::input::check_memory(
        &format!("tb gen {m}"),
        zermelo::memory::Estimate {
            graph: dependencies,
            loading: 0,
            solving: zermelo_chess::estimate_memory(m, options),
        },
    )?;
    let t0 = Instant::now();
    let size = zermelo_chess::Indexer::new(m).size();
    let bar = Progress::global().layers(&format!("[{k}/{total}] {label}"), size);
    let options = GenOptions {
        layer: Some(bar.shared_layer()),
        ..options.clone()
    };
    let table = generate_with(m, tb, &bar.shared_counter(), &options).map_err(gen_failure)?;
    bar.finish();
    let mut written = 0;
    emit(Some(&path), |w| {
        written = table.write_to(w)?;
        Ok(())
    })?;
    discard_checkpoint(work, m, metric)
        .map_err(|e| Failure::input(format!("{}: {e}", work.display())))?;
    let s = table.stats().map_err(|e| anyhow::anyhow!(e))?;
    let secs = t0.elapsed().as_secs_f64();
    match &s.wdl50 {
        None => {
            let longest = s
                .longest_win
                .map(|l| l.map_or(0, |l| Value::Win(l.plies).moves().unwrap_or(0)));
            println!(
                "{m}: {written} bytes, {secs:.2} s, longest mate {} moves with white to move, {} with black",
                longest[0], longest[1],
            );
        }
        Some(w) => println!(
            "{label}: {written} bytes, {secs:.2} s, longest DTZ {} plies with white to move, {} with black; cursed wins {} and {}, blessed losses {} and {}",
            w.longest_dtz_win[0].max(w.longest_dtz_cursed_win[0]),
            w.longest_dtz_win[1].max(w.longest_dtz_cursed_win[1]),
            w.counts[0][Wdl50::CursedWin as usize],
            w.counts[1][Wdl50::CursedWin as usize],
            w.counts[0][Wdl50::BlessedLoss as usize],
            w.counts[1][Wdl50::BlessedLoss as usize],
        ),
    }
    if stats {
        eprintln!(
            "stats: {label}: {size} indices in {secs:.3}s; {} threads; peak memory {}",
            rayon::current_num_threads(),
            crate::cmd::solve::peak_memory_text(),
        );
    }
    Ok(())
}

/// The DTZ-scale value of `pos`, or `None` when its DTZ table is not there (tables made
/// before DTZ existed): the probe then speaks of depth to mate only.
fn optional_dtz(tb: &Tablebase, pos: &Position) -> Result<Option<Value>, ProbeError> {
    match tb.probe_dtz(pos) {
        Ok(v) => Ok(Some(v)),
        Err(ProbeError::MissingTable { metric: "DTZ", .. }) => Ok(None),
        Err(e) => Err(e),
    }
}

/// The probe of `pos` with `clock` plies since the last capture or pawn move, as `tb probe
/// --stdin` and `GET /api/tb` print it: one serde row type ([`PositionProbe`]), each move with
/// the values of the position it leads to; best first under the 50-move rule when the DTZ
/// tables are there, by depth to mate otherwise.
pub fn position_probe(
    tb: &Tablebase,
    pos: &Position,
    clock: u32,
) -> Result<PositionProbe, ProbeError> {
    let value = tb.probe(pos)?;
    let rule = tb.rule();
    let mut moves = Vec::new();
    let mut probe = match optional_dtz(tb, pos)? {
        Some(dtz) => {
            for md in tb.probe_moves_dtz(pos)? {
                moves.push(move_probe(tb, pos, md.mv, Some((md, clock)))?);
            }
            sort_by_rule_then_mate(&mut moves);
            let mut p = PositionProbe::new(pos.fen(), value, moves);
            p.category = Some(Wdl50::with_clock(dtz, rule, clock).as_str().into());
            p.dtz = Some(syzygy_dtz(dtz));
            p
        }
        None => {
            for (m, _) in tb.probe_moves(pos)? {
                moves.push(move_probe(tb, pos, m, None)?);
            }
            PositionProbe::new(pos.fen(), value, moves)
        }
    };
    probe.fen = with_clock_fen(pos, clock);
    Ok(probe)
}

/// `pos` (with `clock`) in the JSON shape of lichess's tablebase server (`GET /standard`,
/// lichess-org/lila-tablebase): the position's `category` (the clock applied), `dtz` and
/// `precise_dtz` (Syzygy's signs; ours are never rounded), `dtm` (plies, negative when the side
/// to move loses), the end-of-game flags, and every legal move, best first, with the same keys
/// for the position it leads to plus `uci`, `san`, `zeroing` and `conversion`. `dtz` and
/// `category` need the DTZ tables (`null` and `unknown` without them).
pub fn lichess_standard(
    tb: &Tablebase,
    pos: &Position,
    clock: u32,
) -> Result<serde_json::Value, ProbeError> {
    let rule = tb.rule();
    let info =
        |p: &Position, c: u32| -> Result<serde_json::Map<String, serde_json::Value>, ProbeError> {
            let mate = tb.probe(p)?;
            let dtz = optional_dtz(tb, p)?;
            let no_moves = p.legal_moves().is_empty();
            let dtm = match mate {
                Value::Win(d) => d as i64,
                Value::Lose(d) => -(d as i64),
                Value::Draw => 0,
            };
            let mut m = serde_json::Map::new();
            m.insert("checkmate".into(), (no_moves && p.is_check()).into());
            m.insert("stalemate".into(), (no_moves && !p.is_check()).into());
            m.insert("variant_win".into(), false.into());
            m.insert("variant_loss".into(), false.into());
            m.insert(
                "insufficient_material".into(),
                insufficient_material(p).into(),
            );
            m.insert("dtz".into(), dtz.map(syzygy_dtz).into());
            m.insert("precise_dtz".into(), dtz.map(syzygy_dtz).into());
            m.insert("dtc".into(), serde_json::Value::Null);
            m.insert("dtm".into(), dtm.into());
            m.insert("dtw".into(), serde_json::Value::Null);
            let category = match dtz {
                Some(v) => Wdl50::with_clock(v, rule, c).as_str(),
                None => "unknown",
            };
            m.insert("category".into(), category.into());
            Ok(m)
        };
    let mut out = info(pos, clock)?;
    let dtz_here = optional_dtz(tb, pos)?;
    let mut moves: Vec<(zermelo_chess::Move, bool)> = match dtz_here {
        Some(_) => tb
            .probe_moves_dtz(pos)?
            .into_iter()
            .map(|md| (md.mv, md.zeroing))
            .collect(),
        None => tb
            .probe_moves(pos)?
            .into_iter()
            .map(|(m, _)| (m, pos.is_zeroing(m)))
            .collect(),
    };
    if dtz_here.is_some() {
        // Among moves of equal DTZ value, the faster mate first (as the DTZ order is by
        // value, a stable sort on depth to mate within each run keeps it).
        let mut keyed = Vec::new();
        for (m, z) in moves.drain(..) {
            let md = tb.probe_dtz(&pos.play(m))?;
            let v = if z {
                Wdl50::of(md, rule).zeroing_exit(rule)
            } else {
                md.for_parent()
            };
            keyed.push((v, tb.probe(&pos.play(m))?.for_parent(), m, z));
        }
        keyed.sort_by(|a, b| b.0.cmp(&a.0).then(b.1.cmp(&a.1)));
        moves = keyed.into_iter().map(|(_, _, m, z)| (m, z)).collect();
    }
    let mut rows = Vec::new();
    for (m, zeroing) in moves {
        let after = pos.play(m);
        let mut row = serde_json::Map::new();
        row.insert("uci".into(), m.to_string().into());
        row.insert("san".into(), pos.san(m).into());
        row.insert("zeroing".into(), zeroing.into());
        row.insert(
            "conversion".into(),
            (m.capture || m.promotion.is_some()).into(),
        );
        row.extend(info(&after, if zeroing { 0 } else { clock + 1 })?);
        rows.push(serde_json::Value::Object(row));
    }
    out.insert("moves".into(), rows.into());
    Ok(serde_json::Value::Object(out))
}

/// Neither side can mate by any series of legal moves: bare kings, a lone minor piece, or
/// only bishops all on squares of one colour.
fn insufficient_material(pos: &Position) -> bool {
    use zermelo_chess::Role;
    let others: Vec<_> = pos.pieces().filter(|(_, p)| p.role != Role::King).collect();
    match others.as_slice() {
        [] => true,
        [(_, p)] => matches!(p.role, Role::Bishop | Role::Knight),
        many => {
            let colour = |s: zermelo_chess::Square| (s.file() + s.rank()) % 2;
            many.iter().all(|(_, p)| p.role == Role::Bishop)
                && many.iter().all(|(s, _)| colour(*s) == colour(many[0].0))
        }
    }
}

/// The FEN of `pos` with its halfmove clock.
fn with_clock_fen(pos: &Position, clock: u32) -> String {
    let fen = pos.fen();
    match fen.rsplit_once(' ') {
        Some((head, _)) if clock > 0 => match head.rsplit_once(' ') {
            Some((board, _)) => format!("{board} {clock} 1"),
            None => fen,
        },
        _ => fen,
    }
}

/// One move's row: the position after it, its depth to mate and, with `dtz`, its class
/// (the clock after the move applied) and DTZ.
fn move_probe(
    tb: &Tablebase,
    pos: &Position,
    m: zermelo_chess::Move,
    dtz: Option<(MoveDtz, u32)>,
) -> Result<MoveProbe, ProbeError> {
    let after = pos.play(m);
    let mut row = MoveProbe::new(m.to_string(), after.fen(), tb.probe(&after)?);
    row.san = Some(pos.san(m));
    if let Some((md, clock)) = dtz {
        let clock_after = if md.zeroing { 0 } else { clock + 1 };
        row.zeroing = Some(md.zeroing);
        row.category = Some(
            Wdl50::with_clock(md.after, tb.rule(), clock_after)
                .as_str()
                .into(),
        );
        row.dtz = Some(syzygy_dtz(md.after));
    }
    Ok(row)
}

/// Orders move rows as the DTZ order already did, then by depth to mate among moves of equal
/// DTZ value (stable, so UCI order breaks the remaining ties).
fn sort_by_rule_then_mate(rows: &mut [MoveProbe]) {
    // The rows come best first by the DTZ-scale value; refine runs of equal (category, dtz)
    // by depth to mate, best for the mover first.
    let key = |r: &MoveProbe| (r.category.clone(), r.dtz);
    let mut i = 0;
    while i < rows.len() {
        let mut j = i + 1;
        while j < rows.len() && key(&rows[j]) == key(&rows[i]) {
            j += 1;
        }
        rows[i..j].sort_by_key(|r| std::cmp::Reverse(r.value_for_mover()));
        i = j;
    }
}

fn probe_json(tb: &Tablebase, fen: &str) -> Result<serde_json::Value, Failure> {
    let (pos, clock) = parse_fen_clock(fen)?;
    let probe = position_probe(tb, &pos, clock).map_err(probe_failure)?;
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
    let (pos, clock) = parse_fen_clock(&fen)?;
    let value = tb.probe(&pos).map_err(probe_failure)?;
    let dtz = optional_dtz(&tb, &pos).map_err(probe_failure)?;
    let rule = tb.rule();
    emit(None, |w| {
        writeln!(w, "fen       {}", with_clock_fen(&pos, clock))?;
        writeln!(w, "outcome   {}", value.outcome())?;
        match dtz {
            Some(d) => {
                let class = Wdl50::with_clock(d, rule, clock);
                writeln!(w, "category  {class} (halfmove clock {clock})")?;
                writeln!(w, "dtz       {}", dtz_text(d))?;
            }
            None => writeln!(
                w,
                "category  - (no DTZ table: `zermelo tb gen {}` writes it)",
                Material::of(&pos).canonical().0
            )?,
        }
        writeln!(w, "dtm       {}", dtm_text(value))?;
        Ok(())
    })?;
    match dtz {
        Some(_) => {
            let moves = tb.probe_moves_dtz(&pos).map_err(probe_failure)?;
            let mut rows = Vec::new();
            for md in moves {
                let mate = tb
                    .probe(&pos.play(md.mv))
                    .map_err(probe_failure)?
                    .for_parent();
                let clock_after = if md.zeroing { 0 } else { clock + 1 };
                let class = Wdl50::with_clock(md.after, rule, clock_after).flip();
                rows.push((md, mate, class));
            }
            emit(None, |w| {
                writeln!(
                    w,
                    "moves (for the side to move, best first under the 50-move rule):"
                )?;
                writeln!(
                    w,
                    "  {:<6} {:<8} {:<13} {:>5}  {:<4} mate",
                    "uci", "san", "category", "dtz", "zero"
                )?;
                for (md, mate, class) in &rows {
                    writeln!(
                        w,
                        "  {:<6} {:<8} {:<13} {:>5}  {:<4} {}",
                        md.mv.to_string(),
                        pos.san(md.mv),
                        class.as_str(),
                        syzygy_dtz(md.value),
                        if md.zeroing { "yes" } else { "no" },
                        describe(*mate)
                    )?;
                }
                Ok(())
            })
        }
        None => {
            let moves = tb.probe_moves(&pos).map_err(probe_failure)?;
            emit(None, |w| {
                writeln!(w, "moves (value for the side to move, best first):")?;
                for (m, v) in &moves {
                    writeln!(
                        w,
                        "  {:<6} {:<8} {}",
                        m.to_string(),
                        pos.san(*m),
                        describe(*v)
                    )?;
                }
                Ok(())
            })
        }
    }
}

/// `13 plies to a capture, pawn move or mate (win)`, as a line of `tb probe`.
fn dtz_text(v: Value) -> String {
    match v {
        Value::Draw => "0 (draw)".to_string(),
        Value::Lose(0) => "-1 (checkmated)".to_string(),
        v => format!(
            "{} ({} to a capture, pawn move or mate)",
            syzygy_dtz(v),
            zermelo::plural(v.plies().unwrap_or(0), "ply", "plies")
        ),
    }
}

/// `33 plies, 17 moves`, or `-` for a draw.
fn dtm_text(v: Value) -> String {
    match (v.plies(), v.moves()) {
        (Some(0), _) => "0 plies (checkmate)".to_string(),
        (Some(p), Some(m)) => format!(
            "{}, {}",
            zermelo::plural(p, "ply", "plies"),
            zermelo::plural(m, "move", "moves")
        ),
        _ => "-".to_string(),
    }
}

/// One JSON object per input line, written as each line arrives; a bad FEN gives `{"fen",
/// "error"}` and exit code 2 at the end. A line that is not text (a NUL byte) or longer than
/// [`MAX_LINE`](zermelo::io::stream::MAX_LINE) stops the run at once with its line number, so
/// `tb probe --stdin < /dev/zero` fails at once and memory holds one line.
fn probe_batch(tb: &Tablebase) -> CliResult {
    let (mut failed, mut total) = (0usize, 0usize);
    let mut lines = zermelo::io::stream::LineReader::new(std::io::stdin().lock(), "<stdin>");
    let mut fatal = None;
    emit(None, |w| {
        loop {
            let line = match lines.next_line() {
                Ok(Some((line, _))) => String::from_utf8_lossy(line),
                Ok(None) => break,
                Err(e) => {
                    fatal = Some(e);
                    break;
                }
            };
            let fen = line.trim();
            if fen.is_empty() {
                continue;
            }
            total += 1;
            let obj = probe_json(tb, fen).unwrap_or_else(|e| {
                failed += 1;
                serde_json::json!({ "fen": fen, "error": e.to_string() })
            });
            writeln!(w, "{obj}")?;
            w.flush()?;
        }
        Ok(())
    })?;
    if let Some(e) = fatal {
        return Err(e.into());
    }
    if failed > 0 {
        return Err(Failure::input(format!("{failed} of {total} FENs failed")));
    }
    Ok(())
}

fn line(args: LineArgs) -> CliResult {
    let tb = open_mapped(&args.tables.tables);
    if args.metric == LineMetric::Dtz {
        return line_dtz(&tb, &args.fen);
    }
    let mut pos = parse_fen(&args.fen)?;
    let start = tb.probe(&pos).map_err(probe_failure)?;
    let plies = start.plies().unwrap_or(0) as usize;
    let line = tb.principal_line(&pos, plies).map_err(probe_failure)?;
    emit(None, |w| {
        writeln!(w, "{}: {}", pos.fen(), describe(start))?;
        for (i, m) in line.iter().enumerate() {
            let san = pos.san(*m);
            pos = pos.play(*m);
            let v = tb.probe(&pos).map_err(std::io::Error::other)?;
            writeln!(
                w,
                "{:>3}. {:<6} {:<8} {}",
                i + 1,
                m.to_string(),
                san,
                describe(v)
            )?;
        }
        if start == Value::Draw {
            writeln!(w, "draw: no side can force mate")?;
        } else if pos.is_checkmate() {
            writeln!(w, "checkmate")?;
        }
        Ok(())
    })
}

/// The line under the 50-move rule: best moves by DTZ (the winner zeroes as soon as it keeps
/// the win, the loser as late as it can) from the FEN's clock, until mate, or until a draw
/// can be claimed (a class other than win or loss with the clock as it stands).
fn line_dtz(tb: &Tablebase, fen: &str) -> CliResult {
    let (mut pos, mut clock) = parse_fen_clock(fen)?;
    let rule = tb.rule();
    let start = tb.probe_dtz(&pos).map_err(probe_failure)?;
    let class = Wdl50::with_clock(start, rule, clock);
    let mut rows = Vec::new();
    let mut end = "draw";
    // Every zeroing move is irreversible and the clock bounds the plies between two.
    for _ in 0..10_000 {
        let here = tb.probe_dtz(&pos).map_err(probe_failure)?;
        let now = Wdl50::with_clock(here, rule, clock);
        if pos.is_checkmate() {
            end = "checkmate";
            break;
        }
        if !matches!(now, Wdl50::Win | Wdl50::Loss) {
            end = if here == Value::Draw {
                "draw"
            } else {
                "draw by the 50-move rule (it can be claimed here)"
            };
            break;
        }
        let Some(best) = tb
            .probe_moves_dtz(&pos)
            .map_err(probe_failure)?
            .first()
            .copied()
        else {
            break;
        };
        let san = pos.san(best.mv);
        clock = if best.zeroing { 0 } else { clock + 1 };
        pos = pos.play(best.mv);
        rows.push((best, san, clock));
    }
    emit(None, |w| {
        writeln!(w, "{fen}: {class}, dtz {}", syzygy_dtz(start))?;
        for (i, (md, san, clock)) in rows.iter().enumerate() {
            writeln!(
                w,
                "{:>3}. {:<6} {:<8} dtz {:>4}  clock {clock}{}",
                i + 1,
                md.mv.to_string(),
                san,
                syzygy_dtz(md.after),
                if md.zeroing { "  (zeroing)" } else { "" }
            )?;
        }
        writeln!(w, "{end}")?;
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
    // Whatever rule the DTZ table was generated for: its statistics say which.
    let dtz_path = args
        .tables
        .tables
        .join(Metric::Dtz { rule: DEFAULT_RULE }.file_name(&m));
    let z = if dtz_path.is_file() {
        let t = Table::open(&dtz_path).map_err(Failure::input)?;
        if !matches!(t.metric(), Metric::Dtz { .. }) || t.material() != &m {
            return Err(Failure::input(format!(
                "{}: holds the {} table of {}, expected the DTZ table of {m}",
                dtz_path.display(),
                t.metric().name(),
                t.material()
            )));
        }
        Some(t.stats().map_err(Failure::input)?)
    } else if args.format == StatsFormat::Text {
        None
    } else {
        return Err(Failure::input(format!(
            "{}: no DTZ table of {m}; `zermelo tb gen {m}` writes it",
            dtz_path.display()
        )));
    };
    let w50 = z.as_ref().and_then(|z| z.wdl50.clone());
    if args.format == StatsFormat::Json {
        let w50 = w50.expect("a DTZ table has five-class statistics");
        let side = |k: usize| {
            let c = w50.counts[k];
            serde_json::json!({
                "win": c[Wdl50::Win as usize],
                "cursed_win": c[Wdl50::CursedWin as usize],
                "draw": c[Wdl50::Draw as usize],
                "blessed_loss": c[Wdl50::BlessedLoss as usize],
                "lose": c[Wdl50::Loss as usize],
                "longest_dtz_win": w50.longest_dtz_win[k],
                "longest_dtz_cursed_win": w50.longest_dtz_cursed_win[k],
                "longest_dtz_loss": w50.longest_dtz_loss[k],
                "longest_dtz_blessed_loss": w50.longest_dtz_blessed_loss[k],
                "longest_dtm_win": s.longest_win[k].map_or(0, |l| l.plies),
                "longest_dtm_loss": s.longest_loss[k].map_or(0, |l| l.plies),
            })
        };
        let obj = serde_json::json!({
            "material": m.to_string(),
            "white": side(0),
            "black": side(1),
        });
        return emit(None, |w| writeln!(w, "{obj}"));
    }
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
        match &w50 {
            None => writeln!(
                w,
                "50-move rule: no DTZ table (`zermelo tb gen {m}` writes it)"
            )?,
            Some(z) => {
                writeln!(w, "under a rule of {} plies (DTZ table):", z.rule)?;
                for (side, name) in [(0, "white"), (1, "black")] {
                    let c = z.counts[side];
                    writeln!(
                        w,
                        "{name} to move: win {}, cursed win {}, draw {}, blessed loss {}, loss {}",
                        c[Wdl50::Win as usize],
                        c[Wdl50::CursedWin as usize],
                        c[Wdl50::Draw as usize],
                        c[Wdl50::BlessedLoss as usize],
                        c[Wdl50::Loss as usize],
                    )?;
                    writeln!(
                        w,
                        "longest DTZ, {name} to move: win {}, cursed win {}, loss {}, blessed loss {} (plies)",
                        z.longest_dtz_win[side],
                        z.longest_dtz_cursed_win[side],
                        z.longest_dtz_loss[side],
                        z.longest_dtz_blessed_loss[side],
                    )?;
                }
            }
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

/// `verify` or `verify_dtz`.
type Checker = fn(&Material, &Tablebase) -> Result<Option<zermelo_chess::Mismatch>, ProbeError>;

fn verify_dir(args: VerifyArgs) -> CliResult {
    let dir = args.dir.unwrap_or(args.tables.tables);
    let materials = table_files(&dir)?;
    let tb = Tablebase::open(&dir);
    let mut bad = Vec::new();
    for m in Material::generation_order(&materials) {
        if !materials.contains(&m) {
            continue;
        }
        let checks: [(&str, bool, Checker); 2] = [
            ("", tb.has(&m), verify),
            (" DTZ", tb.has_dtz(&m), verify_dtz),
        ];
        for (label, present, check) in checks {
            if !present {
                continue;
            }
            match check(&m, &tb) {
                Ok(None) => println!("{m}{label}: ok"),
                Ok(Some(x)) => {
                    println!(
                        "{m}{label}: INVALID at index {} ({}): stored {:?}, move generation says {:?}",
                        x.index,
                        x.fen.as_deref().unwrap_or("illegal"),
                        x.stored,
                        x.expected
                    );
                    bad.push(m.clone());
                }
                Err(e) => {
                    println!("{m}{label}: cannot verify: {e}");
                    bad.push(m.clone());
                }
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
        if let Some(stem) = name
            .strip_suffix(".zct")
            .or_else(|| name.strip_suffix(".zdz"))
        {
            match stem.parse::<Material>() {
                Ok(m) => out.push(m),
                Err(_) => eprintln!("zermelo: skipping {name}: not a material name"),
            }
        }
    }
    if out.is_empty() {
        return Err(Failure::input(format!(
            "{}: no tables (*.zct, *.zdz)",
            dir.display()
        )));
    }
    out.sort();
    out.dedup();
    Ok(out)
}
