//! The 50-move rule: DTZ tables (WDL50 classes and distance to zeroing) against a brute force
//! over the halfmove clock, with a rule short enough that small tables have cursed wins and
//! blessed losses.
//!
//! The brute force knows nothing of DTZ: a state is a position and a clock; a checkmate is
//! lost and a stalemate drawn whatever the clock; any other position whose clock has reached
//! the rule is drawn; otherwise the side to move picks the best of its moves, a capture or pawn
//! move resetting the clock and any other move adding one ply. Captures and pawn moves are
//! irreversible, so the recursion ends (memoized per state). A table position's class at every
//! clock must be what the brute force finds, which pins down its DTZ whenever it is at most the
//! rule (a win at clock `c` exactly when `dtz + c <= rule`).

use std::collections::HashMap;

use zermelo_chess::{
    counts_as_syzygy, generate_pair, generate_with, GenError, GenOptions, Indexer, Lookahead,
    Material, Metric, Position, Role, Table, Tablebase, Value, Wdl50,
};

/// Brute-force results: +1 win, 0 draw, -1 loss for the side to move.
struct Brute {
    rule: u8,
    /// Each material met, with its indexer; the memo names a material by its place here.
    indexers: Vec<(Material, Indexer)>,
    memo: HashMap<(u8, u64, u8, u8), i8>,
}

impl Brute {
    fn new(rule: u8) -> Brute {
        Brute {
            rule,
            indexers: Vec::new(),
            memo: HashMap::new(),
        }
    }

    /// Identifies a position up to the board symmetries (the index's), with its en passant
    /// square, which the index does not hold.
    fn key(&mut self, pos: &Position) -> (u8, u64, u8) {
        let (canonical, flipped) = Material::of(pos).canonical();
        let oriented = if flipped { pos.flip_colors() } else { *pos };
        let k = match self.indexers.iter().position(|(m, _)| *m == canonical) {
            Some(k) => k,
            None => {
                let ix = Indexer::new(&canonical);
                self.indexers.push((canonical, ix));
                self.indexers.len() - 1
            }
        };
        let idx = self.indexers[k]
            .1
            .rank(&oriented)
            .expect("a legal position has an index");
        let ep = pos.ep_square().map_or(0, |s| s.index() as u8 + 1);
        (k as u8, idx, ep)
    }

    fn value(&mut self, pos: &Position, clock: u8) -> i8 {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return if pos.is_check() { -1 } else { 0 };
        }
        if clock >= self.rule || Material::of(pos).piece_count() == 2 {
            return 0;
        }
        let (m, idx, ep) = self.key(pos);
        let k = (m, idx, ep, clock);
        if let Some(&v) = self.memo.get(&k) {
            return v;
        }
        let mut best = -1;
        for mv in moves {
            let pawn = pos.piece_at(mv.from).is_some_and(|p| p.role == Role::Pawn);
            let next = if mv.capture || pawn { 0 } else { clock + 1 };
            best = best.max(-self.value(&pos.play(mv), next));
            if best == 1 {
                break;
            }
        }
        self.memo.insert(k, best);
        best
    }
}

/// Generates `target` and every table it depends on, DTM and DTZ under `rule`, in memory, one
/// metric at a time; `target`'s layers find their wins as `lookahead` says (its dependencies'
/// as the engine chooses).
fn build(target: &str, rule: u32, lookahead: Lookahead) -> (Tablebase, Material) {
    let tb = Tablebase::in_memory().with_rule(rule);
    let m: Material = target.parse().unwrap();
    for dep in Material::generation_order(std::slice::from_ref(&m)) {
        for metric in [Metric::Dtm, Metric::Dtz { rule }] {
            let options = GenOptions {
                metric,
                lookahead: if dep == m { lookahead } else { Lookahead::Auto },
                ..GenOptions::default()
            };
            let t = generate_with(&dep, &tb, &Default::default(), &options).unwrap();
            assert_eq!(t.metric(), metric);
            tb.insert(t);
        }
    }
    (tb, m)
}

