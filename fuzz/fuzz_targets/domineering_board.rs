//! Domineering boards: parsing never panics; boards of up to 12 empty cells are valued.
#![no_main]

use libfuzzer_sys::fuzz_target;
use zermelo_games::domineering::{Board, Domineering};

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        if let Ok(board) = Board::parse(text) {
            if board.empty_cells() <= 12 {
                let _ = Domineering::new().value(&board);
            }
        }
    }
});
