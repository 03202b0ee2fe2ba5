//! Tic-tac-toe boards given with `--board`.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        let _ = zermelo_games::tictactoe::Board::parse(text);
    }
});
