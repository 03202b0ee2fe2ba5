//! `zermelo tb`: chess endgame tablebases (generate, probe, line, stats, verify).

use std::path::{Path, PathBuf};

use clap::{Args, Subcommand};
use zermelo::Outcome;
use zermelo_chess::dtz::{syzygy_dtz, DEFAULT_RULE};
use zermelo_chess::{
    verify, verify_dtz, Answer, Category, Dtz, FenError, Folder, GenError, Generating,
    GenerationJob, JobError, JobEvent, Longest, Lookahead, Material, Metric, Position, ProbeError,
    Stats, Table, Tablebase, Targets, Value, Wdl50, Wdl50Stats, WrittenTable, MAX_PIECES,
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
    /// The tables to generate and what each needs, as a Makefile (`make -j N`), a Slurm
    /// submission script (one job per table) or JSON: tables on many cores or machines.
    Plan(super::tb_plan::PlanArgs),
}

#[derive(Debug, Args)]
struct TablesArg {
    /// Directory holding the tables (`<material>.zct`).
    #[arg(long, value_name = "DIR", default_value = "./tables")]
    tables: PathBuf,
}

/// `--tables`, for the commands that probe: several directories, of zermelo's tables,
/// Syzygy's, or both.
#[derive(Debug, Args)]
pub(crate) struct ProbeTablesArg {
    /// Directories of tables, searched in order: zermelo's (`KQvKR.zct`, `.zdz`) and
    /// Syzygy's (`KQvKR.rtbw`, `.rtbz`). WDL and DTZ come from zermelo's table of a material
    /// when there is one, else from Syzygy's; depth to mate from zermelo's only. Repeat the
    /// flag or separate directories with `:`.
    #[arg(long, value_name = "DIR", default_value = "./tables", value_delimiter = ':',
          action = clap::ArgAction::Append)]
    pub(crate) tables: Vec<PathBuf>,
}

impl ProbeTablesArg {
    /// The tablebase of these directories under `rule`, each checked to be a directory (exit
    /// 2 otherwise), tables memory-mapped.
    pub(crate) fn open(&self, rule: u32) -> CliResult<Tablebase> {
        check_dirs(&self.tables)?;
        // SAFETY: zermelo writes a table to a temporary file and renames it into place, so a
        // mapped table never changes under us; the `tb` commands and the server never write a
        // table they probe, and Syzygy's published files are not rewritten in place either.
        #[allow(unsafe_code)]
        let tb = unsafe { Tablebase::open_mapped_all(&self.tables) };
        Ok(tb.with_rule(rule))
    }
}

/// Each of `dirs` is a directory (else exit 2, naming it).
pub(crate) fn check_dirs(dirs: &[PathBuf]) -> CliResult {
    for dir in dirs {
        let why = match std::fs::metadata(dir) {
            Ok(m) if m.is_dir() => continue,
            Ok(_) => String::new(),
            Err(e) => format!(" ({e})"),
        };
        return Err(Failure::input(format!(
            "--tables {}: not a directory{why}",
            dir.display()
        )));
    }
    Ok(())
}

/// `--rule`, for the commands that read DTZ tables.
#[derive(Debug, Args)]
pub(crate) struct RuleArg {
    /// The rule the DTZ tables were generated for (`tb gen --rule`), in plies: 100 is the
    /// 50-move rule. A table of another rule is refused, naming its rule; Syzygy's tables
    /// are read under the 50-move rule only.
    #[arg(long, value_name = "PLIES", default_value_t = DEFAULT_RULE,
          value_parser = clap::value_parser!(u32).range(1..=i64::from(zermelo_chess::dtz::MAX_RULE)))]
    pub(crate) rule: u32,
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
    /// Seconds between checkpoints, in every phase: a kill loses little more than this
    /// (seeding: the cells seeded since the last, appended; layers: the whole state, 2.25
    /// bytes per index, written and synced while the solver waits: every 10 s cost KRBvKN
    /// 17% of its time; a pawn table's finished groups); the last state stays until the
    /// table is written.
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
    /// Refuse (exit 1) instead of waiting when a table to generate is being generated by
    /// another process (its lock `DIR/<material>.lock` is held).
    #[arg(long)]
    no_wait: bool,
    /// For tests: stop (exit 1) once this many groups of a pawn table are finished.
    #[arg(long, hide = true, value_name = "GROUPS")]
    stop_after_groups: Option<usize>,
    /// How the wins above a layer of lost positions are found: `auto` (the cheaper way per
    /// layer), `never` (always from the lost positions' un-moves) or `always` (by looking
    /// ahead from the open positions). The tables are the same; for measurements.
    #[arg(long, value_name = "WHEN", default_value = "auto", value_parser = ["auto", "never", "always"])]
    lookahead: String,
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
    tables: ProbeTablesArg,
    #[command(flatten)]
    rule: RuleArg,
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
    tables: ProbeTablesArg,
    #[command(flatten)]
    rule: RuleArg,
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
    tables: ProbeTablesArg,
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
    #[command(flatten)]
    rule: RuleArg,
}