/// Checks every position of `target` (or every `step`-th index) at every clock against the
/// brute force; returns how many positions of each class were seen on a fresh clock.
fn check_against_brute_force(target: &str, rule: u8, step: u64) -> [u64; 5] {
    // Wins pushed from every lost position, against the brute force.
    let (tb, m) = build(target, u32::from(rule), Lookahead::Never);
    let ix = Indexer::new(&m);
    let mut brute = Brute::new(rule);
    let mut seen = [0u64; 5];
    let mut idx = 0;
    while idx < ix.size() {
        if let Some(pos) = ix.legal(idx) {
            let dtz = tb.probe_dtz(&pos).unwrap();
            let dtm = tb.probe(&pos).unwrap();
            let class = Wdl50::of(dtz, u32::from(rule));
            seen[class as usize] += 1;
            // Without the rule the classes collapse onto depth to mate's outcome.
            let expected_dtm = match class {
                Wdl50::Win | Wdl50::CursedWin => matches!(dtm, Value::Win(_)),
                Wdl50::Loss | Wdl50::BlessedLoss => matches!(dtm, Value::Lose(_)),
                Wdl50::Draw => dtm == Value::Draw,
            };
            assert!(expected_dtm, "{} DTZ {dtz:?} but DTM {dtm:?}", pos.fen());
            for clock in 0..=rule {
                let with_clock = tb.probe_wdl50(&pos, u32::from(clock)).unwrap();
                let brute_value = brute.value(&pos, clock);
                let agrees = match brute_value {
                    1 => with_clock == Wdl50::Win,
                    -1 => with_clock == Wdl50::Loss,
                    _ => matches!(
                        with_clock,
                        Wdl50::Draw | Wdl50::CursedWin | Wdl50::BlessedLoss
                    ),
                };
                assert!(
                    agrees,
                    "{} clock {clock}: brute force {brute_value}, table {with_clock} (DTZ value {dtz:?})",
                    pos.fen()
                );
            }
        }
        idx += step;
    }
    seen
}

#[test]
fn krk_under_a_20_ply_rule_matches_the_clock_brute_force() {
    let seen = check_against_brute_force("KRvK", 20, 1);
    // KRvK's mates take up to 32 plies: a 20-ply rule curses some wins and blesses some
    // losses, so the test sees every class but the draw-free ones it must.
    assert!(seen[Wdl50::CursedWin as usize] > 0, "{seen:?}");
    assert!(seen[Wdl50::BlessedLoss as usize] > 0, "{seen:?}");
    assert!(seen[Wdl50::Win as usize] > 0 && seen[Wdl50::Loss as usize] > 0);
}

#[test]
fn kpk_under_a_10_ply_rule_matches_the_clock_brute_force() {
    // Pawn pushes and promotions zero the clock; the promoted tables (KQvK, KRvK, ...) are
    // DTZ tables of the same rule.
    let seen = check_against_brute_force("KPvK", 10, 1);
    assert!(seen[Wdl50::CursedWin as usize] > 0, "{seen:?}");
    assert!(seen[Wdl50::Draw as usize] > 0, "{seen:?}");
}

#[test]
#[ignore = "4-piece tables under a short rule: about a minute in release"]
fn kpkp_under_an_8_ply_rule_matches_the_clock_brute_force() {
    // En passant: a double push gives the opponent a capture one ply ahead.
    let seen = check_against_brute_force("KPvKP", 8, 97);
    assert!(seen[Wdl50::CursedWin as usize] > 0, "{seen:?}");
}

/// Asserts that two tables hold the same value at every index.
fn assert_same_entries(ours: &Table, reference: &Table, what: &str) {
    assert_eq!(ours.metric(), reference.metric(), "{what}");
    assert_eq!(ours.size(), reference.size(), "{what}");
    for idx in 0..ours.size() {
        assert_eq!(
            ours.value(idx).unwrap(),
            reference.value(idx).unwrap(),
            "{what}: index {idx}"
        );
    }
    // The statistics counted on the way to the compressor (told by the generator whether a
    // filler entry can be a position) are those of the entries read back, position by position.
    let mut bytes = Vec::new();
    ours.write_to(&mut bytes).unwrap();
    let read = Table::from_bytes(&bytes).unwrap();
    assert_eq!(
        ours.stats().unwrap(),
        read.stats().unwrap(),
        "{what}: stats"
    );
    assert_eq!(
        ours.stats().unwrap(),
        reference.stats().unwrap(),
        "{what}: stats"
    );
}

