//! The memory limit of canonical forms: the process-wide store and the games' memo tables
//! grow until [`check_memory`] says they may not.

use crate::error::CgtError;
use crate::value;

/// The memory limit of [`check_memory`], in bytes (`u64::MAX`: none).
static MEMORY_LIMIT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(u64::MAX);

/// Sets the memory the process-wide store of canonical forms (with its memo tables) and the
/// games' own memo tables may grow to before [`check_memory`] refuses to go on (`None`: no
/// limit, the default of the library; the command line sets `--max-memory` or 2 GiB).
pub fn set_memory_limit(bytes: Option<u64>) {
    MEMORY_LIMIT.store(
        bytes.unwrap_or(u64::MAX),
        std::sync::atomic::Ordering::Relaxed,
    );
}

/// The limit set by [`set_memory_limit`].
pub fn memory_limit() -> Option<u64> {
    let b = MEMORY_LIMIT.load(std::sync::atomic::Ordering::Relaxed);
    (b != u64::MAX).then_some(b)
}

/// About how many bytes the store of canonical forms and its memo tables hold.
pub fn memory_used() -> u64 {
    value::store().bytes()
}

/// [`CgtError::TooBig`] when the store plus `extra` bytes (a caller's own memo table), or the
/// resident size of the process (looked at every 256 calls, on Linux), is over the limit of
/// [`set_memory_limit`]. The game searches call it after every position they
/// value, so a computation stops within one position's growth of the limit.
///
/// # Errors
/// [`CgtError::TooBig`], naming the memory used and the limit.
pub fn check_memory(extra: u64) -> Result<(), CgtError> {
    let Some(limit) = memory_limit() else {
        return Ok(());
    };
    let mut used = memory_used().saturating_add(extra);
    // The tables' own count misses the allocator's overhead and the old table a growing hash
    // map keeps while it moves: every 256 calls, the resident size of the process counts too.
    static CALLS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    if CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed) % 256 == 0 {
        used = used.max(resident_bytes().unwrap_or(0));
    }
    if used <= limit {
        return Ok(());
    }
    let mib = |b: u64| b as f64 / (1u64 << 20) as f64;
    Err(CgtError::TooBig(format!(
        "the canonical forms and memo tables of this game need more than the memory limit of \
         {:.1} MiB (about {:.1} MiB when it stopped, counting the next growth of its largest \
         table)",
        mib(limit),
        mib(used)
    )))
}

/// The resident size of this process (Linux: `/proc/self/statm`, 4 KiB pages), if known.
fn resident_bytes() -> Option<u64> {
    let statm = std::fs::read_to_string("/proc/self/statm").ok()?;
    let pages: u64 = statm.split_whitespace().nth(1)?.parse().ok()?;
    Some(pages.saturating_mul(4096))
}

/// The bytes of a memo table from game positions to values (its allocated capacity).
pub fn memo_bytes<K, V>(memo: &std::collections::HashMap<K, V>) -> u64 {
    (memo.capacity() * (std::mem::size_of::<(K, V)>() + 1)) as u64
}

/// The memory the value commands (`cgt value`, `sum`, `thermograph` of a file) take for a
/// two-player file of `positions` positions and `moves` moves read from `input` bytes, known
/// from its header before anything is allocated: the state graph as parsed (two states a
/// position), the loopy graph of the positions (two option lists each) and the retrograde
/// analysis of their outcomes (a second state graph and its solution). About `138 n + 40 m`
/// bytes; measured: 1,000,000 positions and one move, `cgt value` of a loopy position, 136 MB
/// at its peak.
pub fn two_player_estimate(positions: u64, moves: u64, input: u64) -> zermelo::memory::Estimate {
    let parsed = zermelo::memory::estimate_in_memory(positions.saturating_mul(2), moves, input);
    // Two Vec<u32> headers a position, the options 4 bytes each (twice, as vectors grow).
    let loopy = positions
        .saturating_mul(48)
        .saturating_add(moves.saturating_mul(8));
    // The outcomes: the moves listed (16 bytes each), a state graph as parsed, its solution.
    let outcomes = moves
        .saturating_mul(16)
        .saturating_add(parsed.graph)
        .saturating_add(parsed.solving);
    zermelo::memory::Estimate {
        graph: parsed.graph.saturating_add(loopy),
        loading: parsed.loading,
        solving: outcomes,
    }
}

/// Refuses a two-player file whose header declares more than `limit` allows for the value
/// commands ([`two_player_estimate`]), before anything sized by the header is allocated: the
/// check the command line (`cgt value`, `sum`, `thermograph` of a file) and Python's
/// `zermelo.cgt.value` make on the bytes they read. A header may claim more moves than the
/// input holds (each takes at least a byte), so the moves counted are at most the input's
/// length; a header past the supported positions, or none, is left to the parser, which refuses
/// it before it allocates.
///
/// ```
/// use zermelo::memory::Limit;
/// let header = b"30000000 1 0\n0 0\n";
/// let e = zermelo_cgt::check_two_player_header(header, Limit::Bytes(200 << 20)).unwrap_err();
/// assert!(e.to_string().contains("but only 200 MiB is allowed"), "{e}");
/// assert!(zermelo_cgt::check_two_player_header(b"3 1 0\n0 1\n", Limit::Bytes(1 << 20)).is_ok());
/// ```
///
/// # Errors
/// [`CgtError::TooBig`] with the limit's message (the memory needed and the limit).
pub fn check_two_player_header(
    bytes: &[u8],
    limit: zermelo::memory::Limit,
) -> Result<(), CgtError> {
    use zermelo::io::{declared_size, InputFormat};
    let Ok(Some((states, moves))) = declared_size(bytes, InputFormat::TwoPlayer) else {
        return Ok(());
    };
    if states > zermelo::graph::MAX_NODES {
        return Ok(());
    }
    let input = bytes.len() as u64;
    let estimate = two_player_estimate(states / 2, moves.min(input), input);
    limit.check(estimate).map_err(CgtError::TooBig)
}