/// Runs `zermelo tb`.
pub fn run(args: TbArgs) -> CliResult {
    match args.command {
        TbCommand::Gen(a) => gen(a),
        TbCommand::Probe(a) => probe(a),
        TbCommand::Line(a) => line(a),
        TbCommand::Stats(a) => stats(a),
        TbCommand::Verify(a) => verify_dir(a),
        TbCommand::Plan(a) => super::tb_plan::run(a),
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
        // One line: the error's text already holds its causes (printing its source chain
        // too repeated an OS error three times).
        _ => Failure::Internal(anyhow::anyhow!(e.to_string())),
    }
}

fn parse_fen(fen: &str) -> CliResult<Position> {
    Position::from_fen(fen).map_err(|e: FenError| Failure::input(e))
}

fn parse_fen_clock(fen: &str) -> CliResult<(Position, u32)> {
    Position::from_fen_with_clock(fen).map_err(|e: FenError| Failure::input(e))
}

fn parse_material(text: &str) -> CliResult<Material> {
    Material::parse_table(text).map_err(Failure::input)
}

/// `tb gen`: the flags as a [`GenerationJob`], run, its events printed as they come.
fn gen(args: GenArgs) -> CliResult {
    let targets = match (args.all, &args.material) {
        (Some(n), _) => Targets::all_up_to(n).map_err(|_| {
            Failure::input(format!(
                "--all {n}: tables exist for 3 to {MAX_PIECES} pieces"
            ))
        })?,
        (None, Some(m)) => Targets::of(&[parse_material(m)?]).map_err(Failure::input)?,
        (None, None) => return Err(Failure::input("name a material or give --all N")),
    };
    let mut job = GenerationJob::new(targets, args.tables.tables);
    job.work_dir = args.work_dir;
    job.rule = args.rule;
    job.checkpoint_interval = std::time::Duration::from_secs(args.checkpoint_every);
    job.mapped = args.mapped;
    job.lookahead = match args.lookahead.as_str() {
        "never" => Lookahead::Never,
        "always" => Lookahead::Always,
        _ => Lookahead::Auto,
    };
    job.memory = crate::limits::memory_limit();
    job.wait = !args.no_wait;
    job.stop_after_groups = args.stop_after_groups;
    // SAFETY: tables are written to a temporary file and renamed into place, so a mapped table
    // never changes under the generator; mapping keeps the smaller tables out of the heap.
    #[allow(unsafe_code)]
    unsafe {
        job.map_tables();
    }
    let mut lines = GenLines {
        stats: args.stats,
        bar: None,
    };
    let report = job.run(&mut |e| lines.show(e)).map_err(job_failure)?;
    crate::say!("done in {:.1} s", report.time.as_secs_f64());
    Ok(())
}

/// A generation job's failure: its folders, a table present but unusable, a damaged work
/// folder are bad input (exit 2), a memory limit exit 3, the rest (a lock held with
/// `--no-wait`, writing) exit 1.
fn job_failure(e: JobError) -> Failure {
    match e {
        JobError::Folder(f) => Failure::input(f.describe(match f.folder {
            Folder::Tables => "the tables' folder, --tables",
            Folder::Work => "the work folder, --work-dir",
        })),
        JobError::Memory { .. } => Failure::TooBig(format!("tb gen {e}")),
        JobError::Held { .. } => Failure::Internal(anyhow::anyhow!("{e} (--no-wait)")),
        JobError::Table(p) => probe_failure(p),
        JobError::Generate(g) => gen_failure(g),
        JobError::Work { .. } => Failure::input(e),
        _ => Failure::Internal(anyhow::anyhow!(e.to_string())),
    }
}

