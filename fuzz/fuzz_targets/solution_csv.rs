//! Solution CSV files as `zermelo verify` reads them.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let (nodes, text) = match data.split_first() {
        Some((&n, rest)) => (usize::from(n), rest),
        None => (0, data),
    };
    let _ = zermelo::io::parse_solution_csv(text, "fuzz", nodes);
});
