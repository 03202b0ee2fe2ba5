//! The memory limit of a run (`--max-memory`, else the memory available), set once from `main`,
//! and what the value commands make of it.

use crate::error::{CliResult, Failure};

static MEMORY_LIMIT: std::sync::OnceLock<zermelo::memory::Limit> = std::sync::OnceLock::new();

/// Sets `--max-memory` (once, from `main`).
pub fn set_memory_limit(limit: Option<u64>) {
    let limit = limit.map_or(zermelo::memory::Limit::Available, |b| {
        zermelo::memory::Limit::Option(b, "--max-memory")
    });
    let _ = MEMORY_LIMIT.set(limit);
}

/// `--max-memory` as a limit (the memory available when it was not given; `tb gen` makes that
/// 3/4 of the machine's memory, `GenerationJob::memory`).
pub fn memory_limit() -> zermelo::memory::Limit {
    MEMORY_LIMIT.get().copied().unwrap_or_default()
}

/// Refuses a job whose estimate exceeds `--max-memory`, or the memory available (for jobs that
/// do not go through [`io::open`], such as the compact engine).
pub fn check_memory(name: &str, estimate: zermelo::memory::Estimate) -> CliResult {
    MEMORY_LIMIT
        .get()
        .copied()
        .unwrap_or_default()
        .check(estimate)
        .map_err(|m| Failure::TooBig(format!("{name}: {m}")))
}

/// The memory limit of canonical forms when `--max-memory` is not given (or the memory
/// available, if less): 6x6 Domineering grows past 2.8 GB without one.
const DEFAULT_MEMORY: u64 = 2 << 30;

/// Sets the memory limit of canonical-form computations: `--max-memory`, else
/// [`DEFAULT_MEMORY`] or the memory available if less.
pub fn limit_cgt_memory() {
    let limit = memory_limit();
    let bytes = match limit {
        zermelo::memory::Limit::Available => limit.input_cap().min(DEFAULT_MEMORY),
        _ => limit.input_cap(),
    };
    zermelo_cgt::set_memory_limit(Some(bytes));
}

/// A value computation that stopped: exit 3 when it was too big (with how to raise the limit).
pub fn cgt_too_big(what: &str, e: zermelo_cgt::CgtError) -> Failure {
    match e {
        zermelo_cgt::CgtError::TooBig(_) => Failure::TooBig(format!(
            "{what}: {e}; raise the limit with --max-memory (e.g. --max-memory 8G)"
        )),
        e => Failure::TooBig(format!("{what}: {e}")),
    }
}
