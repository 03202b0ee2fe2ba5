//! `zermelo tb export --format syzygy`: zermelo's tables written as Syzygy's `.rtbw` and
//! `.rtbz` files ([`zermelo_chess::export_syzygy`]), each file written atomically. Several
//! materials are exported at once, as many as the thread pool has threads: one export alone
//! leaves a thread idle in its sequential stretches (picking orders, the end of a
//! compression), which the other export's work fills. Each line is printed as its material
//! is done.

use std::path::{Path, PathBuf};

use clap::{Args, ValueEnum};
use rayon::prelude::*;
use zermelo_chess::dtz::DEFAULT_RULE;
use zermelo_chess::{
    export_syzygy, table_file_present, ExportError, Material, Metric, ProbeError, Tablebase,
    MAX_PIECES,
};

use crate::error::{CliResult, Failure};

/// Arguments of `zermelo tb export`.
#[derive(Debug, Args)]
pub struct ExportArgs {
    /// The materials to export, e.g. KRvK KQvKR (their DTZ tables, and those of every
    /// material a capture or promotion leads to, must be in DIR).
    #[arg(required_unless_present = "all", conflicts_with = "all")]
    materials: Vec<String>,
    /// Every material of 3 to N pieces whose DTZ table is in DIR.
    #[arg(long, value_name = "N")]
    all: Option<usize>,
    /// The format to write: `syzygy` (`.rtbw` WDL and `.rtbz` DTZ files, as Stockfish,
    /// Fathom, python-chess and lichess read them).
    #[arg(long, value_enum, default_value = "syzygy")]
    format: ExportFormat,
    /// Directory holding zermelo's tables (`<material>.zdz`).
    #[arg(long, value_name = "DIR", default_value = "./tables")]
    tables: PathBuf,
    /// Directory to write the files to (made if missing).
    #[arg(short = 'o', long = "output", value_name = "OUT")]
    output: PathBuf,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum ExportFormat {
    Syzygy,
}

/// Runs `zermelo tb export`.
pub fn run(args: ExportArgs) -> CliResult {
    let ExportFormat::Syzygy = args.format;
    check_tables_dir(&args.tables)?;
    let materials = match args.all {
        Some(n) => present_up_to(n, &args.tables)?,
        None => {
            let mut out = Vec::new();
            for m in &args.materials {
                out.push(Material::parse_table(m).map_err(Failure::input)?);
            }
            out
        }
    };
    prepare_output(&args.output)?;
    keep_freed_memory();
    let started = std::time::Instant::now();
    materials.par_iter().with_max_len(1).try_for_each(|m| {
        // A fresh set per material: only its own tables and those its captures need
        // stay in memory.
        let tb = Tablebase::open(&args.tables);
        let done = export_syzygy(&tb, m, &args.output).map_err(export_failure)?;
        crate::say!(
            "{}: {} {} bytes, {} {} bytes, {} positions, {:.2} s",
            done.name,
            file_name(&done.wdl_path),
            done.wdl_bytes,
            file_name(&done.dtz_path),
            done.dtz_bytes,
            done.positions,
            done.time.as_secs_f64()
        );
        Ok::<(), Failure>(())
    })?;
    crate::say!(
        "{} tables exported in {:.1} s",
        materials.len(),
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned())
}

fn check_tables_dir(dir: &Path) -> CliResult {
    match std::fs::metadata(dir) {
        Ok(m) if m.is_dir() => Ok(()),
        Ok(_) => Err(Failure::input(format!(
            "{}: not a directory (--tables names the folder of zermelo's tables)",
            dir.display()
        ))),
        Err(e) => Err(Failure::Unreadable(format!("{}: {e}", dir.display()))),
    }
}

/// Every material of 3 to `n` pieces whose DTZ table is in `dir`, smaller first.
fn present_up_to(n: usize, dir: &Path) -> CliResult<Vec<Material>> {
    if !(3..=MAX_PIECES).contains(&n) {
        return Err(Failure::input(format!(
            "--all {n}: tables exist for 3 to {MAX_PIECES} pieces"
        )));
    }
    let mut out = Vec::new();
    for m in Material::all_up_to(n) {
        let path = dir.join(Metric::Dtz { rule: DEFAULT_RULE }.file_name(&m));
        if table_file_present(&path).map_err(Failure::input)? {
            out.push(m);
        }
    }
    if out.is_empty() {
        return Err(Failure::input(format!(
            "{}: no DTZ tables (*.zdz) of up to {n} pieces; `zermelo tb gen --all {n} --tables {}` writes them",
            dir.display(),
            dir.display()
        )));
    }
    Ok(out)
}

/// Makes the output directory; an output that cannot be made or is not a directory is an
/// unwritable output (exit 1).
fn prepare_output(dir: &Path) -> CliResult {
    if std::fs::metadata(dir).is_ok_and(|m| !m.is_dir()) {
        return Err(Failure::Internal(anyhow::anyhow!(
            "{}: not a directory (-o names the folder to write the tables to)",
            dir.display()
        )));
    }
    std::fs::create_dir_all(dir)
        .map_err(|e| Failure::Internal(anyhow::anyhow!("{}: {e}", dir.display())))
}

/// A missing or damaged zermelo table is bad input (exit 2); a write failure exit 1.
fn export_failure(e: ExportError) -> Failure {
    match e {
        ExportError::Probe(ProbeError::Table(t)) => Failure::input(t),
        ExportError::Probe(p) => Failure::input(p),
        ExportError::Write { .. } => Failure::Internal(anyhow::anyhow!(e.to_string())),
        e => Failure::input(e),
    }
}

/// Has glibc's allocator keep the memory it is given back for the next request instead of
/// returning it to the kernel: an export allocates and frees the sequences of a table, a few
/// hundred megabytes each, file after file, and every one of them was mapped afresh, faulted
/// in page by page on both threads and unmapped again (KRPvKR with two threads, AMD EPYC Zen 5:
/// 10.3 s of its 92 s of CPU in the kernel, 1.95 million page faults; with this, 1.3 s, 0.67
/// million, and 41.6 s of wall against 49.0). The peak grows little (1.21 -> 1.34 GB), as the
/// same sizes come back file after file.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn keep_freed_memory() {
    // Above any single allocation of an export (so no request is mapped on its own), and no
    // trimming of the heap's top.
    const NEVER: libc::c_int = libc::c_int::MAX;
    #[allow(unsafe_code)]
    // SAFETY: `mallopt` only changes the allocator's thresholds (glibc takes its own lock,
    // so other threads may allocate meanwhile), and any value is valid for these two
    // parameters; its return value only says whether glibc took the value.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, NEVER);
        libc::mallopt(libc::M_TRIM_THRESHOLD, NEVER);
    }
}

/// Other allocators keep freed memory by themselves.
#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn keep_freed_memory() {}