/// `generate_pair` (the DTZ groups seeded from the starts the DTM seeding records) gives the
/// tables the metric-by-metric generation gives, under a rule short enough for cursed wins
/// and blessed losses: in memory, and in a work folder killed after some DTZ groups and
/// resumed (the resumed DTZ groups whose DTM group was solved before the kill are seeded
/// without a log).
#[test]
fn pair_generation_gives_the_tables_of_one_metric_at_a_time() {
    for (target, rule) in [("KPvK", 6), ("KRvKP", 10), ("KBNvK", 12)] {
        // The reference pushes from every lost position; the pair chooses per layer.
        let (tb, m) = build(target, rule, Lookahead::Never);
        let reference_dtm = tb.table(&m).unwrap();
        let reference_dtz = tb.dtz_table(&m).unwrap();
        let deps = Tablebase::in_memory().with_rule(rule);
        let copy = |t: &Table| {
            let mut bytes = Vec::new();
            t.write_to(&mut bytes).unwrap();
            Table::from_bytes(&bytes).unwrap()
        };
        for d in Material::generation_order(std::slice::from_ref(&m)) {
            if d == m {
                continue;
            }
            deps.insert(copy(&tb.table(&d).unwrap()));
            deps.insert(copy(&tb.dtz_table(&d).unwrap()));
        }
        let pair = generate_pair(&m, &deps, &Default::default(), &GenOptions::default()).unwrap();
        assert_same_entries(&pair.dtm, &reference_dtm, &format!("{target} DTM"));
        assert_same_entries(&pair.dtz, &reference_dtz, &format!("{target} DTZ"));
        // Every layer's wins found by looking ahead: on the 3-piece table only, as looking
        // ahead from every open position of every layer takes 10-20 times as long as choosing
        // on the 4-piece ones (KRvKP 47.6 s against 4.9 s, KBNvK 38.3 s against 1.6 s, in the
        // test profile); the compact engine's property tests run every mode on random games.
        if target == "KPvK" {
            let always = GenOptions {
                lookahead: Lookahead::Always,
                ..GenOptions::default()
            };
            let pair = generate_pair(&m, &deps, &Default::default(), &always).unwrap();
            assert_same_entries(
                &pair.dtm,
                &reference_dtm,
                &format!("{target} DTM, lookahead"),
            );
            assert_same_entries(
                &pair.dtz,
                &reference_dtz,
                &format!("{target} DTZ, lookahead"),
            );
        }
        let stats = pair.dtz.stats().unwrap().wdl50.unwrap();
        let cursed: u64 = stats
            .counts
            .iter()
            .map(|c| c[Wdl50::CursedWin as usize])
            .sum();
        assert!(
            cursed > 0 || target == "KPvK",
            "{target}: no cursed win under {rule}"
        );
        if !Indexer::new(&m).has_pawns() {
            continue;
        }
        let dir = tempfile::tempdir().unwrap();
        let killed = GenOptions {
            work_dir: Some(dir.path().to_path_buf()),
            stop_after_groups: Some(2),
            ..GenOptions::default()
        };
        match generate_pair(&m, &deps, &Default::default(), &killed) {
            Err(GenError::Stopped(_, 2)) => {}
            other => panic!("{target}: expected a stop after 2 groups, got {other:?}"),
        }
        let resumed = GenOptions {
            stop_after_groups: None,
            ..killed
        };
        let pair = generate_pair(&m, &deps, &Default::default(), &resumed).unwrap();
        assert_same_entries(&pair.dtm, &reference_dtm, &format!("{target} DTM resumed"));
        assert_same_entries(&pair.dtz, &reference_dtz, &format!("{target} DTZ resumed"));
        // DTM ahead of DTZ (a DTM-only run killed after 3 groups): the pair finishes the DTZ
        // groups 0 to 2 without starts, then goes on in step.
        let dir = tempfile::tempdir().unwrap();
        let dtm_only = GenOptions {
            work_dir: Some(dir.path().to_path_buf()),
            stop_after_groups: Some(3),
            ..GenOptions::default()
        };
        assert!(matches!(
            generate_with(&m, &deps, &Default::default(), &dtm_only),
            Err(GenError::Stopped(_, 3))
        ));
        let resumed = GenOptions {
            stop_after_groups: None,
            ..dtm_only
        };
        let pair = generate_pair(&m, &deps, &Default::default(), &resumed).unwrap();
        assert_same_entries(&pair.dtm, &reference_dtm, &format!("{target} DTM ahead"));
        assert_same_entries(&pair.dtz, &reference_dtz, &format!("{target} DTZ behind"));
    }
}

