//! Values in CGSuite notation: parsing never panics, and whatever parses prints to text that
//! parses back to the same value.
#![no_main]

use libfuzzer_sys::fuzz_target;
use zermelo::cgt::Value;

fuzz_target!(|data: &[u8]| {
    if data.len() > 256 {
        return; // keeps sums of big nimbers from timing out
    }
    if let Ok(text) = std::str::from_utf8(data) {
        if let Ok(v) = text.parse::<Value>() {
            let printed = v.to_string();
            let back: Value = printed.parse().expect("printed values parse");
            assert_eq!(back, v, "{printed}");
        }
    }
});
