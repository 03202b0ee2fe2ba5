//! Games defined by their rules rather than by an edge list.
//!
//! A game implements [`Game`]: the moves of a position and the verdict of a finished one.
//! Optional capabilities are separate traits: [`Ranked`] (a dense index with holes),
//! [`Unmoves`] (predecessor generation) and [`Symmetry`] (canonical representatives).
//! One algorithm, retrograde analysis, runs over any of them and returns the same
//! [`Solution`](crate::Solution) as for an explicit graph:
//!
//! | function | needs | memory | suits |
//! |---|---|---|---|
//! | [`explore`], [`solve_reachable`] | [`Game`] | the explicit graph + a hash index | sparse games: few positions reachable from the start |
//! | [`compact::solve`] | [`IndexedGame`] (every [`Ranked`] + [`Unmoves`] game through [`RankedGame`]) | 2 bytes + 1 bit per index, no edges; resumable, optionally on disk | huge dense spaces (pursuit games, endgames with exits) |
//! | [`solve_dense`] | [`Ranked`] + [`Unmoves`] | ~10 bytes per index, no edges | the simple reference the compact engine is tested against |
//! | [`solve_dense_reverse`] | [`Ranked`] | the above + 8 bytes per index and 4 per move (reverse rows only) | dense spaces without un-moves |
//!
//! Symmetry reduction is an adapter: [`Reduced`] is the quotient game, solved by the same
//! functions. [`dense_graph`] turns a ranked game into an explicit graph so that the
//! verifier ([`solve::verify`](crate::solve::verify)) checks dense solutions too.
//!
//! ## Adding a game
//!
//! Implement [`Game`] (about twenty lines), then call [`solve_reachable`]. When the game is
//! large, add [`Ranked`] and [`Unmoves`] and call [`solve_dense`]; test that the two agree.
//! `crates/zermelo/examples/custom_game.rs` is a complete example in about fifty lines
//! (`cargo run -p zermelo --example custom_game`).
//!
//! ```
//! use zermelo::game::{solve_reachable, Game};
//! use zermelo::{Depth, Outcome};
//!
//! /// A token on squares 0..=10 moves 1 or 2 squares right; square 10 ends the game, and the
//! /// player who reaches it wins.
//! struct Race;
//! impl Game for Race {
//!     type Position = u8;
//!     fn moves(&self, &at: &u8, out: &mut Vec<u8>) {
//!         out.extend([at + 1, at + 2].into_iter().filter(|&s| s <= 10));
//!     }
//!     fn verdict(&self, &at: &u8) -> Option<Outcome> {
//!         // The player to move at 10 has just been beaten.
//!         (at == 10).then_some(Outcome::Lose)
//!     }
//! }
//! let solved = solve_reachable(&Race, [0])?;
//! let start = solved.value(&0).unwrap();
//! assert_eq!(start.outcome(), Outcome::Win); // 0 -> 1, then keep the distance a multiple of 3
//! assert_eq!(solved.best_move(&0), Some(&1));
//! assert_eq!(start.depth(), Some(Depth(7)));
//! # Ok::<(), zermelo::game::GameError>(())
//! ```

pub mod compact;
mod dense;
mod explore;
mod symmetry;
mod traits;

pub use compact::{
    CompactError, CompactOptions, CompactSolution, CounterMode, IndexedGame, LayerProgress,
    RankedGame, Start,
};
pub use dense::{
    dense_best_move, dense_graph, dense_principal_line, dense_value, solve_dense,
    solve_dense_reverse, IndexValues,
};
pub use explore::{
    explore, explore_limited, solve_reachable, Explored, LineStop, PositionLine, Solved, Value,
};
pub use symmetry::Reduced;
pub use traits::{Game, Ranked, Symmetry, Unmoves};

use crate::graph::GraphError;

/// Why a game could not be solved.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum GameError {
    /// More positions (or indices) than the limit: exploration was stopped.
    #[error("the game has more than {limit} positions")]
    TooManyPositions {
        /// The limit that was passed.
        limit: u64,
    },
    /// The explicit graph could not be built (a position with more than `u32::MAX` moves).
    #[error(transparent)]
    Graph(#[from] GraphError),
}
