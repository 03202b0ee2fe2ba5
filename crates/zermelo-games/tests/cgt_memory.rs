//! The memory limit of canonical-form computations (issue 20): a game whose forms and memo
//! tables would grow past it stops with `CgtError::TooBig` instead of growing. In its own test
//! binary, because the limit and the store of forms are process-wide.

use zermelo_cgt::{self as cgt, CgtError};
use zermelo_games::domineering::{Board, Domineering};
use zermelo_games::toads_frogs::{Strip, ToadsFrogs};

#[test]
fn a_game_past_the_memory_limit_stops_with_too_big_and_goes_on_under_a_larger_one() {
    // The empty 5x5 board values 16,456 regions: far more than 256 KiB of forms and memos.
    let board = Board::rectangle(5, 5).unwrap();
    cgt::set_memory_limit(Some(256 << 10));
    let err = Domineering::new().value(&board).unwrap_err();
    assert!(
        matches!(&err, CgtError::TooBig(m) if m.contains("memory limit of 0.2 MiB")),
        "{err}"
    );
    // The store did not run far past the limit: one region's growth at most.
    assert!(cgt::memory_used() < 8 << 20, "{}", cgt::memory_used());
    let toads = Strip::parse("TTTT____FFFF").unwrap();
    assert!(matches!(
        ToadsFrogs::new().value(&toads),
        Err(CgtError::TooBig(_))
    ));
    // Without a limit the same computations finish.
    cgt::set_memory_limit(None);
    assert!(Domineering::new().value(&board).is_ok());
    assert!(ToadsFrogs::new().value(&toads).is_ok());
    // A limit above what is in use lets small games through.
    cgt::set_memory_limit(Some(cgt::memory_used() + (64 << 20)));
    let small = Board::rectangle(3, 3).unwrap();
    assert!(Domineering::new().value(&small).is_ok());
}
