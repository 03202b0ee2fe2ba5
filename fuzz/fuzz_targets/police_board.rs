//! Policeman-and-thief board files.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = zermelo_games::police_thief::Board::parse(data, "fuzz");
});
