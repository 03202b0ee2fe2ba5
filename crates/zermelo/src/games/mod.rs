//! Classic games and pursuit games, each with its closed form (where theory gives one) and a
//! [`Game`](crate::game::Game) implementation that the generic solvers check it against.

pub mod cop_robber;
pub mod hackenbush;
pub mod nim;
pub mod police_thief;
pub mod pursuit;
pub mod staircase;
pub mod subtraction;
pub mod sum;
pub mod tictactoe;
pub mod wythoff;
