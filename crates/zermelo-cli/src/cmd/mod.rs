//! One module per subcommand.

pub mod convert;
pub mod game;
pub mod gen;
pub mod grundy;
pub mod line;
pub mod serve;
pub mod solve;
pub mod solve_cluster;
pub mod tb;
pub mod verify;
