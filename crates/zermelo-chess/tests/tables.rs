//! Published facts about 3- and 4-man tables, each generating only the tables it needs.

use std::sync::atomic::AtomicU64;

use zermelo_chess::{generate, verify, Material, Position, Table, Tablebase, Value};

/// Generates `target` and its dependencies in memory.
fn build(target: &str) -> (Tablebase, Material) {
    let tb = Tablebase::in_memory();
    let m: Material = target.parse().unwrap();
    for dep in Material::generation_order(std::slice::from_ref(&m)) {
        let t = generate(&dep, &tb, &AtomicU64::new(0)).unwrap();
        tb.insert(t);
    }
    (tb, m)
}

/// The longest mate with the stronger side (white) to move, in moves.
fn longest_mate_moves(tb: &Tablebase, m: &Material) -> u32 {
    let s = tb.table(m).unwrap().stats().unwrap();
    Value::Win(s.longest_win[0].unwrap().plies).moves().unwrap()
}

#[test]
fn kqk_mates_in_at_most_10() {
    let (tb, m) = build("KQvK");
    assert_eq!(longest_mate_moves(&tb, &m), 10);
    assert_eq!(verify(&m, &tb).unwrap(), None);
}

#[test]
fn krk_mates_in_at_most_16() {
    let (tb, m) = build("KRvK");
    assert_eq!(longest_mate_moves(&tb, &m), 16);
    assert_eq!(verify(&m, &tb).unwrap(), None);
    let pos = Position::from_fen("k7/8/1K6/8/8/8/8/7R w - - 0 1").unwrap();
    assert_eq!(tb.probe(&pos).unwrap(), Value::Win(1));
    let best = tb.probe_moves(&pos).unwrap()[0];
    assert_eq!(
        (best.0.to_string(), best.1),
        ("h1h8".to_string(), Value::Win(1))
    );
}

#[test]
fn kpk_mates_in_at_most_28() {
    let (tb, m) = build("KPvK");
    assert_eq!(longest_mate_moves(&tb, &m), 28);
    assert_eq!(verify(&m, &tb).unwrap(), None);
}

#[test]
fn minor_pieces_alone_draw() {
    for name in ["KNvK", "KBvK"] {
        let (tb, m) = build(name);
        let s = tb.table(&m).unwrap().stats().unwrap();
        assert_eq!(
            s.counts[0][0] + s.counts[0][1] + s.counts[1][0] + s.counts[1][1],
            0,
            "{name}"
        );
        assert_eq!(verify(&m, &tb).unwrap(), None);
    }
}

#[test]
fn corrupt_files_are_errors() {
    let (tb, m) = build("KNvK");
    let mut bytes = Vec::new();
    tb.table(&m).unwrap().write_to(&mut bytes).unwrap();
    assert!(Table::from_bytes(&bytes).is_ok());
    assert!(Table::from_bytes(&bytes[..bytes.len() - 1]).is_err());
    let mut flipped = bytes.clone();
    flipped[100] ^= 1;
    assert!(Table::from_bytes(&flipped)
        .unwrap_err()
        .to_string()
        .contains("checksum"));
    assert!(Table::from_bytes(b"not a table").is_err());
}

#[test]
fn kqkr_mates_in_at_most_35() {
    let (tb, m) = build("KQvKR");
    assert_eq!(longest_mate_moves(&tb, &m), 35);
}

#[test]
fn kbnk_mates_in_at_most_33_and_wins_almost_everywhere() {
    let (tb, m) = build("KBNvK");
    assert_eq!(longest_mate_moves(&tb, &m), 33);
    let s = tb.table(&m).unwrap().stats().unwrap();
    // White to move: the draws are the positions where black takes a piece or is stalemated.
    let [win, _, draw] = s.counts[0];
    assert!(draw * 100 < win, "{win} wins, {draw} draws");
}

#[test]
fn kbbk_mates_in_at_most_19() {
    let (tb, m) = build("KBBvK");
    assert_eq!(longest_mate_moves(&tb, &m), 19);
}

#[test]
fn krkn_mates_in_at_most_40_and_verifies() {
    let (tb, m) = build("KRvKN");
    assert_eq!(longest_mate_moves(&tb, &m), 40);
    assert_eq!(verify(&m, &tb).unwrap(), None);
}

/// Needs KPvKP and the 13 tables it depends on (about 3 minutes in the test profile):
/// `cargo test -p zermelo-chess -- --ignored`.
#[test]
#[ignore]
fn en_passant_is_probed_one_ply_ahead() {
    let (tb, _) = build("KPvKP");
    // Black just played d7d5; exd6 e.p. is the only way to stop the d-pawn.
    let with_ep = Position::from_fen("8/8/8/3pP3/8/8/k7/7K w - d6 0 1").unwrap();
    let best = tb.probe_moves(&with_ep).unwrap()[0];
    assert_eq!(best.0.to_string(), "e5d6");
    assert_eq!(tb.probe(&with_ep).unwrap(), best.1);
    let m: Material = "KPvKP".parse().unwrap();
    assert_eq!(verify(&m, &tb).unwrap(), None);
}
