//! One module per subcommand.

pub mod cgt;
pub mod cgt_load;
pub mod cgt_loopy;
pub mod cgt_thermograph;
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
pub mod synth;
pub mod tables;
pub mod tb;
pub mod tb_export;
pub mod tb_plan;
pub mod tb_verify;
pub mod verify;
