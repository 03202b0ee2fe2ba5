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
    // A larger answer file may be given (scripts/syzygy-oracle.py DIR N writes one).
    let csv = match std::env::var("ZERMELO_SYZYGY_ORACLE") {
        Ok(path) => std::fs::read_to_string(path).unwrap(),
        Err(_) => include_str!("data/syzygy-oracle.csv").to_string(),
    };
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
    eprintln!("{checked} positions as python-chess answers them");
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

/// zermelo's DTZ tables (50-move rule) of every 3- and 4-piece material, generated in memory.
fn zermelo_tables() -> (zermelo_chess::Tablebase, Vec<zermelo_chess::Material>) {
    use zermelo_chess::{generate_with, GenOptions, Material, Metric, Tablebase};
    let tb = Tablebase::in_memory();
    let all = Material::all_up_to(4);
    let options = GenOptions {
        metric: Metric::Dtz { rule: 100 },
        ..GenOptions::default()
    };
    for m in &all {
        let t = generate_with(m, &tb, &Default::default(), &options).unwrap();
        tb.insert(t);
    }
    (tb, all)
}

/// Positions per material compared with zermelo's tables: `ZERMELO_SYZYGY_SAMPLE` (0 = every
/// position), 40,000 by default (every position of the 3-piece tables).
fn sample_size() -> u64 {
    std::env::var("ZERMELO_SYZYGY_SAMPLE")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(40_000)
}

#[test]
fn zermelo_tables_agree_with_syzygy() {
    use std::collections::BTreeMap;
    use zermelo_chess::dtz::syzygy_dtz;
    use zermelo_chess::Indexer;
    let Some(syz) = tables() else { return };
    let started = std::time::Instant::now();
    let (tb, all) = zermelo_tables();
    eprintln!("generated {} tables in {:?}", all.len(), started.elapsed());
    let sample = sample_size();
    // (precise, sign of the DTZ, Syzygy's minus zermelo's): how often each case occurs.
    let mut seen: BTreeMap<(bool, i32, i32), u64> = BTreeMap::new();
    let mut total = 0u64;
    for m in &all {
        let ix = Indexer::new(m);
        // Every position when the sample is 0.
        let stride = ix.size().checked_div(sample).map_or(1, |s| s.max(1));
        let mut idx = 0;
        while idx < ix.size() {
            if let Some(pos) = ix.legal(idx) {
                let ours = tb.probe_dtz(&pos).unwrap();
                let class = tb.probe_wdl50(&pos, 0).unwrap();
                let wdl = syz.probe_wdl(&pos).unwrap();
                assert_eq!(wdl, class, "{m} {}", pos.fen());
                let z = syzygy_dtz(ours);
                let s = syz.probe_dtz(&pos).unwrap();
                assert!(
                    dtz_agrees(z, s),
                    "{m} {}: zermelo {z}, Syzygy {s:?}",
                    pos.fen()
                );
                *seen
                    .entry((s.precise, z.signum(), s.plies - z))
                    .or_default() += 1;
                total += 1;
            }
            idx += stride;
        }
    }
    eprintln!("{total} positions in {:?}: {seen:?}", started.elapsed());
    assert!(total >= 500_000, "{total}");
}

/// Syzygy's DTZ `s` against zermelo's exact one `z` (python-chess's and lichess's sign
/// convention, 100 added past the rule): a precise value is equal; a rounded one (stored in
/// moves) is equal or one ply closer to zero, never of another sign:
/// `s == z || s == z - signum(z)`, with `s != 0` exactly when `z != 0`.
fn dtz_agrees(z: i32, s: zermelo_chess::SyzygyDtz) -> bool {
    if s.precise {
        s.plies == z
    } else {
        z != 0 && (s.plies == z || s.plies == z - z.signum())
    }
}

/// A temporary directory holding copies of `names` from the published tables.
fn copies(dir: &std::path::Path, names: &[&str]) -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    for name in names {
        std::fs::copy(dir.join(name), tmp.path().join(name)).unwrap();
    }
    tmp
}

/// White to move, no capture possible: only KRvK's own tables are read.
const KRK: &str = "8/8/8/8/8/2k5/8/K6R w - - 0 1";

fn probe_both(dir: &std::path::Path) -> Result<(), zermelo_chess::SyzygyError> {
    let tb = SyzygyTables::open(&[dir.to_path_buf()])?;
    let pos = Position::from_fen(KRK).unwrap();
    tb.probe_wdl(&pos)?;
    tb.probe_dtz(&pos)?;
    Ok(())
}

