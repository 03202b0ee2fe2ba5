//! Published facts about 3- and 4-man tables, each generating only the tables it needs.

use zermelo_chess::{
    generate, verify, Color, Material, Piece, Position, Role, Setup, Square, Table, Tablebase,
    Value,
};

/// Generates `target` and its dependencies in memory.
fn build(target: &str) -> (Tablebase, Material) {
    let tb = Tablebase::in_memory();
    let m: Material = target.parse().unwrap();
    for dep in Material::generation_order(std::slice::from_ref(&m)) {
        let t = generate(&dep, &tb, &Default::default()).unwrap();
        tb.insert(t);
    }
    (tb, m)
}

/// The column of a `[win, lose, draw]` count row that `v` falls in (the order of `tb stats`).
fn column(v: Value) -> usize {
    match v {
        Value::Win(_) => 0,
        Value::Lose(_) => 1,
        Value::Draw => 2,
    }
}

/// The 8 board symmetries as maps of square indices (a1 = 0): flip files, flip ranks, swap
/// files and ranks, and their combinations; with pawns only the first two (identity, mirror).
fn symmetries(pawns: bool) -> Vec<[u8; 64]> {
    let mut out = Vec::new();
    for t in 0..if pawns { 2 } else { 8 } {
        let mut map = [0u8; 64];
        for (s, image) in map.iter_mut().enumerate() {
            let (mut f, mut r) = (s as u8 % 8, s as u8 / 8);
            if t & 1 != 0 {
                f = 7 - f;
            }
            if t & 2 != 0 {
                r = 7 - r;
            }
            if t & 4 != 0 {
                std::mem::swap(&mut f, &mut r);
            }
            *image = r * 8 + f;
        }
        out.push(map);
    }
    out
}

/// Win, loss and draw counts per side to move over the legal positions of `m` up to symmetry,
/// found without the index: every placement of the pieces (equal pieces in increasing square
/// order) that is the least of its images under the board symmetries is one class; legality is
/// `Position::from_setup`'s, the value a probe's.
fn counts_by_enumeration(tb: &Tablebase, m: &Material) -> [[u64; 3]; 2] {
    let king = |color| Piece {
        color,
        role: Role::King,
    };
    let mut slots = vec![king(Color::White), king(Color::Black)];
    for color in [Color::White, Color::Black] {
        slots.extend(m.side(color).iter().map(|&role| Piece { color, role }));
    }
    let maps = symmetries(m.has_pawns());
    let mut counts = [[0u64; 3]; 2];
    let mut squares = vec![0u8; slots.len()];
    place(0, &slots, &maps, &mut squares, &mut |sq| {
        for (side, turn) in [Color::White, Color::Black].into_iter().enumerate() {
            let mut setup = Setup::empty();
            setup.turn = turn;
            for (&s, &p) in sq.iter().zip(&slots) {
                setup.set(Square::new(s).unwrap(), Some(p));
            }
            let Ok(pos) = Position::from_setup(setup) else {
                continue;
            };
            let k = column(tb.probe(&pos).unwrap());
            counts[side][k] += 1;
        }
    });
    counts
}

/// Places slot `i` onwards on free squares, calling `found` for each class representative.
fn place(
    i: usize,
    slots: &[Piece],
    maps: &[[u8; 64]],
    sq: &mut Vec<u8>,
    found: &mut dyn FnMut(&[u8]),
) {
    if i == slots.len() {
        if is_least_image(slots, maps, sq) {
            found(sq);
        }
        return;
    }
    let pawn = slots[i].role == Role::Pawn;
    let first = if i > 0 && slots[i - 1] == slots[i] {
        sq[i - 1] + 1
    } else {
        0
    };
    for s in first..64 {
        if (pawn && !(8..56).contains(&s)) || sq[..i].contains(&s) {
            continue;
        }
        sq[i] = s;
        place(i + 1, slots, maps, sq, found);
    }
}

/// Whether no symmetry maps the placement to a smaller one (equal pieces sorted).
fn is_least_image(slots: &[Piece], maps: &[[u8; 64]], sq: &[u8]) -> bool {
    let mut image = sq.to_vec();
    maps.iter().all(|map| {
        for (d, &s) in image.iter_mut().zip(sq) {
            *d = map[s as usize];
        }
        let mut i = 0;
        while i < slots.len() {
            let j = (i..slots.len())
                .find(|&j| slots[j] != slots[i])
                .unwrap_or(slots.len());
            image[i..j].sort_unstable();
            i = j;
        }
        image.as_slice() >= sq
    })
}