/// What `tb gen` prints while a job runs: a line per table present or written (`--stats`: its
/// time, threads and the peak memory so far on standard error), a progress bar while one is
/// generated, and who holds a lock it waits for.
struct GenLines {
    stats: bool,
    bar: Option<crate::progress::Bar>,
}

impl GenLines {
    fn show(&mut self, e: &JobEvent<'_>) {
        match e {
            JobEvent::Waiting { material, holder } => {
                crate::note!("zermelo: {material} is being generated by {holder}; waiting for it");
            }
            JobEvent::Present { material, metric } => {
                crate::say!("{}: present", table_label(material, *metric));
            }
            JobEvent::Started {
                material,
                generating,
                step,
                steps,
                indices,
                progress,
            } => {
                let label = match generating {
                    Generating::One(metric) => table_label(material, *metric),
                    Generating::Both => format!("{material} DTM+DTZ"),
                };
                self.bar = Some(Progress::global().layers_with(
                    &format!("[{step}/{steps}] {label}"),
                    *indices,
                    progress.settled.clone(),
                    progress.layer.clone(),
                ));
            }
            JobEvent::Solved { .. } => {
                if let Some(bar) = self.bar.take() {
                    bar.finish();
                }
            }
            JobEvent::Written(w) => self.written(w),
            _ => {}
        }
    }

    /// A table's line (and, with `--stats`, its time and the peak memory so far).
    fn written(&self, w: &WrittenTable) {
        let (m, label) = (&w.material, table_label(&w.material, w.metric));
        let (bytes, secs) = (w.bytes, w.time.as_secs_f64());
        match &w.stats.wdl50 {
            None => {
                let longest = w
                    .stats
                    .longest_win
                    .map(|l| l.map_or(0, |l| Value::Win(l.plies).moves().unwrap_or(0)));
                crate::say!(
                    "{m}: {bytes} bytes, {secs:.2} s, longest mate {} moves with white to move, {} with black",
                    longest[0], longest[1],
                );
            }
            Some(z) => crate::say!(
                "{label}: {bytes} bytes, {secs:.2} s, longest DTZ {} plies with white to move, {} with black; cursed wins {} and {}, blessed losses {} and {}",
                z.longest_dtz_win[0].max(z.longest_dtz_cursed_win[0]),
                z.longest_dtz_win[1].max(z.longest_dtz_cursed_win[1]),
                z.counts[0][Wdl50::CursedWin as usize],
                z.counts[1][Wdl50::CursedWin as usize],
                z.counts[0][Wdl50::BlessedLoss as usize],
                z.counts[1][Wdl50::BlessedLoss as usize],
            ),
        }
        if self.stats {
            crate::note!(
                "stats: {label}: {} indices in {secs:.3}s; {} threads; peak memory {}",
                w.indices,
                rayon::current_num_threads(),
                crate::cmd::solve::peak_memory_text(),
            );
        }
    }
}

/// How `tb gen` names a table in its lines: `KRPvKR`, `KRPvKR DTZ`.
fn table_label(m: &Material, metric: Metric) -> String {
    match metric {
        Metric::Dtm => m.to_string(),
        Metric::Dtz { .. } => format!("{m} DTZ"),
    }
}

/// The probe row of an answer, as `tb probe --stdin` and `GET /api/tb` print it: one serde
/// row type ([`PositionProbe`]), each move with the values of the position it leads to, in
/// the order [`Answer::moves_as_shown`] gives; `dtm_plies` null where no DTM table is there,
/// `dtz_rounded` where a Syzygy DTZ may be one ply short.
pub(crate) fn probe_row(a: &Answer) -> PositionProbe {
    let moves = a
        .moves_as_shown()
        .into_iter()
        .map(|m| {
            let outcome = m.dtm.map(Value::outcome).or(m.class.map(class_outcome));
            let mut row = MoveProbe::new(m.mv.to_string(), m.after.fen(), Value::Draw);
            row.outcome = outcome.unwrap_or(Outcome::Draw);
            row.dtm_plies = m.dtm.and_then(Value::plies);
            row.dtm_moves = m.dtm.and_then(Value::moves);
            row.san = Some(m.san.clone());
            if a.class.is_some() {
                row.zeroing = Some(m.zeroing);
                row.category = m.class.map(|c| c.as_str().into());
                row.dtz = m.dtz_after.map(Dtz::syzygy);
                row.dtz_rounded = m.dtz_after.is_some_and(|d| !d.precise);
                row.fen = m.fen();
            }
            row
        })
        .collect();
    let mut probe = PositionProbe::new(a.position.fen(), Value::Draw, moves);
    probe.outcome = a.outcome().unwrap_or(Outcome::Draw);
    probe.dtm_plies = a.dtm.and_then(Value::plies);
    probe.dtm_moves = a.dtm.and_then(Value::moves);
    probe.category = a.class.map(|c| c.as_str().into());
    probe.dtz = a.dtz.map(Dtz::syzygy);
    probe.dtz_rounded = a.dtz.is_some_and(|d| !d.precise);
    probe.fen = a.fen();
    probe
}

