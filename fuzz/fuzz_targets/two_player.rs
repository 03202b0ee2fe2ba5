//! Partizan edge lists (`n m0 m1`) through the front door: no panic, and the declared counts
//! are checked against the memory limit before anything sized by them is allocated.
#![no_main]

use libfuzzer_sys::fuzz_target;
use zermelo::io::{open, InputFormat, LoadOptions, Source};
use zermelo::memory::Limit;

fuzz_target!(|data: &[u8]| {
    let options = LoadOptions {
        format: Some(InputFormat::TwoPlayer),
        memory: Limit::Bytes(256 << 20),
        ..LoadOptions::default()
    };
    if let Ok(game) = open(
        Source::Bytes {
            name: "fuzz",
            bytes: data,
        },
        &options,
    ) {
        let _ = game.solve();
    }
});
