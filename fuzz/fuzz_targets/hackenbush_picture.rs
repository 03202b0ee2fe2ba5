//! Blue-Red-Green Hackenbush edge lists: parsing never panics; small pictures are valued.
#![no_main]

use libfuzzer_sys::fuzz_target;
use zermelo_games::blue_red_hackenbush::Picture;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        if let Ok(p) = Picture::parse_edges(text) {
            if p.edge_count() <= 10 {
                let _ = p.value();
            }
        }
    }
});