#[test]
fn dtz_entries_survive_the_file_format() {
    let (tb, m) = build("KPvK", 100, Lookahead::Auto);
    let table = tb.dtz_table(&m).unwrap();
    let mut bytes = Vec::new();
    table.write_to(&mut bytes).unwrap();
    let read = zermelo_chess::Table::from_bytes(&bytes).unwrap();
    assert_eq!(read.metric(), Metric::Dtz { rule: 100 });
    for i in 0..table.size() {
        assert_eq!(read.value(i).unwrap(), table.value(i).unwrap(), "index {i}");
    }
    assert_eq!(read.stats().unwrap(), table.stats().unwrap());
    // A DTZ table where a DTM table is expected, and a table of another rule, are refused.
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("KPvK.zct"), &bytes).unwrap();
    let err = Tablebase::open(dir.path())
        .table(&m)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("a DTZ table where a DTM table is expected"),
        "{err}"
    );
    std::fs::write(dir.path().join("KPvK.zdz"), &bytes).unwrap();
    let err = Tablebase::open(dir.path())
        .with_rule(50)
        .dtz_table(&m)
        .unwrap_err()
        .to_string();
    assert!(err.contains("rule of 100 plies, expected 50"), "{err}");
}

/// Syzygy's statistics of every 3- and 4-piece table (syzygy-tables.info publishes the
/// generator's statistics files; these figures are the same files reproduced by building
/// Syzygy's generator, syzygy1/tb, here): material, side to move (0 white), the counts of
/// win, cursed win, draw, blessed loss and loss, the longest DTZ of a win and of a cursed win.
/// Syzygy counts positions with the same symmetry reduction as zermelo's index, except that it
/// tells identical pieces apart (KRRvK's two rooks): those tables are compared through
/// [`counts_as_syzygy`], which counts them so.
const SYZYGY_3_4: &[(&str, usize, [u64; 5], u32, u32)] = &[
    ("KQvK", 0, [18081, 0, 0, 0, 0], 19, 0),
    ("KQvK", 1, [0, 0, 2896, 0, 25160], 0, 0),
    ("KRvK", 0, [21959, 0, 0, 0, 0], 31, 0),
    ("KRvK", 1, [0, 0, 2796, 0, 25260], 0, 0),
    ("KBvK", 0, [0, 0, 24178, 0, 0], 0, 0),
    ("KBvK", 1, [0, 0, 28056, 0, 0], 0, 0),
    ("KNvK", 0, [0, 0, 25750, 0, 0], 0, 0),
    ("KNvK", 1, [0, 0, 28056, 0, 0], 0, 0),
    ("KPvK", 0, [62480, 0, 19184, 0, 0], 19, 0),
    ("KPvK", 1, [0, 0, 35210, 0, 48802], 0, 0),
    ("KQQvK", 0, [707175, 0, 0, 0, 0], 6, 0),
    ("KQQvK", 1, [0, 0, 35294, 0, 1672594], 0, 0),
    ("KQRvK", 0, [864052, 0, 0, 0, 0], 8, 0),
    ("KQRvK", 1, [0, 0, 17684, 0, 1690204], 0, 0),
    ("KQBvK", 0, [962339, 0, 0, 0, 0], 12, 0),
    ("KQBvK", 1, [0, 0, 160147, 0, 1547741], 0, 0),
    ("KQNvK", 0, [1030802, 0, 0, 0, 0], 14, 0),
    ("KQNvK", 1, [0, 0, 164666, 0, 1543222], 0, 0),
    ("KQPvK", 0, [3273697, 0, 0, 0, 0], 5, 0),
    ("KQPvK", 1, [0, 0, 145936, 0, 4978796], 0, 0),
    ("KRRvK", 0, [1040963, 0, 0, 0, 0], 10, 0),
    ("KRRvK", 1, [0, 0, 4900, 0, 1702988], 0, 0),
    ("KRBvK", 0, [1170995, 0, 0, 0, 0], 23, 0),
    ("KRBvK", 1, [0, 0, 150238, 0, 1557650], 0, 0),
    ("KRNvK", 0, [1238446, 0, 0, 0, 0], 23, 0),
    ("KRNvK", 1, [0, 0, 156789, 0, 1551099], 0, 0),
    ("KRPvK", 0, [3938586, 0, 0, 0, 0], 5, 0),
    ("KRPvK", 1, [0, 0, 125934, 0, 4998798], 0, 0),
    ("KBBvK", 0, [625902, 0, 644640, 0, 0], 37, 0),
    ("KBBvK", 1, [0, 0, 1004378, 0, 703510], 0, 0),
    ("KBNvK", 0, [1352913, 0, 6665, 0, 0], 65, 0),
    ("KBNvK", 1, [0, 0, 309147, 0, 1398741], 0, 0),
    ("KBPvK", 0, [4141811, 0, 174804, 0, 0], 25, 0),
    ("KBPvK", 1, [0, 0, 859923, 0, 4264809], 0, 0),
    ("KNNvK", 0, [154, 0, 1437574, 0, 0], 1, 0),
    ("KNNvK", 1, [0, 0, 1707858, 0, 30], 0, 0),
    ("KNPvK", 0, [4405320, 0, 169405, 0, 0], 25, 0),
    ("KNPvK", 1, [0, 0, 947832, 0, 4176900], 0, 0),
    ("KPPvK", 0, [3555030, 0, 58312, 0, 0], 14, 0),
    ("KPPvK", 1, [0, 0, 302686, 0, 3522058], 0, 0),
    ("KQvKQ", 0, [467214, 0, 646911, 0, 5091], 19, 0),
    ("KQvKQ", 1, [467214, 0, 646911, 0, 5091], 19, 0),
    ("KQvKR", 0, [1108111, 0, 8963, 0, 2142], 61, 0),
    ("KQvKR", 1, [386313, 0, 78518, 0, 883075], 5, 0),
    ("KQvKB", 0, [1115754, 0, 3462, 0, 0], 23, 0),
    ("KQvKB", 1, [0, 0, 342019, 0, 1137179], 0, 0),
    ("KQvKN", 0, [1111906, 0, 7310, 0, 0], 37, 0),
    ("KQvKN", 1, [0, 0, 305896, 0, 1261326], 0, 0),
    ("KQvKP", 0, [3349631, 0, 21317, 0, 20], 52, 0),
    ("KQvKP", 1, [385976, 0, 601733, 0, 3993795], 1, 0),
    ("KRvKR", 0, [392459, 0, 946389, 0, 9058], 7, 0),
    ("KRvKR", 1, [392459, 0, 946389, 0, 9058], 7, 0),
    ("KRvKB", 0, [473447, 0, 874459, 0, 0], 35, 0),
    ("KRvKB", 1, [0, 0, 1431462, 0, 47736], 0, 0),
    ("KRvKN", 0, [651492, 0, 696413, 0, 1], 53, 0),
    ("KRvKN", 1, [4, 0, 1396546, 0, 170672], 1, 0),
    ("KRvKP", 0, [3703102, 0, 340191, 0, 6727], 25, 0),
    ("KRvKP", 1, [816810, 0, 871949, 0, 3292745], 19, 0),
    ("KBvKB", 0, [52, 0, 1479132, 0, 14], 1, 0),
    ("KBvKB", 1, [52, 0, 1479132, 0, 14], 1, 0),
    ("KBvKN", 0, [2, 0, 1479195, 0, 1], 1, 0),
    ("KBvKN", 1, [5, 0, 1567216, 0, 1], 1, 0),
    ("KBvKP", 0, [104, 0, 4212608, 0, 232968], 1, 0),
    ("KBvKP", 1, [1174317, 0, 3807159, 0, 28], 7, 0),
    ("KNvKN", 0, [5, 0, 1567216, 0, 1], 1, 0),
    ("KNvKN", 1, [5, 0, 1567216, 0, 1], 1, 0),
    ("KNvKP", 0, [208, 0, 4095612, 0, 608446], 12, 0),
    ("KNvKP", 1, [1622140, 0, 3359329, 0, 35], 15, 0),
    ("KPvKP", 0, [1606514, 0, 1242545, 0, 868985], 21, 0),
    ("KPvKP", 1, [1606514, 0, 1242545, 0, 868985], 21, 0),
];