#[test]
fn truncated_tables_are_errors_naming_the_file() {
    let Some(dir) = table_dir() else { return };
    for name in ["KRvK.rtbw", "KRvK.rtbz"] {
        let bytes = std::fs::read(dir.join(name)).unwrap();
        let tmp = copies(&dir, &["KRvK.rtbw", "KRvK.rtbz"]);
        assert!(probe_both(tmp.path()).is_ok());
        // Every length short of the whole file.
        let mut checksum = 0;
        for len in 0..bytes.len() {
            std::fs::write(tmp.path().join(name), &bytes[..len]).unwrap();
            let err = probe_both(tmp.path()).expect_err(&format!("{name} cut to {len} bytes"));
            assert!(err.to_string().contains(name), "{err}");
            checksum += usize::from(err.to_string().contains("checksum"));
        }
        // Cuts of a plausible length (64k + 16 bytes) are caught by the checksum.
        assert!(checksum > 0, "{name}");
    }
}

#[test]
fn wrong_magic_numbers_are_named() {
    let Some(dir) = table_dir() else { return };
    let tmp = copies(&dir, &["KRvK.rtbw", "KRvK.rtbz"]);
    let path = tmp.path().join("KRvK.rtbw");
    let bytes = std::fs::read(&path).unwrap();
    let cases: [(&[u8], &str); 4] = [
        (&[0x8e, 0x17, 0xdc, 0xa2], "bad magic number"),
        (&[0x55, 0x8d, 0xa4, 0x49], "atomic"),
        (&[0x7b, 0xf6, 0x93, 0x15], "suicide"),
        (
            &[0xd7, 0x66, 0x0c, 0xa5],
            "a DTZ table where a WDL table is expected",
        ),
    ];
    for (magic, expected) in cases {
        let mut bad = bytes.clone();
        bad[..4].copy_from_slice(magic);
        std::fs::write(&path, &bad).unwrap();
        let err = probe_both(tmp.path()).unwrap_err().to_string();
        assert!(err.contains(expected) && err.contains("KRvK.rtbw"), "{err}");
    }
    std::fs::write(&path, b"").unwrap();
    let err = probe_both(tmp.path()).unwrap_err().to_string();
    assert!(
        err.contains("0 bytes") && err.contains("KRvK.rtbw"),
        "{err}"
    );
}

#[test]
fn a_directory_or_a_fifo_at_a_tables_name_is_refused() {
    let Some(dir) = table_dir() else { return };
    let tmp = copies(&dir, &["KRvK.rtbz"]);
    let path = tmp.path().join("KRvK.rtbw");
    std::fs::create_dir(&path).unwrap();
    let err = probe_both(tmp.path()).unwrap_err().to_string();
    assert!(
        err.contains("a directory") && err.contains("KRvK.rtbw"),
        "{err}"
    );
    std::fs::remove_dir(&path).unwrap();
    let made = std::process::Command::new("mkfifo").arg(&path).status();
    if made.is_ok_and(|s| s.success()) {
        let err = probe_both(tmp.path()).unwrap_err().to_string();
        assert!(err.contains("FIFO") && err.contains("KRvK.rtbw"), "{err}");
    } else {
        eprintln!("no mkfifo here: the FIFO case is skipped");
    }
}

#[test]
fn a_missing_table_names_its_material() {
    let tmp = tempfile::tempdir().unwrap();
    let err = probe_both(tmp.path()).unwrap_err().to_string();
    assert!(err.contains("KRvK.rtbw"), "{err}");
    // The table a capture needs is named too (KQvKR here: the rook may take the queen, into KRvK).
    let Some(dir) = table_dir() else { return };
    let only = copies(&dir, &["KQvKR.rtbw"]);
    let tb = SyzygyTables::open(&[only.path().to_path_buf()]).unwrap();
    let pos = Position::from_fen("8/8/8/8/8/2k5/8/KQ5r b - - 0 1").unwrap();
    let err = tb.probe_wdl(&pos).unwrap_err().to_string();
    assert!(err.contains("KRvK.rtbw"), "{err}");
    assert!(SyzygyTables::open(&[only.path().join("nowhere")]).is_err());
}

/// Bytes overwritten at random (a seeded generator) in every part of small tables: probes
/// return values or errors, never panic.
#[test]
fn a_damaged_byte_fails_the_checksum_naming_the_file() {
    let Some(dir) = table_dir() else { return };
    for name in ["KRvK.rtbw", "KRvK.rtbz"] {
        let tmp = copies(&dir, &["KRvK.rtbw", "KRvK.rtbz"]);
        let path = tmp.path().join(name);
        let mut bytes = std::fs::read(&path).unwrap();
        // A byte of the compressed data, well past the headers: only the checksum sees it.
        let at = bytes.len() / 2;
        bytes[at] ^= 0x10;
        std::fs::write(&path, &bytes).unwrap();
        let e = probe_both(tmp.path()).unwrap_err().to_string();
        assert!(e.contains(name) && e.contains("checksum"), "{e}");
    }
}

