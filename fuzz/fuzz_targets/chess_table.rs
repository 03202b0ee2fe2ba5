//! `.zct` chess tables: a damaged table is an error, and probing an accepted one never panics.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(table) = zermelo_chess::Table::from_bytes(data) {
        let size = table.indexer().size();
        for idx in [0, 1, size / 2, size.saturating_sub(1)] {
            if idx < size {
                let _ = table.value(idx);
            }
        }
    }
});