/// Tables with identical pieces (counted differently by Syzygy; see above).
fn has_identical_pieces(m: &str) -> bool {
    let (w, b) = m.split_once('v').unwrap();
    [w, b].iter().any(|side| {
        let mut roles: Vec<char> = side.chars().filter(|&c| c != 'K').collect();
        let n = roles.len();
        roles.dedup();
        roles.len() < n
    })
}

/// Syzygy's statistics of five 5-piece tables (the same source as [`SYZYGY_3_4`]).
const SYZYGY_5: &[(&str, usize, [u64; 5], u32, u32)] = &[
    ("KRBvKR", 0, [29291010, 2180, 41749233, 0, 34793], 99, 117),
    ("KRBvKR", 1, [691427, 0, 76713757, 675, 4137435], 7, 0),
    ("KRPvKR", 0, [158650355, 0, 78681546, 0, 972793], 69, 0),
    ("KRPvKR", 1, [49187154, 0, 133273976, 0, 62586644], 13, 0),
    ("KQRvKR", 0, [53076012, 0, 64126, 0, 16938], 30, 0),
    ("KQRvKR", 1, [206517, 0, 14397580, 0, 66939197], 3, 0),
    ("KRRvKR", 0, [63144462, 0, 450584, 0, 28108], 49, 0),
    ("KRRvKR", 1, [339968, 0, 27244172, 0, 53959154], 3, 0),
    ("KRNvKR", 0, [27446470, 0, 47417818, 0, 55444], 65, 0),
    ("KRNvKR", 1, [2579439, 0, 76323545, 0, 2640310], 9, 0),
];

