//! AIGER circuits (ASCII and binary): no panic on any input; an accepted circuit written back
//! in either format reads as the same circuit.
#![no_main]

use libfuzzer_sys::fuzz_target;
use zermelo_synth::{parse_aiger, write_aiger};

fuzz_target!(|data: &[u8]| {
    if let Ok(aig) = parse_aiger(data, "fuzz") {
        for binary in [false, true] {
            let mut bytes = Vec::new();
            write_aiger(&mut bytes, &aig, binary, "").unwrap();
            assert_eq!(parse_aiger(&bytes, "again").unwrap(), aig);
        }
    }
});
