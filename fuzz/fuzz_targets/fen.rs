//! FEN: an accepted position prints back to a FEN that parses to the same position, and its
//! moves can be generated and played.
#![no_main]

use libfuzzer_sys::fuzz_target;
use zermelo_chess::Position;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(position) = Position::from_fen(text) else {
        return;
    };
    let again = Position::from_fen(&position.fen()).expect("a printed FEN parses");
    assert_eq!(again.fen(), position.fen());
    for m in position.legal_moves() {
        let _ = position.play(m);
    }
});
