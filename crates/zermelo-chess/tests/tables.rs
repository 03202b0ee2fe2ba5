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
    Value::Win(tb.table(m).unwrap().stats().longest[0].0)
        .moves()
        .unwrap()
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
        let s = tb.table(&m).unwrap().stats();
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
    let s = tb.table(&m).unwrap().stats();
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

/// Counts the positions of each outcome the slow way, from every placement of the pieces on
/// the board (no symmetry), and checks them against the table's symmetry-reduced counts, each
/// index weighted by the number of distinct positions it stands for.
fn counts_match_brute_force(name: &str) {
    use zermelo_chess::{Color, Piece, Role, Square};
    let (tb, m) = build(name);
    let table = tb.table(&m).unwrap();
    let ix = table.indexer();
    let symmetries: u8 = if ix.has_pawns() { 2 } else { 8 };
    let mut weighted = [[0u64; 3]; 2];
    for i in 0..ix.size() {
        let Some(pos) = ix.legal(i) else { continue };
        let mut images: Vec<String> = (0..symmetries)
            .map(|t| {
                let mut img = Position::empty(pos.turn());
                for (s, p) in pos.pieces() {
                    img.set(s.transform(t), Some(p));
                }
                img.fen()
            })
            .collect();
        images.sort();
        images.dedup();
        let side = usize::from(pos.turn() == Color::Black);
        let k = match table.value(i).unwrap() {
            Value::Win(_) => 0,
            Value::Loss(_) => 1,
            Value::Draw => 2,
        };
        weighted[side][k] += images.len() as u64;
    }
    // Brute force: every placement of the pieces, both sides to move, probed one by one.
    let mut pieces = vec![
        Piece {
            color: Color::White,
            role: Role::King,
        },
        Piece {
            color: Color::Black,
            role: Role::King,
        },
    ];
    for color in [Color::White, Color::Black] {
        for &role in m.side(color) {
            pieces.push(Piece { color, role });
        }
    }
    assert_eq!(pieces.len(), 3, "brute force is for 3 pieces");
    let mut brute = [[0u64; 3]; 2];
    for a in 0..64u8 {
        for b in 0..64u8 {
            for c in 0..64u8 {
                if a == b || b == c || a == c {
                    continue;
                }
                for turn in [Color::White, Color::Black] {
                    let mut pos = Position::empty(turn);
                    for (&s, &p) in [a, b, c].iter().zip(&pieces) {
                        pos.set(Square::new(s).unwrap(), Some(p));
                    }
                    let Ok(pos) = Position::from_fen(&pos.fen()) else {
                        continue;
                    };
                    let k = match tb.probe(&pos).unwrap() {
                        Value::Win(_) => 0,
                        Value::Loss(_) => 1,
                        Value::Draw => 2,
                    };
                    brute[turn as usize][k] += 1;
                }
            }
        }
    }
    assert_eq!(weighted, brute, "{name}");
    // And the table's own (reduced) counts are the same indices counted once.
    let reduced = table.stats().counts;
    for side in 0..2 {
        for k in 0..3 {
            assert!(reduced[side][k] <= weighted[side][k]);
            assert!(weighted[side][k] <= u64::from(symmetries) * reduced[side][k]);
        }
    }
}

#[test]
fn three_piece_counts_match_brute_force() {
    for name in ["KQvK", "KRvK", "KPvK", "KBvK", "KNvK"] {
        counts_match_brute_force(name);
    }
}

/// Published 5-piece maxima (longest DTM over both sides to move). Each needs its table and
/// dependencies: minutes to hours, so run by hand with
/// `cargo test --release -p zermelo-chess --test tables -- --ignored five_piece`.
fn longest_dtm_plies(name: &str) -> u32 {
    let (tb, m) = build(name);
    let table = tb.table(&m).unwrap();
    (0..table.indexer().size())
        .filter_map(|i| table.value(i).and_then(Value::plies))
        .max()
        .unwrap_or(0)
}

#[test]
#[ignore]
fn five_piece_kbnkn_longest_is_213_plies() {
    assert_eq!(longest_dtm_plies("KBNvKN"), 213);
}

#[test]
#[ignore]
fn five_piece_knnkp_longest_is_229_plies() {
    assert_eq!(longest_dtm_plies("KNNvKP"), 229);
}

#[test]
#[ignore]
fn five_piece_kppkp_longest_is_254_plies() {
    assert_eq!(longest_dtm_plies("KPPvKP"), 254);
}

#[test]
#[ignore]
fn five_piece_kqrkq_longest_is_134_plies() {
    assert_eq!(longest_dtm_plies("KQRvKQ"), 134);
}
