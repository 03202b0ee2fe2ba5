//! PGSolver parity games and `paritysol` solutions: no panic on any input; a game that parses
//! is solved by both solvers and each answer passes the verifier.
#![no_main]

use libfuzzer_sys::fuzz_target;
use zermelo::parity::{self, Solver};

fuzz_target!(|data: &[u8]| {
    if let Ok(arena) = zermelo::io::parse_pgsolver(data, "fuzz") {
        if arena.vertex_count() <= 10_000 {
            for solver in Solver::ALL {
                let s = parity::solve(&arena, solver);
                assert!(parity::verify(&arena, &s).is_ok());
            }
        }
        let _ = zermelo::io::parse_paritysol(data, "fuzz", arena.vertex_count());
    }
    let _ = zermelo::io::parse_paritysol(data, "fuzz", 8);
});
