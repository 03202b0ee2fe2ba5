//! # zermelo-games
//!
//! The games library: classic impartial games with their closed forms, partizan games valued in
//! canonical form (with `zermelo-cgt`), and pursuit games on graphs and boards, each written as
//! a [`Game`](zermelo::game::Game) (or a dense, ranked index space for the compact engine) of
//! the core crate `zermelo`. The closed forms are the fast answers; the core's generic solvers are
//! the oracle every one of them is tested against.
//!
//! ## The principal types
//!
//! * [`nim::Nim`], [`subtraction::Subtraction`], [`staircase::Staircase`],
//!   [`wythoff::Wythoff`], [`hackenbush::Forest`]: impartial games with closed forms;
//!   [`sum::Sum`] and [`sum::analyse_sum`] for their disjunctive sums;
//! * [`domineering::Domineering`], [`blue_red_hackenbush::Picture`], [`toads_frogs::ToadsFrogs`]:
//!   partizan games valued in canonical form;
//! * [`pursuit::Pursuit`] behind [`cop_robber::CopRobber`] and [`police_thief::PoliceThief`]:
//!   pursuit games, ranked for the dense and compact solvers;
//! * [`tictactoe::TicTacToe`]: a small game with every capability (ranking, un-moves, symmetry).
//!
//! ```
//! use zermelo::game::explore;
//! use zermelo::graph::Convention;
//! use zermelo::Outcome;
//! use zermelo_games::nim::{analyse, Nim};
//!
//! // Bouton: heaps 1, 2, 3 XOR to zero, so the player to move loses.
//! assert_eq!(analyse(&[1, 2, 3], Convention::Normal).outcome, Outcome::Lose);
//! // Retrograde analysis of the explored game graph agrees.
//! let solved = explore(&Nim::default(), [vec![1, 2, 3]])?.solve();
//! assert_eq!(solved.value(&vec![1, 2, 3]).map(|v| v.outcome()), Some(Outcome::Lose));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! (Before the workspace split this was `zermelo::games`.)
//!
//! ## The games
//!
//! Classic games and pursuit games, each with its closed form (where theory gives one) and a
//! [`Game`](zermelo::game::Game) implementation that the generic solvers check it against.
//!
//! | module | game | closed form / method | checked against |
//! |---|---|---|---|
//! | [`nim`] | Nim, misère Nim | XOR of the heaps (Bouton) | exploring every small position |
//! | [`sum`] | sums of any impartial games | XOR of Grundy values (Sprague–Grundy) | solving the product game |
//! | [`subtraction`] | subtraction games | Grundy/outcome sequence, proven period | dense solver, Grundy solver |
//! | [`staircase`] | staircase Nim | XOR of the odd stairs | Grundy values of the explored game |
//! | [`wythoff`] | Wythoff's game | `(⌊kφ⌋, ⌊kφ⌋ + k)`, exact integer arithmetic | exploring all piles ≤ 60 |
//! | [`hackenbush`] | Green Hackenbush on forests | colon principle | Grundy values of the explored game |
//! | [`domineering`] | Domineering on boards with holes (partizan) | canonical values by region, memoized under symmetry | published values; sums vs retrograde analysis |
//! | [`blue_red_hackenbush`] | Blue-Red(-Green) Hackenbush (partizan) | Berlekamp's rule on trees; canonical values by search on graphs | sign expansion; search; retrograde analysis |
//! | [`hackenbush_sum`] | Hackenbush pictures as sums of the parts that meet at the ground | fusion + colon principle (green), Berlekamp (blue-red trees), search (others) | the search of the whole picture |
//! | [`backsliding`] | Backsliding Toads and Frogs (loopy, partizan) | outcomes with draws by retrograde analysis; stoppers in simplest form | a round-by-round fixpoint; CGSuite's value of `ttt..fff` |
//! | [`fox_geese`] | Fox and Geese (loopy, partizan; every position a stopper) | stoppers in simplest form, one goose formation at a time | CGSuite's published values; the whole graph at once; the escape rule against play |
//! | [`toads_frogs`] | Toads and Frogs (partizan) | canonical values by search, memoized | sums vs retrograde analysis |
//! | [`tictactoe`] | tic-tac-toe | — (all four capabilities) | 5,478 positions, draw |
//! | [`cop_robber`] | cop and robber | dense un-move solver over [`pursuit`] | exploring; trees are cop-win |
//! | [`police_thief`] | policeman and thief (seed 001) | dense un-move solver over [`pursuit`] | seed 001's own graph construction |
//!
//! The checks live in each module's unit tests and in `tests/games.rs`.

#![deny(missing_docs)]

pub mod nim;
pub mod sum;

pub mod backsliding;
pub mod blue_red_hackenbush;
pub mod domineering;
pub mod fox_geese;
pub mod hackenbush;
pub mod hackenbush_sum;
pub mod staircase;
pub mod subtraction;
pub mod tictactoe;
pub mod toads_frogs;
pub mod wythoff;

pub mod cop_robber;
pub mod police_thief;
pub mod pursuit;