/// `tb stats`' counts equal those of an enumeration that does not use the index.
fn assert_counts_by_enumeration(tb: &Tablebase, m: &Material) {
    let stats = tb.table(m).unwrap().stats().unwrap();
    assert_eq!(stats.counts, counts_by_enumeration(tb, m), "{m}");
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
    assert_counts_by_enumeration(&tb, &m);
    // Syzygy's published statistics for KQvK count positions the same way (once up to
    // symmetry, legal ones only): white to move wins 18,081; black to move loses 25,160 and
    // draws 2,896 (stalemates and the queen taken).
    let s = tb.table(&m).unwrap().stats().unwrap();
    assert_eq!(s.counts, [[18_081, 0, 0], [0, 25_160, 2_896]]);
    let (win, loss) = (s.longest_win[0].unwrap(), s.longest_loss[1].unwrap());
    assert_eq!((win.plies, win.positions), (19, 1));
    assert_eq!((loss.plies, loss.positions), (20, 8));
    assert_eq!((s.longest_loss[0], s.longest_win[1]), (None, None));
    assert_eq!(verify(&m, &tb).unwrap(), None);
}

#[test]
fn krk_mates_in_at_most_16() {
    let (tb, m) = build("KRvK");
    assert_eq!(longest_mate_moves(&tb, &m), 16);
    assert_counts_by_enumeration(&tb, &m);
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
    for dep in Material::generation_order(std::slice::from_ref(&m)) {
        assert_counts_by_enumeration(&tb, &dep);
    }
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
        assert_counts_by_enumeration(&tb, &m);
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
    assert_counts_by_enumeration(&tb, &m);
}

#[test]
fn kbnk_mates_in_at_most_33_and_wins_almost_everywhere() {
    let (tb, m) = build("KBNvK");
    assert_eq!(longest_mate_moves(&tb, &m), 33);
    assert_counts_by_enumeration(&tb, &m);
    let s = tb.table(&m).unwrap().stats().unwrap();
    // White to move: the draws are the positions where black takes a piece or is stalemated.
    let [win, _, draw] = s.counts[0];
    assert!(draw * 100 < win, "{win} wins, {draw} draws");
}

#[test]
fn kbbk_mates_in_at_most_19() {
    let (tb, m) = build("KBBvK");
    assert_eq!(longest_mate_moves(&tb, &m), 19);
    assert_counts_by_enumeration(&tb, &m);
}

#[test]
fn krkn_mates_in_at_most_40_and_verifies() {
    let (tb, m) = build("KRvKN");
    assert_eq!(longest_mate_moves(&tb, &m), 40);
    assert_counts_by_enumeration(&tb, &m);
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
    let (tb, m) = build(name);
    let table = tb.table(&m).unwrap();
    let ix = table.indexer();
    let symmetries: u8 = if ix.has_pawns() { 2 } else { 8 };
    let mut weighted = [[0u64; 3]; 2];
    for i in 0..ix.size() {
        let Some(pos) = ix.legal(i) else { continue };
        let mut images: Vec<String> = (0..symmetries)
            .map(|t| {
                let mut img = Setup::empty();
                img.turn = pos.turn();
                for (s, p) in pos.pieces() {
                    img.set(s.transform(t), Some(p));
                }
                Position::from_setup(img).unwrap().fen()
            })
            .collect();
        images.sort();
        images.dedup();
        let side = usize::from(pos.turn() == Color::Black);
        let k = column(table.value(i).unwrap().unwrap());
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
                    let mut setup = Setup::empty();
                    setup.turn = turn;
                    for (&s, &p) in [a, b, c].iter().zip(&pieces) {
                        setup.set(Square::new(s).unwrap(), Some(p));
                    }
                    let Ok(pos) = Position::from_setup(setup) else {
                        continue;
                    };
                    let k = column(tb.probe(&pos).unwrap());
                    brute[turn as usize][k] += 1;
                }
            }
        }
    }
    assert_eq!(weighted, brute, "{name}");
    // And the table's own (reduced) counts are the same indices counted once.
    let reduced = table.stats().unwrap().counts;
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
    let s = tb.table(&m).unwrap().stats().unwrap();
    s.longest_win
        .iter()
        .chain(&s.longest_loss)
        .flatten()
        .map(|l| l.plies)
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
