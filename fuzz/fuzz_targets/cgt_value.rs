//! Values in CGSuite notation: parsing never panics, and whatever parses prints to text that
//! parses back to the same value; the same for the loopy notation's stoppers (short inputs).
#![no_main]

use libfuzzer_sys::fuzz_target;
use zermelo_cgt::loopy::{is_loopy_text, parse_loopy, LoopyExpr, Stopper};
use zermelo_cgt::{Value, NOTATION_WORK};

fuzz_target!(|data: &[u8]| {
    if data.len() > 256 {
        return; // keeps sums of big nimbers from timing out
    }
    if let Ok(text) = std::str::from_utf8(data) {
        if is_loopy_text(text) && data.len() <= 48 {
            if let Ok(LoopyExpr::Game { graph, node }) = parse_loopy(text) {
                if let Ok(s) = Stopper::new(&graph, node) {
                    let printed = s.to_string();
                    let Ok(LoopyExpr::Game { graph, node }) = parse_loopy(&printed) else {
                        panic!("printed stoppers parse: {printed}");
                    };
                    let back = Stopper::new(&graph, node).expect("a printed stopper is one");
                    assert!(back.leq(&s).unwrap() && s.leq(&back).unwrap(), "{printed}");
                }
            }
            return;
        }
        // A tenth of the notation's work limit (a million sums and comparisons, ~40 ms): at
        // the full limit an input that runs up to it takes 0.4 s, and a ten-second run spent
        // itself on the few such inputs of the corpus (17 runs in 3 s).
        if let Ok(v) = Value::parse_with_work_limit(text, Some(NOTATION_WORK / 10)) {
            let printed = v.to_string();
            let back: Value = printed.parse().expect("printed values parse");
            assert_eq!(back, v, "{printed}");
        }
    }
});