/// Generates `targets` and their dependencies (DTM and DTZ, 50-move rule) in memory and
/// compares every table named in `reference` with its rows; returns how many rows matched,
/// and the tables.
fn compare_with_syzygy(
    targets: &[Material],
    reference: &[(&str, usize, [u64; 5], u32, u32)],
) -> (usize, Tablebase) {
    let tb = Tablebase::in_memory();
    let mut compared = 0;
    for m in Material::generation_order(targets) {
        // As `tb gen` makes them: both tables at once.
        let pair = generate_pair(&m, &tb, &Default::default(), &GenOptions::default()).unwrap();
        tb.insert(pair.dtm);
        tb.insert(pair.dtz);
        let name = m.to_string();
        let stats = tb.dtz_table(&m).unwrap().stats().unwrap();
        let dtm = tb.table(&m).unwrap().stats().unwrap();
        let w = stats.wdl50.expect("a DTZ table has WDL50 statistics");
        // The DTZ table's outcomes without the rule are the DTM table's.
        assert_eq!(stats.counts, dtm.counts, "{name}");
        // Read back from their files, the DTM table counted with the DTZ table telling its
        // holes (`tb stats`) and counted by unranking them agree; another material's DTZ
        // table is not taken for a twin.
        let read = |t: &Table| {
            let mut bytes = Vec::new();
            t.write_to(&mut bytes).unwrap();
            Table::from_bytes(&bytes).unwrap()
        };
        let (dtm_file, dtz_file) = (
            read(&tb.table(&m).unwrap()),
            read(&tb.dtz_table(&m).unwrap()),
        );
        assert_eq!(dtm_file.stats_with_twin(&dtz_file).unwrap(), dtm, "{name}");
        assert_eq!(dtm_file.stats().unwrap(), dtm, "{name}");
        if let Some(other) = m.successors().first() {
            let theirs = read(&tb.dtz_table(other).unwrap());
            assert_eq!(dtm_file.stats_with_twin(&theirs).unwrap(), dtm, "{name}");
        }
        for side in 0..2 {
            let Some(row) = reference.iter().find(|r| r.0 == name && r.1 == side) else {
                continue;
            };
            let [win, cursed, draw, blessed, loss] = row.2;
            let ours = w.counts[side];
            let theirs = [loss, blessed, draw, cursed, win];
            if !has_identical_pieces(&name) {
                assert_eq!(
                    ours, theirs,
                    "{name} side {side}: [loss, blessed, draw, cursed, win]"
                );
            } else {
                // Counted with the identical pieces told apart, as Syzygy counts them.
                let labelled = counts_as_syzygy(&tb, &m).unwrap()[side];
                assert_eq!(
                    labelled, theirs,
                    "{name} side {side}: [loss, blessed, draw, cursed, win], identical pieces labelled"
                );
            }
            assert_eq!(
                w.longest_dtz_win[side], row.3,
                "{name} side {side}: longest DTZ win"
            );
            assert_eq!(
                w.longest_dtz_cursed_win[side], row.4,
                "{name} side {side}: longest DTZ cursed win"
            );
            compared += 1;
        }
    }
    (compared, tb)
}

