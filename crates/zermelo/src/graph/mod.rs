//! Game graphs: positions are nodes, moves are directed edges.
//!
//! [`Csr`] is the validated, immutable graph every solver reads; [`GraphBuilder`] checks input
//! once and builds it; [`Rules`] says how terminal positions score; [`TwoPlayerGraph`] encodes a
//! partizan game as `(position, player)` states; [`generate`] makes random and structured graphs
//! for tests and benchmarks.

mod builder;
mod csr;
pub mod generate;
mod rules;
mod two_player;

pub use builder::{GraphBuilder, GraphError, MAX_NODES};
pub use csr::Csr;
pub use rules::{Convention, Rules, RulesError};
pub use two_player::TwoPlayerGraph;
