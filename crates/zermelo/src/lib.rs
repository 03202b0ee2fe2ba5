//! # zermelo
//!
//! Solves two-player games played on graphs. Positions are nodes, moves are directed edges, and
//! the graph may have cycles. zermelo labels every position WIN, LOSE or DRAW for the player to
//! move by *retrograde analysis* — propagating outcomes backwards from the terminal positions with
//! out-degree counters, in O(V + E) — together with the distance to the end under optimal play
//! (the winner hurries, the loser stalls), optimal moves, and a linear-time certificate check.
//!
//! ## The principal types
//!
//! * [`graph::Csr`] — a validated game graph (forward and reverse rows), built by
//!   [`graph::GraphBuilder`] or read by [`io`];
//! * [`graph::Rules`] — how terminals score: normal play, misère, explicit verdicts;
//! * [`Solution`] — an [`Outcome`] and a [`Depth`] per position, returned by every solver;
//! * [`solve`] — the solvers ([`solve::retrograde`], [`solve::acyclic`], [`solve::grundy`]),
//!   strategies ([`solve::best_move`], [`solve::principal_line`]) and the verifier
//!   ([`solve::verify`]);
//! * [`game`] — games defined by their rules instead of an edge list: the [`game::Game`] trait
//!   and optional capabilities (dense ranking, un-moves, symmetry), solved by exploring into a
//!   [`graph::Csr`] or by retrograde analysis over a dense index without stored edges; the
//!   compact engine ([`game::compact`]) solves huge index spaces at two bytes and a bit per
//!   index, with exits, checkpoints and resume, optionally on disk.
//!
//! ## The workspace around it
//!
//! The domains stand on this crate, each in a crate of its own:
//!
//! * `zermelo-parity`: parity, reachability, safety and Büchi games on arenas (a portfolio of
//!   solvers, certificates, PGSolver and eHOA formats); it was `zermelo::parity` before the split;
//! * `zermelo-cgt`: Conway values of partizan games in CGSuite's notation (was `zermelo::cgt`);
//! * `zermelo-games`: classic and pursuit games with closed forms, checked against this crate's
//!   solvers (was `zermelo::games`);
//! * `zermelo-chess`: chess endgame tablebases on the compact engine.
//!
//! ## Example
//!
//! ```
//! use zermelo::graph::{Csr, Rules};
//! use zermelo::{solve, Depth, Outcome};
//!
//! // Seed 000's "cycle + terminal": 3 is terminal, 2 <-> 4 is an inescapable cycle.
//! let g = Csr::from_edges(5, [(0, 1), (0, 2), (1, 3), (2, 1), (2, 4), (4, 2)])?;
//! let rules = Rules::normal();
//! let s = solve::retrograde(&g, &rules);
//! assert_eq!(s.outcome(1), Outcome::Win);
//! assert_eq!(s.depth(1), Some(Depth(1)));
//! assert_eq!(s.outcome(0), Outcome::Draw);
//! assert_eq!(solve::best_move(&g, &rules, &s, 0), Some(2)); // hold the draw
//! solve::verify(&g, &rules, &s, None)?; // the certificate checks out
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! ## Errors
//!
//! Parsers return [`io::ParseError`] (source, line, what was expected); graph construction
//! returns [`graph::GraphError`]; a cyclic graph given to an acyclic-only algorithm yields a
//! [`solve::Cycle`] naming an actual cycle; the verifier returns the first
//! [`solve::Violation`]. No input makes the library panic.
//!
//! ## Conventions
//!
//! Depths are in plies. A terminal has depth 0; a WIN has `1 +` the least depth of its LOSE
//! children; a LOSE has `1 +` the greatest depth of its children; a DRAW has none. This equals
//! the round in which the least-fixpoint iteration decides the position.

#![deny(missing_docs)]

pub mod game;
pub mod graph;
pub mod io;
pub mod memory;
mod outcome;
pub mod prefetch;
pub mod report;
pub mod solve;
mod value;

pub use outcome::{Depth, NodeId, Outcome, ParseOutcomeError, Player};
pub use solve::Solution;
pub use value::{plural, Value};
