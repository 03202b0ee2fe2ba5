//! `.zs` binary solutions.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let (nodes, bytes) = match data.split_first() {
        Some((&n, rest)) => (usize::from(n), rest),
        None => (0, data),
    };
    let _ = zermelo::io::binary::read_solution(bytes, "fuzz", nodes);
});
