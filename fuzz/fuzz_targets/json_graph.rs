//! JSON graphs through the front door: no panic, and nothing sized by the input is allocated
//! before its declared counts pass the memory limit.
#![no_main]

use libfuzzer_sys::fuzz_target;
use zermelo::io::{open, InputFormat, LoadOptions, Source};
use zermelo::memory::Limit;

fuzz_target!(|data: &[u8]| {
    let options = LoadOptions {
        format: Some(InputFormat::Json),
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
        // Whatever was accepted solves.
        let _ = game.solve();
    }
});
