//! Partizan edge lists (`n m0 m1`): no panic on any input.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = zermelo::io::parse_two_player(data, "fuzz");
});