/// WIN, LOSE or DRAW of a class (the rule aside: a cursed win is a win).
pub(crate) fn class_outcome(c: Category) -> Outcome {
    match c {
        Category::Win | Category::MaybeWin | Category::CursedWin => Outcome::Win,
        Category::Draw => Outcome::Draw,
        _ => Outcome::Lose,
    }
}

fn probe_json(tb: &Tablebase, fen: &str) -> Result<serde_json::Value, Failure> {
    let (pos, clock) = parse_fen_clock(fen)?;
    let answer = tb.answer(&pos, clock).map_err(probe_failure)?;
    serde_json::to_value(probe_row(&answer)).map_err(|e| Failure::Internal(e.into()))
}

/// `1 ply`, `3 plies`.
fn plies(p: u32) -> String {
    format!("{p} {}", if p == 1 { "ply" } else { "plies" })
}

fn describe(v: Value) -> String {
    match v {
        Value::Draw => "draw".to_string(),
        Value::Win(p) => format!("win, mate in {} ({})", v.moves().unwrap_or(0), plies(p)),
        Value::Lose(0) => "lose, checkmated".to_string(),
        Value::Lose(p) => format!("lose, mated in {} ({})", v.moves().unwrap_or(0), plies(p)),
    }
}

fn probe(args: ProbeArgs) -> CliResult {
    let tb = args.tables.open(args.rule.rule)?;
    if args.stdin {
        return probe_batch(&tb);
    }
    let fen = args.fen.unwrap_or_default();
    let (pos, clock) = parse_fen_clock(&fen)?;
    let a = tb.answer(&pos, clock).map_err(probe_failure)?;
    let material = Material::of(&pos).canonical().0;
    emit(None, |w| {
        writeln!(w, "fen       {}", a.fen())?;
        let outcome = a.outcome().map_or("-".to_string(), |o| o.to_string());
        writeln!(w, "outcome   {outcome}")?;
        match a.class {
            Some(class) => writeln!(w, "category  {class} (halfmove clock {clock})")?,
            None => writeln!(
                w,
                "category  - (no DTZ table: `zermelo tb gen {material}` writes it)"
            )?,
        }
        match a.dtz {
            Some(d) => writeln!(w, "dtz       {}", dtz_text(d))?,
            None if a.class.is_some() => writeln!(w, "dtz       - (no DTZ table)")?,
            None => {}
        }
        match a.dtm {
            Some(v) => writeln!(w, "dtm       {}", dtm_text(v))?,
            None => writeln!(
                w,
                "dtm       - (no DTM table: Syzygy's tables hold none; `zermelo tb gen {material}` writes zermelo's)"
            )?,
        }
        if a.class.is_none() {
            writeln!(w, "moves (value for the side to move, best first):")?;
            for m in &a.moves {
                let mate = m.dtm.map_or("-".to_string(), |v| describe(v.for_parent()));
                writeln!(w, "  {:<6} {:<8} {mate}", m.mv.to_string(), m.san)?;
            }
            return Ok(());
        }
        writeln!(
            w,
            "moves (for the side to move, best first under the 50-move rule):"
        )?;
        writeln!(
            w,
            "  {:<6} {:<8} {:<13} {:>5}  {:<4} mate",
            "uci", "san", "category", "dtz", "zero"
        )?;
        for m in &a.moves {
            writeln!(
                w,
                "  {:<6} {:<8} {:<13} {:>5}  {:<4} {}",
                m.mv.to_string(),
                m.san,
                m.class.map_or("-", |c| c.flip().as_str()),
                m.value.map_or("-".to_string(), dtz_cell),
                if m.zeroing { "yes" } else { "no" },
                m.dtm.map_or("-".to_string(), |v| describe(v.for_parent()))
            )?;
        }
        let rounded = a.dtz.is_some_and(|d| !d.precise)
            || a.moves.iter().any(|m| m.value.is_some_and(|d| !d.precise));
        if rounded {
            writeln!(
                w,
                "~: rounded by a Syzygy table (stored in moves): the distance may be one ply longer"
            )?;
        }
        Ok(())
    })
}

