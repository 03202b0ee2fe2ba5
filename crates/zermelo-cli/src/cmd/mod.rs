//! One module per subcommand.

pub mod cgt;
pub mod convert;
pub mod game;
pub mod gen;
pub mod gen_parity;
pub mod grundy;
pub mod line;
pub mod parity;
pub mod serve;
pub mod solve;
pub mod solve_cluster;
pub mod tb;
pub mod tb_export;
pub mod tb_plan;
pub mod verify;
