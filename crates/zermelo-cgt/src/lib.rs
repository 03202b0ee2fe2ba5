//! # zermelo-cgt
//!
//! Combinatorial game theory for partizan games: Conway values of short games in canonical
//! form, their sums, negatives, comparison, outcome classes and thermographs, read and written
//! in CGSuite's notation; and loopy games ([`loopy`]): outcomes with draws, simplest forms of
//! stoppers, the sides of other games, their sums. It is for the questions retrograde analysis cannot answer alone: not only who wins
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
//! | [`Value::thermograph`], [`Value::mean_and_temperature`] | walls, mean and temperature of any short game (thermograph.rs) |
//! | [`Value::atomic_weight`] | atomic weights of all-small games (atomic.rs) |
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

mod atomic;
mod big;
mod canonical;
mod dyadic;
mod error;
mod graph;
mod limits;
pub mod loopy;
mod memory;
mod notation;
mod thermograph;
mod value;

pub use big::BigDyadic;
pub use dyadic::Dyadic;
pub use error::CgtError;
pub use graph::graph_values;
pub use limits::{MAX_BITS, MAX_EXP, NOTATION_WORK};
pub use memory::{
    check_memory, check_two_player_header, memo_bytes, memory_limit, memory_used, set_memory_limit,
    two_player_estimate,
};
pub use notation::ParseValueError;
pub use thermograph::{Thermograph, Thermographs, Trajectory};
pub use value::{OutcomeClass, Relation, Value};

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