#[test]
fn scrambled_tables_never_panic() {
    let Some(dir) = table_dir() else { return };
    let names = ["KRvK.rtbw", "KRvK.rtbz", "KPvK.rtbw", "KPvK.rtbz"];
    let positions = [
        "8/8/8/8/8/2k5/8/K6R w - - 0 1",
        "8/8/8/8/8/2k5/8/K6R b - - 0 1",
        "8/8/3k4/8/8/4P3/8/4K3 w - - 0 1",
        "8/8/3k4/8/8/4P3/8/4K3 b - - 0 1",
        "8/8/8/8/3k4/8/1P6/7K w - - 0 1",
    ];
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    for round in 0..300 {
        let tmp = copies(&dir, &names);
        let name = names[round % names.len()];
        let path = tmp.path().join(name);
        let mut bytes = std::fs::read(&path).unwrap();
        // Mostly the headers, where the offsets and sizes are.
        for _ in 0..1 + next() % 4 {
            let span = if next() % 4 == 0 {
                bytes.len()
            } else {
                256.min(bytes.len())
            };
            let at = (next() % span as u64) as usize;
            bytes[at] = next() as u8;
        }
        // Half of the rounds sealed with the right checksum, so that the parser sees them.
        if round % 2 == 0 {
            let body = bytes.len() - 16;
            let sum = zermelo_chess::syzygy::syzygy_checksum(&bytes[..body]);
            bytes[body..].copy_from_slice(&sum);
        }
        std::fs::write(&path, &bytes).unwrap();
        let tb = SyzygyTables::open(&[tmp.path().to_path_buf()]).unwrap();
        for fen in positions {
            let pos = Position::from_fen(fen).unwrap();
            let _ = tb.probe_wdl(&pos);
            let _ = tb.probe_dtz(&pos);
        }
    }
}

/// The tablebase of a Syzygy directory (`Tablebase::dtz_of`, `wdl_of`, `answer`: what the
/// command line, the server and Python ask) gives python-chess's numbers on the oracle's
/// positions, and its answers agree with those of zermelo's own tables: the same classes and
/// moves, the DTZ within Syzygy's rounding, the same best moves' values up to it.
#[test]
fn a_tablebase_of_syzygy_files_answers_as_python_chess_and_as_zermelo() {
    use zermelo_chess::{Category, Tablebase};
    let Some(dir) = table_dir() else { return };
    // SAFETY: the published tables are not written while the test runs.
    #[allow(unsafe_code)]
    let syz = unsafe { Tablebase::open_mapped_all(&[dir]) };
    let csv = include_str!("data/syzygy-oracle.csv");
    for line in csv
        .lines()
        .filter(|l| !l.starts_with('#'))
        .skip(1)
        .step_by(5)
    {
        let f: Vec<&str> = line.split(',').collect();
        let pos = Position::from_fen(f[0]).unwrap();
        let d = syz.dtz_of(&pos).unwrap().unwrap();
        assert_eq!(d.syzygy().to_string(), f[2], "{}", f[0]);
        let w = syz.wdl_of(&pos).unwrap().unwrap();
        assert_eq!(w.syzygy().to_string(), f[1], "{}", f[0]);
        let a = syz.answer(&pos, 0).unwrap();
        assert_eq!(a.class, Some(Category::from(w)), "{}", f[0]);
        assert_eq!(a.dtm, None);
    }
    let (ours, all) = zermelo_tables();
    let mut compared = 0;
    for m in all.iter().filter(|m| m.piece_count() == 4).take(12) {
        let ix = zermelo_chess::Indexer::new(m);
        let mut idx = 7;
        while idx < ix.size() {
            if let Some(pos) = ix.legal(idx) {
                let (theirs, mine) = (syz.answer(&pos, 0).unwrap(), ours.answer(&pos, 0).unwrap());
                assert_eq!(theirs.class, mine.class, "{m} {}", pos.fen());
                let (z, s) = (mine.dtz.unwrap(), theirs.dtz.unwrap());
                let s = zermelo_chess::SyzygyDtz {
                    plies: s.syzygy(),
                    precise: s.precise,
                };
                assert!(dtz_agrees(z.syzygy(), s), "{m} {}", pos.fen());
                let moves = |a: &zermelo_chess::Answer| {
                    let mut v: Vec<_> = a.moves.iter().map(|m| (m.mv, m.class)).collect();
                    v.sort_by_key(|(mv, _)| mv.to_string());
                    v
                };
                assert_eq!(moves(&theirs), moves(&mine), "{m} {}", pos.fen());
                compared += 1;
            }
            idx += 997;
        }
    }
    assert!(compared > 1000, "{compared}");
}
