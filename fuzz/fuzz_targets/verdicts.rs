//! Verdict files (`node outcome`, and the two-player `position player outcome`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    // The first byte picks the graph size the verdicts are checked against.
    let (nodes, text) = match data.split_first() {
        Some((&n, rest)) => (usize::from(n), rest),
        None => (0, data),
    };
    let _ = zermelo::io::parse_verdicts(text, "fuzz", nodes);
    let _ = zermelo::io::parse_two_player_verdicts(text, "fuzz", nodes);
});