/// A move's DTZ in the table of `tb probe`: Syzygy's sign, `~` before a rounded value.
fn dtz_cell(d: Dtz) -> String {
    if d.precise {
        d.syzygy().to_string()
    } else {
        format!("~{}", d.syzygy())
    }
}

/// `13 plies to a capture, pawn move or mate (win)`, as a line of `tb probe`; a rounded
/// value says so.
fn dtz_text(d: Dtz) -> String {
    let text = match d.value {
        Value::Draw => "0 (draw)".to_string(),
        Value::Lose(0) => "-1 (checkmated)".to_string(),
        v => format!(
            "{} ({} to a capture, pawn move or mate)",
            syzygy_dtz(v),
            zermelo::plural(v.plies().unwrap_or(0), "ply", "plies")
        ),
    };
    if d.precise {
        text
    } else {
        format!("{text}, rounded: may be one ply more (Syzygy)")
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
    let tb = args.tables.open(args.rule.rule)?;
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

/// The line under the 50-move rule ([`Tablebase::dtz_mainline`]): best moves by DTZ from the
/// FEN's clock until mate, or until a draw can be claimed; nothing for a draw.
/// `GET /standard/mainline` plays the same line.
fn line_dtz(tb: &Tablebase, fen: &str) -> CliResult {
    let (pos, clock) = parse_fen_clock(fen)?;
    let line = tb.dtz_mainline(&pos, clock).map_err(probe_failure)?;
    let drawn = tb
        .wdl_of(&line.end)
        .map_err(probe_failure)?
        .is_some_and(|c| c == Wdl50::Draw);
    let end = if line.end.is_checkmate() {
        "checkmate"
    } else if drawn || line.start.value == Value::Draw {
        "draw"
    } else {
        "draw by the 50-move rule (it can be claimed here)"
    };
    let rounded = !line.start.precise || line.steps.iter().any(|s| !s.dtz.precise);
    emit(None, |w| {
        writeln!(w, "{fen}: {}, dtz {}", line.class, dtz_cell(line.start))?;
        for (i, step) in line.steps.iter().enumerate() {
            writeln!(
                w,
                "{:>3}. {:<6} {:<8} dtz {:>4}  clock {}{}",
                i + 1,
                step.dtz.mv.to_string(),
                step.san,
                dtz_cell(step.dtz.after_dtz()),
                step.clock,
                if step.dtz.zeroing { "  (zeroing)" } else { "" }
            )?;
        }
        writeln!(w, "{end}")?;
        if rounded {
            writeln!(
                w,
                "~: rounded by a Syzygy table (stored in moves): the distance may be one ply longer"
            )?;
        }
        Ok(())
    })
}

/// The five classes of a material under the rule and whether they come from a Syzygy census
/// whose DTZ may be rounded.
struct ClassStats {
    wdl50: Wdl50Stats,
    /// Counted from Syzygy's tables; `Some(rounded)`: some DTZ values were rounded.
    syzygy: Option<bool>,
    /// The DTZ was counted (a Syzygy census without DTZ tables counts classes only).
    dtz: bool,
    illegal: u64,
}

fn stats(args: StatsArgs) -> CliResult {
    let m = parse_material(&args.material)?;
    let tb = args.tables.open(DEFAULT_RULE)?;
    let dtm = if tb.has(&m) {
        Some(tb.table(&m).map_err(probe_failure)?)
    } else {
        None
    };
    let dtz = own_dtz_table(&args.tables.tables, &m)?;
    // The DTZ table tells the DTM table's holes from its `Lose(254)` without unranking them.
    let s = match (&dtm, &dtz) {
        (Some(t), Some(z)) => Some(t.stats_with_twin(z)),
        (Some(t), None) => Some(t.stats()),
        _ => None,
    }
    .transpose()
    .map_err(Failure::input)?;
    let classes = match &dtz {
        Some(t) => t
            .stats()
            .map_err(Failure::input)?
            .wdl50
            .map(|w| ClassStats {
                wdl50: w,
                syzygy: None,
                dtz: true,
                illegal: 0,
            }),
        None => syzygy_census(&tb, &m)?,
    };
    if s.is_none() && classes.is_none() {
        return Err(Failure::input(format!(
            "no table of {m} in {}: neither zermelo's ({m}.zct, .zdz; `zermelo tb gen {m}` writes them) nor Syzygy's (.rtbw)",
            tb.place_names()
        )));
    }
    if args.format == StatsFormat::Json {
        return stats_json(&m, s.as_ref(), classes.as_ref());
    }
    emit(None, |w| stats_text(w, &m, s.as_ref(), classes.as_ref()))
}

/// zermelo's DTZ table of `m` in the first of `dirs` that has one, whatever rule it was
/// generated for (its statistics say which).
fn own_dtz_table(dirs: &[PathBuf], m: &Material) -> CliResult<Option<Table>> {
    let name = Metric::Dtz { rule: DEFAULT_RULE }.file_name(m);
    for dir in dirs {
        let path = dir.join(&name);
        if !zermelo_chess::table_file_present(&path).map_err(probe_failure)? {
            continue;
        }
        let t = Table::open(&path).map_err(Failure::input)?;
        if !matches!(t.metric(), Metric::Dtz { .. }) || t.material() != m {
            return Err(Failure::input(format!(
                "{}: holds the {} table of {}, expected the DTZ table of {m}",
                path.display(),
                t.metric().name(),
                t.material()
            )));
        }
        return Ok(Some(t));
    }
    Ok(None)
}

/// The classes of `m` counted position by position from Syzygy's tables, when its WDL table
/// is there (and the longest DTZ when its DTZ table is too); `None` without them.
fn syzygy_census(tb: &Tablebase, m: &Material) -> CliResult<Option<ClassStats>> {
    let syzygy = tb.syzygy();
    let found = |dtz| syzygy.file_of(m, dtz).map_err(|e| probe_failure(e.into()));
    if found(false)?.is_none() {
        return Ok(None);
    }
    let with_dtz = found(true)?.is_some();
    let c = tb.census(m, with_dtz).map_err(probe_failure)?;
    Ok(Some(ClassStats {
        wdl50: c.wdl50,
        syzygy: Some(c.rounded),
        dtz: c.dtz,
        illegal: c.illegal,
    }))
}

fn stats_json(m: &Material, s: Option<&Stats>, classes: Option<&ClassStats>) -> CliResult {
    let Some(c) = classes else {
        return Err(Failure::input(format!(
            "no DTZ table of {m}; `zermelo tb gen {m}` writes it"
        )));
    };
    let w50 = &c.wdl50;
    let dtz = |v: u32| c.dtz.then_some(v);
    let side = |k: usize| {
        let n = w50.counts[k];
        serde_json::json!({
            "win": n[Wdl50::Win as usize],
            "cursed_win": n[Wdl50::CursedWin as usize],
            "draw": n[Wdl50::Draw as usize],
            "blessed_loss": n[Wdl50::BlessedLoss as usize],
            "lose": n[Wdl50::Loss as usize],
            "longest_dtz_win": dtz(w50.longest_dtz_win[k]),
            "longest_dtz_cursed_win": dtz(w50.longest_dtz_cursed_win[k]),
            "longest_dtz_loss": dtz(w50.longest_dtz_loss[k]),
            "longest_dtz_blessed_loss": dtz(w50.longest_dtz_blessed_loss[k]),
            "longest_dtm_win": s.map(|s| s.longest_win[k].map_or(0, |l| l.plies)),
            "longest_dtm_loss": s.map(|s| s.longest_loss[k].map_or(0, |l| l.plies)),
        })
    };
    let mut obj = serde_json::json!({
        "material": m.to_string(),
        "white": side(0),
        "black": side(1),
    });
    if let Some(rounded) = c.syzygy {
        obj["source"] = "syzygy".into();
        obj["dtz_rounded"] = rounded.into();
    }
    emit(None, |w| writeln!(w, "{obj}"))
}

fn stats_text(
    w: &mut dyn std::io::Write,
    m: &Material,
    s: Option<&Stats>,
    classes: Option<&ClassStats>,
) -> std::io::Result<()> {
    let from = match classes.and_then(|c| c.syzygy) {
        Some(_) if s.is_none() => ", from Syzygy's tables",
        _ => "",
    };
    writeln!(w, "material  {m} (symmetry-reduced index positions{from})")?;
    for (side, name) in [(0, "white"), (1, "black")] {
        let [win, lose, draw] = match (s, classes) {
            (Some(s), _) => s.counts[side],
            (None, Some(c)) => {
                let n = c.wdl50.counts[side];
                let at = |w: Wdl50| n[w as usize];
                [
                    at(Wdl50::Win) + at(Wdl50::CursedWin),
                    at(Wdl50::Loss) + at(Wdl50::BlessedLoss),
                    at(Wdl50::Draw),
                ]
            }
            (None, None) => [0; 3],
        };
        writeln!(w, "{name} to move: win {win}, lose {lose}, draw {draw}")?;
    }
    let illegal = s.map_or(classes.map_or(0, |c| c.illegal), |s| s.illegal);
    writeln!(w, "illegal or redundant indices: {illegal}")?;
    for (side, name) in [(0, "white"), (1, "black")] {
        let (win, loss) = match s {
            Some(s) => (
                longest_line(s.longest_win[side], Value::Win),
                longest_line(s.longest_loss[side], Value::Lose),
            ),
            None => {
                let unknown = "unknown (no DTM table: Syzygy's tables hold none)".to_string();
                (unknown.clone(), unknown)
            }
        };
        writeln!(w, "longest win, {name} to move: {win}")?;
        writeln!(w, "longest loss, {name} to move: {loss}")?;
    }
    let Some(c) = classes else {
        return writeln!(
            w,
            "50-move rule: no DTZ table (`zermelo tb gen {m}` writes it)"
        );
    };
    let z = &c.wdl50;
    match c.syzygy {
        None => writeln!(w, "under a rule of {} plies (DTZ table):", z.rule)?,
        Some(_) if !c.dtz => writeln!(
            w,
            "under the 50-move rule (Syzygy's WDL table; no DTZ table):"
        )?,
        Some(false) => writeln!(w, "under the 50-move rule (Syzygy's tables):")?,
        Some(true) => writeln!(
            w,
            "under the 50-move rule (Syzygy's tables; some DTZ values are rounded, so a longest DTZ may be one ply short):"
        )?,
    }
    for (side, name) in [(0, "white"), (1, "black")] {
        let n = z.counts[side];
        writeln!(
            w,
            "{name} to move: win {}, cursed win {}, draw {}, blessed loss {}, loss {}",
            n[Wdl50::Win as usize],
            n[Wdl50::CursedWin as usize],
            n[Wdl50::Draw as usize],
            n[Wdl50::BlessedLoss as usize],
            n[Wdl50::Loss as usize],
        )?;
        if c.dtz {
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
    Ok(())
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
    let tb = Tablebase::open(&dir).with_rule(args.rule.rule);
    let mut bad = Vec::new();
    for m in Material::generation_order(&materials) {
        if !materials.contains(&m) {
            continue;
        }
        let checks: [(&str, bool, Checker); 2] = [
            ("", tb.has(&m), verify),
            (" DTZ", tb.has_dtz(&m), verify_dtz),
        ];
        // A material counts once however many of its tables fail.
        let mut failed = false;
        for (label, present, check) in checks {
            if !present {
                continue;
            }
            match check(&m, &tb) {
                Ok(None) => crate::say!("{m}{label}: ok"),
                Ok(Some(x)) => {
                    crate::say!(
                        "{m}{label}: INVALID at index {} ({}): stored {:?}, move generation says {:?}",
                        x.index,
                        x.fen.as_deref().unwrap_or("illegal"),
                        x.stored,
                        x.expected
                    );
                    failed = true;
                }
                Err(e) => {
                    crate::say!("{m}{label}: cannot verify: {e}");
                    failed = true;
                }
            }
        }
        if failed {
            bad.push(m.clone());
        }
    }
    if bad.is_empty() {
        crate::say!("{} tables verified", materials.len());
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
                Err(_) => crate::note!("zermelo: skipping {name}: not a material name"),
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
