//! PGSolver parity games and `paritysol` solutions: no panic on any input; a game that parses
//! is solved (by both solvers when small) and each answer passes the verifier.
#![no_main]

use libfuzzer_sys::fuzz_target;
use zermelo_parity::{self as parity, Solver};

fuzz_target!(|data: &[u8]| {
    if let Ok(arena) = zermelo_parity::io::parse_pgsolver(data, "fuzz") {
        // Zielonka is exponential on some families: only on games too small to matter.
        let solvers: &[Solver] = match arena.vertex_count() {
            0..=64 => &Solver::ALL,
            _ => &[Solver::PriorityPromotion],
        };
        for &solver in solvers {
            let s = parity::solve(&arena, solver);
            assert!(parity::verify(&arena, &s).is_ok());
        }
        let _ = zermelo_parity::io::parse_paritysol(data, "fuzz", arena.vertex_count());
    }
    let _ = zermelo_parity::io::parse_paritysol(data, "fuzz", 8);
});
