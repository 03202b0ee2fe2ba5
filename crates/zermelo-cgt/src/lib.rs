//! # zermelo-cgt
//!
//! Combinatorial game theory for partizan games: Conway values of short games in canonical
//! form, their sums, negatives, comparison and outcome classes, read and written in CGSuite's
//! notation. It is for the questions retrograde analysis cannot answer alone: not only who wins
//! a game, but what it is worth in a sum of games. Every value of a game graph
//! ([`graph_values`]) is checked in the tests against retrograde analysis of the product graph,
//! the core crate `zermelo`'s solver.
//!
//! ## The principal types
//!
//! * [`Value`]: a game in canonical form, hash-consed, so `==` is equality of games;
//! * [`Dyadic`] and [`BigDyadic`]: the numbers among them, `n / 2^k`;
//! * [`OutcomeClass`] (L, R, N, P) and [`Relation`] (`<`, `=`, `>`, `||`);
//! * [`CgtError`]: why a value could not be computed (a cycle, a limit).
//!
//! (Before the workspace split this was `zermelo::cgt`.)
//!
//! ## Overview
//!
//!
//! | item | what |
//! |---|---|
//! | [`Value`] | a game in canonical form, hash-consed: `==` is equality of games |
//! | [`Value::from_options`] | `{L | R}` simplified (canonical.rs: dominated and reversible options) |
//! | [`Value::checked_add`], `-G` (`Neg`), [`Value::relation`], [`Value::outcome`] | sum, negative, `< = > ||`, L/R/N/P |
//! | [`Value::mean_and_temperature`] | for numbers, number + infinitesimal, switches of numbers |
//! | `Display` / `FromStr` | CGSuite notation: `0`, `-2`, `3/8`, `*`, `*3`, `^`, `v`, `+-1`, `{1|*}` (notation.rs) |
//! | [`graph_values`] | the value of every position of an acyclic [`TwoPlayerGraph`](zermelo::graph::TwoPlayerGraph) reachable from some starts |
//!
//! Left is player 0 and Right player 1: a position's Left options are player 0's moves.
//!
//! ```
//! use zermelo_cgt::{OutcomeClass, Value};
//! let up: Value = "^".parse().unwrap();
//! let star: Value = "*".parse().unwrap();
//! assert_eq!(up.checked_add(star).unwrap().to_string(), "^*");
//! assert_eq!(up.checked_add(star).unwrap().outcome(), OutcomeClass::N);
//! let g: Value = "{3|{2|0}}".parse().unwrap();
//! assert_eq!(g.checked_add(-g).unwrap(), Value::ZERO);
//! ```

#![deny(missing_docs)]

mod big;
mod canonical;
mod dyadic;
mod graph;
mod notation;
mod value;

pub use big::BigDyadic;
pub use dyadic::{Dyadic, MAX_BITS, MAX_EXP};
pub use graph::graph_values;
pub use notation::ParseValueError;
pub use value::{OutcomeClass, Relation, Value};

/// Why a value could not be computed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum CgtError {
    /// A number needs more than [`MAX_BITS`] bits or a denominator above `2^MAX_EXP`.
    #[error(
        "a number in this game needs more than {MAX_BITS} bits or a denominator above 2^{MAX_EXP}"
    )]
    NumberTooLarge,
    /// The game graph has a cycle, so the game is not short.
    #[error(
        "the positions have a cycle ({0}); canonical values exist only for finite (acyclic) games"
    )]
    Cycle(zermelo::solve::Cycle),
    /// A position id out of range.
    #[error("position {position} is out of range: the game has {positions} positions")]
    OutOfRange {
        /// The position asked for.
        position: u64,
        /// How many there are.
        positions: usize,
    },
    /// A game too big for the limits of the method.
    #[error("{0}")]
    TooBig(String),
    /// Evaluating a value written in notation took more steps (sums and comparisons of games)
    /// than its limit ([`NOTATION_WORK`] by default): a dozen characters can ask for sums whose
    /// canonical forms take minutes (`2*52+-52*52`), and a command or a server reading values
    /// must answer rather than hang.
    #[error("this value takes more than {0} sums and comparisons of games to evaluate")]
    TooMuchWork(u64),
}

/// The steps (sums and comparisons of games, each call counted, memoized or not) one value
/// written in notation may take by default: under half a second in a release build (30-45 ns a
/// step on an AMD EPYC Zen 3: `2*30+-30*30` takes 7.4 million, `2*52+-52*52` 141 million and
/// 5 s).
/// [`Value::parse_with_work_limit`] sets another. Games given as graphs have no such limit
/// (their size is the input's, and the memory limit applies).
pub const NOTATION_WORK: u64 = 10_000_000;

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

/// Runs `work` on a thread with a 1 GiB stack (reserved, touched only as used): comparisons and
/// sums recurse as deep as the games' birthdays, which long chains of positions make large.
/// Falls back to the calling thread if no thread can be started.
pub fn on_deep_stack<T: Send>(work: impl FnOnce() -> T + Send) -> T {
    let cell = std::sync::Mutex::new(Some(work));
    let take = || cell.lock().unwrap_or_else(|p| p.into_inner()).take();
    let spawned = std::thread::scope(|scope| {
        let builder = std::thread::Builder::new()
            .name("cgt".into())
            .stack_size(1 << 30);
        builder
            .spawn_scoped(scope, || take().map(|w| w()))
            .ok()
            .map(|handle| match handle.join() {
                Ok(t) => t,
                Err(panic) => std::panic::resume_unwind(panic),
            })
    });
    match spawned.flatten() {
        Some(t) => t,
        None => match take() {
            Some(w) => w(),
            None => unreachable!("the work ran on the thread, which returned it"),
        },
    }
}
