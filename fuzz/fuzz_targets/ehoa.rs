//! SYNTCOMP extended-HOA parity automata: no panic on any input; an automaton that parses gives
//! a game that (up to 10^5 vertices) is solved and whose answer passes the verifier.
#![no_main]

use libfuzzer_sys::fuzz_target;
use zermelo_parity::{self as parity, Solver};

fuzz_target!(|data: &[u8]| {
    if let Ok(arena) = zermelo_parity::io::parse_ehoa(data, "fuzz") {
        if arena.vertex_count() > 100_000 {
            return;
        }
        let s = parity::solve(&arena, Solver::Auto);
        assert!(parity::verify(&arena, &s).is_ok());
    }
});
