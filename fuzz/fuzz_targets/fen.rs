//! FEN: an accepted position prints back to a FEN that parses to the same position, and its
//! moves can be generated and played.
#![no_main]

use libfuzzer_sys::fuzz_target;
use zermelo_chess::Position;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    // The clock-keeping parse accepts exactly what the plain one accepts with a valid clock.
    if let Ok((position, clock)) = Position::from_fen_with_clock(text) {
        assert!(clock <= zermelo_chess::MAX_CLOCK);
        assert!(
            position.ep_square().is_none() || clock == 0,
            "a double push sets the clock to 0"
        );
    }
    let Ok(position) = Position::from_fen(text) else {
        return;
    };
    let again = Position::from_fen(&position.fen()).expect("a printed FEN parses");
    assert_eq!(again.fen(), position.fen());
    for m in position.legal_moves() {
        let _ = position.play(m);
    }
});