#[test]
fn every_3_and_4_piece_table_matches_syzygys_statistics() {
    let targets = Material::all_up_to(4);
    assert_eq!(targets.len(), 35);
    // No 3- or 4-piece table has a cursed win or a blessed loss under the 50-move rule: the
    // rows say so, and the comparison checks it.
    let (compared, tb) = compare_with_syzygy(&targets, SYZYGY_3_4);
    assert_eq!(compared, 70);
    moves_of_equal_dtz_value_go_by_depth_to_mate(&tb);
}

/// A mate in one and a pawn push that zeroes at once both have the best DTZ value (the next
/// zeroing comes after one ply); the mate is listed first (it was second, in UCI order, and
/// `tb line --metric dtz` and `/standard/mainline` pushed the pawn instead of mating), and so
/// for the losing side: among equal DTZ values the longest resistance to mate first.
fn moves_of_equal_dtz_value_go_by_depth_to_mate(tb: &Tablebase) {
    let mate_or_push = Position::from_fen("7k/8/6K1/P7/8/8/8/1R6 w - - 0 1").unwrap();
    let moves = tb.probe_moves_dtz(&mate_or_push).unwrap();
    assert_eq!(moves[0].mv.to_string(), "b1b8", "{moves:?}");
    assert_eq!(moves[0].value, moves[1].value, "{moves:?}");
    assert_eq!(moves[1].mv.to_string(), "a5a6", "{moves:?}");
    // Every run of equal values is ordered by depth to mate, best for the mover first, in
    // every position of a sample of KRPvK and KPvKP.
    for name in ["KRPvK", "KPvKP"] {
        let m: Material = name.parse().unwrap();
        let table = tb.table(&m).unwrap();
        let size = table.indexer().size();
        let mut checked = 0;
        for idx in (0..size).step_by(9973) {
            let Some(pos) = table.indexer().legal(idx) else {
                continue;
            };
            let moves = tb.probe_moves_dtz(&pos).unwrap();
            for pair in moves.windows(2) {
                assert!(pair[0].value >= pair[1].value, "{}", pos.fen());
                if pair[0].value == pair[1].value {
                    let mate = |mv| tb.probe(&pos.play(mv)).unwrap().for_parent();
                    assert!(mate(pair[0].mv) >= mate(pair[1].mv), "{}", pos.fen());
                }
            }
            checked += 1;
        }
        assert!(checked > 100, "{name}: {checked}");
    }
}

#[test]
#[ignore = "5-piece tables: KRBvKR alone takes 2 x 2 minutes on 2 cores; run in release"]
fn five_piece_tables_match_syzygys_statistics() {
    // KRBvKR is the first table with cursed wins and blessed losses.
    let names = ["KRBvKR", "KQRvKR", "KRRvKR", "KRNvKR", "KRPvKR"];
    let only = std::env::var("ZERMELO_DTZ_TABLES").ok();
    let targets: Vec<Material> = names
        .iter()
        .filter(|n| {
            only.as_deref()
                .is_none_or(|o| o.split(',').any(|x| x == **n))
        })
        .map(|n| n.parse().unwrap())
        .collect();
    assert_eq!(compare_with_syzygy(&targets, SYZYGY_5).0, 2 * targets.len());
}
