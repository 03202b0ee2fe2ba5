//! JSON graphs: no panic, no allocation sized by an unchecked count.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = zermelo::io::parse_json_graph(data, "fuzz");
});
